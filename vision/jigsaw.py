"""Tableau checks from a photo: does a called piece fit (T4), and how many pieces of a player's
picture are wrong or missing at round end (T6).

How it works, and why:
- SIFT features of the (downscaled) photo are matched to the picture's precomputed features.
  Matches are grouped by the picture cell they fall in (with a margin for tabs) and each cell
  gets its own RANSAC similarity: one transform per piece, because a single transform can bend
  to cover two offset pieces (a lesson from the prototypes).
- Features are found on a CLAHE-equalised grey image (vision.pictures.feature_grey), so smooth
  pictures keep enough of them.
- A transform with SURE_INLIERS matches in its cell places a piece as it is; weaker ones are
  confirmed densely under the piece's own refitted transform: the photo is sampled back into
  the picture's frame and compared block by block (colour after a per-piece light correction,
  and correlation where the block has texture). Every seam is decided by the dense comparison.
- Counting (T6) compares every cell under one transform of the whole rectangle, and also takes
  a cell as right when its own transform places its piece like the anchor piece.
- A fit (T4) is a placement where the called piece's cell is a 4-neighbour of the other piece's
  cell, and the *same* transform explains both cells, including the seam between them and the
  corners of both pieces: a rotated, offset, gapped or foreign piece breaks the agreement there.
- A block that looks like the table cannot tell a piece from the table: where the deciding
  blocks are all like that, the verdict is "unsure", never a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np

from vision.pictures import Picture, check_image, feature_grey, sift

GRID = 4
WORK_LONG_SIDE = 1024  # the photo is searched at this size (SIFT on 12 MP takes seconds)
COMPARE_CELL = 48  # pixels per cell side when comparing densely
BLOCKS = 8  # blocks per cell side in the dense comparison
MIN_INLIERS = 8
SURE_INLIERS = 30  # this many similarity inliers in one cell place a piece without more proof
RATIO = 0.8  # Lowe's ratio test
MATCH_SEED = 7

Reason = Literal["fit", "not-neighbours", "wrong-orientation", "not-full-side", "wrong-picture",
                 "unsure"]
CellState = Literal["right", "wrong", "missing"]


# ---------------------------------------------------------------- results

@dataclass(frozen=True)
class Outline:
    """Where a piece was found: the four photo-pixel corners of its cell, and the cell."""
    cell: tuple[int, int]
    corners: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class FitVerdict:
    fit: bool | None
    reason: Reason
    confidence: float
    weaker: bool  # no picture was given: only shape and seam continuity were judged
    pieces: tuple[Outline, ...] = ()


@dataclass(frozen=True)
class PieceCount:
    right: int
    wrong: int
    missing: int
    cells: tuple[tuple[CellState, ...], ...]  # [row][col]
    grid: tuple[tuple[float, float], ...] = ()  # photo corners of the 4 × 4 rectangle, if found
    sure: bool = True  # False when the rectangle could not be placed against the picture


# ---------------------------------------------------------------- matching

@dataclass(frozen=True, eq=False)
class _Hypothesis:
    """A piece of the picture at `cell` (row, col), placed by `transform` (3 × 3, picture
    pixels to work-photo pixels), supported by `inliers` feature matches."""
    cell: tuple[int, int]
    transform: np.ndarray
    inliers: int

    @property
    def angle(self) -> float:
        return float(np.arctan2(self.transform[1, 0], self.transform[0, 0]))

    @property
    def scale(self) -> float:
        return float(np.sqrt(abs(np.linalg.det(self.transform[:2, :2]))))


@dataclass(frozen=True, eq=False)
class _Scene:
    """The photo prepared once: work-size image, features, matches to the picture."""
    work: np.ndarray
    factor: float  # photo pixels per work pixel
    photo_points: np.ndarray  # matched points in the work photo
    picture_points: np.ndarray  # the same matches in the picture
    keypoints: np.ndarray  # every keypoint of the work photo


def _to_work(photo: np.ndarray) -> tuple[np.ndarray, float]:
    factor = max(photo.shape[:2]) / WORK_LONG_SIDE
    if factor <= 1:
        return photo, 1.0
    return cv2.resize(photo, None, fx=1 / factor, fy=1 / factor,
                      interpolation=cv2.INTER_AREA), factor


def _scene(photo: np.ndarray, picture: Picture) -> _Scene:
    work, factor = _to_work(photo)
    keypoints, descriptors = sift(5000).detectAndCompute(feature_grey(work), None)
    points = np.float32([k.pt for k in keypoints]).reshape(-1, 2)
    empty = np.zeros((0, 2), np.float32)
    if descriptors is None or len(picture.descriptors) < 2 or len(keypoints) < 2:
        return _Scene(work, factor, empty, empty, points)
    # FLANN's random kd-trees draw from OpenCV's RNG: seeded, the same photo always gets the
    # same matches and so the same verdict (unseeded, a retake of nothing flipped fit/unsure).
    cv2.setRNGSeed(MATCH_SEED)
    matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 48})
    pairs = matcher.knnMatch(descriptors.astype(np.float32), picture.descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    photo_points = np.float32([points[m.queryIdx] for m in good]).reshape(-1, 2)
    picture_points = np.float32([picture.points[m.trainIdx] for m in good]).reshape(-1, 2)
    return _Scene(work, factor, photo_points, picture_points, points)


def _cell_size(picture: Picture) -> np.ndarray:
    return np.array(picture.size, np.float64) / GRID


def _hypotheses(scene: _Scene, picture: Picture) -> list[_Hypothesis]:
    """One RANSAC similarity per picture cell, from the matches in and around that cell."""
    cell = _cell_size(picture)
    found = []
    for row in range(GRID):
        for col in range(GRID):
            low = (np.array([col, row]) - 0.3) * cell
            high = (np.array([col, row]) + 1.3) * cell
            near = np.all((scene.picture_points >= low) & (scene.picture_points <= high), axis=1)
            if near.sum() < MIN_INLIERS:
                continue
            affine, inliers = cv2.estimateAffinePartial2D(
                scene.picture_points[near], scene.photo_points[near], method=cv2.RANSAC,
                ransacReprojThreshold=4.0, maxIters=800, confidence=0.995)
            if affine is None:
                continue
            inside = scene.picture_points[near][inliers.ravel() == 1]
            in_cell = np.all((inside >= np.array([col, row]) * cell)
                             & (inside <= np.array([col + 1, row + 1]) * cell), axis=1)
            if len(inside) >= MIN_INLIERS and in_cell.sum() >= MIN_INLIERS * 0.6:
                found.append(_Hypothesis((row, col), np.vstack([affine, [0, 0, 1]]),
                                         len(inside)))
    return found


# ---------------------------------------------------------------- dense comparison

@dataclass(frozen=True, eq=False)
class _Comparison:
    """Block-by-block agreement of the photo with the picture under one transform, in the
    picture's frame (GRID × BLOCKS blocks a side); `informative` marks blocks that would look
    different if the table showed there instead of a piece."""
    agree: np.ndarray
    informative: np.ndarray


def _small(picture: Picture) -> np.ndarray:
    size = (GRID * COMPARE_CELL, GRID * COMPARE_CELL)
    return cv2.resize(picture.image, size, interpolation=cv2.INTER_AREA).astype(np.float32)


def _block_mean(image: np.ndarray) -> np.ndarray:
    side = GRID * BLOCKS
    return cv2.resize(image, (side, side), interpolation=cv2.INTER_AREA)


def _table_colours(work: np.ndarray) -> np.ndarray:
    """A few colours of the table, from a ring along the photo's border (pieces lie inside)."""
    height, width = work.shape[:2]
    ring = max(4, min(height, width) // 20)
    border = np.concatenate([work[:ring].reshape(-1, 3), work[-ring:].reshape(-1, 3),
                             work[:, :ring].reshape(-1, 3), work[:, -ring:].reshape(-1, 3)])
    sample = border[:: max(1, len(border) // 4000)].astype(np.float32)
    _, _, centres = cv2.kmeans(sample, 4, None, (cv2.TERM_CRITERIA_MAX_ITER, 10, 0), 2,
                               cv2.KMEANS_PP_CENTERS)
    return centres


def _compare(scene: _Scene, picture: Picture, small: np.ndarray, transform: np.ndarray,
             gain_cell: tuple[int, int], table: np.ndarray) -> _Comparison:
    """Sample the photo into the picture frame with `transform` and compare block by block,
    after matching the light to the picture on `gain_cell` (the piece the transform came from).
    """
    side = GRID * COMPARE_CELL
    to_small = np.diag([side / picture.size[0], side / picture.size[1], 1.0])
    mapping = transform @ np.linalg.inv(to_small)  # small picture → work photo
    warped = cv2.warpPerspective(scene.work, mapping, (side, side),
                                 flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0))
    warped = warped.astype(np.float32)
    row, col = gain_cell
    core = (slice(int((row + 0.2) * COMPARE_CELL), int((row + 0.8) * COMPARE_CELL)),
            slice(int((col + 0.2) * COMPARE_CELL), int((col + 0.8) * COMPARE_CELL)))
    gain = (np.median(small[core].reshape(-1, 3), 0) + 8) / (
        np.median(warped[core].reshape(-1, 3), 0) + 8)
    gain = np.clip(gain, 0.4, 2.5)
    corrected = warped * gain
    blur = lambda image: cv2.GaussianBlur(image, (0, 0), 1.5)  # noqa: E731
    picture_blurred, photo_blurred = blur(small), blur(corrected)
    colour_gap = np.linalg.norm(_block_mean(picture_blurred) - _block_mean(photo_blurred), axis=2)
    grey_picture = picture_blurred.mean(2)
    grey_photo = photo_blurred.mean(2)
    mean_p, mean_q = _block_mean(grey_picture), _block_mean(grey_photo)
    var_p = _block_mean(grey_picture ** 2) - mean_p ** 2
    var_q = _block_mean(grey_photo ** 2) - mean_q ** 2
    cov = _block_mean(grey_picture * grey_photo) - mean_p * mean_q
    correlation = cov / np.sqrt(np.maximum(var_p, 1e-3) * np.maximum(var_q, 1e-3))
    textured = var_p > 60.0
    agree = (colour_gap < 45.0) & (~textured | (correlation > 0.3))
    # would the table, under the same light correction, be told apart from the picture here?
    table_seen = table[None, None, :, :] * gain
    table_gap = np.linalg.norm(_block_mean(small)[:, :, None, :] - table_seen, axis=3).min(2)
    informative = textured | (table_gap > 60.0)
    return _Comparison(agree, informative)


def _sure_blocks(cells: list[tuple[int, int]]) -> np.ndarray:
    """Blocks that the pieces of `cells` cover whatever their tab shapes: everything but the
    middle of each edge to the depth of a tab, where a neighbour's tab or a blank may be;
    edges between two of the cells are covered by one piece or the other."""
    sure = np.zeros((GRID * BLOCKS, GRID * BLOCKS), bool)
    band = (int(0.2 * BLOCKS), int(np.ceil(0.8 * BLOCKS)))  # along the edge
    depth = int(np.ceil(0.34 * BLOCKS))
    for row, col in cells:
        piece = np.ones((BLOCKS, BLOCKS), bool)
        for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1)):
            if (row + d_row, col + d_col) in cells:
                continue
            if d_row == -1:
                piece[:depth, band[0]:band[1]] = False
            elif d_row == 1:
                piece[-depth:, band[0]:band[1]] = False
            elif d_col == -1:
                piece[band[0]:band[1], :depth] = False
            else:
                piece[band[0]:band[1], -depth:] = False
        sure[row * BLOCKS:(row + 1) * BLOCKS, col * BLOCKS:(col + 1) * BLOCKS] = piece
    return sure


