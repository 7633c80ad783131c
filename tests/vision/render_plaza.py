"""Renders photos of Plaza layouts and hands, with their truth, for the reader's tests and bench.

Everything the issue lists varies: deck (paper, ink shades, typeface, numeral size, corner
indices, border, artwork, marks under 6 and 9), layout (legal and illegal, 3 to 40 cards, cards
turned 180°), surface (scikit-image photos and textures, tinted), light (warm or cool, uneven, a
shadow), camera (in-plane turn, tilt up to about 30°), blur, noise and JPEG compression.
A seed fixes everything, so a set is reproducible. Typefaces are split into a tuning set and a
held-out set, so the bench can report on typefaces the numeral classifier never saw.
"""

from __future__ import annotations

import glob
import importlib.util
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.games.plaza_cards import COLOURS, PACK, Card, Colour

CARD_MM = (63.0, 88.0)


@dataclass(frozen=True)
class Typeface:
    """A TrueType file, or a Hershey font of cv2.putText (id, stroke thickness per 100 px)."""

    path: str = ""
    hershey: int = -1
    weight: float = 8.0

    @property
    def name(self) -> str:
        return self.path.rsplit("/", 1)[-1] if self.path else f"hershey{self.hershey}"


def _ttfs(pattern: str) -> tuple[Typeface, ...]:
    return tuple(Typeface(path) for path in sorted(glob.glob(pattern)) if "Math" not in path)


@cache
def tuning_typefaces() -> tuple[Typeface, ...]:
    """Typefaces the numeral classifier is trained on (and the renders used to tune the reader)."""
    hershey = (Typeface(hershey=cv2.FONT_HERSHEY_SIMPLEX, weight=9),
               Typeface(hershey=cv2.FONT_HERSHEY_DUPLEX, weight=12),
               Typeface(hershey=cv2.FONT_HERSHEY_COMPLEX, weight=10))
    return _ttfs("/usr/share/fonts/truetype/dejavu/*.ttf") + hershey


@cache
def training_typefaces() -> tuple[Typeface, ...]:
    """The tuning typefaces and, for more variety of digit shapes, the KaTeX faces that the
    flet_web package ships (Computer Modern serif, sans and typewriter, Fraktur): the numeral
    classifier is trained on these, the renders keep to the tuning set."""
    spec = importlib.util.find_spec("flet_web")
    if spec is None or spec.origin is None:
        return tuning_typefaces()
    fonts = Path(spec.origin).parent / "web/assets/packages/flutter_math_fork/lib/katex_fonts/fonts"
    return tuning_typefaces() + tuple(
        typeface for family in ("Main", "SansSerif", "Typewriter", "Fraktur")
        for typeface in _ttfs(f"{fonts}/KaTeX_{family}-*.ttf"))


@cache
def held_out_typefaces() -> tuple[Typeface, ...]:
    """Typefaces never used for training or tuning: only for the held-out report."""
    hershey = (Typeface(hershey=cv2.FONT_HERSHEY_TRIPLEX, weight=11),
               Typeface(hershey=cv2.FONT_HERSHEY_PLAIN, weight=14))
    return _ttfs("/usr/share/fonts/truetype/liberation/*.ttf") + hershey


# Ink shades per colour (RGB), from which a deck picks and jitters: decks differ.
INKS: dict[Colour, tuple[tuple[int, int, int], ...]] = {
    Colour.RED: ((200, 30, 35), (220, 50, 40), (175, 20, 45), (230, 60, 60)),
    Colour.GREEN: ((30, 130, 60), (20, 110, 40), (40, 150, 90), (60, 140, 50)),
    Colour.YELLOW: ((235, 190, 20), (245, 205, 40), (220, 170, 10), (240, 215, 60)),
    Colour.BROWN: ((120, 70, 35), (140, 85, 45), (100, 55, 30), (150, 95, 55)),
    Colour.BLACK: ((25, 25, 25), (45, 40, 40), (15, 20, 30), (60, 55, 50)),
}
PAPERS = ((250, 248, 240), (245, 238, 220), (252, 252, 252), (240, 235, 215), (248, 244, 232))


