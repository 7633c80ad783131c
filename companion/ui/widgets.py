"""Small building blocks every screen shares, so controls look and behave alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

TOUCH = 48  # minimum touch target, in logical pixels


def heading(text: str) -> ft.Text:
    return ft.Text(text, size=24, weight=ft.FontWeight.BOLD)


def action(label: str, on_click: Callable[[Any], None], *, primary: bool = False,
           disabled: bool = False) -> ft.Control:
    """A button with a visible label (its accessible name) and a 48 px touch target."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(label, on_click=on_click, disabled=disabled, height=TOUCH)


def back(navigate: Callable[[Any], None], to: Any, label: str = "Back") -> ft.Control:
    return ft.TextButton(label, on_click=lambda _: navigate(to), height=TOUCH)