def _cell_blocks(cell: tuple[int, int]) -> tuple[slice, slice]:
    row, col = cell
    return slice(row * BLOCKS, (row + 1) * BLOCKS), slice(col * BLOCKS, (col + 1) * BLOCKS)


def _neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
    row, col = cell
    return [(r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < GRID and 0 <= c < GRID]


def _piece_confirmed(comparison: _Comparison, cell: tuple[int, int]) -> bool:
    sure = _sure_blocks([cell])[_cell_blocks(cell)]
    agree = comparison.agree[_cell_blocks(cell)][sure]
    return bool(agree.mean() >= 0.8)


def _piece_present(scene: _Scene, picture: Picture, small: np.ndarray, table: np.ndarray,
                   piece: _Hypothesis) -> bool:
    """Is the piece of the hypothesis really there? Many RANSAC inliers inside one cell do not
    happen by chance; below that, the dense comparison under the piece's own refitted transform
    decides. (A fit still needs the seam check: this only says where one piece lies.)"""
    if piece.inliers >= SURE_INLIERS:
        return True
    transform = _refined(scene, picture, piece, [piece.cell])
    comparison = _compare(scene, picture, small, transform, piece.cell, table)
    return _piece_confirmed(comparison, piece.cell)


# ---------------------------------------------------------------- fit (T4)

def _outline(transform: np.ndarray, cell: tuple[int, int], picture: Picture,
             factor: float) -> Outline:
    size = _cell_size(picture)
    row, col = cell
    corners = np.float64([[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]) * size
    photo = cv2.perspectiveTransform(corners[None], transform)[0] * factor
    return Outline(cell, tuple((float(x), float(y)) for x, y in photo))


def _same_placement(a: _Hypothesis, b: _Hypothesis, picture: Picture) -> bool:
    """Do both transforms put b's cell at the same place in the photo, the same way round?"""
    centre = (np.array([b.cell[1], b.cell[0]]) + 0.5) * _cell_size(picture)
    where = [cv2.perspectiveTransform(centre[None, None], h.transform)[0, 0] for h in (a, b)]
    turn = abs((a.angle - b.angle + np.pi) % (2 * np.pi) - np.pi)
    return bool(np.linalg.norm(where[0] - where[1]) < 0.08 * a.scale * _cell_size(picture).min()
                and turn < np.radians(6))


def _seam_blocks(first: tuple[int, int], second: tuple[int, int]) -> np.ndarray:
    """The blocks two block rows deep on both sides of the edge between two adjacent cells:
    when the pieces are joined, all of this strip is piece, wherever the tab is."""
    strip = np.zeros((GRID * BLOCKS, GRID * BLOCKS), bool)
    (row_a, col_a), (row_b, col_b) = first, second
    if row_a != row_b:
        edge = max(row_a, row_b) * BLOCKS
        strip[edge - 2:edge + 2, col_a * BLOCKS:(col_a + 1) * BLOCKS] = True
    else:
        edge = max(col_a, col_b) * BLOCKS
        strip[row_a * BLOCKS:(row_a + 1) * BLOCKS, edge - 2:edge + 2] = True
    return strip


def _share(comparison: _Comparison, region: np.ndarray) -> float | None:
    """The share of informative blocks in `region` that agree; None if too few are."""
    informative = comparison.informative & region
    if informative.sum() < 0.4 * region.sum():
        return None
    return float(comparison.agree[informative].mean())


def _seam_check(comparison: _Comparison, first: tuple[int, int],
                second: tuple[int, int]) -> tuple[bool | None, float]:
    """Under first's transform, is second's piece there, joined along the full side?
    True / False with a strength, or None when the deciding blocks look like the table or
    the evidence is mixed."""
    region = np.zeros((GRID * BLOCKS, GRID * BLOCKS), bool)
    region[_cell_blocks(second)] = True
    region &= _sure_blocks([first, second])
    piece, seam = _share(comparison, region), _share(comparison, _seam_blocks(first, second))
    if piece is None or seam is None:
        return None, 0.0
    if piece >= 0.8 and seam >= 0.8:
        return True, min(piece, seam)
    if piece < 0.5 or seam < 0.5:
        return False, 1 - min(piece, seam)
    return None, 0.0


def _refined(scene: _Scene, picture: Picture, piece: _Hypothesis,
             cells: list[tuple[int, int]]) -> np.ndarray:
    """The piece's transform refitted (affine) on every match over `cells` that it explains:
    extrapolating one piece's transform to its neighbour is a few pixels off under tilt."""
    cell = _cell_size(picture)
    relative = scene.picture_points[:, None, :] / cell - np.float64(
        [[c, r] for r, c in cells])[None]
    near = np.any(np.all((relative > -0.3) & (relative < 1.3), axis=2), axis=1)
    predicted = cv2.perspectiveTransform(scene.picture_points[None].astype(np.float64),
                                         piece.transform)[0]
    close = near & (np.linalg.norm(predicted - scene.photo_points, axis=1) < 6.0)
    if close.sum() < 12:
        return piece.transform
    affine, _ = cv2.estimateAffine2D(scene.picture_points[close], scene.photo_points[close],
                                     method=cv2.RANSAC, ransacReprojThreshold=3.0)
    return piece.transform if affine is None else np.vstack([affine, [0, 0, 1]])


def check_fit(photo: np.ndarray, picture: Picture | None) -> FitVerdict:
    """T4: do the two pieces in the photo join perfectly on one full side, right way up?"""
    check_image(photo)
    if picture is None:
        return _check_fit_without_picture(photo)
    scene = _scene(photo, picture)
    found = _hypotheses(scene, picture)
    if not found:
        return FitVerdict(None, "unsure", 0.0, False)
    small = _small(picture)
    table = _table_colours(scene.work)
    pieces = [h for h in found if _piece_present(scene, picture, small, table, h)]
    if not pieces:
        return FitVerdict(None, "unsure", 0.0, False)
    pieces.sort(key=lambda h: -h.inliers)
    outline = lambda h, cell=None: _outline(h.transform, cell or h.cell, picture,  # noqa: E731
                                            scene.factor)
    undecided = False
    for piece in pieces:
        for cell in _neighbours(piece.cell):
            transform = _refined(scene, picture, piece, [piece.cell, cell])
            comparison = _compare(scene, picture, small, transform, piece.cell, table)
            joined, strength = _seam_check(comparison, piece.cell, cell)
            if joined:
                confidence = min(1.0, piece.inliers / 40) * 0.5 + 0.5 * strength
                return FitVerdict(True, "fit", round(confidence, 3), False,
                                  (outline(piece), outline(piece, cell)))
            undecided |= joined is None
    return _why_not(scene, picture, pieces, undecided, outline)


def _why_not(scene: _Scene, picture: Picture, pieces: list[_Hypothesis], undecided: bool,
             outline) -> FitVerdict:
    """No confirmed fit: name what is wrong from the two pieces found, or say unsure."""
    first = pieces[0]
    cell_px = first.scale * _cell_size(picture).min()
    centre = lambda h: cv2.perspectiveTransform(  # noqa: E731
        ((np.array([h.cell[1], h.cell[0]]) + 0.5) * _cell_size(picture))[None, None],
        h.transform)[0, 0]
    others = [h for h in pieces[1:] if np.linalg.norm(centre(h) - centre(first)) > 0.6 * cell_px
              and not _same_placement(first, h, picture)]
    if others:
        second = others[0]
        rows, cols = (abs(first.cell[i] - second.cell[i]) for i in (0, 1))
        turn = abs((first.angle - second.angle + np.pi) % (2 * np.pi) - np.pi)
        if rows + cols == 1 and turn > np.radians(20):
            reason: Reason = "wrong-orientation"
        elif rows + cols == 1 or (rows == 1 and cols == 1 and turn < np.radians(20)):
            reason = "not-full-side"
        else:
            reason = "not-neighbours"
        confidence = min(1.0, min(first.inliers, second.inliers) / 25)
        return FitVerdict(False, reason, round(confidence, 3), False,
                          (outline(first), outline(second)))
    if undecided:
        return FitVerdict(None, "unsure", 0.0, False, (outline(first),))
    # The neighbours' places are clearly not showing the right piece, and the other piece
    # matches nothing in the picture: it is from another picture if it has features at all.
    near = np.linalg.norm(scene.keypoints - centre(first), axis=1) < 2.0 * cell_px
    unexplained = near & ~_inside_cell(scene.keypoints, first, picture)
    if unexplained.sum() >= 40:
        return FitVerdict(False, "wrong-picture", 0.6, False, (outline(first),))
    return FitVerdict(None, "unsure", 0.0, False, (outline(first),))


def _inside_cell(points: np.ndarray, piece: _Hypothesis, picture: Picture) -> np.ndarray:
    """Which work-photo points fall on the piece's cell (with its tabs' margin)."""
    if len(points) == 0:
        return np.zeros(0, bool)
    back = cv2.perspectiveTransform(points[None].astype(np.float64),
                                    np.linalg.inv(piece.transform))[0]
    relative = back / _cell_size(picture) - np.array([piece.cell[1], piece.cell[0]])
    return np.all((relative > -0.35) & (relative < 1.35), axis=1)


def _check_fit_without_picture(photo: np.ndarray) -> FitVerdict:
    """Without a picture there is nothing to place the pieces against."""
    return FitVerdict(None, "unsure", 0.0, True)


# ---------------------------------------------------------------- count (T6)

def count_pieces(photo: np.ndarray, picture: Picture) -> PieceCount:
    """T6: how many of the 16 pieces are in their right place the right way up, wrong, missing."""
    check_image(photo)
    scene = _scene(photo, picture)
    found = _hypotheses(scene, picture)
    small = _small(picture)
    table = _table_colours(scene.work)
    best: tuple[int, _Hypothesis, _Comparison] | None = None
    for hypothesis in found:
        comparison = _compare(scene, picture, small, hypothesis.transform, hypothesis.cell, table)
        right = sum(_piece_confirmed(comparison, (r, c)) for r in range(GRID)
                    for c in range(GRID))
        if best is None or right > best[0]:
            best = (right, hypothesis, comparison)
    if best is None or best[0] == 0:
        states = (("wrong",) * GRID,) * GRID
        return PieceCount(0, GRID * GRID, 0, states, (), sure=False)
    anchor = best[1]
    grid = _grid_transform(scene, picture, found, anchor)
    comparison = _compare(scene, picture, small, grid, anchor.cell, table)
    # One transform for the whole rectangle is a few pixels off somewhere under tilt: a piece
    # placed like the anchor by its own transform, and confirmed by it, is right too.
    placed = {h.cell for h in found if _same_placement(anchor, h, picture)
              and _piece_present(scene, picture, small, table, h)}
    states = tuple(tuple(_cell_state(scene, picture, comparison, grid, table, (r, c), placed)
                         for c in range(GRID)) for r in range(GRID))
    flat = [s for row in states for s in row]
    corners = np.float64([[0, 0], [picture.size[0], 0], list(picture.size),
                          [0, picture.size[1]]])
    photo_corners = cv2.perspectiveTransform(corners[None], grid)[0] * scene.factor
    return PieceCount(flat.count("right"), flat.count("wrong"), flat.count("missing"), states,
                      tuple((float(x), float(y)) for x, y in photo_corners))


def _grid_transform(scene: _Scene, picture: Picture, found: list[_Hypothesis],
                    anchor: _Hypothesis) -> np.ndarray:
    """A homography for the whole rectangle from every piece placed like the anchor (the camera
    tilt bends a large rectangle); the anchor's own transform when too few agree."""
    agreeing = [h for h in found if _same_placement(anchor, h, picture)]
    if len(agreeing) < 3:
        return anchor.transform
    predicted = cv2.perspectiveTransform(scene.picture_points[None].astype(np.float64),
                                         anchor.transform)[0]
    close = np.linalg.norm(predicted - scene.photo_points, axis=1) < 6.0
    if close.sum() < 12:
        return anchor.transform
    homography, _ = cv2.findHomography(scene.picture_points[close], scene.photo_points[close],
                                       cv2.RANSAC, 4.0)
    return anchor.transform if homography is None else homography


def _cell_state(scene: _Scene, picture: Picture, comparison: _Comparison, grid: np.ndarray,
                table: np.ndarray, cell: tuple[int, int],
                placed: set[tuple[int, int]]) -> CellState:
    if cell in placed or _piece_confirmed(comparison, cell):
        return "right"
    return "missing" if _looks_like_table(scene, picture, grid, table, cell) else "wrong"


def _looks_like_table(scene: _Scene, picture: Picture, grid: np.ndarray, table: np.ndarray,
                      cell: tuple[int, int]) -> bool:
    """Is the middle of the cell mostly table colour (no piece lies there)?"""
    size = _cell_size(picture)
    row, col = cell
    inner = np.float64([[col + 0.3, row + 0.3], [col + 0.7, row + 0.3], [col + 0.7, row + 0.7],
                        [col + 0.3, row + 0.7]]) * size
    quad = cv2.perspectiveTransform(inner[None], grid)[0].astype(np.int32)
    mask = np.zeros(scene.work.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, quad, 1)
    pixels = scene.work[mask > 0].astype(np.float32)
    if len(pixels) == 0:
        return True
    distance = np.linalg.norm(pixels[:, None, :] - table[None], axis=2).min(1)
    return bool((distance < 30).mean() > 0.6)


# ---------------------------------------------------------------- annotation

GREEN, RED, AMBER = (60, 180, 60), (40, 40, 220), (0, 170, 240)


def annotate_fit(photo: np.ndarray, verdict: FitVerdict) -> np.ndarray:
    """A copy of the photo with the pieces' cells outlined and the verdict written on it."""
    check_image(photo)
    colour = GREEN if verdict.fit else RED if verdict.fit is False else AMBER
    image = photo.copy()
    thickness = max(2, max(photo.shape[:2]) // 300)
    for piece in verdict.pieces:
        cv2.polylines(image, [np.int32(piece.corners)], True, colour, thickness, cv2.LINE_AA)
    label = {"fit": "Fits", "unsure": "Unsure - retake"}.get(
        verdict.reason, f"No fit: {verdict.reason.replace('-', ' ')}")
    _label(image, f"{label} ({verdict.confidence:.0%})", colour)
    return image


def annotate_count(photo: np.ndarray, count: PieceCount) -> np.ndarray:
    """A copy of the photo with each cell outlined by its state, and the totals written."""
    check_image(photo)
    image = photo.copy()
    thickness = max(2, max(photo.shape[:2]) // 400)
    if count.grid:
        corners = np.float64(count.grid)
        for row in range(GRID):
            for col in range(GRID):
                quad = [_bilinear(corners, (col + u) / GRID, (row + v) / GRID)
                        for u, v in ((0.05, 0.05), (0.95, 0.05), (0.95, 0.95), (0.05, 0.95))]
                colour = {"right": GREEN, "wrong": RED, "missing": AMBER}[count.cells[row][col]]
                cv2.polylines(image, [np.int32(quad)], True, colour, thickness, cv2.LINE_AA)
    _label(image, f"right {count.right}, wrong {count.wrong}, missing {count.missing}",
           GREEN if count.right == GRID * GRID else RED)
    return image


def _bilinear(corners: np.ndarray, u: float, v: float) -> np.ndarray:
    top = corners[0] + (corners[1] - corners[0]) * u
    bottom = corners[3] + (corners[2] - corners[3]) * u
    return top + (bottom - top) * v


def _label(image: np.ndarray, text: str, colour: tuple[int, int, int]) -> None:
    scale = max(image.shape[:2]) / 1200
    thickness = max(1, int(2 * scale))
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.rectangle(image, (0, 0), (width + 20, height + 24), (255, 255, 255), -1)
    cv2.putText(image, text, (10, height + 12), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                thickness, cv2.LINE_AA)
