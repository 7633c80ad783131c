"""Where the library's TinyDB databases live: a data folder on disk, or memory (for tests).

The library sees named databases ("index.json", "matches/<id>.json"). The folder keeps each in
its own small file written atomically, repairs damaged files from the automatic backups, and
makes the backups; memory just keeps TinyDB MemoryStorage objects. The backups also hold the
picture store's files (storage.pictures, which repairs its own from them), and a restore puts
those back too.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from tinydb import TinyDB
from tinydb.storages import MemoryStorage
from tinydb.table import Table

from storage.atomic import (
    TEMPORARY_SUFFIX,
    AtomicJSONStorage,
    DamagedFile,
    atomic_copy,
    fsync_directory,
    read_tables,
)
from storage.backups import STAMP_FORMAT, BackupStore, backup_time, taken_at
from storage.model import Backup, NotFound, RecoveryNotice
from storage.pictures import PICTURES, is_picture, stored_files

INDEX = "index.json"
MATCHES = "matches"
DAMAGED = "damaged"
OPEN_FILES = 64  # match databases kept open (each holds its parsed file in memory)


class KeyedTable(Table):
    """Documents are keyed by the record's own string id, so a lookup is a dict access."""

    document_id_class = str  # type: ignore[assignment]


class Database(TinyDB):
    table_class = KeyedTable


def match_file(match_id: str) -> str:
    return f"{MATCHES}/{match_id}.json"


class Files(Protocol):
    notices: list[RecoveryNotice]

    def database(self, name: str) -> Database:
        """The database `name`, created empty if missing (a damaged file is repaired first)."""

    def exists(self, name: str) -> bool: ...

    def remove(self, name: str) -> None: ...

    def match_files(self) -> list[str]: ...

    def backups(self) -> tuple[Backup, ...]: ...

    def backup(self) -> str | None: ...

    def restore(self, backup_id: str) -> str: ...

    def close(self) -> None: ...


class MemoryFiles:
    """Every database in memory: the in-memory library for tests, with no backups."""

    def __init__(self) -> None:
        self.notices: list[RecoveryNotice] = []
        self._databases: dict[str, Database] = {}

    def database(self, name: str) -> Database:
        if name not in self._databases:
            self._databases[name] = Database(storage=MemoryStorage)
        return self._databases[name]

    def exists(self, name: str) -> bool:
        return name in self._databases

    def remove(self, name: str) -> None:
        del self._databases[name]

    def match_files(self) -> list[str]:
        return [name for name in self._databases if name.startswith(f"{MATCHES}/")]

    def backups(self) -> tuple[Backup, ...]:
        return ()

    def backup(self) -> str | None:
        return None

    def restore(self, backup_id: str) -> str:
        raise NotFound(f"There is no backup {backup_id!r}: this library lives in memory.")

    def close(self) -> None:
        self._databases.clear()


def _readable(path: Path) -> bool:
    try:
        return read_tables(path) is not None
    except DamagedFile:
        return False


