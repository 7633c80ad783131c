"""Teaching the reader one deck (issue 6, "Calibration"): from one photo of the whole deck laid
out as a full Plaza (P5: one row per colour, one column per number, 5 × 12), learn each colour's
ink and each number's numeral shape as the reader sees them. read_plaza and read_hand then judge
inks by the nearest learnt ink and weigh the classifier's numerals by the learnt shapes.

The cards are found by the ordinary reader; in a full Plaza every row and column is full, so a
card's identity comes from its place on the grid (its row's colour and its column's number, by
the cards read for sure there), not from its own reading: an odd typeface's unsure 7 is still
learnt as a 7. A place where the reader found nothing is read again against its own white, then
with what the other cards taught. A few places still unread where a card's paper lies are
learnt without; more, or one where no card lies, or a grid that cannot be laid, is an error
naming what is missing.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache, cached_property, partial
from typing import Any

import cv2
import numpy as np

from companion.games.plaza_cards import COLOURS, Card, Colour
from vision.cards import (
    GLYPH,
    SeenCard,
    _chain_heads,
    _divide_by_paper,
    _judging_by,
    _lab,
    _paper_mask,
    _prototype_lab,
    _read_place,
    _Reading,
    _readings,
    _row_axis,
    _settle_duplicates,
    _upside_down,
    working_copy,
)

NUMBERS = 12
# A glyph is the deck's numeral when it matches one learnt shape at least this well (normalised
# cross-correlation); below, the profile has no say and the classifier decides alone.
MATCHES = 0.75
# How fast a number's weight falls with its shape's shortfall from the best match: a shortfall
# of SPREAD divides the weight by e.
SPREAD = 0.04
UNREAD = 3  # at most this many cards lying in their place may be learnt without
OFF_GRID = 0.35  # a place further than this (in cells) from a grid point is not on the grid


class DeckError(ValueError):
    """The photo is not one of a whole deck laid out as a full Plaza; the message says why."""


@dataclass(frozen=True)
class DeckProfile:
    """One deck's inks and numeral shapes, as the reader measures them."""

    # Each colour's ink (Colour order), RGB relative to the paper white, as the reader measures.
    inks: tuple[tuple[float, float, float], ...]
    # Per number 1..12: the numeral's glyph (vision.cards.glyph_of, GLYPH × GLYPH, row by row)
    # as it lies upright, averaged over the deck's five cards of that number.
    shapes: tuple[tuple[float, ...], ...]

    @cached_property
    def ink_lab(self) -> dict[Colour, np.ndarray]:
        """Each colour's inks in CIE Lab (rows): the learnt one, and the typical ones as well: a
        deep red learnt under good light, washed out by glare on another photo, is still nearer
        a typical red than any other colour."""
        rows, prototypes = _prototype_lab()
        learnt = _lab(np.array(self.inks))
        return {colour: np.vstack([learnt[colour.row], prototypes[rows == colour.row]])
                for colour in COLOURS}

    @cached_property
    def _zero_mean_shapes(self) -> np.ndarray:
        """Each number's shape upright and turned 180° (rows 2k, 2k+1), zero mean, unit norm."""
        upright = np.array(self.shapes, np.float32).reshape(NUMBERS, GLYPH, GLYPH)
        both = np.stack([upright, upright[:, ::-1, ::-1]], axis=1).reshape(2 * NUMBERS, -1)
        return np.array([_normalised(shape) for shape in both])

    def shape_weights(self, glyph: np.ndarray) -> np.ndarray | None:
        """How well `glyph` (glyph_of) matches each number's shape, as weights for the
        classifier's numbers 1..12 (the best 1, others less by their shortfall) and, last, 1 for
        "not a numeral". None when no shape matches well enough: then it is no numeral of this
        deck the profile can speak for. A 6 turned is a 9: the two take the better match of
        both, and the classifier (with the bar or dot the deck prints) keeps telling which."""
        similarity = (self._zero_mean_shapes @ _normalised(glyph)).reshape(NUMBERS, 2)
        per_number = similarity.max(axis=1)
        per_number[[5, 8]] = per_number[[5, 8]].max()
        best = float(per_number.max())
        if best < MATCHES:
            return None
        # Whether it is a numeral at all is the classifier's to say: a stripe or a frame's side
        # matches a 1 as well as the 1 does.
        return np.exp(np.append(per_number - best, 0.0) / SPREAD)

    def as_json(self) -> dict[str, Any]:
        """Plain numbers, for storing with the user's data."""
        return {"inks": [list(ink) for ink in self.inks],
                "shapes": [list(shape) for shape in self.shapes]}

    @classmethod
    def from_json(cls, data: Any) -> DeckProfile:
        """The profile as_json gave; ValueError if `data` is not one."""
        try:
            inks = tuple(tuple(float(v) for v in ink) for ink in data["inks"])
            shapes = tuple(tuple(float(v) for v in shape) for shape in data["shapes"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"not a deck profile ({error})") from None
        if len(inks) != len(COLOURS) or any(len(ink) != 3 for ink in inks) \
                or len(shapes) != NUMBERS or any(len(s) != GLYPH * GLYPH for s in shapes) \
                or not all(math.isfinite(v) for v in (*sum(inks, ()), *sum(shapes, ()))):
            raise ValueError(f"not a deck profile ({len(inks)} inks, {len(shapes)} shapes)")
        return cls(inks, shapes)


def _normalised(values: np.ndarray) -> np.ndarray:
    """Values as one zero-mean, unit-norm vector (for normalised cross-correlation)."""
    centred = np.asarray(values, np.float32).ravel() - float(np.mean(values))
    return centred / max(float(np.linalg.norm(centred)), 1e-6)


def learn_deck(image: np.ndarray) -> DeckProfile:
    """The profile of the deck on a photo of all 60 cards laid out as a full Plaza (P5).
    DeckError (a ValueError) says what is missing when the photo is not that; ValueError for a
    picture that is no colour photo."""
    return _profile(deck_cards(image))


def deck_cards(image: np.ndarray) -> dict[Card, _Reading]:
    """Each card of the deck, as read at its place on a photo of the full Plaza: its identity
    is its place's (the row's colour, the column's number), whatever the reading says."""
    readings = _places(_readings(image, on_plaza=True))
    sure = [r for r in readings if isinstance(r.item, SeenCard)]
    if len(sure) < 4:
        raise DeckError(f"Found {len(sure)} of 60 cards: lay the whole deck out as a full "
                        f"Plaza (a row per colour, a column per number) and photograph it "
                        f"from above.")
    to_grid, rows = _grid(readings)
    cells = _on_grid(readings, to_grid)
    # The photo's working copy (about 25 ms at 12 MP) is taken once, and only if a card is missing.
    working = cache(partial(working_copy, image))
    if _missing(cells):
        cells |= _read_missing(*working(), _missing(cells), to_grid, sure)
    if _missing(cells):
        # The cards read teach the reader most of the deck: read with what they taught, a card
        # of an odd face or ink that the classifier alone refused may read now.
        with _judging_by(_profile({Card(rows[row], column + 1): reading
                                   for (row, column), reading in cells.items()})):
            again = _on_grid(_places(_readings(image, on_plaza=True)), to_grid)
        cells |= {cell: again[cell] for cell in _missing(cells) if cell in again}
    missing = _missing(cells)
    # A few cards that lie in their place but did not read (an 11 set wide, its digits taken
    # for two cards' pieces) leave enough of their row and column to learn from.
    if missing and (len(missing) > UNREAD or not _paper_at_all(
            *working(), [_place(cell, to_grid, sure) for cell in missing])):
        names = ", ".join(f"{rows[row].value} {column + 1}" for row, column in missing)
        raise DeckError(f"Found {60 - len(missing)} of 60 cards; missing: {names}. Lay the "
                        f"whole deck out as a full Plaza and take the photo again.")
    return {Card(rows[row], column + 1): reading for (row, column), reading in cells.items()}


def _missing(cells: dict[tuple[int, int], _Reading]) -> list[tuple[int, int]]:
    return [cell for cell in np.ndindex(len(COLOURS), NUMBERS) if cell not in cells]


def _places(readings: list[_Reading]) -> list[_Reading]:
    """One reading per place, as the reader reports them (_settle_duplicates): its sure cards,
    and at each unsure place its most confident reading (a card read twice is unsure at the
    place where it read less surely)."""
    cards, unsure = _settle_duplicates(readings)
    sure = {id(seen) for seen in cards}
    unsure_places = {card.corners for card in unsure}
    chosen = []
    for reading in sorted(readings, key=lambda r: -r.confidence):
        if id(reading.item) in sure or reading.item.corners in unsure_places:
            unsure_places.discard(reading.item.corners)
            chosen.append(reading)
    return chosen


def _grid(places: list[_Reading]) -> tuple[np.ndarray, tuple[Colour, ...]]:
    """The homography from photo pixels to grid cells (x: column = number - 1, y: row), and the
    colour of each row. Rows are the chains of places (sure or not) that touch end to end along
    the rows' axis (P5: cards in a row touch), in order across it; the grid is fitted to the sure
    cards' numbers and rows, so a colour the reader misnames (a teal green read as black) still
    has its row. Each row then takes the colour most of its sure cards agree on, one colour per
    row (P5)."""
    sure = [r for r in places if isinstance(r.item, SeenCard)]
    axis = _row_axis(sure)
    along = np.array([math.cos(axis), math.sin(axis)])
    across = np.array([-along[1], along[0]])
    centres = np.array([r.frame.mean(axis=0) for r in places])
    widths = np.array([np.linalg.norm(r.frame[1] - r.frame[0]) for r in places])
    next_beside = []  # each place and the place next along its row
    for i, (centre, width) in enumerate(zip(centres, widths, strict=True)):
        steps = (centres - centre) @ along / width
        aside = np.abs((centres - centre) @ across) / width
        beside = np.flatnonzero((steps > 0.7) & (steps < 2.6) & (aside < 0.35))  # a hole too
        if beside.size:
            next_beside.append((int(beside[np.argmin(steps[beside])]), i))
    head = _chain_heads(next_beside)
    heads = np.array([head(i) for i in range(len(places))])
    # A chain's place across the rows; chains that lie on the line a row's cards follow are
    # pieces of that row (a row's cards far apart where some were not found), rows lie a card's
    # height apart at least. Measured from the row's line, not from its last chain: a stray
    # place between two rows (a corner index read alone) would otherwise join them. The line is
    # the row's chains of cards side by side where it has some, not its stray places.
    height = float(np.median([np.linalg.norm(r.frame[3] - r.frame[0]) for r in places]))
    level = {h: float(np.median(centres[heads == h] @ across)) for h in set(heads.tolist())}
    sizes = np.bincount(heads, minlength=len(places))

    def line_of(row: list[int]) -> np.ndarray:
        side_by_side = [chain for chain in row if sizes[chain] >= 2] or row
        return centres[np.isin(heads, side_by_side)]

    rows: list[list[int]] = []
    for h in sorted(level, key=level.get):
        if rows and _off_row(line_of(rows[-1]), centres[heads == h], along, across) \
                < 0.5 * height:
            rows[-1].append(h)
        else:
            rows.append([h])
    rows = [row for row in rows if np.isin(heads, row).sum() >= 3]
    points, targets = [], []
    if len(rows) == len(COLOURS):
        for i, reading in enumerate(places):
            row = next((k for k, chains in enumerate(rows) if heads[i] in chains), None)
            if isinstance(reading.item, SeenCard) and row is not None:
                points.append(centres[i])
                targets.append((reading.item.card.number - 1, row))
    homography = None
    if len(points) >= 2 * len(COLOURS):
        homography, inliers = cv2.findHomography(np.array(points), np.array(targets, np.float64),
                                                 cv2.RANSAC, OFF_GRID)
    if len(rows) != len(COLOURS):
        raise DeckError(f"Found {len(sure)} of 60 cards, in {len(rows)} rows of the 5 a full "
                        f"Plaza has: lay the whole deck out, a row per colour, evenly lit, and "
                        f"take the photo again.")
    if homography is None or inliers.sum() < 0.8 * len(points):
        raise DeckError("The cards read do not lie as a full Plaza (a row per colour, a column "
                        "per number, 1 to 12 in order): lay the deck out so and take the photo "
                        "again.")
    votes = np.zeros((len(COLOURS), len(COLOURS)), int)  # [row, colour]: sure cards
    for reading in sure:
        cell = _cell_of(homography, reading.frame.mean(axis=0))
        if cell is not None:
            votes[cell[0], reading.item.card.colour.row] += 1
    order = max(itertools.permutations(range(len(COLOURS))),
                key=lambda colours: sum(votes[row, colour] for row, colour in enumerate(colours)))
    return homography, tuple(COLOURS[colour] for colour in order)


def _off_row(row: np.ndarray, chain: np.ndarray, along: np.ndarray, across: np.ndarray) -> float:
    """How far across (photo pixels, median) a chain's places (centres) lie from the line
    through a row's places (`row`, centres): a row photographed at a slant drifts across the
    rows' axis."""
    x, y = row @ along, row @ across
    slope, offset = np.polyfit(x, y, 1) if np.ptp(x) > 0 else (0.0, float(np.median(y)))
    return float(np.median(np.abs(chain @ across - (slope * (chain @ along) + offset))))


def _cell_of(to_grid: np.ndarray, point: np.ndarray) -> tuple[int, int] | None:
    x, y = cv2.perspectiveTransform(np.array([[point]], np.float64), to_grid)[0, 0]
    column, row = round(x), round(y)
    if max(abs(x - column), abs(y - row)) > OFF_GRID or not (0 <= column < NUMBERS
                                                              and 0 <= row < len(COLOURS)):
        return None
    return row, column


def _on_grid(readings: list[_Reading], to_grid: np.ndarray) -> dict[tuple[int, int], _Reading]:
    """The most confident reading at each grid cell (row, column); readings off the grid (the
    table's pattern), and corner indices read as cards, are left out."""
    cells: dict[tuple[int, int], _Reading] = {}
    for reading in sorted(_card_sized(readings), key=lambda r: -r.confidence):
        cell = _cell_of(to_grid, reading.frame.mean(axis=0))
        if cell is not None and reading.shape is not None and reading.ink is not None:
            cells.setdefault(cell, reading)
    return cells


def _card_sized(readings: list[_Reading]) -> list[_Reading]:
    """The readings whose frame is about as wide as most (a card's), not far narrower (a corner
    index's, read as a card of its own)."""
    widths = np.array([np.linalg.norm(r.frame[1] - r.frame[0]) for r in readings])
    return [r for r, width in zip(readings, widths, strict=True)
            if width >= 0.5 * np.median(widths)]


def _read_missing(small: np.ndarray, scale: float, missing: list[tuple[int, int]],
                  to_grid: np.ndarray, sure: list[_Reading]) -> dict[tuple[int, int], _Reading]:
    """Places of the grid where the reader found nothing, read again against their own white
    (_read_place) on the photo's working copy (`small`, `scale` from working_copy): a card
    shaded or lit unlike the rest. The place is the nearest sure card's frame, moved to the
    cell's centre."""
    axis = _row_axis(sure)
    found = {}
    for row, column in missing:
        place = _place((row, column), to_grid, sure)
        for reading in _read_place(small, place, scale, axis, unsure_too=True):
            if _cell_of(to_grid, reading.frame.mean(axis=0)) == (row, column) \
                    and reading.shape is not None and reading.ink is not None:
                found[row, column] = reading
                break
    return found


def _place(cell: tuple[int, int], to_grid: np.ndarray, sure: list[_Reading]) -> np.ndarray:
    """The corners (photo pixels) of a grid cell (row, column): the nearest sure card's frame,
    moved to the cell's centre; a card's frame, not a corner index's that read as a card."""
    row, column = cell
    centre = cv2.perspectiveTransform(np.array([[(column, row)]], np.float64),
                                      np.linalg.inv(to_grid))[0, 0]
    cards = _card_sized(sure)
    centres = np.array([r.frame.mean(axis=0) for r in cards])
    nearest = cards[int(np.argmin(np.linalg.norm(centres - centre, axis=1)))]
    return nearest.frame - nearest.frame.mean(axis=0) + centre


def _paper_at_all(small: np.ndarray, scale: float, places: list[np.ndarray]) -> bool:
    """Whether a card's paper lies at every place (corners, photo pixels) on the photo's working
    copy (`small`, `scale` from working_copy): most of its inner half is card stock, as the
    reader tells it (ink and artwork leave the rest), not table."""
    paper = _paper_mask(small, _divide_by_paper(small))
    return all(_mostly_paper(paper, place * scale) for place in places)


def _mostly_paper(paper: np.ndarray, corners: np.ndarray) -> bool:
    inner = corners.mean(axis=0) + 0.5 * (corners - corners.mean(axis=0))
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    crop = paper[y0:y1, x0:x1]
    if crop.size == 0:
        return False
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(inner - (x0, y0)).astype(np.int32)], 1)
    return bool(crop[inside > 0].mean() >= 0.5)


