"""Small building blocks every screen shares, so controls look and behave alike."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import flet as ft

TOUCH = 48  # minimum touch target, in logical pixels


def humanise(name: str) -> str:
    """An identifier or option value as words: "tokens_each" -> "Tokens each"."""
    return name.replace("_", " ").capitalize()


def players_text(fewest: int, most: int) -> str:
    count = str(fewest) if fewest == most else f"{fewest}–{most}"
    return f"{count} player{'s' if most > 1 else ''}"


def heading(text: str) -> ft.Text:
    return ft.Text(text, size=24, weight=ft.FontWeight.BOLD)


def action(label: str, on_click: Callable[[Any], None], *, primary: bool = False,
           disabled: bool = False) -> ft.Control:
    """A button with a visible label (its accessible name) and a 48 px touch target."""
    kind = ft.FilledButton if primary else ft.OutlinedButton
    return kind(label, on_click=on_click, disabled=disabled, height=TOUCH)


def back(navigate: Callable[[Any], None], to: Any, label: str = "Back") -> ft.Control:
    return ft.TextButton(label, on_click=lambda _: navigate(to), height=TOUCH)


def whole_number_problem(text: str, low: int, high: int) -> str | None:
    """Why `text` is not a whole number from `low` to `high`, or None when it is one.

    For a field's `error=`: the message is written for the player who typed it.
    """
    cleaned = text.strip()
    if not cleaned:
        return f"Enter a whole number from {low} to {high}."
    if not (cleaned.isascii() and cleaned.isdigit()):
        return f"“{cleaned}” is not a whole number: enter {low} to {high}."
    if not low <= int(cleaned) <= high:
        return f"{int(cleaned)} is out of range: enter {low} to {high}."
    return None


def typed_text(event: Any) -> str:
    """The text a change event carries: what was typed at that change.

    The control's `value` may already hold a later (or, after a re-render, an older) text by the
    time the handler runs, which loses what was typed; the event's own data never does.
    """
    return event.data or ""


def number_field(label: str, text: str, on_change: Callable[[str], None],
                 error: str | None = None) -> ft.TextField:
    """A field for a number, labelled (its accessible name), with its problem shown on it."""
    return ft.TextField(label=label, value=text, error=error, error_max_lines=3,
                        keyboard_type=ft.KeyboardType.NUMBER,
                        on_change=lambda e: on_change(typed_text(e)))


def use_latest_state(initial: Any) -> tuple[Any, Callable[[Callable[[Any], Any]], None]]:
    """Like ft.use_state, but read through a ref, and changed by a function of the newest value.

    A tap can arrive before the re-render that would give its handler a fresh closure: handlers
    read `ref.current`, and `change(lambda value: ...)` builds on the newest value, so that the
    choice or number entered last is never lost.
    """
    _, set_value = ft.use_state(initial)
    latest = ft.use_ref(initial)

    def change(update: Callable[[Any], Any]) -> None:
        latest.current = update(latest.current)
        set_value(latest.current)

    return latest, change
