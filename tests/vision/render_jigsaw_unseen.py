"""A second, independent renderer of Tableau table photos (issue 7), for
bench/vision_tableau_unseen.py and its tests.

The checks were tuned on tests/vision/render_jigsaw.py; this renderer shares nothing of its
drawing, only the case kinds and the verdict each should get (FIT_CASES, EXPECTED_REASON), so
that the bench measures the checks on what they never saw:
- pictures: the scikit-image images render_jigsaw.py does not use (the grey photographs cell,
  page and text printed as duotones; the logo, colour wheel, horse and phantom as
  illustrations) and pictures drawn here: flat shapes with outlines, soft gradients with little
  texture, text posters, repeating patterns and cartoon scenes, several with large flat areas;
- pieces: a 4 × 4 cut along jittered grid lines whose inner edges interlock with knobs of one
  style per picture (round, heart-like, square-ish, asymmetric, or a mix), off-centre, of
  varying neck and depth; straight border; a thin dark or light cut line, a drop shadow, and
  slight gaps between laid pieces;
- tables: oak planks, linen, tartan, polka-dot cloth, a dark cutting mat, light felt, glass;
- camera and light: a perspective camera tilted up to 30°, warm, cool or neutral uneven light,
  a cast shadow, glare, blur, noise, JPEG quality 60-95, 1 to 12 megapixels.
Layout ("table") coordinates are picture pixels: a piece is laid by a rigid 2 × 3 transform
from its picture to the table, so the ground truth is exact geometry. A seed gives the same
photo every time.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
import skimage.data

# The case kinds only (the bench scores both renderers the same way); none of its drawing.
from tests.vision.render_jigsaw import EXPECTED_REASON, FIT_CASES, FitCase

__all__ = ["EXPECTED_REASON", "FIT_CASES", "FitCase"]

GRID = 4
PICTURE_SIZE = (800, 600)  # the pieces of one set are the same size, so are its pictures
RENDER_LONG_SIDE = 1400  # the scene is drawn at about this size, then resized to the photo's
PHOTOGRAPHS = ("cell", "page", "text")
ILLUSTRATIONS = ("logo", "colorwheel", "horse", "phantom")
DRAWN = ("shapes-1", "shapes-2", "gradient-1", "gradient-2", "poster-1", "poster-2",
         "pattern-1", "pattern-2", "cartoon-1", "cartoon-2")
UNSEEN_PICTURES = (*PHOTOGRAPHS, *ILLUSTRATIONS, *DRAWN)
SURFACES = ("oak", "linen", "tartan", "polka", "dark-mat", "light-felt", "glass")
CUT_STYLES = ("round", "heart", "square", "asymmetric", "mixed")
PHOTO_SIZES = ((1280, 960), (1600, 1200), (2048, 1536), (2592, 1944), (3264, 2448), (4000, 3000))
MM_PER_UNIT = 0.4  # an 800-unit picture is 32 cm wide: sizes tables' textures
FAULTS = ("turned", "swapped", "other-picture", "missing")  # ways a counted cell is not right


def picture_kind(name: str) -> str:
    if name in PHOTOGRAPHS:
        return "photograph"
    if name in ILLUSTRATIONS:
        return "illustration"
    return name.split("-")[0]


def _named_rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


# ---------------------------------------------------------------- pictures (BGR uint8)

def _crop_to(image: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The centre of `image` at the aspect of `size`, resized to it."""
    height, width = image.shape[:2]
    aspect = size[0] / size[1]
    if width / height > aspect:
        keep = int(round(height * aspect))
        image = image[:, (width - keep) // 2:(width - keep) // 2 + keep]
    else:
        keep = int(round(width / aspect))
        image = image[(height - keep) // 2:(height - keep) // 2 + keep]
    return cv2.resize(image, size, interpolation=cv2.INTER_CUBIC)


def _colour(rng: np.random.Generator, low: float = 0.0, high: float = 1.0) -> tuple:
    return tuple(float(v) for v in rng.uniform(low, high, 3) * 255)


def _duotone(grey: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A grey photograph printed through a dark-mid-light colour ramp."""
    ramp = np.array([_colour(rng, 0, 0.35), _colour(rng, 0.25, 0.8), _colour(rng, 0.75, 1)])
    level = grey.astype(np.float32)[..., None] / 255 * 2
    low = np.clip(level, 0, 1)
    high = np.clip(level - 1, 0, 1)
    mixed = ramp[0] + (ramp[1] - ramp[0]) * low + (ramp[2] - ramp[1]) * high
    return np.clip(mixed, 0, 255).astype(np.uint8)


def _photograph(name: str, rng: np.random.Generator) -> np.ndarray:
    grey = getattr(skimage.data, name)()
    return _duotone(_crop_to(grey, PICTURE_SIZE), rng)


def _backdrop(rng: np.random.Generator) -> np.ndarray:
    width, height = PICTURE_SIZE
    return np.full((height, width, 3), _colour(rng, 0.3, 1), np.uint8)


def _paste_centre(canvas: np.ndarray, image: np.ndarray, alpha: np.ndarray, scale: float,
                  shift: tuple[float, float]) -> None:
    height, width = canvas.shape[:2]
    side = int(min(width, height) * scale)
    image = cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha.astype(np.float32), (side, side))[..., None]
    x = int((width - side) / 2 + shift[0] * width)
    y = int((height - side) / 2 + shift[1] * height)
    region = canvas[y:y + side, x:x + side]
    region[:] = (region * (1 - alpha) + image * alpha).astype(np.uint8)


def _logo(rng: np.random.Generator) -> np.ndarray:
    picture = _backdrop(rng)
    cv2.rectangle(picture, (0, int(PICTURE_SIZE[1] * rng.uniform(0.75, 0.9))),
                  PICTURE_SIZE, _colour(rng), -1)
    logo = skimage.data.logo()
    _paste_centre(picture, cv2.cvtColor(logo[..., :3], cv2.COLOR_RGB2BGR), logo[..., 3] / 255,
                  rng.uniform(0.7, 0.95), (rng.uniform(-0.1, 0.1), -0.03))
    return picture


def _colour_wheel(rng: np.random.Generator) -> np.ndarray:
    picture = _backdrop(rng)
    wheel = cv2.cvtColor(skimage.data.colorwheel(), cv2.COLOR_RGB2BGR)
    _paste_centre(picture, wheel, wheel.max(axis=2) > 10, rng.uniform(0.75, 0.95),
                  (rng.uniform(-0.15, 0.15), 0))
    _words(picture, rng, 2)
    return picture


def _horse(rng: np.random.Generator) -> np.ndarray:
    picture = _sky_and_ground(rng)
    horse = ~skimage.data.horse()
    colour = np.zeros((*horse.shape, 3), np.uint8)
    colour[:] = _colour(rng, 0.1, 0.5)
    _paste_centre(picture, colour, horse, rng.uniform(0.75, 0.9), (rng.uniform(-0.1, 0.1), 0.02))
    return picture


def _phantom(rng: np.random.Generator) -> np.ndarray:
    grey = (skimage.data.shepp_logan_phantom() * 255).astype(np.uint8)
    maps = (cv2.COLORMAP_OCEAN, cv2.COLORMAP_PINK, cv2.COLORMAP_TWILIGHT, cv2.COLORMAP_SPRING)
    coloured = cv2.applyColorMap(grey, maps[int(rng.integers(len(maps)))])
    picture = _backdrop(rng)
    _paste_centre(picture, coloured, grey > 0, rng.uniform(0.8, 0.98), (0, 0))
    return picture


def _linear_gradient(colours: np.ndarray, direction: float) -> np.ndarray:
    """Float BGR image fading through `colours` along `direction` (radians)."""
    width, height = PICTURE_SIZE
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    along = x * np.cos(direction) + y * np.sin(direction)
    along = (along - along.min()) / (np.ptp(along) + 1e-6) * (len(colours) - 1)
    index = np.minimum(along.astype(int), len(colours) - 2)
    share = (along - index)[..., None]
    return colours[index] * (1 - share) + colours[index + 1] * share


def _sky_and_ground(rng: np.random.Generator) -> np.ndarray:
    width, height = PICTURE_SIZE
    sky = _linear_gradient(np.array([_colour(rng, 0.6, 1), _colour(rng, 0.8, 1)]), np.pi / 2)
    picture = sky.astype(np.uint8)
    horizon = int(height * rng.uniform(0.55, 0.75))
    hills = horizon + (np.sin(np.arange(width) / width * rng.uniform(3, 9) + rng.uniform(0, 6))
                       * height * rng.uniform(0.02, 0.08)).astype(int)
    points = np.array([*zip(range(width), hills, strict=True), (width, height), (0, height)],
                      np.int32)
    cv2.fillPoly(picture, [points], _colour(rng, 0.1, 0.6), cv2.LINE_AA)
    return picture


def _outline_colour(rng: np.random.Generator) -> tuple:
    return _colour(rng, 0, 0.2)


def _shape(picture: np.ndarray, rng: np.random.Generator, fill: tuple, outline: bool) -> None:
    """One flat shape (disc, box, triangle or star), outlined in dark ink when asked."""
    width, height = PICTURE_SIZE
    centre = rng.uniform((0, 0), (width, height))
    radius = rng.uniform(0.04, 0.2) * width
    kind = rng.integers(4)
    if kind == 0:
        points = [centre + radius * np.array([np.cos(a), np.sin(a)])
                  for a in np.linspace(0, 2 * np.pi, 48, endpoint=False)]
    elif kind == 1:
        half = radius * rng.uniform(0.5, 1.2, 2)
        points = [centre + half * corner for corner in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    else:
        tips = 3 if kind == 2 else int(rng.integers(5, 8))
        turn = rng.uniform(0, np.pi)
        points = []
        for step in range(tips * (1 if kind == 2 else 2)):
            angle = turn + step * np.pi * (2 if kind == 2 else 1) / tips
            reach = radius if kind == 2 or step % 2 == 0 else radius * 0.45
            points.append(centre + reach * np.array([np.cos(angle), np.sin(angle)]))
    polygon = np.array(points, np.int32)
    cv2.fillPoly(picture, [polygon], fill, cv2.LINE_AA)
    if outline:
        cv2.polylines(picture, [polygon], True, _outline_colour(rng),
                      int(rng.integers(2, 6)), cv2.LINE_AA)


def _shapes(rng: np.random.Generator) -> np.ndarray:
    picture = _backdrop(rng)
    palette = [_colour(rng) for _ in range(int(rng.integers(4, 7)))]
    outline = rng.random() < 0.7
    for _ in range(int(rng.integers(10, 28))):
        _shape(picture, rng, palette[int(rng.integers(len(palette)))], outline)
    return picture


def _gradient(rng: np.random.Generator) -> np.ndarray:
    """A sunset-like fade with a few soft blobs: little texture for features to hold on to."""
    width, height = PICTURE_SIZE
    colours = np.array([_colour(rng) for _ in range(int(rng.integers(2, 5)))], np.float32)
    picture = _linear_gradient(colours, rng.uniform(0, 2 * np.pi))
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    for _ in range(int(rng.integers(2, 6))):
        cx, cy = rng.uniform((0, 0), (width, height))
        spread = rng.uniform(0.08, 0.3) * width
        weight = np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / (2 * spread ** 2))[..., None]
        picture = picture * (1 - weight) + np.array(_colour(rng), np.float32) * weight
    return np.clip(picture, 0, 255).astype(np.uint8)


WORDS = ("TABLEAU", "SUMMER", "Harbour", "jazz", "1987", "MARKET", "Alpine", "CAFE", "opera",
         "Lighthouse", "SALE", "tide", "ROBOTS", "Garden", "north", "FESTIVAL")
FONTS = (cv2.FONT_HERSHEY_SIMPLEX, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX,
         cv2.FONT_HERSHEY_TRIPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX, cv2.FONT_ITALIC)


def _words(picture: np.ndarray, rng: np.random.Generator, count: int) -> None:
    width, height = PICTURE_SIZE
    for _ in range(count):
        word = str(rng.choice(WORDS))
        font = FONTS[int(rng.integers(len(FONTS)))]
        scale = rng.uniform(1.2, 4.0)
        thickness = int(rng.integers(2, 9))
        (text_width, text_height), _ = cv2.getTextSize(word, font, scale, thickness)
        if text_width >= width:
            scale *= 0.9 * width / text_width
            (text_width, text_height), _ = cv2.getTextSize(word, font, scale, thickness)
        origin = (int(rng.uniform(0, width - text_width)),
                  int(rng.uniform(text_height, height)))
        cv2.putText(picture, word, origin, font, scale, _colour(rng), thickness, cv2.LINE_AA)


def _poster(rng: np.random.Generator) -> np.ndarray:
    width, height = PICTURE_SIZE
    picture = _backdrop(rng)
    edges = np.sort(rng.uniform(0, height, int(rng.integers(1, 4)))).astype(int)
    for top in edges:
        picture[top:] = _colour(rng)
    for _ in range(int(rng.integers(1, 4))):
        corner = rng.uniform((0, 0), (width, height)).astype(int)
        cv2.rectangle(picture, tuple(corner), tuple(corner + rng.integers(60, 300, 2)),
                      _colour(rng), int(rng.integers(3, 10)), cv2.LINE_AA)
    _words(picture, rng, int(rng.integers(4, 9)))
    return picture


def _pattern(rng: np.random.Generator) -> np.ndarray:
    """A repeating motif (stripes, checks or dots) with a few accent shapes over it."""
    width, height = PICTURE_SIZE
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    period = rng.uniform(25, 90)
    kind = rng.integers(3)
    if kind == 0:
        angle = rng.uniform(0, np.pi)
        index = ((x * np.cos(angle) + y * np.sin(angle)) // period).astype(int)
    elif kind == 1:
        index = (x // period).astype(int) + (y // period).astype(int)
    else:
        cell_x, cell_y = (x % period) - period / 2, (y % period) - period / 2
        index = (np.hypot(cell_x, cell_y) < period * rng.uniform(0.2, 0.4)).astype(int)
    palette = np.array([_colour(rng) for _ in range(int(rng.integers(2, 4)))], np.uint8)
    picture = np.ascontiguousarray(palette[index % len(palette)])
    for _ in range(int(rng.integers(1, 4))):
        _shape(picture, rng, _colour(rng), rng.random() < 0.5)
    return picture


def _cartoon(rng: np.random.Generator) -> np.ndarray:
    """Sky, sun, clouds, hills, a house and a tree, in flat colours with dark outlines."""
    width, height = PICTURE_SIZE
    picture = _sky_and_ground(rng)
    ink = _outline_colour(rng)
    line = int(rng.integers(2, 5))
    sun = tuple(int(v) for v in rng.uniform((0.05 * width, 0.05 * height),
                                            (0.95 * width, 0.3 * height)))
    cv2.circle(picture, sun, int(rng.uniform(30, 60)), (60, 210, 250), -1, cv2.LINE_AA)
    cv2.circle(picture, sun, int(rng.uniform(30, 60)), ink, line, cv2.LINE_AA)
    for _ in range(int(rng.integers(1, 4))):
        cx, cy = rng.uniform((0, 0.05 * height), (width, 0.4 * height))
        for _ in range(int(rng.integers(3, 6))):
            centre = (int(cx + rng.uniform(-60, 60)), int(cy + rng.uniform(-15, 15)))
            cv2.circle(picture, centre, int(rng.uniform(20, 40)), (250, 250, 250), -1,
                       cv2.LINE_AA)
    base = int(height * rng.uniform(0.75, 0.85))
    left = int(width * rng.uniform(0.1, 0.5))
    house_width, house_height = int(rng.uniform(150, 260)), int(rng.uniform(110, 180))
    walls = np.array([(left, base), (left + house_width, base),
                      (left + house_width, base - house_height), (left, base - house_height)])
    roof = np.array([(left - 20, base - house_height), (left + house_width + 20,
                     base - house_height), (left + house_width // 2, base - house_height - 90)])
    for polygon, fill in ((walls, _colour(rng, 0.4, 1)), (roof, _colour(rng, 0.1, 0.6))):
        cv2.fillPoly(picture, [polygon.astype(np.int32)], fill, cv2.LINE_AA)
        cv2.polylines(picture, [polygon.astype(np.int32)], True, ink, line, cv2.LINE_AA)
    door = (left + house_width // 2 - 20, base - 70)
    cv2.rectangle(picture, door, (door[0] + 40, base), _colour(rng, 0, 0.5), -1)
    cv2.rectangle(picture, (left + 20, base - house_height + 25),
                  (left + 70, base - house_height + 70), (240, 220, 150), -1)
    cv2.rectangle(picture, (left + 20, base - house_height + 25),
                  (left + 70, base - house_height + 70), ink, line)
    trunk_x = int(width * rng.uniform(0.65, 0.9))
    cv2.rectangle(picture, (trunk_x, base - 120), (trunk_x + 26, base + 10), (30, 60, 110), -1)
    crown = (trunk_x + 13, base - 150)
    cv2.circle(picture, crown, int(rng.uniform(55, 85)), _colour(rng, 0.1, 0.5), -1, cv2.LINE_AA)
    cv2.circle(picture, crown, int(rng.uniform(55, 85)), ink, line, cv2.LINE_AA)
    return picture


ILLUSTRATED = {"logo": _logo, "colorwheel": _colour_wheel, "horse": _horse,
               "phantom": _phantom}
DRAWERS = {"shapes": _shapes, "gradient": _gradient, "poster": _poster, "pattern": _pattern,
           "cartoon": _cartoon}


@cache
def picture(name: str) -> np.ndarray:
    """The named picture of the unseen set: BGR uint8, PICTURE_SIZE, read-only."""
    rng = _named_rng(name)
    if name in PHOTOGRAPHS:
        image = _photograph(name, rng)
    elif name in ILLUSTRATED:
        image = ILLUSTRATED[name](rng)
    else:
        image = DRAWERS[picture_kind(name)](rng)
    image.flags.writeable = False
    return image


# ---------------------------------------------------------------- the cut

def _chaikin(points: np.ndarray, rounds: int) -> np.ndarray:
    """Corner cutting that keeps both ends: a polyline made smooth."""
    for _ in range(rounds):
        quarter = 0.75 * points[:-1] + 0.25 * points[1:]
        three_quarters = 0.25 * points[:-1] + 0.75 * points[1:]
        middle = np.stack([quarter, three_quarters], axis=1).reshape(-1, 2)
        points = np.vstack([points[:1], middle, points[-1:]])
    return points


def _knob(kind: str, rng: np.random.Generator) -> np.ndarray:
    """One tabbed edge in edge units: from (0, 0) to (1, 0), the knob towards +v."""
    centre = rng.uniform(0.36, 0.64) if kind == "asymmetric" else rng.uniform(0.41, 0.59)
    neck = rng.uniform(0.035, 0.07)  # half widths and heights in edge lengths
    head = rng.uniform(neck + 0.04, 0.13 if kind == "asymmetric" else 0.145)
    depth = rng.uniform(0.17, 0.25)
    waist = rng.uniform(0.25, 0.45) * depth
    middle = waist + (depth - waist) * 0.45
    shoulder = rng.uniform(0.1, 0.2)
    c, rounds = centre, 3
    if kind == "square":
        knob = [(c - neck, 0), (c - neck, waist), (c - head, waist), (c - head, depth),
                (c + head, depth), (c + head, waist), (c + neck, waist), (c + neck, 0)]
        rounds = 2
    elif kind == "heart":
        dip = rng.uniform(0.15, 0.3) * depth
        knob = [(c - neck, 0.01), (c - neck * 0.8, waist), (c - head, middle),
                (c - head * 0.75, depth), (c - head * 0.3, depth * 1.03), (c, depth - dip),
                (c + head * 0.3, depth * 1.03), (c + head * 0.75, depth), (c + head, middle),
                (c + neck * 0.8, waist), (c + neck, 0.01)]
    else:
        lean = rng.uniform(-0.05, 0.05) if kind == "asymmetric" else 0.0
        skew = rng.uniform(-0.25, 0.25) if kind == "asymmetric" else 0.0
        left, right = head * (1 + skew), head * (1 - skew)
        knob = [(c - neck, 0.01), (c - neck * 0.85, waist), (c - left + lean / 2, middle),
                (c - left * 0.7 + lean, depth * 0.95), (c + lean, depth),
                (c + right * 0.7 + lean, depth * 0.95), (c + right + lean / 2, middle),
                (c + neck * 0.85, waist), (c + neck, 0.01)]
    wobble = rng.uniform(-0.015, 0.015, 2)
    points = [(0.0, 0.0), (c - neck - shoulder, wobble[0]), *knob,
              (c + neck + shoulder, wobble[1]), (1.0, 0.0)]
    return _chaikin(np.array(points, np.float64), rounds)


def _edge(start: np.ndarray, end: np.ndarray, kind: str | None,
          rng: np.random.Generator) -> np.ndarray:
    """The cut from `start` to `end`: straight on the border (kind None), else a knob to a
    random side."""
    if kind is None:
        return np.array([start, end])
    along = end - start
    normal = np.array([-along[1], along[0]]) * rng.choice((-1, 1))
    profile = _knob(kind, rng)
    return start + profile[:, :1] * along + profile[:, 1:] * normal


@dataclass(frozen=True, eq=False)
class Cut:
    """A picture cut into GRID × GRID pieces; cells are numbered row by row."""

    width: int
    height: int
    style: str
    grid: np.ndarray  # (GRID + 1, GRID + 1, 2) cell corners (x, y), picture coordinates
    outlines: tuple[np.ndarray, ...]  # per cell, (N, 2) float64, clockwise on screen

    def quad(self, cell: int) -> np.ndarray:
        """The cell's corners: top-left, top-right, bottom-right, bottom-left."""
        row, column = divmod(cell, GRID)
        g = self.grid
        return np.array([g[row, column], g[row, column + 1], g[row + 1, column + 1],
                         g[row + 1, column]])

    def centre(self, cell: int) -> np.ndarray:
        return self.quad(cell).mean(axis=0)


def cut_picture(width: int, height: int, rng: np.random.Generator) -> Cut:
    style = str(rng.choice(CUT_STYLES))
    xs, ys = np.linspace(0, width, GRID + 1), np.linspace(0, height, GRID + 1)
    grid = np.stack(np.meshgrid(xs, ys), axis=-1)  # [row, column] -> (x, y)
    jitter = rng.uniform(-0.06, 0.06, grid.shape) * (width / GRID, height / GRID)
    movable = np.zeros(grid.shape, bool)  # border points stay on the border
    movable[:, 1:-1, 0] = True
    movable[1:-1, :, 1] = True
    grid = grid + jitter * movable

    def kind() -> str:
        return str(rng.choice(CUT_STYLES[:-1])) if style == "mixed" else style

    across = [[_edge(grid[r, c], grid[r, c + 1], kind() if 0 < r < GRID else None, rng)
               for c in range(GRID)] for r in range(GRID + 1)]
    down = [[_edge(grid[r, c], grid[r + 1, c], kind() if 0 < c < GRID else None, rng)
             for c in range(GRID + 1)] for r in range(GRID)]
    outlines = tuple(
        np.vstack([across[r][c][:-1], down[r][c + 1][:-1], across[r + 1][c][::-1][:-1],
                   down[r][c][::-1][:-1]])
        for r in range(GRID) for c in range(GRID))
    return Cut(width, height, style, grid, outlines)


@cache
def cut_of(name: str) -> Cut:
    """Each picture of the set is cut once, its own way."""
    return cut_picture(*PICTURE_SIZE, _named_rng("cut " + name))


# ---------------------------------------------------------------- laying pieces

def rigid(angle: float, about: np.ndarray, to: np.ndarray) -> np.ndarray:
    """2 × 3: turn by `angle` degrees about `about`, then move that point to `to`."""
    matrix = cv2.getRotationMatrix2D((float(about[0]), float(about[1])), -angle, 1.0)
    matrix[:, 2] += np.asarray(to, np.float64) - about
    return matrix


def compose(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """outer ∘ inner, both 2 × 3."""
    return (np.vstack([outer, (0, 0, 1)]) @ np.vstack([inner, (0, 0, 1)]))[:2]


def apply(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    return np.asarray(points, np.float64) @ transform[:, :2].T + transform[:, 2]


@dataclass(frozen=True, eq=False)
class Laid:
    """One piece on the table: its picture and cell, and where it lies (picture → table)."""

    picture: str
    cell: int
    transform: np.ndarray  # 2 × 3 rigid, picture pixels → table units
    fault: str = "right"  # "right", or the FAULTS way it is wrong (count photos)

    def outline(self) -> np.ndarray:
        return apply(self.transform, cut_of(self.picture).outlines[self.cell])

    def quad(self) -> np.ndarray:
        return apply(self.transform, cut_of(self.picture).quad(self.cell))


def mask_of(outline: np.ndarray, origin: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """0/1 raster of an outline, one pixel a table unit, `origin` at the top-left."""
    mask = np.zeros(size[::-1], np.uint8)
    cv2.fillPoly(mask, [np.round((outline - origin) * 16).astype(np.int32)], 1, shift=4)
    return mask


def overlap(a: np.ndarray, b: np.ndarray) -> int:
    """Table area (units², in whole pixels) two outlines share: a shared edge's pixels count."""
    both = np.vstack([a, b])
    origin = both.min(axis=0) - 2
    size = tuple(int(v) for v in np.ceil(both.max(axis=0) - origin + 2))
    return int((mask_of(a, origin, size) & mask_of(b, origin, size)).sum())


def slide_to_touch(fixed: np.ndarray, moving: Laid, direction: np.ndarray,
                   reach: float) -> Laid:
    """`moving` shifted along `direction` to where it just stops overlapping `fixed`: overlap
    at -reach, apart at +reach, a bisection between them."""
    direction = direction / np.linalg.norm(direction)
    low, high = -reach, reach  # overlapping at low; apart at high
    for _ in range(14):
        middle = (low + high) / 2
        if overlap(fixed, moved(moving, direction * middle).outline()) > 2:
            low = middle
        else:
            high = middle
    return moved(moving, direction * high)


def moved(piece: Laid, shift: np.ndarray) -> Laid:
    transform = piece.transform.copy()
    transform[:, 2] += shift
    return Laid(piece.picture, piece.cell, transform, piece.fault)


# ---------------------------------------------------------------- the scene and the camera

@dataclass(frozen=True)
class Look:
    surface: str
    tilt: float  # degrees between the camera's axis and the table's normal
    light: str  # "warm" | "cool" | "neutral"
    shadow: bool
    glare: bool
    blur: float  # Gaussian sigma in pixels of a 4000-pixel-wide photo (scaled to the photo's)
    noise: float  # sensor noise, standard deviation on 0..255
    quality: int  # JPEG
    size: tuple[int, int]
    cut_line: str  # "dark" | "light": how the pieces' cut edges show

    def conditions(self) -> dict[str, str]:
        megapixels = self.size[0] * self.size[1] / 1e6
        return {"surface": self.surface,
                "light": self.light + (" + shadow" if self.shadow else "")
                + (" + glare" if self.glare else ""),
                "tilt": f"{int(self.tilt // 10) * 10}-{int(self.tilt // 10) * 10 + 10} deg",
                "blur": "sharp" if self.blur < 1 else "soft" if self.blur < 2 else "blurred",
                "jpeg": "q60-74" if self.quality < 75 else "q75-95",
                "size": "1-3 MP" if megapixels < 3 else "3-7 MP" if megapixels < 7 else "8-12 MP",
                "cut line": self.cut_line}


def random_look(rng: np.random.Generator, size: tuple[int, int] | None = None,
                gentle: bool = False) -> Look:
    """Conditions of one photo; `gentle` for the box cover, photographed with care."""
    if size is None:
        width, height = PHOTO_SIZES[int(rng.integers(len(PHOTO_SIZES)))]
        size = (height, width) if rng.random() < 0.3 else (width, height)
    return Look(surface=str(rng.choice(SURFACES)),
                tilt=float(rng.uniform(0, 12 if gentle else 30)),
                light=str(rng.choice(("warm", "cool", "neutral"))),
                shadow=not gentle and rng.random() < 0.5,
                glare=not gentle and rng.random() < 0.35,
                blur=float(rng.uniform(0, 1.0 if gentle else 3.0)),
                noise=float(rng.uniform(0.5, 2 if gentle else 7)),
                quality=int(rng.integers(88 if gentle else 60, 96)),
                size=size, cut_line=str(rng.choice(("dark", "light"))))


def _smooth_noise(shape: tuple[int, int], cell: float, rng: np.random.Generator) -> np.ndarray:
    """Zero-mean noise varying over about `cell` pixels."""
    small = (max(2, int(shape[1] / cell) + 2), max(2, int(shape[0] / cell) + 2))
    return cv2.resize(rng.standard_normal(small[::-1]).astype(np.float32), shape[::-1],
                      interpolation=cv2.INTER_CUBIC)


def _bgr(rng: np.random.Generator, low: float, high: float) -> np.ndarray:
    return rng.uniform(low, high, 3).astype(np.float32)


def surface(name: str, shape: tuple[int, int], per_mm: float,
            rng: np.random.Generator) -> np.ndarray:
    """A table top, float32 BGR 0..1, of `shape` (rows, columns) at `per_mm` pixels a mm."""
    rows, columns = shape
    y, x = np.mgrid[0:rows, 0:columns].astype(np.float32)
    fine = _smooth_noise(shape, max(1.0, 0.6 * per_mm), rng)[..., None]
    if name == "oak":
        horizontal = rng.random() < 0.5
        across = y if horizontal else x
        plank = rng.uniform(90, 160) * per_mm
        # Grain: streaks long along the plank, thin across it, bent by slow waves.
        streak_cells = (0.8 * per_mm, 80 * per_mm) if horizontal else (80 * per_mm, 0.8 * per_mm)
        streaks = cv2.resize(
            rng.standard_normal((int(rows / streak_cells[0]) + 2,
                                 int(columns / streak_cells[1]) + 2)).astype(np.float32),
            (columns, rows), interpolation=cv2.INTER_LINEAR)
        bend = _smooth_noise(shape, 120 * per_mm, rng) * rng.uniform(5, 15) * per_mm
        rings = np.sin((across + bend) / (rng.uniform(4, 9) * per_mm))
        board = (across // plank).astype(int)
        shade = rng.uniform(0.8, 1.2, int(board.max()) + 1).astype(np.float32)
        base = np.array([0.22, 0.4, 0.6], np.float32) * rng.uniform(0.55, 1.35)
        table = base * (shade[board] * (1 + 0.05 * streaks + 0.06 * rings))[..., None]
        table += 0.02 * fine
        table[(across % plank) < max(1.0, 0.6 * per_mm)] *= 0.45  # the seams between boards
    elif name in ("linen", "tartan", "polka"):
        threads = (np.sin(x * np.pi / (0.7 * per_mm)) * np.sin(y * np.pi / (0.7 * per_mm)))
        weave = (0.03 * threads)[..., None] + 0.02 * fine
        if name == "linen":
            table = _bgr(rng, 0.35, 0.85) + weave
        elif name == "tartan":
            sett = rng.uniform(10, 30, int(rng.integers(4, 8))) * per_mm
            palette = [_bgr(rng, 0.05, 0.8) for _ in sett]
            bounds = np.cumsum(sett)

            def stripes(position: np.ndarray) -> np.ndarray:
                index = np.searchsorted(bounds, position % bounds[-1], side="right")
                return np.array(palette)[np.minimum(index, len(palette) - 1)]

            table = (stripes(x) + stripes(y)) / 2 + weave
        else:
            spacing = rng.uniform(18, 40) * per_mm
            radius = spacing * rng.uniform(0.15, 0.35)
            row = (y // spacing).astype(int)
            shifted = x + (row % 2) * spacing / 2
            dot = np.hypot(shifted % spacing - spacing / 2, y % spacing - spacing / 2) < radius
            table = np.where(dot[..., None], _bgr(rng, 0.7, 1.0), _bgr(rng, 0.05, 0.6)) + weave
    elif name == "dark-mat":
        table = _bgr(rng, 0.03, 0.2) + 0.015 * fine
        if rng.random() < 0.7:
            pitch = 10 * per_mm
            lines = ((x % pitch) < 0.4 * per_mm) | ((y % pitch) < 0.4 * per_mm)
            table[lines] += 0.12
    elif name == "light-felt":
        mottle = _smooth_noise(shape, 25 * per_mm, rng)[..., None]
        table = _bgr(rng, 0.68, 0.92) + 0.03 * mottle + 0.03 * fine
    else:  # glass: uniform and smooth, with one broad reflection
        angle = rng.uniform(0, np.pi)
        sweep = (x * np.cos(angle) + y * np.sin(angle)) / max(shape)
        tone = rng.uniform(0.08, 0.55) * rng.uniform(0.85, 1.15, 3).astype(np.float32)
        table = tone + (0.06 * np.sin(sweep * np.pi * 2))[..., None]
    return np.clip(table, 0, 1).astype(np.float32)


def _tilted_view(size: tuple[int, int], tilt: float, rng: np.random.Generator) -> np.ndarray:
    """3 × 3: a fronto-parallel view → what a camera turned by `tilt` degrees about its own
    centre sees (a plane seen at that angle: K R K⁻¹)."""
    width, height = size
    focal = max(size) * rng.uniform(0.8, 1.3)
    k = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1]])
    axis_angle = rng.uniform(0, 2 * np.pi)
    axis = np.array([np.cos(axis_angle), np.sin(axis_angle), 0]) * np.radians(tilt)
    rotation, _ = cv2.Rodrigues(axis)
    return k @ rotation @ np.linalg.inv(k)


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2),
                                    homography).reshape(-1, 2)


def _camera(points: np.ndarray, size: tuple[int, int], look: Look, fill: float,
            rng: np.random.Generator) -> np.ndarray:
    """3 × 3 table → frame: the points spanning about `fill` of the frame, seen tilted."""
    frame = np.array(size, np.float64)

    def framing(seen: np.ndarray, place: np.ndarray) -> np.ndarray:
        """Scale and move so `seen` spans `fill` of the frame around `place`."""
        low, high = seen.min(axis=0), seen.max(axis=0)
        scale = fill * float(np.min(frame / (high - low)))
        shift = place - scale * (low + high) / 2
        return np.array([[scale, 0, shift[0]], [0, scale, shift[1]], [0, 0, 1]])

    flat = framing(points, frame / 2)  # seen from straight above, centred
    view = _tilted_view(size, look.tilt, rng) @ flat
    seen = project(view, points)
    extent = seen.max(axis=0) - seen.min(axis=0)
    room = frame - extent * fill * float(np.min(frame / extent))  # the frame left around them
    return framing(seen, frame / 2 + rng.uniform(-0.35, 0.35, 2) * room) @ view


def _draw_piece(canvas: np.ndarray, image: np.ndarray, outline: np.ndarray,
                transform: np.ndarray, look: Look, rng: np.random.Generator,
                line_width: float) -> None:
    """Paint one piece (image masked by its outline, picture → canvas by `transform`) with its
    cut edge."""
    placed = apply(transform, outline)
    low = np.maximum(np.floor(placed.min(axis=0)).astype(int) - 3, 0)
    high = np.minimum(np.ceil(placed.max(axis=0)).astype(int) + 3,
                      (canvas.shape[1], canvas.shape[0]))
    if np.any(high <= low):
        return
    box = (int(high[0] - low[0]), int(high[1] - low[1]))
    local = transform.copy()
    local[:, 2] -= low
    pixels = cv2.warpAffine(image, local, box, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REFLECT)
    points = np.round((placed - low) * 16).astype(np.int32)
    mask = np.zeros(box[::-1], np.uint8)
    cv2.fillPoly(mask, [points], 255, cv2.LINE_AA, shift=4)
    edge = np.zeros(box[::-1], np.uint8)
    cv2.polylines(edge, [points], True, 255, max(1, round(line_width)), cv2.LINE_AA, shift=4)
    alpha = (mask.astype(np.float32) / 255)[..., None]
    edge_alpha = (edge.astype(np.float32) / 255)[..., None] * alpha * rng.uniform(0.5, 0.85)
    ink = np.float32(0.15 if look.cut_line == "dark" else 0.9)
    piece = pixels * np.float32(rng.uniform(0.95, 1.05))  # each piece catches the light a bit
    piece = piece * (1 - edge_alpha) + ink * edge_alpha
    region = canvas[low[1]:high[1], low[0]:high[0]]
    region[:] = region * (1 - alpha) + piece * alpha


def _lighting(frame: np.ndarray, look: Look, rng: np.random.Generator) -> np.ndarray:
    """Warm, cool or neutral light that falls off from a lamp, a soft cast shadow, glare."""
    rows, columns = frame.shape[:2]
    y, x = np.mgrid[0:rows, 0:columns].astype(np.float32)
    tint = {"warm": (rng.uniform(0.7, 0.85), rng.uniform(0.88, 0.95), 1.0),
            "cool": (1.0, rng.uniform(0.93, 0.98), rng.uniform(0.8, 0.9)),
            "neutral": tuple(rng.uniform(0.96, 1.0, 3))}[look.light]
    lamp = rng.uniform(-0.5, 1.5, 2) * (columns, rows)
    reach = rng.uniform(0.6, 1.6) * max(rows, columns)
    falloff = 1 / (1 + ((x - lamp[0]) ** 2 + (y - lamp[1]) ** 2) / reach ** 2)
    floor = rng.uniform(0.45, 0.8)  # the darkest corner against the brightest spot
    light = rng.uniform(0.9, 1.15) * (floor + (1 - floor) * falloff / falloff.max())
    if look.shadow:
        shade = np.zeros((rows, columns), np.float32)
        centre = rng.uniform(0, 1, 2) * (columns, rows)
        axes = (rng.uniform(0.2, 0.5) * columns, rng.uniform(0.15, 0.4) * rows)
        cv2.ellipse(shade, (int(centre[0]), int(centre[1])), (int(axes[0]), int(axes[1])),
                    rng.uniform(0, 180), 0, 360, 1.0, -1)
        softness = rng.uniform(0.02, 0.06) * max(rows, columns)
        shade = cv2.GaussianBlur(shade, (0, 0), softness)
        light = light * (1 - rng.uniform(0.3, 0.55) * shade)
    lit = frame * light[..., None] * np.array(tint, np.float32)
    if look.glare:
        centre = rng.uniform(0.1, 0.9, 2) * (columns, rows)
        spread = rng.uniform(0.04, 0.12) * max(rows, columns)
        glare = rng.uniform(0.3, 0.75) * np.exp(
            -((x - centre[0]) ** 2 + (y - centre[1]) ** 2 * rng.uniform(0.3, 1))
            / (2 * spread ** 2))
        lit = 1 - (1 - lit) * (1 - glare[..., None])
    return lit


@dataclass(frozen=True)
class Scene:
    jpeg: bytes
    homography: np.ndarray  # 3 × 3: table units → photo pixels
    size: tuple[int, int]  # the photo's width and height


def render(items: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray]], look: Look,
           rng: np.random.Generator, fill: float, framed: np.ndarray | None = None) -> Scene:
    """Photograph flat items, each (BGR uint8 image, outline in its pixels, 2 × 3 image → table
    transform), laid on the look's table: shadows, light, tilt, blur, noise, JPEG. The camera
    frames the items, or the table points `framed` when given."""
    width, height = look.size
    shrink = min(1.0, RENDER_LONG_SIDE / max(width, height))
    frame_size = (round(width * shrink), round(height * shrink))
    outlines = [apply(transform, outline) for _, outline, transform in items]
    points = np.vstack(outlines) if framed is None else framed
    camera = _camera(points, frame_size, look, fill, rng)
    # The canvas is the table around the items at the frame's scale near them, wide enough to
    # fill the tilted frame (bounded: beyond that the table is mirrored).
    centre = points.mean(axis=0)
    near = project(camera, [centre, centre + (1, 0), centre + (0, 1)])
    (ax, ay), (bx, by) = near[1] - near[0], near[2] - near[0]
    per_unit = float(np.sqrt(abs(ax * by - ay * bx)))  # the local scale: √ of the area ratio
    seen_table = project(np.linalg.inv(camera), [(0, 0), (frame_size[0], 0), frame_size,
                                                  (0, frame_size[1])])
    limit = 0.9 * max(frame_size) / per_unit
    low = np.maximum(seen_table.min(axis=0), centre - limit)
    high = np.minimum(seen_table.max(axis=0), centre + limit)
    to_canvas = np.array([[per_unit, 0, -low[0] * per_unit], [0, per_unit, -low[1] * per_unit],
                          [0, 0, 1]])
    canvas_size = tuple(int(v) for v in np.ceil((high - low) * per_unit) + 1)
    canvas = surface(look.surface, canvas_size[::-1], per_unit / MM_PER_UNIT, rng)
    shadow = np.zeros(canvas.shape[:2], np.float32)
    for outline in outlines:
        cv2.fillPoly(shadow, [np.round(project(to_canvas, outline)).astype(np.int32)], 1.0)
    offset = rng.uniform(-1, 1, 2) * 1.5 * per_unit / MM_PER_UNIT
    shadow = cv2.warpAffine(shadow, np.float32([[1, 0, offset[0]], [0, 1, offset[1]]]),
                            canvas_size)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, per_unit / MM_PER_UNIT))
    canvas *= (1 - rng.uniform(0.25, 0.5) * shadow)[..., None]
    line_width = rng.uniform(0.3, 0.6) * per_unit / MM_PER_UNIT
    for image, outline, transform in items:
        to_piece = compose(to_canvas[:2], transform)
        _draw_piece(canvas, image.astype(np.float32) / 255, outline, to_piece, look, rng,
                    line_width)
    frame = cv2.warpPerspective(canvas, camera @ np.linalg.inv(to_canvas), frame_size,
                                flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    frame = _lighting(frame, look, rng)
    sigma = look.blur * max(frame_size) / 4000
    if sigma > 0.3:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    photo = np.clip(frame * 255, 0, 255).astype(np.uint8)
    if shrink < 1:
        photo = cv2.resize(photo, look.size, interpolation=cv2.INTER_CUBIC)
    grain = rng.standard_normal((height, width, 1), dtype=np.float32) * np.float32(look.noise)
    photo = np.clip(photo + grain, 0, 255).astype(np.uint8)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, look.quality])
    assert ok
    to_photo = np.diag([1 / shrink, 1 / shrink, 1.0]) @ camera
    return Scene(jpeg.tobytes(), to_photo, look.size)


