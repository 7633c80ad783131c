"""Players: add, rename, archive. A refused name gets its reason on the field."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.core.errors import InvalidName
from companion.core.players import Player
from companion.ui.routes import HOME, Navigate
from companion.ui.services import Services
from companion.ui.widgets import action, back, heading, typed_text


@ft.component
def NameField(label: str, submit_label: str, on_submit: Callable[[str], None],
              initial: str = "", on_cancel: Callable[[], None] | None = None):
    """A name field with one submit button; `on_submit` raises InvalidName to refuse."""
    text, set_text = ft.use_state(initial)
    # The latest typed text, read by submit: a tap can arrive before the re-render that would
    # give submit a fresh closure, and the name typed last must never be lost.
    typed = ft.use_ref(initial)
    error, set_error = ft.use_state(None)

    def change(value: str) -> None:
        typed.current = value
        set_text(value)

    def submit(_=None):
        try:
            on_submit(typed.current)
        except InvalidName as refused:
            set_error(str(refused))
            return
        set_error(None)
        change("")

    buttons = [action(submit_label, submit, primary=True)]
    if on_cancel is not None:
        buttons.append(action("Cancel", lambda _: on_cancel()))
    return ft.Column([
        ft.TextField(label=label, value=text, error=error,
                     on_change=lambda e: change(typed_text(e)), on_submit=submit),
        ft.Row(buttons, wrap=True),
    ])


@ft.component
def PlayerRow(services: Services, player: Player, refresh: Callable[[], None]):
    renaming, set_renaming = ft.use_state(False)
    players = services.storage.players

    def rename(name: str) -> None:
        players.rename(player.id, name)
        set_renaming(False)
        refresh()

    def toggle_archived(_) -> None:
        (players.unarchive if player.archived else players.archive)(player.id)
        refresh()

    if renaming:
        return NameField(f"New name for {player.name}", "Save name", rename, initial=player.name,
                         on_cancel=lambda: set_renaming(False))
    label = f"{player.name} (archived)" if player.archived else player.name
    return ft.Column([
        ft.Text(label, size=18),
        ft.Row([
            ft.TextButton(f"Rename {player.name}", on_click=lambda _: set_renaming(True),
                          height=48),
            ft.TextButton(f"{'Restore' if player.archived else 'Archive'} {player.name}",
                          on_click=toggle_archived, height=48),
        ], wrap=True),
    ], spacing=0)


@ft.component
def PlayersScreen(services: Services, navigate: Navigate):
    version, set_version = ft.use_state(0)  # bumped after every stored change to re-read the roster
    show_archived, set_show_archived = ft.use_state(False)
    roster = services.storage.players.list(include_archived=show_archived)

    def refresh() -> None:
        set_version(version + 1)

    def add(name: str) -> None:
        services.storage.players.add(name)
        refresh()

    return ft.Column([
        back(navigate, HOME),
        heading("Players"),
        NameField("New player's name", "Add player", add),
        ft.Switch(label="Show archived players", value=show_archived,
                  on_change=lambda e: set_show_archived(e.control.value)),
        *(PlayerRow(services, player, refresh, key=player.id) for player in roster),
        *([] if roster else [ft.Text("No players yet: add the people at your table.")]),
    ])
