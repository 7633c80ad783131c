"""A second Plaza photo renderer, written apart from render_plaza.py, to measure the reader on
decks, typefaces, surfaces and light it was never tuned on (issue 6).

Drawn from the issue's description of the physical game only: cards 63 x 88 mm of white, ivory
or greyish stock, the number printed large in its colour's ink, with or without corner indices,
6 and 9 marked (underline or dot) as real decks mark them, and one of several artworks. Plazas
are laid as P5 makes them (a row per colour, a column per number, cards in a row touching, rows
close together, some cards turned 180 degrees), legal or not; hands lie apart. The table is
seen by a pinhole camera tilted up to 30 degrees, under warm or cool uneven light with a
shadow, then blurred, noised and JPEG-compressed, at 1 to 12 megapixels.

Typefaces come only from font families the reader never trained or tuned on (URW base35,
GNU FreeFont, TeX Gyre, Crosextra, Noto); `unseen_typefaces()` is empty when none is installed,
and callers skip with `MISSING_FONTS`.
"""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.games.plaza_cards import COLOURS, PACK, Card, check_layout

CARD_MM = (63.0, 88.0)  # width, height of a Plaza card
MISSING_FONTS = ("the unseen Plaza renders need fonts the reader never saw: Debian packages "
                 "fonts-urw-base35, fonts-freefont-ttf, fonts-texgyre, fonts-crosextra-caladea, "
                 "fonts-crosextra-carlito, fonts-noto-core (any of them will do)")
FONT_DIRS = ("/usr/share/fonts", "/usr/share/texmf/fonts")
# Upright faces a card printer might pick for big numerals; none is DejaVu, KaTeX, Hershey or
# Liberation, the families the reader was trained and tuned on.
FONT_FILES = (
    "NimbusSans-Bold.otf", "NimbusSans-Regular.otf", "NimbusSansNarrow-Bold.otf",
    "NimbusRoman-Bold.otf", "C059-Bold.otf", "P052-Bold.otf", "URWBookman-Demi.otf",
    "URWGothic-Demi.otf", "URWGothic-Book.otf", "NimbusMonoPS-Bold.otf",
    "NimbusSans-BoldItalic.otf",
    "FreeSansBold.ttf", "FreeSerifBold.ttf", "FreeMonoBold.ttf",
    "texgyreadventor-bold.otf", "texgyrebonum-bold.otf", "texgyrepagella-bold.otf",
    "texgyreschola-bold.otf", "texgyretermes-bold.otf", "texgyreheroscn-bold.otf",
    "texgyrecursor-bold.otf",
    "Caladea-Bold.ttf", "Carlito-Bold.ttf", "Carlito-Regular.ttf",
    "NotoSans-Bold.ttf", "NotoSerif-Bold.ttf", "NotoSerifDisplay-Bold.ttf",
    "NotoSansDisplay-Regular.ttf",
)
ARTWORKS = ("plain", "frame", "double frame", "tinted border", "emblems", "pattern", "title")
SURFACES = ("wood", "felt", "gingham", "polka cloth", "dark mat", "light mat", "brick",
            "gravel", "grass rug")
PHONE_SIZES = ((4000, 3000), (4032, 3024), (3264, 2448), (3840, 2160), (2592, 1944),
               (2048, 1536), (1920, 1080), (1600, 1200), (1152, 864))
Kind = Literal["legal", "illegal", "hand"]
RGB = tuple[int, int, int]

# Printed inks, several plausible shades per colour (RGB), in Colour order: red, green,
# yellow, brown, black. A deck takes one of each and jitters it a little.
INK_SHADES: tuple[tuple[RGB, ...], ...] = (
    ((200, 30, 40), (214, 52, 38), (178, 24, 56), (226, 66, 52)),
    ((22, 128, 62), (46, 138, 46), (0, 108, 84), (70, 150, 60)),
    ((236, 188, 8), (222, 166, 18), (246, 204, 46), (214, 176, 0)),
    ((118, 70, 32), (140, 84, 42), (104, 60, 36), (150, 96, 52)),
    ((26, 26, 26), (42, 36, 36), (16, 22, 32), (52, 50, 48)),
)
STOCKS: tuple[RGB, ...] = ((252, 252, 250), (248, 243, 228), (244, 236, 214), (236, 236, 232),
                           (240, 240, 236))
ACCENTS: tuple[RGB, ...] = ((176, 140, 60), (40, 52, 110), (120, 120, 124), (110, 30, 40))


@dataclass(frozen=True)
class Typeface:
    name: str
    path: str


@dataclass(frozen=True)
class Deck:
    typeface: Typeface
    inks: tuple[RGB, ...]  # in Colour order
    stock: RGB
    accent: RGB  # colour of the artwork that is not in the suit's ink
    numeral_height: float  # digit height, fraction of the card's height
    numeral_lift: float  # numeral centre above the card centre, fraction of the card's height
    indices: Literal["none", "two", "four"]
    artwork: str  # one of ARTWORKS
    six_nine_mark: Literal["underline", "dot"]
    corner_mm: float  # radius of the card's rounded corners


