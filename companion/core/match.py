"""A match: who plays what, and the append-only log of what happened (G2).

The state of a match is never stored: it is derived by replaying the events through the game's
rules. Undo, correction (replace) and deletion of any past event make a new log and replay it; if
the corrected log no longer makes sense (a later event became impossible), the change is refused
with InvalidEvent and the match is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.core.codec import JSON
from companion.core.errors import FormatError, InvalidEvent, TablemateError
from companion.core.game import Event, Game, Table, event_from_json, event_to_json
from companion.core.seating import Seating
from companion.core.types import MatchId, NightId, PlayerId

FORMAT_VERSION = 1


@dataclass(frozen=True)
class MatchAbandoned(Event, kind="match.abandoned"):
    """The table gave the game up (G4): it is kept as unfinished and counts in no win statistics."""


@dataclass(frozen=True)
class Match:
    id: MatchId
    game: str
    seating: Seating
    options: Any
    created_at: str  # ISO 8601, given by the caller: the logic reads no clock
    updated_at: str
    events: tuple[Event, ...] = ()
    night: NightId | None = None


@dataclass(frozen=True)
class MatchState:
    """A match's derived state: the game's own state plus whether the table abandoned it."""

    game: Any
    abandoned: bool = False


GameLookup = Callable[[str], Game]


def table_of(match: Match, game: Game) -> Table:
    return game.new_table(match.seating, match.options)


def advance(game: Game, state: MatchState, event: Event, position: int | None = None) -> MatchState:
    """The state after one more event; InvalidEvent if it cannot follow `state`."""
    try:
        if state.abandoned:
            raise InvalidEvent("This game was abandoned; undo that first to go on playing it.")
        if isinstance(event, MatchAbandoned):
            return MatchState(state.game, abandoned=True)
        if not isinstance(event, game.event_types):
            raise InvalidEvent(f"{type(event).__name__} is not an event of {game.title}.")
        return MatchState(game.apply(state.game, event))
    except InvalidEvent as error:
        if position is None:
            raise
        raise InvalidEvent(f"Entry {position + 1}: {error}") from None


def replay(match: Match, game: Game) -> MatchState:
    """Derive the state by applying every event in order from the start."""
    state = MatchState(game.initial_state(table_of(match, game)))
    for position, event in enumerate(match.events):
        state = advance(game, state, event, position)
    return state


def record(match: Match, game: Game, event: Event, now: str,
           state: MatchState | None = None) -> tuple[Match, MatchState]:
    """Append `event`; pass the current `state` to skip a replay. Raises InvalidEvent."""
    current = replay(match, game) if state is None else state
    following = advance(game, current, event)
    return replace(match, events=(*match.events, event), updated_at=now), following


def _rewritten(match: Match, game: Game, events: tuple[Event, ...], now: str) -> tuple[Match, MatchState]:
    changed = replace(match, events=events, updated_at=now)
    return changed, replay(changed, game)


def undo(match: Match, game: Game, now: str) -> tuple[Match, MatchState]:
    """Take back the last event."""
    if not match.events:
        raise InvalidEvent("There is nothing to undo yet.")
    return _rewritten(match, game, match.events[:-1], now)


def _check_position(match: Match, position: int) -> None:
    if not 0 <= position < len(match.events):
        raise InvalidEvent(f"There is no entry {position + 1} in this game.")


def correct(match: Match, game: Game, position: int, event: Event, now: str) -> tuple[Match, MatchState]:
    """Replace the event at `position` (a correction, G2); everything after it is re-derived."""
    _check_position(match, position)
    events = (*match.events[:position], event, *match.events[position + 1:])
    return _rewritten(match, game, events, now)


def delete(match: Match, game: Game, position: int, now: str) -> tuple[Match, MatchState]:
    """Remove the event at `position` (G2); everything after it is re-derived."""
    _check_position(match, position)
    return _rewritten(match, game, (*match.events[:position], *match.events[position + 1:]), now)


def match_to_json(match: Match, game: Game) -> dict[str, JSON]:
    """The documented, versioned match format (docs/match-format.md)."""
    return {
        "format": FORMAT_VERSION,
        "id": match.id,
        "game": match.game,
        "night": match.night,
        "seats": list(match.seating.seats),
        "first_dealer": match.seating.first_dealer,
        "options": game.options_to_json(match.options),
        "created_at": match.created_at,
        "updated_at": match.updated_at,
        "events": [event_to_json(event) for event in match.events],
    }


def _field(data: Mapping[str, JSON], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
        raise FormatError(f"match: field {name!r} is missing or not a {getattr(kind, '__name__', kind)}")
    return value


def match_from_json(data: JSON, games: GameLookup) -> Match:
    """Read a match in the documented format; FormatError says which field is wrong.

    The log is replayed once, so a file whose events break the rules is refused too.
    """
    if not isinstance(data, dict):
        raise FormatError("match: expected an object")
    version = _field(data, "format", int)
    if version > FORMAT_VERSION:
        raise FormatError(f"match: format {version} is newer than this app understands")
    game_key = _field(data, "game", str)
    try:
        game = games(game_key)
    except KeyError:
        raise FormatError(f"match: unknown game {game_key!r}") from None
    seats = _field(data, "seats", list)
    if not all(isinstance(seat, str) for seat in seats):
        raise FormatError("match: field 'seats' must list player ids")
    night = data.get("night")
    if night is not None and not isinstance(night, str):
        raise FormatError("match: field 'night' must be a string or null")
    event_types = {event_type.kind: event_type for event_type in (*game.event_types, MatchAbandoned)}
    raw_events = _field(data, "events", list)
    try:
        seating = Seating(tuple(PlayerId(seat) for seat in seats), _field(data, "first_dealer", int))
    except TablemateError as error:
        raise FormatError(f"match: {error}") from None
    match = Match(
        id=MatchId(_field(data, "id", str)),
        game=game_key,
        seating=seating,
        options=game.options_from_json(data.get("options", {})),
        created_at=_field(data, "created_at", str),
        updated_at=_field(data, "updated_at", str),
        events=tuple(event_from_json(event, event_types, f"events[{index}]")
                     for index, event in enumerate(raw_events)),
        night=NightId(night) if night else None,
    )
    try:
        replay(match, game)
    except TablemateError as error:
        raise FormatError(f"match {match.id}: {error}") from None
    return match
