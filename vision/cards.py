"""Reading Plaza cards from a photo: a Plaza layout (checked by P5) or a hand (totalled by P3).

The pipeline anchors on the big printed numerals, because card outlines fail where cards touch
(Plaza rows) or where the table is pale (see /work/shared/notes/opencv-5-facts.md):
1. Work on a copy of about 1600 px; divide each pixel by a local paper-white estimate, so ink
   colour survives warm or cool light and shadow edges.
2. Paper (near the local white, near-neutral under the light of the brightest pixels), cut
   along edges that are not ink edges, gives regions: single cards in a hand, blocks of touching
   cards on a Plaza, or pale table. Lone cards are read first, each turned upright along its
   outline's axes; both ways round are tried and the one whose numerals read best wins. Cards on
   a Plaza lie alike, so blocks are then read along the lone cards' axes (along the other axis a
   sideways numeral can pass for another in an unseen typeface), one transform per block.
3. Ink blobs ringed by paper (but a frame printed round the numeral) are grouped into numerals
   (two digits side by side; a bar under 6/9), read by a small classifier trained on many
   typefaces both ways up (vision/data/cards/numerals.npz, made by
   bench/train_plaza_numerals.py), and coloured from their ink. The classifier gives a 6 or
   9's shape; the bar (under: upright, over: turned) gives its way up, and without a bar 6
   and 9 stay even. On a Plaza a hesitant numeral takes
   the number its next neighbours along the row and column allow (P5), and then the number its
   column among the nearest sure cards of the whole Plaza predicts (P5 fixes a card's column by
   its number; 6 and 9 are three columns apart).
4. A numeral read with low confidence becomes an unsure card: never a guess, since one wrong card
   flips a Plaza's legality; the verdict is then P5 on the cards read, with a warning that it
   may change. Readings whose card would not be mostly paper, regions that are not card-shaped
   and hold no sure card, and unsure readings in an ink between the deck's colours are table.
   A region that is no lone card's outline may be a piece of its card (stripes or the table's
   print cut it): its card's paper is judged beyond the region, and where a typical card box
   around the numeral would reach over the table (decks print numerals up to half the card's
   height), the card is the largest box that is paper up to its edge. A reading far smaller
   than another, inside that one's card and of a number it may be, is its corner index: it
   confirms a card, it is never one.
5. Regions where nothing was read are read again with the card size taken from the cards read
   (one pack, one size): a lone card whose outline a picture or the table cut is found then, and
   on a Plaza a piece of a card that its own wide numeral cut in two. Lone cards whose paper
   the edges cut into strips (a faint print on the card) are read from the paper alone; those
   whose paper joins a patterned cloth's pale squares, from the paper with its small holes
   filled and what is narrower than part of a card taken off. Pieces
   of paper that ring no ink and are thinner than the pack's numerals need (the gaps between a
   cloth's dots) are not read at all. Where no card was read, paper is looked for again with a
   loose neutral test (cards lit off-white beside a brighter cream table); a region found so
   must hold a sure card. On a Plaza, the place beside each sure card along its row, and one
   row's pitch up and down its column, is read against its own white (a shadow dims a card),
   an unsure reading there counting only if the grid settles it (P5); and a sure reading far
   smaller than the pack's numerals, on no card read, is a corner index whose card's numeral
   did not read (or read in an unclear ink): its card's place beside it is read so too (in a
   hand too, along the index's own axes), and counts only as the index's own card.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from companion.games.plaza_cards import COLOURS, Card, Colour, check_layout

if TYPE_CHECKING:
    from vision.deck import DeckProfile

Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float],
                tuple[float, float]]

WORK_SIDE = 1600  # long side of the working copy, in pixels
SURE = 0.8  # below this confidence (number and colour together) a card is reported unsure
CARD_ASPECT = 88 / 63  # height / width of a Plaza card

MODEL_PATH = Path(__file__).parent / "data" / "cards" / "numerals.npz"
GLYPH = 24  # side of the square a numeral is resampled into for the classifier
LOOSE_TINT = 0.6  # _paper_mask's tint on the second look, for off-white lit cards
SMALLEST_NUMERAL = 0.5  # a card's numeral is at least this share of its neighbours' height
DECK_INK = 0.9  # a colour confidence from which a card's ink measures the deck's ink
INK_CLEAR = 0.1  # an unsure reading whose ink colour confidence is lower is table, not card
ROW_DOUBT = 0.98  # number odds below which a reading its row neighbours contradict is unsure
ASLANT = 20  # degrees off a Plaza's rows from which a reading's frame is too slanted to trust
# One ink strays across a photo (light, blur) by the clear cards' own spread, at least DECK_STRAY
# (CIE Lab units); DECK_FAR times that from a deck ink is another ink.
DECK_STRAY, DECK_FAR = 6.0, 3.0
# No Plaza ink is blue: red, green, yellow and brown lie at Lab b* > 0, black near 0 (a blue-black
# prints at -8 at full strength, and glare or a thin stroke only pales it). An ink bluer than
# -BLUE, and no greener (a* above b*: a teal green is no blue), is the table's.
BLUE = 9.0
INK = 0.38  # darker than this share of the paper white, in some channel, is ink
FAINT_INK = 0.25  # ink this dark may join pieces of ink above INK into one digit
# A card's width in its numeral's heights: decks print numerals from about half the card's
# height (width 1.5 heights) to a quarter of it; typically a third (2.2 heights).
SMALLEST_CARD, TYPICAL_CARD = 1.5, 2.2
INDEX_SMALLER = 2.0  # a corner index is at most this many times smaller than its card's numeral
REJECT = 24  # classifier class for "not a numeral"; classes 2k, 2k+1 are number k+1 up, down
# A glyph narrower than this share of its height is a 1 (or no digit): the narrowest other digit
# in 113 typefaces, a condensed face's, is 0.46 as wide as tall; a tilted camera takes up to a
# fifth off.
NARROW = 0.36
# A glyph narrower than this share of its height is no digit but a line (a frame's side, a
# stripe): the narrowest 1 in those typefaces is 0.23 as wide as tall.
THINNEST = 0.12
# A deck profile (vision.deck) weighs a numeral's shape only where it is this many working pixels
# tall or more: smaller, any narrow blob (an index's 2, a piece) resamples to a bar, the 1's shape.
SHAPED = 16
MAYBE = 0.05  # a deck profile favours only numbers the classifier gives this much or more


@dataclass(frozen=True)
class SeenCard:
    card: Card
    corners: Corners  # the card's own top-left, top-right, bottom-right, bottom-left
    confidence: float


@dataclass(frozen=True)
class UnsureCard:
    corners: Corners


@dataclass(frozen=True)
class PlazaReading:
    cards: tuple[SeenCard, ...]
    unsure: tuple[UnsureCard, ...]
    grid: tuple[tuple[Card | None, ...], ...]  # one row per colour (Colour order), 12 columns
    legal: bool  # P5 on the cards read; with unsure cards, "problems" says it may change
    problems: tuple[str, ...]
    offending: tuple[Card, ...]  # the cards that break P5


@dataclass(frozen=True)
class HandReading:
    cards: tuple[SeenCard, ...]
    unsure: tuple[UnsureCard, ...]
    total: int  # P3: the sum of the numbers of the cards read (unsure cards not counted)


def read_plaza(image: np.ndarray, deck: DeckProfile | None = None) -> PlazaReading:
    """Every card on a Plaza photo, the P5 grid, and the P5 verdict on the cards read; with a
    `deck` profile (vision.deck.learn_deck), inks and numerals are judged against that deck's."""
    with _judging_by(deck):
        cards, unsure = _settle_duplicates(_readings(image, on_plaza=True))
    grid = [[None] * 12 for _ in COLOURS]
    for seen in cards:
        grid[seen.card.colour.row][seen.card.number - 1] = seen.card
    verdict = check_layout(seen.card for seen in cards)
    problems = tuple(problem.reason for problem in verdict.problems)
    if unsure:
        # A card not read can make a stranded card legal or the reverse: the verdict holds for
        # the cards read, and says so.
        problems += (f"{_count(len(unsure), 'card')} could not be read: "
                     f"retake the photo for a sure verdict.",)
    return PlazaReading(cards=cards, unsure=unsure, grid=tuple(map(tuple, grid)),
                        legal=verdict.legal, problems=problems,
                        offending=tuple(problem.card for problem in verdict.problems))


def _count(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def read_hand(image: np.ndarray, deck: DeckProfile | None = None) -> HandReading:
    """The cards left in a hand (lying apart) and their P3 total; `deck` as for read_plaza."""
    with _judging_by(deck):
        cards, unsure = _settle_duplicates(_readings(image, on_plaza=False))
    return HandReading(cards=cards, unsure=unsure,
                       total=sum(seen.card.number for seen in cards))


def annotate(image: np.ndarray, reading: PlazaReading | HandReading) -> np.ndarray:
    """A copy of the photo with each card outlined and labelled (green); unsure ones are orange
    with a "?", and cards that break P5 are red with a "!"."""
    _check_image(image)
    marked = image.copy()
    thickness = max(2, round(max(image.shape[:2]) / 600))
    offending = set(getattr(reading, "offending", ()))
    for seen in reading.cards:
        colour = (40, 40, 230) if seen.card in offending else (60, 200, 60)
        _outline(marked, seen.corners, colour, thickness)
        _label(marked, seen.corners, str(seen.card) + (" !" if seen.card in offending else ""),
               colour, thickness)
    for unsure in reading.unsure:
        _outline(marked, unsure.corners, (0, 165, 255), thickness)
        _label(marked, unsure.corners, "?", (0, 165, 255), thickness)
    return marked


def _outline(image: np.ndarray, corners: Corners, colour: tuple[int, int, int],
             thickness: int) -> None:
    cv2.polylines(image, [np.round(corners).astype(np.int32)], True, colour, thickness,
                  cv2.LINE_AA)


def _label(image: np.ndarray, corners: Corners, text: str, colour: tuple[int, int, int],
           thickness: int) -> None:
    points = np.array(corners)
    size = np.linalg.norm(points[1] - points[0]) / 90
    x, y = points.mean(axis=0)
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, size, thickness)
    origin = (int(x - width / 2), int(y + height / 2))
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, (255, 255, 255),
                thickness * 3, cv2.LINE_AA)
    cv2.putText(image, text, origin, cv2.FONT_HERSHEY_SIMPLEX, size, colour, thickness,
                cv2.LINE_AA)


def _check_image(image: object) -> None:
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 \
            or image.shape[2] != 3:
        got = (f"{image.dtype} array of shape {image.shape}" if isinstance(image, np.ndarray)
               else type(image).__name__)
        raise ValueError(f"Expected a colour photo (BGR uint8 array of shape h × w × 3), "
                         f"got a {got}.")
    if min(image.shape[:2]) < 8:
        raise ValueError(f"The picture is too small to read cards from "
                         f"({image.shape[1]} × {image.shape[0]} pixels).")


# ---------------------------------------------------------------------------------------------
# Finding and reading numerals


@dataclass(frozen=True)
class _Numeral:
    box: tuple[float, float, float, float]  # x, y, w, h in the upright frame of its region
    labels: tuple[int, ...]  # ink components it is made of
    probabilities: np.ndarray  # classifier output
    bar: int = 0  # a flat bar (the mark of 6 and 9) under the digits: 1, over them: -1, none: 0


# The deck profile the reading in progress judges by (None: the typical inks and the model
# alone). A context variable rather than a parameter: it is consulted only where inks and
# numerals are classified, deep below every finding step, which need not know of it; and each
# thread (the app reads off its UI thread) has its own.
_DECK: ContextVar[DeckProfile | None] = ContextVar("deck", default=None)


@contextmanager
def _judging_by(deck: DeckProfile | None) -> Iterator[None]:
    token = _DECK.set(deck)
    try:
        yield
    finally:
        _DECK.reset(token)


