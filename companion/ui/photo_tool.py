"""The photo cycle every photo tool shares (issue 6): a button to pick a photo, the reading run
off the UI loop with a progress ring, then the result handed to the caller or drawn by it.

The reading itself is the caller's pure function, bytes in, result out; it raises
UnreadablePhoto (its message is for the player) when the bytes are not a photo it can read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import cv2
import flet as ft
import numpy as np

from companion.ui.widgets import TOUCH
from vision.photo import UnreadablePhoto

SHOWN_SIDE = 1200  # long side of an annotated photo sent to the client: enough for a screen


def shown_png(marked: np.ndarray, side: int = SHOWN_SIDE) -> bytes:
    """An annotated photo as PNG bytes for ft.Image, its long side scaled down to `side`."""
    scale = min(1.0, side / max(marked.shape[:2]))
    if scale < 1:
        marked = cv2.resize(marked, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    encoded, png = cv2.imencode(".png", marked)
    if not encoded:  # cannot happen for a BGR uint8 image; said plainly if it ever does
        raise UnreadablePhoto("The checked photo could not be drawn.")
    return png.tobytes()


@ft.component
def PhotoTool(label: str, read: Callable[[bytes], Any],
              show: Callable[[Any], list[ft.Control]] | None = None,
              on_result: Callable[[Any], None] | None = None):
    """A "Choose a photo" button labelled `label` (its accessible name). The picked photo is
    read by `read` off the UI loop; its result goes to `on_result`, then stays drawn by `show`
    until the next photo. A photo `read` refuses is reported under the button instead."""
    result, set_result = ft.use_state(None)  # read's result for the last photo read
    failure, set_failure = ft.use_state(None)  # or why that photo could not be read
    busy, set_busy = ft.use_state(False)

    async def pick(_) -> None:
        picker = ft.FilePicker()  # registers itself with the page; held here while it is used
        files = await picker.pick_files(file_type=ft.FilePickerFileType.IMAGE, with_data=True)
        if not files or files[0].bytes is None:
            return  # the player cancelled
        set_busy(True)
        try:
            # OpenCV holds a core for a fraction of a second: never on the UI loop.
            reading = await asyncio.to_thread(read, files[0].bytes)
        except UnreadablePhoto as problem:
            set_result(None)
            set_failure(f"{files[0].name}: {problem}")
        else:
            if on_result:
                on_result(reading)
            set_result(reading)
            set_failure(None)
        finally:
            set_busy(False)

    if busy:
        shown: list[ft.Control] = [ft.Row([ft.ProgressRing(width=24, height=24),
                                           ft.Text("Reading the photo…")])]
    elif failure:
        shown = [ft.Text(failure, color=ft.Colors.ERROR)]
    elif result is not None and show:
        shown = show(result)
    else:
        shown = []
    return ft.Column([ft.OutlinedButton(label, on_click=pick, height=TOUCH, disabled=busy),
                      *shown])
