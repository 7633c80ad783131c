"""The records the storage layer hands out, besides the core's Player and Match."""

from __future__ import annotations

from dataclasses import dataclass

from companion.core.errors import FormatError, TablemateError
from companion.core.game import Game, Standing
from companion.core.match import Match, MatchState
from companion.core.types import MatchId, NightId, PlayerId


class NotFound(TablemateError, LookupError):
    """No player, night, match or backup has the id asked for."""


class DataTooNew(FormatError):
    """The data folder was written by a newer Tablemate; it is left untouched."""


class DamagedMatch(FormatError):
    """A match whose file was damaged and which no backup could give back."""


@dataclass(frozen=True)
class Night:
    """A game night: a date, an optional place, and (derived from its matches) who played what."""

    id: NightId
    date: str  # ISO date, YYYY-MM-DD
    place: str | None = None
    players: tuple[PlayerId, ...] = ()  # everyone seated in one of its matches, first seen first
    matches: tuple[MatchId, ...] = ()  # oldest first


@dataclass(frozen=True)
class MatchSummary:
    """What a history screen needs about a match without loading its events.

    It is kept in the index and rewritten only when it changes, so it holds nothing that moves
    with every event (no event count, no updated_at): recording an event leaves the index alone
    until the game is finished or abandoned.
    """

    id: MatchId
    game: str
    night: NightId | None
    seats: tuple[PlayerId, ...]
    created_at: str
    finished: bool = False
    abandoned: bool = False
    winners: frozenset[PlayerId] = frozenset()
    standings: tuple[Standing, ...] = ()  # the final standings once finished, else empty


def summarize(match: Match, game: Game, state: MatchState) -> MatchSummary:
    finished = not state.abandoned and game.is_over(state.game)
    return MatchSummary(
        id=match.id,
        game=match.game,
        night=match.night,
        seats=match.seating.seats,
        created_at=match.created_at,
        finished=finished,
        abandoned=state.abandoned,
        winners=game.winners(state.game) if finished else frozenset(),
        standings=game.standings(state.game) if finished else (),
    )


@dataclass(frozen=True)
class RecoveryNotice:
    """Something the app repaired on its own, worded for the player; the UI shows `message`."""

    file: str  # the damaged file, relative to the data folder
    moved_to: str | None  # where the damaged file now is (never deleted); None if left in place
    restored_from: str | None  # the backup id its content came back from, or None if none had it
    message: str


@dataclass(frozen=True)
class Backup:
    id: str  # sortable: newer backups have larger ids
    created_at: str  # ISO 8601, UTC
    files: int
