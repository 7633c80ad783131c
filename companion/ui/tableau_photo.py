"""The pure part of Tableau's photo work (issue 7): bytes in, what the screens show out.

- Picture sets: a picture from an imported file or from corners marked on a box-cover photo,
  stored as vision's npz bytes, with a small thumbnail for the list.
- A call checked from a photo against the caller's picture (T4) and a rectangle counted from a
  photo against its player's picture (T6), each with the annotated photo and the verdict in
  words. Everything here runs off the UI loop (see companion.ui.photo_tool).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath

import cv2
import numpy as np

from companion.core.types import PlayerId
from companion.games.tableau import PhotoCheck, TitleCard
from companion.ui.photo_tool import shown_png
from storage.pictures import StoredSet
from vision.jigsaw import (
    COUNT_DECODE_SIDE,
    FIT_DECODE_SIDE,
    annotate_count,
    annotate_fit,
    check_fit,
    count_pieces,
)
from vision.photo import UnreadablePhoto, decode_photo
from vision.pictures import (
    Picture,
    make_picture,
    picture_from_bytes,
    picture_from_cover,
    picture_to_bytes,
)

THUMBNAIL_SIDE = 96
# The checked photo is shown across a phone's width: 800 px is sharp there, and its PNG is a
# third of the size (and encoding time) of photo_tool's 1200 px default.
SHOWN_SIDE = 800
CORNERS = ("top-left", "top-right", "bottom-right", "bottom-left")  # the order rectify wants


# ---------------------------------------------------------------- picture sets

@dataclass(frozen=True)
class NewPicture:
    """A picture made for a set that is not saved yet."""

    title: str
    stored: bytes  # vision.pictures.picture_to_bytes
    thumbnail: bytes  # PNG


def thumbnail(image: np.ndarray, side: int = THUMBNAIL_SIDE) -> bytes:
    """A PNG whose long side is `side` pixels."""
    return shown_png(cv2.resize(image, _fitted(image.shape[1], image.shape[0], side),
                                interpolation=cv2.INTER_AREA))


def stored_thumbnail(stored: bytes) -> bytes:
    return thumbnail(picture_from_bytes(stored).image)


def _fitted(width: int, height: int, side: int) -> tuple[int, int]:
    scale = side / max(width, height)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _new_picture(picture: Picture) -> NewPicture:
    return NewPicture(picture.title, picture_to_bytes(picture), thumbnail(picture.image))


def picture_from_file(file_name: str, data: bytes) -> NewPicture:
    """An imported straight picture file, titled after the file's name; UnreadablePhoto if the
    bytes are not a picture."""
    return _new_picture(make_picture(PurePath(file_name).stem, _decoded(data)))


def _decoded(data: bytes) -> np.ndarray:
    image = decode_photo(data)
    if min(image.shape[:2]) < 64:  # vision's own limit is 32; a picture that small has no pieces
        raise UnreadablePhoto("The picture is too small to compare pieces with.")
    return image


def marked_cover(photo: np.ndarray, points: Sequence[tuple[float, float]],
                 side: int) -> bytes:
    """The cover photo scaled to a long side of `side` px, with the marked corners drawn and
    numbered (1 = top-left), joined in order: what the player taps on."""
    size = _fitted(photo.shape[1], photo.shape[0], side)
    scale = size[0] / photo.shape[1]
    shown = cv2.resize(photo, size, interpolation=cv2.INTER_AREA)
    marks = [(round(x * scale), round(y * scale)) for x, y in points]
    radius = max(4, side // 80)
    if len(marks) > 1:
        cv2.polylines(shown, [np.int32(marks)], len(marks) == len(CORNERS), (0, 170, 240), 2,
                      cv2.LINE_AA)
    for number, mark in enumerate(marks, start=1):
        cv2.circle(shown, mark, radius, (40, 40, 220), -1, cv2.LINE_AA)
        cv2.putText(shown, str(number), (mark[0] + radius, mark[1] - radius),
                    cv2.FONT_HERSHEY_SIMPLEX, radius / 8, (40, 40, 220), 2, cv2.LINE_AA)
    return shown_png(shown)


def photo_point(local: tuple[float, float], shown_width: float,
                photo_size: tuple[int, int]) -> tuple[float, float]:
    """Where a tap at `local` (logical pixels on the photo shown `shown_width` wide) falls on
    the photo itself, kept inside it."""
    scale = photo_size[0] / shown_width
    return (min(max(local[0] * scale, 0.0), photo_size[0] - 1.0),
            min(max(local[1] * scale, 0.0), photo_size[1] - 1.0))


def picture_from_marks(title: str, photo: np.ndarray,
                       points: Sequence[tuple[float, float]]) -> NewPicture:
    """The picture the four marked corners outline; ValueError (for the player) when they do
    not outline one."""
    return _new_picture(picture_from_cover(title, photo, points))


def next_corner(points: Sequence[tuple[float, float]]) -> str | None:
    """The corner to tap next, or None when all four are marked."""
    return CORNERS[len(points)] if len(points) < len(CORNERS) else None


# ---------------------------------------------------------------- a call (T4)

REASON_WORDS = {
    "not-neighbours": "the two pieces are not neighbours in the picture",
    "wrong-orientation": "the piece is turned the wrong way",
    "not-full-side": "the pieces are not joined along one full side",
    "wrong-picture": "the piece is not from this picture",
}


@dataclass(frozen=True)
class FitCheck:
    photo: PhotoCheck  # what is recorded with the call
    weaker: bool  # no picture was recorded for the caller: shapes alone were judged
    picture: bytes | None = None  # the annotated photo (PNG); None for a call recorded earlier


def verdict_words(photo: PhotoCheck) -> str:
    sure = f"{photo.confidence:.0%} sure"
    if photo.verdict is None:
        return "The photo cannot tell: retake it, or decide by eye."
    if photo.verdict:
        return f"The photo says: fit ({sure}). Confirm with Fit, or overrule with No fit."
    return (f"The photo says: no fit, {REASON_WORDS[photo.reason]} ({sure}). "
            "Confirm with No fit, or overrule with Fit.")


def check_call_photo(data: bytes, picture: bytes | None) -> FitCheck:
    """T4 from a photo of the two pieces, against the caller's stored picture (None: none was
    recorded, a weaker check). UnreadablePhoto (for the player) for a photo it cannot read."""
    photo = decode_photo(data, FIT_DECODE_SIDE)
    verdict = check_fit(photo, _stored(picture) if picture is not None else None)
    return FitCheck(PhotoCheck(verdict.fit, verdict.reason, float(verdict.confidence)),
                    weaker=picture is None or verdict.weaker,
                    picture=shown_png(annotate_fit(photo, verdict), SHOWN_SIDE))


def _stored(picture: bytes) -> Picture:
    try:
        return picture_from_bytes(picture)
    except ValueError as damage:  # said to the player like an unreadable photo
        raise UnreadablePhoto(f"{damage} Delete the picture set and add it again.") from None


# ---------------------------------------------------------------- round end (T6)

@dataclass(frozen=True)
class CountCheck:
    right: int
    wrong: int
    missing: int
    sure: bool  # False: the rectangle could not be placed against the picture
    picture: bytes  # the annotated photo (PNG)

    @property
    def to_pay(self) -> int:
        """T6: one token per missing or wrong piece."""
        return self.wrong + self.missing

    @property
    def words(self) -> str:
        if not self.sure:
            return ("The photo could not be matched with the picture: retake it, or count by "
                    "eye.")
        return (f"Right {self.right}, wrong {self.wrong}, missing {self.missing}: "
                f"{self.to_pay} missing or wrong.")


def count_from_photo(data: bytes, picture: bytes) -> CountCheck:
    """T6 from a photo of a player's whole rectangle, against his stored picture."""
    photo = decode_photo(data, COUNT_DECODE_SIDE)
    count = count_pieces(photo, _stored(picture))
    return CountCheck(count.right, count.wrong, count.missing, count.sure,
                      shown_png(annotate_count(photo, count), SHOWN_SIDE))


# ---------------------------------------------------------------- which picture

def picture_of(player: PlayerId, titles: Sequence[TitleCard],
               sets: Sequence[StoredSet]) -> tuple[str, str] | None:
    """(set id, picture title) of the picture `player` is making this round, or None when no
    title card names a stored picture.

    Only the title is recorded (TitlesDealt), so the set is the one that holds every title of
    the round (they were chosen from one set); failing that, the first set holding his title.
    """
    mine = next((title.picture for title in titles if title.player == player), None)
    if mine is None:
        return None
    every = {title.picture for title in titles}
    holding = [entry for entry in sets if mine in entry.titles]
    whole = [entry for entry in holding if every <= set(entry.titles)]
    chosen = (whole or holding or [None])[0]
    return None if chosen is None else (chosen.id, mine)
