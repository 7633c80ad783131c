"""Renders table photos of Tableau jigsaw pieces, for the tests and bench/vision_tableau.py.

Real photographs from skimage.data (grey ones tinted) and procedural flat illustrations are cut
into 4 × 4 pieces whose inner edges interlock with tabs of random position, neck, head size,
aspect and depth; the border is straight. Pieces are laid on varied surfaces (skimage textures,
plain cloth, checks, wood), then the photo gets shadows, uneven tinted light, glare, camera
tilt, blur, noise and JPEG compression. Everything is drawn from one numpy Generator, so a seed
gives the same photo every time. Pictures and surfaces are split into a tuning set and a
held-out set, so the bench reports on material the reader was not tuned on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

import cv2
import numpy as np
import skimage.data

GRID = 4
PICTURE_LONG_SIDE = 768
TUNE_PICTURES = ("astronaut", "coffee", "chelsea", "camera", "coins", "hubble_deep_field",
                 "illustration-1", "illustration-2")
HELD_OUT_PICTURES = ("rocket", "stereo_motorcycle", "retina", "clock", "moon",
                     "immunohistochemistry", "illustration-3", "illustration-4")
TUNE_SURFACES = ("gravel", "plain", "checks")
HELD_OUT_SURFACES = ("brick", "grass", "wood", "plain")

FitCase = Literal["fit", "rotated", "wrong-neighbour", "corner", "offset", "gap", "other-picture"]
FIT_CASES: tuple[FitCase, ...] = ("fit", "rotated", "wrong-neighbour", "corner", "offset", "gap",
                                  "other-picture")
# The verdict reason each case should get (corner touches and gaps are "not-full-side").
EXPECTED_REASON = {"fit": "fit", "rotated": "wrong-orientation",
                   "wrong-neighbour": "not-neighbours", "corner": "not-full-side",
                   "offset": "not-full-side", "gap": "not-full-side",
                   "other-picture": "wrong-picture"}


# ---------------------------------------------------------------- pictures and surfaces

def _tint(grey: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A grey photo mapped between two random colours, like a duotone print."""
    dark, light = rng.uniform(0, 90, 3), rng.uniform(160, 255, 3)
    level = grey.astype(np.float32)[..., None] / 255
    return (dark + (light - dark) * level).astype(np.uint8)


def _illustration(seed: int) -> np.ndarray:
    """A flat-colour illustration: a gradient sky, hills and shapes (large textureless areas)."""
    rng = np.random.default_rng(1000 + seed)
    height, width = 576, 768
    top, bottom = rng.uniform(120, 255, 3), rng.uniform(60, 255, 3)
    ramp = np.linspace(0, 1, height, dtype=np.float32)[:, None, None]
    image = np.broadcast_to(top + (bottom - top) * ramp, (height, width, 3)).astype(np.uint8)
    image = np.ascontiguousarray(image)
    for _ in range(rng.integers(3, 6)):  # hills
        xs = np.arange(0, width + 32, 32)
        base = rng.uniform(0.4, 0.85) * height
        ys = base + np.cumsum(rng.normal(0, 12, xs.size))
        hill = np.array([*zip(xs, ys, strict=True), (width, height), (0, height)], np.int32)
        cv2.fillPoly(image, [hill], rng.uniform(0, 255, 3).tolist(), cv2.LINE_AA)
    for _ in range(rng.integers(6, 14)):  # sun, trees, houses
        colour = rng.uniform(0, 255, 3).tolist()
        centre = (int(rng.uniform(0, width)), int(rng.uniform(0, height)))
        size = int(rng.uniform(15, 70))
        if rng.random() < 0.5:
            cv2.circle(image, centre, size, colour, -1, cv2.LINE_AA)
        else:
            corners = np.array(centre) + rng.normal(0, size, (rng.integers(3, 6), 2))
            cv2.fillPoly(image, [corners.astype(np.int32)], colour, cv2.LINE_AA)
    return image


@cache
def _picture_cached(name: str) -> np.ndarray:
    if name.startswith("illustration-"):
        return _illustration(int(name.split("-")[1]))
    image = getattr(skimage.data, name)()
    image = image[0] if isinstance(image, tuple) else image
    if image.ndim == 2:
        image = _tint(image, np.random.default_rng(sum(map(ord, name))))
    else:
        image = cv2.cvtColor(image[..., :3], cv2.COLOR_RGB2BGR)
    scale = PICTURE_LONG_SIDE / max(image.shape[:2])
    image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    image.setflags(write=False)
    return image


