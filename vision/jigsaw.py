"""Tableau checks from a photo: does a called piece fit (T4), and how many pieces of a player's
picture are wrong or missing at round end (T6).

How it works, and why:
- The pieces are segmented from the table first (vision.pieces: table colours from the
  photo's border), so every piece has an outline whatever its texture.
- A fit (T4) needs the two outlines joined along one full side: read upright, the pair's seam
  band is all piece (no gap) and the two bodies' sides are in line (no offset, no corner
  touch); read finer than the mask, no table shows across the seam wider than a cut line, and
  a cut line runs the whole side (one piece half lost to a table of its colour reads as two
  bodies, with no line between them). Then both bodies are compared densely with every cell
  of the picture under each of the four turns (vision.cells): the best placing that makes
  them neighbours the right way round must not be beaten clearly by any other explanation (a
  turned piece, another cell, another picture). Pieces with little texture are judged this
  way too; a flat piece turned rarely interlocks, so its outline refuses it.
- When the outlines are not joined, SIFT features name the reason: matches are grouped by the
  picture cell they fall in and each cell gets its own RANSAC similarity (one transform per
  piece: a single transform can bend to cover two offset pieces), confirmed densely; features
  are found on a CLAHE-equalised grey image (vision.matching), only on and around
  the pieces' outlines (the table's texture gave most keypoints and most of the time). A SIFT
  "fit" the outlines do not confirm is "unsure". SIFT's "another picture" gives way to bodies
  clearly out of line (not-full-side) and to the picture's clear turn or non-neighbour. Bodies
  further out of line than a turned piece explains are not-full-side whatever the picture
  says; a body whose colours the picture lacks, beside one whose colours it has, is from
  another picture; bodies in line whose gap is uneven along the seam (tab against tab: true
  neighbours pulled apart leave an even gap) are no gap, and the picture's best explanation
  names what is wrong.
- Without a picture, the outlines' interlock and the continuity of colour across the seam are
  judged, and the verdict says it is weaker.
- Counting (T6) is vision.count (count_pieces here hands over to it): the rectangle placed
  by the pieces the features place alike, or by its straight border; the table sampled around
  it; a cell right only when it is clearly its own cell, or, flat, when its seams interlock.
- What cannot be told from the table is "unsure", never a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np

from vision import cells
from vision.matching import (
    WORK_LONG_SIDE,
    Hypothesis,
    Scene,
    cell_size,
    hypotheses,
    projective,
    same_placement,
    scene_of,
    to_work,
)
from vision.pictures import Picture, check_image
from vision.pieces import (
    Pair,
    Pieces,
    SeamGap,
    find_pieces,
    mask_photo,
    read_pair,
    seam_cut,
    seam_gap,
)

GRID = 4
# The long side a photo is decoded no smaller than (vision.photo.decode_photo; None: whole). A fit
# check needs only the work size (a 12 MP JPEG decoded at half size: the same held-out fit
# results). A count is decoded whole: at half size its reading shifts by a pixel here and there,
# which made no exact-count difference worth having (held-out 20/40 against 19/40) but made two
# turned flat pieces read right on the independent renderer's photos (0 decoded whole).
FIT_DECODE_SIDE: int | None = WORK_LONG_SIDE
COUNT_DECODE_SIDE: int | None = None
COMPARE_CELL = 48  # pixels per cell side when comparing densely
BLOCKS = 8  # blocks per cell side in the dense comparison
SURE_INLIERS = 30  # this many similarity inliers in one cell place a piece without more proof

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


def _compare(scene: Scene, picture: Picture, small: np.ndarray, transform: np.ndarray,
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


def _piece_present(scene: Scene, picture: Picture, small: np.ndarray, table: np.ndarray,
                   piece: Hypothesis) -> bool:
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
    size = cell_size(picture)
    row, col = cell
    corners = np.float64([[col, row], [col + 1, row], [col + 1, row + 1], [col, row + 1]]) * size
    photo = cv2.perspectiveTransform(corners[None], transform)[0] * factor
    return Outline(cell, tuple((float(x), float(y)) for x, y in photo))


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


def _refined(scene: Scene, picture: Picture, piece: Hypothesis,
             cells: list[tuple[int, int]]) -> np.ndarray:
    """The piece's transform refitted (affine) on every match over `cells` that it explains:
    extrapolating one piece's transform to its neighbour is a few pixels off under tilt."""
    cell = cell_size(picture)
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
    """T4: do the two pieces in the photo join perfectly on one full side, right way up?

    The cut shapes decide whether the pieces are joined along one full side (their outlines
    close the seam with no gap and their sides line up); the picture decides whether they are
    neighbours, the right way round, and from it: densely, cell by cell, so pieces with little
    texture are judged too. Feature matching names what is wrong when they are not joined."""
    check_image(photo)
    work, factor = to_work(photo)
    found = find_pieces(mask_photo(work))
    pair = read_pair(found) if found.area else None
    gap = seam_gap(work, found, pair) if pair else None
    joined = _joined(work, pair, gap)
    if picture is None:
        return _check_fit_without_picture(work, pair, gap, joined)
    bank = cells.bank(picture.image)
    placed = _place_pair(work, found, pair, bank, joined is not False) if pair else None
    if joined and placed is not None:
        verdict = placed.verdict(_body_outlines(pair, placed, factor), lambda placing: _relit_worst(
            work, found, pair, placed, bank, placing))
        if verdict.reason != "unsure":
            return verdict
    by_features = _check_fit_by_features(scene_of(work, factor, picture, found), picture)
    if joined is False and by_features.fit is not True:
        return _why_not_joined(work, pair, gap, placed, by_features, picture)
    if by_features.fit and not joined:  # the outlines do not show the seam closed: retake
        return FitVerdict(None, "unsure", 0.0, False, by_features.pieces)
    if by_features.fit is None and placed is not None and _only_spotted(work, pair, gap) \
            and placed.clearly_fit():
        return FitVerdict(True, "fit", 0.6, False, _body_outlines(pair, placed, factor))
    if by_features.fit is None and placed is not None:
        # the outlines cannot say whether the seam is closed, but the picture may say clearly
        # that the pair is no fit whatever the seam (turned, not neighbours, another picture)
        reason = placed.contradiction()
        if reason:
            return FitVerdict(False, reason, 0.6, False, _body_outlines(pair, placed, factor))
    return by_features


