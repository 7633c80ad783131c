"""Picture sets for Tableau photo checks (issue 7), kept beside the library.

Layout under the data folder:
  pictures/index.json           every set: its id and title, and per picture its title, file
                                name and SHA-256
  pictures/<set id>/<n>.npz     one stored picture (the bytes of vision.pictures.picture_to_bytes)

The store keeps bytes and never decodes them (that is the vision package's job); the checksum in
the index tells a damaged picture file from a good one. Every file is written atomically
(storage.atomic). Picture files are written before the index names them and removed after it
stops naming them, so a crash leaves at worst files no set names, which the next open removes.

The library's rolling backups hold these files too (storage.files). A damaged or missing file is
put back from the newest backup holding a good copy, with a notice, as the library does for its
own files: the index on opening, a picture on opening if it changed since the newest backup
checked it (or when it is asked for, if it went bad unseen). The damaged file is moved aside,
never deleted. With no good copy, a damaged index is moved aside and the store starts empty, and
a damaged picture is reported when it is asked for.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from companion.core.errors import FormatError, InvalidName, InvalidSetup
from storage.atomic import TEMPORARY_SUFFIX, atomic_write_bytes, encode, fsync_directory
from storage.backups import STAMP_FORMAT, BackupStore, taken_at
from storage.model import NotFound

PICTURES = "pictures"
INDEX = "index.json"
INDEX_VERSION = 1
MAX_TITLE_LENGTH = 60
MAX_PICTURES_PER_SET = 24  # the Deluxe box has six; room for home-made sets
MAX_PICTURE_BYTES = 32 * 1024 * 1024  # a stored picture is a few MB; this bounds a bad import
PICTURE_SUFFIX = ".npz"
DAMAGED_PREFIX = "damaged-"


class DamagedPicture(FormatError):
    """A stored picture file that is missing or no longer holds what was stored."""


@dataclass(frozen=True)
class StoredPicture:
    title: str
    file: str  # name inside the set's folder
    sha256: str


@dataclass(frozen=True)
class StoredSet:
    """A picture set as the store lists it."""

    id: str
    title: str
    pictures: tuple[StoredPicture, ...]

    @property
    def titles(self) -> tuple[str, ...]:
        return tuple(picture.title for picture in self.pictures)


class Blobs(Protocol):
    """Where the store's files live: named byte strings ("index.json", "<set id>/<n>.npz")."""

    def read(self, name: str) -> bytes | None:
        """The bytes of `name`, or None when there is no such file."""

    def write(self, name: str, content: bytes) -> None: ...

    def remove_set(self, set_id: str) -> None: ...

    def set_ids(self) -> set[str]:
        """The sets that have files, named or not by the index (not those put aside)."""

    def put_aside(self, name: str) -> str:
        """Move a damaged file, or a set's files, out of the way (never delete them); returns
        where they went, relative to the data folder."""

    def suspect(self, names: Sequence[str]) -> list[str]:
        """Those of `names` that may differ from what the newest backup checked (changed since,
        or missing): the ones to check on opening."""

    def backup_copy(self, name: str, good: Callable[[bytes], bool]) -> tuple[str, bytes] | None:
        """The newest backup copy of `name` that `good` accepts, with its backup id."""