@dataclass(frozen=True)
class PlacedCard:
    card: Card
    corners: tuple[tuple[float, float], ...]  # photo pixels, the card's own top-left first
    upside_down: bool


@dataclass(frozen=True)
class Photo:
    image: np.ndarray  # BGR uint8, before compression
    jpeg: bytes
    cards: tuple[PlacedCard, ...]
    deck: Deck
    kind: Kind
    conditions: Mapping[str, str] = field(default_factory=dict)  # factor -> level, for the bench


@functools.cache
def unseen_typefaces() -> tuple[Typeface, ...]:
    """The installed typefaces of FONT_FILES, in that order."""
    wanted = set(FONT_FILES)
    found: dict[str, str] = {}
    for root in FONT_DIRS:
        for folder, _, files in os.walk(root):
            for name in wanted.intersection(files):
                found.setdefault(name, os.path.join(folder, name))
    return tuple(Typeface(os.path.splitext(name)[0], found[name])
                 for name in FONT_FILES if name in found)


def random_deck(rng: np.random.Generator, typefaces: tuple[Typeface, ...]) -> Deck:
    inks = tuple(_jitter(shades[rng.integers(len(shades))], rng, 10) for shades in INK_SHADES)
    return Deck(
        typeface=typefaces[rng.integers(len(typefaces))],
        inks=inks,
        stock=_jitter(STOCKS[rng.integers(len(STOCKS))], rng, 3),
        accent=ACCENTS[rng.integers(len(ACCENTS))],
        numeral_height=float(rng.uniform(0.26, 0.46)),
        numeral_lift=float(rng.choice((0.0, 0.0, rng.uniform(-0.04, 0.06)))),
        indices=str(rng.choice(("none", "two", "two", "four"))),
        artwork=str(rng.choice(ARTWORKS)),
        six_nine_mark=str(rng.choice(("underline", "dot"))),
        corner_mm=float(rng.uniform(1.5, 4.5)),
    )


def _jitter(colour: RGB, rng: np.random.Generator, amount: int) -> RGB:
    return tuple(int(np.clip(c + rng.integers(-amount, amount + 1), 0, 255)) for c in colour)


# ---- layouts (P5) and hands (P3) ----

def plaza_layout(rng: np.random.Generator, count: int, legal: bool) -> tuple[Card, ...]:
    """`count` distinct cards (3..40) whose P5 verdict is `legal`."""
    while True:
        if legal:
            cards = _legal_layout(rng, count)
        elif rng.random() < 0.5:
            # A gap in a run: a legal layout with one card taken out (P5 "tightly").
            cards = _legal_layout(rng, count + 1)
            if cards:
                cards = cards - {sorted(cards)[rng.integers(len(cards))]}
        else:
            # Stray cards parked where they make no run and no column.
            strays = int(rng.integers(1, 4))
            cards = _legal_layout(rng, count - strays) if count - strays >= 3 else set()
            cards = None if cards is None else cards | _random_cards(rng, strays, cards)
        if cards and len(cards) == count and check_layout(cards).legal == legal:
            return tuple(sorted(cards))


def _legal_layout(rng: np.random.Generator, count: int) -> set[Card] | None:
    """Runs and columns of three or more, then single fill-ins (P6), to exactly `count` cards."""
    cards: set[Card] = set()
    for _ in range(200):
        if len(cards) == count:
            return cards
        room = count - len(cards)
        if room >= 3 and (not cards or rng.random() < 0.5):
            group = _run_or_column(rng, min(room, 12))
            if not group & cards:
                cards |= group
            continue
        fill_in = next((card for card in (PACK[i] for i in rng.permutation(len(PACK)))
                        if card not in cards and check_layout(cards | {card}).legal), None)
        if fill_in:
            cards.add(fill_in)
    return None


def _run_or_column(rng: np.random.Generator, most: int) -> set[Card]:
    if rng.random() < 0.6:
        length = int(rng.integers(3, most + 1))
        colour = COLOURS[rng.integers(5)]
        start = int(rng.integers(1, 14 - length))
        return {Card(colour, number) for number in range(start, start + length)}
    number = int(rng.integers(1, 13))
    colours = rng.choice(5, size=int(rng.integers(3, min(5, most) + 1)), replace=False)
    return {Card(COLOURS[c], number) for c in colours}


def _random_cards(rng: np.random.Generator, count: int, taken: set[Card]) -> set[Card]:
    free = [card for card in PACK if card not in taken]
    return {free[i] for i in rng.choice(len(free), size=count, replace=False)}


# ---- card faces ----