def _pieces(laid: Sequence[Laid]) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    return [(picture(piece.picture), cut_of(piece.picture).outlines[piece.cell],
             piece.transform) for piece in laid]


# ---------------------------------------------------------------- fit photos

SIDES = {"right": (0, 1), "below": (1, 0), "left": (0, -1), "above": (-1, 0)}


def neighbour(cell: int, side: str) -> int | None:
    row, column = divmod(cell, GRID)
    step = SIDES[side]
    row, column = row + step[0], column + step[1]
    return row * GRID + column if 0 <= row < GRID and 0 <= column < GRID else None


SIDE_CORNERS = {"above": (0, 1), "right": (1, 2), "below": (2, 3), "left": (3, 0)}  # of quad()


def side_of(cut: Cut, cell: int, side: str) -> np.ndarray:
    """The two corners of the cell's side, in picture coordinates."""
    return cut.quad(cell)[list(SIDE_CORNERS[side])]


def adjacent(a: int, b: int) -> bool:
    return b in (neighbour(a, side) for side in SIDES)


@dataclass(frozen=True)
class FitLayout:
    picture: str  # the picture the check is made against (the first piece's)
    case: FitCase
    pieces: tuple[Laid, Laid]  # the piece laid first, and the one laid against it
    side: str  # the side of the first piece the second was laid against