class FolderBlobs:
    """The store's files in a folder; `backups` (the library's) to put damaged files back from."""

    def __init__(self, folder: Path, backups: BackupStore | None = None) -> None:
        self.folder = folder
        self._backups = backups
        folder.mkdir(parents=True, exist_ok=True)
        for leftover in folder.rglob(f".*{TEMPORARY_SUFFIX}"):  # writes a crash interrupted
            leftover.unlink()

    def read(self, name: str) -> bytes | None:
        try:
            return (self.folder / name).read_bytes()
        except FileNotFoundError:
            return None

    def write(self, name: str, content: bytes) -> None:
        path = self.folder / name
        if not path.parent.exists():
            path.parent.mkdir()
            fsync_directory(self.folder)
        atomic_write_bytes(path, content)

    def remove_set(self, set_id: str) -> None:
        shutil.rmtree(self.folder / set_id, ignore_errors=True)
        fsync_directory(self.folder)

    def set_ids(self) -> set[str]:
        return {entry.name for entry in self.folder.iterdir()
                if entry.is_dir() and not entry.name.startswith(DAMAGED_PREFIX)}

    def put_aside(self, name: str) -> str:
        stamp = datetime.now(UTC).strftime(STAMP_FORMAT)
        moved = self.folder / f"{DAMAGED_PREFIX}{name.replace('/', '_')}.{stamp}"
        (self.folder / name).replace(moved)
        fsync_directory(self.folder)
        return moved.relative_to(self.folder.parent).as_posix()

    def suspect(self, names: Sequence[str]) -> list[str]:
        if self._backups is None:
            return []  # nothing to put back from: a damaged picture is reported when asked for
        changed = set(self._backups.changed([self._in_data_folder(name) for name in names]))
        return [name for name in names if self._in_data_folder(name) in changed]

    def backup_copy(self, name: str, good: Callable[[bytes], bool]) -> tuple[str, bytes] | None:
        if self._backups is None:
            return None
        found = self._backups.newest_copy(self._in_data_folder(name),
                                          lambda copy: good(copy.read_bytes()))
        return None if found is None else (found[0], found[1].read_bytes())

    def _in_data_folder(self, name: str) -> str:
        return f"{self.folder.name}/{name}"


class MemoryBlobs:
    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def read(self, name: str) -> bytes | None:
        return self.files.get(name)

    def write(self, name: str, content: bytes) -> None:
        self.files[name] = bytes(content)

    def remove_set(self, set_id: str) -> None:
        for name in [name for name in self.files if name.startswith(f"{set_id}/")]:
            del self.files[name]

    def set_ids(self) -> set[str]:
        return {name.split("/")[0] for name in self.files
                if "/" in name and not name.startswith(DAMAGED_PREFIX)}

    def put_aside(self, name: str) -> str:
        moved = f"{DAMAGED_PREFIX}{name}"
        for held in [held for held in self.files if held == name or held.startswith(f"{name}/")]:
            self.files[f"{DAMAGED_PREFIX}{held}"] = self.files.pop(held)
        return f"{PICTURES}/{moved}"

    def suspect(self, names: Sequence[str]) -> list[str]:
        return []  # memory is not damaged behind the store's back, and has no backups

    def backup_copy(self, name: str, good: Callable[[bytes], bool]) -> tuple[str, bytes] | None:
        return None


def clean_title(raw: str, taken: Sequence[str], what: str) -> str:
    """The trimmed title, or InvalidName: non-empty, not too long, unique ignoring case."""
    title = " ".join(raw.split())
    if not title:
        raise InvalidName(f"Enter a name for the {what}.")
    if len(title) > MAX_TITLE_LENGTH:
        raise InvalidName(f"Keep the name of the {what} to {MAX_TITLE_LENGTH} characters or "
                          "fewer.")
    if title.casefold() in {other.casefold() for other in taken}:
        raise InvalidName(f"There is already a {what} called {title}.")
    return title


def _checksum(content: bytes) -> str:
    return hashlib.sha256(content).hexdigest()


def _parse_index(content: bytes) -> list[StoredSet]:
    """The sets an index file holds; DamagedPicture if it is not a readable index."""
    try:
        data = json.loads(content.decode("utf-8"))
        if data.get("version") != INDEX_VERSION:
            raise ValueError(f"unknown version {data.get('version')!r}")
        return [StoredSet(str(entry["id"]), str(entry["title"]), tuple(
                    StoredPicture(str(p["title"]), str(p["file"]), str(p["sha256"]))
                    for p in entry["pictures"]))
                for entry in data["sets"]]
    except (UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError) as error:
        raise DamagedPicture(f"the list of picture sets is not readable ({error})") from None


def _is_index(content: bytes) -> bool:
    try:
        _parse_index(content)
    except DamagedPicture:
        return False
    return True


def _file_name(entry: StoredSet, picture: StoredPicture) -> str:
    return f"{entry.id}/{picture.file}"


def _index_bytes(sets: list[StoredSet]) -> bytes:
    return encode({"version": INDEX_VERSION, "sets": [
        {"id": entry.id, "title": entry.title,
         "pictures": [{"title": p.title, "file": p.file, "sha256": p.sha256}
                      for p in entry.pictures]}
        for entry in sets]})


