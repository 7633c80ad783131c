"""Every game the app knows, by key, in the order the home screen lists them."""

from __future__ import annotations

from companion.core.game import Game
from companion.games.patience import CRAZY_QUILT, WINDMILL
from companion.games.plaza import PLAZA
from companion.games.tabit import TABIT
from companion.games.tablanette import TABLANETTE
from companion.games.tableau import TABLEAU
from companion.games.tableau_solitaire import TABLEAU_SOLITAIRE

GAMES: dict[str, Game] = {
    game.key: game
    for game in (TABLEAU, TABLEAU_SOLITAIRE, PLAZA, TABLANETTE, TABIT, CRAZY_QUILT, WINDMILL)
}


def game_for(key: str) -> Game:
    """The game with this key; KeyError for a game the app does not know."""
    return GAMES[key]