@dataclass(frozen=True)
class FitPhoto:
    jpeg: bytes
    layout: FitLayout
    homography: np.ndarray  # table → photo
    size: tuple[int, int]
    conditions: Mapping[str, str]

    @property
    def picture(self) -> str:
        return self.layout.picture

    @property
    def case(self) -> FitCase:
        return self.layout.case

    def photo_outlines(self) -> list[np.ndarray]:
        return [project(self.homography, piece.outline()) for piece in self.layout.pieces]


def _nudged(transform: np.ndarray, rng: np.random.Generator, about: np.ndarray) -> np.ndarray:
    """The slight play of a real join: under a degree and a pixel or two."""
    return compose(rigid(rng.uniform(-0.6, 0.6), about, about + rng.uniform(-1, 1, 2)),
                   transform)


def fit_layout(names: Sequence[str], case: FitCase, rng: np.random.Generator) -> FitLayout:
    """Two pieces on the table, laid in one of the ways a call fits or fails."""
    name, other = (str(n) for n in rng.choice(names, 2, replace=False))
    cut = cut_of(name)
    first = int(rng.integers(GRID * GRID))
    side = str(rng.choice([s for s in SIDES if neighbour(first, s) is not None]))
    slot = neighbour(first, side)
    base = rigid(rng.uniform(-20, 20), cut.centre(first), (0, 0))
    step = cut.centre(slot) - cut.centre(first)
    outward = base[:, :2] @ step / np.linalg.norm(step)  # from the first piece to the slot
    along = np.array([-outward[1], outward[0]])
    length = float(np.linalg.norm(step))
    side_length = float(np.linalg.norm(np.diff(side_of(cut, first, side), axis=0)))
    fixed = Laid(name, first, base)
    second_name, second = name, slot
    if case == "wrong-neighbour":
        second = int(rng.choice([c for c in range(GRID * GRID)
                                 if c != first and not adjacent(first, c)]))
    elif case == "other-picture":
        second_name = other
    own_cut = cut_of(second_name)
    at_slot = compose(base, rigid(0, own_cut.centre(second), cut.centre(slot)))
    if case == "rotated":
        turns = int(rng.integers(1, 4))
        at_slot = compose(at_slot, rigid(90 * turns, own_cut.centre(second),
                                         own_cut.centre(second)))
    moving = Laid(second_name, second, at_slot)
    if case == "fit":
        moving = Laid(name, slot, _nudged(at_slot, rng, apply(base, cut.centre(slot))))
    else:
        direction = outward
        if case in ("offset", "corner"):
            shift = rng.uniform(0.35, 0.6) if case == "offset" else rng.uniform(0.98, 1.08)
            sign = rng.choice((-1, 1))
            moving = moved(moving, along * sign * shift * side_length)
            if case == "corner":  # slid in along the diagonal, so only the corners meet
                direction = (outward + along * sign) / np.sqrt(2)
        moving = slide_to_touch(fixed.outline(), moving, direction, length)
        # Laid against it, not pressed in; a gap: pulled back until the knobs are clear of
        # each other (interlocked knobs cannot part in the plane), then a little more.
        clearance = rng.uniform(0.02, 0.12) * length if case == "gap" else rng.uniform(0, 1.5)
        moving = moved(moving, direction * clearance)
    return FitLayout(name, case, (fixed, moving), side)


