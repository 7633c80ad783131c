"""Plaza photos (issue 6). Check the Plaza from a photo: pick a photo, read it off the UI loop,
and show the annotated photo, the cards read and the P5 verdict with the offending cards. And
read the cards left in a hand, for the end-of-hand entry (companion/ui/games/plaza.py).
Optionally the user teaches the app the deck from one photo of it laid out as a full Plaza
(vision.deck); checks and hand reads then judge by that deck's inks and numerals.

check_plaza_photo, read_hand_photo and teach_deck are the pure parts (bytes in, what to show
out); PlazaPhotoCheck draws the check and the teaching.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.games.plaza_cards import COLOURS, Card
from companion.ui.photo_tool import SHOWN_SIDE, PhotoTool, shown_png
from companion.ui.widgets import action
from storage.deck_profile import DeckProfileStore
from vision.cards import annotate, read_hand, read_plaza
from vision.deck import DeckError, DeckProfile, learn_deck
from vision.photo import UnreadablePhoto, decode_photo

# SHOWN_SIDE moved to photo_tool.py with the shared cycle; still importable from here.
__all__ = ["HAND_SHOWN_SIDE", "SHOWN_SIDE", "HandPhoto", "PhotoCheck", "PlazaPhotoCheck",
           "check_plaza_photo", "read_hand_photo", "saved_deck", "teach_deck"]

# A hand's photo is shown small beside its cards: a smaller copy (a 12 MP photo's PNG goes from
# about 1.3 MB to a quarter of that) is sent to the phone.
HAND_SHOWN_SIDE = 600


@dataclass(frozen=True)
class PhotoCheck:
    picture: bytes  # the annotated photo, PNG
    cards: tuple[str, ...]  # one line per colour read, e.g. "Red: 4, 5, 6"
    verdict: str
    problems: tuple[str, ...]  # why cards break P5, and the unsure cards


def check_plaza_photo(data: bytes, deck: DeckProfile | None = None) -> PhotoCheck:
    """Read a Plaza photo (judged by the taught `deck`, if any); raises UnreadablePhoto (its
    message is for the player) when the bytes are not a photo the app can read."""
    image = decode_photo(data)
    reading = read_plaza(image, deck)
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


def read_hand_photo(data: bytes, deck: DeckProfile | None = None) -> HandPhoto:
    """Read a photo of the cards left in a hand; `deck` and UnreadablePhoto as for
    check_plaza_photo."""
    image = decode_photo(data)
    reading = read_hand(image, deck)
    return HandPhoto(picture=shown_png(annotate(image, reading), HAND_SHOWN_SIDE),
                     cards=tuple(seen.card for seen in reading.cards),
                     unsure=len(reading.unsure))


def show_check(check: PhotoCheck) -> list[ft.Control]:
    return [ft.Text(check.verdict, size=18, weight=ft.FontWeight.BOLD),
            *(ft.Text(line) for line in check.cards),
            *(ft.Text(problem) for problem in check.problems),
            ft.Image(src=check.picture, fit=ft.BoxFit.CONTAIN,
                     semantics_label="The photo, each card outlined and labelled")]


def saved_deck(store: DeckProfileStore) -> DeckProfile | None:
    """The deck the user taught the app, or None (none taught, or its file was damaged: then it
    is set aside with a notice, and photos are read without it)."""
    data = store.load()
    if data is None:
        return None
    try:
        return DeckProfile.from_json(data)
    except ValueError as error:
        store.set_aside(str(error))
        return None


def teach_deck(data: bytes, store: DeckProfileStore) -> str:
    """Learn the deck on a photo of all 60 cards laid out as a full Plaza and save it (on disk
    before this returns); what was learnt, for the player. UnreadablePhoto says why not (the
    cards missing, say), and the deck taught before, if any, stays."""
    try:
        profile = learn_deck(decode_photo(data))
    except DeckError as error:
        raise UnreadablePhoto(str(error)) from None
    store.save(profile.as_json())
    # Not "from all 60 cards": up to vision.deck.UNREAD cards lying unread are learnt without.
    return ("Learnt your deck: the inks of its 5 colours and its numerals 1 to 12. Plaza "
            "checks and hand photos now read by it.")


@ft.component
def PlazaPhotoCheck(store: DeckProfileStore):
    """The tool: a button to pick a photo, a progress ring while it is read, then the result;
    above it, teaching the app the deck (or forgetting it). `store` keeps the taught deck."""
    taught, set_taught = ft.use_state(lambda: store.load() is not None)

    def forget(_) -> None:
        store.forget()
        set_taught(False)

    def learnt(_) -> None:
        set_taught(True)

    deck_controls: list[ft.Control] = [
        ft.Text("Your deck is taught: photos are read by its inks and numerals." if taught
                else "Photos are read for any deck. For an unusual deck, teach the app yours "
                     "from one photo of all 60 cards laid out as a full Plaza."),
        PhotoTool("Teach the app your deck", lambda data: teach_deck(data, store),
                  show=lambda message: [ft.Text(message)] if taught else [],
                  on_result=learnt),
        *([action("Forget my deck", forget)] if taught else []),
    ]
    return ft.Column([
        *deck_controls,
        PhotoTool("Choose a photo of the Plaza",
                  lambda data: check_plaza_photo(data, saved_deck(store)), show=show_check),
    ])
