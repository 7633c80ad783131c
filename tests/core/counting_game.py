"""A minimal game for testing the shared match model apart from any real game's rules."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.core.errors import InvalidEvent
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.types import PlayerId


@dataclass(frozen=True)
class CountingOptions:
    target: int = 10


@dataclass(frozen=True)
class Scored(Event, kind="counting.scored"):
    player: PlayerId
    points: int


@dataclass(frozen=True)
class CountingState:
    table: Table
    scores: tuple[tuple[PlayerId, int], ...]
    deals: int = 0


class CountingGame(Game[CountingState, CountingOptions]):
    key = "counting"
    title = "Counting"
    min_players = 2
    max_players = 4
    options_type = CountingOptions
    event_types = (Scored,)
    state_type = CountingState

    def initial_state(self, table: Table) -> CountingState:
        return CountingState(table, tuple((seat, 0) for seat in table.seating.seats))

    def apply(self, state: CountingState, event: Event) -> CountingState:
        assert isinstance(event, Scored)
        state.table.seating.seat_of(event.player)
        if not 0 <= event.points <= 5:
            raise InvalidEvent("Points are 0 to 5.")
        if self.is_over(state):
            raise InvalidEvent("The game is over.")
        scores = tuple((p, s + event.points if p == event.player else s) for p, s in state.scores)
        return replace(state, scores=scores, deals=state.deals + 1)

    def standings(self, state: CountingState) -> tuple[Standing, ...]:
        return rank_scores(dict(state.scores))

    def is_over(self, state: CountingState) -> bool:
        return any(score >= state.table.options.target for _, score in state.scores)

    def dealer(self, state: CountingState) -> PlayerId:
        seating = state.table.seating
        return seating.player(seating.dealer_of_deal(state.deals))


COUNTING = CountingGame()