def fit_photo(names: Sequence[str], case: FitCase, seed: int,
              size: tuple[int, int] | None = None) -> FitPhoto:
    rng = np.random.default_rng(seed)
    layout = fit_layout(names, case, rng)
    pair = layout.pieces if rng.random() < 0.5 else layout.pieces[::-1]  # either on top
    look = random_look(rng, size)
    scene = render(_pieces(pair), look, rng, fill=rng.uniform(0.35, 0.7))
    conditions = {"picture": layout.picture, "picture kind": picture_kind(layout.picture),
                  "piece shape": cut_of(layout.picture).style, **look.conditions()}
    return FitPhoto(scene.jpeg, layout, scene.homography, scene.size, conditions)


# ---------------------------------------------------------------- count photos

@dataclass(frozen=True)
class CountLayout:
    picture: str
    faults: tuple[str, ...]  # per cell, row by row: "right", or which of FAULTS
    laid: tuple[Laid, ...]  # the pieces on the table, in the order they were laid
    slots: tuple[int, ...]  # the cell each laid piece lies in
    base: np.ndarray  # 2 × 3: the rectangle's picture → table
    spread: float  # the rectangle's cells are this much further apart than in the picture

    def rectangle(self) -> np.ndarray:
        """The picture's corners on the table, where its 16 pieces belong."""
        width, height = PICTURE_SIZE
        return apply(self.base, [(0, 0), (width, 0), (width, height), (0, height)])

    @property
    def cells(self) -> tuple[str, ...]:
        """Per cell, row by row: "right", "wrong" or "missing"."""
        return tuple(f if f in ("right", "missing") else "wrong" for f in self.faults)


