"""One table-side screen per game, plugged into the shared match screen.

The match screen (companion/ui/screens/match.py) draws what every game shares: the standings,
dealer and turn, undo, abandon, the round-by-round history with correction (G2), the result,
and the rules card. A game contributes a GameScreen: the form that enters its next event (also
used, pre-filled, to correct a past one), a one-line description of each event for the history,
its rules card, and optionally a result: what the game adds to the final standings once it is
over (the entry form is gone then). A game without an entry here says so honestly.
"""

from __future__ import annotations

import re
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
    # Shown under the final standings once the game is over (e.g. the session's statistics): an
    # @ft.component taking the context; it reads the state and names, and submits nothing.
    result: Callable[[EntryContext], ft.Control] | None = None


def with_names(message: str, names: Mapping[str, str]) -> str:
    """`message` with every player id in `names` replaced by the player's name.

    The rules engines name players by id; the table knows them by name. One pass over the
    message, so a name that looks like another player's id is never replaced again.
    """
    if not names:
        return message
    ids = re.compile("|".join(re.escape(player) for player in sorted(names, key=len, reverse=True)))
    return ids.sub(lambda found: names[found.group()], message)