class FolderFiles:
    """One small TinyDB file per database in a data folder, with rolling backups.

    Not thread-safe by itself: the library serialises every call.
    """

    def __init__(self, folder: Path, keep_backups: int) -> None:
        self.folder = folder
        self.notices: list[RecoveryNotice] = []
        (folder / MATCHES).mkdir(parents=True, exist_ok=True)
        (folder / DAMAGED).mkdir(exist_ok=True)
        self._remove_unfinished_writes()
        self._backups = BackupStore(folder, keep_backups)
        self._open: OrderedDict[str, Database] = OrderedDict()

    @property
    def backup_store(self) -> BackupStore:
        """The rolling backups, for the picture store to repair its files from."""
        return self._backups

    def _remove_unfinished_writes(self) -> None:
        # Temporary files of writes a crash interrupted: never renamed, so never acknowledged.
        for directory in (self.folder, self.folder / MATCHES):
            for leftover in directory.glob(f".*{TEMPORARY_SUFFIX}"):
                leftover.unlink()

    def database(self, name: str) -> Database:
        if name in self._open:
            self._open.move_to_end(name)
            return self._open[name]
        storage = AtomicJSONStorage(self.folder / name)
        try:
            storage.read()
        except DamagedFile as damage:
            self._repair(name, damage)
            storage = AtomicJSONStorage(self.folder / name)
        database = Database(storage=lambda: storage)
        self._open[name] = database
        if len(self._open) > OPEN_FILES:
            self._open.popitem(last=False)[1].close()
        return database

    def verify_changed(self) -> None:
        """Read every file that changed since the newest backup, repairing any that is damaged.

        Files unchanged since then are the very files that backup checked, so opening a big
        library reads only what the last session wrote.
        """
        for name in self._backups.changed(self._library_files()):
            self.database(name)

    def _repair(self, name: str, damage: DamagedFile) -> None:
        """Move the damaged file aside (never delete it) and put back its newest good backup."""
        path = self.folder / name
        stamp = datetime.now(UTC).strftime(STAMP_FORMAT)
        moved = self.folder / DAMAGED / f"{name.replace('/', '_')}.{stamp}"
        os.replace(path, moved)
        fsync_directory(moved.parent)
        fsync_directory(path.parent)
        found = self._backups.newest_copy(name, _readable)
        if found is not None:
            atomic_copy(found[1], path)
        self.notices.append(_notice(name, moved.relative_to(self.folder).as_posix(),
                                    found[0] if found else None, damage))

    def exists(self, name: str) -> bool:
        return name in self._open or (self.folder / name).is_file()

    def remove(self, name: str) -> None:
        self._close(name)
        path = self.folder / name
        path.unlink()
        fsync_directory(path.parent)

    def match_files(self) -> list[str]:
        return [f"{MATCHES}/{entry.name}" for entry in os.scandir(self.folder / MATCHES)
                if entry.name.endswith(".json") and not entry.name.startswith(".")]

    def _library_files(self) -> list[str]:
        index = [INDEX] if (self.folder / INDEX).is_file() else []
        return index + self.match_files()

    def _data_files(self) -> list[str]:
        """Everything a backup holds: the library's files and the picture store's."""
        return self._library_files() + stored_files(self.folder)

    def backups(self) -> tuple[Backup, ...]:
        return tuple(self._describe(backup_id) for backup_id in self._backups.ids())

    def _describe(self, backup_id: str) -> Backup:
        held = self._backups.files_of(backup_id)
        pictures = sum(1 for name in held if is_picture(name))
        return Backup(backup_id, backup_time(backup_id).isoformat(), len(held) - pictures,
                      pictures)

    def backup(self) -> str | None:
        """A new backup, unless the newest one already holds exactly the data files."""
        files = self._data_files()
        if not files or self._backups.holds_exactly(files):
            return None
        return self._backups.snapshot(files)

    def restore(self, backup_id: str) -> str:
        """Make the data folder what backup `backup_id` holds; returns the id of a backup of the
        data as it was just before, so a restore can itself be undone."""
        source = self._backups.path_of(backup_id)
        before = self._backups.snapshot(self._data_files(), prune=False)
        self._close_all()
        kept = set(self._backups.files_of(backup_id))
        for name in self._data_files():
            if name not in kept:
                (self.folder / name).unlink()  # it is in backup `before`
        self._remove_emptied_sets()
        for name in sorted(kept):
            target = self.folder / name
            target.parent.mkdir(parents=True, exist_ok=True)  # a picture set the folder lacks
            atomic_copy(source / name, target)
        fsync_directory(self.folder / MATCHES)
        self._backups.prune()
        return before

    def _remove_emptied_sets(self) -> None:
        # A picture set the backup lacks leaves an empty folder, which the picture store would
        # take for a set whose list was lost.
        pictures = self.folder / PICTURES
        for entry in os.scandir(pictures) if pictures.is_dir() else ():
            if entry.is_dir() and not os.listdir(entry.path):
                os.rmdir(entry.path)

    def _close(self, name: str) -> None:
        database = self._open.pop(name, None)
        if database is not None:
            database.close()

    def _close_all(self) -> None:
        for name in list(self._open):
            self._close(name)

    def close(self) -> None:
        self._close_all()


def _notice(name: str, moved_to: str, backup_id: str | None, damage: Any) -> RecoveryNotice:
    what = ("The list of players, nights and games" if name == INDEX
            else f"The file of game {Path(name).stem}")
    if backup_id is None:
        message = (f"{what} was damaged ({damage}) and no backup holds a good copy of it. "
                   f"The damaged file was kept as {moved_to}.")
    else:
        message = (f"{what} was damaged ({damage}), so Tablemate put back its automatic backup of "
                   f"{taken_at(backup_id)}; changes made after that are lost. The damaged file was "
                   f"kept as {moved_to}.")
    return RecoveryNotice(name, moved_to, backup_id, message)