def picture(name: str) -> np.ndarray:
    """A named picture as a BGR array with the long side PICTURE_LONG_SIDE (read-only)."""
    return _picture_cached(name)


def surface(name: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table surface of `size` (width, height): texture, cloth, checks or wood, tinted."""
    width, height = size
    colour = rng.uniform(40, 230, 3)
    if name in ("gravel", "brick", "grass"):
        texture = getattr(skimage.data, name)().astype(np.float32) / 255
        zoom = rng.uniform(1.0, 3.0) * max(width, height) / 512
        texture = cv2.resize(texture, None, fx=zoom, fy=zoom)[:height, :width]
        texture = np.pad(texture, ((0, height - texture.shape[0]), (0, width - texture.shape[1])),
                         mode="reflect")
        image = colour * (0.5 + texture[..., None])
    elif name == "checks":
        step = int(rng.uniform(0.03, 0.12) * width)
        yy, xx = np.mgrid[0:height, 0:width]
        other = rng.uniform(40, 255, 3)
        image = np.where((((yy // step) + (xx // step)) % 2)[..., None] == 0, colour, other)
    elif name == "wood":
        yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
        period = rng.uniform(0.01, 0.04) * height
        grain = np.sin(yy / period + 3 * np.sin(xx / (0.3 * width)) + rng.uniform(0, 6))
        image = colour * (0.8 + 0.15 * grain[..., None])
    else:  # plain cloth with a faint weave
        image = colour + rng.normal(0, 6, (height, width, 1))
    return np.clip(image, 0, 255).astype(np.uint8)


# ---------------------------------------------------------------- cutting

@dataclass(frozen=True, eq=False)
class Cut:
    """A 4 × 4 cut of a width × height picture: one closed outline per piece, row by row."""
    width: int
    height: int
    outlines: tuple[np.ndarray, ...]  # float32 (N, 2) picture coordinates

    @property
    def cell(self) -> tuple[float, float]:
        return self.width / GRID, self.height / GRID

    def cell_centre(self, index: int) -> np.ndarray:
        row, col = divmod(index, GRID)
        cell_w, cell_h = self.cell
        return np.array([(col + 0.5) * cell_w, (row + 0.5) * cell_h], np.float32)


def _tab(length: float, depth_limit: float, rng: np.random.Generator) -> np.ndarray:
    """One edge with a tab, in edge coordinates: u along 0..length, v outwards (before sign)."""
    middle = rng.uniform(0.38, 0.62) * length
    neck = rng.uniform(0.10, 0.18) * length
    radius = max(rng.uniform(0.09, 0.15) * length, 0.6 * neck)
    radius_v = radius * rng.uniform(0.8, 1.25)
    opening = np.arccos(neck / (2 * radius))
    depth = min(radius_v * (1 + np.sin(opening)) + rng.uniform(0.02, 0.07) * length,
                depth_limit)
    centre = np.array([middle + rng.uniform(-0.03, 0.03) * length, depth - radius_v])
    angles = np.linspace(-np.pi + opening, -2 * np.pi - opening, 40)
    head = centre + np.stack([radius * np.cos(angles), radius_v * np.sin(angles)], 1)
    head[:, 1] = np.maximum(head[:, 1], 0)
    wave = rng.uniform(-0.02, 0.02) * length
    left = np.linspace(0, middle - neck / 2, 10)
    right = np.linspace(middle + neck / 2, length, 10)
    shoulder = lambda u, a, b: wave * np.sin(np.pi * (u - a) / (b - a))  # noqa: E731
    return np.concatenate([
        np.stack([left, shoulder(left, 0, middle - neck / 2)], 1), head,
        np.stack([right, shoulder(right, middle + neck / 2, length)], 1)]).astype(np.float32)


def _edge(start: np.ndarray, end: np.ndarray, depth_limit: float,
          rng: np.random.Generator) -> np.ndarray:
    along = end - start
    length = float(np.linalg.norm(along))
    direction = along / length
    normal = np.array([-direction[1], direction[0]]) * rng.choice([-1, 1])
    local = _tab(length, depth_limit, rng)
    return (start + local[:, :1] * direction + local[:, 1:] * normal).astype(np.float32)


def cut_picture(width: int, height: int, rng: np.random.Generator) -> Cut:
    """Cut a picture into 4 × 4 interlocking pieces with random tab shapes."""
    cell_w, cell_h = width / GRID, height / GRID
    limit = 0.3 * min(cell_w, cell_h)
    corner = lambda row, col: np.array([col * cell_w, row * cell_h], np.float32)  # noqa: E731
    straight = lambda a, b: np.stack([a, b])  # noqa: E731
    # horizontal[r][c]: the edge under row r-1 at column c, left to right (r = 0, 4: border)
    horizontal = [[_edge(corner(r, c), corner(r, c + 1), limit, rng) if 0 < r < GRID
                   else straight(corner(r, c), corner(r, c + 1)) for c in range(GRID)]
                  for r in range(GRID + 1)]
    vertical = [[_edge(corner(r, c), corner(r + 1, c), limit, rng) if 0 < c < GRID
                 else straight(corner(r, c), corner(r + 1, c)) for c in range(GRID + 1)]
                for r in range(GRID)]
    outlines = tuple(np.concatenate([horizontal[r][c], vertical[r][c + 1],
                                     horizontal[r + 1][c][::-1], vertical[r][c][::-1]])
                     for r in range(GRID) for c in range(GRID))
    return Cut(width, height, outlines)


# ---------------------------------------------------------------- placing pieces

@dataclass(frozen=True, eq=False)
class Placement:
    """A piece of picture `source`, drawn with `transform` (2 × 3, picture to scene)."""
    source: int
    piece: int
    transform: np.ndarray


def similarity(angle: float, scale: float, shift: np.ndarray) -> np.ndarray:
    cos, sin = scale * np.cos(angle), scale * np.sin(angle)
    return np.array([[cos, -sin, shift[0]], [sin, cos, shift[1]]], np.float64)


def compose(outer: np.ndarray, inner: np.ndarray) -> np.ndarray:
    """outer ∘ inner for 2 × 3 affine matrices."""
    return (np.vstack([outer, [0, 0, 1]]) @ np.vstack([inner, [0, 0, 1]]))[:2]


def turn_about(point: np.ndarray, quarter_turns: int) -> np.ndarray:
    """A rotation by quarter turns about a point, in picture coordinates."""
    return _small_turn(point, quarter_turns * np.pi / 2)


def _small_turn(point: np.ndarray, angle: float) -> np.ndarray:
    rotation = similarity(angle, 1.0, np.zeros(2))
    rotation[:, 2] = point - rotation[:, :2] @ point
    return rotation


def _apply(transform: np.ndarray, points: np.ndarray) -> np.ndarray:
    return points @ transform[:, :2].T + transform[:, 2]


def _overlap(a: np.ndarray, b: np.ndarray) -> int:
    """Overlapping area in pixels of two outlines in scene coordinates (rasterised)."""
    low = np.minimum(a.min(0), b.min(0)) - 2
    size = (np.maximum(a.max(0), b.max(0)) - low + 4).astype(int)
    first, second = np.zeros(size[::-1], np.uint8), np.zeros(size[::-1], np.uint8)
    cv2.fillPoly(first, [(a - low).astype(np.int32)], 1)
    cv2.fillPoly(second, [(b - low).astype(np.int32)], 1)
    return int(np.count_nonzero(first & second))


def slide_apart(fixed: np.ndarray, moving: np.ndarray, direction: np.ndarray,
                step: float) -> np.ndarray:
    """The shift along `direction` that makes `moving` just stop overlapping `fixed`."""
    low, high = 0.0, step
    while _overlap(fixed, moving + high * direction) > 0:
        low, high = high, high * 2
    if _overlap(fixed, moving) == 0:
        return np.zeros(2)
    for _ in range(12):
        middle = (low + high) / 2
        low, high = (middle, high) if _overlap(fixed, moving + middle * direction) else (low, middle)
    return high * direction


# ---------------------------------------------------------------- drawing a photo

@dataclass(frozen=True)
class Look:
    """Everything about a photo that is not the pieces: surface, light, camera."""
    surface: str
    light: float  # strength of the uneven light, 0..1
    tint: tuple[float, float, float]
    tilt: float  # corner displacement of the camera tilt, fraction of the frame
    blur: float
    noise: float
    quality: int
    shadow: float
    glare: bool


def random_look(rng: np.random.Generator, surfaces: tuple[str, ...]) -> Look:
    return Look(surface=str(rng.choice(surfaces)), light=float(rng.uniform(0, 0.6)),
                tint=tuple(float(t) for t in rng.uniform(0.82, 1.15, 3)),
                tilt=float(rng.uniform(0, 0.07)), blur=float(rng.uniform(0, 1.6)),
                noise=float(rng.uniform(1, 7)), quality=int(rng.integers(60, 95)),
                shadow=float(rng.uniform(0.1, 0.45)), glare=bool(rng.random() < 0.25))


def _outline(placement: Placement, cuts: list[Cut]) -> np.ndarray:
    return _apply(placement.transform, cuts[placement.source].outlines[placement.piece])


def render(pictures: list[np.ndarray], cuts: list[Cut], placements: list[Placement],
           look: Look, size: tuple[int, int], rng: np.random.Generator,
           render_scale: float = 1.0) -> bytes:
    """JPEG bytes of a photo of `size` (width, height); placements are in render coordinates,
    drawn at `size * render_scale` and then resized (drawing 12 MP directly is slow)."""
    width, height = int(size[0] * render_scale), int(size[1] * render_scale)
    scene = surface(look.surface, (width, height), rng).astype(np.float32)
    shadow = np.zeros((height, width), np.float32)
    offset = rng.uniform(-0.006, 0.006, 2) * width
    for placement in placements:
        cv2.fillPoly(shadow, [((_outline(placement, cuts) + offset) * 16).astype(np.int32)],
                     1.0, cv2.LINE_AA, shift=4)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 0.004 * width + 1)
    scene *= 1 - look.shadow * shadow[..., None]
    for placement in placements:
        outline = _outline(placement, cuts)
        mask = np.zeros((height, width), np.float32)
        cv2.fillPoly(mask, [(outline * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
        art = cv2.warpAffine(pictures[placement.source], placement.transform, (width, height),
                             flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        scene = scene * (1 - mask[..., None]) + art.astype(np.float32) * mask[..., None]
        edge = np.zeros((height, width), np.float32)  # the cut shows as a thin dark line
        cv2.polylines(edge, [(outline * 16).astype(np.int32)], True, 1.0,
                      max(1, int(0.0012 * width)), cv2.LINE_AA, shift=4)
        scene *= 1 - rng.uniform(0.15, 0.5) * edge[..., None]
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.normal(size=2)
    ramp = (xx * direction[0] + yy * direction[1]) / (abs(direction).sum() * max(width, height))
    light = 1 + look.light * (ramp - ramp.mean()) * 2
    if look.glare:
        centre = rng.uniform(0, 1, 2) * (width, height)
        spread = rng.uniform(0.05, 0.2) * width
        light += 0.5 * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / spread ** 2)
    scene = scene * light[..., None] * np.array(look.tint, np.float32)
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    moved = (corners + rng.uniform(-look.tilt, look.tilt, (4, 2)) * (width, height)).astype(
        np.float32)
    scene = cv2.warpPerspective(np.clip(scene, 0, 255).astype(np.uint8),
                                cv2.getPerspectiveTransform(corners, moved), (width, height),
                                borderMode=cv2.BORDER_REFLECT)
    if look.blur > 0.3:
        scene = cv2.GaussianBlur(scene, (0, 0), look.blur * render_scale)
    if (width, height) != tuple(size):
        scene = cv2.resize(scene, size, interpolation=cv2.INTER_LINEAR)
    noisy = scene.astype(np.float32) + rng.normal(0, look.noise, scene.shape).astype(np.float32)
    ok, jpeg = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, look.quality])
    assert ok
    return jpeg.tobytes()


# ---------------------------------------------------------------- scenes

@dataclass(frozen=True)
class FitPhoto:
    jpeg: bytes
    picture: str  # the name of the picture the check is made against
    case: FitCase
    pieces: tuple[int, int]  # cell indices of the two pieces (in their own pictures)


@dataclass(frozen=True)
class CountPhoto:
    jpeg: bytes
    picture: str
    cells: tuple[str, ...]  # "right" | "wrong" | "missing" per cell, row by row

    @property
    def right(self) -> int:
        return self.cells.count("right")

    @property
    def wrong(self) -> int:
        return self.cells.count("wrong")

    @property
    def missing(self) -> int:
        return self.cells.count("missing")


def _neighbours(index: int) -> list[int]:
    row, col = divmod(index, GRID)
    return [r * GRID + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1),
                                      (row, col + 1)) if 0 <= r < GRID and 0 <= c < GRID]


def _scene_transform(cut: Cut, size: tuple[int, int], span: float, centre: np.ndarray,
                     rng: np.random.Generator) -> np.ndarray:
    """Picture to scene: random angle, a cell about `span` of the frame width, `centre` (in
    picture coordinates) put near the middle of the frame."""
    scale = span * size[0] / max(cut.cell)
    angle = rng.uniform(0, 2 * np.pi)
    base = similarity(angle, scale, np.zeros(2))
    middle = np.array(size) / 2 + rng.uniform(-0.08, 0.08, 2) * size
    base[:, 2] = middle - base[:, :2] @ centre
    return base


def fit_photo(names: tuple[str, ...], surfaces: tuple[str, ...], case: FitCase, seed: int,
              size: tuple[int, int] = (4000, 3000), render_scale: float = 0.5) -> FitPhoto:
    """Two pieces laid against each other in one of the ways a call can fit or fail."""
    rng = np.random.default_rng(seed)
    name, other = (str(n) for n in rng.choice(names, 2, replace=False))
    images = [picture(name), picture(other)]
    cut = cut_picture(images[0].shape[1], images[0].shape[0], rng)
    other_cut = cut if rng.random() < 0.5 else cut_picture(images[1].shape[1],
                                                           images[1].shape[0], rng)
    cuts = [cut, other_cut]
    inner = (np.array(size) * render_scale).astype(int)
    first = int(rng.integers(GRID * GRID))
    neighbour = int(rng.choice(_neighbours(first)))
    span = rng.uniform(0.16, 0.3)
    base = _scene_transform(cut, tuple(inner), span,
                            (cut.cell_centre(first) + cut.cell_centre(neighbour)) / 2, rng)
    a = Placement(0, first, base)
    cell_step = cut.cell_centre(neighbour) - cut.cell_centre(first)  # picture coordinates
    along = np.array([-cell_step[1], cell_step[0]])
    jitter = compose(similarity(0, 1, rng.normal(0, 0.3, 2)),
                     turn_about(cut.cell_centre(neighbour), 0))
    jitter = compose(jitter, _small_turn(cut.cell_centre(neighbour), rng.normal(0, 0.003)))
    second, source, inner_move = neighbour, 0, np.eye(2, 3)
    if case == "rotated":
        inner_move = turn_about(cut.cell_centre(neighbour), int(rng.integers(1, 4)))
    elif case == "wrong-neighbour":
        second = int(rng.choice([i for i in range(GRID * GRID)
                                 if i != first and i not in _neighbours(first)]))
        inner_move = similarity(0, 1, cut.cell_centre(neighbour) - cut.cell_centre(second))
    elif case == "corner":
        if rng.random() < 0.5:
            diagonal = [i for i in range(GRID * GRID) if i not in _neighbours(first)
                        and abs(divmod(i, GRID)[0] - divmod(first, GRID)[0]) == 1
                        and abs(divmod(i, GRID)[1] - divmod(first, GRID)[1]) == 1]
            second = int(rng.choice(diagonal))
        else:
            inner_move = similarity(0, 1, along * rng.choice([-1, 1]))
    elif case == "offset":
        inner_move = similarity(0, 1, along * rng.uniform(0.3, 0.65) * rng.choice([-1, 1]))
    elif case == "gap":
        inner_move = similarity(0, 1, cell_step * rng.uniform(0.12, 0.3))
    elif case == "other-picture":
        source = 1
        other_cell = np.array(other_cut.cell)
        # the other picture's piece, scaled to this cut's cells, at the neighbour's place
        fit_cells = similarity(0, float(np.mean(np.array(cut.cell) / other_cell)), np.zeros(2))
        fit_cells[:, 2] = cut.cell_centre(neighbour) - fit_cells[:, :2] @ other_cut.cell_centre(
            neighbour)
        inner_move = fit_cells
    b = Placement(source, second, compose(base, compose(inner_move, jitter)))
    if case != "fit":
        direction = _apply(base, cut.cell_centre(neighbour)[None])[0] - _apply(
            base, cut.cell_centre(first)[None])[0]
        if case == "corner" and second != neighbour:
            direction = _apply(base, cut.cell_centre(second)[None])[0] - _apply(
                base, cut.cell_centre(first)[None])[0]
        direction /= np.linalg.norm(direction)
        push = slide_apart(_outline(a, cuts), _outline(b, cuts), direction, 2.0)
        b = Placement(b.source, b.piece, b.transform + np.hstack([np.zeros((2, 2)),
                                                                  push[:, None]]))
    look = random_look(rng, surfaces)
    jpeg = render(images, cuts, [a, b], look, size, rng, render_scale)
    return FitPhoto(jpeg, name, case, (first, second))


def count_photo(names: tuple[str, ...], surfaces: tuple[str, ...], seed: int,
                size: tuple[int, int] = (4000, 3000), render_scale: float = 0.5,
                bad: int | None = None) -> CountPhoto:
    """A player's 4 × 4 rectangle with `bad` (default random 0..16) wrong or missing pieces."""
    rng = np.random.default_rng(seed)
    name, other = (str(n) for n in rng.choice(names, 2, replace=False))
    images = [picture(name), picture(other)]
    cut = cut_picture(images[0].shape[1], images[0].shape[0], rng)
    other_cut = cut_picture(images[1].shape[1], images[1].shape[0], rng)
    inner = (np.array(size) * render_scale).astype(int)
    base = _scene_transform(cut, tuple(inner), rng.uniform(0.13, 0.2),
                            np.array([cut.width / 2, cut.height / 2]), rng)
    count = int(rng.integers(0, GRID * GRID + 1)) if bad is None else bad
    bad_cells = set(rng.choice(GRID * GRID, count, replace=False).tolist())
    cells, placements = [], []
    scale_other = float(np.mean(np.array(cut.cell) / np.array(other_cut.cell)))
    for index in range(GRID * GRID):
        jitter = similarity(rng.normal(0, 0.006), 1.0, rng.normal(0, 0.006, 2) * cut.cell)
        jitter[:, 2] += cut.cell_centre(index) - jitter[:, :2] @ cut.cell_centre(index)
        if index not in bad_cells:
            cells.append("right")
            placements.append(Placement(0, index, compose(base, jitter)))
            continue
        kind = rng.choice(["missing", "turned", "moved", "other"], p=[0.3, 0.2, 0.25, 0.25])
        if kind == "missing":
            cells.append("missing")
            continue
        cells.append("wrong")
        if kind == "turned":
            move, source, piece = turn_about(cut.cell_centre(index), int(rng.integers(1, 4))), 0, \
                index
        elif kind == "moved":
            piece = int(rng.choice([i for i in range(GRID * GRID) if i != index]))
            move, source = similarity(0, 1, cut.cell_centre(index) - cut.cell_centre(piece)), 0
        else:
            piece, source = int(rng.integers(GRID * GRID)), 1
            move = similarity(0, scale_other, np.zeros(2))
            move[:, 2] = cut.cell_centre(index) - move[:, :2] @ other_cut.cell_centre(piece)
            move = compose(turn_about(cut.cell_centre(index), int(rng.integers(0, 4))), move)
        placements.append(Placement(source, piece, compose(base, compose(jitter, move))))
    look = random_look(rng, surfaces)
    jpeg = render(images, [cut, other_cut], placements, look, size, rng, render_scale)
    return CountPhoto(jpeg, name, tuple(cells))


def cover_photo(name: str, seed: int) -> tuple[bytes, np.ndarray]:
    """A photo of the box cover showing one picture, and the picture's four corners in it
    (top-left, top-right, bottom-right, bottom-left), as a user would mark them."""
    rng = np.random.default_rng(seed)
    image = picture(name)
    height, width = image.shape[:2]
    size = (1600, 1200)
    scale = rng.uniform(0.6, 0.8) * size[0] / width
    corners = np.float32([[0, 0], [width, 0], [width, height], [0, height]]) * scale
    corners += (np.float32(size) - corners[2]) / 2
    corners += rng.uniform(-0.04, 0.04, (4, 2)).astype(np.float32) * size
    source = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    scene = surface("plain", size, rng)
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(source, corners), size)
    mask = cv2.warpPerspective(np.full((height, width), 255, np.uint8),
                               cv2.getPerspectiveTransform(source, corners), size)
    scene = np.where(mask[..., None] > 127, warped, scene).astype(np.float32)
    scene *= np.array(rng.uniform(0.85, 1.12, 3), np.float32)
    scene += rng.normal(0, 3, scene.shape).astype(np.float32)
    ok, jpeg = cv2.imencode(".jpg", np.clip(scene, 0, 255).astype(np.uint8),
                            [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    marked = corners + rng.normal(0, 1.5, (4, 2)).astype(np.float32)
    return jpeg.tobytes(), marked
