"""Crash-safe file writes, and the TinyDB storage built on them.

A write goes to a temporary file in the same directory, is flushed and fsynced, then renamed over
the old file with os.replace (atomic on POSIX), and the directory is fsynced so the rename itself
survives a power cut. A reader therefore sees the old file or the new one, never a mix.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from companion.core.errors import FormatError

TEMPORARY_SUFFIX = ".tmp"
_unique = itertools.count()


class DamagedFile(FormatError):
    """A data file that cannot be read as the JSON it should hold (garbage, truncated, empty)."""


def fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


# fdatasync skips the file's timestamps but still flushes its size; macOS has only fsync.
_sync_data = getattr(os, "fdatasync", os.fsync)


def atomic_write_bytes(path: Path, content: bytes, *, sync_directory: bool = True) -> None:
    """Replace `path` with `content` so that a crash leaves either the old or the new file.

    `sync_directory=False` is for bulk writes that fsync the directory once at the end.
    """
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{next(_unique)}{TEMPORARY_SUFFIX}")
    try:
        with open(temporary, "wb") as handle:
            handle.write(content)
            handle.flush()
            _sync_data(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    if sync_directory:
        fsync_directory(path.parent)


def atomic_copy(source: Path, target: Path) -> None:
    atomic_write_bytes(target, source.read_bytes())
    shutil.copystat(source, target)


def encode(data: Any) -> bytes:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def read_tables(path: Path) -> dict[str, dict[str, Any]] | None:
    """The TinyDB tables in `path`; None when the file does not exist; DamagedFile if unreadable.

    Every file is written whole, so an empty file is damage too, not an empty database.
    """
    try:
        content = path.read_bytes()
    except FileNotFoundError:
        return None
    try:
        data = json.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise DamagedFile(f"{path.name} is not readable JSON ({error})") from None
    if not isinstance(data, dict) or not all(isinstance(table, dict) for table in data.values()):
        raise DamagedFile(f"{path.name} does not hold TinyDB tables")
    return data


class AtomicJSONStorage(Storage):
    """TinyDB storage that writes atomically (see module doc) and keeps the last data in memory.

    TinyDB reads the whole storage before every operation; the in-memory copy makes those reads
    free, so an operation costs one serialisation and one write. If a write fails, the copy
    (which TinyDB may already have changed) is dropped and the next read goes back to the file.
    """

    def __init__(self, path: Path, *, sync_directory: bool = True) -> None:
        self.path = path
        self._sync_directory = sync_directory
        self._data: dict[str, dict[str, Any]] | None = None

    def read(self) -> dict[str, dict[str, Any]] | None:
        if self._data is None:
            self._data = read_tables(self.path)
        return self._data

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        try:
            atomic_write_bytes(self.path, encode(data), sync_directory=self._sync_directory)
        except BaseException:
            self._data = None
            raise
        self._data = data

    def close(self) -> None:
        self._data = None
