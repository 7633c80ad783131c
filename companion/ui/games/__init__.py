"""One table-side screen per game, plugged into the shared match screen.

The match screen (companion/ui/screens/match.py) draws what every game shares: the standings,
dealer and turn, undo, abandon, the round-by-round history with correction (G2), the result,
and the rules card. A game contributes a GameScreen: the form that enters its next event (also
used, pre-filled, to correct a past one), a one-line description of each event for the history,
and its rules card. A game without an entry here says so honestly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import flet as ft

from companion.core.game import Event
from companion.core.match import Match


@dataclass(frozen=True)
class EntryContext:
    """What an entry form gets.

    `state` is the game state the entry follows (when correcting entry N, the state before N).
    `submit(event)` stores it and returns True, or shows why it was refused and returns False.
    `editing` is the event being corrected, for pre-filling the form, else None.
    """

    services: Any
    match: Match
    state: Any
    names: Mapping[str, str]
    submit: Callable[[Event], bool]
    editing: Event | None = None


@dataclass(frozen=True)
class GameScreen:
    entry: Callable[[EntryContext], ft.Control]  # an @ft.component taking the context
    describe: Callable[[Event, Mapping[str, str]], str]  # "Hand 3: Ann went out; Bob 17, Cy 4"
    rules_card: str  # the game's rules in our own words, with the rulings' effects (Markdown)