class PictureStore:
    """Picture sets: list them, add one whole, read one picture's bytes, delete one.

    Thread-safe: one lock serialises every operation (sets change rarely); `held` lends it to a
    backup or a restore of the files.
    """

    def __init__(self, blobs: Blobs, new_id: Callable[[], str]) -> None:
        self._blobs = blobs
        self._new_id = new_id
        self._lock = threading.RLock()
        self._notices: list[str] = []
        self._sets = self._open()

    def _open(self) -> list[StoredSet]:
        content = self._blobs.read(INDEX)
        try:
            sets = [] if content is None else _parse_index(content)
        except DamagedPicture as damage:
            moved = self._blobs.put_aside(INDEX)
            restored = self._index_from_backup(f"damaged ({damage})", moved)
            if restored is None:
                self._notices.append(
                    f"The list of picture sets was damaged ({damage}), so the picture sets are "
                    f"gone from the app; add them again. The damaged list was kept as {moved}.")
                return []  # the sets' files are kept: nothing names them, nothing removes them
            return self._settle(restored, repaired=True)
        if content is None and self._blobs.set_ids():
            # Set files but no list: the list was lost if a backup holds one; if none does, a
            # crash cut the very first add short.
            restored = self._index_from_backup("missing", None)
            if restored is not None:
                return self._settle(restored, repaired=True)
        return self._settle(sets, repaired=False)

    def _index_from_backup(self, state: str, moved: str | None) -> list[StoredSet] | None:
        """Put back the newest readable backup of the index (with a notice); None if none."""
        found = self._blobs.backup_copy(INDEX, _is_index)
        if found is None:
            return None
        backup_id, content = found
        self._blobs.write(INDEX, content)
        kept = "" if moved is None else f" The damaged list was kept as {moved}."
        self._notices.append(
            f"The list of picture sets was {state}, so Tablemate put back its automatic backup "
            f"of {taken_at(backup_id)}; changes to the picture sets after that are lost.{kept}")
        return _parse_index(content)

    def _settle(self, sets: list[StoredSet], *, repaired: bool) -> list[StoredSet]:
        """Deal with set files the index does not name, and check the pictures that changed since
        the newest backup (a damaged one is put back now, or reported when asked for)."""
        for orphan in sorted(self._blobs.set_ids() - {entry.id for entry in sets}):
            if repaired:  # a set added after the backup the index came from: keep its files
                moved = self._blobs.put_aside(orphan)
                self._notices.append(f"The files of a picture set added after that backup were "
                                     f"kept as {moved}.")
            else:  # an add or delete a crash cut short
                self._blobs.remove_set(orphan)
        named = {_file_name(entry, picture): (entry, picture)
                 for entry in sets for picture in entry.pictures}
        for name in self._blobs.suspect(list(named)):
            with suppress(DamagedPicture):
                self._checked(*named[name])
        return sets

    @contextmanager
    def held(self) -> Iterator[None]:
        """No set is added or deleted meanwhile: a backup then holds whole sets, and a restore
        replaces the files under no one's feet."""
        with self._lock:
            yield

    def reload(self) -> None:
        """Read the files again: a backup was restored under the store."""
        with self._lock:
            self._sets = self._open()

    @property
    def notices(self) -> tuple[str, ...]:
        """What was found damaged and repaired (on opening, or when a picture was asked for),
        worded for the player."""
        with self._lock:
            return tuple(self._notices)

    def sets(self) -> tuple[StoredSet, ...]:
        """Every set, by title (ignoring case)."""
        with self._lock:
            return tuple(sorted(self._sets, key=lambda entry: entry.title.casefold()))

    def get(self, set_id: str) -> StoredSet:
        with self._lock:
            return self._find(set_id)

    def add(self, title: str, pictures: Sequence[tuple[str, bytes]]) -> StoredSet:
        """Store a new set from (picture title, stored picture bytes) pairs, all or nothing."""
        if not pictures:
            raise InvalidSetup("Add at least one picture to the set.")
        if len(pictures) > MAX_PICTURES_PER_SET:
            raise InvalidSetup(f"A set holds at most {MAX_PICTURES_PER_SET} pictures.")
        titles: list[str] = []
        for picture_title, content in pictures:
            titles.append(clean_title(picture_title, titles, "picture in this set"))
            if not content or len(content) > MAX_PICTURE_BYTES:
                raise InvalidSetup(f"The picture {titles[-1]} is empty or too large to store.")
        with self._lock:
            set_title = clean_title(title, [entry.title for entry in self._sets], "picture set")
            set_id = self._new_id()
            stored = []
            for number, (picture_title, (_, content)) in enumerate(zip(titles, pictures,
                                                                       strict=True)):
                name = f"{number}{PICTURE_SUFFIX}"
                self._blobs.write(f"{set_id}/{name}", content)
                stored.append(StoredPicture(picture_title, name, _checksum(content)))
            added = StoredSet(set_id, set_title, tuple(stored))
            self._save([*self._sets, added], failed_cleanup=set_id)
            return added

    def picture(self, set_id: str, title: str) -> bytes:
        """The stored bytes of picture `title` of set `set_id`; if the file is missing or changed,
        the newest good backup copy (put back), or DamagedPicture if no backup holds one."""
        with self._lock:
            entry = self._find(set_id)
            found = next((p for p in entry.pictures if p.title == title), None)
            if found is None:
                raise NotFound(f"The set {entry.title} has no picture called {title}.")
            return self._checked(entry, found)

    def _checked(self, entry: StoredSet, picture: StoredPicture) -> bytes:
        """The picture's bytes, put back from the newest backup holding them if the file is
        missing or changed (with a notice); DamagedPicture if no backup does."""
        name = _file_name(entry, picture)
        content = self._blobs.read(name)
        if content is not None and _checksum(content) == picture.sha256:
            return content
        state = "missing" if content is None else "damaged"
        found = self._blobs.backup_copy(name, lambda copy: _checksum(copy) == picture.sha256)
        if found is None:
            raise DamagedPicture(f"The stored picture {picture.title} of the set {entry.title} "
                                 f"is {state}: delete the set and add it again.")
        backup_id, good = found
        kept = ("" if content is None
                else f" The damaged file was kept as {self._blobs.put_aside(name)}.")
        self._blobs.write(name, good)
        self._notices.append(f"The stored picture {picture.title} of the set {entry.title} was "
                             f"{state}, so Tablemate put back its automatic backup of "
                             f"{taken_at(backup_id)}.{kept}")
        return good

    def delete(self, set_id: str) -> None:
        with self._lock:
            self._find(set_id)
            self._save([entry for entry in self._sets if entry.id != set_id])
            self._blobs.remove_set(set_id)

    def _find(self, set_id: str) -> StoredSet:
        for entry in self._sets:
            if entry.id == set_id:
                return entry
        raise NotFound(f"There is no picture set {set_id!r}.")

    def _save(self, sets: list[StoredSet], failed_cleanup: str | None = None) -> None:
        try:
            self._blobs.write(INDEX, _index_bytes(sets))
        except BaseException:
            if failed_cleanup is not None:
                self._blobs.remove_set(failed_cleanup)
            raise
        self._sets = sets


