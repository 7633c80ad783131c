"""Which game has a table-side screen: game key -> GameScreen (see companion/ui/games/__init__.py)."""

from __future__ import annotations

from companion.ui.games import GameScreen
from companion.ui.games.patience import CRAZY_QUILT_SCREEN, WINDMILL_SCREEN
from companion.ui.games.plaza import PLAZA_SCREEN
from companion.ui.games.tabit import TABIT_SCREEN
from companion.ui.games.tablanette import TABLANETTE_SCREEN
from companion.ui.games.tableau import TABLEAU_SCREEN
from companion.ui.games.tableau_solitaire import SOLITAIRE_SCREEN

GAME_SCREENS: dict[str, GameScreen] = {
    # one line per game, e.g.  "plaza": PLAZA_SCREEN,  (import it above)
    "plaza": PLAZA_SCREEN,
    "tablanette": TABLANETTE_SCREEN,
    "tableau": TABLEAU_SCREEN,
    "tableau_solitaire": SOLITAIRE_SCREEN,
    "tabit": TABIT_SCREEN,
    "crazy_quilt": CRAZY_QUILT_SCREEN,
    "windmill": WINDMILL_SCREEN,
}
