"""Crazy Quilt and Windmill (crazy-quilt-and-windmill.md, rulings Q1-Q3): attempts and statistics.

One engine serves both two-pack patiences; what differs (name, foundation cards out before play,
redeals allowed) is a PatienceRules value and the options. A match is one session of one player:
he starts an attempt (the screen's clock runs from its start), may redeal, finishes it won or
given up, starts the next, and ends the session when he is done. Times are ISO 8601 strings given
by the caller: the logic reads no clock.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from statistics import median
from typing import Any

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import Event, Game, Standing, Table
from companion.core.seating import Seating
from companion.core.types import PlayerId

ALL_CARDS = 104  # Q1: two packs


@dataclass(frozen=True)
class CrazyQuiltOptions:
    redeals_allowed: int = 1  # Q1: "One redeal is permitted."


@dataclass(frozen=True)
class WindmillOptions:
    # The sheet stops before Windmill's stock rules (README). Q1/Q2 give a redeal to Crazy Quilt
    # only, so by default Windmill deals its stock once, the usual rule; some books allow a redeal.
    redeals_allowed: int = 0


@dataclass(frozen=True)
class PatienceRules:
    key: str
    title: str
    options_type: type
    bases_out_at_start: int  # foundation cards laid out before play, counted as home (Q1, Q2)
    bases_named: str  # the same, in words for messages

    def redeals_refused(self, allowed: int) -> str:
        if allowed == 0:
            return f"{self.title} is played without a redeal."
        if allowed == 1:
            return f"{self.title} allows one redeal, and it has been used."
        return f"{self.title} allows {allowed} redeals, and they have all been used."


@dataclass(frozen=True)
class AttemptStarted(Event, kind="patience.started"):
    at: str  # ISO 8601, when the player started laying out


@dataclass(frozen=True)
class Redealt(Event, kind="patience.redealt"):
    """The attempt under way used a redeal."""


@dataclass(frozen=True)
class AttemptFinished(Event, kind="patience.finished"):
    at: str  # ISO 8601, when the player won or gave up
    cards_home: int  # cards on the foundations at the end, bases included (Q2)
    won: bool  # False: given up


@dataclass(frozen=True)
class SessionEnded(Event, kind="patience.session_ended"):
    """The player is done for now; the match is over."""


@dataclass(frozen=True)
class AttemptUnderWay:
    started_at: str
    redeals: int = 0


@dataclass(frozen=True)
class Attempt:
    """A finished attempt (Q2)."""

    started_at: str
    finished_at: str
    seconds: float
    cards_home: int
    redeals: int
    won: bool


@dataclass(frozen=True)
class PatienceState:
    table: Table
    attempts: tuple[Attempt, ...] = ()
    under_way: AttemptUnderWay | None = None
    ended: bool = False


def _moment(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except (TypeError, ValueError):
        message = f"{text!r} is not a time the app can read (ISO 8601 expected)."
        raise InvalidEvent(message) from None


def seconds_between(started_at: str, finished_at: str) -> float:
    """The length of an attempt; InvalidEvent if it would end before it started."""
    try:
        seconds = (_moment(finished_at) - _moment(started_at)).total_seconds()
    except TypeError:
        raise InvalidEvent("The start and end of an attempt must both give a time zone, "
                           "or neither.") from None
    if seconds < 0:
        raise InvalidEvent("An attempt cannot end before it started.")
    return seconds


class PatienceGame(Game[PatienceState, Any]):
    min_players = 1
    max_players = 1
    event_types = (AttemptStarted, Redealt, AttemptFinished, SessionEnded)
    state_type = PatienceState

    def __init__(self, rules: PatienceRules) -> None:
        self.rules = rules
        self.key = rules.key
        self.title = rules.title
        self.options_type = rules.options_type

    def new_table(self, seating: Seating, options: Any = None) -> Table:
        table = super().new_table(seating, options)
        if table.options.redeals_allowed < 0:
            raise InvalidSetup("The number of redeals allowed cannot be negative.")
        return table

    def initial_state(self, table: Table) -> PatienceState:
        return PatienceState(table)

    def apply(self, state: PatienceState, event: Event) -> PatienceState:
        if state.ended:
            raise InvalidEvent("This session is over; start a new game to play again.")
        if isinstance(event, AttemptStarted):
            return self._start(state, event)
        if isinstance(event, Redealt):
            return self._redeal(state)
        if isinstance(event, AttemptFinished):
            return self._finish(state, event)
        if isinstance(event, SessionEnded):
            if state.under_way is not None:
                raise InvalidEvent("Finish the attempt under way (won or given up) first.")
            return replace(state, ended=True)
        raise InvalidEvent(f"{type(event).__name__} is not an event of {self.title}.")

    @staticmethod
    def _start(state: PatienceState, event: AttemptStarted) -> PatienceState:
        if state.under_way is not None:
            raise InvalidEvent("An attempt is already under way: finish it (won or given up) "
                               "before starting another.")
        _moment(event.at)
        return replace(state, under_way=AttemptUnderWay(event.at))

    def _redeal(self, state: PatienceState) -> PatienceState:
        if state.under_way is None:
            raise InvalidEvent("Start an attempt before redealing.")
        allowed = state.table.options.redeals_allowed
        if state.under_way.redeals >= allowed:
            raise InvalidEvent(self.rules.redeals_refused(allowed))
        return replace(state, under_way=replace(state.under_way,
                                                redeals=state.under_way.redeals + 1))

    def _finish(self, state: PatienceState, event: AttemptFinished) -> PatienceState:
        if state.under_way is None:
            raise InvalidEvent("No attempt is under way: start one first.")
        self._check_outcome(event.cards_home, event.won)
        attempt = Attempt(
            started_at=state.under_way.started_at,
            finished_at=event.at,
            seconds=seconds_between(state.under_way.started_at, event.at),
            cards_home=event.cards_home,
            redeals=state.under_way.redeals,
            won=event.won,
        )
        return replace(state, attempts=(*state.attempts, attempt), under_way=None)

    def _check_outcome(self, cards_home: int, won: bool) -> None:
        """Q2: cards home count the bases, so never fewer than were out at the start; won is
        exactly all 104 home."""
        fewest = self.rules.bases_out_at_start
        if cards_home < fewest:
            raise InvalidEvent(f"{self.title} starts with {self.rules.bases_named} home, so cards "
                               f"home cannot be fewer than {fewest} ({cards_home} was entered).")
        if cards_home > ALL_CARDS:
            raise InvalidEvent(f"Two packs hold {ALL_CARDS} cards, so {cards_home} cannot be home.")
        if won and cards_home < ALL_CARDS:
            raise InvalidEvent(f"A won game has all {ALL_CARDS} cards home, not {cards_home}.")
        if not won and cards_home == ALL_CARDS:
            raise InvalidEvent(f"With all {ALL_CARDS} cards home the game is won, not given up.")

    def standings(self, state: PatienceState) -> tuple[Standing, ...]:
        """One player; his score is the number of attempts won this session."""
        wins = sum(attempt.won for attempt in state.attempts)
        return (Standing(state.table.seating.player(0), wins, 1),)

    def is_over(self, state: PatienceState) -> bool:
        return state.ended

    def winners(self, state: PatienceState) -> frozenset[PlayerId]:
        """A session counts as won when at least one of its attempts came out."""
        if state.ended and any(attempt.won for attempt in state.attempts):
            return frozenset({state.table.seating.player(0)})
        return frozenset()

    def to_act(self, state: PatienceState) -> PlayerId | None:
        return None if state.ended else state.table.seating.player(0)


@dataclass(frozen=True)
class PatienceStatistics:
    """Q3, over a history of finished attempts in the order they were played."""

    attempts: int
    wins: int
    win_rate: float | None  # None before any attempt
    best_seconds: float | None  # fastest won attempt; None before any win
    median_seconds: float | None  # of won attempts
    average_cards_home: float | None
    current_streak: int  # wins in a row at the end of the history
    longest_streak: int


def attempt_statistics(attempts: Sequence[Attempt]) -> PatienceStatistics:
    """Q3 statistics of any history of attempts (one session, or several put in order)."""
    won_seconds = [attempt.seconds for attempt in attempts if attempt.won]
    streak = longest = 0
    for attempt in attempts:
        streak = streak + 1 if attempt.won else 0
        longest = max(longest, streak)
    count = len(attempts)
    return PatienceStatistics(
        attempts=count,
        wins=len(won_seconds),
        win_rate=len(won_seconds) / count if count else None,
        best_seconds=min(won_seconds, default=None),
        median_seconds=median(won_seconds) if won_seconds else None,
        average_cards_home=sum(a.cards_home for a in attempts) / count if count else None,
        current_streak=streak,
        longest_streak=longest,
    )


def session_statistics(state: PatienceState) -> PatienceStatistics:
    return attempt_statistics(state.attempts)


CRAZY_QUILT = PatienceGame(PatienceRules(
    key="crazy_quilt", title="Crazy Quilt", options_type=CrazyQuiltOptions,
    bases_out_at_start=8, bases_named="its 8 foundation aces and kings",  # Q1
))
WINDMILL = PatienceGame(PatienceRules(
    key="windmill", title="Windmill", options_type=WindmillOptions,
    bases_out_at_start=1, bases_named="its centre ace",  # Q1: the kings come out during play
))
