"""Check the Plaza from a photo (issue 6): pick a photo, read it off the UI loop, and show the
annotated photo, the cards read and the P5 verdict with the offending cards.

check_plaza_photo is the pure part (bytes in, what to show out); PlazaPhotoCheck draws it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import cv2
import flet as ft

from companion.games.plaza_cards import COLOURS
from vision.cards import annotate, read_plaza
from vision.photo import UnreadablePhoto, decode_photo

SHOWN_SIDE = 1200  # long side of the annotated photo sent to the client: enough for a screen


@dataclass(frozen=True)
class PhotoCheck:
    picture: bytes  # the annotated photo, PNG
    cards: tuple[str, ...]  # one line per colour read, e.g. "Red: 4, 5, 6"
    verdict: str
    problems: tuple[str, ...]  # why cards break P5, and the unsure cards


def check_plaza_photo(data: bytes) -> PhotoCheck:
    """Read a Plaza photo; raises UnreadablePhoto (its message is for the player) when the
    bytes are not a photo the app can read."""
    image = decode_photo(data)
    reading = read_plaza(image)
    marked = annotate(image, reading)
    scale = min(1.0, SHOWN_SIDE / max(marked.shape[:2]))
    if scale < 1:
        marked = cv2.resize(marked, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    encoded, png = cv2.imencode(".png", marked)
    if not encoded:  # cannot happen for a BGR uint8 image; said plainly if it ever does
        raise UnreadablePhoto("The checked photo could not be drawn.")
    lines = tuple(f"{colour}: " + ", ".join(str(card.number) for card in row if card)
                  for colour, row in zip(COLOURS, reading.grid, strict=True) if any(row))
    if not reading.cards and not reading.unsure:
        verdict = "No cards found on this photo."
    elif reading.legal is None:
        verdict = "Not sure: some cards could not be read (orange on the photo)."
    elif reading.legal:
        verdict = f"Legal: all {len(reading.cards)} cards are in a run or a column (P5)."
    else:
        offending = ", ".join(str(card) for card in reading.offending)
        verdict = f"Not legal (P5): {offending} (red on the photo)."
    return PhotoCheck(picture=png.tobytes(), cards=lines, verdict=verdict,
                      problems=reading.problems)


@ft.component
def PlazaPhotoCheck():
    """The tool: a button to pick a photo, a progress ring while it is read, then the result."""
    result, set_result = ft.use_state(None)  # PhotoCheck, or the reason it failed (str)
    busy, set_busy = ft.use_state(False)

    async def pick(_) -> None:
        picker = ft.FilePicker()  # registers itself with the page; held here while it is used
        files = await picker.pick_files(file_type=ft.FilePickerFileType.IMAGE, with_data=True)
        if not files or files[0].bytes is None:
            return  # the player cancelled
        set_busy(True)
        try:
            # OpenCV holds a core for a fraction of a second: never on the UI loop.
            set_result(await asyncio.to_thread(check_plaza_photo, files[0].bytes))
        except UnreadablePhoto as problem:
            set_result(f"{files[0].name}: {problem}")
        finally:
            set_busy(False)

    if busy:
        shown: list[ft.Control] = [ft.Row([ft.ProgressRing(width=24, height=24),
                                           ft.Text("Reading the photo…")])]
    elif isinstance(result, str):
        shown = [ft.Text(result, color=ft.Colors.ERROR)]
    elif result is not None:
        shown = [ft.Text(result.verdict, size=18, weight=ft.FontWeight.BOLD),
                 *(ft.Text(line) for line in result.cards),
                 *(ft.Text(problem) for problem in result.problems),
                 ft.Image(src=result.picture, fit=ft.BoxFit.CONTAIN,
                          semantics_label="The photo, each card outlined and labelled")]
    else:
        shown = []
    return ft.Column([
        ft.OutlinedButton("Choose a photo of the Plaza", on_click=pick, height=48,
                          disabled=busy),
        *shown,
    ])