@dataclass(frozen=True)
class CountPhoto:
    jpeg: bytes
    layout: CountLayout
    homography: np.ndarray
    size: tuple[int, int]
    conditions: Mapping[str, str]

    @property
    def picture(self) -> str:
        return self.layout.picture

    @property
    def cells(self) -> tuple[str, ...]:
        return self.layout.cells

    @property
    def faults(self) -> tuple[str, ...]:
        return self.layout.faults

    @property
    def right(self) -> int:
        return self.cells.count("right")

    @property
    def wrong(self) -> int:
        return self.cells.count("wrong")

    @property
    def missing(self) -> int:
        return self.cells.count("missing")


def _faults(bad: int, rng: np.random.Generator) -> list[str]:
    """Which way each cell is wrong, `bad` of them; a swap spoils two cells."""
    faults = ["right"] * (GRID * GRID)
    cells = [int(c) for c in rng.permutation(GRID * GRID)[:bad]]
    while cells:
        kind = str(rng.choice(FAULTS if len(cells) >= 2 else FAULTS[:1] + FAULTS[2:]))
        for _ in range(2 if kind == "swapped" else 1):
            faults[cells.pop()] = kind
    return faults


def count_layout(names: Sequence[str], rng: np.random.Generator, bad: int) -> CountLayout:
    """A player's 4 × 4 rectangle with `bad` wrong or missing pieces."""
    name, other = (str(n) for n in rng.choice(names, 2, replace=False))
    cut = cut_of(name)
    faults = _faults(bad, rng)
    swapped = [cell for cell, fault in enumerate(faults) if fault == "swapped"]
    partner = dict(zip(swapped, swapped[1:] + swapped[:1], strict=True))  # a ring of swaps
    middle = np.array(PICTURE_SIZE) / 2
    base = rigid(rng.uniform(-15, 15), middle, (0, 0))
    spread = rng.uniform(1.0, 1.012)  # slight gaps between laid pieces
    right, wrong = [], []
    for slot, fault in enumerate(faults):
        if fault == "missing":
            continue
        piece_name = other if fault == "other-picture" else name
        own = cut_of(piece_name)
        cell = partner.get(slot, slot)
        target = middle + (cut.centre(slot) - middle) * spread
        turn = 90 * int(rng.integers(1, 4)) if fault == "turned" else 0
        transform = _nudged(compose(base, rigid(turn, own.centre(cell), target)), rng,
                            apply(base, target))
        (right if fault == "right" else wrong).append((Laid(piece_name, cell, transform, fault),
                                                       slot))
    laid = right + wrong  # wrong pieces do not interlock: they lie on top of their neighbours
    return CountLayout(name, tuple(faults), tuple(piece for piece, _ in laid),
                       tuple(slot for _, slot in laid), base, spread)