def render_face(deck: Deck, card: Card, height: int, rng: np.random.Generator) -> np.ndarray:
    """The card's face, upright, as RGB float32 in 0..1, `height` pixels tall."""
    width = round(height * CARD_MM[0] / CARD_MM[1])
    mm = height / CARD_MM[1]
    ink = deck.inks[card.colour.row]
    stock = _jitter(deck.stock, rng, 2)
    canvas = np.empty((height, width, 3), np.uint8)
    canvas[:] = stock
    _draw_artwork(canvas, deck, ink, stock, mm)
    face = canvas.astype(np.float32) / 255
    # Paper grain: faint, a few tenths of a millimetre across.
    grain = rng.normal(0, 0.012, (height, width)).astype(np.float32)
    face += cv2.GaussianBlur(grain, (0, 0), max(0.5, 0.2 * mm))[..., None]
    if deck.artwork == "title":
        # The game's name above and below the numeral, in the deck's own typeface.
        title = _text_mask(deck.typeface.path, "PLAZA", max(4, round(2.6 * mm)))
        offset = 3.5 * mm + 5 * mm
        _print(face, title, (width / 2, offset), deck.accent)
        _print(face, title[::-1, ::-1], (width / 2, height - offset), deck.accent)
    centre = (width / 2, height * (0.5 - deck.numeral_lift))
    numeral = _numeral_mask(deck, card.number, max(6, round(deck.numeral_height * height)))
    # Two-digit numbers in a wide typeface are printed smaller rather than off the card.
    most_width = 0.84 * width
    if numeral.shape[1] > most_width:
        numeral = cv2.resize(numeral, (round(most_width),
                                       max(1, round(numeral.shape[0] * most_width
                                                    / numeral.shape[1]))),
                             interpolation=cv2.INTER_AREA)
    _print(face, numeral, centre, ink)
    if deck.indices != "none":
        index = _numeral_mask(deck, card.number, max(4, round(0.085 * height)))
        inset_x, inset_y = 5.5 * mm + index.shape[1] / 2, 5.0 * mm + index.shape[0] / 2
        spots = [((inset_x, inset_y), False), ((width - inset_x, height - inset_y), True)]
        if deck.indices == "four":
            spots += [((width - inset_x, inset_y), False), ((inset_x, height - inset_y), True)]
        for spot, turned in spots:
            _print(face, index[::-1, ::-1] if turned else index, spot, ink)
    return np.clip(face, 0, 1)


