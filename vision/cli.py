"""Shared command-line plumbing: one JSON line (or summary line) per photo, in the order given.

A photo that cannot be read gives {"photo": ..., "error": ...} and the others are still
processed; the exit code is 0 unless the arguments are wrong.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from vision.photo import UnreadablePhoto, load_photo

Reader = Callable[[np.ndarray], dict[str, Any]]


def run_photos(photos: Iterable[str], read: Reader, summarise: Callable[[dict[str, Any]], str],
               as_json: bool, least_side: int | None = None) -> int:
    """Run `read` on each photo (decode included in the time) and print one line per photo.
    A reader that works on a copy with a long side of `least_side` pixels gets the photo
    decoded no larger than it needs (vision.photo.decode_photo)."""
    for photo in photos:
        started = time.perf_counter()
        try:
            result: dict[str, Any] = {"photo": photo,
                                      **read(load_photo(Path(photo), least_side))}
            result["ms"] = round((time.perf_counter() - started) * 1000, 1)
        except UnreadablePhoto as error:
            result = {"photo": photo, "error": str(error)}
        if as_json:
            print(json.dumps(result), flush=True)
        elif "error" in result:
            print(f"{photo}: cannot read: {result['error']}", flush=True)
        else:
            print(f"{photo}: {summarise(result)} ({result['ms']:.0f} ms)", flush=True)
    return 0
