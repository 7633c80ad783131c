"""Rolling automatic backups of a data folder.

A backup is a folder `backups/<id>/` mirroring the data files. Each one is a full copy to read,
but a file that has not changed since the previous backup is a hard link to that backup's copy
(as rsync --link-dest does), so a backup costs one link per unchanged file and one copy per
changed file. Links only ever join backup copies, never a live file: a live file damaged in place
cannot reach into a backup. A backup is built under a temporary name and renamed when complete,
so a crash never leaves a half backup in the list.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from storage.atomic import fsync_directory
from storage.model import NotFound

INCOMPLETE_PREFIX = ".incomplete-"
STAMP_FORMAT = "%Y%m%dT%H%M%S%fZ"
BACKUP_ID = re.compile(r"\d{8}T\d{12}Z")


def _same_file_contents_expected(a: os.stat_result, b: os.stat_result) -> bool:
    # Copies keep their modification time (copy2), and every live write replaces the file, so
    # equal size and mtime mean the live file is the one the previous backup copied.
    return a.st_size == b.st_size and a.st_mtime_ns == b.st_mtime_ns


class BackupStore:
    def __init__(self, data_folder: Path, keep: int) -> None:
        if keep < 1:
            raise ValueError("keep at least one backup")
        self.data_folder = data_folder
        self.folder = data_folder / "backups"
        self.keep = keep
        self.folder.mkdir(parents=True, exist_ok=True)
        for leftover in self.folder.glob(f"{INCOMPLETE_PREFIX}*"):
            shutil.rmtree(leftover)  # a backup interrupted by a crash; the live data is intact

    def ids(self) -> list[str]:
        """Backup ids, newest first."""
        return sorted((entry.name for entry in self.folder.iterdir()
                       if entry.is_dir() and BACKUP_ID.fullmatch(entry.name)), reverse=True)

    def files_of(self, backup_id: str) -> list[str]:
        """The data files (relative paths) backup `backup_id` holds."""
        copies = self.folder / backup_id
        return [path.relative_to(copies).as_posix() for path in copies.rglob("*") if path.is_file()]

    def path_of(self, backup_id: str) -> Path:
        if backup_id not in self.ids():
            raise NotFound(f"There is no backup {backup_id!r}.")
        return self.folder / backup_id

    def changed(self, files: Iterable[str]) -> list[str]:
        """The data files (relative paths) that differ from their copy in the newest backup."""
        newest = self.ids()[:1]
        return [name for name in files
                if not newest or not self._unchanged(name, self.folder / newest[0] / name)]

    def holds_exactly(self, files: list[str]) -> bool:
        """Whether the newest backup has these files, unchanged, and no others."""
        newest = self.ids()[:1]
        if not newest or self.changed(files):
            return False
        return len(self.files_of(newest[0])) == len(files)

    def _unchanged(self, name: str, copy: Path) -> bool:
        try:
            return _same_file_contents_expected((self.data_folder / name).stat(), copy.stat())
        except FileNotFoundError:
            return False

    def snapshot(self, files: Iterable[str], *, prune: bool = True) -> str:
        """Back up `files` (relative paths of readable data files); returns the new backup id."""
        backup_id = self._new_id()
        building = self.folder / f"{INCOMPLETE_PREFIX}{backup_id}"
        previous = self.ids()[:1]
        try:
            for name in files:
                target = building / name
                target.parent.mkdir(parents=True, exist_ok=True)
                earlier = self.folder / previous[0] / name if previous else None
                if earlier is not None and self._unchanged(name, earlier):
                    os.link(earlier, target)
                else:
                    shutil.copy2(self.data_folder / name, target)
        except BaseException:
            # A failed copy (a full disk, say) leaves nothing behind; a crash here leaves the
            # temporary folder, which the next start removes.
            shutil.rmtree(building, ignore_errors=True)
            raise
        building.mkdir(parents=True, exist_ok=True)  # an empty data folder still gets its backup
        os.rename(building, self.folder / backup_id)
        fsync_directory(self.folder)
        if prune:
            self.prune()
        return backup_id

    def prune(self) -> None:
        for old in self.ids()[self.keep:]:
            shutil.rmtree(self.folder / old)

    def newest_copy(self, name: str, readable: Callable[[Path], bool]) -> tuple[str, Path] | None:
        """The newest backup copy of data file `name` that `readable` accepts, with its backup id."""
        for backup_id in self.ids():
            copy = self.folder / backup_id / name
            if copy.is_file() and readable(copy):
                return backup_id, copy
        return None

    def _new_id(self) -> str:
        stamp = datetime.now(UTC)
        newest = self.ids()[:1]
        if newest and stamp <= backup_time(newest[0]):  # same microsecond, or the clock went back
            stamp = backup_time(newest[0]) + timedelta(microseconds=1)
        return stamp.strftime(STAMP_FORMAT)


def backup_time(backup_id: str) -> datetime:
    return datetime.strptime(backup_id, STAMP_FORMAT).replace(tzinfo=UTC)


def taken_at(backup_id: str) -> str:
    """When backup `backup_id` was taken, as the recovery notices say it."""
    return backup_time(backup_id).strftime("%Y-%m-%d %H:%M UTC")