def count_photo(names: Sequence[str], seed: int, size: tuple[int, int] | None = None,
                bad: int | None = None) -> CountPhoto:
    """A count photo with `bad` (default random 0-16) wrong or missing pieces."""
    rng = np.random.default_rng(seed)
    bad = int(rng.integers(0, GRID * GRID + 1)) if bad is None else bad
    layout = count_layout(names, rng, bad)
    cut = cut_of(layout.picture)
    look = random_look(rng, size)
    # Framed on the whole rectangle, even where pieces are missing.
    framed = np.vstack([layout.rectangle(), *(piece.outline() for piece in layout.laid)])
    scene = render(_pieces(layout.laid), look, rng, fill=rng.uniform(0.55, 0.85),
                   framed=framed)
    conditions = {"picture": layout.picture, "picture kind": picture_kind(layout.picture),
                  "piece shape": cut.style, "bad pieces": _bad_bucket(bad), **look.conditions()}
    return CountPhoto(scene.jpeg, layout, scene.homography, scene.size, conditions)


def _bad_bucket(bad: int) -> str:
    return "0" if bad == 0 else f"{(bad - 1) // 4 * 4 + 1:2d}-{(bad - 1) // 4 * 4 + 4:2d}"


# ---------------------------------------------------------------- the box cover

