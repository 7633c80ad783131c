"""Where the user is in the app."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Route:
    """A screen name and, for some screens, what it shows (a game key, a match id)."""

    screen: str = "home"
    target: str = ""


Navigate = Callable[[Route], None]
HOME = Route()