# The seam is closed when this share of the band along it is piece, and the two bodies' sides
# are in line within this share of their width; clearly apart below / above the second values.
SEAM_CLOSED, SEAM_OPEN = 0.97, 0.9
LEVEL_IN_LINE, LEVEL_OUT = 0.12, 0.2
# Read finer than the mask (vision.pieces.seam_gap), the table may show across a joined seam
# only as wide as a cut line: up to the first share of a body's length; wider than the second,
# there is a gap (T4: a gap is not a full side). Joined pairs' cut lines read up to 0.017 on the
# tuning photos, their gaps 0.08 and more; the mask's smoothing closes gaps up to about 0.04.
GAP_CLOSED, GAP_OPEN = 0.02, 0.05
# Where two pieces meet, a cut line runs the whole side (vision.pieces.seam_cut): at least this
# edge strength (grey levels per pixel; joined pairs of the tuning photos 4.8 and more, one piece
# read as two under 2), and this many times the band's own median edge.
CUT_SEEN, CUT_CONTRAST = 3.0, 2.0
# Joined pieces are nowhere narrower across the middle of the pair than their bodies less two
# blanks (fits of the tuning photos 0.5 and more); pieces that touch by a tab or a corner
# across a gap neck down to the tab (0.2 and less).
NARROWEST = 0.3


def _joined(work: np.ndarray, pair: Pair | None, gap: SeamGap | None) -> bool | None:
    """Are the two pieces joined along one full side (True), clearly not (False), or is the
    outline not clear enough to say (None)? Joined: the mask closes the seam band, the bodies'
    sides are in line, no table shows across the seam finer than the mask sees, and a cut line
    runs along it (a part of one piece, the rest lost to a table of its colour, has none)."""
    if pair is None or gap is None:
        return None
    if pair.seam < SEAM_OPEN or pair.level > LEVEL_OUT or gap.width > GAP_OPEN \
            or pair.narrowest < NARROWEST:
        return False
    if pair.seam < SEAM_CLOSED or pair.level > LEVEL_IN_LINE or gap.width > GAP_CLOSED:
        return None
    cut, around = seam_cut(work, pair)
    return True if cut >= max(CUT_SEEN, CUT_CONTRAST * around) else None