def _profile(cards: dict[Card, _Reading]) -> DeckProfile:
    """Inks: each colour's median over its row. Shapes: each number's glyphs over its column,
    each turned to lie as the column's most confident one does (so a card turned 180° or read
    unsure adds its shape the right way round), then averaged; upright by that card's reading.
    A colour or number none of `cards` shows (a deck partly read) gets no ink (black)
    and no shape (blank: it matches no glyph)."""
    inks = []
    for colour in COLOURS:
        row = [cards[card].ink for card in _cards_of(cards, colour=colour)]
        inks.append(np.median(row, axis=0) if row else np.zeros(3))
    shapes = []
    for number in range(1, NUMBERS + 1):
        column = sorted((cards[card] for card in _cards_of(cards, number=number)),
                        key=lambda r: -r.confidence)
        if not column:
            shapes.append((0.0,) * (GLYPH * GLYPH))
            continue
        reference = _normalised(column[0].shape)
        glyphs = [shape if _normalised(shape) @ reference
                  >= _normalised(shape[::-1, ::-1]) @ reference
                  else shape[::-1, ::-1] for shape in (r.shape for r in column)]
        mean = np.mean(glyphs, axis=0)
        if _upside_down(column[0].probabilities):
            mean = mean[::-1, ::-1]
        shapes.append(tuple(round(float(v), 4) for v in mean.ravel()))
    return DeckProfile(inks=tuple(tuple(round(float(v), 3) for v in ink) for ink in inks),
                       shapes=tuple(shapes))


def _cards_of(cards: dict[Card, _Reading], colour: Colour | None = None,
              number: int | None = None) -> list[Card]:
    return [card for card in cards if card.colour is (colour or card.colour)
            and card.number == (number or card.number)]