@dataclass(frozen=True)
class Deck:
    typeface: Typeface
    inks: tuple[tuple[int, int, int], ...]  # RGB, in Colour order
    paper: tuple[int, int, int]
    numeral_height: float  # fraction of the card's height
    numeral_lift: float  # centre of the numeral above the card's centre, fraction of height
    indices: bool
    border: bool
    artwork: str  # "none", "emblem", "picture", "stripes"
    mark_6_9: bool  # a bar under 6 and 9, as many decks print


def random_deck(rng: np.random.Generator, typefaces: tuple[Typeface, ...]) -> Deck:
    def jitter(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
        return tuple(int(np.clip(c + rng.integers(-12, 13), 0, 255)) for c in rgb)

    inks = tuple(jitter(INKS[colour][rng.integers(len(INKS[colour]))]) for colour in COLOURS)
    artwork = ("none", "emblem", "picture", "stripes")[rng.integers(4)]
    return Deck(typeface=typefaces[rng.integers(len(typefaces))], inks=inks,
                paper=jitter(PAPERS[rng.integers(len(PAPERS))]),
                numeral_height=float(rng.uniform(0.26, 0.42)),
                numeral_lift=float(rng.uniform(-0.04, 0.06)) if artwork == "none" else 0.0,
                indices=bool(rng.random() < 0.6), border=bool(rng.random() < 0.4),
                artwork=artwork, mark_6_9=bool(rng.random() < 0.7))


def render_text(typeface: Typeface, text: str, height: int, ink: tuple[int, int, int]
                ) -> np.ndarray:
    """An RGBA tile with `text` in `ink`, its digits `height` pixels tall, tightly cropped."""
    if typeface.path:
        font = ImageFont.truetype(typeface.path, size=max(4, int(height * 1.4)))
        left, top, right, bottom = font.getbbox(text)
        scale = height / max(1, bottom - top)
        font = ImageFont.truetype(typeface.path, size=max(4, int(height * 1.4 * scale)))
        left, top, right, bottom = font.getbbox(text)
        tile = Image.new("L", (right - left + 4, bottom - top + 4), 0)
        ImageDraw.Draw(tile).text((2 - left, 2 - top), text, font=font, fill=255)
        alpha = np.asarray(tile)
    else:
        scale = height / 22.0  # Hershey digits are about 22 units tall at scale 1
        thickness = max(1, round(height * typeface.weight / 100))
        (width, tall), _ = cv2.getTextSize(text, typeface.hershey, scale, thickness)
        alpha = np.zeros((tall + 4 * thickness + 4, width + 2 * thickness + 4), np.uint8)
        cv2.putText(alpha, text, (thickness + 2, tall + 2 * thickness + 2), typeface.hershey,
                    scale, 255, thickness, cv2.LINE_AA)
        ys, xs = np.nonzero(alpha)
        alpha = alpha[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    tile = np.zeros((*alpha.shape, 4), np.uint8)
    tile[..., :3] = ink
    tile[..., 3] = alpha
    return tile


def render_numeral(typeface: Typeface, number: int, height: int, ink: tuple[int, int, int],
                   mark: bool) -> np.ndarray:
    """The card's big numeral as an RGBA tile; `mark` puts a bar under 6 and 9."""
    tile = render_text(typeface, str(number), height, ink)
    if not (mark and number in (6, 9)):
        return tile
    bar = max(2, height // 12)
    marked = np.zeros((tile.shape[0] + 3 * bar, tile.shape[1], 4), np.uint8)
    marked[:tile.shape[0]] = tile
    marked[-bar:, tile.shape[1] // 6: tile.shape[1] * 5 // 6] = (*ink, 255)
    return marked


def _paste(canvas: np.ndarray, tile: np.ndarray, centre: tuple[float, float]) -> None:
    """Alpha-blend an RGBA tile onto an RGB canvas (clipped at the edges)."""
    h, w = tile.shape[:2]
    top, left = int(round(centre[1] - h / 2)), int(round(centre[0] - w / 2))
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(canvas.shape[0], top + h), min(canvas.shape[1], left + w)
    if y1 <= y0 or x1 <= x0:
        return
    part = tile[y0 - top:y1 - top, x0 - left:x1 - left]
    alpha = part[..., 3:4].astype(np.float32) / 255
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    canvas[y0:y1, x0:x1] = (region * (1 - alpha) + part[..., :3] * alpha).astype(np.uint8)


@cache
def _pictures() -> tuple[np.ndarray, ...]:
    from skimage import data
    return (data.astronaut(), data.coffee(), data.chelsea(), data.rocket())


def render_card(deck: Deck, card: Card, width: int, rng: np.random.Generator) -> np.ndarray:
    """The card's face as RGBA (rounded corners transparent), upright."""
    height = int(round(width * CARD_MM[1] / CARD_MM[0]))
    ink = deck.inks[card.colour.row]
    face = np.empty((height, width, 3), np.uint8)
    face[:] = deck.paper
    if deck.border:
        inset = int(width * 0.05)
        cv2.rectangle(face, (inset, inset), (width - inset, height - inset), ink,
                      max(1, width // 90), cv2.LINE_AA)
    centre_y = height * (0.5 - deck.numeral_lift)
    if deck.artwork == "emblem":
        radius = int(width * 0.09)
        for y in (height * 0.17, height * 0.83):
            cv2.circle(face, (width // 2, int(y)), radius, ink, max(1, width // 60), cv2.LINE_AA)
    elif deck.artwork == "picture":
        picture = _pictures()[card.number % 4]
        size = (int(width * 0.5), int(height * 0.18))
        face[int(height * 0.06):int(height * 0.06) + size[1],
             (width - size[0]) // 2:(width - size[0]) // 2 + size[0]] = cv2.resize(picture, size)
    elif deck.artwork == "stripes":
        for y in (0.14, 0.86):
            cv2.line(face, (int(width * 0.2), int(height * y)), (int(width * 0.8), int(height * y)),
                     ink, max(2, width // 40), cv2.LINE_AA)
    numeral = render_numeral(deck.typeface, card.number, int(height * deck.numeral_height), ink,
                             deck.mark_6_9)
    if numeral.shape[1] > width * 0.8:  # two-digit numbers in wide typefaces
        scale = width * 0.8 / numeral.shape[1]
        numeral = cv2.resize(numeral, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    _paste(face, numeral, (width / 2, centre_y))
    if deck.indices:
        index = render_text(deck.typeface, str(card.number), int(height * 0.07), ink)
        spot = (width * 0.12, height * 0.08)
        _paste(face, index, spot)
        _paste(face, index[::-1, ::-1], (width - spot[0], height - spot[1]))
    alpha = np.zeros((height, width), np.uint8)
    radius = int(width * 0.06)
    cv2.rectangle(alpha, (radius, 0), (width - radius, height), 255, -1)
    cv2.rectangle(alpha, (0, radius), (width, height - radius), 255, -1)
    for x, y in ((radius, radius), (width - radius, radius), (radius, height - radius),
                 (width - radius, height - radius)):
        cv2.circle(alpha, (x, y), radius, 255, -1, cv2.LINE_AA)
    return np.dstack([face, alpha])


@dataclass(frozen=True)
class PlacedCard:
    card: Card
    corners: tuple[tuple[float, float], ...]  # in photo pixels, the card's own top-left first
    upside_down: bool


@dataclass(frozen=True)
class Photo:
    image: np.ndarray  # BGR uint8
    jpeg: bytes
    cards: tuple[PlacedCard, ...]
    deck: Deck


def random_layout(rng: np.random.Generator, size: int, legal: bool) -> tuple[Card, ...]:
    """About `size` cards (3..40) arranged by P5 when `legal`, with stray cards otherwise."""
    cards: set[Card] = set()
    while len(cards) < size:
        if rng.random() < 0.6:
            colour = COLOURS[rng.integers(5)]
            start = int(rng.integers(1, 11))
            length = int(rng.integers(3, 6))
            cards |= {Card(colour, n) for n in range(start, min(13, start + length))}
        else:
            number = int(rng.integers(1, 13))
            chosen = rng.choice(5, size=int(rng.integers(3, 6)), replace=False)
            cards |= {Card(COLOURS[c], number) for c in chosen}
    if not legal:
        for _ in range(int(rng.integers(1, 3))):
            cards.add(Card(COLOURS[rng.integers(5)], int(rng.integers(1, 13))))
        if rng.random() < 0.5 and len(cards) > 3:
            cards.discard(sorted(cards)[rng.integers(len(cards))])
    return tuple(sorted(cards))


@cache
def _surfaces() -> tuple[np.ndarray, ...]:
    from skimage import data
    grey = tuple(cv2.cvtColor(image, cv2.COLOR_GRAY2RGB) for image in
                 (data.brick(), data.grass(), data.gravel(), data.camera(), data.moon()))
    return grey + (data.coffee(), data.chelsea(), data.astronaut(), data.rocket(),
                   data.immunohistochemistry(), data.stereo_motorcycle()[0])


def _surface(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A table: a real texture or photo, tinted (wood, cloth, dark or light mat) or a check."""
    kind = rng.random()
    if kind < 0.12:  # a checked tablecloth
        cell = int(rng.integers(20, 60)) * shape[1] // 1000 + 4
        ys, xs = np.indices(shape)
        checks = ((ys // cell + xs // cell) % 2).astype(np.float32)
        light = np.array(PAPERS[rng.integers(len(PAPERS))], np.float32)
        dark = rng.uniform(40, 200, 3).astype(np.float32)
        return (checks[..., None] * light + (1 - checks[..., None]) * dark).astype(np.uint8)
    source = _surfaces()[rng.integers(len(_surfaces()))].astype(np.float32)
    tint = rng.uniform(0.35, 1.1, 3)
    if kind < 0.25:  # a plain mat, dark or light, with a faint texture
        level = rng.choice([rng.uniform(30, 90), rng.uniform(150, 215)])
        source = level + (source - source.mean()) * 0.15
        tint = rng.uniform(0.8, 1.1, 3)
    tile = cv2.resize(np.clip(source * tint, 0, 255).astype(np.uint8),
                      (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    return tile


def _plane_positions(cards: tuple[Card, ...], hand: bool, card_w: float,
                     rng: np.random.Generator) -> list[tuple[float, float, float]]:
    """Centre x, y (card widths) and turn (degrees) of each card on the table plane."""
    card_h = card_w * CARD_MM[1] / CARD_MM[0]
    if hand:
        placed: list[tuple[float, float, float]] = []
        columns = math.ceil(math.sqrt(len(cards) * 1.5))
        for index in range(len(cards)):
            row, column = divmod(index, columns)
            placed.append((column * card_h * 1.45 + rng.uniform(-0.12, 0.12) * card_w,
                           row * card_h * 1.45 + rng.uniform(-0.12, 0.12) * card_w,
                           float(rng.uniform(0, 360))))
        return placed
    gap_x = rng.uniform(0, 0.02) * card_w  # cards in a row touch
    gap_y = rng.uniform(0.03, 0.15) * card_w  # rows close together
    rows = sorted({card.colour.row for card in cards})
    return [((card.number - 1) * (card_w + gap_x) + rng.normal(0, 0.012) * card_w,
             rows.index(card.colour.row) * (card_h + gap_y) + rng.normal(0, 0.012) * card_w,
             float(rng.normal(0, 0.8) + (180 if rng.random() < 0.3 else 0)))
            for card in cards]


def render_photo(seed: int, *, hand: bool = False, size: tuple[int, int] = (4000, 3000),
                 typefaces: tuple[Typeface, ...] | None = None, cards: tuple[Card, ...] = (),
                 legal: bool | None = None) -> Photo:
    """A photo (width, height) of a Plaza layout or (hand=True) of up to 11 cards lying apart."""
    rng = np.random.default_rng(seed)
    deck = random_deck(rng, typefaces or tuning_typefaces())
    if not cards:
        if hand:
            chosen = rng.choice(len(PACK), size=int(rng.integers(1, 12)), replace=False)
            cards = tuple(sorted(PACK[i] for i in chosen))
        else:
            legal = bool(rng.random() < 0.6) if legal is None else legal
            cards = random_layout(rng, int(rng.integers(3, 41)), legal)
    width, height = size
    card_w = 1.0
    positions = _plane_positions(cards, hand, card_w, rng)
    xs = np.array([p[0] for p in positions])
    ys = np.array([p[1] for p in positions])
    card_h = CARD_MM[1] / CARD_MM[0]
    reach = 1.8 if hand else card_h  # a turned card reaches up to its diagonal
    extent_w = xs.max() - xs.min() + reach
    extent_h = ys.max() - ys.min() + reach
    # The layout fills 30-60% of the table's width or height (more once the camera zooms in).
    fill = rng.uniform(0.3, 0.6)
    pixels_per_card = fill * min(width / extent_w, height / extent_h)
    pixels_per_card = min(pixels_per_card, width / 3.2)
    plane = _surface(rng, (height, width))
    plane_cards: list[tuple[Card, np.ndarray, bool]] = []
    card_px = max(24, int(pixels_per_card))
    offset = np.array([width / 2 - (xs.min() + xs.max()) / 2 * pixels_per_card,
                       height / 2 - (ys.min() + ys.max()) / 2 * pixels_per_card])
    shadow_shift = rng.uniform(-0.02, 0.02, 2) * card_px
    for card, (x, y, turn) in zip(cards, positions, strict=True):
        face = render_card(deck, card, card_px, rng)
        centre = np.array([x, y]) * pixels_per_card + offset
        rotation = cv2.getRotationMatrix2D((face.shape[1] / 2, face.shape[0] / 2), -turn, 1.0)
        rotation[:, 2] += centre - np.array([face.shape[1] / 2, face.shape[0] / 2])
        face_corners = np.array([[0, 0], [face.shape[1], 0], [face.shape[1], face.shape[0]],
                                 [0, face.shape[0]]], np.float64)
        corners = face_corners @ rotation[:, :2].T + rotation[:, 2]
        _lay_card(plane, face, rotation, corners, card_px, shadow_shift)
        plane_cards.append((card, corners, abs(((turn + 90) % 360) - 90) > 90))
    image, homography = _camera(
        plane, rng, np.concatenate([corners for _, corners, _ in plane_cards]))
    image = _light(image, rng)
    placed = tuple(
        PlacedCard(card, tuple(map(tuple, cv2.perspectiveTransform(
            corners.reshape(-1, 1, 2), homography).reshape(-1, 2).tolist())), upside_down)
        for card, corners, upside_down in plane_cards)
    bgr = cv2.cvtColor(image, cv2.COLOR_RGB2BGR)
    quality = int(rng.integers(60, 96))
    jpeg = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])[1].tobytes()
    return Photo(image=cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR),
                 jpeg=jpeg, cards=placed, deck=deck)


def _lay_card(plane: np.ndarray, face: np.ndarray, rotation: np.ndarray, corners: np.ndarray,
              card_px: int, shadow_shift: np.ndarray) -> None:
    """Blend a card (with its soft shadow) onto the plane, working only in its bounding box."""
    margin = int(card_px * 0.1) + 4
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + margin,
                        (plane.shape[1], plane.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    local = rotation.copy()
    local[:, 2] -= (x0, y0)
    warped = cv2.warpAffine(face, local, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                            borderValue=(0, 0, 0, 0))
    shadow = cv2.GaussianBlur(warped[..., 3], (0, 0), card_px * 0.02 + 1)
    shadow = np.roll(shadow, (int(shadow_shift[1]), int(shadow_shift[0])), axis=(0, 1))
    region = plane[y0:y1, x0:x1].astype(np.float32)
    region *= 1 - 0.35 * shadow[..., None].astype(np.float32) / 255
    alpha = warped[..., 3:4].astype(np.float32) / 255
    plane[y0:y1, x0:x1] = (region * (1 - alpha) + warped[..., :3] * alpha).astype(np.uint8)


def _camera(plane: np.ndarray, rng: np.random.Generator, corners: np.ndarray
            ) -> tuple[np.ndarray, np.ndarray]:
    """Turn the photo in-plane and tilt it (a homography of up to about 30° of slant), zoomed so
    that the table fills the photo, and redrawn until every card is in the frame."""
    height, width = plane.shape[:2]
    centre = np.array([width / 2, height / 2])
    source = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    frame = [(0.0, 0.0), (width, 0.0), (width, height), (0.0, height)]
    for _ in range(30):
        turn = math.radians(rng.uniform(-25, 25) + (180 if rng.random() < 0.2 else 0))
        rotate = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        # Tilt: the far edge shrinks; 30° of tilt with a phone's field of view shrinks it ~25%.
        shrink = rng.uniform(0, 0.25)
        far = rng.integers(4)
        shape = source - centre
        for corner in (far, (far + 1) % 4):
            shape[corner] *= 1 - shrink
        shape = shape @ rotate.T + rng.normal(0, 0.01, shape.shape) * width
        zoom = 1.0
        while not all(cv2.pointPolygonTest((shape * zoom + centre).astype(np.float32), point,
                                           False) >= 0 for point in frame):
            zoom *= 1.05
        homography = cv2.getPerspectiveTransform(source, (shape * zoom + centre)
                                                 .astype(np.float32))
        placed = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
        if placed.min() >= 0 and (placed[:, 0] < width).all() and (placed[:, 1] < height).all():
            break
    image = cv2.warpPerspective(plane, homography, (width, height), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REFLECT)
    return image, homography


def _light(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm or cool light, uneven, a shadow across part of it; then blur and sensor noise."""
    height, width = image.shape[:2]
    small = (width // 16, height // 16)
    ys, xs = np.indices((small[1], small[0]), dtype=np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(angle) + ys * math.sin(angle)) / max(small)
    light = rng.uniform(0.75, 1.05) + rng.uniform(-0.25, 0.25) * (ramp - ramp.mean())
    if rng.random() < 0.5:  # a shadow (an arm, a lamp) across part of the photo
        shadow = np.zeros(small[::-1], np.float32)
        points = rng.uniform(0, 1, (4, 2)) * small
        points[:2, 0] = -1
        cv2.fillPoly(shadow, [points.astype(np.int32)], 1.0)
        shadow = cv2.GaussianBlur(shadow, (0, 0), max(small) * 0.02 + 1)
        light = light * (1 - rng.uniform(0.2, 0.45) * shadow)
    light = cv2.resize(light.astype(np.float32), (width, height))
    warm = rng.uniform(-1, 1)  # -1 cool, +1 warm
    tint = np.array([1 + 0.06 * warm, 1.0, 1 - 0.2 * warm], np.float32)  # RGB
    lit = image.astype(np.float32) * light[..., None] * tint
    sigma = rng.uniform(0, 1.6) * width / 4000
    if sigma > 0.3:
        lit = cv2.GaussianBlur(lit, (0, 0), sigma)
    lit += rng.normal(0, rng.uniform(1, 5), lit.shape[:2])[..., None].astype(np.float32)
    return np.clip(lit, 0, 255).astype(np.uint8)