def working_copy(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo scaled to WORK_SIDE at most, and that scale."""
    _check_image(image)
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else image
    return small, scale


def _readings(image: np.ndarray, on_plaza: bool) -> list[_Reading]:
    """Every card on the photo, as read (a place may be read twice: see _settle_duplicates);
    on a Plaza, a card's place may settle its number (P5)."""
    small, scale = working_copy(image)
    normalised = _divide_by_paper(small)
    # Half size: plenty for outlines. The loose mask is for a second look (_read_off_white).
    # In a hand, cards lie apart, each ringed by table: the second look also takes in dimly lit
    # paper beside paper (a card in shade). On a Plaza that paper can bridge touching cards,
    # and a frame across them misplaced a numeral (unseen tuning seed 1026). The dim mask, grown
    # so too, is looked at for lone cards only (_read_uncut), as a second look.
    # The shaded mask is paper lit as dimly as the dim mask's, anywhere: whole card-sized pieces
    # of it that no reading covers are cards in shade (_unread_card_paper). In a hand, of the
    # loose tint too: where a cream cloth is the brightest thing, white card stock in shade is
    # tinted against that light (unseen tuning seed 1047: 0.3 of its brightness); each card
    # lies apart, its own piece, and must be of a sure card's size and paler than the table.
    paper, loose, dim, shaded = _paper_masks(small[::2, ::2], normalised[::2, ::2],
                                             (0.3, LOOSE_TINT, 0.3,
                                              0.3 if on_plaza else LOOSE_TINT),
                                             grown=(False, not on_plaza, True),
                                             shaded=(False, False, False, True))
    # Outlines are cut along edges, so that cards on a pale table (and touching cards) part; not
    # along the edges of ink (numerals, emblems), which would cut a card into pieces.
    grey_half = cv2.cvtColor(small[::2, ::2], cv2.COLOR_BGR2GRAY)
    edges = cv2.Canny(grey_half, 25, 50)
    ink_half = (_channel_min(normalised[::2, ::2]) < 1 - INK).astype(np.uint8)
    edges[cv2.dilate(ink_half, np.ones((5, 5), np.uint8)) > 0] = 0
    found: list[_Reading] = []
    seconds: list[_Reading] = []  # second looks (_Reading.second_look), set aside till the end
    empty: list[_Region] = []
    edges_free = (cv2.dilate(edges, np.ones((2, 2), np.uint8)) == 0).astype(np.uint8)
    regions = _regions(paper & edges_free)
    # Lone cards first: their outlines tell the axes well. Cards on a Plaza lie alike (turned
    # 180° at most), so blocks are read along the lone cards' axes: along the other axis,
    # numerals lying sideways can pass for others (a 5 for a 10) in an unseen typeface.
    # Then the largest: they tell the pack's numeral size, by which thin pieces are judged.
    regions.sort(key=lambda region: (not region.card_shaped,
                                     -region.rect[1][0] * region.rect[1][1]))
    axis = None
    for region in regions:
        if on_plaza and axis is None and not region.card_shaped:
            axis = _row_axis(found)
        read = _parted(_read_region(normalised, paper, region, scale, on_plaza, axis=axis,
                                    thinnest=_thinnest(found, scale)), seconds)
        found += read
        if not read:
            empty.append(region)
    found += _parted(_read_uncut(normalised, paper, found, scale, on_plaza, axis), seconds)
    # Grown paper can make a piece of a Plaza block card-shaped: what it reads is a second look,
    # kept only where nothing else is read (_with_second_looks).
    seconds += [replace(reading, second_look=True)
                for reading in _read_uncut(normalised, dim, found, scale, on_plaza, axis)]
    # A lone card whose outline is lost (a picture or the table's edge cuts its paper) has only
    # its numeral to size it by, which varies between decks; the cards already read are the same
    # pack, so their width sizes it better, and its paper can then be checked.
    found = _without_indices(found)  # before the pack's card width is taken from them
    widths = [math.dist(*reading.item.corners[:2]) * scale for reading in found
              if isinstance(reading.item, SeenCard)]
    if len(widths) >= 2:
        width = float(np.median(widths))
        for region in empty:
            (_, _), (w, h), _ = region.rect
            if w * h >= 0.1 * width * width * CARD_ASPECT:  # a piece of a card, at least
                found += _parted(_read_region(normalised, paper, region, scale, on_plaza, width,
                                              axis, _thinnest(found, scale)), seconds)
        # The outlines left may be the table's (a smoothed patch of a pale cloth): what they
        # hold must be a card read for sure.
        for outlines in _without_pattern(paper, width):
            found += _parted([reading for reading in _read_uncut(
                normalised, paper, found, scale, on_plaza, axis, outlines)
                if isinstance(reading.item, SeenCard)], seconds)
        # Only on a Plaza: in a hand, cards lie apart and each has its own outline (read above);
        # the frame of a hand's piece reaches just beyond it and cut a turned 3 into a sure 1
        # (unseen tuning seed 4055).
        if on_plaza:
            found += _parted(_read_unread_paper(normalised, paper, found, scale, width, axis),
                             seconds)
    if not on_plaza:
        found += _parted(_read_outlined(normalised, paper, paper & edges_free, dim, found,
                                        scale), seconds)
    found += _parted(_read_off_white(normalised, loose, edges_free, found, scale, on_plaza,
                                     axis), seconds)
    hopeful: frozenset[int] = frozenset()
    looked: list[np.ndarray] = []  # places read beside a row's cards: none is read twice
    if on_plaza:
        # A card sure only by the deck's own inks (its ink between the typical ones) is one to
        # look beside too: its row runs on past it (P5; unseen tuning seed 5036: the Red 2 beside
        # such a Red 3 was missed). Corner indices are no cards to look beside.
        beside = _read_row_gaps(small, _recolour_by_deck(_without_indices(found)), scale, looked)
        found += _parted(beside, seconds)
        hopeful = frozenset(id(r.frame) for r in beside if not isinstance(r.item, SeenCard))
    found = _recolour_by_deck(_without_indices(_with_second_looks(found, seconds)))
    if on_plaza:
        found = _settle_on_grid(_doubt_against_row(_doubt_aslant(found)), hopeful)
        found = _beside_settled_cards(small, found, scale, looked)
    alike = _alike_in_size(found)
    kept = {id(r) for r in alike}
    alike += _read_by_index([r for r in found if id(r) not in kept], alike, small, scale, on_plaza)
    found = alike
    # Ink that lies between the deck's colours, read as an unsure numeral, is nearly always a
    # pattern of the table (a print, a check), and reporting it would ask for a retake for
    # nothing: it is dropped, as is a grey far paler than the pack's black (_table_grey) and a
    # blue (_table_blue). Sure cards, and unsure ones in a clear ink, are kept.
    blacks = _lab(np.array([r.ink for r in found if isinstance(r.item, SeenCard)
                            and r.item.card.colour is Colour.BLACK and r.ink is not None]
                           ).reshape(-1, 3))
    kept = [reading for reading in found
            if isinstance(reading.item, SeenCard) or reading.colour_confidence >= INK_CLEAR
            and not _table_grey(reading.ink, blacks) and not _table_blue(reading.ink)]
    if on_plaza:
        unread = shaded & edges_free
        # The places settling would report unsure are read again too (_read_unread_places): a
        # reading's frame, cut round its numeral, may take in too little or too much (tuning
        # 1002: a Red 5 an unsure 3; 3012: a Green 7 whose stem alone read a sure 1, the Green 1
        # read at its own place).
        unsure_at = {item.corners for item in _settle_duplicates(kept)[1]}
        doubtful = [reading for reading in kept if reading.item.corners in unsure_at]
        again = _read_unread_places(small, doubtful + _unread_card_paper(
            unread, grey_half, kept, scale), kept, scale)
        replaced = dict(zip(map(id, doubtful), again[:len(doubtful)], strict=True))
        kept = [replaced.get(id(reading), reading) for reading in kept] + again[len(doubtful):]
        return kept + _read_unread_places(small, _places_between(unread, grey_half, kept, scale),
                                          kept, scale)
    # Paper is unread where no reported reading lies: one that settling drops (a sideways look
    # at a card read better, its frame far too large: unseen tuning seed 1047) covers nothing.
    # Paper against the table is judged by its palest channel: a cream or yellow cloth, under
    # warm light, is as bright in grey as card stock in shade beside it (1047: 1.04 times), but
    # far less pale (its blue is low; the card 1.3 times the cloth). The Plaza's look is left
    # on grey as its figures were measured.
    return kept + _read_hand_unread_paper(normalised, shaded, shaded & edges_free,
                                          _channel_min(small[::2, ::2]), _reported(kept), scale)


# How far a piece of paper's sides may differ from the nearest sure card's and be that card's
# size: perspective changes the size across the photo, and the paper mask loses a card's rim.
CARD_SIZED = (0.75, 1.33)
WHOLE_CARD = 0.8  # a tilted card's outline (a trapezoid) fills this much of its rectangle
# How much of a piece's rectangle may lie in the frame of a card read beside it. Frames are taken
# out of the paper first, so a card of its own meets its neighbours' frames at their edges, or
# leaves one of its trapezoid's slanted sides (at most half of 1 - WHOLE_CARD) to a neighbour's
# frame; the paper left over beside a frame measured smaller than its card wraps round that
# frame, and its rectangle reaches into it.
INTO_READ_FRAME = 0.5 * (1 - WHOLE_CARD)


def _unread_card_paper(paper: np.ndarray, grey: np.ndarray, found: list[_Reading],
                       scale: float) -> list[_Reading]:
    """Unsure places for a Plaza's unread card paper (_unread_card_regions)."""
    return [_unsure_place(region, scale)
            for region in _unread_card_regions(paper, grey, found, scale, fewest_sure=2)]


def _read_hand_unread_paper(normalised: np.ndarray, paper: np.ndarray, cut: np.ndarray,
                            grey: np.ndarray, found: list[_Reading], scale: float
                            ) -> list[_Reading]:
    """A hand's unread card paper (_unread_card_regions of the `cut` paper): the cards read for
    sure in each piece, read as a lone card on the `paper`, or else an unsure place. A hand's
    cards lie apart, each its own piece: one sure card sizes the cards near it."""
    more = []
    for region in _unread_card_regions(cut, grey, found, scale, fewest_sure=1):
        read = [reading for reading in _read_region(normalised, paper, region, scale,
                                                    on_plaza=False)
                if isinstance(reading.item, SeenCard)]
        more += read or [_unsure_place(region, scale)]
    return more


def _unsure_place(region: _Region, scale: float) -> _Reading:
    """An unsure card whose corners are the `region`'s rectangle (photo pixels)."""
    outline = cv2.boxPoints(region.rect) / scale
    corners = tuple((round(float(x), 1), round(float(y), 1)) for x, y in outline)
    return _Reading(UnsureCard(corners), 0.0, outline, np.zeros(REJECT + 1), Colour.BLACK, 0.0,
                    None, 0.0)


def _unread_card_regions(paper: np.ndarray, grey: np.ndarray, found: list[_Reading],
                         scale: float, fewest_sure: int) -> list[_Region]:
    """The pieces of `paper` (half size, cut along edges; lit dimly too: a card
    in shade) that no reading of `found` covers and that have a card's size and shape: a card
    whose numeral did not read (glare, shade, faint ink) is still a card, and a Plaza's verdict
    without it can be wrong with no warning. Lone, or beside a row once its neighbours' frames
    are taken out. Its size is the nearest sure card's frame (perspective), each side within
    CARD_SIZED; its outline must be whole (convex, uncut by the photo's edge) and ring ink (a
    numeral's hole): a pale patch of table or a glare rings none, and what is left of a block
    beside frames is rarely convex. And it must be paper against the table (_brighter_than_around,
    on the `grey` photo at half size, or any brightness of it): a pale table's or a grey cloth's
    patch cut along edges into a card's shape is no brighter than the table round it. None
    without `fewest_sure` cards read for sure to size them."""
    sure = [r for r in found if isinstance(r.item, SeenCard)]
    if len(sure) < fewest_sure:
        return []
    centres = np.array([r.frame.mean(axis=0) for r in sure])
    unread = _uncovered(paper, found, scale)
    more = []
    for region in _regions(unread):
        if not (region.fill > WHOLE_CARD and region.rings_ink):
            continue
        box = cv2.boxPoints(region.rect)  # working pixels
        outline = box / scale
        nearest = sure[int(np.argmin(_distances(centres, outline.mean(axis=0))))]
        card = sorted(np.linalg.norm(nearest.frame[[1, 3]] - nearest.frame[0], axis=1))
        sides = sorted(np.linalg.norm(outline[[1, 3]] - outline[0], axis=1))
        if all(CARD_SIZED[0] <= side / size <= CARD_SIZED[1]
               for side, size in zip(sides, card, strict=True)) \
                and not _reaches_into_frames(outline, found) \
                and _brighter_than_around(grey, box / 2, found, scale):
            more.append(region)
    return more


def _uncovered(paper: np.ndarray, found: list[_Reading], scale: float) -> np.ndarray:
    """A copy of the `paper` mask (half size) with the frames of `found` taken out: the paper
    no reading covers."""
    unread = paper.copy()
    for reading in found:
        cv2.fillConvexPoly(unread, np.round(reading.frame * scale / 2).astype(np.int32), 0)
    return unread


# A card's place between two read cards of a row is a card when this much of it is paper no
# reading covers: a light streak or a glare across a card, its printed pattern and its numeral cut
# its paper into pieces none of which is a whole card (unseen tuning seed 4020: a Brown 6, 0.33 of
# its place), while a gap of table shows the table, its pale squares or mortar a little.
PAPER_BETWEEN = 0.3
# How far apart (in their mean card width) two cards of a row lie with one card between them:
# two widths, give or take perspective and the hair's gaps between touching cards.
ONE_CARD_APART = (1.8, 2.3)
ROW_ASIDE = 0.25  # how far (in card widths) a card of the same row lies across the row's line


def _places_between(paper: np.ndarray, grey: np.ndarray, found: list[_Reading],
                    scale: float) -> list[_Reading]:
    """Unsure places for a card missed between two sure cards of `found` lying one card apart along
    their row (P5: a row's cards touch): the place is their frames' mean (perspective), and must be
    PAPER_BETWEEN paper (half size, as _unread_card_regions) no reading covers, hold no reading
    and be brighter than the table round it (_brighter_than_around) without showing the table
    (_shows_table)."""
    sure = [reading for reading in found if isinstance(reading.item, SeenCard)]
    ahead, aside = _row_steps(np.array([reading.frame for reading in sure]).reshape(-1, 4, 2))
    # Frames drawn narrower than their cards put touching cards two frames apart, and the place
    # between would be their seam: one card apart is also 1.5 of the row's own pitch (the median
    # step from a card to its nearest row neighbour) at least.
    nearest = np.where(aside <= ROW_ASIDE, ahead, np.inf).min(axis=1, initial=np.inf)
    if not np.isfinite(nearest).any():
        return []
    pitch = float(np.median(nearest[np.isfinite(nearest)]))
    stroke = NUMERAL_STROKE * float(np.median([reading.glyph for reading in sure])) * scale / 2
    unread = _uncovered(paper, found, scale)
    centres = np.array([reading.frame.mean(axis=0) for reading in found]).reshape(-1, 2)
    places = []
    one_apart = (ahead >= max(ONE_CARD_APART[0], 1.5 * pitch)) & (ahead <= ONE_CARD_APART[1]) \
        & (aside <= ROW_ASIDE)
    for i, j in zip(*np.nonzero(np.triu(one_apart)), strict=True):
        frame = (sure[i].frame + sure[j].frame) / 2
        outline = np.asarray(frame, np.float32)
        if any(cv2.pointPolygonTest(outline, tuple(map(float, centre)), False) >= 0
               for centre in centres) or _reaches_into_frames(outline, found):
            continue
        inside = np.zeros(unread.shape, np.uint8)
        cv2.fillConvexPoly(inside, np.round(frame * scale / 2).astype(np.int32), 1)
        if inside.any() and unread[inside > 0].mean() >= PAPER_BETWEEN \
                and _brighter_than_around(grey, frame * scale / 2, found, scale) \
                and not _shows_table(paper, grey, frame * scale / 2, found, scale, stroke):
            places.append(_unsure_place(_Region(cv2.minAreaRect(outline * scale), False), scale))
            centres = np.vstack([centres, frame.mean(axis=0)])
    return places


def _row_steps(frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """How far each frame's centre lies from each other's (n x n) along their row and across it,
    in their mean frame's width (perspective); the diagonal is infinitely far."""
    tops = frames[:, 1] - frames[:, 0]
    along = (tops[:, None] + tops[None]) / 2
    width2 = np.maximum(np.sum(along ** 2, axis=2), 1e-9)
    centres = frames.mean(axis=1)
    apart = centres[None] - centres[:, None]
    ahead = np.abs(np.sum(apart * along, axis=2)) / width2
    aside = np.abs(apart[..., 0] * along[..., 1] - apart[..., 1] * along[..., 0]) / width2
    np.fill_diagonal(ahead, np.inf)
    return ahead, aside


# A gap in a row shows the table, and a table's pale parts (the light squares of a check) pass
# for paper in pieces as a card's do; what else the gap shows is the table's dark parts, in
# patches as wide as the gap. A card's place shows nothing of the kind: its print is strokes (a
# numeral's, a hatching's) no wider than NUMERAL_STROKE of its numeral's height, and its stock
# in a shade or beyond a light streak's edge is still brighter than the table. Held-out seeds
# 100033, 100069, 100077 (gaps on check cloths): 0.41-0.6 of the place's core shows the table;
# unseen tuning seeds 4020 (a Brown 6 cut by a streak's edge, half of it in shade) and 3001 (a
# glared Yellow 10): 0.05 and 0. A place off its card by a tenth of its width in the row (the
# row bends, perspective) shows a strip of table that wide on one side: TABLE_IN_PLACE allows
# twice that.
NUMERAL_STROKE = 0.25
TABLE_IN_PLACE = 0.2


def _shows_table(paper: np.ndarray, grey: np.ndarray, outline: np.ndarray,
                 found: list[_Reading], scale: float, stroke: float) -> bool:
    """Whether more than TABLE_IN_PLACE of the core of a place's `outline` (half size, as the
    `paper` mask and the `grey` photo; _core_and_band) is table: not paper, in patches wider
    than a numeral's `stroke` (half-size pixels), and no brighter by PAPER_OVER_TABLE than the
    median of what is not paper in the band round it (its dark parts). So too when the band
    holds no such parts to judge by (a table all pale)."""
    box, core, band = _core_and_band(paper.shape, outline, found, scale)
    not_paper, crop = 1 - paper[box], grey[box]
    table = crop[(band > 0) & (not_paper > 0)]
    if not table.size or not core.any():
        return True
    size = max(3, round(stroke))
    patches = cv2.morphologyEx(not_paper, cv2.MORPH_OPEN, np.ones((size, size), np.uint8))
    dark = (patches > 0) & (crop <= PAPER_OVER_TABLE * float(np.median(table)))
    return float(dark[core > 0].mean()) > TABLE_IN_PLACE


def _read_unread_places(small: np.ndarray, places: list[_Reading], found: list[_Reading],
                        scale: float) -> list[_Reading]:
    """The `places` (the unsure ones of _unread_card_paper, and readings of `found` that
    settling reports unsure), each read again as the look beside a row's cards reads a place
    (_read_place): against its own paper white, in the frame of the sure card of `found` nearest
    to it, moved there (perspective sizes cards alike nearby). The photo's white, a local maximum
    over a wide area, is set by the brightest light near a card: a card two places from any sure
    one (a card missed between them), or in a shade beside lit cards, sits below it, and its
    numeral drowned in the paper mask's bounds (unseen tuning seed 4020: a Brown 7). A place is
    replaced only by a sure reading centred on it, of the pack's numeral size, of a card not read
    yet (a deck holds each card once: nor read again at another of the `places`), and still sure
    when judged as the first look's readings are (the deck's inks, slant, row); else it stays."""
    sure = [reading for reading in found if isinstance(reading.item, SeenCard)]
    axis = _row_axis(sure)
    if axis is None:
        return places
    read = {reading.item.card for reading in sure}
    ink_depth = _ink_depth(sure)
    more = []
    for place in places:
        centre = place.frame.mean(axis=0)
        nearest = _nearest(sure, place, 1)[0]
        frame = nearest.frame - nearest.frame.mean(axis=0) + centre
        width = float(np.linalg.norm(frame[1] - frame[0]))
        again = [reading for reading in _read_place(small, frame, scale, axis,
                                                    ink_depth=ink_depth)
                 if _of_the_packs_size(reading.glyph, nearest.glyph)
                 and _centred(reading, centre, width) and reading.item.card not in read]
        judged = [reading for reading in _doubt_against_row(_doubt_aslant(_recolour_by_deck(
            found + again)))[len(found):] if isinstance(reading.item, SeenCard)]
        more.append(judged[0] if len(judged) == 1 else None)
    # A card read at two places is read at neither for sure: which one it is would be a guess.
    twice = {card for card, count in Counter(reading.item.card for reading in more
                                             if reading is not None).items() if count > 1}
    return [place if reading is None or reading.item.card in twice else reading
            for place, reading in zip(places, more, strict=True)]


def _reaches_into_frames(outline: np.ndarray, found: list[_Reading]) -> bool:
    """Whether more than INTO_READ_FRAME of a piece's `outline` (photo pixels) lies in the frame
    of one reading of `found`: the piece is then that card's own paper, left over beside a frame
    measured smaller than the card, and an unsure place there would ask to look at a card read."""
    outline = np.asarray(outline, np.float32)
    area = max(cv2.contourArea(outline), 1e-6)
    return any(cv2.intersectConvexConvex(outline, np.asarray(reading.frame, np.float32))[0]
               > INTO_READ_FRAME * area for reading in found)


# Card stock over the table round a card: paper is the palest thing on a table, and a shadow
# dims the table round a card in it as much as the card.
PAPER_OVER_TABLE = 1.1
# The paper is measured on the outline shrunk about its centre to PAPER_CORE (its rim may be the
# table's, the outline's corners cut by blur), the table in the band between the outline grown
# to the two TABLE_BAND factors: clear of the card's edge, an eighth of the card wide.
PAPER_CORE = 0.8
TABLE_BAND = (1.05, 1.3)


def _brighter_than_around(grey: np.ndarray, outline: np.ndarray, found: list[_Reading],
                          scale: float) -> bool:
    """Whether the paper inside a card's `outline` (half size) is brighter by PAPER_OVER_TABLE
    than a band of the photo round it (_core_and_band): median against median, so that a
    numeral inside and a pattern round it weigh little."""
    box, inside, band = _core_and_band(grey.shape, outline, found, scale)
    if not band.any():
        return False
    crop = grey[box]
    return float(np.median(crop[inside > 0])) >= PAPER_OVER_TABLE * float(np.median(crop[band > 0]))


def _core_and_band(shape: tuple[int, ...], outline: np.ndarray, found: list[_Reading],
                   scale: float) -> tuple[tuple[slice, slice], np.ndarray, np.ndarray]:
    """The crop (slices of a half-size photo of `shape`) round a card's `outline` (half size),
    and in it the outline's core (PAPER_CORE) and the band of table round it (TABLE_BAND), less
    the places of `found` (the cards beside it in its row are paper too)."""
    centre = outline.mean(axis=0)
    near, far = TABLE_BAND
    x0, y0 = np.maximum(np.floor(centre + far * (outline.min(axis=0) - centre)), 0).astype(int)
    x1, y1 = np.minimum(np.ceil(centre + far * (outline.max(axis=0) - centre)).astype(int) + 1,
                        (shape[1], shape[0]))
    inside, band = (np.zeros((max(y1 - y0, 0), max(x1 - x0, 0)), np.uint8) for _ in range(2))

    def fill(mask: np.ndarray, factor: float, value: int) -> None:
        cv2.fillConvexPoly(mask, np.round(centre + factor * (outline - centre) - (x0, y0))
                           .astype(np.int32), value)

    fill(inside, PAPER_CORE, 1)
    fill(band, far, 1)
    fill(band, near, 0)
    for reading in found:
        cv2.fillConvexPoly(band, np.round(reading.frame * scale / 2 - (x0, y0))
                           .astype(np.int32), 0)
    return (slice(y0, y1), slice(x0, x1)), inside, band


def _table_grey(ink: np.ndarray | None, blacks: np.ndarray) -> bool:
    """Whether an unsure reading's `ink` (RGB relative to the paper white) is a grey mark of the
    table, not a numeral's: of the hue of the pack's black ink (`blacks`, Lab of the sure black
    cards; two at least) within an ink's stray (DECK_STRAY), but paler than every one of them
    by DECK_FAR strays. One pack prints its blacks alike and a photo blurs them alike: a pale
    grey far from all of them is a mark (a stain, a pencil line) whose hue a thin stroke's
    measure may read as a clear ink (unseen tuning seed 7018: a grey mark read as an unsure
    green)."""
    if len(blacks) < 2 or ink is None:
        return False
    lab = _lab(ink[None])[0]
    return bool(np.linalg.norm(lab[1:] - np.median(blacks[:, 1:], axis=0)) <= DECK_STRAY
                and lab[0] > blacks[:, 0].max() + DECK_FAR * DECK_STRAY)


def _table_blue(ink: np.ndarray | None) -> bool:
    """Whether an unsure reading's `ink` (RGB relative to the paper white) is blue (BLUE), a hue
    of no Plaza ink: the table's. Touching cards leave a seam a hair wide where the table shows
    through, a thin straight line along their sides; a check cloth breaks it into strokes as long
    as its squares, which read as 1s (unseen tuning seeds 5008 and 7034, a blue gingham: eight
    unsure places on seams, every card there read right)."""
    if ink is None:
        return False
    _, a, b = _lab(ink[None])[0]
    return bool(b < -BLUE and a > b)


def _parted(read: list[_Reading], seconds: list[_Reading]) -> list[_Reading]:
    """The readings of a first look; those of a second look (_Reading.second_look) are put in
    `seconds`, out of the way of the passes that look where no card was read yet."""
    seconds += [reading for reading in read if reading.second_look]
    return [reading for reading in read if not reading.second_look]


def _with_second_looks(found: list[_Reading], seconds: list[_Reading]) -> list[_Reading]:
    """The readings, and those of second looks that are sure and that no reading covers: the
    look is for cards missed, not a rival reading of a place read (its frame may be one that
    the paper test refused for good reason)."""
    return found + [replace(reading, second_look=False) for reading in _new_places(found, seconds)]


def _new_places(found: list[_Reading], more: list[_Reading]) -> list[_Reading]:
    """The sure readings of `more` whose frames no frame of `found` covers."""
    frames = [np.asarray(reading.frame, np.float32) for reading in found]
    return [reading for reading in more if isinstance(reading.item, SeenCard)
            and not any(_overlap(np.asarray(reading.frame, np.float32), frame) > 0.35
                        for frame in frames)]


def _read_uncut(normalised: np.ndarray, paper: np.ndarray, found: list[_Reading], scale: float,
                on_plaza: bool, axis: float | None, outlines: np.ndarray | None = None
                ) -> list[_Reading]:
    """Lone cards whose paper the edges cut into pieces (a faint pattern printed under the
    numeral, noise: unseen seed 3011 lost a whole hand so), or noise speckles at the brightness
    bound (a card in a dim corner: unseen seed 5036), read from a paper mask alone, not cut
    along edges, where it (or the `outlines` mask, if given) has a lone card's outline and no
    card was read in it."""
    more = []
    centres = [tuple(float(v) for v in r.frame.mean(axis=0) * scale) for r in found]
    for region in _regions(paper if outlines is None else outlines):
        outline = cv2.boxPoints(region.rect)
        if region.card_shaped and not any(cv2.pointPolygonTest(outline, centre, False) >= 0
                                          for centre in centres):
            more += _read_region(normalised, paper, region, scale, on_plaza, axis=axis)
    return more


def _read_unread_paper(normalised: np.ndarray, paper: np.ndarray, found: list[_Reading],
                       scale: float, card_width: float, axis: float | None) -> list[_Reading]:
    """Cards of a Plaza whose paper the edges cut into pieces (noise on a busy table, a numeral
    as wide as the card, artwork), where their neighbours in a row touch them so that the whole
    paper is a block with no lone card's outline: the paper mask, not cut along edges and
    without a patterned cloth's squares (_without_pattern), less the cards already read, holds
    them in one piece. What is left a card's size or more is read with the pack's `card_width`
    (working pixels); only sure readings of places no card was read in, of cards not read for
    sure yet, are kept: a deck holds each card once, and a frame across a block can take a card
    read already a little aside (unseen tuning seed 7058: a second Green 1 unsettled its row)."""
    card_area = card_width * card_width * CARD_ASPECT
    more: list[_Reading] = []
    # Both masks hold the same region wherever the table has no pattern: it is read once.
    readings_of: dict[_Region, list[_Reading]] = {}
    for outlines in _without_pattern(paper, card_width):
        unread = _uncovered(outlines, found + more, scale)
        for region in _regions(unread):
            if region.rect[1][0] * region.rect[1][1] < 0.5 * card_area:
                continue
            if region not in readings_of:
                readings_of[region] = _read_region(normalised, paper, region, scale, True,
                                                   card_width, axis)
            sure = [reading for reading in found + more if isinstance(reading.item, SeenCard)]
            read = {reading.item.card for reading in sure}
            more += [reading for reading in _new_places(found + more, readings_of[region])
                     if reading.item.card not in read and _at_a_plaza_place(reading, sure)]
    return more


HAND_CARD_ASPECT = (1.1, 2.0)  # long over short side of a hand card's outline, under tilt
OUTLINE_SIZES = (1 / 3, 3.0)  # a hand card's outline area, over the sure cards' median area


def _read_outlined(normalised: np.ndarray, paper: np.ndarray, cut: np.ndarray,
                   dim: np.ndarray, found: list[_Reading], scale: float) -> list[_Reading]:
    """Cards of a hand read in their own outlines, rectified. A hand card lies apart, a whole
    63:88 rectangle of paper; under tilt its outline is a convex quadrilateral whose sides'
    ratio strays far from the card's (unseen tuning seed 7007: 1.7), so it is no lone card's
    rectangle (_regions), and a numeral touching a frame printed round the card cuts its paper
    into pieces (seed 6027). The paper, its thin lines bridged and its ink filled in, still
    outlines the card: that quadrilateral is warped onto an upright card and read there. Only
    places no sure card covers are looked at, and only sure readings are kept: an outline can
    be the table's. With two sure cards or more, an outline must be of their size (within
    OUTLINE_SIZES of their median area; tilt makes far cards smaller): a checked cloth's
    squares, seen aslant, have a card's outline too. With the pack's size so known, the paper
    without a patterned cloth's pale squares (_without_pattern) is outlined too: squares
    touching a card join its paper and take its outline (unseen tuning seed 6023); and so is
    the paper `cut` along edges (half size), without thin bridges (_without_bridges): a pale
    cloth passes for paper and joins a card's, whose edge parts them only in the cut paper,
    and there a gap in a frame printed round the card joins its inside to the cloth (5043);
    and so is the paper grown into dimly lit paper beside it (`dim`), without the squares,
    its cards read on that paper: striped card stock half in shadow is paper only there (5059)."""
    sure = [r.frame * scale for r in found if isinstance(r.item, SeenCard)]
    centres = [frame.mean(axis=0) for frame in sure]
    areas = [cv2.contourArea(frame.astype(np.float32)) for frame in sure]
    card_area = float(np.median(areas)) if len(areas) >= 2 else None
    # Each mask outlined, and the paper its cards are read on.
    masks = [(paper, paper)]
    if card_area is not None:
        width = math.sqrt(card_area / CARD_ASPECT)
        masks += [*((mask, paper) for mask in _without_pattern(paper, width)),
                  *((mask, dim) for mask in _without_pattern(dim, width)),
                  (_without_bridges(cut, width), paper)]
    more: list[_Reading] = []
    for mask, own_paper in masks:
        for fits in _card_outlines(mask):
            # An outline's fits in turn, till one reads a sure card: where the first reads none,
            # the other may (unseen tuning seed 6047: a Yellow 12 was missed).
            for outline in fits:
                card_sized = card_area is None or \
                    OUTLINE_SIZES[0] < cv2.contourArea(outline) / card_area < OUTLINE_SIZES[1]
                if not card_sized or any(cv2.pointPolygonTest(
                        outline, (float(x), float(y)), False) >= 0 for x, y in centres):
                    continue
                read = [reading for reading in _read_rectified(normalised, own_paper, outline,
                                                               scale)
                        if isinstance(reading.item, SeenCard)]
                more += read
                centres += [reading.frame.mean(axis=0) * scale for reading in read]
                if read:
                    break
    return more


def _without_bridges(cut: np.ndarray, card_width: float) -> np.ndarray:
    """The paper mask (half size) without its bridges narrower than a 15th of a card of
    `card_width` (working pixels): a gap in a frame printed round a card, where the paper inside
    joins the paper beyond the frame, is about a frame line's width."""
    side = max(3, int(card_width / 30)) | 1  # half size
    return cv2.morphologyEx(cut, cv2.MORPH_OPEN,
                            cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))


def _card_outlines(paper: np.ndarray) -> list[list[np.ndarray]]:
    """Per outline, its fits by convex quadrilaterals (working pixels, corners in turn) with a
    hand card's HAND_CARD_ASPECT, in the order to read them. The outlines: the outer ones of
    the half-size paper mask, closed over thin lines, also of paper lying in another's hole (a
    card ringed by its edge on a pale cloth that passes for paper). Not of paper the photo's
    edge cuts: that has lost its own outline (a pale table's)."""
    closed = cv2.morphologyEx(paper, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, hierarchy = cv2.findContours(closed, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outlines = []
    for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if contours else (),
                                         strict=True):
        if parent >= 0:
            continue
        area = cv2.contourArea(contour)
        x, y, w, h = cv2.boundingRect(contour)
        if area < (max(paper.shape) / 120) ** 2 or min(x, y) <= 1 \
                or x + w >= paper.shape[1] - 1 or y + h >= paper.shape[0] - 1:
            continue
        hull = cv2.convexHull(contour)
        # The quadrilateral through the hull's points, then the least one round it, whose
        # corners are the card's even where they are rounded off (paper opened by
        # _without_bridges), where one through the points cuts them off and shortens the sides.
        fits = []
        for corners in (cv2.approxPolyDP(hull, 0.04 * cv2.arcLength(hull, True), True),
                        cv2.approxPolyN(hull, 4) if len(hull) >= 4 else hull):
            corners = corners.reshape(-1, 2).astype(np.float32)
            if len(corners) != 4 or area < 0.85 * cv2.contourArea(corners):
                continue
            across, along = _side_pairs(corners)
            if HAND_CARD_ASPECT[0] < max(across, along) / max(1.0, min(across, along)) \
                    < HAND_CARD_ASPECT[1]:
                fits.append(corners * 2)
        if fits:
            outlines.append(fits)
    return outlines


def _side_pairs(corners: np.ndarray) -> tuple[float, float]:
    """The mean lengths of a quadrilateral's sides 0-1 and 2-3, and of sides 1-2 and 3-0."""
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    return float(sides[0] + sides[2]) / 2, float(sides[1] + sides[3]) / 2


def _read_rectified(normalised: np.ndarray, paper: np.ndarray, outline: np.ndarray,
                    scale: float) -> list[_Reading]:
    """The card in a quadrilateral `outline` (working pixels), warped onto an upright card of
    its short sides' width (FRAME_MARGIN of the photo round it) and read there as a lone card,
    along the card's own axes only; the readings' frames are mapped back into the photo."""
    across, along = _side_pairs(outline)
    if across > along:  # start at a short side, so that the card stands upright in the frame
        outline = np.roll(outline, -1, axis=0)
    width = min(across, along)
    size = (round(width) + 2 * FRAME_MARGIN, round(width * CARD_ASPECT) + 2 * FRAME_MARGIN)
    right, bottom = size[0] - FRAME_MARGIN, size[1] - FRAME_MARGIN
    upright_corners = np.float32([[FRAME_MARGIN, FRAME_MARGIN], [right, FRAME_MARGIN],
                                  [right, bottom], [FRAME_MARGIN, bottom]])
    warp = cv2.getPerspectiveTransform(outline.astype(np.float32), upright_corners)
    upright = cv2.warpPerspective(normalised, warp, size, flags=cv2.INTER_LINEAR,
                                  borderValue=(1.0, 1.0, 1.0))
    # The paper mask is at half size, in the photo and in the frame alike.
    halved = np.diag([0.5, 0.5, 1.0]) @ warp @ np.diag([2.0, 2.0, 1.0])
    paper_up = cv2.warpPerspective(paper, halved, ((size[0] + 1) // 2, (size[1] + 1) // 2),
                                   flags=cv2.INTER_NEAREST)
    card = _Region(rect=((size[0] / 2, size[1] / 2), (right - FRAME_MARGIN, bottom - FRAME_MARGIN),
                         0.0), card_shaped=True)
    back = np.linalg.inv(warp)
    readings = []
    # A card's numeral stands along its long side (upright or turned 180°). Read across, lying
    # sideways, a 5 passed for a sure 1 (unseen tuning seed 3031: only the upright frame's
    # higher score kept that reading out), and one frame fewer is read.
    for reading in _read_region(upright, paper_up, card, scale, on_plaza=False, axis=0.0):
        frame = cv2.perspectiveTransform((reading.frame * scale).reshape(-1, 1, 2), back)
        readings.append(replace(_rejudged(replace(reading, frame=frame.reshape(4, 2) / scale),
                                          reading.probabilities, reading.colour_confidence),
                                second_look=reading.second_look))
    return readings


GRID_SLACK = 0.35  # card widths plus heights a place may lie off a Plaza place (a tilted photo)


def _at_a_plaza_place(reading: _Reading, sure: list[_Reading]) -> bool:
    """Whether a card read on paper no outline parts lies where a Plaza card can (P5: cards in
    a row touch, rows lie close): one card along a row, or one row's pitch along a column, from
    a card read for sure, its numeral of the pack's size (_of_the_packs_size, against that
    card's). A checked cloth's white squares join into blocks of a card's size whose coloured
    squares read as numerals (held-out seed 100065: a sure Red 3 on a red-and-white check),
    but of the check's size, and lying at the check's pitch, off the Plaza's places."""
    pitch = _row_pitch(sure)
    centre = reading.frame.mean(axis=0)
    for other in sure:
        along, across = _in_card_units(centre - other.frame.mean(axis=0), other.frame)
        if min(abs(along - 1) + across, along + abs(across - pitch)) <= GRID_SLACK \
                and _of_the_packs_size(reading.glyph, other.glyph):
            return True
    return False


def _without_pattern(paper: np.ndarray, card_width: float) -> Iterator[np.ndarray]:
    """The paper mask (half size) with the holes smaller than half a card of `card_width`
    (working pixels) filled (a numeral, and a pattern printed on the card), then without what is
    narrower than a third of a card, and then than half a card: the pale squares of a patterned
    cloth, which join a card's paper and take its outline (a gingham: unseen tuning seeds 5023,
    6023), drop away and leave the card whole. Two sizes: the wider rounds a card's corners
    off its outline's shape (5023), the narrower leaves a cloth's larger squares (6023).
    Larger holes stay: a pale table's hole holds a card of its own."""
    solid = cv2.medianBlur(paper, 5)
    contours, hierarchy = cv2.findContours(solid, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    half_card = 0.5 * (card_width / 2) ** 2 * CARD_ASPECT
    holes = [contour for contour, (_, _, _, parent) in zip(contours, hierarchy[0] if contours
                                                           else (), strict=True)
             if parent >= 0 and cv2.contourArea(contour) < half_card]
    cv2.drawContours(solid, holes, -1, 1, cv2.FILLED)
    for share in (1 / 3, 1 / 2):
        side = max(3, int(share * card_width / 2)) | 1  # half size
        yield cv2.morphologyEx(solid, cv2.MORPH_OPEN,
                               cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (side, side)))


def _without_indices(found: list[_Reading]) -> list[_Reading]:
    """A corner index repeats its card's numeral, small, near the card's corner: it is no card.
    A region can hold an index alone (a frame printed round the card cuts off its corners), and
    read so it would be an extra card, or hide its own card's reading as the same place. So a
    reading whose numeral is far smaller than another's, inside that one's card, and of a
    number that one may be, is dropped. (Cards lie side by side: a real card is never inside
    another's box; and a pattern of the table read as a large numeral hides no card.)"""
    kept = []
    for reading in found:
        centre = tuple(float(v) for v in reading.frame.mean(axis=0))
        number = int(np.argmax(_number_odds(reading.probabilities)))
        if not any(other.glyph >= INDEX_SMALLER * reading.glyph
                   and _number_odds(other.probabilities)[number] >= 0.2
                   and not _far_darker(reading, other)
                   and (cv2.pointPolygonTest(other.frame.astype(np.float32), centre, False) >= 0
                        or _one_card_near(reading, other))
                   for other in found):
            kept.append(reading)
    return kept


def _one_card_near(small: _Reading, large: _Reading) -> bool:
    """Whether two sure readings are of one card (P1: the pack holds each once), the smaller
    within reach of the larger's numeral: half the diagonal of a card TYPICAL_CARD numeral
    heights wide. A frame can be read far narrower than its card (unseen tuning seed 4006: a
    Red 2 108 pixels tall in a frame 49 wide), and its indices, outside it, were reported as
    unsure places."""
    if not (isinstance(small.item, SeenCard) and isinstance(large.item, SeenCard)) \
            or small.item.card != large.item.card:
        return False
    width = TYPICAL_CARD * large.glyph
    reach = 0.5 * math.hypot(width, width * CARD_ASPECT)
    return float(np.linalg.norm(small.frame.mean(axis=0) - large.frame.mean(axis=0))) <= reach


# Lab lightness by which a corner index's ink may be darker than its card's numeral's (noise, a
# glare's edge between them).
INDEX_DARKER = 25.0


def _far_darker(small: _Reading, large: _Reading) -> bool:
    """Whether a small reading's ink is far darker than that of a large unsure one. An index
    repeats its card's numeral in the card's ink, in thinner strokes that blur pales more, not
    less: a pale ink read as a large unsure numeral (a line of the table taller than a card)
    hides no card's index (unseen tuning seed 5025: a sure Black 1 was dropped so)."""
    if small.ink is None or large.ink is None or isinstance(large.item, SeenCard):
        return False
    lightness = _lab(np.array([small.ink, large.ink]))[:, 0]
    return bool(lightness[1] - lightness[0] > INDEX_DARKER)


def _alike_in_size(found: list[_Reading]) -> list[_Reading]:
    """One pack prints its numerals at one size (two digits squeezed a little at most): a reading
    whose numeral is far smaller than its nearest sure neighbours' is a pattern of the table or a
    picture, not a card. Neighbours, not the whole photo: a tilted camera makes the far cards
    smaller. Not larger: a numeral's box can take in a bar or a stripe of artwork."""
    sure = [r for r in found if isinstance(r.item, SeenCard)]
    if len(sure) < 3:
        return found
    centres = np.array([r.frame.mean(axis=0) for r in sure])
    glyphs = np.array([r.glyph for r in sure])
    kept = []
    for reading in found:
        distances = np.linalg.norm(centres - reading.frame.mean(axis=0), axis=1)
        others = [i for i in np.argsort(distances) if sure[i] is not reading][:3]
        ratio = reading.glyph / max(float(np.median(glyphs[others])), 1e-6)
        if ratio >= SMALLEST_NUMERAL:
            kept.append(reading)
    return kept


def _recolour_by_deck(found: list[_Reading]) -> list[_Reading]:
    """A numeral's colour judged again against the deck's own inks, measured on the cards whose
    colour is clear: decks differ, and the light shifts an ink alike on every card (a warm lamp
    browns a black). One pack has five inks, so:
    - clear readings of one colour in two inks name another colour's ink too: the one that
      lies from the other towards another colour is doubted, and measures no deck ink
      (_second_inks);
    - an ink between the typical inks is confirmed by the deck ink nearest to it (only the colour
      first named: a colour missing from the clear cards has no measure to be weighed by);
    - an ink that two cards or more share and that lies far from every ink measured is the ink of
      a colour not measured (a teal green the typical inks take for black): it is named among
      those colours only;
    - a clear ink that another ink, thinned as glare thins an ink, explains about as well
      is no sure colour (a pale misread index, as near a thinned red as a thinned brown): the
      deck's inks, and the typical inks of the colours it does not show (a pale red beside no
      clear red passed for a sure brown: unseen tuning seed 7058)."""
    clear = [r for r in found if r.ink is not None and r.colour_confidence >= DECK_INK]
    second = _second_inks(clear)
    clear = [r for r in clear if id(r) not in second]
    if len(clear) < 3:
        return [_colour_doubted(r) if id(r) in second else r for r in found]
    inks = np.array([r.ink for r in clear])
    deck = {colour: np.median(inks[[r.colour == colour for r in clear]], axis=0)
            for colour in {r.colour for r in clear}}
    own = np.linalg.norm(_lab(inks) - _lab(np.array([deck[r.colour] for r in clear])), axis=1)
    stray = max(DECK_STRAY, float(np.percentile(own, 90)))  # how far one ink strays here
    measured = dict(zip(deck, _lab(np.array(list(deck.values()))), strict=True))
    inked = [r for r in found if r.ink is not None]
    labs = _lab(np.array([r.ink for r in inked]))
    # Glare or a blur thins an ink towards the paper white (a black turns grey): each deck ink,
    # and each typical ink of a colour not measured, is also weighed as thinned to match each
    # reading's best (all in one conversion, for speed).
    references = list(deck.items()) + [(colour, np.array(shade)) for colour in COLOURS
                                       if colour not in deck for shade in INK_PROTOTYPES[colour]]
    thinned = _lab(_thinned(np.array([rgb for _, rgb in references]),
                            np.array([r.ink for r in inked])))
    thinned = thinned.reshape(len(inked), len(references), 3)
    owners = np.array([colour.row for colour, _ in references])
    unclear_labs = labs[[r.colour_confidence < DECK_INK for r in inked]]
    judged = {id(reading): _by_deck(reading, lab, measured,
                                    {colour: near[owners == colour.row] for colour in COLOURS
                                     if np.any(owners == colour.row)}, stray, unclear_labs)
              for reading, lab, near in zip(inked, labs, thinned, strict=True)}
    return [_colour_doubted(reading) if id(reading) in second
            else judged.get(id(reading), reading) for reading in found]


def _by_deck(reading: _Reading, lab: np.ndarray, measured: Mapping[Colour, np.ndarray],
             thinned: Mapping[Colour, np.ndarray], stray: float, unclear_labs: np.ndarray
             ) -> _Reading:
    """One reading's colour (its ink `lab`) judged against the deck's inks, in Lab as measured
    and as thinned to match it (see _recolour_by_deck)."""
    if reading.colour_confidence >= DECK_INK:
        # A pale ink that another deck ink, thinned, explains about as well is no sure colour.
        colour, confidence = _nearest_ink(lab, thinned)
        if len(measured) < 2 or colour == reading.colour and confidence >= SURE:
            return reading
        doubt = min(confidence if colour == reading.colour else 0.0, SURE * 0.9)
        return _rejudged(reading, reading.probabilities, min(reading.colour_confidence, doubt))
    # The deck's inks confirm a colour as measured, and thinned where one then matches this ink
    # as closely as an ink strays (a black thinned is no teal green's match).
    apart = {colour: float(np.linalg.norm(thinned[colour] - lab, axis=1).min())
             for colour in measured}
    shared = int(np.sum(np.linalg.norm(unclear_labs - lab, axis=1) <= stray)) >= 2
    unmeasured = [colour for colour in COLOURS if colour not in measured]
    if shared and unmeasured and min(apart.values()) > DECK_FAR * stray:
        colour, confidence = _nearest_ink(lab, among=unmeasured)
        return _rejudged(replace(reading, colour=colour), reading.probabilities, confidence)
    decks = [measured] + [{colour: thinned[colour] for colour in measured}] * (
        apart.get(reading.colour, math.inf) <= DECK_FAR * stray)
    best = max((confidence for colour, confidence in (_nearest_ink(lab, d) for d in decks)
                if colour == reading.colour), default=0.0)
    if best > reading.colour_confidence:
        return _rejudged(reading, reading.probabilities, best)
    return reading


def _colour_doubted(reading: _Reading) -> _Reading:
    """A reading whose colour is no sure colour: judged again, under SURE."""
    return _rejudged(reading, reading.probabilities, min(reading.colour_confidence, SURE * 0.9))


# Two groups of one colour's inks lie from each other towards another colour when the line
# between them is this close (cosine) to the line between the two colours' typical inks.
TOWARDS = 0.8


def _second_inks(clear: list[_Reading]) -> set[int]:
    """The clear readings (ids) in a second ink of their colour. A deck prints a colour in one
    ink, and one card of each colour and number (P1): one colour's clear inks parted in two
    tight groups far apart (and not one the other thinned by glare), each with a sure card of
    the same number, are two colours' inks. A brown row in cool light on a dark mat measured
    neutral and passed for a sure black beside the black row (unseen tuning seed 7025). Light
    varies over a photo (a yellow in shade is darker), so without such a pair the groups are
    one ink. The light shifts both inks alike, so the line between them still points from the
    colour towards the other one's typical inks: the group it points to is doubted (pointing
    to no other colour, they may be one ink in uneven light and a pattern's print). Small print
    blurs thinner than a numeral (corner indices, read on their own): only readings of the
    pack's numeral size are compared."""
    rows, prototypes = _prototype_lab()
    typical = {colour: prototypes[rows == colour.row].mean(axis=0) for colour in COLOURS}
    tallest = max((r.glyph for r in clear), default=0.0)
    second: set[int] = set()
    for colour in {r.colour for r in clear}:
        same = [r for r in clear if r.colour == colour and r.glyph >= SMALLEST_NUMERAL * tallest]
        if len(same) < 4:  # two groups of two at least
            continue
        labs = _lab(np.array([r.ink for r in same]))
        centred = labs - labs.mean(axis=0)
        along = centred @ np.linalg.svd(centred, full_matrices=False)[2][0]
        order = np.argsort(along)
        cut = int(np.argmax(np.diff(along[order])[1:-1])) + 2  # the widest gap on the main axis
        groups = (order[:cut], order[cut:])
        middles = [np.median(labs[group], axis=0) for group in groups]
        spread = max(float(np.linalg.norm(labs[group] - middle, axis=1).max())
                     for group, middle in zip(groups, middles, strict=True))
        numbers = [{same[i].item.card.number for i in group if isinstance(same[i].item, SeenCard)}
                   for group in groups]
        if np.linalg.norm(middles[1] - middles[0]) < max(2 * DECK_STRAY, DECK_FAR * spread) \
                or not numbers[0] & numbers[1]:
            continue
        rgbs = [np.median(np.array([same[i].ink for i in group]), axis=0) for group in groups]
        pale, dark = sorted((0, 1), key=lambda k: -middles[k][0])
        if np.linalg.norm(_lab(_thinned(rgbs[dark][None], rgbs[pale][None]))[0]
                          - middles[pale]) <= max(DECK_STRAY, spread):
            continue  # the paler group is the other thinned: one ink, glare on some cards
        line = middles[1] - middles[0]
        towards = [max(_cosine(way * line, typical[other] - typical[colour])
                       for other in COLOURS if other is not colour) for way in (-1, 1)]
        for k in (0, 1):
            if towards[k] >= TOWARDS and towards[k] > towards[1 - k]:
                second |= {id(same[i]) for i in groups[k]}
    return second


def _cosine(one: np.ndarray, other: np.ndarray) -> float:
    """The cosine of the angle between two vectors (0 where either is nil)."""
    return float(one @ other) / max(float(np.linalg.norm(one) * np.linalg.norm(other)), 1e-6)


def _thinned(inks: np.ndarray, likes: np.ndarray) -> np.ndarray:
    """Inks (k rows of RGB relative to the paper white) each mixed with the white to be most
    like each of n others: 1 - t (1 - ink), t from a half to one; n × k rows."""
    depth, other = 1 - np.asarray(inks, np.float64), 1 - np.asarray(likes, np.float64)
    t = np.clip(other @ depth.T / np.maximum(np.sum(depth * depth, axis=1), 1e-6), 0.5, 1.0)
    return np.clip(1 - t[:, :, None] * depth, 0, 1).reshape(-1, 3)


def _read_off_white(normalised: np.ndarray, loose: np.ndarray, edges_free: np.ndarray,
                    found: list[_Reading], scale: float, on_plaza: bool, axis: float | None
                    ) -> list[_Reading]:
    """Cards lit unlike the brightest things in the photo (white cards look blue beside a cream
    floor under warm light) fail the paper mask's neutral test. Where no card was read, paper is
    looked for again with a `loose` test (half size; changed here); since that paper may be
    table, a region found so must hold a card read for sure."""
    for reading in found:  # half size, a little larger than the card
        corners = np.array(reading.item.corners) * scale / 2
        centre = corners.mean(axis=0)
        cv2.fillPoly(loose, [np.round(centre + 1.2 * (corners - centre)).astype(np.int32)], 0)
    widths = [math.dist(*reading.item.corners[:2]) * scale for reading in found]
    least = 0.5 * float(np.median(widths)) ** 2 * CARD_ASPECT if widths else 0.0
    thinnest = _thinnest(found, scale)
    more = []
    for region in _regions(loose & edges_free):
        if region.rect[1][0] * region.rect[1][1] < least:  # smaller than half a card
            continue
        read = _read_region(normalised, loose, replace(region, card_shaped=False), scale,
                            on_plaza, axis=axis, thinnest=thinnest)
        more += [reading for reading in read if isinstance(reading.item, SeenCard)]
    return more


def _read_row_gaps(small: np.ndarray, found: list[_Reading], scale: float,
                   looked: list[np.ndarray]) -> list[_Reading]:
    """Cards in a Plaza row touch and rows lie close (P5), so beside each card read for sure, one
    card width along its row, and one row's pitch up or down its column, another card may lie:
    where nothing was read there, the place is read again against its own paper white: a shadow,
    or a brighter card beside it, dims a card against the wider estimate of _divide_by_paper,
    and the paper mask misses it. Cards found so are places to look beside in turn. Only
    readings of the pack's numeral size count, since the place may be table; unsure ones are
    returned too, for the grid to settle (P5), but not looked beside. The centres of the places
    read are added to `looked`, and those in it already are not read again."""
    sure = [r for r in found if isinstance(r.item, SeenCard)]
    axis = _row_axis(sure)
    if axis is None:
        return []
    pitch = _row_pitch(sure)
    centres = [r.frame.mean(axis=0) for r in found]
    more: list[_Reading] = []
    queue = list(sure)
    while queue:
        reading = queue.pop()
        top = reading.frame[1] - reading.frame[0]
        down = reading.frame[3] - reading.frame[0]
        width = float(np.linalg.norm(top))
        # A frame read ASLANT of its neighbours' rows steps off the grid, and the place it looks
        # at then holds the true one (unseen tuning seed 6052: a Green 10 missed): it steps
        # along their rows. Its neighbours, not the whole Plaza's: perspective turns the rows.
        rows = _row_axis(_nearest(sure, reading, 3))
        if rows is not None and abs(_off_axis(top, rows)) >= math.radians(ASLANT):
            along = np.array([math.cos(rows), math.sin(rows)])
            top, down = width * along, float(np.linalg.norm(down)) * _down(along)
        for step in (top, -top, pitch * down, -pitch * down):
            place = reading.frame + step
            centre = place.mean(axis=0)
            if _held(centre, centres + looked, width):
                continue
            looked.append(centre)
            for new in _read_place(small, place, scale, axis, unsure_too=True):
                if _of_the_packs_size(new.glyph, reading.glyph) and _centred(new, centre, width):
                    more.append(new)
                    centres.append(new.frame.mean(axis=0))
                    if isinstance(new.item, SeenCard):
                        queue.append(new)
    return more


def _beside_settled_cards(small: np.ndarray, found: list[_Reading], scale: float,
                          looked: list[np.ndarray]) -> list[_Reading]:
    """The Plaza's readings, with the cards read beside those the grid settled (P5) after the
    row-gap look (_read_row_gaps, its places read so far in `looked`): a settled card's row runs
    on past it as a sure card's does (unseen tuning seed 6053: a Yellow 6 and a Green 3 beside
    cards the grid settled were missed). Where nothing more is read beside the cards, the places
    where known rows and columns cross are read (_read_crossings): a card two places from any
    sure card (unseen tuning seed 4054: a Brown 1). What is read there is judged as the first
    look's readings were (the deck's inks, slant, row, grid) and may settle more: the look is
    repeated until it reads no more, at most once per card of the deck. The readings found
    before are not judged again. Only cards of the pack's size are looked beside: a corner
    index the grid settled, or read beside another, reads the next card's index, and such a
    chain of indices props itself up against _alike_in_size (unseen seed 4010 at 1600 × 1200)."""
    for _ in range(len(COLOURS) * 12):
        later: list[_Reading] = []
        beside = _parted(_read_row_gaps(small, _alike_in_size(found), scale, looked), later)
        beside = _with_second_looks(found + beside, later)[len(found):]
        if not beside:  # nothing more beside the cards: then where rows and columns cross
            beside = _read_crossings(small, _alike_in_size(found), scale, looked)
        if not beside:
            break
        hopeful = frozenset(id(r.frame) for r in beside if not isinstance(r.item, SeenCard))
        judged = _doubt_against_row(_doubt_aslant(_recolour_by_deck(found + beside)))
        found = _settle_on_grid(found + judged[len(found):], hopeful)
    return found


def _of_the_packs_size(glyph: float, packs: float) -> bool:
    """Whether a numeral `glyph` tall is of the pack's size, its neighbours' numerals being
    `packs` tall: one pack prints its numerals alike, and a pattern of the table read as a
    numeral (a cloth's check, a gap between dots) is seldom of that size."""
    return 0.75 <= glyph / packs <= 1.33


# Rows' pitch, in card heights, where no two sure cards of a column measure it: rows lie close.
ROW_PITCH = 1.1


def _row_pitch(sure: list[_Reading]) -> float:
    """How far apart (in card heights) the Plaza's rows lie: for each sure card, the nearest sure
    card of its number (its column, P5) in the next row (closer than 1.6 heights: further, rows
    between are missing), the median over those; ROW_PITCH without any."""
    centres = np.array([r.frame.mean(axis=0) for r in sure])
    numbers = np.array([r.item.card.number for r in sure])
    pitches = []
    for i, reading in enumerate(sure):
        along, across = _in_card_units(centres[numbers == numbers[i]] - centres[i],
                                       reading.frame).T
        rows = across[(along < 0.5) & (across > 0.8) & (across < 1.6)]
        if rows.size:
            pitches.append(float(rows.min()))
    return float(np.median(pitches)) if pitches else ROW_PITCH


def _in_card_units(offsets: np.ndarray, frame: np.ndarray) -> np.ndarray:
    """Offsets from a card's centre (one, or one per row), measured along the rows of its
    `frame` and across them, in the frame's card widths and heights: how many places away
    another card lies on a Plaza (P5), each way (absolute); [..., 2]."""
    along, down = frame[1] - frame[0], frame[3] - frame[0]
    return np.stack([np.abs(offsets @ axis) / (axis @ axis) for axis in (along, down)], axis=-1)


def _held(centre: np.ndarray, centres: list[np.ndarray], width: float) -> bool:
    """Whether a card-sized place at `centre` is already held (or looked at): some card's centre
    lies within 0.6 of a card `width` of it."""
    return bool(np.any(_distances(np.array(centres).reshape(-1, 2), centre) < 0.6 * width))


def _distances(points: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """The distance of each of `points` (rows) from `centre`, all at once (the row-gap look asks
    it of every card read, for every place it looks at). Each is the root of the offset's dot
    product, as np.linalg.norm takes it: the same to the last bit, as the places and cards it
    tells apart need."""
    offsets = (points - centre)[:, None, :]
    return np.sqrt(offsets @ offsets.transpose(0, 2, 1)).ravel()


def _centred(reading: _Reading, centre: np.ndarray, width: float) -> bool:
    """Whether `reading` lies centred on the card-sized place looked at, at `centre`: within half
    a card `width` of it (a card beside the place may read there too)."""
    return bool(np.linalg.norm(reading.frame.mean(axis=0) - centre) < 0.5 * width)


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / np.linalg.norm(vector)


def _down(along: np.ndarray) -> np.ndarray:
    """The direction down a frame's columns, its rows running along the unit vector `along`."""
    return np.array([-along[1], along[0]])


def _place_at(centre: np.ndarray, along: np.ndarray, size: tuple[float, float]
              ) -> np.ndarray:
    """The corners of a place `size` (width, height) at `centre`, its rows along the unit vector
    `along`, in the order of a frame along the rows."""
    return centre + np.array([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]) \
        @ np.array([size[0] * along, size[1] * _down(along)])


def _read_crossings(small: np.ndarray, found: list[_Reading], scale: float,
                    looked: list[np.ndarray]) -> list[_Reading]:
    """Cards read where a known row and a known column cross: P5 puts a card where the row of
    its colour and the column of its number cross, and under a camera's perspective rows and
    columns stay straight lines. A card two places from any sure card is beyond the row-gap
    look (_read_row_gaps); where sure cards of its colour and sure cards of its number both lie
    and no card is read at the crossing, the place is read as a lone card against its own white
    (_read_place), sized as the row's and the column's cards were read. It counts only read for
    sure as that very card, of the pack's numeral size: the place may be table. At most one
    place per card of the deck; the centres of the places read are added to `looked`, and
    those in it are not read."""
    sure = [r for r in found if isinstance(r.item, SeenCard)]
    axis = _row_axis(sure)
    if axis is None:
        return []
    centres = np.array([r.frame.mean(axis=0) for r in sure])
    held = [r.frame.mean(axis=0) for r in found]
    read = {r.item.card for r in sure}
    more: list[_Reading] = []
    for colour, number in itertools.product(COLOURS, range(1, 13)):
        row = [i for i, r in enumerate(sure) if r.item.card.colour is colour]
        column = [i for i, r in enumerate(sure) if r.item.card.number == number]
        if not row or not column or Card(colour, number) in read:
            continue
        centre = _crossing(sure, centres, row, column)
        if centre is None:
            continue
        # Sized as the row's and the column's cards were read: a place wider than its card
        # takes in table beyond the card's edges, and no card reads there.
        frames = np.array([sure[i].frame for i in row + column])
        width = float(np.median(np.linalg.norm(frames[:, 1] - frames[:, 0], axis=1)))
        if _held(centre, held + looked, width):
            continue
        looked.append(centre)
        glyph = float(np.median([sure[i].glyph for i in row + column]))
        along = _unit(sure[row[0]].frame[1] - sure[row[0]].frame[0])
        size = (width, float(np.median(np.linalg.norm(frames[:, 3] - frames[:, 0], axis=1))))
        for new in _read_place(small, _place_at(centre, along, size), scale, axis):
            if new.item.card == Card(colour, number) and _of_the_packs_size(new.glyph, glyph) \
                    and _centred(new, centre, width):
                more.append(new)
                held.append(new.frame.mean(axis=0))
                break
    return more


def _crossing(sure: list[_Reading], centres: np.ndarray, row: list[int], column: list[int]
              ) -> np.ndarray | None:
    """Where the line through the sure cards `row` (indices into `sure`, of one colour) crosses
    the line through those of `column` (of one number); a line through one card runs along its
    frame's rows (or columns). None where the lines run nearly alike."""
    lines = []
    for members, side in ((row, 1), (column, 3)):
        points = centres[members]
        middle = points.mean(axis=0)
        frame = sure[members[0]].frame
        direction = _unit(frame[side] - frame[0])
        if len(members) >= 2:
            # The line's direction is the points' main axis, when they spread along it.
            _, spread, axes = np.linalg.svd(points - middle, full_matrices=False)
            if spread[0] > 0.5 * np.linalg.norm(frame[side] - frame[0]):
                direction = axes[0]
        lines.append((middle, direction))
    (row_point, row_way), (column_point, column_way) = lines
    ways = np.stack([row_way, -column_way], axis=1)
    if abs(np.linalg.det(ways)) < 0.5:  # more than 30° from square: no grid
        return None
    t, _ = np.linalg.solve(ways, column_point - row_point)
    return row_point + t * row_way


# Where a corner index's centre lies on its card, in from the card's nearer sides: shares of the
# card's width and height (decks print it about 12% and 8% in).
INDEX_IN = (0.12, 0.08)


def _read_by_index(dropped: list[_Reading], kept: list[_Reading], small: np.ndarray,
                   scale: float, on_plaza: bool) -> list[_Reading]:
    """Cards found by their corner index: a sure reading far smaller than the pack's numerals
    (dropped by _alike_in_size) that lies on no card read is an index whose own card's numeral
    did not read (a large face, a frame), or read with its ink unclear (a tinted border or a
    picture around it skews its paper white). Its card lies beside it, along the index's own
    axes: below and to the right of an upright index, or to the left for one at the top-right
    (four corners printed); above it for a turned one. Each such place is read against its own
    white (_read_place), along the rows on a Plaza, along the index in a hand (cards lie at any
    angle), and a card read there counts only as the index's own card, at that place
    (_confirmed)."""
    sure = [r for r in kept if isinstance(r.item, SeenCard)]
    axis = _row_axis(sure) if on_plaza else None
    if not sure or on_plaza and axis is None:
        return []
    width = float(np.median([np.linalg.norm(r.frame[1] - r.frame[0]) for r in sure]))
    glyph = float(np.median([r.glyph for r in sure]))
    centres = [r.frame.mean(axis=0) for r in kept]
    more: list[_Reading] = []
    for index in dropped:
        centre = index.frame.mean(axis=0)
        if not isinstance(index.item, SeenCard) or index.glyph >= SMALLEST_NUMERAL * glyph \
                or _held(centre, centres, width):
            continue
        along = _unit(index.frame[1] - index.frame[0])
        size = (width, width * CARD_ASPECT)
        reach = (0.5 - np.array(INDEX_IN)) * size
        turned = _upside_down(index.probabilities)
        for side in (1, -1):
            offset = side * reach[0] * along + (-1 if turned else 1) * reach[1] * _down(along)
            middle = centre + offset
            place = _place_at(middle, along, size)
            if _held(middle, centres, width):
                continue
            own_axis = axis if axis is not None else math.atan2(along[1], along[0])
            found = [confirmed for r in _read_place(small, place, scale, own_axis, unsure_too=True)
                     if (confirmed := _confirmed(r, index)) is not None
                     and _centred(r, middle, width)]
            if found:
                more.append(found[0])
                centres.append(found[0].frame.mean(axis=0))
                break
    return more


def _confirmed(reading: _Reading, index: _Reading) -> _Reading | None:
    """A card's reading as its sure corner index confirms it: the index repeats the card's
    number in the card's ink, so a reading of that number, sure of it, and of that colour, is
    as sure of its colour as the index is (unseen seed 1003: a warm light left a brown 5's
    numeral between brown and red, its index clearly brown). None if they disagree."""
    card = index.item.card
    if isinstance(reading.item, SeenCard):
        return reading if reading.item.card == card else None
    odds = _number_odds(reading.probabilities)
    if int(np.argmax(odds)) + 1 != card.number or odds.max() < SURE \
            or reading.colour is not card.colour:
        return None
    return _rejudged(reading, reading.probabilities,
                     max(reading.colour_confidence, index.colour_confidence))


def _read_place(small: np.ndarray, place: np.ndarray, scale: float, axis: float,
                unsure_too: bool = False, ink_depth: float | None = None) -> list[_Reading]:
    """The sure cards read at a card-sized place (its corners in photo pixels, in the order of
    a frame along the rows), with the paper white measured around each pixel within a third of
    the card: a shadow's edge may cross the card, and no numeral's stroke is that wide. With
    `unsure_too`, the unsure ones as well. With the pack's `ink_depth` (_ink_depth), ink the
    place holds shallower than that is deepened to it first (_deepened: glare)."""
    corners = place * scale
    width = float(np.linalg.norm(corners[1] - corners[0]))
    height = float(np.linalg.norm(corners[3] - corners[0]))
    if corners.min() < 0 or np.any(corners.max(axis=0) > (small.shape[1], small.shape[0])):
        return []  # a place the photo's edge cuts: no card read there could be sized
    # The frame _read_upright cuts reaches half a card beyond the place: so does the crop, but
    # within the photo (a full Plaza's end cards lie near its edges; beyond the crop the frame
    # holds no ink), its corners even, to match the half-size paper mask.
    x0, y0 = (max(0, int(v) // 2 * 2) for v in corners.min(axis=0) - width / 2 - 2)
    x1, y1 = (min(int(v) + 3, limit) // 2 * 2 for v, limit in
              zip(corners.max(axis=0) + width / 2, (small.shape[1], small.shape[0]), strict=True))
    crop = small[y0:y1, x0:x1]
    inside = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillPoly(inside, [np.round(corners - (x0, y0)).astype(np.int32)], 1)
    size = int(width / 3) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (size, size))
    white = cv2.blur(cv2.dilate(crop, kernel), (size, size))
    normalised = _over_white(crop, white)
    # The paper test takes the light from the brightest pixels: a lit card beside the place
    # would outshine it. Against its own white (at 200), that card is no brighter than white.
    level = np.clip(normalised * 200, 0, 255).astype(np.uint8)
    own_paper = _paper_mask(level[::2, ::2], normalised[::2, ::2])
    if own_paper[inside[::2, ::2] > 0].mean() < 0.6:
        return []  # not mostly paper, even against its own white: table
    if ink_depth is not None:
        normalised = _deepened(normalised, inside > 0, ink_depth)
    centre = corners.mean(axis=0) - (x0, y0)
    angle = math.degrees(math.atan2(*(corners[1] - corners[0])[::-1]))
    region = _Region(rect=((float(centre[0]), float(centre[1])), (width, height), angle),
                     card_shaped=False)
    shift = np.array([x0, y0]) / scale
    return [replace(_judged(r.frame + shift, r.probabilities, r.colour, r.colour_confidence,
                            r.ink, r.glyph), shape=r.shape)
            for r in _read_region(normalised, own_paper, region, scale, True, width, axis,
                                  unsure_too=unsure_too)
            if unsure_too or isinstance(r.item, SeenCard)]


# A place's ink depth (1 - its channel minimum over the paper white) is taken at this
# percentile of its pixels: the darker half of a numeral's strokes, as _ink_rgb measures a
# numeral's ink (a card's strokes are a few hundredths of its area).
DEEPEST_INK = 99


def _ink_depth(readings: list[_Reading]) -> float | None:
    """How deep the pack's ink goes: the median over the sure `readings` of their numerals'
    ink depth in its deepest channel (one pack prints its numerals alike; None without any)."""
    depths = [_depth(reading.ink) for reading in readings
              if isinstance(reading.item, SeenCard) and reading.ink is not None]
    return float(np.median(depths)) if depths else None


def _depth(ink: np.ndarray) -> float:
    """An ink's depth (its rgb over the paper white) in its deepest channel."""
    return 1 - float(np.min(ink))


def _deepened(normalised: np.ndarray, inside: np.ndarray, ink_depth: float) -> np.ndarray:
    """A card's place (`normalised` over its own paper white) with its ink deepened to the
    pack's `ink_depth` when its deepest ink (DEEPEST_INK, `inside` the place) is shallower and
    still ink (INK). Glare adds white light over a card: it lifts ink and paper alike, so over
    the paper white every ink's depth shrinks by one factor, and a numeral's thin joins (a 5's
    stem between its bar and bowl) fall below INK while its strokes stay ink (unseen tuning
    seed 1001: a Black 5 under glare, its strokes 0.58 deep against the pack's 0.79). Scaling
    the depths back by that factor restores the numeral's shape and its ink's hue; paper (depth
    0) stays paper."""
    deepest = float(np.percentile(1 - _channel_min(normalised)[inside], DEEPEST_INK))
    if not INK <= deepest < ink_depth:
        return normalised
    return 1 - (1 - normalised) * np.float32(ink_depth / deepest)


def _divide_by_paper(small: np.ndarray) -> np.ndarray:
    """Each pixel divided by a local white estimate (per channel): paper ≈ 1 under any light.
    The estimate (a local maximum, smoothed) is computed at a quarter of the size: it is smooth."""
    quarter = cv2.resize(small, (max(1, small.shape[1] // 4), max(1, small.shape[0] // 4)),
                         interpolation=cv2.INTER_AREA)
    size = max(5, max(quarter.shape[:2]) // 20) | 1
    white = cv2.dilate(quarter, cv2.getStructuringElement(cv2.MORPH_RECT, (size, size)))
    white = cv2.blur(white, (size, size))
    white = cv2.resize(white, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_LINEAR)
    return _over_white(small, white)


def _over_white(image: np.ndarray, white: np.ndarray) -> np.ndarray:
    """Each pixel (uint8) divided by its white estimate, 16 at least, in float32: cast within
    the division, which makes no float copy of either first (the same floats, half the time)."""
    return np.divide(image, np.maximum(white, 16), dtype=np.float32)


def _paper_mask(small: np.ndarray, normalised: np.ndarray, tint: float = 0.3) -> np.ndarray:
    """Pixels of card stock: near the local white, not strongly coloured, and bright overall;
    `tint` is how far from neutral (under the light of the brightest pixels) paper may be."""
    return _paper_masks(small, normalised, (tint,))[0]


def _paper_masks(small: np.ndarray, normalised: np.ndarray, tints: tuple[float, ...],
                 grown: tuple[bool, ...] = (), shaded: tuple[bool, ...] = ()
                 ) -> tuple[np.ndarray, ...]:
    """_paper_mask for each of the `tints`, sharing the work they have in common; those marked
    in `grown` also take in dimly lit paper beside paper, those marked in `shaded` dimly lit
    paper anywhere (for whole card-sized pieces only: _unread_card_paper)."""
    low = _channel_min(normalised)
    spread = np.maximum(np.maximum(normalised[..., 0], normalised[..., 1]),
                        normalised[..., 2]) - low
    # Card stock is the brightest near-neutral thing in the scene: take the brightest pixels'
    # colour as the light's, and refuse pixels far from neutral under it (a cyan or pink cloth
    # looks like local white after the division above, but not like the cards).
    light = np.percentile(small[::2, ::2].reshape(-1, 3), 99, axis=0).astype(np.float32)
    balanced = np.divide(small, np.maximum(light, 16.0), dtype=np.float32)
    top = np.maximum(np.maximum(balanced[..., 0], balanced[..., 1]), balanced[..., 2])
    tinge = top - _channel_min(balanced)
    pale = (low > 0.72) & (spread < 0.22)
    masks = [(pale & (top >= 0.45) & (tinge < tint * top)).astype(np.uint8) for tint in tints]
    # A card lit dimly (in a dark corner, in shade, by a gradient of light) sits at the
    # brightness bound, which noise speckles: its paper is the bright pixels grown a few pixels
    # into dim ones that are otherwise paper, as Canny's hysteresis grows edges. Only a few: a
    # dim table touching the cards is no paper.
    for index, tint in enumerate(tints):
        is_grown, is_shaded = (index < len(marks) and marks[index] for marks in (grown, shaded))
        if not (is_grown or is_shaded):
            continue
        dim = (pale & (top >= 0.3) & (tinge < tint * top)).astype(np.uint8)
        if is_shaded:
            masks[index] = dim
            continue
        for _ in range(3):
            masks[index] = cv2.dilate(masks[index], np.ones((3, 3), np.uint8)) & dim
    return tuple(masks)


def _channel_min(image: np.ndarray) -> np.ndarray:
    """Per-pixel minimum over the colour channels (much faster than .min(axis=2))."""
    return np.minimum(np.minimum(image[..., 0], image[..., 1]), image[..., 2])


@dataclass(frozen=True)
class _Region:
    rect: tuple[tuple[float, float], tuple[float, float], float]  # cv2.minAreaRect, working px
    card_shaped: bool  # a lone card's outline (portrait, about 63 × 88, convex)
    # Its convex hull's share of its rectangle (a card's is near 1, or 0.8 as a tilted camera
    # makes it a trapezoid), 0 where the photo's edge cuts it: a region cut so lost its outline.
    fill: float = 0.0
    # Whether its paper rings a piece of ink a digit's size (a hole in it): the gaps between the
    # dots of a cloth ring none.
    rings_ink: bool = True


def _regions(paper: np.ndarray) -> list[_Region]:
    """Connected paper (half size): single cards in a hand, blocks of touching cards on a Plaza,
    or pale table. Only their rectangles are used: ink inside them is judged by its own paper
    surround, since a numeral touching a picture or a frame is not a hole in the paper."""
    side = max(paper.shape)
    opened = cv2.morphologyEx(paper, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Every component's outer boundary, also of those lying in another's hole: a pale table can
    # pass for paper, and then the cards, ringed by their shadows and edges, are its holes' islands.
    contours, hierarchy = cv2.findContours(opened, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    regions = []
    for contour, (_, _, hole, parent) in zip(contours, hierarchy[0] if contours else (),
                                             strict=True):
        if parent >= 0 or cv2.contourArea(contour) < (side / 120) ** 2:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        long, short = max(w, h), max(1.0, min(w, h))
        # A region the photo's edge cuts has lost its own outline (and a pale table filling the
        # photo can have a card's aspect): it is no lone card.
        x, y, bw, bh = cv2.boundingRect(contour)
        fill = cv2.contourArea(cv2.convexHull(contour)) / max(w * h, 1.0) \
            if x > 1 and y > 1 and x + bw < paper.shape[1] - 1 and y + bh < paper.shape[0] - 1 \
            else 0.0
        regions.append(_Region(rect=((2 * cx, 2 * cy), (2 * w + 2, 2 * h + 2), angle),
                               card_shaped=fill > 0.9 and 1.2 < long / short < 1.6, fill=fill,
                               rings_ink=_rings_ink(contours, hierarchy[0], hole)))
    return regions


def _thinnest(found: list[_Reading], scale: float) -> float:
    """The narrowest piece of paper (working pixels) that may hold a card's numeral without
    ringing it: one cut into its edge (by a picture, a frame, the numeral's own size) took up
    to 0.9 of the piece's width on the tuning seeds, and the pack's numerals are at least
    SMALLEST_NUMERAL of the sure ones' median height. Narrower pieces are gaps of the table
    between dots or checks (unseen seed 2023: 594 gaps of a polka cloth, read for 5 s, where
    only the indices of cards beside them read). 0 without two sure cards to size the pack."""
    glyphs = [reading.glyph * scale for reading in found if isinstance(reading.item, SeenCard)]
    return SMALLEST_NUMERAL * float(np.median(glyphs)) / 0.9 if len(glyphs) >= 2 else 0.0


def _rings_ink(contours: tuple[np.ndarray, ...], hierarchy: np.ndarray, hole: int) -> bool:
    """Whether any of a region's holes (from its first, `hole`, along the hierarchy's next
    links; half size) is as long as a digit could be at any angle: a digit is at least 9
    working pixels tall, so at least 3 here on its box's longer side, and the hole's outline
    (the paper around it) 2 more."""
    while hole >= 0:
        _, _, w, h = cv2.boundingRect(contours[hole])
        if max(w, h) >= 5:
            return True
        hole = hierarchy[hole][0]
    return False


def _reads_a_card(readings: list[_Reading]) -> bool:
    """Whether any of the readings is a card read for sure."""
    return any(isinstance(reading.item, SeenCard) for reading in readings)


def _read_region(normalised: np.ndarray, paper: np.ndarray, region: _Region, scale: float,
                 on_plaza: bool, card_width: float | None = None, axis: float | None = None,
                 thinnest: float = 0.0, unsure_too: bool = False) -> list[_Reading]:
    """The cards of one paper region, read along whichever of its two axes reads best (or, given
    the rows' `axis` in radians, along the one nearer to it). A region without a lone card's
    outline must hold a card read for sure (unless `unsure_too`), else it is pale table. A
    region whose frame is its rectangle, that rings no ink and is narrower than `thinnest`, is
    table and is not read."""
    if not (region.card_shaped or region.rings_ink) and min(region.rect[1]) < thinnest \
            and _margin(region, on_plaza, card_width) == FRAME_MARGIN:
        return []
    angles = [region.rect[2]]
    if not region.card_shaped:  # a block's outline is ragged: its edges tell the axes better
        edges = _edge_angle(normalised, region)
        if _degrees_off(edges, angles[0]) > 4:
            angles.append(edges)
        # On a Plaza, cards lie along the rows' axis (P5), which the lone cards' outlines tell:
        # a pale table's region holding a lone card can have neither its rectangle nor its
        # edges within ASLANT of the rows, and a frame so far off reads numerals at a slant
        # the classifier never learnt (unseen tuning seed 7037: a polka cloth, read 30° off
        # the rows only, misread a lone 5 as a sure 3 and left a lone 3 unsure). Such a
        # region is read along the rows too; not a piece whose frame reaches half a card
        # beyond it (_margin): turned to the rows, its edge cut a 6 to a sure 1 (seed 6008).
        if axis is not None and _margin(region, on_plaza, card_width) == FRAME_MARGIN \
                and all(_degrees_off(math.degrees(axis), angle) >= ASLANT for angle in angles):
            angles.append(math.degrees(axis))

    def best_frame(ruled: bool) -> list[_Reading]:
        """The cards read in the frame that reads best; a frame where the first look reads
        beats one where only a second look does."""
        best: list[_Reading] = []
        best_score = (False, -math.inf)
        for angle in angles:
            for turn in (0.0, 90.0):
                # The frame's rows run along (cos, sin) of its angle in the photo.
                if axis is not None and _degrees_off(angle + turn, math.degrees(axis), 180) > 45:
                    continue
                cards, plain_score = _read_upright(normalised, paper, region, angle + turn,
                                                   scale, on_plaza, card_width, ruled)
                score = (any(not card.second_look for card in cards), plain_score)
                # A frame where nothing reads is no rival: a picture's unread shapes can make
                # the score of the right one negative.
                if cards and score > best_score:
                    best, best_score = cards, score
        return best

    best = best_frame(ruled=False)
    # A lone card where nothing reads for sure is looked at again without the lines printed
    # along its sides (_read_upright's `ruled`); that look must read a card for sure.
    if region.card_shaped and not _reads_a_card(best):
        ruled = best_frame(ruled=True)
        if _reads_a_card(ruled):
            best = ruled
    if region.card_shaped or unsure_too or any(isinstance(reading.item, SeenCard)
                                               or _six_or_nine(reading) for reading in best):
        return best
    return []


def _six_or_nine(reading: _Reading) -> bool:
    """A clear 6 or 9 of unknown way up: a card's shape (a picture can notch its outline), left
    for its place on the Plaza to settle (P5)."""
    return _six_or_nine_shape(reading.probabilities) >= 0.9 and reading.colour_confidence >= 0.5


def _degrees_off(angle: float, other: float, period: float = 90.0) -> float:
    """How many degrees apart two directions are, the same every `period` degrees (a frame's
    axes repeat every 90°, a row's direction every 180°)."""
    return abs((angle - other + period / 2) % period - period / 2)


def _edge_angle(normalised: np.ndarray, region: _Region) -> float:
    """The dominant direction (mod 90°) of the edges in a region: card outlines and the strokes
    of numerals run along the cards' axes, and cards on a Plaza share one orientation."""
    box = cv2.boundingRect(cv2.boxPoints(region.rect).astype(np.int32))
    x, y, w, h = box
    x0, y0 = max(0, x), max(0, y)
    grey = _channel_min(normalised[y0:y + h:2, x0:x + w:2])
    if grey.size < 16:
        return region.rect[2]
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    weight = gx * gx + gy * gy
    # Angles mod 90° as a doubled-doubled phase, averaged around the dominant one.
    phase = np.arctan2(gy, gx) * 4
    histogram = np.bincount(((phase + math.pi) / (2 * math.pi) * 90).astype(int).ravel() % 90,
                            weight.ravel(), minlength=90)
    histogram = np.convolve(np.concatenate([histogram[-3:], histogram, histogram[:3]]),
                            np.ones(7), mode="valid")
    return float(np.argmax(histogram) + 0.5) - 45.0


FRAME_MARGIN = 4  # working pixels a region's frame reaches beyond its rectangle, as a rule


def _margin(region: _Region, on_plaza: bool, card_width: float | None) -> int:
    """How far a region's frame reaches beyond its rectangle, working pixels. On a Plaza, with
    the card size known and the frame along the cards' axes, the frame of a piece of paper
    reaches half a card beyond it: a numeral as wide as the card can cut its paper in two, and
    neither piece holds it whole. (In a hand, cards lie at any angle: a frame reaching beyond a
    piece would cut through the next card's numeral.)"""
    return int(card_width / 2) if card_width and on_plaza and not region.card_shaped \
        else FRAME_MARGIN


def _frame(region: _Region, angle: float, margin: int
           ) -> tuple[np.ndarray, tuple[int, int], tuple[float, float]]:
    """The affine map from working pixels into a region's upright frame turned by `angle`
    (degrees), the frame's size (its rectangle's, `margin` more on every side), and the
    rectangle's own width and height in that frame."""
    (cx, cy), (w, h), _ = region.rect
    if abs((angle - region.rect[2]) % 180 - 90) < 45:  # read across the rectangle's axes
        w, h = h, w
    size = (int(w) + 2 * margin, int(h) + 2 * margin)
    turn = cv2.getRotationMatrix2D((cx, cy), angle, 1.0)
    turn[:, 2] += (size[0] / 2 - cx, size[1] / 2 - cy)
    return turn, size, (w, h)


def _read_upright(normalised: np.ndarray, paper: np.ndarray, region: _Region, angle: float,
                  scale: float, on_plaza: bool, card_width: float | None, ruled: bool = False
                  ) -> tuple[list[_Reading], float]:
    """The cards read in a region's frame turned by `angle`, and the frame's score. `ruled`
    (a lone card's outline): the frame reaches EDGE_BAND / 2 of the card further, and the lines
    printed along the card's sides are taken out of its ink (_ruled_lines). At 2-3 megapixels
    a card's outline can be the paper inside a frame printed round it, the thin band outside
    the frame's line lost, so a digit touching the printed frame was cut by the reading frame's
    edge, and the frame's broken inner line stayed one blob with it (unseen tuning seed 4025:
    10, 11 and 12s missed)."""
    margin = _margin(region, on_plaza, card_width) + \
        (int(EDGE_BAND / 2 * min(region.rect[1])) if ruled else 0)
    turn, size, (w, h) = _frame(region, angle, margin)
    upright = cv2.warpAffine(normalised, turn, size, flags=cv2.INTER_LINEAR,
                             borderValue=(1.0, 1.0, 1.0))
    from_half = turn.copy()
    from_half[:, :2] *= 2  # the paper mask is at half size
    paper_up = cv2.warpAffine(paper, from_half, size, flags=cv2.INTER_NEAREST)
    ink = np.clip(1.0 - _channel_min(upright), 0, 1)
    ink_mask = (ink > INK).astype(np.uint8)
    paper_share = _PaperShare(paper_up, ink_mask)
    # Only in a lone card's outline: a piece's rectangle tells nothing of where its card's
    # sides lie, and a numeral's stroke can be bridged to a frame's line along its whole length.
    if ruled:
        lines = _ruled_lines((ink > FAINT_INK).astype(np.uint8), min(w, h),
                             (margin + EDGE_BAND * w, margin + EDGE_BAND * h))
        ink = np.where(lines > 0, 0.0, ink)
        ink_mask = ink_mask & (lines == 0)
    numerals, labels, unread = _find_numerals(ink, ink_mask, paper_share)
    if not numerals:
        return [], 0.0
    back = cv2.invertAffineTransform(turn)
    # On the first look, a region that is no lone card's outline can be a piece of its card (a
    # pattern or the table's print cut it), whose card box reaches past the frame: its paper is
    # judged in the photo, beyond the frame too. A lone card's outline is the card; and on the
    # look again with the pack's card width, pieces left are mostly fragments of numerals (an
    # index, a digit of 11) beside a card read: both are judged in their frame alone.
    tallest = max(numeral.box[3] for numeral in numerals)
    card_paper = paper_share if card_width or region.card_shaped else \
        _PaperShare(*_beyond_frame(paper, from_half, size, ink_mask,
                                   tallest * TYPICAL_CARD * CARD_ASPECT))
    card_size = _card_size(numerals, region.card_shaped, (w, h), card_width) \
        or _card_size_from_paper(numerals, card_paper, region.card_shaped)
    numerals = [_orient_by_index(numeral, ink, ink_mask, card_size) for numeral in numerals]
    if on_plaza:  # cards in a hand lie anywhere
        numerals = _settle_by_place(numerals, card_size)
    # A card is mostly bare paper: a dark blob on a pale patch of table is not a card. A numeral
    # in the margin beyond the region is its own only when it cut the region's paper (within a
    # quarter card): further out it is the next card's, perhaps cut short by the frame.
    reach = margin - (card_size[0] / 4 if margin > FRAME_MARGIN and not region.card_shaped else 0)

    def on_card(card_paper: _PaperShare, paper_share: _PaperShare, numeral: _Numeral) -> bool:
        box = _card_box(numeral, card_size)
        return card_paper(*box) >= 0.75 and (card_paper is paper_share or paper_share(*box) >= 0.75
                                             or _room_for_a_digit(numeral, size))

    numerals = [numeral for numeral in numerals
                if _inside(numeral.box, reach, size) and not _dots(numeral, labels)]
    plain = [numeral for numeral in numerals if on_card(card_paper, paper_share, numeral)]
    # Noise or a card's fine print can speckle its paper below the share a card needs (unseen
    # tuning seed 3025): the card is read on the despeckled mask too, as a second look, kept
    # only where nothing else is read (_with_second_looks).
    read = {id(numeral) for numeral in plain}
    despeckled = [numeral for numeral in numerals if id(numeral) not in read
                  and on_card(card_paper.despeckled(), paper_share.despeckled(), numeral)]
    found = [_card_from(numeral, upright, ink, labels, card_size, back, scale)
             for numeral in plain] + \
        [replace(_card_from(numeral, upright, ink, labels, card_size, back, scale),
                 second_look=True) for numeral in despeckled]
    # Along the wrong axis the numerals lie sideways and are rejected, and what does read (a bar
    # as a 1) is small or unsure: weigh readings by size, less the size of what did not read.
    # An unmarked 6 or 9 is a sure shape whose way up is unknown: it counts as sure here.
    score = sum(_shape_odds(numeral) ** 2 * numeral.box[2] * numeral.box[3]
                for numeral in plain) - unread
    return found, score


EDGE_BAND = 0.15  # share of a card's width (height) from its sides where a printed frame lies


def _ruled_lines(faint: np.ndarray, card_width: float, bands: tuple[float, float]
                 ) -> np.ndarray:
    """The ink (of the `faint` mask: ink above FAINT_INK) of straight lines along a card's
    edges in its upright frame, longer than any stroke of a numeral, within `bands` (pixels
    across, down) of the frame's sides: a frame printed round the card (its inner line, thin,
    breaks at 2-3 megapixels, and a digit touching it stays one blob with a piece of it: unseen
    tuning seed 4025; a pale frame's line, below INK in places, is whole above FAINT_INK: 7040),
    the card's own edge. A digit is at most 0.6 of its card's width or height, and a numeral
    lies in the card's middle: the base line of a 12's digits is no frame's line. A line a pixel
    off the frame's axis over its length, and gaps of a pixel, are bridged."""
    lines = np.zeros_like(faint)
    across, down = (int(band) for band in bands)
    for length, along, aside in ((0.7 * card_width, (1, 3), (3, 1)),
                                 (0.7 * CARD_ASPECT * card_width, (3, 1), (1, 3))):
        bridged = cv2.dilate(cv2.morphologyEx(faint, cv2.MORPH_CLOSE,
                                              np.ones(along, np.uint8)),
                             np.ones(aside, np.uint8))
        kernel = (1, int(length)) if along == (1, 3) else (int(length), 1)
        found = cv2.morphologyEx(bridged, cv2.MORPH_OPEN, np.ones(kernel, np.uint8))
        if along == (1, 3):  # rows: near the top and the bottom only
            found[down:found.shape[0] - down] = 0
        else:
            found[:, across:found.shape[1] - across] = 0
        lines |= found
    return lines & faint


def _dots(numeral: _Numeral, labels: np.ndarray) -> bool:
    """Whether a numeral is made of round discs only: the dots of a polka cloth (two side by
    side pass for an 11), not digits. Every digit leaves paper in its box, open or enclosed, or
    (a heavy 8 whose holes a blur closed) is no round blob."""
    x, y, w, h = (int(v) for v in numeral.box)
    window = labels[y:y + h, x:x + w]
    for label in numeral.labels:
        blob = (window == label).astype(np.uint8)
        contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        if len(contours) != 1:
            return False
        area, perimeter = cv2.contourArea(contours[0]), cv2.arcLength(contours[0], True)
        # Roundness 4πA/P²: a disc's is near 1 (0.9 on a pixel grid), a square's 0.79. Solid:
        # an O's ring is round too.
        if 4 * math.pi * area < 0.85 * perimeter ** 2 or blob.sum() < 0.9 * area:
            return False
    return True


def _room_for_a_digit(numeral: _Numeral, size: tuple[int, int]) -> bool:
    """Whether a 1 or a 2 has a digit's room beside it on both sides in a frame of `size`
    (width, height): else it may be one digit of a 10, 11 or 12 whose other digit lies beyond
    the frame, unseen, and a piece of a card read alone would be a wrong number."""
    x, _, w, h = numeral.box
    if int(np.argmax(_number_probabilities(numeral))) + 1 not in (1, 2):
        return True
    return x >= 0.8 * h and x + w <= size[0] - 0.8 * h


def _inside(box: tuple[float, float, float, float], margin: float, size: tuple[int, int]
            ) -> bool:
    """Whether a box's centre lies `margin` or more inside a frame of `size` (width, height)."""
    x, y, w, h = box
    return margin <= x + w / 2 <= size[0] - margin and margin <= y + h / 2 <= size[1] - margin


def _shape_odds(numeral: _Numeral) -> float:
    """How sure the classifier is of the numeral's shape, taking 6 and 9 as one shape."""
    return max(float(_number_probabilities(numeral).max()),
               _six_or_nine_shape(numeral.probabilities))


def _beyond_frame(paper: np.ndarray, from_half: np.ndarray, size: tuple[int, int],
                  ink_mask: np.ndarray, card_height: float) -> tuple[np.ndarray, np.ndarray, int]:
    """The paper mask (half size) warped into a frame of `size` grown by half a card on every
    side, the frame's ink mask padded alike, and that padding."""
    pad = int(card_height / 2) + 1
    grown = from_half.copy()
    grown[:, 2] += pad
    paper_up = cv2.warpAffine(paper, grown, (size[0] + 2 * pad, size[1] + 2 * pad),
                              flags=cv2.INTER_NEAREST)
    return paper_up, np.pad(ink_mask, pad), pad


class _PaperShare:
    """How much of a box (frame coordinates; outside the mask counts as table) is paper, ink not
    counted. The masks may reach `pad` pixels beyond the frame on every side."""

    def __init__(self, paper: np.ndarray, ink_mask: np.ndarray, pad: int = 0) -> None:
        self.height, self.width = paper.shape
        self.mask, self.ink_mask = paper, ink_mask
        self.paper = cv2.integral(paper)
        self.ink = cv2.integral(ink_mask)
        self.pad = pad
        self._despeckled: _PaperShare | None = None

    def despeckled(self) -> _PaperShare:
        """The share of the mask with its specks filled and stray paper pixels dropped (a median
        of 5 × 5): noise and a card's fine print leave pixels of its paper off the mask. Made
        once, when first asked."""
        if self._despeckled is None:
            self._despeckled = _PaperShare(cv2.medianBlur(self.mask, 5), self.ink_mask, self.pad)
        return self._despeckled

    def __call__(self, x0: float, y0: float, x1: float, y1: float) -> float:
        box = max(1.0, (y1 - y0) * (x1 - x0))
        x0, y0, x1, y1 = x0 + self.pad, y0 + self.pad, x1 + self.pad, y1 + self.pad
        # Plain min and max: np.clip on single numbers, for every blob of a dotted table, cost
        # a tenth of its read.
        x0, y0 = int(min(max(x0, 0), self.width)), int(min(max(y0, 0), self.height))
        x1, y1 = int(min(max(x1, 0), self.width)), int(min(max(y1, 0), self.height))
        papers = self.paper[y1, x1] - self.paper[y0, x1] - self.paper[y1, x0] + self.paper[y0, x0]
        inks = self.ink[y1, x1] - self.ink[y0, x1] - self.ink[y1, x0] + self.ink[y0, x0]
        return float(papers) / max(1.0, box - float(inks))


def _find_numerals(ink: np.ndarray, mask: np.ndarray, paper_share: _PaperShare
                   ) -> tuple[list[_Numeral], np.ndarray, float]:
    """Ink blobs ringed by paper, grouped into numerals and classified; small ones (corner
    indices) and those the classifier rejects are dropped. Also returns the labels image, and the
    box area of numeral-sized groups that did not read as numerals."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    labels, stats = _join_by_faint_ink(ink, mask, labels, stats)
    height, width = ink.shape

    def on_paper(x: int, y: int, w: int, h: int) -> bool:
        """Most of what is not ink around the blob is paper (not table, not a picture)."""
        pad = max(2, h // 4)
        return paper_share(x - pad, y - pad, x + w + pad, y + h + pad) >= 0.6

    blobs, dots, cut = [], [], []
    for label, (x, y, w, h, area) in enumerate(stats[1:count].tolist(), 1):
        if area == 0:  # joined to another blob
            continue
        flat = w >= 2.5 * h and h >= 2 and w >= LEAST_DIGIT  # perhaps the bar under a 6 or a 9
        dot = _dot_like(w, h, area)  # perhaps the dot of a "6." or a "9."
        if h < LEAST_DIGIT and not flat and not dot or area < 0.08 * w * h:  # specks; a frame
            continue
        if x <= 1 or y <= 1 or x + w >= width - 1 or y + h >= height - 1:
            cut.append((x, y, w, h, label))  # unreadable, but perhaps a digit of a number
            continue
        if not on_paper(x, y, w, h):  # the table
            continue
        (blobs if h >= LEAST_DIGIT or flat else dots).append((x, y, w, h, label))
    # A frame that the reading frame's edge cuts may hold a digit it touches too (unseen seed
    # 1011): freed, the digit is judged as any blob.
    freed, stats, labels = _freed_from_frames(blobs + cut, stats, labels)
    if freed != blobs + cut:
        kept = set(blobs)
        cut = [b for b in freed if b in cut]
        # A digit freed from a frame on paper is on paper: its own ring reaches past the frame.
        blobs = [b for b in freed if b in kept or b not in cut and (
            on_paper(*b[:4]) or any(_encloses(np.array(k), np.array(b)) for k in kept))]
    blobs = _without_frames(blobs, stats, labels)
    groups = _group_digits(blobs, cut, ink)
    if not groups:
        return [], labels, 0.0
    probabilities = _classified(ink, [box for box, _, _, _ in groups])
    groups = _marks_of_six_or_nine(groups, probabilities, ink, stats)
    probabilities = [_line() if _a_line(box) else
                     _narrow_is_one(p) if box[2] < NARROW * box[3] else p
                     for (box, _, _, _), p in zip(groups, probabilities, strict=True)]
    # Crowders are lone digits (or cut blobs, never read): a group's first label names it.
    lone = {members[0]: p for (_, members, _, _), p in zip(groups, probabilities, strict=True)}
    # A lone digit is too tall to pass for its own dot, so every digit may stand among the dots.
    spots = _spots(dots + [b for b in blobs if _digit_like(b)])
    candidates = []
    for (box, members, bar, crowders), p in zip(groups, probabilities, strict=True):
        if _crowded(box, p, crowders, lone) or len(members) == 1 and _stem_beside(box, p, mask):
            p = _doubted(p)
        # A lone digit's full stop ("6.") marks it; looked for only beside a numeral read (a
        # dotted table leaves thousands of lone dots unread, and their marks would count for
        # nothing). The dot stays out of the box: the classifier never saw one beside a digit.
        if len(members) == 1 and p[REJECT] < 0.5:
            bar = _dot_side(box, spots)
        candidates.append(_orient_six_or_nine(_Numeral(box=box, labels=members, bar=bar,
                                                       probabilities=p)))
    candidates = _join_pieces(candidates, ink)
    numerals = [numeral for numeral in candidates if numeral.probabilities[REJECT] < 0.5]
    if not numerals:
        return [], labels, 0.0
    tall = np.percentile([numeral.box[3] for numeral in numerals], 90)
    unread = sum(c.box[2] * c.box[3] for c in candidates
                 if c.probabilities[REJECT] >= 0.5 and 0.55 * tall <= max(c.box[2], c.box[3])
                 <= 1.6 * tall)
    return [numeral for numeral in numerals if numeral.box[3] >= 0.55 * tall], labels, unread


def _marks_of_six_or_nine(groups: list[Group], probabilities: np.ndarray, ink: np.ndarray,
                          stats: np.ndarray) -> list[Group]:
    """The groups, but a flat shape joined as the mark (_group_digits) of what reads as a 6 or
    a 9 is refused where the digits alone read for sure as another number: decks mark nothing
    else, and the classifier, which learnt the mark on 6 and 9 only, takes a digit under a flat
    shape for one (unseen seed 1054: a 5 under a piece of its card's printed title read as a
    sure 9). Only digits SHAPED tall and wider than a 1 (NARROW) are judged alone: a piece of a
    broken digit, or an index, can read as anything. Those digits are read alone
    (`probabilities` changed here)."""
    marked = [i for i, (_, _, bar, _) in enumerate(groups)
              if bar and _six_or_nine_shape(probabilities[i]) >= 0.5]
    # The mark is the group's last label (_group_digits).
    alone = [_union([(*stats[label, :4], label) for label in groups[i][1][:-1]]) for i in marked]
    judged = [(i, box) for i, box in zip(marked, alone, strict=True)
              if box[3] >= SHAPED and box[2] >= NARROW * box[3]]
    if not judged:
        return groups
    unmarked = list(groups)
    for (i, box), p in zip(judged, _classified(ink, [box for _, box in judged]), strict=True):
        odds = _number_odds(p)
        if odds.max() >= SURE and int(np.argmax(odds)) not in (5, 8):
            unmarked[i] = (box, groups[i][1][:-1], 0, groups[i][3])
            probabilities[i] = p
    return unmarked


def _six_or_nine_shape(probabilities: np.ndarray) -> float:
    """The classifier's odds of a 6 or 9's shape, either way up."""
    return float(_number_odds(probabilities)[[5, 8]].sum())


def _freed_from_frames(blobs: list[Blob], stats: np.ndarray, labels: np.ndarray
                       ) -> tuple[list[Blob], np.ndarray, np.ndarray]:
    """A wide numeral's digit that touches the frame printed round it (unseen seed 3001: an 11
    and a 10 as wide as their cards' inner frames) is one blob with the frame, read as a
    card-tall numeral, while the digit left alone inside reads as a 1. A frame's lines are
    thinner than its digits' strokes: where a blob holds another digit's whole box (no digit
    rings another) and is mostly bare (ink on at most a third of its box), it is opened by a
    square of most of the enclosed digits' stroke width; if what stays is only digit-sized
    pieces (no line the height of the frame, none flat), those pieces are the blob's digits and
    the frame's lines are dropped. A numeral whose every digit touches the frame (unseen seed
    5028: a 12 as wide as the inner frame) leaves no digit enclosed: a blob whose lines run
    along all four sides of its box is opened so too, by its own thickest stroke, and what stays
    must be two digits that pair (one alone may be a piece of a 10, 11 or 12, which read as a
    1 or a 2 would be a wrong card). Returns the blobs, stats and labels (updated, pieces
    beyond the first under new labels)."""
    if not blobs:
        return blobs, stats, labels
    boxes = np.array([b[:4] for b in blobs], np.float64)
    x0, y0 = boxes[:, 0], boxes[:, 1]
    x1, y1 = x0 + boxes[:, 2], y0 + boxes[:, 3]
    digits = _digit_sized(boxes)
    freed: list[Blob] = []
    for x, y, w, h, label in blobs:
        # A numeral's digit is a quarter of its frame's height at least: a corner index inside
        # the frame is smaller (unseen seed 5041), and its strokes would tell nothing.
        inner = np.flatnonzero(digits & (x0 > x) & (y0 > y) & (x1 < x + w) & (y1 < y + h)
                               & (boxes[:, 3] <= 2 * h / 3) & (boxes[:, 3] >= h / 4))
        # Mostly bare; holding the digits that touch it, a frame is inked more.
        if stats[label, 4] > w * h * (1 / 3 if inner.size else 0.45) \
                or not inner.size and h < 3 * 9:  # no room for a numeral's digit
            freed.append((x, y, w, h, label))
            continue
        window = labels[y:y + h, x:x + w]
        mine = (window == label).astype(np.uint8)
        if not inner.size and not _lined_round(mine):
            freed.append((x, y, w, h, label))
            continue
        strokes = [_stroke(mine)] if not inner.size else \
            [_stroke(labels[iy:iy + ih, ix:ix + iw] == own)
             for ix, iy, iw, ih, own in (blobs[i] for i in inner)]
        # What else stays must be specks: the frame's corners; with no digit enclosed, whose
        # strokes tell how thick an opening keeps them, ornaments up to half the frame's width.
        speck, shortest = (9, 9) if inner.size else (min(w, h) / 2, max(9, h / 4))
        # The thinnest opening that leaves no line and frees digits: thicker ones would thin
        # the digits more. At low resolution the thinnest one leaving specks only can still
        # leave a digit joined to a piece of a line (unseen tuning seed 6027: a 2 with a side
        # of the double frame, too tall to pair with the 1), which a thicker one parts.
        for side in range(3, max(3, int(0.6 * float(np.median(strokes)))) + 1):
            opened = cv2.morphologyEx(mine, cv2.MORPH_OPEN, np.ones((side, side), np.uint8))
            count, parts, part_stats, _ = cv2.connectedComponentsWithStats(opened,
                                                                           connectivity=8)
            pieces = _freed_digits(
                [(x + int(part_stats[i, 0]), y + int(part_stats[i, 1]), int(part_stats[i, 2]),
                  int(part_stats[i, 3]), i) for i in range(1, count)
                 if shortest <= part_stats[i, 3] <= 2 * h / 3
                 and 0.2 * part_stats[i, 3] <= part_stats[i, 2] < 2.5 * part_stats[i, 3]],
                [blobs[j] for j in inner])
            if pieces and all(part_stats[i, 2:4].max() < speck for i in range(1, count)
                              if i not in pieces):
                break
        else:
            freed.append((x, y, w, h, label))
            continue
        window[mine > 0] = 0
        for number, i in enumerate(pieces):
            own = label if number == 0 else len(stats)
            px, py, pw, ph, area = (int(v) for v in part_stats[i])
            window[parts == i] = own
            row = np.array([[x + px, y + py, pw, ph, area]], stats.dtype)
            if number == 0:
                stats[label] = row[0]
            else:
                stats = np.vstack([stats, row])
            freed.append((x + px, y + py, pw, ph, own))
    return freed, stats, labels


def _freed_digits(pieces: list[Blob], enclosed: list[Blob]) -> list[int]:
    """The labels of the pieces an opening left of a frame's blob that are digits of its
    numeral: those on the line of a digit the frame encloses and of its height, or, with none
    enclosed, the two that pair best. The others are the frame's corners or artwork it held
    (specks, if the frame is to be dropped), or a digit still joined to a piece of a line."""
    if enclosed:
        return [piece[4] for piece in pieces
                if any(_pair_misfit(*sorted((piece, digit), key=lambda b: b[0])) < 1
                       for digit in enclosed)]
    pairs = [(_pair_misfit(*pair), pair) for pair in itertools.combinations(
        sorted(pieces, key=lambda b: b[0]), 2)]
    misfit, pair = min(pairs, key=lambda p: p[0], default=(math.inf, ()))
    return [piece[4] for piece in pair] if misfit < 1 else []


def _stroke(digit: np.ndarray) -> float:
    """A blob's thickest stroke, pixels: twice its distance transform's peak, at most its box's
    narrower side (a blob that fills its box has no background, and no bound on the distance)."""
    digit = digit.astype(np.uint8)
    return min(2 * float(cv2.distanceTransform(digit, cv2.DIST_L2, 3).max()),
               float(min(digit.shape)))


def _lined_round(blob: np.ndarray) -> bool:
    """Whether a blob (its box's mask) runs along nearly all of its outline (its convex hull)
    and that outline is a quadrilateral, as a printed frame's is, seen square or at a slant (a
    frame a few degrees off the reading frame's axes leaves its box's sides: unseen seed 5041).
    No number of two digits runs along its outline (the outline bridges the gap between them),
    and a 0, which does, is round: its outline has many corners (unseen seed 5001)."""
    mask = blob.astype(np.uint8)
    # The hull of its rim (pixels beside the background or the box's side) is the blob's, and
    # found from far fewer points (a frame's box is mostly bare), in the same order.
    rim = mask - cv2.erode(mask, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                           borderValue=0)
    hull = cv2.convexHull(cv2.findNonZero(rim))
    outline = np.zeros(blob.shape, np.uint8)
    cv2.polylines(outline, [hull], True, 1)
    near = cv2.dilate(mask, np.ones((3, 3), np.uint8))
    corners = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True)
    return len(corners) == 4 and np.count_nonzero(outline & near) >= 0.9 * np.count_nonzero(outline)


def _without_frames(blobs: list[Blob], stats: np.ndarray, labels: np.ndarray) -> list[Blob]:
    """The blobs but the frames: a thin-lined blob (ink on at most a sixth of its box, hardly any
    in its middle, away from its sides) whose box holds a digit's whole box, the digit at most two
    thirds as tall, is a frame printed round the numeral in its ink (no digit rings another; a
    0 is inked more, and rings no digit of two thirds its height). Read as a numeral, a frame (a
    card tall) would make the real numerals seem too small to keep (unseen seed 3037: a row of
    three cards lost so). A frame that a digit touches (ink in its middle) is kept: dropped, it
    would take the digit with it, and the other digit of an 11 would read alone as a 1."""
    if len(blobs) < 2:
        return blobs
    boxes = np.array([b[:4] for b in blobs], np.float64)
    x0, y0 = boxes[:, 0], boxes[:, 1]
    x1, y1 = x0 + boxes[:, 2], y0 + boxes[:, 3]
    digits = _digit_sized(boxes)
    frames = set()
    for i, (x, y, w, h, label) in enumerate(blobs):
        if stats[label, 4] > w * h / 6 or not np.count_nonzero(
                digits & (x0 > x) & (y0 > y) & (x1 < x + w) & (y1 < y + h)
                & (boxes[:, 3] <= 2 * h / 3)):
            continue
        # A frame's lines lie within `side` of its box's sides; a few specks of its ink inside
        # are noise or an ornament, a digit that touches it inks a few percent of its box.
        side = max(2, min(w, h) // 6)
        middle = labels[y + side:y + h - side, x + side:x + w - side] == label
        if np.count_nonzero(middle) <= w * h / 50:
            frames.add(i)
    return [b for i, b in enumerate(blobs) if i not in frames]


def _join_by_faint_ink(ink: np.ndarray, mask: np.ndarray, labels: np.ndarray, stats: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """Blobs joined by ink above FAINT_INK into one digit's box become one blob: the hairlines
    of a high-contrast face fall below INK under blur or a pale ink, and its 0 or 6 breaks into
    arcs that read as 1s. Only pieces of at least a third of the tallest's size, none enclosing
    another, whose union is barely taller than the tallest and no wider than tall: not a digit
    and its bar or dot, not two digits, not a numeral and the frame its blur touches. Returns
    the labels and stats, the joined blobs' stats zeroed."""
    _, faint = cv2.connectedComponents((ink > FAINT_INK).astype(np.uint8), connectivity=8)
    owner = np.zeros(len(stats), np.int32)
    inked = np.flatnonzero(mask)
    owner[labels.ravel()[inked]] = faint.ravel()[inked]
    remap = None
    for group in np.flatnonzero(np.bincount(owner[1:]) >= 2):
        members = np.flatnonzero(owner == group)
        members = members[members > 0]
        tallest = int(stats[members, 3].max())
        pieces = [m for m in members if max(stats[m, 2], stats[m, 3]) >= tallest / 3]
        if len(pieces) < 2:
            continue
        # The box first: faint ink can join a dotted table's hundreds of dots, whose pairs
        # _encloses would take long to try.
        x0, y0, w, h = _union([(*stats[m, :4], m) for m in pieces])
        if h > 1.12 * tallest or w > h or any(_encloses(stats[m], stats[n]) for m in pieces
                                              for n in pieces if m != n):
            continue
        if remap is None:
            remap, stats = np.arange(len(stats)), stats.copy()
        remap[pieces[1:]] = pieces[0]
        stats[pieces[0]] = (x0, y0, w, h, stats[pieces, 4].sum())
        stats[pieces[1:]] = 0
    return (labels, stats) if remap is None else (remap[labels], stats)


def _encloses(outer: np.ndarray, inner: np.ndarray) -> bool:
    """Whether a blob's box (x, y, w, h, ...) holds another's centre: a frame round a numeral,
    never one piece of a digit beside another."""
    cx, cy = inner[0] + inner[2] / 2, inner[1] + inner[3] / 2
    return bool(outer[0] <= cx <= outer[0] + outer[2] and outer[1] <= cy <= outer[1] + outer[3])


def _crowded(box: tuple[float, float, float, float], probabilities: np.ndarray,
             crowders: tuple[Blob, ...], lone: Mapping[int, np.ndarray]) -> bool:
    """Whether a lone digit may be half of its number (10, 11, 12: a 1 and a 0, 1 or 2) for a
    blob beside it: one cut by the frame's side at the digit's height and on its line, when the
    digit may be a 1 or a 2 (a cut digit keeps its height; a shorter line there is the card's
    printed frame), a piece off its line or of another height (a digit its thin ink broke), or a
    digit of its height on its line when the two may read as a 1 and a 0, 1 or 2. Two full
    digits that cannot are next cards' numerals (decks with numerals nearly half the card's
    height set them less than a height apart)."""
    digit = _as_blob(box)
    for crowder in crowders:
        other = lone.get(crowder[4])
        if other is not None and _a_line(crowder):
            continue  # a line (a frame's side), whole in the frame: no digit nor a piece of one
        left, right = sorted((digit, crowder), key=lambda b: b[0] + b[2] / 2)
        # The pair's fit with the gap closed: their heights and line alone.
        level = _pair_misfit(left, (left[0] + left[2],) + right[1:]) < 1
        if other is None and level and _may_be_a_digit_of_ten_to_twelve(probabilities) \
                or other is not None and (not level or _may_pair(probabilities, other)
                                          or _may_pair(other, probabilities)):
            return True
    return False


def _may_be_a_digit_of_ten_to_twelve(probabilities: np.ndarray) -> bool:
    """Whether a digit read may be one digit of a 10, 11 or 12: a 1, or a 2 (a 0 reads as no
    numeral). A sure 6 beside the table's edge that the frame cut is no half of a number
    (unseen seed 1023: two marked 6s of a hand were unsure so)."""
    return float(_number_odds(probabilities)[:2].sum()) >= 0.1


def _stem_beside(box: tuple[float, float, float, float], probabilities: np.ndarray,
                 mask: np.ndarray) -> bool:
    """Whether a lone digit that may be the second digit of an 11 or a 12 (a 1 or a 2) has a
    1's stem beside it that is no blob of its own: a 1 touching a frame printed round the
    numeral is one blob with the frame, and the 2 alone read as a sure 2 (unseen seed 3001).
    The stem is a band of columns, within 0.8 of the digit's height of either side (a turned
    card's 1 lies on the right), inked down the digit's height and bare just above and below
    it: a frame's side runs on."""
    if not _may_be_a_digit_of_ten_to_twelve(probabilities):
        return False
    x, y, w, h = (int(v) for v in box)
    reach = int(0.8 * h)
    x0, x1 = max(0, x - reach), min(mask.shape[1], x + w + reach)
    if y - h // 4 < 0 or y + h + h // 4 > mask.shape[0]:
        return False
    core = mask[y + h // 10:y + h - h // 10, x0:x1].mean(axis=0)
    above = mask[y - h // 4:y - h // 20, x0:x1].max(axis=0)
    below = mask[y + h + h // 20:y + h + h // 4, x0:x1].max(axis=0)
    stem = (core >= 0.9) & (above == 0) & (below == 0)
    stem[x - x0:x + w - x0] = False  # the digit itself
    stroke = max(2, h // 16)  # the thinnest 1 of a light face; two pixels at least
    runs = np.convolve(stem, np.ones(stroke), mode="valid")
    return bool(runs.size and runs.max() >= stroke)


def _may_pair(first: np.ndarray, second: np.ndarray) -> bool:
    """Whether two glyphs' readings may be a two-digit number's 1 and its 0, 1 or 2 (a 0 reads
    as no numeral), whichever way up."""
    odds = _number_odds(second)
    return _number_odds(first)[0] >= 0.1 and (odds[0] + odds[1] >= 0.1
                                               or second[REJECT] >= 0.5)


@dataclass(frozen=True)
class _Breakage:
    """One way faint ink breaks a numeral's glyph (_join_pieces): which numerals read may have
    lost a piece, which candidate beside one may be that piece (`fits`: the numeral, then the
    candidate), what the two must read as together to be joined, and whether a piece left unjoined
    is doubted too."""
    seeks: Callable[[_Numeral], bool]
    fits: Callable[[_Numeral, _Numeral], bool]
    whole_reads: Callable[[np.ndarray], bool]
    doubts_piece: bool


def _unread_digit_piece(numeral: _Numeral, candidate: _Numeral) -> bool:
    """A digit's pieces grouped beside a numeral: read as no numeral, on its line and of its
    height, as a number's two digits are (_pair_misfit), and no line (_group_digits)."""
    piece = _as_blob(candidate.box)
    return candidate.probabilities[REJECT] >= 0.5 and not _a_line(piece) \
        and _pair_misfit(*sorted((_as_blob(numeral.box), piece))) < 1


def _arc_beside_a_one(numeral: _Numeral, candidate: _Numeral) -> bool:
    """The second arc of a glyph read as 1: closer than a 1's width, within its height, half as
    tall at least and no line (a second digit of a number shares its height: _group_digits; a
    speck or a 7's broken bar is smaller: _top_stroke; a frame's side is a line)."""
    box, piece = numeral.box, candidate.box
    first, second = sorted((box, piece), key=lambda b: b[0])
    gap = (second[0] - first[0] - first[2]) / box[3]
    within = box[1] - 0.1 * box[3] <= piece[1] and piece[1] + piece[3] <= box[1] + 1.1 * box[3]
    return -0.1 < gap < NARROW and within and not _a_line(piece) \
        and 0.45 * box[3] <= piece[3] < 0.8 * box[3]


# The digits drawn with rounded strokes, whose hairlines a high-contrast face thins most.
ROUNDED = (2, 3, 5, 6, 8, 9)

BREAKAGES = (
    # A digit whose thin strokes fade below the ink threshold breaks into pieces (a display
    # face's 0 loses its hairlines and leaves two arcs), which group among themselves and read
    # as no numeral, while the digit beside them reads alone, sure and wrong (a 10 read as a 1).
    # A whole that reads as no numeral either leaves the numeral perhaps half of its number.
    _Breakage(seeks=lambda numeral: True,
              fits=_unread_digit_piece, whole_reads=lambda whole: True, doubts_piece=False),
    # A high-contrast face's 6 or 9 (any rounded digit) whose hairlines fade leaves two arcs,
    # and the taller reads as a sure 1; a 1 has no second stroke within its own height. Read
    # together, anything but a rounded digit (no numeral, a 1, a 7, a number of two digits: one
    # glyph is one digit) leaves neither a sure reading.
    _Breakage(seeks=lambda numeral: np.argmax(_number_odds(numeral.probabilities)) == 0,
              fits=_arc_beside_a_one,
              whole_reads=lambda whole: np.argmax(_number_odds(whole)) + 1 in ROUNDED,
              doubts_piece=True),
)


def _join_pieces(candidates: list[_Numeral], ink: np.ndarray) -> list[_Numeral]:
    """Numerals read again together with a piece of their glyph that faint ink broke off, for
    each breakage in turn (BREAKAGES): a numeral read with a piece beside it (the first, in the
    candidates' order, that the breakage admits and no other numeral joined or doubted) is joined
    with it where the whole reads as a numeral the breakage allows, and is no sure reading
    otherwise."""
    for breakage in BREAKAGES:
        candidates = _join_broken(candidates, ink, breakage)
    return candidates


def _join_broken(candidates: list[_Numeral], ink: np.ndarray, breakage: _Breakage
                 ) -> list[_Numeral]:
    """One breakage's pass of _join_pieces."""
    x, y, w, h = np.array([c.box for c in candidates], float).reshape(-1, 4).T
    result: list[_Numeral | None] = list(candidates)
    used: set[int] = set()
    for index, numeral in enumerate(candidates):
        if index in used or numeral.probabilities[REJECT] >= 0.5 or not breakage.seeks(numeral):
            continue
        # A cheap necessary test first (every breakage's piece overlaps the numeral's height
        # within LOOSE_GAP of it): a dotted table leaves thousands of unread candidates.
        beside = np.flatnonzero(
            (np.maximum(x - x[index] - w[index], x[index] - x - w)
             < LOOSE_GAP * np.maximum(h, h[index])) & (y < y[index] + h[index]) & (y + h > y[index]))
        # A piece beyond a card's edge is the next card's (unseen tuning seed 6022: the lone 0
        # of a turned 10, its 1 beyond the frame, joined the 11 on the card touching it, and
        # the whole read as a sure 10 at the 11's place).
        piece = next((j for j in beside.tolist() if j != index and j not in used
                      and breakage.fits(numeral, candidates[j])
                      and not _edge_between(*sorted((_as_blob(numeral.box),
                                                     _as_blob(candidates[j].box))), ink)),
                     None)
        if piece is None:
            continue
        other = candidates[piece]
        box = _union([_as_blob(numeral.box), _as_blob(other.box)])
        whole = _classified(ink, [box])[0]
        if whole[REJECT] < 0.5 and breakage.whole_reads(whole):
            used |= {index, piece}
            result[index] = _orient_six_or_nine(_Numeral(
                box, numeral.labels + other.labels, whole, numeral.bar or other.bar))
            result[piece] = None
            continue
        result[index] = replace(numeral, probabilities=_doubted(numeral.probabilities))
        used.add(index)
        if breakage.doubts_piece:
            used.add(piece)
            result[piece] = replace(other, probabilities=_doubted(other.probabilities))
    return [c for c in result if c is not None]


def _as_blob(box: tuple[float, float, float, float]) -> Blob:
    x, y, w, h = box
    return int(x), int(y), int(w), int(h), 0


def _doubted(probabilities: np.ndarray) -> np.ndarray:
    """A lone digit with a digit-like blob beside it, unjoined: perhaps half a number, so at
    best unsure (its number's odds capped below SURE), though still a numeral."""
    doubted = probabilities.copy()
    doubted[:REJECT] *= min(1.0, 0.7 / max(float(_number_odds(probabilities).max()), 1e-6))
    doubted[REJECT] = 0
    doubted[REJECT] = min(0.45, 1 - doubted.sum())
    return doubted / doubted.sum()


def _line() -> np.ndarray:
    """The classes of a glyph too thin for any digit: no numeral."""
    probabilities = np.zeros(REJECT + 1, np.float32)
    probabilities[REJECT] = 1
    return probabilities


def _narrow_is_one(probabilities: np.ndarray) -> np.ndarray:
    """A glyph too narrow for any digit but 1: a thin 1 of an unseen typeface is what the
    classifier mistakes for a 7, 9 or 3. No other number may be sure: their odds are scaled down
    to 0.7 at most, and what they lose goes to the 1 (which gets 0.3 at most by it)."""
    others = _number_odds(probabilities)[1:].max()
    if others <= 0.7:
        return probabilities
    narrowed = probabilities.copy()
    narrowed[2:REJECT] *= 0.7 / others  # every number but 1 (classes 0 and 1)
    lost = float(probabilities[2:REJECT].sum() - narrowed[2:REJECT].sum())
    ones = probabilities[:2].sum()
    narrowed[:2] += lost * (probabilities[:2] / ones if ones > 0 else 0.5)
    return narrowed


def _orient_six_or_nine(numeral: _Numeral) -> _Numeral:
    """A 6 turned 180° is a 9: only the deck's bar under 6 and 9 tells which way a card lies.

    The classifier tells the shape in this frame well (loop low: a 6 upright or a 9 turned), but
    its guess at the card's way up, learnt from a few typefaces' fine details, does not carry to
    other decks. So the bar decides: under the digit, the card is upright; over it, turned. With
    no bar the number is left even between 6 and 9 (unsure, unless the card's place on the Plaza
    settles it, P5): a guess could flip a Plaza's verdict."""
    p = numeral.probabilities
    six_up, six_down, nine_up, nine_down = 10, 11, 16, 17  # classes 2k, 2k+1: number k+1
    loop_low, loop_high = p[six_up] + p[nine_down], p[nine_up] + p[six_down]
    if loop_low + loop_high < 0.5:
        return numeral  # not mostly a 6/9 shape
    oriented = p.copy()
    oriented[[six_up, six_down, nine_up, nine_down]] = (
        (loop_low, 0, loop_high, 0) if numeral.bar == 1 else
        (0, loop_high, 0, loop_low) if numeral.bar == -1 else
        (loop_low / 2, loop_high / 2, loop_high / 2, loop_low / 2))
    return replace(numeral, probabilities=oriented)


def _orient_by_index(numeral: _Numeral, ink: np.ndarray, ink_mask: np.ndarray,
                     card_size: tuple[float, float]) -> _Numeral:
    """An unmarked 6 or 9 turned the right way by the card's corner indices, where it has them.

    Decks print the index upright at the card's own top-left and turned at its bottom-right, so
    whichever way the card lies, the index at the top-left of the frame reads upright: a loop
    low there is a 6, a loop high a 9 (at the bottom-right, the reverse). Only which side the
    index's loop is on is used, not its shape: indices are tiny, and that cue is the same in
    every typeface. Both corners must agree where both are seen."""
    p = numeral.probabilities
    six_up, six_down, nine_down = 10, 11, 17
    if numeral.bar or p[six_up] != p[nine_down] or p[six_up] + p[six_down] < 0.25:
        return numeral  # not an even 6/9 (_orient_six_or_nine evens an unmarked one)
    votes = {_index_loop(ink, ink_mask, numeral, card_size, corner) for corner in (1, -1)}
    votes.discard(0)
    if len(votes) != 1:
        return numeral  # no index seen, or the two corners disagree
    six = votes.pop() == 1  # loop low at the top-left (or high at the bottom-right): a 6
    loop_low = p[six_up] + p[nine_down]  # the big numeral's shape in this frame
    # The big numeral lies upright in this frame when its loop is where the index's number puts
    # it: that is what a bar under it would have said.
    upright = (loop_low >= 0.5) == six
    return _orient_six_or_nine(replace(numeral, bar=1 if upright else -1))


def _index_loop(ink: np.ndarray, ink_mask: np.ndarray, numeral: _Numeral,
                card_size: tuple[float, float], corner: int) -> int:
    """The index in the card's top-left (corner 1) or bottom-right (corner -1) of this frame:
    1 if it reads as a 6 (loop low at the top-left, high at the bottom-right), -1 as a 9, 0 if
    no single index-sized blob is there or its loop side is unclear."""
    x0, y0, x1, y1 = _card_box(numeral, card_size)
    width, height = x1 - x0, y1 - y0
    # The index sits about 12% of the width and 8% of the height in from the corner; the box is
    # centred on the numeral, which decks print a little above or below the card's centre.
    zone_x = (x0, x0 + 0.25 * width) if corner == 1 else (x1 - 0.25 * width, x1)
    zone_y = (y0 - 0.05 * height, y0 + 0.22 * height) if corner == 1 else \
        (y1 - 0.22 * height, y1 + 0.05 * height)
    zx0, zx1 = (int(np.clip(v, 0, ink.shape[1])) for v in zone_x)
    zy0, zy1 = (int(np.clip(v, 0, ink.shape[0])) for v in zone_y)
    if zx1 - zx0 < 4 or zy1 - zy0 < 4:
        return 0
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink_mask[zy0:zy1, zx0:zx1],
                                                               connectivity=8)
    tall = numeral.box[3]
    blobs = [label for label in range(1, count)
             if 0.1 * tall <= stats[label, 3] <= 0.45 * tall
             and 0.35 * stats[label, 3] <= stats[label, 2] <= 1.0 * stats[label, 3]
             and stats[label, 4] >= 0.15 * stats[label, 2] * stats[label, 3]]
    if len(blobs) != 1:
        return 0
    x, y, w, h, _ = stats[blobs[0]]
    # The loop is the blob's hole (the paper it rings): where it lies, from the blob's middle,
    # in its heights. (The ink's weight will not do: a 9's tail weighs as much as its loop.)
    background = np.pad((labels[y:y + h, x:x + w] != blobs[0]).astype(np.uint8), 1,
                        constant_values=1)
    count, _, hole_stats, centres = cv2.connectedComponentsWithStats(background, connectivity=4)
    inner = [label for label in range(1, count)  # not the paper around the blob
             if hole_stats[label, 0] > 0 and hole_stats[label, 1] > 0
             and hole_stats[label, 0] + hole_stats[label, 2] < w + 2
             and hole_stats[label, 1] + hole_stats[label, 3] < h + 2]
    if not inner:
        return 0
    loop = max(inner, key=lambda label: hole_stats[label, 4])
    # A loop that blur leaves open shows at least two pixels of paper across and high; a single
    # pixel left in a notch of a blurred index a few pixels tall is no loop (unseen tuning seed
    # 6014: a 6 px Red 9 index's one-pixel gap at its foot read as a 6's loop, and turned its
    # card's 9 into a sure 6, a wrong card).
    if min(hole_stats[loop, 2], hole_stats[loop, 3]) < 2:
        return 0
    low = (centres[loop][1] - 1 - h / 2) / h
    if abs(low) < 0.08:
        return 0
    return corner if low > 0 else -corner


Blob = tuple[int, int, int, int, int]  # x, y, w, h, label of an ink component
# A numeral's group: its box, its ink labels, its mark's side, its crowders (_group_digits).
Group = tuple[tuple[float, float, float, float], tuple[int, ...], int, tuple[Blob, ...]]


def _group_digits(blobs: list[Blob], cut: list[Blob], ink: np.ndarray
                  ) -> list[tuple[tuple[float, float, float, float], tuple[int, ...], int,
                                  tuple[Blob, ...]]]:
    """Join two digits side by side (10, 11, 12) and a flat bar just under or over a digit (the
    mark of 6 and 9). Returns (box, labels, bar, crowders) per group; bar is 1 for a bar under
    the digits, -1 for one over them, 0 for none (a lone digit's full stop is looked for once
    it reads as a numeral: _find_numerals); a lone digit's crowders are the lone blobs
    near it that could be its other digit (then it may be no sure reading: a 12 read as 2 would
    flip a Plaza's verdict), and those the frame's edge `cut` (12 turned, its 1 beyond the frame).
    Digits of next cards mostly lie further apart: a card is wider than its numeral's height."""
    digits = [b for b in blobs if _digit_like(b)]
    bars = [b for b in blobs if not _digit_like(b)]
    # The closest fitting pairs first: a frame's edge or a picture beside a numeral can pass for a
    # digit of about its height, but not of its height and baseline as well as its partner.
    others = digits + cut  # an index past the digits names a cut blob
    nearby = _line_neighbours(others, len(digits))  # cut blobs are only looked at
    centres = [d[0] + d[2] / 2 for d in digits]
    # A line (a frame's side, which blur and noise break into pieces of a digit's height) is
    # no digit: paired with the 9 beside it, the pair read as a sure 10 (unseen seed 3001).
    fitting = sorted((_pair_misfit(first, digits[j]), i, j)
                     for i, first in enumerate(digits) for j in nearby[i]
                     if j < len(digits) and centres[i] < centres[j]
                     and not _a_line(first) and not _a_line(digits[j])
                     and _pair_misfit(first, digits[j], faded=True) < 1
                     and not any(_between(digits[k], first, digits[j])
                                 for k in nearby[i] if k < len(digits)))
    # Pairs that fit only as a 1 beside a digit whose hairlines faded are taken last.
    pairs = [pair for pair in fitting if pair[0] < 1] \
        + _read_as_faded_pairs([pair for pair in fitting if pair[0] >= 1], digits, ink)
    # A lone digit that fits as the partner of a digit paired otherwise may be half of a number
    # all the same: its neighbour crowds it (also one across a card's edge: its own partner may
    # be lost, and read alone it would pass for a sure number).
    fits = {(i, j) for _, i, j in pairs} | {(j, i) for _, i, j in pairs}
    partner = _partners([pair for pair in pairs
                         if not _edge_between(digits[pair[1]], digits[pair[2]], ink)],
                        digits, ink)
    result = []
    for i, digit in enumerate(digits):
        if partner.get(i, len(digits)) < i:
            continue  # joined to the digit on its left
        group = [digit] if i not in partner else [digit, digits[partner[i]]]
        crowders = () if i in partner else tuple(
            other for other in [others[j] for j in nearby[i]
                                if j != i and (j not in partner or (i, j) in fits)]
            if _pair_misfit(*sorted((digit, other), key=lambda b: b[0] + b[2] / 2), loose=True) < 1)
        x0, y0, w, h = _union(group)
        side = 0
        marks = []
        # Only 6 and 9 are marked, lone digits: a bar under two digits is artwork (unseen tuning
        # seed 4042: a piece of a card's frame line, in a frame 11 degrees off the card's axes,
        # joined its 12, which then read as an 11 and, its box taller, won over the right frame).
        for bar in bars if len(group) == 1 else ():
            bx, by, bw, bh, _ = bar
            centred = x0 - 0.2 * h < bx + bw / 2 < x0 + w + 0.2 * h and bw > 1.5 * bh
            near = -0.35 * h < by - (y0 + h) < 0.35 * h or -0.35 * h < y0 - (by + bh) < 0.35 * h
            # The mark underlines the digit: a flat shape wider than it (a stripe of artwork, a
            # frame) would set the 6/9 way up wrongly.
            if centred and near and bw < 1.1 * w + 4:
                marks.append(bar)
        # One bar is the mark; bars over and under a digit are artwork (stripes): neither is
        # joined (seed 100126: a 2 between two stripes was read as a sure 6).
        if len(marks) == 1:
            group.append(marks[0])
            side = 1 if marks[0][1] + marks[0][3] / 2 > y0 + h / 2 else -1
        elif len(group) == 1:
            group += _top_stroke(digit, bars)
        result.append((_union(group), tuple(b[4] for b in group), side, crowders))
    return result


# A card's edge (its cut side, the shadow between touching cards) is darker than the paper
# beside it by EDGE_LINE at least somewhere along it, and by EDGE_TRACE all along (the blur of
# a slanted or low photo thins it); the paper between two digits of one number varies less.
EDGE_LINE, EDGE_TRACE = 0.15, 0.06


def _edge_between(first: Blob, second: Blob, ink: np.ndarray) -> bool:
    """Whether the paper between two digits (first on the left) holds a line running across
    their line, over them, between them and under them: the edge of the card that one of them
    lies on. A number's two digits lie on one card; on touching cards in a row, numerals as
    wide as their cards set the digits of next cards about as close as a number's own (unseen
    tuning seed 6058: a turned 11's first 1 with the turned 10's 1 beside it, read as a sure
    11), but the cards' edges lie between those. Each strip's columns between the digits are
    weighed against the paper: over and under them, from one digit's centre to the other's;
    between them, the paper over and under. The line must run through the same columns of all
    three (give or take a twentieth of the digits' height, for a frame a little off the cards'
    axes; the blur beside a digit's stroke is no line), as an edge does and no artwork printed
    over and under a numeral (an emblem, a title) does (unseen tuning seed 4023: stars over and
    under a wide 11). Digits too close for that are not parted."""
    x0, x1 = int(math.ceil(first[0] + first[2])), int(second[0])
    if x1 - x0 < 2:
        return False
    top = min(first[1], second[1])
    foot = max(first[1] + first[3], second[1] + second[3])
    height = max(first[3], second[3])
    span = slice(max(0, int(first[0] + first[2] / 2)), int(second[0] + second[2] / 2) + 1)
    profiles, papers = [], []
    for start, stop in ((top - 0.5 * height, top - 0.1 * height),
                        (foot + 0.1 * height, foot + 0.5 * height)):
        rows = slice(max(0, int(start)), min(ink.shape[0], int(stop)))
        if rows.stop - rows.start < 2:  # the frame cuts the strip: no edge seen
            return False
        columns = np.median(ink[rows, span], axis=0)
        papers.append(np.median(columns))
        profiles.append(columns[x0 - span.start:x1 - span.start] - papers[-1])
    between = np.median(ink[int(top):int(math.ceil(foot)), x0:x1], axis=0) - min(papers)
    near = int(0.05 * height) + 1  # beside a stroke, its blur darkens the paper
    between[:near] = between[-near:] = 0
    profiles.append(between)
    reach = np.ones((1, 2 * near - 1), np.uint8)
    along = np.min([cv2.dilate(profile.astype(np.float32)[None], reach)[0]
                    for profile in profiles], axis=0)
    return along.max() >= EDGE_TRACE and max(profile.max() for profile in profiles) >= EDGE_LINE


def _between(blob: Blob, first: Blob, second: Blob) -> bool:
    """Whether a blob stands between two digits, on their line and half their height at least,
    and no line: then they are no number's two digits, which stand side by side (the left arc
    of a 0 that lost its hairlines stands between its 1 and its right arc)."""
    x, y, w, h, _ = blob
    top, foot = max(first[1], second[1]), min(first[1] + first[3], second[1] + second[3])
    return first[0] + first[2] / 2 < x + w / 2 < second[0] + second[2] / 2 \
        and top < y + h / 2 < foot and h >= (foot - top) / 2 and not _a_line(blob)


# A chain of digits that may pair with more than this many pairs in it is paired greedily: a
# polka cloth's dots chain by the hundred, and trying every pairing of them would not end.
LONGEST_CHAIN = 12


def _chain_heads(links: Iterable[tuple[int, int]]) -> Callable[[int], int]:
    """Each item's chain, for items linked directly or through others (union-find): the function
    returns the chain's head, one item the same for every item of the chain."""
    parent: dict[int, int] = {}

    def head(item: int) -> int:
        while parent.setdefault(item, item) != item:
            item = parent[item]
        return item

    for first, second in links:
        parent[head(first)] = head(second)
    return head


def _partners(pairs: list[tuple[float, int, int]], digits: list[Blob], ink: np.ndarray
              ) -> dict[int, int]:
    """Each paired digit's partner, from the pairs that fit (misfit, left, right, closest
    first). Where a digit may pair on either side (a chain of digits), numerals as wide as
    their cards, on cards touching in a row, set the digits of next cards about as close as a
    number's own (unseen seeds 5054 and 6052: the closest fit took a 1 of an 11 with the next
    card's 0, or a turned 10's 0 with the digit of the card before it, and left the other digit
    alone). The chain's pairs are read and the best way to take pairs, each digit once, is
    taken (_best_pairing: a pair that reads as a sure 10, 11 or 12 is a number's two digits).
    A chain too long to read (LONGEST_CHAIN) is paired greedily, closest fit first, and so is
    what the best way leaves."""
    root = _chain_heads((i, j) for _, i, j in pairs)
    chains: dict[int, list[tuple[float, int, int]]] = {}
    for pair in pairs:
        chains.setdefault(root(pair[1]), []).append(pair)
    # Only pairs that fit nearly as well as the chain's closest are weighed against it: one
    # typeface kerns all its numbers alike, and a gap far wider than a number's own is the
    # gap between cards (unseen full-deck photo of seed 3024: 0 1 1 1 of a 10, an 11 and a 12
    # on a slant, read as a sure turned 10 and a sure 11 across the cards).
    close = {name: [pair for pair in chain if pair[0] <= 2 * chain[0][0]]
             for name, chain in chains.items()}
    read = [pair for near in close.values() if 1 < len(near) <= LONGEST_CHAIN for pair in near]
    boxes = [_union([digits[i], digits[j]]) for _, i, j in read]
    readings = dict(zip(read, zip(_classified(ink, boxes) if boxes else [], boxes, strict=True),
                        strict=True))
    partner: dict[int, int] = {}
    for name, chain in chains.items():
        near = close[name]
        chosen = _best_pairing(near, [readings[pair] for pair in near]) \
            if 1 < len(near) <= LONGEST_CHAIN else []
        chosen += _greedy_pairing(chain, {blob for pair in chosen for blob in pair[1:]})
        for _, i, j in chosen:
            partner[i], partner[j] = j, i
    return partner


def _greedy_pairing(pairs: list[tuple[float, int, int]], taken: set[int]
                    ) -> list[tuple[float, int, int]]:
    """The pairs taken closest fit first, each blob once, none of those `taken` already."""
    taken = set(taken)
    chosen = []
    for pair in pairs:
        if not taken & {pair[1], pair[2]}:
            taken |= {pair[1], pair[2]}
            chosen.append(pair)
    return chosen


def _best_pairing(pairs: list[tuple[float, int, int]],
                  readings: list[tuple[np.ndarray, tuple[float, float, float, float]]]
                  ) -> list[tuple[float, int, int]]:
    """Of the ways to take pairs, each digit once (`readings`: each pair's probabilities and
    box): the one with the most pairs that are pieces of one digit (read as no numeral,
    together no wider than tall, as _join_by_faint_ink would join them: a display face's 0
    whose hairlines faded leaves two arcs, and an arc beside the 1 reads as a sure 11, unseen
    seed 6054), then the most pairs read as a sure 10, 11 or 12 (a pair across two cards
    may read as a number, but rarely as a sure one: only where the cards' numbers are alike,
    and then the best fit decides), then the most pairs, then the least misfit."""
    sure = [float(_number_odds(probabilities)[9:12].max()) >= SURE
            for probabilities, _ in readings]
    pieces = [probabilities[REJECT] >= 0.5 and box[2] <= box[3]
              for probabilities, box in readings]
    best: tuple[tuple[int, int, int, float], list[tuple[float, int, int]]] = ((0, 0, 0, 0.0), [])

    def extend(start: int, taken: frozenset[int], chosen: list[int]) -> None:
        nonlocal best
        rank = (sum(pieces[index] for index in chosen), sum(sure[index] for index in chosen),
                len(chosen), -sum(pairs[index][0] for index in chosen))
        if rank > best[0]:
            best = (rank, [pairs[index] for index in chosen])
        for index in range(start, len(pairs)):
            _, i, j = pairs[index]
            if i not in taken and j not in taken:
                extend(index + 1, taken | {i, j}, [*chosen, index])

    extend(0, frozenset(), [])
    return best[1]


def _top_stroke(digit: Blob, bars: list[Blob]) -> list[Blob]:
    """The flat stroke over a lone digit's head, too wide for a mark (_group_digits) but no
    wider than a digit is tall, as one piece with it (or none): glare or blur thins the join of
    a 7's or a 5's top bar below INK, and the stroke beneath, read alone, passes for a 1 (unseen
    seed 3031: a 7's bar lay a third of its height above its stem, and the bar, read across the
    card, won as a sure 1). On a card turned 180 degrees the head is down: the stroke may lie
    under the digit as well (unseen seed 6053: three turned 5s of a display face, their flags
    apart, read as sure 1s). A stroke is a tenth of the digit's height thick at least: the
    hairline of a frame printed just over a small numeral is none."""
    x, y, w, h, _ = digit
    strokes = [bar for bar in bars
               if 1.1 * w + 4 <= bar[2] <= h and bar[3] >= 0.1 * h
               and -0.15 * h <= max(y - (bar[1] + bar[3]), bar[1] - (y + h)) <= 0.5 * h
               and bar[0] < x + w and x < bar[0] + bar[2]]
    return strokes if len(strokes) == 1 else []


def _a_line(box: Sequence[float]) -> bool:
    """Whether a box (x, y, w, h, ...) is too thin for any digit: a line (THINNEST)."""
    return box[2] < THINNEST * box[3]


LEAST_DIGIT = 9  # (px) in a reading frame, shorter ink is a speck or a 6/9's mark, not a digit


def _digit_sized(boxes: np.ndarray) -> np.ndarray:
    """Which boxes (rows x, y, w, h) are sized as digits: LEAST_DIGIT tall and 0.2 as wide as
    tall at least (the narrowest 1 of 113 typefaces is 0.23 as wide as tall)."""
    return (boxes[:, 3] >= LEAST_DIGIT) & (boxes[:, 2] >= 0.2 * boxes[:, 3])


def _digit_like(blob: Blob) -> bool:
    """Tall enough for a digit (else flat: perhaps the bar of a 6 or a 9)."""
    return blob[3] >= 0.6 * blob[2] or blob[3] >= 14


# Two blobs that might be digits of one number (loosely): their tops or feet at most this
# share of the taller's height apart, and the gap between them at most this share of it.
LOOSE_SHIFT, LOOSE_GAP = 0.5, 0.8


def _line_neighbours(blobs: list[Blob], first: int | None = None, block: int = 256
                     ) -> list[list[int]]:
    """For each blob (each of the `first` ones, if given), the others that may pass
    _pair_misfit(loose=True) < 1 with it, in order: on its line (tops within LOOSE_SHIFT of the
    taller's height) and at most LOOSE_GAP of it apart. A cheap necessary test, so that pairing
    stays near linear: a polka cloth leaves thousands of digit-sized dots, and testing every pair
    of them took seconds. Rows are compared `block` at a time, top to bottom, each block only
    with the blobs whose tops lie within LOOSE_SHIFT of the tallest blob's height of its tops, so
    memory stays bounded and the work near linear however many blobs there are; only the rows
    asked for: the thousands left unread look for nothing."""
    x, y, w, h = np.array([b[:4] for b in blobs], float).reshape(-1, 4).T
    looking = len(blobs) if first is None else first
    near: list[list[int]] = [[] for _ in range(looking)]
    if not looking:
        return near
    by_top = np.argsort(y, kind="stable")
    tops = y[by_top]
    reach = LOOSE_SHIFT * h.max()
    order = np.argsort(y[:looking], kind="stable")
    for start in range(0, looking, block):
        rows = order[start:start + block]
        window = slice(np.searchsorted(tops, y[rows].min() - reach, side="left"),
                       np.searchsorted(tops, y[rows].max() + reach, side="right"))
        columns = np.sort(by_top[window])
        xi, yi, wi, hi = (v[rows, None] for v in (x, y, w, h))
        xj, yj, wj, hj = (v[None, columns] for v in (x, y, w, h))
        tallest = np.maximum(hj, hi)
        apart = np.maximum(xj - (xi + wi), xi - (xj + wj))  # the gap from the left one by centre
        close = (np.abs(yj - yi) < LOOSE_SHIFT * tallest) & (apart < LOOSE_GAP * tallest)
        for row, found in zip(rows, close, strict=True):
            near[row] = columns[found].tolist()
    return near


def _dot_like(w: int, h: int, area: int) -> bool:
    """A small round blob: a full stop's size and shape."""
    return h >= 3 and 0.6 * h <= w <= 1.7 * h and area >= 0.5 * w * h


def _spots(blobs: list[Blob]) -> np.ndarray:
    """Blobs as rows (x, y, w, h, centre x, centre y), sorted by centre x: _dot_side looks only
    at those beside a digit, not at all of a dotted table's thousands."""
    boxes = np.array([b[:4] for b in blobs], np.float64).reshape(-1, 4)
    rows = np.hstack([boxes, boxes[:, :2] + boxes[:, 2:] / 2])
    return rows[np.argsort(rows[:, 4], kind="stable")]


def _dot_side(box: tuple[float, float, float, float], spots: np.ndarray) -> int:
    """Decks that mark 6 and 9 with a full stop ("6.", "9.") print it after the digit, at its
    foot; turned 180°, it lies before the digit, at its head. 1 for a single such dot at the
    foot, -1 at the head, 0 for none or more than one (`spots`: the blobs, as _spots gives).
    The dot sits on the baseline, but in a frame turned off the card's axes it swings round the
    digit's centre: at 27 degrees its centre rises to 0.69 of the digit's height (unseen tuning
    seed 6047: a frame along a polka table's edges, where a sure 6 was left "6 or 9"), so the
    foot (head) reaches up (down) to 0.65 (0.35) of the height."""
    x0, y0, w, h = box
    start = np.searchsorted(spots[:, 4], x0 - 0.4 * h, side="left")
    stop = np.searchsorted(spots[:, 4], x0 + w + 0.4 * h, side="right")
    _, _, bw, bh, cx, cy = spots[start:stop].T
    dot = (0.05 * h <= bh) & (bh <= 0.3 * h) & (0.6 * bh <= bw) & (bw <= 1.7 * bh)
    foot = dot & (x0 + w - 0.1 * h <= cx) & (cx <= x0 + w + 0.4 * h) \
        & (y0 + 0.65 * h <= cy) & (cy <= y0 + 1.1 * h)
    head = dot & ~foot & (x0 - 0.4 * h <= cx) & (cx <= x0 + 0.1 * h) \
        & (y0 - 0.1 * h <= cy) & (cy <= y0 + 0.35 * h)
    if int(foot.sum() + head.sum()) != 1:
        return 0
    return 1 if foot.any() else -1


def _pair_misfit(first: Blob, second: Blob, loose: bool = False, faded: bool = False) -> float:
    """How badly two blobs (first on the left) fit as the two digits of one number: below 1 they
    do. Digits of a number share their height and lie on one line (which a frame turned a little
    off the card's axes tilts), within about half a height of each other: decks differ in
    kerning and digit width (a monospaced 1 stands well apart). `loose` widens every tolerance,
    for blobs that might be digits; `faded` lets a digit shorter than its partner at both ends
    (inside its span) be FADED_SHORTFALL shorter: a 1 beside a digit whose hairlines faded
    (_read_as_faded_pairs)."""
    _, y1, _, h1, _ = first
    x2, y2, _, h2, _ = second
    h = max(h1, h2)
    gap = (x2 - (first[0] + first[2])) / h
    if gap < -0.3:
        return math.inf
    shift = max(abs(y1 - y2), abs(y1 + h1 - y2 - h2)) / h
    inside = y1 < y2 and y2 + h2 < y1 + h1 if h1 > h2 else y2 < y1 and y1 + h1 < y2 + h2
    return max(shift / (LOOSE_SHIFT if loose else 0.3),
               max(gap, 0) / (LOOSE_GAP if loose else 0.6),
               (1 - min(h1, h2) / h) / (0.35 if loose else FADED_SHORTFALL if faded and inside
                                         else 0.2))


# A high-contrast (display) serif draws a 2's crest and foot as horizontal hairlines, which
# blur, noise and JPEG thin out of the ink, while the 1 beside it is a thick stem spanning the
# figures' full height (lining figures share one height): the 2 left measures short at both
# ends (unseen tuning seed 3034: 0.75-0.8 of its 1). Up to this share of the 1's height may
# be lost so.
FADED_SHORTFALL = 0.3


def _read_as_faded_pairs(pairs: list[tuple[float, int, int]], digits: list[Blob],
                         ink: np.ndarray) -> list[tuple[float, int, int]]:
    """Of pairs (misfit, left, right) that fit only with the shorter digit's hairlines faded
    (_pair_misfit faded=True), those whose taller digit reads alone as a sure 1, the shorter
    as a digit, most likely a 2, and the two together as a sure 12: only a 2's crest and foot
    are hairlines (a 1 is a stem; a faded 0 breaks into arcs: _best_pairing). A shorter blob
    inside a taller one's span is more often a piece of artwork, no digit (held-out emblems'
    pieces 0.65-0.8 of a piece's height beside them; seed 100028: a narrow piece read as a sure
    1, with a wide one read as no numeral, as a sure 10), and a 1 and the next card's 2 are
    parted by the gap and the cards' edge as any pair is."""
    if not pairs:
        return []
    members = [sorted((digits[i], digits[j]), key=lambda b: -b[3]) for _, i, j in pairs]
    boxes = [box for taller, shorter in members
             for box in (taller[:4], shorter[:4], _union([taller, shorter]))]
    readings = _classified(ink, boxes).reshape(len(pairs), 3, -1)
    return [pair for pair, (one, other, both) in zip(pairs, readings, strict=True)
            if _number_odds(one)[0] >= SURE and other[REJECT] < 0.5
            and int(np.argmax(_number_odds(other))) == 1 and _number_odds(both)[11] >= SURE]


def _union(blobs: list[Blob]) -> tuple[float, float, float, float]:
    """The box (x, y, w, h) around blobs given as (x, y, w, h, label)."""
    x0 = min(b[0] for b in blobs)
    y0 = min(b[1] for b in blobs)
    x1 = max(b[0] + b[2] for b in blobs)
    y1 = max(b[1] + b[3] for b in blobs)
    return x0, y0, x1 - x0, y1 - y0


def _card_size(numerals: list[_Numeral], card_shaped: bool, region_size: tuple[float, float],
               card_width: float | None) -> tuple[float, float] | None:
    """Card width and height in the upright frame: a lone card's own outline, else the spacing
    of neighbours in a row (cards in a Plaza row touch), else the pack's card width (from the
    cards read), else None."""
    if card_shaped and len(numerals) == 1 and region_size[1] > region_size[0]:
        return region_size
    centres = np.array([(x + w / 2, y + h / 2, h) for x, y, w, h in
                        (numeral.box for numeral in numerals)])
    spacings = []
    for x, y, h in centres:
        same_row = np.abs(centres[:, 1] - y) < 0.4 * h
        dx = centres[same_row, 0] - x
        dx = dx[(dx > 1.2 * h) & (dx < 4.0 * h)]
        if dx.size:
            spacings.append(dx.min())
    width = float(np.median(spacings)) if spacings else card_width
    return (width, width * CARD_ASPECT) if width else None


def _card_size_from_paper(numerals: list[_Numeral], card_paper: _PaperShare,
                          card_shaped: bool) -> tuple[float, float]:
    """Card width and height when neither an outline nor neighbours tell them: a typical card
    for its numeral; but on a piece of paper (a pattern or the table's print cut the card) whose
    typical box is not mostly paper, the largest smaller box that is, where the paper ends just
    beyond it: the card's edge (decks print numerals up to half the card's height). A box inside
    the paper (a fragment of a numeral, an index) is no card. Never larger than typical: paper
    beyond a card (the next card, a pale table) would swell it over its neighbours. In a lone
    card's outline, typical: its fragments would fit a small card there."""
    widths = []
    for numeral in numerals:
        x, y, w, h = numeral.box
        centre = (x + w / 2, y + h / 2)
        smaller = [] if card_shaped else np.linspace(TYPICAL_CARD, SMALLEST_CARD, 8)[1:] * h
        widths.append(next((width for width in smaller
                            if _box_paper(card_paper, centre, width) >= 0.75
                            and _paper_ends_at(card_paper, centre, width)), TYPICAL_CARD * h))
    width = float(np.median(widths))
    return width, width * CARD_ASPECT


def _box_paper(card_paper: _PaperShare, centre: tuple[float, float], width: float) -> float:
    """The paper share of a card box of `width` centred at `centre`."""
    cx, cy = centre
    return card_paper(cx - width / 2, cy - width * CARD_ASPECT / 2,
                      cx + width / 2, cy + width * CARD_ASPECT / 2)


def _paper_ends_at(card_paper: _PaperShare, centre: tuple[float, float], width: float) -> bool:
    """Whether the ring just around a card box (a few percent of the card wide) is mostly not
    paper: the box's edge is the card's."""
    outer = 1.15 * width
    ring = (_box_paper(card_paper, centre, outer) * outer ** 2
            - _box_paper(card_paper, centre, width) * width ** 2) / (outer ** 2 - width ** 2)
    return ring < 0.5


def _settle_by_place(numerals: list[_Numeral], card_size: tuple[float, float]
                     ) -> list[_Numeral]:
    """On a Plaza a card's column is fixed by its number (P5): a numeral the classifier hesitates
    on (6 or 9 turned 180°, a blurred 3 or 8) takes the number its surely-read neighbours imply,
    when they agree and the classifier gave that number some weight."""
    if len(numerals) < 2:
        return numerals
    width, height = card_size
    centres = np.array([(x + w / 2, y + h / 2) for x, y, w, h in (n.box for n in numerals)])
    numbers = np.array([int(np.argmax(_number_probabilities(n))) + 1 for n in numerals])
    sure = np.array([_number_probabilities(n).max() >= 0.97 for n in numerals])
    steps = np.round((centres[:, 0][:, None] - centres[:, 0][None, :]) / width)
    rows_apart = np.abs(centres[:, 1][:, None] - centres[:, 1][None, :]) / height
    same_row = rows_apart < 0.4
    # Which way numbers grow along the rows (the photo may be taken from any side).
    votes = [np.sign(numbers[i] - numbers[j]) * np.sign(steps[i, j])
             for i in range(len(numerals)) for j in range(len(numerals))
             if sure[i] and sure[j] and same_row[i, j] and steps[i, j] != 0
             and abs(numbers[i] - numbers[j]) == abs(steps[i, j])]
    direction = int(np.sign(sum(votes)))
    settled = []
    for i, numeral in enumerate(numerals):
        probabilities = _number_probabilities(numeral)
        # The numbers the classifier gave some weight, that every sure neighbour allows: the
        # next card along the row is one more or one less (which, when the row's direction is
        # not known), the next card up or down the column the same number. Only next cards: a
        # tilted photo bends the grid, so cards further away can seem a column off.
        possible = {number for number in range(1, 13) if probabilities[number - 1] >= 0.2}
        neighbours = 0
        for j in range(len(numerals)):
            if j == i or not sure[j]:
                continue
            if same_row[i, j] and abs(steps[i, j]) == 1:
                possible &= {int(numbers[j] + way * steps[i, j])
                             for way in ((direction,) if direction else (1, -1))}
            elif steps[i, j] == 0 and 0.4 <= rows_apart[i, j] < 1.6:
                possible &= {int(numbers[j])}
            else:
                continue
            neighbours += 1
        if sure[i] or not neighbours or len(possible) != 1:
            settled.append(numeral)
            continue
        number = possible.pop()
        up, down = numeral.probabilities[2 * number - 2], numeral.probabilities[2 * number - 1]
        adjusted = np.zeros_like(numeral.probabilities)
        adjusted[2 * number - 2 if up >= down else 2 * number - 1] = \
            0.9 + 0.1 * probabilities[number - 1]
        adjusted[REJECT] = 1 - adjusted.sum()
        settled.append(replace(numeral, probabilities=adjusted))
    return settled


def _row_axis(found: list[_Reading]) -> float | None:
    """The rows' direction in the photo (radians, mod pi) from the cards read for sure; cards on
    a Plaza lie alike. None without two such cards."""
    tops = np.array([r.frame[1] - r.frame[0] for r in found if isinstance(r.item, SeenCard)])
    if len(tops) < 2:
        return None
    return float(np.angle(np.sum(np.exp(2j * np.arctan2(tops[:, 1], tops[:, 0]))))) / 2


def _settle_on_grid(found: list[_Reading], hopeful: frozenset[int] = frozenset()
                    ) -> list[_Reading]:
    """P5 fixes a card's column by its number, across the whole Plaza: an unsure card whose
    classifier hesitates between numbers far apart (an unmarked 6 or 9 turned, in a column of
    its own) takes the one its place among the nearest sure cards predicts. Rows and blocks are
    crossed, unlike _settle_by_place, and a settled card helps settle the next one along a
    column. Only a clear winner is taken (within 0.75 of a column, the others more than 1.75
    away): a tilted photo bends the grid. Readings whose frame's id is `hopeful` (read unsure
    beside a row's card, where the table may lie) are kept only if made sure, by the grid or
    the deck's inks, in an ink as deep as print (_as_deep_as_print)."""
    for _ in range(4):
        settled = _settle_on_grid_once(found)
        if sum(isinstance(r.item, SeenCard) for r in settled) \
                == sum(isinstance(r.item, SeenCard) for r in found):
            break
        found = settled
    pack_depth = _ink_depth(settled)
    return [r for r in settled if id(r.frame) not in hopeful
            or isinstance(r.item, SeenCard) and _as_deep_as_print(r, pack_depth)]


# Glare adds white light over a card and thins its ink's depth against the paper white by one
# factor; the deck's inks are weighed thinned to half their depth at most (_thinned). An ink
# shallower than this share of the pack's (_ink_depth) is no numeral's print but a shade beside
# the paper (unseen tuning seed 7049: lit wood beside a Yellow 7, 0.45 of the pack's depth, read
# at a row gap as an unsure 1 that the deck's thinned brown made a sure Brown 1). On the tuning
# sets, the real cards read unsure at row gaps and made sure so lay at 0.8 of it and deeper, any
# real card made sure by the deck's inks or the grid at 0.56 and deeper.
PRINTED_DEPTH = 0.5


def _as_deep_as_print(reading: _Reading, pack_depth: float | None) -> bool:
    """Whether a reading's ink is PRINTED_DEPTH of the pack's ink depth (`pack_depth`) or
    deeper, in its deepest channel (as _ink_depth measures); without measures, it is."""
    return reading.ink is None or pack_depth is None \
        or _depth(reading.ink) >= PRINTED_DEPTH * pack_depth


def _settle_on_grid_once(found: list[_Reading]) -> list[_Reading]:
    sure = [r for r in found if isinstance(r.item, SeenCard)
            and _number_odds(r.probabilities).max() >= 0.9]  # settled ones too (0.9 and up)
    axis = _row_axis(sure)
    if axis is None:
        return found
    frames = np.array([r.frame for r in sure])
    tops = frames[:, 1] - frames[:, 0]
    along = np.array([math.cos(axis), math.sin(axis)])
    centres = frames.mean(axis=1)
    widths = np.linalg.norm(tops, axis=1)
    numbers = np.array([r.item.card.number for r in sure])
    columns = centres @ along / widths
    # Which way the numbers grow along `along`: every pair of sure cards in different columns.
    growth = np.sign(numbers[:, None] - numbers[None, :]) \
        * np.sign(columns[:, None] - columns[None, :])
    votes = float(growth[np.abs(columns[:, None] - columns[None, :]) > 0.5].sum())
    direction = int(np.sign(votes)) if abs(votes) >= 4 else 0
    settled = []
    for reading in found:
        odds = _number_odds(reading.probabilities)
        candidates = [n for n in range(1, 13) if odds[n - 1] >= 0.2]
        if isinstance(reading.item, SeenCard) or not candidates:
            settled.append(reading)
            continue
        centre = reading.frame.mean(axis=0)
        distances = np.linalg.norm(centres - centre, axis=1)
        nearest = np.argsort(distances)[:4]
        nearest = nearest[distances[nearest] < 8 * widths[nearest]]
        if not nearest.size:
            settled.append(reading)
            continue
        offsets = (centre - centres[nearest]) @ along / widths[nearest]
        ways = (direction,) if direction else (1, -1)
        # How far (in columns) each candidate is from where each near sure card puts it.
        misses = np.array([[min(abs(n - numbers[j] - way * offset) for way in ways)
                            for j, offset in zip(nearest, offsets, strict=True)]
                           for n in candidates])
        miss = np.median(misses, axis=1)
        order = np.argsort(miss)
        if miss[order[0]] > 0.75 or (len(order) > 1 and miss[order[1]] < 1.75):
            settled.append(reading)
            continue
        number = candidates[order[0]]
        up, down = reading.probabilities[2 * number - 2], reading.probabilities[2 * number - 1]
        probabilities = np.zeros_like(reading.probabilities)
        probabilities[2 * number - 2 if up >= down else 2 * number - 1] = \
            0.9 + 0.1 * odds[number - 1]
        probabilities[REJECT] = 1 - probabilities.sum()
        settled.append(_rejudged(reading, probabilities, reading.colour_confidence))
    return settled


def _card_box(numeral: _Numeral, card_size: tuple[float, float]
              ) -> tuple[float, float, float, float]:
    """The card around a numeral (printed at the card's centre), upright frame: x0, y0, x1, y1."""
    x, y, w, h = numeral.box
    cx, cy = x + w / 2, y + h / 2
    return cx - card_size[0] / 2, cy - card_size[1] / 2, cx + card_size[0] / 2, \
        cy + card_size[1] / 2


@dataclass(frozen=True)
class _Reading:
    """A card as read, with what was seen of it: its place on the Plaza can still settle it."""
    item: SeenCard | UnsureCard
    confidence: float
    frame: np.ndarray  # the card's corners (photo pixels) in the order of the frame it was read in
    probabilities: np.ndarray  # the numeral's classes, as in _Numeral
    colour: Colour
    colour_confidence: float
    ink: np.ndarray | None  # the numeral's ink, RGB relative to the paper white
    glyph: float  # the numeral's height, photo pixels
    glyph_width: float = 0.0  # the numeral's width, photo pixels (0: not known)
    shape: np.ndarray | None = None  # the numeral's glyph (glyph_of), as the classifier saw it
    second_look: bool = False  # read on a despeckled paper mask only: kept where nothing else is


def _card_from(numeral: _Numeral, upright: np.ndarray, ink: np.ndarray, labels: np.ndarray,
               card_size: tuple[float, float], back: np.ndarray, scale: float) -> _Reading:
    x0, y0, x1, y1 = _card_box(numeral, card_size)
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])
    frame = (box @ back[:, :2].T + back[:, 2]) / scale
    rgb = _ink_rgb(upright, ink, labels, numeral, scale)
    deck = _DECK.get()
    colour, colour_confidence = (classify_ink(rgb, deck.ink_lab if deck else None) if rgb is not None
                                 else (Colour.BLACK, 0.0))
    return replace(_judged(frame, numeral.probabilities, colour, colour_confidence, rgb,
                           numeral.box[3] / scale), glyph_width=numeral.box[2] / scale,
                   shape=glyph_of(ink, numeral.box))


def _rejudged(reading: _Reading, probabilities: np.ndarray, colour_confidence: float
              ) -> _Reading:
    """A reading judged again, with the number its place or the colour its deck told."""
    return replace(_judged(reading.frame, probabilities, reading.colour, colour_confidence,
                           reading.ink, reading.glyph), glyph_width=reading.glyph_width,
                   shape=reading.shape)


def _judged(frame: np.ndarray, probabilities: np.ndarray, colour: Colour,
            colour_confidence: float, ink: np.ndarray | None = None, glyph: float = 0.0
            ) -> _Reading:
    """A sure card when number and colour together are confident enough, else an unsure one."""
    down = _upside_down(probabilities)
    # Turned 180°, the card's own top-left is at the frame's bottom-right.
    corners = tuple((round(float(x), 1), round(float(y), 1))
                    for x, y in (np.roll(frame, 2, axis=0) if down else frame))
    number_p = _number_odds(probabilities)
    number = int(np.argmax(number_p)) + 1
    confidence = float(number_p[number - 1]) * colour_confidence
    item = SeenCard(Card(colour, number), corners, round(confidence, 3)) if confidence >= SURE \
        else UnsureCard(corners=corners)
    return _Reading(item, confidence, frame, probabilities, colour, colour_confidence, ink,
                    glyph)


def _upside_down(probabilities: np.ndarray) -> bool:
    """Whether the classifier sees the numeral turned 180° rather than upright."""
    return bool(probabilities[1:REJECT:2].sum() > probabilities[0:REJECT:2].sum())


def _number_probabilities(numeral: _Numeral) -> np.ndarray:
    """P(number 1..12), whichever way up."""
    return _number_odds(numeral.probabilities)


def _number_odds(probabilities: np.ndarray) -> np.ndarray:
    """P(number 1..12) from the classes (number k+1 up: 2k, turned: 2k+1)."""
    return probabilities[0:REJECT:2] + probabilities[1:REJECT:2]


def _settle_duplicates(found: list[_Reading]
                       ) -> tuple[tuple[SeenCard, ...], tuple[UnsureCard, ...]]:
    """One reading per place, the most confident: overlapping paper regions can read the same
    card twice, and a frame across two touching cards can read a card between them. Cards lie
    flat, side by side: a reading that covers much of a more confident one (or is much covered
    by it) is the same place. The pack has one of each card (P1): a card read at two places
    keeps its best reading; the other place becomes unsure, unless another card is read there
    (a misreading must not hide the right reading of its place). Two cards read for sure that
    may lie side by side on a Plaza (P5: the same colour and numbers one apart, or the same
    number), with centres apart as two places are (_held), are two cards, however much a frame
    read too wide covers of the other (a full deck's framed 9 beside its 10: one of them was
    lost by list order)."""
    cards: dict[Card, SeenCard] = {}
    places: list[tuple[SeenCard | UnsureCard, np.ndarray]] = []

    def free(item: SeenCard | UnsureCard, card: Card | None = None) -> bool:
        """Whether no place taken overlaps the item's; with `card`, one taken by a card read
        for sure beside which `card` may lie (P5) at another place does not count."""
        corners = np.array(item.corners, np.float32)
        if any(_overlap(corners, other) > 0.35 and not (
                card and isinstance(held, SeenCard) and _side_by_side(card, held.card)
                and _two_places(corners, other)) for held, other in places):
            return False
        places.append((item, corners))
        return True

    items = [reading.item for reading in sorted(_without_pieces(found), key=lambda r: -r.confidence)]
    for item in items:
        if isinstance(item, SeenCard) and item.card not in cards and free(item, item.card):
            cards[item.card] = item
    unsure = [UnsureCard(item.corners) for item in items
              if (isinstance(item, UnsureCard) or cards.get(item.card) is not item) and free(item)]
    return tuple(sorted(cards.values(), key=lambda seen: seen.card)), tuple(unsure)


def _reported(found: list[_Reading]) -> list[_Reading]:
    """The readings of `found` that _settle_duplicates reports, as cards or unsure places."""
    cards, unsure = _settle_duplicates(found)
    places = {item.corners for item in (*cards, *unsure)}
    return [reading for reading in found if reading.item.corners in places]


def _doubt_aslant(found: list[_Reading]) -> list[_Reading]:
    """Cards on a Plaza lie alike (turned 180° at most): a reading whose frame lies ASLANT or
    more off the rows' axis read its numeral at a slant the classifier never learnt (it saw turns
    of 7° at most), and a slanted 7 or 5 passes for a sure 1 or 3. Such a reading is doubted,
    and left for its place on the Plaza to settle (P5)."""
    axis = _row_axis(found)
    if axis is None:
        return found
    doubted = []
    for reading in found:
        if abs(_off_axis(reading.frame[1] - reading.frame[0], axis)) >= math.radians(ASLANT):
            reading = _rejudged(reading, _doubted(reading.probabilities),
                                reading.colour_confidence)
        doubted.append(reading)
    return doubted


def _off_axis(top: np.ndarray, axis: float) -> float:
    """How far (radians, within a quarter turn either way) a frame's `top` lies off `axis`."""
    return (math.atan2(top[1], top[0]) - axis + math.pi / 2) % math.pi - math.pi / 2


def _nearest(sure: list[_Reading], reading: _Reading, count: int) -> list[_Reading]:
    """The `count` readings of `sure` nearest to `reading` (itself left out)."""
    others = [r for r in sure if r is not reading]
    if not others:
        return []
    distances = _distances(np.array([r.frame for r in others]).mean(axis=1),
                           reading.frame.mean(axis=0))
    return [others[i] for i in np.argsort(distances, kind="stable")[:count]]


def _doubt_against_row(found: list[_Reading]) -> list[_Reading]:
    """A row is one colour, its numbers running on (P5): a sure reading whose row neighbours
    (sure cards of its colour, a card away along its rows) continue none of them its number is
    doubted, if its own evidence is weak: its number's odds below ROW_DOUBT (a 10 read as a 9 in
    a frame that cut its 1 off: unseen tuning seed 6052), or a 6 or 9 beside a card that
    continues the other (a 6 is a 9 turned 180°, and any card may lie turned: only a mark tells
    which way up it lies; seed 6014). The Plaza may be illegal, so it is not changed, only made
    unsure."""
    sure = [r for r in found if isinstance(r.item, SeenCard)]
    doubted = []
    for reading in found:
        if isinstance(reading.item, SeenCard):
            card = reading.item.card
            centre = reading.frame.mean(axis=0)
            beside = [other.item.card.number for other in sure
                      if other.item.card.colour is card.colour
                      and 0.7 <= (units := _in_card_units(other.frame.mean(axis=0) - centre,
                                                          reading.frame))[0] <= 1.4
                      and units[1] <= 0.4]
            turned = 15 - card.number if card.number in (6, 9) else None
            weak = _number_odds(reading.probabilities).max() < ROW_DOUBT \
                or turned is not None and any(abs(n - turned) == 1 for n in beside)
            if beside and weak and not any(abs(n - card.number) == 1 for n in beside):
                reading = _rejudged(reading, _doubted(reading.probabilities),
                                    reading.colour_confidence)
        doubted.append(reading)
    return doubted


def _without_pieces(found: list[_Reading]) -> list[_Reading]:
    """The readings but those whose numeral is one digit of another's two-digit numeral at the
    same place (the 1 of an 11, the 2 of a 12), read alone in another frame. The wider reading
    explains more of the ink there, so it stands for the place, sure or not: were both sure,
    which one won would be a matter of rounding (a lone 1 tied its card's 11 at confidence 1.0).
    The wider may be taller: two digits read in a frame turned off their line."""
    if len(found) < 2:
        return found
    centres = np.array([reading.frame.mean(axis=0) for reading in found])
    widths = np.array([reading.glyph_width for reading in found])
    heights = np.array([reading.glyph for reading in found])
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    tall = heights[:, None] / np.maximum(heights[None], 1e-6)
    # [piece, whole]: the whole is wider by a digit, holds the piece's centre, and is as tall.
    holds = (widths[:, None] > 0) & (widths[None] >= 1.3 * widths[:, None]) \
        & (apart <= widths[None] / 2) & (tall >= 0.55) & (tall <= 1.33)
    numbers = [str(int(np.argmax(_number_odds(reading.probabilities))) + 1) for reading in found]
    return [reading for i, reading in enumerate(found)
            if not any(len(numbers[j]) == 2 and numbers[i] in numbers[j]
                       for j in np.flatnonzero(holds[i]))]


def _side_by_side(one: Card, other: Card) -> bool:
    """Whether two cards may lie next to each other on a Plaza (P5): in a row (one colour,
    numbers one apart) or in a column (one number)."""
    return one.number == other.number or (
        one.colour is other.colour and abs(one.number - other.number) == 1)


def _two_places(one: np.ndarray, other: np.ndarray) -> bool:
    """Whether two card frames stand for two places: cards lie in rows and columns (P5), so the
    centres of two lie apart by most of a card along the narrower frame's rows or across them
    (a frame read too wide is no measure). A frame shifted by less both ways lies half over the
    seam of two cards: a second reading of a place (a frame line there read as a 1: unseen
    tuning seed 7018)."""
    one, other = sorted((one, other), key=lambda frame: float(np.linalg.norm(frame[1] - frame[0])))
    return bool(np.any(_in_card_units(other.mean(axis=0) - one.mean(axis=0), one) >= 0.6))


def _overlap(one: np.ndarray, other: np.ndarray) -> float:
    """The share of the smaller of two card quadrilaterals that the other covers."""
    common, _ = cv2.intersectConvexConvex(one, other)
    smaller = min(cv2.contourArea(one), cv2.contourArea(other))
    return float(common) / max(smaller, 1e-6)


# ---------------------------------------------------------------------------------------------
# Ink colour


# Typical inks (RGB relative to the paper white), several per colour: decks differ.
INK_PROTOTYPES: dict[Colour, tuple[tuple[float, float, float], ...]] = {
    Colour.RED: ((0.80, 0.12, 0.14), (0.88, 0.25, 0.2), (0.7, 0.1, 0.2), (0.9, 0.3, 0.3)),
    # A blue-green (teal) too: as near the black prototypes as the others in Lab (its lightness
    # is between), though no black ink is that coloured.
    Colour.GREEN: ((0.12, 0.5, 0.24), (0.1, 0.4, 0.15), (0.2, 0.6, 0.4), (0.3, 0.55, 0.2),
                   (0.05, 0.42, 0.38)),
    Colour.YELLOW: ((0.92, 0.75, 0.08), (0.95, 0.82, 0.25), (0.88, 0.66, 0.05), (0.95, 0.9, 0.3)),
    Colour.BROWN: ((0.47, 0.27, 0.14), (0.55, 0.33, 0.18), (0.38, 0.22, 0.12), (0.6, 0.4, 0.25)),
    Colour.BLACK: ((0.1, 0.1, 0.1), (0.2, 0.18, 0.18), (0.06, 0.08, 0.12), (0.25, 0.23, 0.2)),
}


@cache
def _prototype_lab() -> tuple[np.ndarray, np.ndarray]:
    colours, rgbs = [], []
    for colour, shades in INK_PROTOTYPES.items():
        for shade in shades:
            colours.append(colour.row)
            rgbs.append(shade)
    return np.array(colours), _lab(np.array(rgbs, np.float32))


_RGB_TO_XYZ = np.array([[0.412453, 0.357580, 0.180423], [0.212671, 0.715160, 0.072169],
                        [0.019334, 0.119193, 0.950227]]) / np.array([[0.950456], [1.0],
                                                                     [1.088754]])


def _lab(rgb: np.ndarray) -> np.ndarray:
    """CIE Lab of sRGB in 0..1 (as OpenCV's float conversion, without its start-up cost)."""
    rgb = np.clip(np.asarray(rgb, np.float64).reshape(-1, 3), 0, 1)
    linear = np.where(rgb > 0.04045, ((rgb + 0.055) / 1.055) ** 2.4, rgb / 12.92)
    xyz = linear @ _RGB_TO_XYZ.T
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]),
                     200 * (f[:, 1] - f[:, 2])], axis=1)


# Blur moves ink but keeps its sum: a thin stroke's colour is summed over it and a band this many
# working pixels wide around it (see _ink_rgb).
INK_BAND = 3
LUMA = np.array([0.114, 0.587, 0.299])  # a BGR colour's lightness (JPEG's luma weights)
# JPEG keeps colour in blocks of 2 x 2 photo pixels, smoothed over the next block when decoded:
# a stroke this many photo pixels wide or more keeps its own colour at its core.
SMEARED = 10.0


def _ink_rgb(upright: np.ndarray, ink: np.ndarray, labels: np.ndarray, numeral: _Numeral,
             scale: float) -> np.ndarray | None:
    """A numeral's ink, RGB relative to its card's paper white. JPEG keeps a photo's colour at
    half its resolution (blur and downscaling spread it too) while its lightness stays sharp: a
    thin stroke's hue smears into the paper beside it, and its darkest pixels alone read a greyer
    ink (at 2 MP a brown row read as black, reds as between red and brown: unseen tuning seed
    7025). Blur moves ink but keeps its sum, so a thin stroke's hue is the darkening summed over
    it and a band of INK_BAND pixels around it (other ink left out), against the card's paper
    just beyond the band; its depth is that of the strokes' darker half. Strokes SMEARED wide:
    the darker half alone, against that paper; numerals under SHAPED tall: the darker half
    alone."""
    x, y, w, h = (int(v) for v in numeral.box)
    reach = INK_BAND + 2
    x0, y0 = max(0, x - reach), max(0, y - reach)
    x1, y1 = min(labels.shape[1], x + w + reach), min(labels.shape[0], y + h + reach)
    window = labels[y0:y1, x0:x1]
    strokes = np.isin(window, numeral.labels)
    inkness = ink[y0:y1, x0:x1][strokes]
    if inkness.size == 0:
        return None
    pixels = upright[y0:y1, x0:x1].astype(np.float64)
    darkest = pixels[strokes][inkness >= np.percentile(inkness, 50)].mean(axis=0)
    # A numeral under SHAPED tall is a corner index read alone: its ink, made clear, let it hold
    # its card's place before the card's numeral was read (seed 6046, 1 MP).
    if h < SHAPED:
        return darkest[::-1]
    other = _grown((window > 0) & ~strokes, 2)
    band = _grown(strokes, INK_BAND) & ~other
    ring = _grown(strokes, INK_BAND + 2) & ~_grown(strokes, INK_BAND) & ~other
    if not ring.any():
        return darkest[::-1]
    paper = np.median(pixels[ring], axis=0)
    # A stroke SMEARED wide keeps its colour at its core: summed with the paper around it, a
    # 12 MP brown numeral read as black (unseen tuning seed 6019). Its core is still measured
    # against its own card's paper: the photo's white is a local maximum over a wider area, which
    # a brighter card or the table's light beside a dimmer card sets (brown numerals read towards
    # black against a white 10-20% above their card's paper: unseen tuning seeds 5004, 1058).
    if _stroke(strokes) >= SMEARED * scale:
        return np.clip(darkest / np.maximum(paper, 1e-3), 0, 1)[::-1]
    summed = (paper - pixels[band]).sum(axis=0)
    if LUMA @ summed <= 0:
        return darkest[::-1]
    depth = summed * (LUMA @ (paper - darkest)) / (LUMA @ summed)
    return np.clip(1 - depth / np.maximum(paper, 1e-3), 0, 1)[::-1]


def _grown(mask: np.ndarray, reach: int) -> np.ndarray:
    """A boolean mask grown by `reach` pixels every way (a disc)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    return cv2.dilate(mask.astype(np.uint8), disc) > 0


def classify_ink(rgb: np.ndarray, deck: Mapping[Colour, np.ndarray] | None = None,
                 among: Sequence[Colour] = COLOURS) -> tuple[Colour, float]:
    """Nearest prototype ink in Lab, of the colours `among`; confidence from how much nearer it
    is than the other colours (1 for the only one). `deck` (Lab per colour: one ink, or several
    as rows) replaces the prototypes of the colours it names."""
    return _nearest_ink(_lab(np.asarray(rgb, np.float32))[0], deck, among)


def _nearest_ink(lab: np.ndarray, deck: Mapping[Colour, np.ndarray] | None = None,
                 among: Sequence[Colour] = COLOURS) -> tuple[Colour, float]:
    """classify_ink of an ink given in Lab."""
    rows, prototypes = _prototype_lab()
    distances = np.linalg.norm(prototypes - lab, axis=1)
    per_colour = np.array([np.linalg.norm(np.atleast_2d(deck[colour]) - lab, axis=1).min()
                           if deck and colour in deck
                           else distances[rows == colour.row].min() for colour in among])
    if len(among) == 1:
        return among[0], 1.0
    order = np.argsort(per_colour)
    nearest, second = per_colour[order[0]], per_colour[order[1]]
    confidence = float(np.clip((second - nearest) / max(second, 1e-6) * 2.5, 0, 1))
    return among[order[0]], confidence


# ---------------------------------------------------------------------------------------------
# Numeral classifier: features and a small two-layer network (weights in vision/data/cards)


# Each glyph pixel's 4 x 4 cell, as the index of its first orientation bin (8 per cell).
_CELL_FIRST_BIN = ((np.arange(GLYPH) // 4)[:, None] * (GLYPH // 4)
                   + (np.arange(GLYPH) // 4)[None, :]) * 8


def glyph_of(ink: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """A numeral's ink, resampled into a GLYPH square keeping its aspect, darkest at 1."""
    x, y, w, h = (int(round(v)) for v in box)
    patch = ink[max(0, y):y + h, max(0, x):x + w]
    side = max(patch.shape)
    square = np.zeros((side, side), np.float32)
    top, left = (side - patch.shape[0]) // 2, (side - patch.shape[1]) // 2
    square[top:top + patch.shape[0], left:left + patch.shape[1]] = patch
    glyph = cv2.resize(square, (GLYPH, GLYPH), interpolation=cv2.INTER_AREA)
    glyph /= max(float(glyph.max()), 1e-3)
    return glyph


def features(ink: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """A numeral's glyph (glyph_of), plus gradient orientation histograms and its aspect
    ratio."""
    x, y, w, h = (int(round(v)) for v in box)
    glyph = glyph_of(ink, box)
    gx = cv2.Sobel(glyph, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(glyph, cv2.CV_32F, 0, 1, ksize=3)
    magnitude = np.hypot(gx, gy)
    bins = ((np.arctan2(gy, gx) + math.pi) / (2 * math.pi) * 8).astype(int) % 8
    cell_index = _CELL_FIRST_BIN + bins
    histogram = np.bincount(cell_index.ravel(), magnitude.ravel(),
                            minlength=(GLYPH // 4) ** 2 * 8).astype(np.float32)
    histogram /= max(float(np.linalg.norm(histogram)), 1e-3)
    aspect = np.float32(math.log(max(w, 1) / max(h, 1)))
    return np.concatenate([glyph.ravel(), histogram * 4, [aspect]]).astype(np.float32)


@cache
def _model() -> dict[str, np.ndarray]:
    with np.load(MODEL_PATH) as data:
        return {name: data[name].astype(np.float32) for name in data.files}


def _classified(ink: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
                ) -> np.ndarray:
    """Class probabilities of the numerals in `boxes`, weighed by the deck profile's numeral
    shapes when a reading judges by one (numerals SHAPED tall or more)."""
    batch = np.stack([features(ink, box) for box in boxes])
    probabilities = classify(batch)
    deck = _DECK.get()
    if deck is None:
        return probabilities
    return np.stack([_by_shape(p, deck.shape_weights(row[:GLYPH * GLYPH])
                               if box[3] >= SHAPED else None)
                     for p, row, box in zip(probabilities, batch, boxes, strict=True)])


def _by_shape(probabilities: np.ndarray, weights: np.ndarray | None) -> np.ndarray:
    """The classes weighed by a deck's shape evidence (per number 1..12, then not a numeral;
    None: no evidence either way). The evidence refines the classifier among the numbers it
    holds possible (MAYBE or more), never overrules it: a numeral the deck prints oddly stops
    being unsure, a digit the classifier is sure of is no learnt shape's."""
    if weights is None or _number_odds(probabilities)[weights[:12] == 1].max() < MAYBE:
        return probabilities
    weighed = probabilities * np.append(np.repeat(weights[:12], 2), weights[12])
    return (weighed / max(float(weighed.sum()), 1e-12)).astype(probabilities.dtype)


def classify(batch: np.ndarray) -> np.ndarray:
    """Class probabilities (REJECT + 1 classes) for a batch of feature vectors."""
    model = _model()
    hidden = np.maximum((batch - model["mean"]) / model["scale"] @ model["w1"] + model["b1"], 0)
    logits = hidden @ model["w2"] + model["b2"]
    logits -= logits.max(axis=1, keepdims=True)
    odds = np.exp(logits)
    return odds / odds.sum(axis=1, keepdims=True)
