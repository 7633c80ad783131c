"""Plaza photos (issue 6). Check the Plaza from a photo: pick a photo, read it off the UI loop,
and show the annotated photo, the cards read and the P5 verdict with the offending cards. And
read the cards left in a hand, for the end-of-hand entry (companion/ui/games/plaza.py).

check_plaza_photo and read_hand_photo are the pure parts (bytes in, what to show out);
PlazaPhotoCheck draws the check.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.games.plaza_cards import COLOURS, Card
from companion.ui.photo_tool import SHOWN_SIDE, PhotoTool, shown_png
from vision.cards import annotate, read_hand, read_plaza
from vision.photo import decode_photo

# SHOWN_SIDE moved to photo_tool.py with the shared cycle; still importable from here.
__all__ = ["HAND_SHOWN_SIDE", "SHOWN_SIDE", "HandPhoto", "PhotoCheck", "PlazaPhotoCheck",
           "check_plaza_photo", "read_hand_photo"]

# A hand's photo is shown small beside its cards: a smaller copy (a 12 MP photo's PNG goes from
# about 1.3 MB to a quarter of that) is sent to the phone.
HAND_SHOWN_SIDE = 600


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
    elif not reading.cards:
        verdict = "No card could be read for sure (orange on the photo): retake the photo."
    elif reading.legal and reading.unsure:  # P5 on the cards read; the others may change it
        verdict = (f"Legal as far as the readable cards show: the {len(reading.cards)} cards "
                   f"read are in a run or a column (P5); {len(reading.unsure)} could not be "
                   f"read (orange on the photo).")
    elif reading.legal:
        verdict = f"Legal: all {len(reading.cards)} cards are in a run or a column (P5)."
    else:
        offending = ", ".join(str(card) for card in reading.offending)
        readable = " as far as the readable cards show" if reading.unsure else ""
        verdict = f"Not legal (P5){readable}: {offending} (red on the photo)."
    return PhotoCheck(picture=shown_png(annotate(image, reading)), cards=lines, verdict=verdict,
                      problems=reading.problems)


@dataclass(frozen=True)
class HandPhoto:
    picture: bytes  # the annotated photo, PNG
    cards: tuple[Card, ...]  # the cards read, in the order the reader found them
    unsure: int  # cards seen but not read surely: never guessed


def read_hand_photo(data: bytes) -> HandPhoto:
    """Read a photo of the cards left in a hand; raises UnreadablePhoto like check_plaza_photo."""
    image = decode_photo(data)
    reading = read_hand(image)
    return HandPhoto(picture=shown_png(annotate(image, reading), HAND_SHOWN_SIDE),
                     cards=tuple(seen.card for seen in reading.cards),
                     unsure=len(reading.unsure))


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
