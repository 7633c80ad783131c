"""`python -m vision plaza PHOTO... [--json] [--deck DECKPHOTO]` and `python -m vision hand
PHOTO... [--json] [--deck DECKPHOTO]`. With --deck, the deck is learnt first from DECKPHOTO (all
60 cards laid out as a full Plaza: vision.deck) and every photo is read with it; a deck photo it
cannot learn from is a wrong argument (exit code 2, with why)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.cards import HandReading, PlazaReading, SeenCard, UnsureCard, read_hand, read_plaza
from vision.cli import run_photos
from vision.deck import DeckError, DeckProfile, learn_deck
from vision.photo import UnreadablePhoto, load_photo


def add_commands(commands: argparse._SubParsersAction) -> None:
    for name, helptext, run in (
            ("plaza", "read a Plaza layout and check it (P5)", _run_plaza),
            ("hand", "read the cards left in a hand and total them (P3)", _run_hand)):
        command = commands.add_parser(name, help=helptext, description=helptext)
        command.add_argument("photos", nargs="+", metavar="PHOTO")
        command.add_argument("--json", action="store_true", help="one JSON object per line")
        command.add_argument("--deck", metavar="DECKPHOTO",
                             help="a photo of the whole deck laid out as a full Plaza: read "
                                  "by that deck's inks and numerals")
        command.set_defaults(run=run)


def plaza_json(image: np.ndarray, deck: DeckProfile | None = None) -> dict[str, Any]:
    reading = read_plaza(image, deck)
    return {**_cards_json(reading), "legal": reading.legal, "problems": list(reading.problems)}


def hand_json(image: np.ndarray, deck: DeckProfile | None = None) -> dict[str, Any]:
    reading = read_hand(image, deck)
    return {**_cards_json(reading), "total": reading.total}


def _cards_json(reading: PlazaReading | HandReading) -> dict[str, Any]:
    return {"cards": [_card_json(seen) for seen in reading.cards],
            "unsure": [{"corners": _corners(unsure)} for unsure in reading.unsure]}


def _card_json(seen: SeenCard) -> dict[str, Any]:
    return {"colour": seen.card.colour.value, "number": seen.card.number,
            "corners": _corners(seen), "confidence": seen.confidence}


def _corners(card: SeenCard | UnsureCard) -> list[list[float]]:
    return [[x, y] for x, y in card.corners]


def _summary(result: dict[str, Any]) -> str:
    cards = ", ".join(f"{card['number']} {card['colour']}" for card in result["cards"]) or "no cards"
    unsure = f", {len(result['unsure'])} unsure" if result["unsure"] else ""
    if "total" in result:
        return f"{cards}{unsure}; total {result['total']}"
    verdict = "legal" if result["legal"] else "NOT legal"
    if result["unsure"]:
        verdict += " as far as the readable cards show"
    return f"{cards}{unsure}; {verdict}" + "".join(f"\n  {p}" for p in result["problems"])


def _run_plaza(arguments: argparse.Namespace) -> int:
    return _run(arguments, plaza_json)


def _run_hand(arguments: argparse.Namespace) -> int:
    return _run(arguments, hand_json)


def _run(arguments: argparse.Namespace,
         read: Callable[[np.ndarray, DeckProfile | None], dict[str, Any]]) -> int:
    deck = None
    if arguments.deck:
        try:
            deck = learn_deck(load_photo(Path(arguments.deck)))
        except (UnreadablePhoto, DeckError) as error:
            print(f"{arguments.deck}: cannot learn the deck: {error}", file=sys.stderr)
            return 2
    return run_photos(arguments.photos, lambda image: read(image, deck), _summary,
                      arguments.json)
