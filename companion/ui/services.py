"""What the screens use: storage, the games, and the clock, behind one small object.

Every change goes to storage (which has it on disk when the call returns) before a screen shows
it as accepted. One object serves every browser session of the process; storage is thread-safe.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from companion.core.game import Event, Game
from companion.core.match import Match, MatchState
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.registry import GAMES, game_for
from companion.ui.sharing import Sharing
from storage import Library, open_library
from storage.deck_profile import DeckProfileStore
from storage.library import random_id, utc_now


@dataclass
class Services:
    storage: Library
    data_dir: Path
    clock: Callable[[], str] = utc_now
    today: Callable[[], date] = date.today
    games: dict[str, Game] = field(default_factory=lambda: GAMES)
    sharing: Sharing = field(default_factory=Sharing)  # the table shared on the network, if any
    # The deck the user taught the app (issue 6 calibration), kept in the data folder.
    deck_profile: DeckProfileStore = field(init=False)

    def __post_init__(self) -> None:
        self.deck_profile = DeckProfileStore(self.data_dir)

    @property
    def notices(self) -> tuple[str, ...]:
        """Every repair since opening, said on the home screen: data files, picture sets and
        the deck profile."""
        return (*(notice.message for notice in self.storage.notices),
                *self.storage.pictures.notices, *self.deck_profile.notices)

    def game(self, key: str) -> Game:
        return game_for(key)

    def start_match(self, game_key: str, seats: tuple[PlayerId, ...], first_dealer: int,
                    options: object | None = None) -> Match:
        """Create and store a match, filed under today's game night (issue 5)."""
        game = game_for(game_key)
        seating = Seating(seats, first_dealer)
        table = game.new_table(seating, options)  # refuses a player count out of range
        night = self.storage.nights.get_or_create_for_date(self.today())
        now = self.clock()
        match = Match(MatchId(random_id()), game_key, seating, table.options, now, now,
                      night=night.id)
        self.storage.matches.create(match)
        return match

    def record_event(self, match: Match, event: Event) -> tuple[Match, MatchState]:
        """Validate `event` by the rules and put it on disk; only then is it accepted."""
        return self.storage.matches.append_event(match.id, event)

    def save_log(self, match: Match) -> MatchState:
        """Store a rewritten log (undo or correction) in full."""
        return self.storage.matches.save(match)


def open_services(data_dir: Path) -> Services:
    return Services(storage=open_library(data_dir, game_for), data_dir=data_dir)
