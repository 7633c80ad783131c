"""One interface for every game (in the spirit of OpenSpiel's game API).

A game is a stateless object that knows its rules: it makes the first state of a match from the
table (seating and options), applies one event to a state to give the next state (or raises
InvalidEvent and changes nothing), and reads standings, dealer, turn and outcome off a state.
States and events are frozen dataclasses, so a state is a value and replay is a fold.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from companion.core.codec import JSON, from_json, to_json
from companion.core.errors import FormatError, InvalidSetup
from companion.core.seating import Seating
from companion.core.types import PlayerId


@dataclass(frozen=True)
class Event:
    """Base of every event. Subclasses name their JSON type: `class Call(Event, kind="tableau.call")`."""

    kind: ClassVar[str] = ""

    def __init_subclass__(cls, kind: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind


def event_to_json(event: Event) -> dict[str, JSON]:
    return {"type": event.kind, **to_json(event)}


def event_from_json(data: JSON, event_types: Mapping[str, type[Event]], where: str = "event") -> Event:
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise FormatError(f"{where}: an event must be an object with a 'type'")
    event_type = event_types.get(data["type"])
    if event_type is None:
        raise FormatError(f"{where}: unknown event type {data['type']!r}")
    fields = {key: value for key, value in data.items() if key != "type"}
    return from_json(event_type, fields, where)


@dataclass(frozen=True)
class Standing:
    player: PlayerId
    score: int
    rank: int  # 1 is best; tied players share a rank (G3)


def rank_scores(scores: Mapping[PlayerId, int], *, lower_is_better: bool = False) -> tuple[Standing, ...]:
    """Standings in rank order with competition ranking (1, 1, 3): tied players share a rank (G3).

    Ties keep the order of `scores` (pass seat order), so the list is stable between renders.
    """
    order = sorted(scores.items(), key=lambda item: item[1] if lower_is_better else -item[1])
    standings: list[Standing] = []
    for position, (player, score) in enumerate(order):
        tied_with_previous = standings and standings[-1].score == score
        rank = standings[-1].rank if tied_with_previous else position + 1
        standings.append(Standing(player, score, rank))
    return tuple(standings)


def leaders(standings: tuple[Standing, ...]) -> frozenset[PlayerId]:
    """Everyone ranked first: a tie for the win is shared (G3)."""
    return frozenset(standing.player for standing in standings if standing.rank == 1)


@dataclass(frozen=True)
class Table:
    """What a game starts from: who sits where, who deals first, and the house-rule options."""

    seating: Seating
    options: Any


StateT = TypeVar("StateT")
OptionsT = TypeVar("OptionsT")


@dataclass(frozen=True)
class NoOptions:
    """For games that have no house-rule options."""


class Game(ABC, Generic[StateT, OptionsT]):
    key: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_type: ClassVar[type] = NoOptions
    event_types: ClassVar[tuple[type[Event], ...]] = ()
    state_type: ClassVar[type]

    def player_range(self, options: OptionsT) -> tuple[int, int]:
        """Fewest and most players; games whose range depends on an option (T1) override this."""
        return self.min_players, self.max_players

    def new_table(self, seating: Seating, options: OptionsT | None = None) -> Table:
        """Check the player count against the game's range and return the table."""
        chosen = self.options_type() if options is None else options
        fewest, most = self.player_range(chosen)
        if not fewest <= seating.size <= most:
            allowed = str(fewest) if fewest == most else f"{fewest} to {most}"
            raise InvalidSetup(f"{self.title} is for {allowed} players, not {seating.size}.")
        return Table(seating, chosen)

    @abstractmethod
    def initial_state(self, table: Table) -> StateT: ...

    @abstractmethod
    def apply(self, state: StateT, event: Event) -> StateT:
        """The state after `event`; raises InvalidEvent (and changes nothing) if it cannot happen."""

    @abstractmethod
    def standings(self, state: StateT) -> tuple[Standing, ...]: ...

    @abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    def winners(self, state: StateT) -> frozenset[PlayerId]:
        """The winners once the game is over (several on a shared win, G3); empty before."""
        return leaders(self.standings(state)) if self.is_over(state) else frozenset()

    def dealer(self, state: StateT) -> PlayerId | None:
        """Who deals now, for games with a dealer."""
        return None

    def to_act(self, state: StateT) -> PlayerId | None:
        """Whose turn it is, for games that track turns."""
        return None

    def options_to_json(self, options: OptionsT) -> JSON:
        return to_json(options)

    def options_from_json(self, data: JSON) -> OptionsT:
        if not isinstance(data, dict):
            raise FormatError("options: expected an object")
        known = {field.name for field in dataclasses.fields(self.options_type)}
        unknown = set(data) - known
        if unknown:
            raise FormatError(f"options: unknown option(s) {sorted(unknown)} for {self.title}")
        return from_json(self.options_type, data, "options")
