"""What the screens use: storage, the games, and the clock, behind one small object.

Every change goes to storage (which has it on disk when the call returns) before a screen shows
it as accepted. One object serves every browser session of the process; storage is thread-safe.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from storage.api import Storage

from companion.core.game import Event, Game
from companion.core.match import Match, MatchState, record
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.registry import GAMES, game_for
from storage import open_storage


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Services:
    storage: Storage
    data_dir: Path
    notices: tuple[str, ...] = ()
    clock: Callable[[], str] = utc_now
    today: Callable[[], date] = date.today
    games: dict[str, Game] = field(default_factory=lambda: GAMES)

    def game(self, key: str) -> Game:
        return game_for(key)

    def start_match(self, game_key: str, seats: tuple[PlayerId, ...], first_dealer: int,
                    options: object | None = None) -> Match:
        """Create and store a match, filed under today's game night (issue 5)."""
        game = game_for(game_key)
        seating = Seating(seats, first_dealer)
        table = game.new_table(seating, options)  # refuses a player count out of range
        night = self.storage.nights.get_or_create_for_date(self.today().isoformat())
        now = self.clock()
        match = Match(MatchId(uuid.uuid4().hex), game_key, seating, table.options, now, now,
                      night=night.id)
        self.storage.matches.create(match)
        return match

    def record_event(self, match: Match, event: Event,
                     state: MatchState | None = None) -> tuple[Match, MatchState]:
        """Validate `event` by the rules, put it on disk, and only then return the new state."""
        game = game_for(match.game)
        updated, new_state = record(match, game, event, self.clock(), state)
        self.storage.matches.append_event(match.id, event)
        return updated, new_state

    def save_log(self, match: Match) -> None:
        """Store a rewritten log (undo or correction) in full."""
        self.storage.matches.save(match)


def open_services(data_dir: Path) -> Services:
    storage, notices = open_storage(data_dir, game_for)
    return Services(storage=storage, data_dir=data_dir, notices=tuple(notices))
