"""The records the storage layer hands out, besides the core's Player and Match."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from companion.core.errors import FormatError, TablemateError
from companion.core.game import Game, Standing
from companion.core.match import Match, MatchState
from companion.core.types import MatchId, NightId, PlayerId
from companion.history.stats import Outcome, Status, Tallies, played_match, tallies_from_json


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
    """What history and statistics screens need about a match without loading its events.

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
    tallies: Tallies = ()  # each player's figures of the game once finished (history.stats)

    @cached_property
    def outcome(self) -> Outcome:
        """What statistics read off this match (companion.history.stats); worked out once, as
        the library keeps its summaries."""
        status = (Status.ABANDONED if self.abandoned else Status.FINISHED if self.finished
                  else Status.IN_PROGRESS)
        return Outcome(self.id, self.game, self.seats, self.created_at, status, self.winners,
                       self.tallies)


def summarize(match: Match, game: Game, state: MatchState) -> MatchSummary:
    played = played_match(match, game, state)
    finished = played.status is Status.FINISHED
    return MatchSummary(
        id=match.id,
        game=match.game,
        night=match.night,
        seats=match.seating.seats,
        created_at=match.created_at,
        finished=finished,
        abandoned=played.status is Status.ABANDONED,
        winners=played.winners,
        standings=played.standings if finished else (),
        tallies=played.outcome.tallies,
    )


def summary_from_json(data: Any) -> MatchSummary:
    """A summary from its JSON form (codec.to_json) as the index holds it.

    The same result as codec.from_json(MatchSummary, data), written out because the generic
    codec takes about 0.4 ms a summary, seconds for the thousands History and Statistics read.
    It trusts the types of the values the app itself wrote (the index is written whole and
    atomically; a file that is not JSON is repaired on opening); a missing field is reported.
    """
    try:
        return MatchSummary(
            id=MatchId(data["id"]),
            game=data["game"],
            night=data["night"],
            seats=tuple(data["seats"]),
            created_at=data["created_at"],
            finished=data["finished"],
            abandoned=data["abandoned"],
            winners=frozenset(data["winners"]),
            standings=tuple(Standing(standing["player"], standing["score"], standing["rank"])
                            for standing in data["standings"]),
            tallies=tallies_from_json(data["game"], data["tallies"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        known = data.get("id") if isinstance(data, dict) else None
        raise FormatError(f"The summary of game {known!r} in the index is unreadable "
                          f"({type(error).__name__}: {error}).") from None


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
    files: int  # files held other than stored pictures: the library's and the list of picture sets
    pictures: int  # stored pictures of the Tableau picture sets