def _only_spotted(work: np.ndarray, pair: Pair | None, gap: SeamGap | None) -> bool:
    """Is the seam closed but for spots of the band the mask reads as table (SEAM_OPEN up to
    SEAM_CLOSED), with every other sign of a join: bodies in line, no table across the seam read
    finer, a cut line along it? Print of the table's colours beside the cut, whose grain the cut
    hides, leaves such spots; so does a blank left open by a tab that is not its own (a wrong
    neighbour), which the outline cannot tell from them: the picture must."""
    return pair is not None and SEAM_OPEN <= pair.seam < SEAM_CLOSED \
        and _joined(work, replace(pair, seam=SEAM_CLOSED), gap) is True


# Bodies in line (level up to LEVEL_OUT) whose gap varies along the seam by more than this share
# of a body's length (vision.pieces.SeamGap.unevenness) meet tab against tab or shoulder: not true
# neighbours pulled apart (their gap is even; tuning photos' gaps up to 0.22, colliding pairs'
# mostly 0.25 and more), so the picture names what is wrong rather than "not-full-side".
UNEVEN = 0.23


def _apart(pair: Pair, gap: SeamGap) -> float:
    """How clearly the outlines are apart (0..1), by the strongest sign: the seam band's share of
    table, the bodies' sides out of line, or the table's width across the seam."""
    return max(1 - pair.seam, min(1.0, pair.level), min(1.0, gap.width / (2 * GAP_OPEN)))


def _why_not_joined(work: np.ndarray, pair: Pair, gap: SeamGap, placed: _PairPlacement,
                    by_features: FitVerdict, picture: Picture) -> FitVerdict:
    """Why a pair whose outlines are not joined along one full side is no fit: what the features
    name, else what the picture clearly says, else not-full-side. The features' "another
    picture" (keypoints near a piece that explain no cell) is the weakest of these: bodies
    clearly out of line (an offset, a corner touch) are not-full-side instead, since the
    features there see a piece's displaced part; and where both bodies look like cells of the
    picture, the picture's clear turn or non-neighbour names the reason. Nor does the picture
    name the reason for bodies further out of line than a turned piece explains: the pair is
    placed on the picture as two bodies in line, which such bodies are not. Bodies in line
    whose gap is uneven (UNEVEN) are no true neighbours pulled apart: the picture's best
    explanation that is no fit names the reason, however narrowly it wins."""
    apart = round(_apart(pair, gap), 3)
    contradiction = placed.contradiction()
    if by_features.fit is False and by_features.reason == "wrong-picture":
        if pair.level > LEVEL_OUT:
            return FitVerdict(False, "not-full-side", apart, False, by_features.pieces)
        if placed.both_of_picture() and contradiction in ("wrong-orientation", "not-neighbours"):
            return FitVerdict(False, contradiction, apart, False, by_features.pieces)
    if by_features.fit is False:
        return by_features
    if pair.level > _turned_level(picture):
        contradiction = None
    elif _foreign_colours(work, pair, placed, picture):
        contradiction = "wrong-picture"
    elif contradiction is None and pair.level <= LEVEL_OUT \
            and gap.unevenness > UNEVEN:
        contradiction = placed.likeliest_wrong()
    return FitVerdict(False, contradiction or "not-full-side", apart, False, by_features.pieces)


def _turned_level(picture: Picture) -> float:
    """How far out of line (Pair.level) a piece turned a quarter may lie against its neighbour
    (at least LEVEL_OUT): a cell w × h turned shows its other side across, so its sides stick
    out by up to |w - h| over their mean, plus the slack of bodies in line."""
    width, height = cell_size(picture)
    return max(LEVEL_OUT, abs(width - height) / ((width + height) / 2) + LEVEL_IN_LINE)


def _check_fit_by_features(scene: Scene, picture: Picture) -> FitVerdict:
    """The pieces placed by SIFT matches, one transform per piece, each confirmed densely."""
    found = hypotheses(scene, picture)
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


# A piece of another picture shows colours this picture does not have: a share of its core
# whose chroma (Lab a, b, PALETTE_BIN units a bin) lies more than PALETTE_REACH bins from every
# colour of the picture. The light tints both bodies alike, so one is foreign only when its
# partner, in the same light, is explained (unexplained share at most EXPLAINED) while it is not
# (at least UNEXPLAINED), and it looks like no cell closely (best distance over LOOKS_LIKE / 2:
# a flat piece's few colours can fall between a picture's).
PALETTE_BIN, PALETTE_REACH = 4, 3
EXPLAINED, UNEXPLAINED = 0.1, 0.5
CORE = 0.7  # share of a body's sides sampled for its colours (tabs, blanks and cut line outside)