def folder_pictures(data_folder: Path, new_id: Callable[[], str],
                    backups: BackupStore | None = None) -> PictureStore:
    """The picture store of a data folder; `backups`, the library's, to repair damage from."""
    return PictureStore(FolderBlobs(data_folder / PICTURES, backups), new_id)


def stored_files(data_folder: Path) -> list[str]:
    """The picture store's files in a data folder, relative to it, for the backups: the list of
    sets and every set's pictures (not damaged files put aside, nor unfinished writes)."""
    folder = data_folder / PICTURES
    if not folder.is_dir():
        return []
    index = [f"{PICTURES}/{INDEX}"] if (folder / INDEX).is_file() else []
    return index + sorted(
        f"{PICTURES}/{entry.name}/{file.name}"
        for entry in os.scandir(folder)
        if entry.is_dir() and not entry.name.startswith(DAMAGED_PREFIX)
        for file in os.scandir(entry.path)
        if file.is_file() and file.name.endswith(PICTURE_SUFFIX))


def is_picture(name: str) -> bool:
    """Whether data file `name` (relative to the data folder) is a stored picture."""
    return name.startswith(f"{PICTURES}/") and name.endswith(PICTURE_SUFFIX)


def memory_pictures(new_id: Callable[[], str]) -> PictureStore:
    return PictureStore(MemoryBlobs(), new_id)