def cover_photo(name: str, seed: int) -> tuple[bytes, np.ndarray]:
    """A photo of the box cover showing the picture with a border and a title band, and the
    picture's corners in it (top-left, top-right, bottom-right, bottom-left), as a user marks
    them."""
    rng = np.random.default_rng(seed)
    image = picture(name)
    width, height = PICTURE_SIZE
    margin = int(rng.uniform(0.03, 0.08) * width)
    band = int(rng.uniform(0.1, 0.18) * height)
    cover = np.empty((height + 2 * margin + band, width + 2 * margin, 3), np.uint8)
    cover[:] = _colour(rng, 0, 1)
    cover[margin:margin + height, margin:margin + width] = image
    cv2.putText(cover, name.upper(), (margin, height + margin + int(band * 0.75)),
                cv2.FONT_HERSHEY_DUPLEX, band / 40, _colour(rng), 2, cv2.LINE_AA)
    outline = np.array([(0, 0), (cover.shape[1], 0), (cover.shape[1], cover.shape[0]),
                        (0, cover.shape[0])], np.float64)
    transform = rigid(rng.uniform(-8, 8), outline.mean(axis=0), (0, 0))
    look = random_look(rng, (1600, 1200), gentle=True)
    scene = render([(cover, outline, transform)], look, rng, fill=rng.uniform(0.7, 0.85))
    corners = np.array([(margin, margin), (margin + width, margin),
                        (margin + width, margin + height), (margin, margin + height)], float)
    return scene.jpeg, project(scene.homography, apply(transform, corners)).astype(np.float32)
