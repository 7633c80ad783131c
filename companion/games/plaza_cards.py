"""Plaza cards (P1) and the layout checker (P5): pure logic, for the rules and the photo reader.

The Plaza is a grid with one row per colour and one column per number (P5), so a layout is just a
set of cards. Internally a layout is five 12-bit row masks (bit n-1 = number n), which makes the
legality test a handful of integer operations; the adviser (plaza_layout.py) relies on that speed.
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations

from companion.core.errors import InvalidEvent

NUMBERS = range(1, 13)  # P1: every colour runs from 1 to 12
ROW_BITS = (1 << len(NUMBERS)) - 1
RUN_LENGTH = 3  # P5: a row-run needs three or more consecutive numbers of one colour
COLUMN_LENGTH = 3  # P5: a column needs three or more cards of one number


@functools.total_ordering
class Colour(enum.Enum):
    """The five colours of the pack (P1), in the order of the Plaza's rows."""

    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"
    BROWN = "brown"
    BLACK = "black"

    @property
    def row(self) -> int:
        return _ROW_OF[self]

    def __lt__(self, other: object) -> bool:
        # Cards sort by row, then number, so lists of cards read like the Plaza.
        if not isinstance(other, Colour):
            return NotImplemented
        return self.row < other.row

    def __str__(self) -> str:
        return self.value.capitalize()

    # Members are singletons compared by identity; the identity hash keeps card sets fast.
    __hash__ = object.__hash__


_ROW_OF = {colour: row for row, colour in enumerate(Colour)}
COLOURS: tuple[Colour, ...] = tuple(Colour)


@dataclass(frozen=True, order=True)
class Card:
    colour: Colour
    number: int

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            raise InvalidEvent(f"{self.colour!r} is not a Plaza colour.")
        if isinstance(self.number, bool) or not isinstance(self.number, int) \
                or self.number not in NUMBERS:
            raise InvalidEvent(
                f"There is no {self.number} {self.colour}: Plaza cards run from 1 to 12.")

    def __str__(self) -> str:
        return f"{self.number} {self.colour}"


PACK: tuple[Card, ...] = tuple(Card(colour, number) for colour in Colour for number in NUMBERS)


@dataclass(frozen=True)
class LayoutProblem:
    card: Card
    reason: str  # for the players, e.g. "7 Red is in no run of three Red cards in a row and ..."


@dataclass(frozen=True)
class LayoutVerdict:
    legal: bool
    problems: tuple[LayoutProblem, ...]


Rows = tuple[int, ...]  # five 12-bit masks, one per colour in row order


def distinct_cards(cards: Iterable[Card], what: str = "the Plaza") -> tuple[Card, ...]:
    """The cards in Plaza order; a card given twice cannot be real, since the pack has one (P1)."""
    seen: set[Card] = set()
    for card in cards:
        if not isinstance(card, Card):
            raise InvalidEvent(f"{card!r} is not a Plaza card.")
        if card in seen:
            raise InvalidEvent(f"{card} is on {what} twice, but the pack has only one {card}.")
        seen.add(card)
    return tuple(sorted(seen))


def rows_of(cards: Iterable[Card]) -> Rows:
    rows = [0] * len(COLOURS)
    for card in cards:
        rows[card.colour.row] |= card_bit(card)
    return tuple(rows)


def card_bit(card: Card) -> int:
    return 1 << (card.number - 1)


def run_covered(row: int) -> int:
    """The cards of one row that lie in a run of three or more consecutive numbers (P5)."""
    starts = row & (row >> 1) & (row >> 2)  # bit i set: numbers i+1, i+2, i+3 are all there
    return (starts | (starts << 1) | (starts << 2)) & ROW_BITS


def full_columns(rows: Rows) -> int:
    """The numbers (as a 12-bit mask) that have three or more cards in their column (P5)."""
    full = 0
    for first, second, third in combinations(rows, COLUMN_LENGTH):
        full |= first & second & third
    return full


def stranded(rows: Rows) -> Rows:
    """Per row, the cards in neither a run nor a full column: the layout is legal when all are 0."""
    columns = full_columns(rows)
    return tuple(row & ~(run_covered(row) | columns) for row in rows)


def check_layout(cards: Iterable[Card]) -> LayoutVerdict:
    """P5: every card must be in a row-run of three or more, or in a column of three or more."""
    layout = distinct_cards(cards)
    loose = stranded(rows_of(layout))
    problems = tuple(
        LayoutProblem(card, _stranded_reason(card))
        for card in layout if loose[card.colour.row] & card_bit(card))
    return LayoutVerdict(legal=not problems, problems=problems)


def _stranded_reason(card: Card) -> str:
    return (f"{card} is in no run of three {card.colour} cards in a row "
            f"and no column of three {card.number}s.")