def _palette(picture: Picture) -> np.ndarray:
    """Which chroma bins the picture's colours reach, widened by PALETTE_REACH."""
    lab = cv2.cvtColor(_small(picture).astype(np.uint8), cv2.COLOR_BGR2Lab).reshape(-1, 3)
    bins = 256 // PALETTE_BIN
    seen = np.zeros((bins, bins), np.uint8)
    seen[lab[:, 1] // PALETTE_BIN, lab[:, 2] // PALETTE_BIN] = 1
    reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * PALETTE_REACH + 1,) * 2)
    return cv2.dilate(seen, reach).astype(bool)


def _foreign_colours(work: np.ndarray, pair: Pair, placed: _PairPlacement,
                     picture: Picture) -> bool:
    """Is one body of the pair from another picture, by its colours (see PALETTE_BIN)?"""
    palette = _palette(picture)
    along, across = np.array(pair.direction), _quarter(np.array(pair.direction))
    unexplained = []
    for centre in pair.centres:
        core = cells.sample(work, np.array(centre), CORE * pair.along * along,
                            CORE * pair.across * across)
        lab = cv2.cvtColor(core.astype(np.uint8), cv2.COLOR_BGR2Lab).reshape(-1, 3)
        unexplained.append(1 - palette[lab[:, 1] // PALETTE_BIN, lab[:, 2] // PALETTE_BIN].mean())
    best = (placed.first.min(), placed.second.min())
    return any(unexplained[i] >= UNEXPLAINED and unexplained[1 - i] <= EXPLAINED
               and best[i] > LOOKS_LIKE / 2 for i in (0, 1))


# ---------------------------------------------------------------- dense placement of a pair

# Per-body distance (vision.cells.distance) up to which a body looks like its cell; an
# explanation of the pair this much better than every consistent one contradicts a fit; a body
# further than FOREIGN from every cell under every turn is not from the picture.
LOOKS_LIKE = 0.2
CONTRADICTS = 0.08
FOREIGN = 0.3
# A placing that moves one body only (to another cell or turn), the other kept where the best
# consistent placing lays it, contradicts a fit by less: with the other body and the light
# correction shared, only the moved body's own match differs, and a body that looks MOVED_CLOSER
# times as much like another cell or turn as like its place in the fit is misplaced there, when
# that wins by MOVED_BY (tuning fits: at most 1.6 times; turned pieces of a flat ramp and wrong
# neighbours of a repeating pattern 2.4 to 4.5 times, by 0.05 to 0.07).
MOVED_CLOSER, MOVED_BY = 2.0, 0.04
# Light, blur and a flat picture blunt how much a body looks like its cell more than which cell
# it looks most like: a joined pair whose bodies look only loosely like their cells (up to
# LOOSELY) still fits when that placing beats every other explanation by CLEARLY.
LOOSELY, CLEARLY = 0.3, 0.05
# Relit by one smooth field (_relit_worst), a fit must still beat the rival placings relit alike
# by this much of the worse body's distance (CLEARLY is of both bodies' sum): relit, the fit
# 9049 read 0.187 and its rivals 0.175 to 0.196, the turned pair 5064 0.284 against 0.222
RELIT_BY = CLEARLY / 2
ASPECT_SLACK = 1.3  # measured body sides may be off the cell's proportions by this factor
# (camera tilt and the blanks at the ends)


def _quarter(vector: np.ndarray) -> np.ndarray:
    """`vector` turned a quarter turn clockwise on screen (image y points down)."""
    return np.array([-vector[1], vector[0]])


@dataclass(frozen=True, eq=False)
class _Turn:
    """The picture laid on the photo a quarter turn `index` from the pair's direction: its
    cells' sides as photo vectors, the grid step from the first body's cell to the second's,
    and whether the bodies' measured proportions allow it."""
    index: int
    axes: tuple[np.ndarray, np.ndarray]
    step: tuple[int, int]
    plausible: bool


def _turns(pair: Pair, cell_size: tuple[float, float]) -> list[_Turn]:
    """The four ways to lay the picture on the pair. The cell sides are the measured body
    sides (a tilted camera stretches them unevenly), so a turn is plausible only when the
    bodies' proportions are near the cells'."""
    direction = np.array(pair.direction)
    width, height = cell_size
    turns, x_side = [], direction
    for index in range(4):
        picture_step = np.array([x_side @ direction, _quarter(x_side) @ direction])
        step = (int(round(picture_step[1])), int(round(picture_step[0])))  # rows, columns
        sides = (pair.along, pair.across) if step[1] else (pair.across, pair.along)
        aspect = sides[0] / sides[1] / (width / height)
        turns.append(_Turn(index, (x_side * sides[0], _quarter(x_side) * sides[1]), step,
                           1 / ASPECT_SLACK < aspect < ASPECT_SLACK))
        x_side = _quarter(x_side)
    return turns


def _wrong_by(placing: tuple[int, int, int, int]) -> Reason:
    """What a placing that is no fit says is wrong: a turn (the bodies under different turns)
    or two cells that are not neighbours."""
    return "wrong-orientation" if placing[0] != placing[2] else "not-neighbours"


@dataclass(frozen=True, eq=False)
class _PairPlacement:
    """Every way to lay the two bodies on the picture's cells: `total[ka, a, kb, b]` is the
    summed distance with the first body on cell a under turn ka and the second on b under kb
    (one light correction for both); `consistent` marks the ways that make them neighbours
    the right way round, joined on the side they are joined on in the photo."""
    total: np.ndarray
    first: np.ndarray
    second: np.ndarray
    consistent: np.ndarray
    turns: list[_Turn]

    def best(self, among: np.ndarray) -> tuple[int, int, int, int]:
        return tuple(int(i) for i in np.unravel_index(
            np.argmin(np.where(among, self.total, np.inf)), self.total.shape))

    def contradiction(self) -> Reason | None:
        """What the picture says is wrong with the pair, if it says so clearly."""
        if not self.consistent.any():
            return None
        fit = self.best(self.consistent)
        if min(self.first.min(), self.second.min()) > FOREIGN:
            return None  # neither piece is from the picture: not a pair to judge
        if self.first.min() > FOREIGN or self.second.min() > FOREIGN:
            return "wrong-picture"
        alternative = self.rival()
        if self.total[alternative] <= self.total[fit] - CONTRADICTS:
            return _wrong_by(alternative)
        moved = self.one_moved(fit)
        body = self.first if moved[2:] == fit[2:] else self.second
        if self.total[moved] <= self.total[fit] - MOVED_BY \
                and body[fit] >= MOVED_CLOSER * body[moved]:
            return _wrong_by(moved)
        return None

    def likeliest_wrong(self) -> Reason:
        """What is most likely wrong with a pair known to be no fit however it lies: another
        picture when a body looks like no cell closely, else what the best placing that is no
        fit says (turned, or not neighbours), however narrowly it wins."""
        return "wrong-picture" if not self.both_of_picture() else _wrong_by(self.rival())

    def both_of_picture(self) -> bool:
        """Does each body look like some cell of the picture under some turn?"""
        return max(self.first.min(), self.second.min()) <= LOOKS_LIKE

    def rival(self, among: np.ndarray | bool = True) -> tuple[int, int, int, int]:
        """The best placing on two different cells that does not make the pair fit (of
        `among`)."""
        _, a, _, b = np.indices(self.total.shape)
        return self.best(among & ~self.consistent & (a != b))

    def one_moved(self, fit: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        """The best placing that is no fit and keeps one body where `fit` lays it."""
        kept = np.zeros(self.total.shape, bool)
        kept[fit[0], fit[1]] = True  # the first body kept, the second moved
        kept[:, :, fit[2], fit[3]] = True  # the second kept, the first moved
        return self.rival(kept)

    def clearly_fit(self) -> bool:
        """Do both bodies look like their cells in the best placing that makes the pair fit, and
        does that placing beat every other explanation by CLEARLY?"""
        if not self.consistent.any() or self.contradiction():
            return False
        fit = self.best(self.consistent)
        return bool(max(self.first[fit], self.second[fit]) <= LOOKS_LIKE
                    and self.total[self.rival()] - self.total[fit] >= CLEARLY)

    def verdict(self, outlines: tuple[Outline, ...],
                relit_worst: Callable[[tuple[int, int, int, int]], float]) -> FitVerdict:
        """The verdict on a pair whose outlines are joined along one full side. Bodies that
        look like their cells only after one smooth light for both (`relit_worst` of the best
        consistent placing, _relit_worst) fit too: the light a soft shadow or glare casts
        across the pair is no evidence against them, and a contradiction still refuses."""
        reason = self.contradiction()
        if reason:
            return FitVerdict(False, reason, 0.8, False, outlines)
        fit = self.best(self.consistent) if self.consistent.any() else None
        worst = float(max(self.first[fit], self.second[fit])) if fit is not None else np.inf
        if worst <= LOOKS_LIKE:
            return FitVerdict(True, "fit", round(0.7 + 0.3 * (1 - worst / LOOKS_LIKE), 3), False,
                              outlines)
        if worst <= LOOSELY and self.total[self.rival()] - self.total[fit] >= CLEARLY:
            return FitVerdict(True, "fit", 0.6, False, outlines)
        if fit is not None and self.clearly_relit(fit, relit_worst):
            return FitVerdict(True, "fit", 0.6, False, outlines)
        return FitVerdict(None, "unsure", 0.0, False, outlines)

    def clearly_relit(self, fit: tuple[int, int, int, int],
                      relit_worst: Callable[[tuple[int, int, int, int]], float]) -> bool:
        """Relit by one smooth field for both (`relit_worst`), do the bodies look like their cells
        in `fit`, and by RELIT_BY more than in the rival placings relit alike (the best that is no
        fit, and the best that moves one body only)? A smooth field lights flat bodies into
        most cells nearly alike, a turned piece's too, so the relit fit alone proves nothing."""
        relit = relit_worst(fit)
        return relit <= LOOKS_LIKE and all(relit_worst(other) - relit >= RELIT_BY
                                           for other in (self.rival(), self.one_moved(fit)))


SHIFTS = np.arange(-2, 3) * 0.05  # each body is also tried this far off its measured place
# (share of its shorter side, both ways): the outline places a body only roughly


def _place_pair(work: np.ndarray, found: Pieces, pair: Pair, bank: cells.Bank,
                maybe_joined: bool) -> _PairPlacement:
    """Every way to lay the pair on the picture. With `maybe_joined` (outlines joined, or maybe:
    the placing decides fit or no fit), the bodies' grey patterns are compared without a ramp
    of light across each (vision.cells.scores): a soft shadow or glare on a flat cell read as
    a pattern contradicting it, and refused true fits. And the two bodies are shifted
    together: read from one outline closed along the seam, their places are off alike, while
    each shifted on its own finds its best phase of a repeating pattern (dots, stripes) in
    cells that are not its own, so that wrong cells placed as closely as the right ones.
    Outlines clearly apart are no fit whatever the light, and the placing only names the
    reason, by the picture's ramps too, each body placed on its own."""
    turns = _turns(pair, bank.size)
    axes = [turn.axes for turn in turns]
    offsets = _offsets(pair)
    # every shifted place of a body under every turn scored at once: turn entry 4 j + k is
    # offset j under turn k
    scored = [cells.scores(cells.bodies(work, found.bare, found.factor,
                                        np.array(centre) + np.array(offsets), axes), bank,
                           maybe_joined)
              for centre in pair.centres]
    middle = 4 * (len(offsets) // 2)  # the unshifted place sets the light correction
    # open index grids: the per-body sums are picked for 4 × 16 places each and broadcast over
    # the other body's, instead of gathered for all 4 × 16 × 4 × 16 pairs of places
    ka, a, kb, b = np.ix_(*(np.arange(n) for n in (4, GRID * GRID, 4, GRID * GRID)))
    gain = cells.light(scored[0].photo_mean[middle + ka] + scored[1].photo_mean[middle + kb],
                       scored[0].picture_mean[middle + ka, a]
                       + scored[1].picture_mean[middle + kb, b])
    shifted = 4 * np.arange(len(offsets)).reshape(-1, 1, 1, 1, 1)  # every offset at once
    first = cells.distance(scored[0], gain[None], shifted + ka, a[None])
    second = cells.distance(scored[1], gain[None], shifted + kb, b[None])
    if maybe_joined:  # both at the offset that places them best together
        together = (first + second).argmin(0)[None]
        first = np.take_along_axis(first, together, 0)[0]
        second = np.take_along_axis(second, together, 0)[0]
    else:
        first, second = first.min(0), second.min(0)
    consistent = np.zeros(first.shape, bool)
    for turn in turns:
        if not turn.plausible:
            continue
        for cell in range(GRID * GRID):
            row, col = divmod(cell, GRID)
            row, col = row + turn.step[0], col + turn.step[1]
            if 0 <= row < GRID and 0 <= col < GRID:
                consistent[turn.index, cell, turn.index, row * GRID + col] = True
    return _PairPlacement(first + second, first, second, consistent, turns)


def _offsets(pair: Pair) -> list[np.ndarray]:
    """Every SHIFTS offset of a body from its measured place (photo pixels, both ways)."""
    along = np.array(pair.direction)
    reach = min(pair.along, pair.across)
    return [(i * along + j * _quarter(along)) * reach for i in SHIFTS for j in SHIFTS]


def _relit_worst(work: np.ndarray, found: Pieces, pair: Pair, placed: _PairPlacement,
                 bank: cells.Bank, placing: tuple[int, int, int, int]) -> float:
    """The worse of the two bodies' distances to their cells in `placing`, both bodies relit by
    one smooth light field (vision.cells.under_one_light) and shifted together (joined, they
    lie one cell apart): a soft shadow's edge or glare across the pair reads as colours the
    cells lack under one light correction for each body. The best shift counts."""
    centres, axes = np.array(pair.centres), [placed.turns[placing[0]].axes,
                                             placed.turns[placing[2]].axes]
    offsets = _offsets(pair)
    bodies = [cells.bodies(work, found.bare, found.factor, centre + np.array(offsets), [sides])
              for centre, sides in zip(centres, axes, strict=True)]
    laid = [bank.cells[placing[1]], bank.cells[placing[3]]]
    worst = np.inf
    for index, offset in enumerate(offsets):
        shifted = [cells.Body(body.colour[index:index + 1], body.weight[index:index + 1])
                   for body in bodies]
        points = [cells.sample_points(centre + offset, *sides)
                  for centre, sides in zip(centres, axes, strict=True)]
        relit = cells.under_one_light(shifted, laid, points)
        worst = min(worst, max(cells.distance_to(body, cell)
                               for body, cell in zip(relit, laid, strict=True)))
    return worst


def _body_outlines(pair: Pair, placed: _PairPlacement, factor: float) -> tuple[Outline, ...]:
    """The two bodies' outlines in photo pixels, on the cells of the best consistent placing
    (or the best of any)."""
    among = placed.consistent if placed.consistent.any() else np.ones_like(placed.consistent)
    ka, a, kb, b = placed.best(among)
    outlines = []
    for centre, turn, cell in ((pair.centres[0], placed.turns[ka], a),
                               (pair.centres[1], placed.turns[kb], b)):
        x_side, y_side = turn.axes
        middle = np.array(centre)
        corners = [middle + (u - 0.5) * x_side + (v - 0.5) * y_side
                   for u, v in ((0, 0), (1, 0), (1, 1), (0, 1))]
        outlines.append(Outline(divmod(cell, GRID), tuple(
            (float(x * factor), float(y * factor)) for x, y in corners)))
    return tuple(outlines)


def _why_not(scene: Scene, picture: Picture, pieces: list[Hypothesis], undecided: bool,
             outline) -> FitVerdict:
    """No confirmed fit: name what is wrong from the two pieces found, or say unsure."""
    first = pieces[0]
    cell_px = first.scale * cell_size(picture).min()
    centre = lambda h: cv2.perspectiveTransform(  # noqa: E731
        ((np.array([h.cell[1], h.cell[0]]) + 0.5) * cell_size(picture))[None, None],
        h.transform)[0, 0]
    others = [h for h in pieces[1:] if np.linalg.norm(centre(h) - centre(first)) > 0.6 * cell_px
              and not same_placement(first, h, picture)]
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


def _inside_cell(points: np.ndarray, piece: Hypothesis, picture: Picture) -> np.ndarray:
    """Which work-photo points fall on the piece's cell (with its tabs' margin)."""
    if len(points) == 0:
        return np.zeros(0, bool)
    back = cv2.perspectiveTransform(points[None].astype(np.float64),
                                    np.linalg.inv(piece.transform))[0]
    relative = back / cell_size(picture) - np.array([piece.cell[1], piece.cell[0]])
    return np.all((relative > -0.35) & (relative < 1.35), axis=1)


# Without a picture: the colour step across the seam beyond what the colour changes on either
# side predict, median along the seam (0..255): continuous below the first, broken above the
# second.
CONTINUOUS, BROKEN = 10.0, 28.0
# Nor are the cells' proportions known: a body more than this many times as long as it is wide
# is not a piece of a 4 × 4 cut of any usual picture (pieces lying side by side, read as one
# end-to-end pair, or a shadow), so no fit is read from it.
BODY_ASPECT = 2.0


def _check_fit_without_picture(work: np.ndarray, pair: Pair | None, gap: SeamGap | None,
                               joined: bool | None) -> FitVerdict:
    """Only the cut shapes and the continuity of the picture across the seam can be judged:
    the verdict says it is weaker, and is unsure when either is unclear."""
    if pair is None or joined is None:
        return FitVerdict(None, "unsure", 0.0, True)
    if joined and max(pair.along / pair.across, pair.across / pair.along) > BODY_ASPECT:
        return FitVerdict(None, "unsure", 0.0, True)
    if not joined:
        return FitVerdict(False, "not-full-side", round(0.2 + 0.5 * _apart(pair, gap), 3), True)
    step = _seam_step(work, pair)
    if step < CONTINUOUS:
        return FitVerdict(True, "fit", round(0.6 - 0.2 * step / CONTINUOUS, 3), True)
    if step > BROKEN:
        return FitVerdict(False, "not-neighbours", 0.5, True)
    return FitVerdict(None, "unsure", 0.0, True)


def _seam_step(work: np.ndarray, pair: Pair) -> float:
    """How much the colour jumps across the seam beyond the picture's own change there: a
    continuous picture changes as much across the seam as just beside it."""
    first, second = (np.array(c) for c in pair.centres)
    middle, along = (first + second) / 2, np.array(pair.direction)
    seam = _quarter(along)
    depth = 0.1 * pair.along
    blurred = cv2.GaussianBlur(work, (0, 0), max(1.0, 0.03 * pair.along)).astype(np.float32)
    positions = np.linspace(-0.4, 0.4, 17)[:, None] * pair.across * seam + middle
    offsets = np.array([-2, -1, 1, 2])[:, None] * depth * along
    points = (positions[:, None, :] + offsets[None]).astype(np.float32)
    colours = cv2.remap(blurred, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)  # (17, 4, 3)
    gap = lambda i, j: np.linalg.norm(colours[:, i] - colours[:, j], axis=1)  # noqa: E731
    beside = (gap(0, 1) + gap(2, 3)) / 2
    return float(np.median(np.maximum(gap(1, 2) - 2 * beside, 0)))


# ---------------------------------------------------------------- count (T6)

def count_pieces(photo: np.ndarray, picture: Picture) -> PieceCount:
    """T6: how many of the 16 pieces are in their right place the right way up, wrong, missing
    (vision.count does the work; imported here late because it builds on this module)."""
    from vision.count import count_pieces as count
    return count(photo, picture)


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


# a cell's outline, drawn inside its sides so that neighbours' outlines do not touch
INSET = np.float64([(0.05, 0.05), (0.95, 0.05), (0.95, 0.95), (0.05, 0.95)])


def annotate_count(photo: np.ndarray, count: PieceCount) -> np.ndarray:
    """A copy of the photo with each cell outlined by its state, and the totals written."""
    check_image(photo)
    image = photo.copy()
    thickness = max(2, max(photo.shape[:2]) // 400)
    if count.grid:
        corners = np.float64(count.grid)
        for row in range(GRID):
            for col in range(GRID):
                # where count_pieces read the cell: in perspective
                quad = projective(corners, (INSET + (col, row)) / GRID)
                colour = {"right": GREEN, "wrong": RED, "missing": AMBER}[count.cells[row][col]]
                cv2.polylines(image, [np.int32(quad)], True, colour, thickness, cv2.LINE_AA)
    _label(image, f"right {count.right}, wrong {count.wrong}, missing {count.missing}",
           GREEN if count.right == GRID * GRID else RED)
    return image


def _label(image: np.ndarray, text: str, colour: tuple[int, int, int]) -> None:
    scale = max(image.shape[:2]) / 1200
    thickness = max(1, int(2 * scale))
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.rectangle(image, (0, 0), (width + 20, height + 24), (255, 255, 255), -1)
    cv2.putText(image, text, (10, height + 12), cv2.FONT_HERSHEY_SIMPLEX, scale, colour,
                thickness, cv2.LINE_AA)