def _draw_artwork(canvas: np.ndarray, deck: Deck, ink: RGB, stock: RGB, mm: float) -> None:
    height, width = canvas.shape[:2]
    line = max(1, round(0.5 * mm))
    inset = round(3.5 * mm)
    tint = tuple(int(0.22 * i + 0.78 * s) for i, s in zip(ink, stock, strict=True))
    art = deck.artwork
    if art in ("frame", "double frame", "title"):
        colour = deck.accent if art == "title" else ink
        cv2.rectangle(canvas, (inset, inset), (width - inset, height - inset), colour, line,
                      cv2.LINE_AA)
        if art == "double frame":
            inner = inset + round(1.5 * mm)
            cv2.rectangle(canvas, (inner, inner), (width - inner, height - inner), colour,
                          max(1, line // 2), cv2.LINE_AA)
    if art == "tinted border":
        canvas[:] = tint
        cv2.rectangle(canvas, (inset, inset), (width - inset, height - inset), stock, -1)
    if art == "pattern":
        # Diagonal hatching in a pale tint of the ink, with a clear panel behind the numeral.
        step = max(3, round(3 * mm))
        for offset in range(-height, width, step):
            cv2.line(canvas, (offset, 0), (offset + height, height), tint, max(1, line),
                     cv2.LINE_AA)
        cv2.ellipse(canvas, (width // 2, height // 2), (round(0.36 * width),
                                                        round(0.3 * height)),
                    0, 0, 360, stock, -1, cv2.LINE_AA)
    if art == "emblems":
        size = 4.5 * mm
        for cy in (inset + 2 * size, height - inset - 2 * size):
            _star(canvas, (width / 2, cy), size, ink)


def _star(canvas: np.ndarray, centre: tuple[float, float], size: float, colour: RGB) -> None:
    angles = np.pi / 2 + np.arange(10) * np.pi / 5
    radii = np.where(np.arange(10) % 2 == 0, size, 0.45 * size)
    points = np.stack([centre[0] + radii * np.cos(angles), centre[1] - radii * np.sin(angles)],
                      axis=1)
    cv2.fillPoly(canvas, [np.round(points * 16).astype(np.int32)], colour, cv2.LINE_AA, 4)


def _numeral_mask(deck: Deck, number: int, height: int) -> np.ndarray:
    """Ink coverage (0..1) of the number `height` pixels tall, 6 and 9 with the deck's mark."""
    return _text_mask(deck.typeface.path, str(number), height,
                      deck.six_nine_mark if number in (6, 9) else "")


@functools.lru_cache(maxsize=512)
def _text_mask(font_path: str, text: str, height: int, mark: str = "") -> np.ndarray:
    """Ink coverage (0..1) of `text`, its glyphs `height` pixels tall; `mark` ("underline" or
    "dot") adds the mark that tells a 6 from a 9."""
    probe = ImageFont.truetype(font_path, 200)
    left, top, right, bottom = probe.getbbox(text)
    size = max(4, round(200 * height / max(1, bottom - top)))
    font = ImageFont.truetype(font_path, size)
    left, top, right, bottom = font.getbbox(text)
    pad = max(2, height // 4)
    mark_room = round(0.3 * height) if mark else 0
    image = Image.new("L", (right - left + 2 * pad + mark_room, bottom - top + 2 * pad
                            + mark_room), 0)
    ImageDraw.Draw(image).text((pad - left, pad - top), text, fill=255, font=font)
    mask = np.asarray(image, np.float32) / 255
    glyph_bottom, glyph_right = pad + bottom - top, pad + right - left
    thick = max(1, round(0.08 * height))
    if mark == "underline":
        y = glyph_bottom + max(1, round(0.08 * height))
        x0, x1 = pad + round(0.1 * (right - left)), glyph_right - round(0.1 * (right - left))
        mask[y:y + thick, x0:x1] = 1
    elif mark == "dot":
        cv2.circle(mask, (glyph_right + thick + 1, glyph_bottom - thick), thick, 1.0, -1)
    ys, xs = np.nonzero(mask > 0.02)
    return np.ascontiguousarray(mask[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _print(face: np.ndarray, mask: np.ndarray, centre: tuple[float, float], ink: RGB) -> None:
    """Ink laid over the face: the paper shows through where coverage is partial."""
    h, w = mask.shape
    x0, y0 = round(centre[0] - w / 2), round(centre[1] - h / 2)
    fx0, fy0 = max(0, x0), max(0, y0)
    fx1, fy1 = min(face.shape[1], x0 + w), min(face.shape[0], y0 + h)
    alpha = mask[fy0 - y0:fy1 - y0, fx0 - x0:fx1 - x0, None]
    region = face[fy0:fy1, fx0:fx1]
    region[:] = region * (1 - alpha) + np.array(ink, np.float32) / 255 * alpha


def _card_mask(height: int, corner_mm: float) -> np.ndarray:
    width = round(height * CARD_MM[0] / CARD_MM[1])
    radius = max(1, round(corner_mm * height / CARD_MM[1]))
    mask = np.zeros((height, width), np.uint8)
    cv2.rectangle(mask, (radius, 0), (width - 1 - radius, height - 1), 255, -1)
    cv2.rectangle(mask, (0, radius), (width - 1, height - 1 - radius), 255, -1)
    for cx, cy in ((radius, radius), (width - 1 - radius, radius),
                   (radius, height - 1 - radius), (width - 1 - radius, height - 1 - radius)):
        cv2.circle(mask, (cx, cy), radius, 255, -1, cv2.LINE_AA)
    return mask.astype(np.float32) / 255


# ---- where the cards lie on the table, in millimetres ----

@dataclass(frozen=True)
class _Lie:
    card: Card
    centre: tuple[float, float]  # mm on the table
    angle: float  # radians, of the card's own up direction; includes the 180 degree turn
    upside_down: bool


def _plaza_lies(rng: np.random.Generator, cards: tuple[Card, ...]) -> list[_Lie]:
    """P5: a row per colour present (in any order on the table), a column per number; cards
    in a row touching, rows a little apart, each card slightly askew."""
    colours = [colour for colour in COLOURS if any(card.colour is colour for card in cards)]
    order = [colours[i] for i in rng.permutation(len(colours))]
    gap = rng.uniform(-0.3, 1.5)
    row_gap = rng.uniform(1.0, 12.0)
    turned_share = float(rng.choice((0.0, 0.1, 0.3, 0.5)))
    lies = []
    for card in cards:
        row = order.index(card.colour)
        x = (card.number - 1) * (CARD_MM[0] + gap) + rng.normal(0, 0.4)
        y = row * (CARD_MM[1] + row_gap) + rng.normal(0, 0.5)
        upside_down = bool(rng.random() < turned_share)
        angle = math.radians(rng.normal(0, 0.8)) + (math.pi if upside_down else 0.0)
        lies.append(_Lie(card, (x, y), angle, upside_down))
    return lies


def _hand_lies(rng: np.random.Generator, cards: tuple[Card, ...]) -> list[_Lie]:
    """Cards lying apart, anywhere on a patch of table, each at its own angle."""
    spread = 190 * math.sqrt(len(cards)) + 60
    tidy = rng.random() < 0.5  # laid out roughly upright, or tossed down anyhow
    centres: list[tuple[float, float]] = []
    lies = []
    for card in cards:
        while True:
            centre = (rng.uniform(0, spread), rng.uniform(0, spread * 0.75))
            # Apart: no two cards' circumscribed circles touch.
            if all(math.dist(centre, other) > 112 for other in centres):
                break
            spread *= 1.01
        centres.append(centre)
        upside_down = bool(rng.random() < 0.3)
        tilt = rng.normal(0, 0.25) if tidy else rng.uniform(-math.pi, math.pi)
        lies.append(_Lie(card, centre, tilt + (math.pi if upside_down else 0.0), upside_down))
    return lies


def _card_corners_mm(lie: _Lie) -> np.ndarray:
    """The card's own top-left, top-right, bottom-right, bottom-left on the table (mm)."""
    w, h = CARD_MM[0] / 2, CARD_MM[1] / 2
    local = np.array([(-w, -h), (w, -h), (w, h), (-w, h)])
    c, s = math.cos(lie.angle), math.sin(lie.angle)
    return local @ np.array([[c, s], [-s, c]]) + lie.centre


# ---- the camera ----

def _camera(rng: np.random.Generator, lies: list[_Lie], size: tuple[int, int]
            ) -> tuple[np.ndarray, float]:
    """A homography from table millimetres to photo pixels, and the tilt in degrees.

    A pinhole camera (phone-like focal length) tilted up to 30 degrees from looking straight
    down, at any roll; then zoomed and shifted so the cards fill part of the frame."""
    width, height = size
    tilt = float(rng.uniform(0, 30))
    focal = max(size) * rng.uniform(0.75, 1.2)
    corners = np.concatenate([_card_corners_mm(lie) for lie in lies])
    middle = (corners.min(axis=0) + corners.max(axis=0)) / 2
    roll = rng.uniform(-math.pi, math.pi) if rng.random() < 0.3 else rng.normal(0, 0.2)
    turn = _rotation_z(rng.uniform(-math.pi, math.pi))
    rotation = _rotation_z(roll) @ turn.T @ _rotation_x(math.radians(tilt)) @ turn
    fill = rng.uniform(0.55, 0.92)
    # Far enough for the cards to fill `fill` of the frame: this sets how strong perspective is.
    distance = max(300.0, float(np.ptp(corners, axis=0).max()) * focal / (fill * max(size)))
    k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    to_centre = np.array([[1, 0, -middle[0]], [0, 1, -middle[1]], [0, 0, 1]])
    homography = k @ np.column_stack([rotation[:, 0], rotation[:, 1], (0, 0, distance)]) \
        @ to_centre
    seen = _project(homography, corners)
    extent = seen.max(axis=0) - seen.min(axis=0)
    zoom = fill * min(width / extent[0], height / extent[1])
    # A photo of the table, not of one card: a card at most 40 % of the frame's short side.
    card_px = np.linalg.norm(seen[1] - seen[2]) * zoom
    zoom *= min(1.0, 0.4 * min(size) / card_px)
    low, high = seen.min(axis=0) * zoom, seen.max(axis=0) * zoom
    slack = np.array(size) - (high - low)
    shift = -low + slack * rng.uniform(0.1, 0.9, 2)
    frame = np.array([[zoom, 0, shift[0]], [0, zoom, shift[1]], [0, 0, 1]])
    return frame @ homography, tilt


def _rotation_z(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


def _rotation_x(angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64)[None], homography)[0]


# ---- the table surface ----

def _surface(rng: np.random.Generator, kind: str, shape: tuple[int, int], mm: float
             ) -> np.ndarray:
    """`kind` of table surface, RGB float32, `shape` pixels at `mm` pixels per millimetre."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / mm  # millimetres
    if kind == "wood":
        base = np.array(rng.choice([(150, 100, 60), (190, 140, 90), (110, 70, 40),
                                    (205, 170, 120)]), np.float32) / 255
        plank = rng.uniform(90, 180)
        board = np.floor(yy / plank)
        # Grain runs along the planks: lines a few mm apart that wander slowly, and streaks
        # long along the grain and thin across it.
        wobble = _smooth_noise(rng, shape, (60 * mm, 40 * mm)) * rng.uniform(3, 10)
        rings = np.sin((yy + wobble + board * 37) * 2 * np.pi / rng.uniform(3, 8))
        streak = _smooth_noise(rng, shape, (80 * mm, 0.8 * mm))
        seam = np.mod(yy, plank) < 1.2
        tone = 1 + 0.07 * rings + 0.08 * streak + 0.1 * (np.mod(board, 3) - 1) - 0.35 * seam
        return base * tone[..., None]
    if kind == "felt":
        base = np.array(rng.choice([(30, 100, 60), (40, 60, 120), (120, 30, 40),
                                    (70, 70, 75)]), np.float32) / 255
        return base * (1 + 0.12 * _smooth_noise(rng, shape, 0.7 * mm)
                       + 0.06 * _smooth_noise(rng, shape, 30 * mm))[..., None]
    if kind == "gingham":
        check = rng.uniform(8, 25)
        colour = np.array(rng.choice([(190, 40, 40), (40, 70, 150), (40, 120, 60)]),
                          np.float32) / 255
        bands = ((np.mod(xx, 2 * check) < check).astype(np.float32)
                 + (np.mod(yy, 2 * check) < check))
        white = np.full(3, 0.93, np.float32)
        weight = (bands / 2)[..., None]
        return white * (1 - weight) + colour * weight
    if kind == "polka cloth":
        ground = np.array(rng.choice([(30, 50, 110), (240, 220, 180), (150, 30, 60)]),
                          np.float32) / 255
        dot = np.array(rng.choice([(245, 245, 240), (220, 180, 40), (40, 40, 40)]),
                       np.float32) / 255
        pitch, radius = rng.uniform(15, 40), rng.uniform(3, 8)
        dy = np.mod(yy, pitch) - pitch / 2
        dx = np.mod(xx + (np.floor(yy / pitch) % 2) * pitch / 2, pitch) - pitch / 2
        inside = np.clip(radius - np.hypot(dx, dy), 0, 1)[..., None]
        return ground * (1 - inside) + dot * inside
    if kind in ("dark mat", "light mat"):
        level = rng.uniform(0.08, 0.22) if kind == "dark mat" else rng.uniform(0.65, 0.85)
        hue = np.array(rng.uniform(0.9, 1.1, 3), np.float32)
        return level * hue * (1 + 0.05 * _smooth_noise(rng, shape, 1.5 * mm))[..., None]
    return _photo_surface(rng, kind, shape, mm)


def _photo_surface(rng: np.random.Generator, kind: str, shape: tuple[int, int], mm: float
                   ) -> np.ndarray:
    """scikit-image's real textures, tinted and tiled over the table at a life-like scale."""
    from skimage import data

    grey = {"brick": data.brick, "gravel": data.gravel, "grass rug": data.grass}[kind]()
    tint = np.array(rng.uniform(0.6, 1.0, 3), np.float32)
    texture = (grey.astype(np.float32) / 255)[..., None] * tint
    # Mirrored tiles meet without a seam.
    texture = np.concatenate([texture, texture[:, ::-1]], axis=1)
    texture = np.concatenate([texture, texture[::-1]], axis=0)
    scale = rng.uniform(300, 700) * mm / max(grey.shape)  # table pixels per texture pixel
    # Tiled at the texture's own size, then resized once: memory stays that of the table.
    need = (math.ceil(shape[0] / scale) + 1, math.ceil(shape[1] / scale) + 1)
    reps = (need[0] // texture.shape[0] + 1, need[1] // texture.shape[1] + 1, 1)
    source = np.tile(texture, reps)[:need[0], :need[1]]
    table = cv2.resize(source, (round(need[1] * scale), round(need[0] * scale)),
                       interpolation=cv2.INTER_LINEAR)
    return table[:shape[0], :shape[1]]


def _smooth_noise(rng: np.random.Generator, shape: tuple[int, int],
                  scale_px: float | tuple[float, float]) -> np.ndarray:
    """Noise of about unit spread with features `scale_px` across (or (along x, along y)),
    made at low resolution."""
    along_x, along_y = scale_px if isinstance(scale_px, tuple) else (scale_px, scale_px)
    small = (max(2, round(shape[1] / max(along_x, 1))), max(2, round(shape[0] / max(along_y, 1))))
    noise = rng.normal(0, 1, (small[1], small[0])).astype(np.float32)
    return cv2.resize(noise, (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)


# ---- the photo ----

def render_photo(seed: int, *, kind: Kind | None = None, size: tuple[int, int] | None = None,
                 cards: tuple[Card, ...] | None = None,
                 typefaces: tuple[Typeface, ...] | None = None, deck: Deck | None = None
                 ) -> Photo:
    """One photo of a Plaza (legal or illegal) or of a hand, all choices drawn from `seed`
    (but the `deck`, when given)."""
    rng = np.random.default_rng(seed)
    typefaces = typefaces or unseen_typefaces()
    if not typefaces:
        raise RuntimeError(MISSING_FONTS)
    kind = kind or str(rng.choice(("legal", "illegal", "hand"), p=(0.4, 0.35, 0.25)))
    if size is None:
        size = PHONE_SIZES[rng.choice(len(PHONE_SIZES),
                                      p=(0.3, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.05, 0.05))]
        if rng.random() < 0.25:
            size = size[::-1]
    deck = deck or random_deck(rng, typefaces)
    if cards is None:
        if kind == "hand":
            cards = tuple(sorted(_random_cards(rng, int(rng.integers(1, 12)), set())))
        else:
            cards = plaza_layout(rng, int(rng.integers(3, 41)), legal=kind == "legal")
    lies = _hand_lies(rng, cards) if kind == "hand" else _plaza_lies(rng, cards)
    lies = [lies[i] for i in rng.permutation(len(lies))]  # the order cards went down
    homography, tilt = _camera(rng, lies, size)
    surface = str(rng.choice(SURFACES))
    image = _table(rng, surface, homography, size)
    light_direction = rng.uniform(-math.pi, math.pi)
    placed = [_lay(image, rng, deck, lie, homography, light_direction) for lie in lies]
    image, light = _light(rng, image)
    image, blur, noise = _optics(rng, image)
    image *= 255
    bgr = cv2.cvtColor(np.clip(image, 0, 255, out=image).astype(np.uint8), cv2.COLOR_RGB2BGR)
    quality = int(rng.integers(60, 96))
    jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
    megapixels = size[0] * size[1] / 1e6
    card_height = float(np.median([height_px(placed) for placed in placed]))
    conditions = {
        "kind": kind, "typeface": deck.typeface.name, "artwork": deck.artwork,
        "indices": deck.indices, "surface": surface, "light": light,
        "tilt": f"{int(tilt // 10) * 10}-{int(tilt // 10) * 10 + 10} deg",
        "blur": blur, "noise": noise, "jpeg": f"q{quality // 10 * 10}s",
        "size": f"{round(megapixels)} MP",
        "cards": "1-11" if len(cards) <= 11 else "12-25" if len(cards) <= 25 else "26-40",
        "turned": "some turned 180" if any(p.upside_down for p in placed) else "none turned",
        "card height": height_bucket(card_height),
    }
    return Photo(bgr, jpeg, tuple(placed), deck, kind, conditions)


def render_full_deck(deck: Deck, seed: int, size: tuple[int, int] = (4000, 3000)) -> Photo:
    """A photo of the whole `deck` laid out as a full Plaza (P5: 5 rows of 12), as a user
    takes it once to teach the reader the deck: its light, table and camera drawn from `seed`."""
    return render_photo(seed, kind="legal", size=size, cards=PACK, deck=deck)


def height_px(placed: PlacedCard) -> float:
    """The card's height on the photo, in pixels (the mean of its two long sides)."""
    tl, tr, br, bl = (np.array(corner) for corner in placed.corners)
    return float(np.linalg.norm(tl - bl) + np.linalg.norm(tr - br)) / 2


def height_bucket(pixels: float) -> str:
    bounds = (60, 100, 160, 250, 400)
    low = max((bound for bound in bounds if bound <= pixels), default=0)
    high = min((bound for bound in bounds if bound > pixels), default=None)
    return f"{low:>3}-{high} px" if high else f"{low}+ px"  # padded: sorts by size


def _table(rng: np.random.Generator, surface: str, homography: np.ndarray,
           size: tuple[int, int]) -> np.ndarray:
    """The table surface seen through the camera, RGB float32."""
    width, height = size
    frame = np.array([(0, 0), (width, 0), (width, height), (0, height)], np.float64)
    table = _project(np.linalg.inv(homography), frame)
    low, high = table.min(axis=0), table.max(axis=0)
    # Texture at roughly the photo's own resolution, but never a huge plane.
    mm = min(_pixels_per_mm(homography, (low + high) / 2),
             math.sqrt(6e6 / np.prod(high - low)))
    shape = (int((high[1] - low[1]) * mm) + 2, int((high[0] - low[0]) * mm) + 2)
    texture = _surface(rng, surface, shape, mm).astype(np.float32)
    to_table = np.array([[1 / mm, 0, low[0]], [0, 1 / mm, low[1]], [0, 0, 1]])
    return cv2.warpPerspective(texture, homography @ to_table, size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def _pixels_per_mm(homography: np.ndarray, point: np.ndarray) -> float:
    ends = _project(homography, np.array([point, point + (1.0, 0.0), point + (0.0, 1.0)]))
    return float(max(np.linalg.norm(ends[1] - ends[0]), np.linalg.norm(ends[2] - ends[0])))


def _lay(image: np.ndarray, rng: np.random.Generator, deck: Deck, lie: _Lie,
         homography: np.ndarray, light_direction: float) -> PlacedCard:
    """Draws the card and its soft contact shadow into `image`; returns its ground truth."""
    corners_mm = _card_corners_mm(lie)
    corners = _project(homography, corners_mm)
    on_photo_height = max(np.linalg.norm(corners[0] - corners[3]),
                          np.linalg.norm(corners[1] - corners[2]))
    face_height = int(np.clip(on_photo_height * 1.3, 48, 900))
    face = render_face(deck, lie.card, face_height, rng)
    mask = _card_mask(face_height, deck.corner_mm)
    face_corners = np.array([(0, 0), (face.shape[1], 0), (face.shape[1], face_height),
                             (0, face_height)], np.float32)
    to_photo = cv2.getPerspectiveTransform(face_corners, corners.astype(np.float32))
    mm_px = on_photo_height / CARD_MM[1]
    pad = int(4 * mm_px) + 3
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - pad, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + pad,
                        (image.shape[1], image.shape[0]))
    roi = (x1 - x0, y1 - y0)
    into_roi = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]]) @ to_photo
    coverage = cv2.warpPerspective(mask, into_roi, roi, flags=cv2.INTER_LINEAR)
    # Contact shadow: the card's outline, blurred and pushed away from the light.
    offset = 0.8 * mm_px
    shift = np.float32([[1, 0, offset * math.cos(light_direction)],
                        [0, 1, offset * math.sin(light_direction)]])
    shadow = cv2.GaussianBlur(cv2.warpAffine(coverage, shift, roi), (0, 0), 0.9 * mm_px + 0.5)
    region = image[y0:y1, x0:x1]
    region *= (1 - rng.uniform(0.25, 0.45) * shadow)[..., None]
    warped = cv2.warpPerspective(face, into_roi, roi, flags=cv2.INTER_LINEAR)
    region[:] = region * (1 - coverage[..., None]) + warped * coverage[..., None]
    own_order = tuple((float(x), float(y)) for x, y in corners)
    return PlacedCard(lie.card, own_order, lie.upside_down)


def _light(rng: np.random.Generator, image: np.ndarray) -> tuple[np.ndarray, str]:
    """Home light: a colour cast, a brightness gradient, one soft shadow, maybe a glare spot."""
    height, width = image.shape[:2]
    warmth = rng.uniform(-1, 1)
    cast = np.array([1 + 0.12 * warmth, 1.0, 1 - 0.28 * warmth], np.float32)
    small = (64, 48)
    yy, xx = np.mgrid[0:small[1], 0:small[0]].astype(np.float32)
    xx, yy = xx / small[0] - 0.5, yy / small[1] - 0.5
    direction = rng.uniform(-math.pi, math.pi)
    gradient = 1 + rng.uniform(0, 0.45) * (xx * math.cos(direction) + yy * math.sin(direction))
    vignette = 1 - rng.uniform(0, 0.35) * (xx ** 2 + yy ** 2) * 2
    # A shadow across part of the photo (an arm, a lamp shade): a half plane or a blob.
    if rng.random() < 0.5:
        angle = rng.uniform(-math.pi, math.pi)
        signed = xx * math.cos(angle) + yy * math.sin(angle) - rng.uniform(-0.3, 0.3)
    else:
        cx, cy, r = rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), rng.uniform(0.15, 0.4)
        signed = r - np.hypot(xx - cx, (yy - cy) * small[1] / small[0])
    softness = rng.uniform(0.01, 0.12)
    shade = 1 / (1 + np.exp(-signed / softness))
    depth = rng.uniform(0.3, 0.6)
    # Shadows are lit by the room's other light: a little cooler than the lamp.
    cool_shade = 1 + shade[..., None] * np.array([-0.05, 0, 0.06])
    gain = ((gradient * vignette * (1 - depth * shade))[..., None] * cool_shade * cast
            * rng.uniform(0.8, 1.15)).astype(np.float32)
    image *= cv2.resize(gain, (width, height), interpolation=cv2.INTER_LINEAR)
    glare = rng.random() < 0.25
    if glare:
        gx, gy = rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height
        sigma = rng.uniform(0.05, 0.15) * max(width, height)
        blob = np.exp(-((xx + 0.5) * width - gx) ** 2 / (2 * sigma ** 2)
                      - ((yy + 0.5) * height - gy) ** 2 / (2 * sigma ** 2)).astype(np.float32)
        spot = cv2.resize(blob, (width, height), interpolation=cv2.INTER_LINEAR)
        image += (rng.uniform(0.1, 0.35) * spot)[..., None] * (1 - image)
    label = "warm" if warmth > 0.33 else "cool" if warmth < -0.33 else "neutral"
    return image, f"{label}{' + glare' if glare else ''}"


def _optics(rng: np.random.Generator, image: np.ndarray) -> tuple[np.ndarray, str, str]:
    """Lens blur (or a little hand shake) and sensor noise, scaled to the photo's size."""
    scale = max(image.shape[:2]) / 4000
    sigma = rng.uniform(0, 2.5) * scale
    shake = rng.random() < 0.2
    if shake:
        length = max(3, round(rng.uniform(3, 9) * scale)) | 1
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2] = 1 / length
        rotation = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5),
                                           rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rotation, (length, length))
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if sigma > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), sigma)
    level = rng.uniform(0.004, 0.03)
    noise = rng.standard_normal(image.shape[:2], dtype=np.float32)
    # Mostly luminance noise, stronger in the dark, as a phone sensor gives.
    noise *= level * (1.2 - 0.6 * cv2.cvtColor(image, cv2.COLOR_RGB2GRAY))
    image += noise[..., None]
    blur = f"sigma {sigma / scale:.0f}{' + shake' if shake else ''}"
    return image, blur, f"noise {'high' if level > 0.02 else 'low'}"
