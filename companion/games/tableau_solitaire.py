"""Tableau solitaire (tableau.md, ruling T8): one player assembles 1-6 pictures against the clock.

Each attempt records how many pictures, how long, and whether it was finished; the best time per
number of pictures counts finished attempts only. A session lasts until the player ends it (an
explicit event); it is "won" when at least one attempt was finished, since there is nobody to
beat. The time is given by the caller, as seconds or as start and end timestamps: the logic reads
no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from datetime import datetime

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.types import PlayerId
from companion.games.tableau import Edition


@dataclass(frozen=True)
class SolitaireOptions:
    edition: Edition = Edition.DELUXE  # T1: the box's pictures cap an attempt (Junior 4, Deluxe 6)

    def __post_init__(self) -> None:
        if not isinstance(self.edition, Edition):
            raise InvalidSetup("Choose the Junior or the Deluxe edition.")


@dataclass(frozen=True)
class Attempt(Event, kind="tableau_solitaire.attempt"):
    """One timed attempt (T8). Give the time as `seconds`, or as `started_at` and `ended_at`."""

    pictures: int
    finished: bool
    seconds: float | None = None
    started_at: str | None = None  # ISO 8601
    ended_at: str | None = None


@dataclass(frozen=True)
class SessionEnds(Event, kind="tableau_solitaire.session_ends"):
    """The player ends the session; the game is over."""


@dataclass(frozen=True)
class AttemptRecord:
    number: int  # 1 for the first attempt of the session
    pictures: int
    seconds: float
    finished: bool
    new_best: bool  # finished faster than any earlier attempt with as many pictures


@dataclass(frozen=True)
class BestTime:
    pictures: int
    seconds: float
    attempt: int  # the number of the attempt that set it


@dataclass(frozen=True)
class SolitaireState:
    table: Table
    attempts: tuple[AttemptRecord, ...] = ()
    best: tuple[BestTime, ...] = ()  # one per number of pictures with a finished attempt, sorted
    ended: bool = False

    @property
    def player(self) -> PlayerId:
        return self.table.seating.player(0)

    @property
    def finished_attempts(self) -> int:
        return sum(1 for attempt in self.attempts if attempt.finished)

    def best_time(self, pictures: int) -> float | None:
        """The best finished time with `pictures` pictures, or None if none was finished."""
        return next((best.seconds for best in self.best if best.pictures == pictures), None)


class TableauSolitaireGame(Game[SolitaireState, SolitaireOptions]):
    key = "tableau_solitaire"
    title = "Tableau solitaire"
    min_players = 1
    max_players = 1
    options_type = SolitaireOptions
    event_types = (Attempt, SessionEnds)
    state_type = SolitaireState

    def initial_state(self, table: Table) -> SolitaireState:
        return SolitaireState(table)

    def apply(self, state: SolitaireState, event: Event) -> SolitaireState:
        if state.ended:
            raise InvalidEvent("This session has ended; undo its end to record more attempts.")
        if isinstance(event, Attempt):
            return self._attempt(state, event)
        if isinstance(event, SessionEnds):
            if not state.attempts:
                raise InvalidEvent("No attempt has been recorded yet; abandon the session instead.")
            return replace(state, ended=True)
        raise InvalidEvent(f"{type(event).__name__} is not an event of Tableau solitaire.")

    def _attempt(self, state: SolitaireState, attempt: Attempt) -> SolitaireState:
        _check_pictures(attempt.pictures, state.table.options.edition)
        if not isinstance(attempt.finished, bool):
            raise InvalidEvent("Say whether the attempt was finished.")
        seconds = attempt_seconds(attempt)
        number = len(state.attempts) + 1
        previous = state.best_time(attempt.pictures)
        new_best = attempt.finished and (previous is None or seconds < previous)
        record = AttemptRecord(number, attempt.pictures, seconds, attempt.finished, new_best)
        best = state.best
        if new_best:  # T8: best times per number of pictures, finished attempts only
            others = (entry for entry in state.best if entry.pictures != attempt.pictures)
            best = tuple(sorted((*others, BestTime(attempt.pictures, seconds, number)),
                                key=lambda entry: entry.pictures))
        return replace(state, attempts=(*state.attempts, record), best=best)

    def standings(self, state: SolitaireState) -> tuple[Standing, ...]:
        return rank_scores({state.player: state.finished_attempts})

    def is_over(self, state: SolitaireState) -> bool:
        return state.ended

    def winners(self, state: SolitaireState) -> frozenset[PlayerId]:
        """The player wins a finished session in which he completed at least one attempt."""
        return frozenset({state.player}) if state.ended and state.finished_attempts else frozenset()

    def to_act(self, state: SolitaireState) -> PlayerId | None:
        return None if state.ended else state.player


def _check_pictures(pictures: int, edition: Edition) -> None:
    if isinstance(pictures, bool) or not isinstance(pictures, int):
        raise InvalidEvent("The number of pictures must be a whole number.")
    if not 1 <= pictures <= edition.pictures:  # T8 within T1's box
        raise InvalidEvent(f"An attempt uses 1 to {edition.pictures} pictures "
                           f"(the {edition.value} edition), not {pictures}.")


def attempt_seconds(attempt: Attempt) -> float:
    """The attempt's time in seconds, from whichever form it was given in."""
    has_times = (attempt.started_at is not None, attempt.ended_at is not None)
    if attempt.seconds is not None:
        if any(has_times):
            raise InvalidEvent("Give the time either in seconds or as start and end times, "
                               "not both.")
        return _checked_seconds(attempt.seconds)
    if not all(has_times):
        raise InvalidEvent("Give the attempt's time: seconds, or both a start and an end time.")
    start = _timestamp(attempt.started_at, "start")
    end = _timestamp(attempt.ended_at, "end")
    if (start.tzinfo is None) != (end.tzinfo is None):
        raise InvalidEvent("Give the start and end times both with a time zone or both without.")
    return _checked_seconds((end - start).total_seconds())


def _timestamp(text: str | None, which: str) -> datetime:
    try:
        return datetime.fromisoformat(str(text))
    except ValueError:
        raise InvalidEvent(f"The {which} time {text!r} is not a date and time.") from None


def _checked_seconds(seconds: float) -> float:
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        raise InvalidEvent("The time must be a number of seconds.")
    if not math.isfinite(seconds) or seconds <= 0:
        raise InvalidEvent("An attempt's time must be more than zero seconds "
                           "(the end after the start).")
    return float(seconds)


TABLEAU_SOLITAIRE = TableauSolitaireGame()
