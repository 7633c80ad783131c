"""Settings (issue 5): export the whole history (JSON to re-import, CSV for spreadsheets), import
a history file, and the automatic rolling backups with restore.

In the web app a file is offered with FilePicker.save_file(src_bytes=...), which the browser
turns into a download; on the desktop it opens a save dialog. Both work offline.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

import flet as ft

from companion.core.errors import TablemateError
from companion.history.exchange import ImportResult, export_json, history_of, history_to_csv, import_json
from companion.ui.routes import HOME, Navigate, Route
from companion.ui.services import Services
from companion.ui.widgets import action, back, heading
from storage.model import Backup


def backup_label(backup: Backup) -> str:
    """'21 Nov 2026, 16:12:05 UTC': when the backup was taken, as a person reads it."""
    return datetime.fromisoformat(backup.created_at).strftime("%d %b %Y, %H:%M:%S UTC")


def counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def backup_contents(backup: Backup) -> str:
    """'4 files and 6 pictures': what the backup holds, every file counted once."""
    files = counted(backup.files, "file")
    return f"{files} and {counted(backup.pictures, 'picture')}" if backup.pictures else files


def import_summary(file_name: str, result: ImportResult) -> str:
    return (f"Imported {file_name}: {counted(result.players_added, 'player')}, "
            f"{counted(result.nights_added, 'game night')} and "
            f"{counted(result.matches_added, 'game')} added; "
            f"{counted(result.already_present, 'record')} already here.")


def export_file_name(today: str, extension: str) -> str:
    return f"tablemate-history-{today}.{extension}"


@ft.component
def BackupList(services: Services, report: Callable[[str, bool], None]):
    """Backups newest first, each with Restore; restoring asks once more, then says what it did."""
    storage = services.storage
    confirming, set_confirming = ft.use_state(None)  # the backup id awaiting a second tap
    _, set_version = ft.use_state(0)
    backups = storage.list_backups()
    labels = {backup.id: backup_label(backup) for backup in backups}

    def back_up_now(_) -> None:
        made = storage.backup_now()
        report(f"Backed up: {labels_after(made)}." if made else
               "Nothing changed since the newest backup: no new one was needed.", False)
        set_version(lambda version: version + 1)

    def labels_after(backup_id: str) -> str:
        return next(backup_label(b) for b in storage.list_backups() if b.id == backup_id)

    def restore(backup_id: str) -> None:
        set_confirming(None)
        try:
            before = storage.restore_backup(backup_id)
        except (TablemateError, OSError) as error:
            report(f"The backup could not be restored: {error}", True)
            return
        report(f"Restored the data as it was on {labels[backup_id]}. The data from just before "
               f"is kept as the backup of {labels_after(before)}: restore that to undo this.",
               False)
        set_version(lambda version: version + 1)

    def row(backup: Backup) -> ft.Control:
        label = labels[backup.id]
        if confirming == backup.id:
            return ft.Column([
                ft.Text(f"Restore the data as it was on {label}? What is here now is backed up "
                        "first.", size=16),
                ft.Row([action("Yes, restore it", lambda _: restore(backup.id), primary=True),
                        action("Cancel", lambda _: set_confirming(None))], wrap=True),
            ])
        return ft.Row([
            ft.Text(f"{label} ({backup_contents(backup)})", expand=True),
            action(f"Restore {label}", lambda _: set_confirming(backup.id)),
        ])

    return ft.Column([
        heading("Backups"),
        ft.Text("Tablemate backs up its data folder each time it starts, keeping the newest "
                "ones. Newest first:"),
        *(row(backup) for backup in backups),
        *([] if backups else [ft.Text("No backups yet.", italic=True)]),
        action("Back up now", back_up_now),
    ])


@ft.component
def SettingsScreen(services: Services, navigate: Navigate):
    message, set_message = ft.use_state(None)  # (text, is_problem)
    games = services.game

    def report(text: str, problem: bool) -> None:
        set_message((text, problem))

    async def offer(extension: str, make_text: Callable[[], str]) -> None:
        name = export_file_name(services.today().isoformat(), extension)
        await ft.FilePicker().save_file(file_name=name, src_bytes=make_text().encode("utf-8"))
        report(f"Exported the whole history as {name}.", False)

    async def export_as_json(_) -> None:
        await offer("json", lambda: export_json(services.storage, games))

    async def export_as_csv(_) -> None:
        await offer("csv", lambda: history_to_csv(history_of(services.storage), games))

    async def import_file(_) -> None:
        files = await ft.FilePicker().pick_files(
            file_type=ft.FilePickerFileType.CUSTOM, allowed_extensions=["json"], with_data=True)
        if not files or files[0].bytes is None:
            return  # cancelled
        picked = files[0]
        try:
            text = picked.bytes.decode("utf-8")
        except UnicodeDecodeError:
            report(f"{picked.name} was not imported: it is not a text (UTF-8) file.", True)
            return
        try:
            result = import_json(text, services.storage, games)
        except TablemateError as error:
            report(f"{picked.name} was not imported, nothing changed: {error}", True)
            return
        report(import_summary(picked.name, result), False)

    shown = [] if message is None else [ft.Text(
        message[0], size=16, color=ft.Colors.ERROR if message[1] else None)]
    return ft.Column([
        back(navigate, HOME, "Home"),
        heading("Settings"),
        *shown,
        heading("Export and import"),
        ft.Text("The JSON file can be imported again, here or on another device; the CSV file "
                "(one row per player per game) opens in a spreadsheet."),
        ft.Row([action("Export history as JSON", export_as_json, primary=True),
                action("Export history as CSV", export_as_csv)], wrap=True),
        ft.Text("Importing adds what this device lacks and never overwrites what it has; "
                "a file with any fault is refused whole."),
        action("Import a history file", import_file),
        heading("Tableau pictures"),
        action("Picture sets", lambda _: navigate(Route("pictures"))),
        BackupList(services, report),
    ])
