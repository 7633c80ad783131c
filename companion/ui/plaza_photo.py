"""Check the Plaza from a photo (issue 6): pick a photo, read it off the UI loop, and show the
annotated photo, the cards read and the P5 verdict with the offending cards.

check_plaza_photo is the pure part (bytes in, what to show out); PlazaPhotoCheck draws it.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.games.plaza_cards import COLOURS
from companion.ui.photo_tool import SHOWN_SIDE, PhotoTool, shown_png
from vision.cards import annotate, read_plaza
from vision.photo import decode_photo

__all__ = ["SHOWN_SIDE", "PhotoCheck", "PlazaPhotoCheck", "check_plaza_photo"]


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
    return PhotoCheck(picture=shown_png(annotate(image, reading)), cards=lines, verdict=verdict,
                      problems=reading.problems)


def show_check(check: PhotoCheck) -> list[ft.Control]:
    return [ft.Text(check.verdict, size=18, weight=ft.FontWeight.BOLD),
            *(ft.Text(line) for line in check.cards),
            *(ft.Text(problem) for problem in check.problems),
            ft.Image(src=check.picture, fit=ft.BoxFit.CONTAIN,
                     semantics_label="The photo, each card outlined and labelled")]


@ft.component
def PlazaPhotoCheck():
    """The tool: a button to pick a photo, a progress ring while it is read, then the result."""
    return PhotoTool("Choose a photo of the Plaza", check_plaza_photo, show=show_check)
