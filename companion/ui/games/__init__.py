"""One scoring screen per game; a game without an entry here says so honestly on the home screen."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

GameScreen = Callable[..., ft.Control]

# game key -> component(services, navigate, match) drawing that game's table-side screen.
GAME_SCREENS: dict[str, GameScreen] = {}
