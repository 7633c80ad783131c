"""The user's deck profile (issue 6, "teach the app your deck"), kept with the user's data.

One JSON file, `deck-profile.json` in the data folder, holding plain numbers (what
vision.deck.DeckProfile.as_json gives; this store never interprets them, the vision package
does). Written atomically (storage.atomic): a crash leaves the old profile or the new one. A file
that cannot be read is moved aside (never deleted, named with the time) with a notice, and the
app goes on without calibration, as it would before the deck was taught.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from storage.atomic import atomic_write_bytes, encode, fsync_directory
from storage.backups import STAMP_FORMAT
from storage.pictures import DAMAGED_PREFIX

PROFILE_FILE = "deck-profile.json"


class DeckProfileStore:
    """The saved profile of a data folder (or, without one, in memory: for tests)."""

    def __init__(self, data_folder: Path | None) -> None:
        self._path = data_folder / PROFILE_FILE if data_folder is not None else None
        self._in_memory: dict[str, Any] | None = None
        self._lock = threading.Lock()
        self.notices: list[str] = []

    def load(self) -> dict[str, Any] | None:
        """The saved profile's data, or None when none is saved (or it was damaged: then it is
        set aside and a notice says so)."""
        with self._lock:
            if self._path is None:
                return self._in_memory
            try:
                content = self._path.read_bytes()
            except FileNotFoundError:
                return None
            try:
                data = json.loads(content.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as error:
                self._set_aside(f"it is not readable JSON ({error})")
                return None
            if not isinstance(data, dict):
                self._set_aside("it holds no profile")
                return None
            return data

    def save(self, data: dict[str, Any]) -> None:
        """Store the profile's data; on disk when this returns."""
        with self._lock:
            if self._path is None:
                self._in_memory = json.loads(encode(data))
                return
            self._path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self._path, encode(data))

    def forget(self) -> None:
        """Remove the saved profile: reading goes back to judging without calibration."""
        with self._lock:
            self._in_memory = None
            if self._path is not None:
                self._path.unlink(missing_ok=True)

    def set_aside(self, why: str) -> None:
        """Move a saved profile that the caller found damaged (`why`) aside, with a notice."""
        with self._lock:
            self._set_aside(why)

    def _set_aside(self, why: str) -> None:
        if self._path is None:
            self._in_memory = None
        elif self._path.exists():
            # Stamped, as the picture store's damaged files are: a second damaged copy must not
            # replace the first.
            stamp = datetime.now(UTC).strftime(STAMP_FORMAT)
            self._path.replace(self._path.with_name(f"{DAMAGED_PREFIX}{PROFILE_FILE}.{stamp}"))
            fsync_directory(self._path.parent)
        self.notices.append(f"Your deck calibration could not be read ({why}); it was set "
                            f"aside and photos are read without it. Teach the app your deck "
                            f"again to use one.")
