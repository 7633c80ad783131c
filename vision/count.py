"""Tableau count (T6): how many pieces of a player's 4 × 4 rectangle are right, wrong, missing.

How it works, and why:
- The rectangle is placed first: SIFT matches grouped by picture cell give one similarity per
  piece (vision.matching); the best-confirmed piece and every piece placed like it give a
  homography for the whole rectangle, grown from their own matches outwards (a similarity
  extrapolated across a tilted rectangle drifts by a fraction of a cell at the far side, so
  pieces are placed alike by the mean of their transforms, _placed_alike).
  A group that is one piece (its matches also make hypotheses for the cells around it) is no
  evidence for its own grid: turned or moved, it lays the grid so that it reads right; alone,
  it is read only on a straight border that agrees with it, which it turns the right way up.
- Placements are read best supported first, and the straight border last, until one reading
  has most cells clearly their own: no other placement can beat it.
- The table's colours are taken outside that rectangle (its outline widened by a tab's depth),
  not from the photo's border ring alone: a rectangle running off the photo's edge puts its
  own colours in the ring, and then its pieces read as table. Without a placed rectangle a
  first segmentation from the ring finds the rectangle's outline, and the table is sampled
  again outside it. A woven table (tartan) may have the pieces' colours: what is much smoother
  than its weave is piece too (vision.pieces smooth_regions), or its outline was lost.
- The grid is snapped to the rectangle's straight outer border when the two agree; with too
  few features the border alone places it, under each of the four turns. The border is four
  straight lines, each fitted to the most outline points in a line (vision.pieces
  read_rectangle): a tilted camera draws the rectangle as a quadrilateral, and glare or a
  stray piece joined to the outline is not straight. An outline a row or column short of the
  picture's proportions (a border row missing, or lost to the table's colours), which then
  allow no turn, is read grown by a cell on either side. The cells are laid on it in perspective
  (matching.projective): spread evenly, the middle cells of a rectangle tilted 30° were a
  fifth of a cell off.
- A grid the picture cannot lie on is not read: its corners far from right angles or its
  proportions not the picture's (a homography from a few pieces' features, extrapolated, can
  shear it), or a piece the features place outside it, or more than half a cell's area of
  pieces beyond it and a tab's reach (segmented with the table colours of the photo's border:
  flat pieces have no features, and the table sampled around a grid laid wrong takes them for
  table). A ring of swapped pieces can agree on a grid a cell off the rectangle, where they
  read right.
- Each cell is compared with every picture cell under every turn at small shifts (colour +
  grey pattern, vision.cells), under the light the pieces around it show (_relit: shade, a
  shadow's edge and glare change slowly across the rectangle; the cell's own samples never
  shape its own light, so a wrong piece cannot be lit into its cell's colours). Each piece
  also has a brightness of its own (its tilt to the light, its print): only a piece whose
  shading shows its own cell the right way up, by correlation, which brightness does not
  change, is compared with its cell at its own brightness (_distances). A cell that is
  mostly table is missing. A present cell is right when its own cell is clearly the best
  explanation, or, when its content cannot tell (flat colour looks the same turned or moved;
  or only its pattern, not its colour, picks its own cell: light draws patterns too), when
  no other cell whose content can be told from its own explains it better (but cells
  holding their own pieces: one piece cannot be two), its seams with its neighbours are
  closed (a turned or moved piece does not interlock; a hole in a seam that shows the
  picture's own print, of the table's colours, is no gap; a neighbour counted wrong vouches only
  when its own cell explains it best, as a wrong piece lying on top of its neighbours does
  not) and some cell of the reading is clearly right by its content (flat cells interlock on
  a grid laid wrong too). A flat cell is never clearly right by its colour alone: a flat
  piece of another picture may have it, so its seams decide as well; so do they for a flat
  cell far from its own under the light around it but its own under a ramp of brightness of
  its own (the edge of a shadow or of glare crossing it, at the rectangle's corner or border,
  which no piece beyond it shows: _ramp_doubts), or far from its own by its pattern alone
  (the light's shading on a flat print correlates with nothing: _flat_doubts). Otherwise it is
  wrong:
  counting a wrong piece right would undercharge the player (T6).
  Features vouch for a piece only where the mask sees one: a piece the mask calls table
  must show its content.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, partial

import cv2
import numpy as np

from vision import cells
from vision.jigsaw import (
    ASPECT_SLACK,
    GRID,
    LOOKS_LIKE,
    CellState,
    PieceCount,
)
from vision.matching import (
    MIN_INLIERS,
    Hypothesis,
    Scene,
    cell_size,
    hypotheses,
    photo_scene,
    projective,
)
from vision.pictures import Picture, check_image
from vision.pieces import (
    LIGHTNESS_SLACK,
    SEED,
    TABLE_COLOURS,
    MaskPhoto,
    Pieces,
    border_ring,
    find_pieces,
    lab_of,
    mask_photo,
    nearest_table,
    read_rectangle,
    segment,
    weighted_lab,
)


def count_pieces(photo: np.ndarray, picture: Picture) -> PieceCount:
    """T6: how many of the 16 pieces are in their right place the right way up, wrong, missing.

    A cell is right only when it matches its own cell, the way the rectangle lies, clearly
    better than anything it could be taken for; when its content cannot tell, only when its
    seams with its neighbours are closed. Otherwise it is wrong: a wrongly counted right piece
    undercharges the player (T6), a wrongly counted wrong one is easily corrected at the
    table."""
    check_image(photo)
    scene = photo_scene(photo, picture)
    bank = cells.bank(picture.image)
    placed = hypotheses(scene, picture)
    # where the pieces lie whatever grid is laid on them (the table sampled around a grid laid
    # a column off takes the pieces left outside it for table); a woven table (tartan) has the
    # pieces' colours, and its grain tells it from their print
    at_mask = mask_photo(scene.work)
    lying = _Lying(_piece_centres(placed, picture), find_pieces(at_mask), at_mask)
    distinct = _distinct(bank, bank.turned)  # the picture's alone: once per count
    readings: list[_Reading] = []
    for group in _placements(placed, picture):
        if _decisive(readings):
            break
        readings += _read_placement(scene, picture, bank, group, lying, distinct)
    if not _decisive(readings):  # reading the border under each turn took half a count's time
        readings += _read_by_border(scene, picture, bank, lying, distinct)
    if not readings:
        return PieceCount(0, GRID * GRID, 0, (("wrong",) * GRID,) * GRID, (), sure=False)
    # the rectangle lies where most pieces match their own cells clearly (a wrong placement
    # leaves nearly every cell unlike its own); among equals, where cells match best
    reading = max(readings, key=lambda r: (r.clear, -r.fitness))
    states = tuple(tuple(reading.states[row * GRID:(row + 1) * GRID]) for row in range(GRID))
    return PieceCount(reading.states.count("right"), reading.states.count("wrong"),
                      reading.states.count("missing"), states,
                      tuple((float(x * scene.factor), float(y * scene.factor))
                            for x, y in reading.corners))


def _decisive(readings: list[_Reading]) -> bool:
    """Does a reading have most cells clearly their own? No other placement can then beat it
    (a cell clearly its own in one placement is not in another), so no more are read."""
    return max((reading.clear for reading in readings), default=0) > GRID * GRID // 2


# ---------------------------------------------------------------- the table, around the rectangle

WIDEN = 0.5  # cells added on every side of the rectangle's outline before sampling the table
LEAST_TABLE = 0.04  # share of the photo that must be left outside to sample the table from
SAME_COLOUR = 14.0  # (weighted Lab) a pixel this close to a ring colour has that colour
MIDDLE = 0.12  # radius of the photo's middle (share of its short side): pieces lie there
PICTURE_COLOUR = 0.03  # a ring colour covering this share of the picture may be a piece's
LIKE_PICTURE = 30.0  # (weighted Lab) the picture's colours under the table's light and tint
REACHES_MIDDLE = 0.2  # a ring colour reaching this share of the middle is a piece's
LEAST_RING = 0.3  # a table is at least this share of the ring
LIKENESS_SLACK = 0.03
GROWS = 1.05


def find_pieces_outside(photo: MaskPhoto, corners: np.ndarray) -> Pieces:
    """The pieces segmented from table colours sampled outside the rectangle at `corners` (work
    pixels), widened by WIDEN cells; from the photo's border ring when too little is left."""
    lab, factor = photo.lab, photo.factor
    centre = corners.mean(0)
    widened = centre + (corners - centre) * (1 + 2 * WIDEN / GRID)
    inside = np.zeros(lab.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(widened / factor)), 1)
    outside = lab[inside == 0]
    table = outside if len(outside) >= LEAST_TABLE * inside.size else border_ring(lab)
    return segment(photo, table[:: max(1, len(table) // 4000)])


def find_pieces_on_ring(photo: MaskPhoto, picture: Picture) -> Pieces:
    """The pieces segmented from the table colours of the photo's border ring, without the
    ring's colours that are the picture's and continue from the ring into the middle of the
    photo: the rectangle running off the photo's edge (a flat picture's colour reaches from
    the edge to the middle; the table there shows only through missing pieces)."""
    lab = photo.lab
    ring = np.zeros(lab.shape[:2], bool)
    width = max(3, min(lab.shape[:2]) // 25)
    ring[:width], ring[-width:], ring[:, :width], ring[:, -width:] = True, True, True, True
    ring_lab = lab[ring]
    sample = ring_lab[:: max(1, len(ring_lab) // 3000)]
    cv2.setRNGSeed(SEED)
    _, _, centres = cv2.kmeans(sample, TABLE_COLOURS, None,
                               (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 15, 0.5), 1,
                               cv2.KMEANS_PP_CENTERS)
    # channel by channel: (h, w, k, 3) differences reduced over their last axis took 3 times as long
    gaps = np.sqrt(sum((lab[..., channel, None] - centres[:, channel]) ** 2
                       for channel in range(3)))
    nearest = np.where(gaps.min(-1) < SAME_COLOUR, gaps.argmin(-1), -1)
    height, width_ = lab.shape[:2]
    middle = np.zeros(lab.shape[:2], np.uint8)
    cv2.circle(middle, (width_ // 2, height // 2), int(MIDDLE * min(height, width_)), 1, -1)
    painted = lab_of(cv2.resize(picture.image, (128, 128), interpolation=cv2.INTER_AREA))
    suspect, keep = np.zeros(len(centres), bool), np.ones(len(centres), bool)
    for k, centre in enumerate(centres):
        suspect[k] = (np.linalg.norm(painted - centre, axis=-1) < LIKE_PICTURE).mean() \
            > PICTURE_COLOUR
        if suspect[k]:  # only then may it be dropped: its parts are found for it alone
            _, parts = cv2.connectedComponents((nearest == k).astype(np.uint8), connectivity=8)
            from_ring = np.setdiff1d(np.unique(parts[ring & (nearest == k)]), [0])
            keep[k] = not np.isin(parts[middle > 0], from_ring).mean() > REACHES_MIDDLE
    ring_nearest = nearest[ring]

    def segmented(table: np.ndarray) -> tuple[float, Pieces]:
        pixels = ring_lab[table]
        found = segment(photo, pixels[:: max(1, len(pixels) // 4000)])
        return _rectangle_likeness(found.mask), found

    def on_colours(kept: np.ndarray) -> tuple[float, Pieces] | None:
        table = np.isin(ring_nearest, np.flatnonzero(kept))
        return segmented(table) if table.mean() >= LEAST_RING else None  # too little table

    # a ring of more colours than TABLE_COLOURS, few of its pixels near any: all of it is table
    best = on_colours(keep) or on_colours(np.ones(len(centres), bool)) \
        or segmented(np.ones(len(ring_lab), bool))
    # A picture colour that reaches the ring beside the rectangle but not the middle: dropped
    # when the pieces then grow and stay as convex (the rest of the rectangle); a table colour
    # dropped adds bands and specks of table around the rectangle, far from convex.
    for k in np.flatnonzero(suspect & keep):
        trial = keep.copy()
        trial[k] = False
        tried = on_colours(trial)
        if tried is not None and tried[0] >= best[0] - LIKENESS_SLACK \
                and tried[1].area >= GROWS * best[1].area:
            best, keep = tried, trial
    return best[1]


def _rectangle_likeness(mask: np.ndarray) -> float:
    """How convex the pieces' outline is: the share of its convex hull it fills (the
    rectangle is convex up to tabs, blanks and missing pieces; a patch of the picture cut off
    by a table-coloured part of it is not, nor is a patch of table taken for pieces)."""
    if not mask.any():
        return 0.0
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.concatenate(contours))
    return float(mask.sum() / max(cv2.contourArea(hull), 1.0))


# ---------------------------------------------------------------- the grid

BORDER_AGREES = 0.45  # share of a cell side within which the border confirms the feature grid
LEAST_AGREEING = 2  # pieces placed alike: one piece alone may be turned or moved
PLACEMENTS = 3  # groups of pieces placed alike that are read
CORE = 0.3  # share of a cell's side at each edge that a neighbour's tab may cover
GROW_TOLERANCE = 0.04  # share of a cell side: a match this close to the grid's prediction joins


def _straight_border(found: Pieces, corners: np.ndarray) -> np.ndarray:
    """The rectangle's corners from its straight outer border when that agrees with the
    corners the features put it at (the border is sharp; features on few pieces drift); the
    features' corners otherwise. Both in work pixels."""
    outline = read_rectangle(found) if found.area else None
    if outline is None:
        return corners
    cell = np.linalg.norm(corners[1] - corners[0]) / GRID
    rolled = min((np.roll(outline, -turn, axis=0) for turn in range(4)),
                 key=lambda c: np.linalg.norm(c - corners, axis=1).mean())
    agrees = np.linalg.norm(rolled - corners, axis=1).max() < BORDER_AGREES * cell
    return rolled if agrees else corners


def _read_placement(scene: Scene, picture: Picture, bank: cells.Bank,
                    agreeing: list[Hypothesis], lying: _Lying, distinct: np.ndarray
                    ) -> list[_Reading]:
    """The cells read on the rectangle placed by pieces placed alike: the homography from their
    matches, and the straight border when that agrees (sharper, unless glare or a stray piece
    joins the outline: both are read); the table sampled around it. A group whose matches
    place fewer than LEAST_AGREEING pieces by their own cores is one piece (its features also
    make hypotheses for the cells around it): turned or moved, it would lay the grid so that
    it reads right, so it is no evidence for its own grid. A piece alone (no other placed
    like it) is read only on the straight border when that agrees with it: the border is
    evidence of its own, and a moved piece's grid is a cell off it, a turned one's turned
    about the piece; the piece then tells which way up the border lies."""
    grid = _grid_transform(scene, picture, agreeing, agreeing[0])
    frame = np.float64([[0, 0], [picture.size[0], 0], list(picture.size), [0, picture.size[1]]])
    by_features = cv2.perspectiveTransform(frame[None], grid)[0]
    found = find_pieces_outside(lying.photo, by_features)
    placed = _placed_cells(scene, picture, agreeing)
    snapped = _straight_border(found, by_features)
    grids = [by_features] * (len(agreeing) >= LEAST_AGREEING) \
        + [snapped] * (snapped is not by_features)
    readings = [_read_cells(scene.work, found, corners, bank, placed, lying, distinct)
                for corners in grids]
    if len(placed) >= LEAST_AGREEING:
        return readings
    return [replace(reading, clear=reading.clear - sum(reading.states[index] == "right"
                                                       for index in placed))
            for reading in readings]


def _placed_cells(scene: Scene, picture: Picture, agreeing: list[Hypothesis]) -> set[int]:
    """Cells whose piece its own transform places like the others, with enough matches in the
    cell's core. A piece placed like the others is right even where one homography for the
    whole rectangle is a few pixels off; only the core counts because the neighbours' tabs
    reach into a cell's edges, with their features (a missing or foreign piece's cell would
    be placed by them)."""
    size = np.array(picture.size, np.float64) / GRID
    points = scene.picture_points.astype(np.float64)
    placed = set()
    for piece in agreeing:
        row, col = piece.cell
        inside = (points - np.array([col, row]) * size) / size
        core = np.all((inside > CORE) & (inside < 1 - CORE), axis=1)
        predicted = cv2.perspectiveTransform(points[None], piece.transform)[0]
        explained = np.linalg.norm(predicted - scene.photo_points, axis=1) < 6.0
        if (core & explained).sum() >= MIN_INLIERS:
            placed.add(row * GRID + col)
    return placed


SAME_OUTLINE = 0.1


def _read_by_border(scene: Scene, picture: Picture, bank: cells.Bank,
                    lying: _Lying, distinct: np.ndarray) -> list[_Reading]:
    """The cells read on the rectangle's straight outer border under each plausible turn (found
    in a first segmentation, then again with the table sampled around it)."""
    on_ring = find_pieces_on_ring(lying.photo, picture)
    outline = read_rectangle(on_ring) if on_ring.area else None
    if outline is None:
        return []
    found = find_pieces_outside(lying.photo, outline)
    second = read_rectangle(found) if found.area else None
    # sampled outside the first outline, a patterned table (tartan) can lose the outline as
    # often as the ring's sample can: where the two differ, both are read
    read = [(found, outline)] if second is None or _same_outline(outline, second) \
        else [(found, second), (on_ring, outline)]
    readings = [(pieces, _read_cells(scene.work, pieces, corners, bank, set(), lying, distinct))
                for pieces, sides in read for corners in _border_grids(sides, bank)]
    if not readings:
        return []
    # the border alone places the grid a fifth of a cell off or more where a side is short
    # (missing border pieces) or its outline is lost to the table; the seams set it right
    # (the same placement moved by less than half a cell: the cells clearly nearer their own
    # on the whole, not more of them clear, tell which of the two lies right; seams picked out
    # of the pieces' print moved grids that read hardly better, and a wrong piece right)
    pieces, best = max(readings, key=lambda item: (item[1].clear, -item[1].fitness))
    corners = _seam_grid(scene.work, best.corners, best.states)
    seamed = None if corners is None \
        else _read_cells(scene.work, pieces, corners, bank, set(), lying, distinct)
    moved = seamed is not None and seamed.fitness < SEAM_BETTER * best.fitness
    return [seamed if moved and reading is best else reading for _, reading in readings]


SEAM_CELL = 48  # (pixels) a cell's side in the rectified frame seams are looked for in
SEAM_SEARCH = 0.5  # (cells) how far from the grid's line its seam or border may lie
# shares of a cell's side along a seam clear of its own tab (the middle) and of the tabs of
# the seams crossing it (a little way from the corners)
SEAM_STRAIGHT = ((0.08, 0.32), (0.68, 0.92))
SEAM_FIT = 0.1  # (cells) a seam this near the fitted grid's line agrees with it
SEAM_CLEAR = 2.0  # a seam's line is this many times as strong as the median across its reach
SEAM_LEAST = 12  # seams' stretches that must agree for the grid to be moved
SEAM_BLUR = 0.7  # (pixels) the rectified photo's blur before seams are looked for
SEAM_WIDTH = 2  # (pixels) a seam is this narrow at SEAM_CELL: a cut line, a gap, its shadow
SEAM_ROUNDS = 4  # the grid is rectified again on the moved one: a tilted line sweeps bands
SEAM_BETTER = 0.97  # the moved grid's fitness at most this share of the border's to be taken


def _seam_grid(work: np.ndarray, corners: np.ndarray, states: list[CellState]
               ) -> np.ndarray | None:
    """The grid (work pixels) moved onto the seams between present pieces and the cut lines
    along the border beside them: the photo rectified on `corners`, each line of the grid is sought
    within SEAM_SEARCH of where it lies, along the straight stretches of each present cell's
    sides, as the strongest thin line across them; a homography fitted to the stretches that agree
    moves the grid. Seams are cut lines, a thin gap or shadow, and straight apart from their
    tabs; a missing piece's cell has none (its sides are left out). None when too few agree."""
    cell, margin = SEAM_CELL, int(np.ceil(SEAM_SEARCH * SEAM_CELL)) + 2
    present = np.array([state != "missing" for state in states]).reshape(GRID, GRID)
    frame = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]) * GRID * cell + margin
    side, reach = GRID * cell + 2 * margin, int(SEAM_SEARCH * cell)
    # the straight stretches of every band's sides (rows along the lines, in the frame) and the
    # columns each line's seam is sought in
    bands = [band for band in range(GRID) for _ in SEAM_STRAIGHT]
    starts, stops = (np.array([int(margin + (band + shares[end]) * cell)
                               for band in range(GRID) for shares in SEAM_STRAIGHT])
                     for end in (0, 1))
    windows = margin + np.arange(GRID + 1)[:, None] * cell + np.arange(-reach, reach + 1)
    for _ in range(SEAM_ROUNDS):
        to_work = cv2.getPerspectiveTransform(frame, np.float32(corners))
        colour = cv2.warpPerspective(work, to_work, (side, side),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        grey = (colour[..., 0] + colour[..., 1] + colour[..., 2]) / np.float32(3)  # mean(2), faster
        grey = cv2.GaussianBlur(grey, (0, 0), SEAM_BLUR)
        across = [_thin_lines(grey), _thin_lines(grey.T)]  # vertical lines; horizontal ones
        expected, found = [], []
        for axis, edges in enumerate(across):
            beside = present if axis == 0 else present.T  # [band, cell along the band]
            # each stretch's profile across every line's reach at once: its rows summed once
            profiles = np.stack([edges[start:stop].sum(0) for start, stop
                                 in zip(starts, stops, strict=True)])[:, windows]
            typical = np.median(profiles, axis=2)
            for line in range(GRID + 1):
                for stretch, band in enumerate(bands):
                    if not (beside[band, max(line - 1, 0)] and beside[band, min(line, GRID - 1)]):
                        continue
                    profile = profiles[stretch, line]
                    if profile.max() <= SEAM_CLEAR * typical[stretch, line]:
                        continue  # no line stands out: a seam closed tight, or no seam
                    centre = margin + line * cell
                    at = centre - reach + _peak(profile)
                    middle = (starts[stretch] + stops[stretch]) / 2
                    expected.append((centre, middle) if axis == 0 else (middle, centre))
                    found.append((at, middle) if axis == 0 else (middle, at))
        if len(found) < SEAM_LEAST:
            return None
        fitted, agree = cv2.findHomography(np.float32(expected), np.float32(found), cv2.RANSAC,
                                           SEAM_FIT * cell)
        if fitted is None or agree.sum() < SEAM_LEAST:
            return None
        corners = cv2.perspectiveTransform(
            cv2.perspectiveTransform(frame[None].astype(np.float64), fitted), to_work)[0]
    return corners


def _thin_lines(grey: np.ndarray) -> np.ndarray:
    """How much each pixel is a thin line across x: darker (or lighter) than the pixels
    SEAM_WIDTH on both sides of it. A step in the picture's content is darker on one side
    only and scores nothing."""
    before = np.roll(grey, SEAM_WIDTH, axis=1) - grey
    after = np.roll(grey, -SEAM_WIDTH, axis=1) - grey
    return np.maximum(np.minimum(before, after), np.minimum(-before, -after)).clip(0)


def _peak(profile: np.ndarray) -> float:
    """Where a profile peaks, to a fraction of a sample (a parabola through the top three)."""
    top = int(np.argmax(profile))
    if 0 < top < len(profile) - 1:
        before, at, after = profile[top - 1:top + 2]
        bend = before - 2 * at + after
        if bend < 0:
            return top + 0.5 * (before - after) / bend
    return float(top)


def _border_grids(outline: np.ndarray, bank: cells.Bank) -> list[np.ndarray]:
    """The grids the straight border may carry: the outline under each turn the picture's
    proportions allow or, when they allow none, the outline grown by one row or column on
    either side where it is nearer a row or column short of them. A border row of missing
    pieces, or of pieces the colour of the table, leaves the outline a cell short. (Grown
    outlines that also pass for the picture, a tilt distorting their proportions, read no
    better and took a quarter of a count's time.)"""
    turns = [np.roll(outline, -turn, axis=0) for turn in range(4)]
    plausible = [corners for corners in turns if _plausible_turn(corners, bank)]
    if plausible:
        return plausible
    grown = []
    for corners in turns:
        # how many cells short the outline's height (> 0) or width (< 0) is, by its proportions
        short = np.log(_aspect(corners, bank)) / np.log(GRID / (GRID - 1))
        step = 1 / (GRID - 1)  # a cell, in shares of the short side
        for low, high in ((-step, 1), (0, 1 + step)) if abs(short) > 0.5 else ():
            unit = [(0, low), (1, low), (1, high), (0, high)] if short > 0 \
                else [(low, 0), (high, 0), (high, 1), (low, 1)]
            grown.append(projective(corners, unit))
    return [corners for corners in grown if _plausible_turn(corners, bank)]


def _same_outline(first: np.ndarray, second: np.ndarray) -> bool:
    """Do two outlines' corners lie within SAME_OUTLINE cells of each other?"""
    cell = np.linalg.norm(first[1] - first[0]) / GRID
    return bool(np.linalg.norm(first - second, axis=1).max() < SAME_OUTLINE * cell)


ALIKE_OFF = 0.5  # (cells) how far off two pieces' transforms may put one piece from the other
ALIKE_TURN = np.radians(10)  # how far apart their turns may be (a turned piece is 90° off)


def _placed_alike(a: Hypothesis, b: Hypothesis, picture: Picture) -> bool:
    """Do two pieces' transforms place the picture alike: the same way round, and the way from
    one piece to the other in the photo the way between their cells in the picture, turned and
    scaled as the two pieces are on average? A tilted camera turns and scales the picture
    differently across the rectangle: one piece's similarity, carried to a piece four cells
    away, missed it by nearly a cell at a 30° tilt (the mean of both ends by under half a
    cell; and features on a few pieces turn them several degrees more), while a moved piece
    is a cell off or more, a turned one 90° (matching.same_placement, for two pieces side by
    side, allows neither)."""
    size = cell_size(picture)
    centres = [(np.array(h.cell[::-1], np.float64) + 0.5) * size for h in (a, b)]
    seen = [cv2.perspectiveTransform(centre[None, None], h.transform)[0, 0]
            for centre, h in zip(centres, (a, b), strict=True)]
    mean = (a.transform[:2, :2] + b.transform[:2, :2]) / 2
    off = np.linalg.norm(seen[1] - seen[0] - mean @ (centres[1] - centres[0]))
    turn = abs((a.angle - b.angle + np.pi) % (2 * np.pi) - np.pi)
    return bool(off < ALIKE_OFF * (a.scale + b.scale) / 2 * size.min() and turn < ALIKE_TURN)


def _placements(left: list[Hypothesis], picture: Picture) -> list[list[Hypothesis]]:
    """Groups of pieces the features place alike, best supported first (each group's anchor
    first). Right pieces agree on one placement; a turned or moved piece has one of its own,
    though a few of them may happen to agree: the groups are read and the best reading wins.
    A piece placed like no other is a group of its own (_read_placement reads it only on a
    border that agrees with it)."""
    groups = []
    while left and len(groups) < PLACEMENTS:
        support = [sum(other.inliers for other in left if _placed_alike(h, other, picture))
                   for h in left]
        anchor = left[int(np.argmax(support))]
        group = [anchor] + [h for h in left if h is not anchor
                            and _placed_alike(anchor, h, picture)]
        groups.append(group)
        left = [h for h in left if h not in group]
    return groups


def _grid_transform(scene: Scene, picture: Picture, agreeing: list[Hypothesis],
                    anchor: Hypothesis) -> np.ndarray:
    """A homography for the whole rectangle from the matches each agreeing piece explains by
    its own transform, then grown: every match the homography predicts closely joins and it is
    fitted again (the camera tilt bends a large rectangle). The anchor's own transform when too
    few matches agree."""
    cell = float(np.linalg.norm(cv2.perspectiveTransform(
        np.float64([[[0, 0], [picture.size[0] / GRID, 0]]]), anchor.transform)[0, 1]
        - cv2.perspectiveTransform(np.float64([[[0, 0]]]), anchor.transform)[0, 0]))
    points = scene.picture_points.astype(np.float64)
    close = np.zeros(len(points), bool)
    for piece in agreeing:
        predicted = cv2.perspectiveTransform(points[None], piece.transform)[0]
        in_cell = np.all(np.floor(points / (np.array(picture.size) / GRID))
                         == (piece.cell[1], piece.cell[0]), axis=1)
        close |= in_cell & (np.linalg.norm(predicted - scene.photo_points, axis=1) < 6.0)
    if close.sum() < 12:
        return anchor.transform
    homography = anchor.transform
    for _ in range(3):
        fitted, _ = cv2.findHomography(points[close], scene.photo_points[close], cv2.RANSAC,
                                       max(3.0, GROW_TOLERANCE * cell))
        if fitted is None:
            break
        homography = fitted
        predicted = cv2.perspectiveTransform(points[None], homography)[0]
        grown = np.linalg.norm(predicted - scene.photo_points, axis=1) < GROW_TOLERANCE * cell
        if grown.sum() < 12 or np.array_equal(grown, close):
            break
        close = grown
    return homography


def _aspect(corners: np.ndarray, bank: cells.Bank) -> float:
    """The quadrilateral's width over its height (mean of opposite sides), over the picture's."""
    width = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3]))
    height = (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1]))
    return float(width / height / (bank.size[0] / bank.size[1]))


def _plausible_turn(corners: np.ndarray, bank: cells.Bank) -> bool:
    return 1 / ASPECT_SLACK < _aspect(corners, bank) < ASPECT_SLACK


# ---------------------------------------------------------------- the cells

# A cell is missing when less than PRESENT of its middle is piece. It is right when its own
# cell (under the rectangle's turn) is within LOOKS_LIKE and every other cell/turn is at least
# CLEARLY further and 1 / CLEAR_RATIO times as far; or, when the content cannot tell (its own
# within NOISE: a flat cell; or a flat cell matched by colour alone), when its seams are
# closed. Otherwise it is wrong (a cell only about as near its own as another, beyond the
# noise, may be either: T6 counts it wrong).
PRESENT = 0.5
CLEARLY = 0.03
CLEAR_RATIO = 0.75
NOISE = 0.06  # distances below this are blur, noise and compression: they tell cells apart no more
SHIFTS = np.float64([(0.0, 0.0)] + [(x, y) for x in (-0.05, 0, 0.05) for y in (-0.05, 0, 0.05)
                                     if x or y])  # the grid places a cell only roughly
CLEAR_OF_TABLE = 2  # mask pixels kept clear of the table in the comparison
SEEN = 0.3  # a cell whose middle is less than this share inside the photo is not read
HOLE = 0.02  # a seam with more than this share of table in its band is open
DOUBTED_SEAMS = 2  # closed seams a flat cell needs when it is nearer a look-alike cell not
# holding its own piece: that piece may lie here, and one side of its cut may interlock by chance
ANCHORS = 1  # cells clearly right by their content before seams may vouch for flat ones
UNLIKE = 2 * LOOKS_LIKE  # the most a present cell adds to a reading's fitness


@dataclass(frozen=True)
class _Reading:
    """The 16 cells read with the picture laid on the rectangle's `corners` (work pixels);
    `fitness` sums each present cell's distance to its own cell (lower is better)."""
    corners: np.ndarray
    states: list[CellState]
    fitness: float
    clear: int  # cells whose content matches their own cell clearly


@dataclass(frozen=True, eq=False)
class _Judgement:
    """The 16 cells judged so far, as each step reading some of them again leaves them: their
    `verdicts`, `mines` (each one's distance to its own cell), `distances` (each one's
    _distances), `distinct` (which picture cells and turns content can tell from each cell's
    own, as _judge takes it) and `structured` (which cells have the pattern STRUCTURED asks).
    A step reading cells again makes a new one (dataclasses.replace)."""
    verdicts: list[str]
    mines: list[float]
    distances: list[np.ndarray]
    distinct: np.ndarray
    structured: np.ndarray


def _cell_axes(corners: np.ndarray, row: float, col: float) -> tuple[np.ndarray, np.ndarray,
                                                                      np.ndarray]:
    """The cell's centre and its x and y sides (work pixels) on the rectangle at `corners`
    (a cell's place beyond the rectangle too)."""
    centre, right, left, bottom, top = projective(corners, np.float64(
        [(col + 0.5, row + 0.5), (col + 1, row + 0.5), (col, row + 0.5), (col + 0.5, row + 1),
         (col + 0.5, row)]) / GRID)
    return centre, right - left, bottom - top


SKEW = np.radians(25)  # the most a corner of the rectangle seen tilted is off a right angle
# (at most 16° on the unseen renderer's 30° tilts)
REACH = 0.25  # (cells) how far outside the grid a piece's centre may be placed by its features


def _piece_centres(placed: list[Hypothesis], picture: Picture) -> np.ndarray:
    """Where the features place each piece they find, its centre (work pixels, n × 2)."""
    size = np.array(picture.size, np.float64) / GRID
    if not placed:
        return np.zeros((0, 2))
    return np.concatenate([cv2.perspectiveTransform(
        ((np.array(h.cell[::-1]) + 0.5) * size)[None, None], h.transform)[0] for h in placed])


@dataclass(frozen=True, eq=False)
class _Lying:
    """Where the pieces lie, whatever grid is laid on them: the centres the features place
    pieces at (work pixels, n × 2), and the pieces segmented with the table's colours from the
    photo's border ring; and the photo at mask size (mask_photo), to segment it again."""
    centres: np.ndarray
    found: Pieces
    photo: MaskPhoto


TAB_REACH = 0.35  # (cells) how far a piece of the rectangle reaches beyond its outline: a tab
STRAY = 0.5  # (a cell's area) piece beyond that on a grid laid right: specks, a table's blobs


def _laid_on_pieces(corners: np.ndarray, bank: cells.Bank, lying: _Lying) -> bool:
    """Can the picture lie on `corners` (work pixels)? The quadrilateral must be the
    rectangle's shape seen by a camera (convex, its proportions, corners near right angles:
    a homography fitted to a few pieces' features can shear it wildly) and hold the pieces:
    every piece the features place, and all but STRAY of the segmented pieces. A ring of
    swapped pieces can lay a grid a cell off the rectangle, where they read right while other
    pieces lie outside it (placed by features, or seen by the mask when they are flat)."""
    sides = np.roll(corners, -1, axis=0) - corners
    following = np.roll(sides, -1, axis=0)
    sines = (sides[:, 0] * following[:, 1] - sides[:, 1] * following[:, 0]) / np.maximum(
        np.linalg.norm(sides, axis=1) * np.linalg.norm(following, axis=1), 1e-9)
    if not (np.all(sines > np.cos(SKEW)) or np.all(sines < -np.cos(SKEW))) \
            or not _plausible_turn(corners, bank) or _pieces_outside(lying.found, corners) > STRAY:
        return False
    if not len(lying.centres):
        return True
    back = cv2.getPerspectiveTransform(np.float32(corners),
                                       np.float32([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]]))
    cell_at = cv2.perspectiveTransform(np.float64(lying.centres)[None], back)[0]
    return bool(np.all((cell_at > -REACH) & (cell_at < GRID + REACH)))


def _pieces_outside(found: Pieces, corners: np.ndarray) -> float:
    """How many cells' area of `found`'s pieces lie beyond the grid at `corners` (work
    pixels) widened by TAB_REACH cells on every side."""
    if not found.area:
        return 0.0
    widened = projective(corners, (np.float64([[0, 0], [1, 0], [1, 1], [0, 1]])
                                   * (GRID + 2 * TAB_REACH) - TAB_REACH) / GRID)
    inside = np.zeros(found.mask.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(widened / found.factor)), 1)
    cell_area = cv2.contourArea(np.float32(corners / found.factor)) / GRID ** 2
    return float(found.mask[inside == 0].sum() / max(cell_area, 1.0))


def _read_cells(work: np.ndarray, found: Pieces, corners: np.ndarray, bank: cells.Bank,
                placed: set[int], lying: _Lying, distinct: np.ndarray) -> _Reading:
    """Read every cell with the picture laid on `corners` (work pixels). A cell is present
    where the piece mask covers its middle or features place its piece (`placed`), which is
    then right unless its content contradicts it (`distinct`: which picture cells and turns
    content can tell apart, as _judge takes it). On a grid the picture cannot lie on, every
    cell is wrong (the reading loses to any other)."""
    if not _laid_on_pieces(corners, bank, lying):
        return _Reading(corners, ["wrong"] * (GRID * GRID), np.inf, -1)
    refs = bank.turned
    # Beyond the photo's edge nothing is seen: sampling repeats the edge pixels there, so the
    # masks get a frame of zeros (the piece mask: not piece; `seen`: not seen).
    seen = np.pad(np.ones(np.subtract(found.bare.shape, 2), np.uint8), 1)
    bare = found.bare * seen
    # the piece mask's holes are a little small (blur, the cut's shadow): the comparison keeps
    # clear of their rims, where table colour would weigh as a large colour error
    compared = cv2.erode(bare, np.ones((3, 3), np.uint8), iterations=CLEAR_OF_TABLE)
    axes = [_cell_axes(corners, row, col) for row in range(GRID) for col in range(GRID)]
    centres, x_sides, y_sides = (np.array(part) for part in zip(*axes, strict=True))

    def middles(mask: np.ndarray) -> np.ndarray:
        """(16, S, S) 1 where `mask` covers each cell's middle (half its sides)."""
        return cells.paired_weights(mask, found.factor, centres, x_sides * 0.5, y_sides * 0.5)

    visible = [float(weight.mean()) for weight in middles(seen)]
    coverage = [float(weight.mean()) / max(shown, 1e-6)
                for weight, shown in zip(middles(bare), visible, strict=True)]
    present = [share >= PRESENT or index in placed for index, share in enumerate(coverage)]
    # features vouch for a piece the mask sees; one the mask calls table (its colours the
    # table's, or the table sampled from pieces around a misplaced grid) must show its content
    vouched = {index for index in placed if coverage[index] >= PRESENT}
    # every cell's body, its entry k the cell shifted by SHIFTS[k], all sampled at once
    shifted = np.stack([centre + SHIFTS @ np.stack([x_side, y_side])
                        for centre, x_side, y_side in axes])  # (16, shifts, 2)
    body = cells.paired_bodies(work, compared, found.factor, shifted, x_sides[:, None],
                               y_sides[:, None])
    each = (GRID * GRID, len(SHIFTS), cells.SAMPLES, cells.SAMPLES)
    colour, weight = body.colour.reshape(*each, 3), body.weight.reshape(each)
    # a piece whose colours are the table's is lost by the mask; its features in the cell's
    # core place it all the same (neighbours' tabs do not reach the core)
    lost = np.array([coverage[index] < PRESENT and index in placed
                     for index in range(GRID * GRID)])

    def seen_over(chosen: np.ndarray) -> np.ndarray:
        """(chosen cells, shifts, S, S) the weights of the chosen cells' bodies where they
        are seen, piece or not."""
        return cells.paired_weights(seen, found.factor, shifted[chosen], x_sides[chosen, None],
                                    y_sides[chosen, None]).reshape(-1, *each[1:])

    if lost.any():
        weight[lost] = seen_over(lost)
    sampled = [cells.Body(*cell) for cell in zip(colour, weight, strict=True)]
    lit = _relit(sampled, bank, present)
    structured = bank.texture >= STRUCTURED
    judgement = _judged(lit, refs, present, visible, vouched, distinct, structured)
    fitness = UNLIKE * (GRID * GRID - sum(present)) + sum(min(mine, UNLIKE)
                                                          for mine in judgement.mines)
    compared = [present[index] and visible[index] >= SEEN for index in range(GRID * GRID)]
    judgement = _coarse_doubts(lit, bank, judgement, compared, vouched)
    # the outer border is cut straight: a border cell whose piece shows a tab or blank there
    # holds a turned or moved piece, however like its cell its content looks (a pattern looks
    # alike turned), and counting it right would undercharge the player (T6). Asked of the
    # verdicts and again of the seams' states: each cell's border is read once for both
    shows_blank = cache(partial(_shows_blank, found, lying.photo.lab, corners, bank))
    verdicts = _straight_borders(judgement.verdicts, shows_blank, vouched)
    judgement = replace(judgement, verdicts=verdicts)
    # seams vouch for flat cells only on a rectangle whose content places some piece clearly:
    # on a grid laid wrong (turned, off the pieces) flat cells interlock with each other all
    # the same, and counting them right would undercharge the player
    anchors = verdicts.count("right")
    if anchors < ANCHORS:  # no seams decide: unsure is wrong
        return _Reading(corners, [verdict if verdict != "unsure" else "wrong"
                                  for verdict in verdicts], fitness, anchors)
    judgement = _unmasked_pieces(work, found, corners, lit, refs, judgement, visible, seen_over)
    judgement = _ramp_doubts(lit, bank, judgement, compared)
    before_colour = judgement.verdicts
    judgement = _flat_doubts(lit, bank, judgement, compared)
    # cells read on their core alone need as many closed seams as those read by colour alone
    judgement = _core_doubts(lit, bank, judgement, compared)
    by_colour_alone = {index for index, (before, after)
                       in enumerate(zip(before_colour, judgement.verdicts, strict=True))
                       if before != after}
    states = _seams_decide(found, lying.photo.lab, corners, bank, judgement, compared, vouched,
                           by_colour_alone)
    return _Reading(corners, _straight_borders(states, shows_blank, vouched), fitness, anchors)


TABLE_SEEN = 0.5  # a patch of table needs this share of its samples seen and clear of pieces


def _unmasked_pieces(work: np.ndarray, found: Pieces, corners: np.ndarray,
                     lit: list[cells.Body], refs: cells.Bank, judgement: _Judgement,
                     visible: list[float], seen_over: Callable[[np.ndarray], np.ndarray]
                     ) -> _Judgement:
    """The verdicts, distances to their own cells and _distances, each cell read missing
    read again over the whole cell (`seen_over`): right (with the distances so read, which
    the seams' judgement of a flat cell reads) when its content is clearly its own cell's,
    as _verdict judges it, and CLEARLY further from every patch of the table around the
    rectangle (_table_around) than from its own cell. A piece whose print has the table's
    colours (a dark shape in shadow on an olive table) leaves holes in the mask over most of
    its middle, and a pale piece in shade on a pale table is lost by it; an empty cell shows
    the table itself, which its own cell explains no better than the table does (unseen
    tuning 3000-9000: the 184 empty cells read missing were all far from their own cells,
    none CLEARLY nearer them than the table; the 11 right pieces read again were 0.04-0.24
    nearer)."""
    placed = {index for index, verdict in enumerate(judgement.verdicts) if verdict == "right"}
    table: list[np.ndarray] | None = None
    verdicts, mines, distances = (list(judgement.verdicts), list(judgement.mines),
                                  list(judgement.distances))
    for index in [index for index, verdict in enumerate(verdicts) if verdict == "missing"]:
        if visible[index] < SEEN:
            continue
        body = cells.Body(lit[index].colour, seen_over(np.array([index]))[0])
        score = cells.scores(body, refs)
        every = _distances(score, index)
        again, mine = _verdict(index, score, every, set(), judgement.distinct,
                               judgement.structured, placed)
        if again != "right":
            continue
        table = _table_around(work, found, corners) if table is None else table
        unshifted = cells.Body(body.colour[:1], body.weight[:1])
        # no table seen around the rectangle (it fills the photo): nothing tells it from one
        if table and all(cells.distance_to(unshifted, patch) > mine + CLEARLY
                         for patch in table):
            verdicts[index], mines[index], distances[index] = "right", mine, every
    return replace(judgement, verdicts=verdicts, mines=mines, distances=distances)


def _table_around(work: np.ndarray, found: Pieces, corners: np.ndarray) -> list[np.ndarray]:
    """Patches of table a cell's size (S × S × 3, photo colours) beyond each border cell's
    outer sides, a tab's reach (TAB_REACH) from the outline; their samples the mask calls
    piece take the patch's mean colour."""
    beyond = [(row + d_row * (1 + TAB_REACH), col + d_col * (1 + TAB_REACH))
              for row in range(GRID) for col in range(GRID)
              for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1))
              if not 0 <= row + d_row < GRID or not 0 <= col + d_col < GRID]
    axes = [_cell_axes(corners, row, col) for row, col in beyond]
    centres, x_sides, y_sides = (np.array(part) for part in zip(*axes, strict=True))
    clear = np.pad(np.ones(np.subtract(found.mask.shape, 2), np.uint8), 1) * (1 - found.mask)
    body = cells.paired_bodies(work, clear, found.factor, centres, x_sides, y_sides)
    patches = []
    for colour, weight in zip(body.colour, body.weight, strict=True):
        if weight.mean() >= TABLE_SEEN:
            mean = (colour * weight[..., None]).sum((0, 1)) / weight.sum()
            patches.append(np.where(weight[..., None] > 0, colour, mean))
    return patches


LIGHT_REACH = 0.5  # (cells) how far the light seen on the pieces around a cell reaches into it
LIGHT_PRIOR = 0.001  # weight (in cells' worth of samples) of the photo's overall cast in each field
LIGHT_FLAT = 20.0  # how strongly the light's plane is flattened where few samples reach
LIT_SAMPLE = np.log(1.5)  # a sample this far from its light field is content, not light
LIT_CELL = np.log(1.2)  # a cell this far from its field (median) does not shape the others'


def _relit(bodies: list[cells.Body], bank: cells.Bank, present: list[bool]) -> list[cells.Body]:
    """Each cell's body under the light the pieces AROUND it show: the ratio of the picture's
    colours to the photo's, where the other present cells match their own cells, smoothed over
    LIGHT_REACH cells. Shade, a cast shadow's edge and glare change slowly across the
    rectangle, so the light at a cell is what its neighbours show; the cell's own samples never
    shape its own light, so a wrong piece cannot be lit into its cell's colours."""
    side = cells.SAMPLES
    photo = _mosaic_of(np.stack([body.colour[0] for body in bodies]).astype(np.float32))
    picture = _mosaic_of(bank.cells[:GRID * GRID].astype(np.float32))
    cell_weight = np.stack([body.weight[0] * shown
                            for body, shown in zip(bodies, present, strict=True)]
                           ).astype(np.float32)
    weight = _mosaic_of(cell_weight)
    ratio = np.log((picture + 4) / (photo + 4))
    cell_ratio = _cells_of(ratio)
    cast = np.median(ratio[weight > 0], axis=0) if (weight > 0).any() else np.zeros(3)
    sigma = LIGHT_REACH * side
    trusted = weight
    for _ in range(3):
        fields = _light_fields(ratio, trusted, cast, sigma)
        off = np.abs(cell_ratio - fields).mean(-1)
        typical = np.array([np.median(o[w > 0]) if (w > 0).any() else np.inf
                            for o, w in zip(off, cell_weight, strict=True)])
        trusted = _mosaic_of(cell_weight * (off < LIT_SAMPLE)
                             * (typical < LIT_CELL)[:, None, None])
    gains = np.exp(fields)  # (16, S, S, 3)
    return [cells.Body(body.colour * gain[None], body.weight)
            for body, gain in zip(bodies, gains, strict=True)]


def _mosaic_of(per_cell: np.ndarray) -> np.ndarray:
    """The cells (16, S, S, ...) laid out row by row as one (4·S, 4·S, ...) image."""
    side, rest = per_cell.shape[1], per_cell.shape[3:]
    return per_cell.reshape(GRID, GRID, side, side, *rest).swapaxes(1, 2).reshape(
        GRID * side, GRID * side, *rest)


def _cells_of(mosaic: np.ndarray) -> np.ndarray:
    """The cells (16, S, S, ...) of a (4·S, 4·S, ...) image, row by row: _mosaic_of undone."""
    side, rest = mosaic.shape[0] // GRID, mosaic.shape[2:]
    return mosaic.reshape(GRID, side, GRID, side, *rest).swapaxes(1, 2).reshape(
        GRID * GRID, side, side, *rest)


def _light_fields(ratio: np.ndarray, weight: np.ndarray, cast: np.ndarray,
                  sigma: float) -> np.ndarray:
    """Per cell (16, S, S, 3): the log ratio at each of its samples from a plane fitted to the
    trusted samples of every other cell around it (weighted by a Gaussian of `sigma` samples):
    light falling off across the rectangle goes on across a cell at the edge, which the mean
    of its neighbours would not follow. The plane is drawn towards the overall cast, and
    flattened, where few samples reach."""
    side = cells.SAMPLES
    prior = LIGHT_PRIOR * side * side / (2 * np.pi * sigma ** 2)
    y, x = (np.mgrid[0:GRID * side, 0:GRID * side].astype(np.float32) + 0.5) / side
    # the weighted normal equations of ratio = a + b·x + c·y around each sample: every sum is
    # a blur, and a blur is linear, so the sums over the other cells are the sums over all
    # cells less the cell's own (which is zero outside the cell: blurred on the cell alone)
    products = np.dstack([weight * p for p in (np.ones_like(x), x, y, x * x, x * y, y * y)]
                         + [weight[..., None] * ratio * t[..., None]
                            for t in (np.ones_like(x), x, y)])  # (…, 6 + 9)
    own = np.stack([_blurred(cell, sigma) for cell in _cells_of(products)])
    sums = _cells_of(_blurred(products, sigma)) - own  # (16, S, S, 6 + 9)
    pairs = np.array([[0, 1, 2], [1, 3, 4], [2, 4, 5]])
    moments = sums[..., pairs]  # (16, S, S, 3, 3)
    rhs = sums[..., 6:].reshape(GRID * GRID, side, side, 3, 3)  # (…, term, channel)
    here = _cells_of(np.stack([np.ones_like(x), x, y], -1))  # (16, S, S, 3)
    moments += prior * here[..., :, None] * here[..., None, :] \
        + LIGHT_FLAT * prior * np.diag([0.0, 1.0, 1.0])
    rhs += prior * here[..., :, None] * cast
    plane = np.linalg.solve(moments, rhs)
    return (here[..., :, None] * plane).sum(-2)


def _blurred(image: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of every channel, zero beyond the image: in one call, the same to the
    bit as four channels at a time and twice as fast."""
    return cv2.GaussianBlur(np.ascontiguousarray(image), (0, 0), sigma,
                            borderType=cv2.BORDER_CONSTANT).reshape(image.shape)


DISTINCT = 0.03  # picture cells (or turns) further apart than this can be told apart


def _distinct(bank: cells.Bank, refs: cells.Bank, apart: float = DISTINCT) -> np.ndarray:
    """(cells, cells × turns) whether each picture cell can be told from each cell under each
    turn by content (further apart than `apart`): a flat cell looks like its neighbours and
    its own turns."""
    whole = np.ones((1, cells.SAMPLES, cells.SAMPLES), np.float32)
    unlit = np.ones(3)
    return np.stack([cells.distance(cells.scores(cells.Body(cell[None], whole), refs), unlit,
                                    np.zeros(1, int)[:, None], np.arange(len(refs.cells))[None])[0]
                     for cell in bank.cells]) > apart


STRUCTURED = 8.0  # (colour standard deviation) a picture cell with this much pattern is told
# by its structure too (cells.Scores.structure)
STRUCTURE_MARGIN = 0.2  # a correlation this much below the own cell's is another pattern
STRUCTURE_LIKE = 0.7  # the least correlation with its own cell for the structure to tell


def _judged(lit: list[cells.Body], refs: cells.Bank, present: list[bool],
            visible: list[float], vouched: set[int], distinct: np.ndarray,
            structured: np.ndarray) -> _Judgement:
    """_judge's verdicts and distances for the lit cells, each cell counted wrong or unsure
    judged again without what a neighbour not counted right may cover: a wrong neighbour's tab
    lies in a right piece's blank and shows foreign content there (a right neighbour's tab
    continues the picture, so it stays). Only a clear match counts then: a wrong piece seen
    through less of itself is unsure more often, and its seams cannot vouch for it. And every
    cell's _distances, made once: the seams' judgement reads them too."""
    scores = [cells.scores(body, refs) for body in lit]
    distances = [_distances(score, index) for index, score in enumerate(scores)]
    verdicts, mines = _judge(scores, distances, present, visible, vouched, distinct, structured)
    for index, verdict in enumerate(verdicts):
        if verdict in ("right", "missing"):
            continue
        keep = _clear_of_foreign_tabs(index, verdicts)
        if not keep.all():
            body = lit[index]
            cleared = cells.scores(cells.Body(body.colour, body.weight * keep[None]), refs)
            if _verdict(index, cleared, _distances(cleared, index), vouched, distinct,
                        structured)[0] == "right":
                verdicts[index] = "right"
    # every piece exists once: a cell whose own piece is counted right explains no other cell,
    # so the cells it beat are judged again without it (and then without theirs); a right
    # flat piece the light left a little nearer such a cell is no longer counted wrong for it
    while True:
        placed = {index for index, verdict in enumerate(verdicts) if verdict == "right"}
        again = {index: _verdict(index, scores[index], distances[index], vouched, distinct,
                                 structured, placed)[0]
                 for index, verdict in enumerate(verdicts) if verdict in ("wrong", "unsure")}
        if all(verdicts[index] == verdict for index, verdict in again.items()):
            return _Judgement(verdicts, mines, distances, distinct, structured)
        verdicts = [again.get(index, verdict) for index, verdict in enumerate(verdicts)]


def _judge(scores: list[cells.Scores], distances: list[np.ndarray], present: list[bool],
           visible: list[float], vouched: set[int], distinct: np.ndarray, structured: np.ndarray
           ) -> tuple[list[str], list[float]]:
    """Each cell's verdict ("missing", "right" (clearly), "wrong", or "unsure": content that
    cannot tell) and its distance to its own cell (0 when not compared), as _verdict gives
    them for the cells present and seen (scored as `scores`, at `distances`)."""
    verdicts, mines = [], []
    for index, (score, every) in enumerate(zip(scores, distances, strict=True)):
        if visible[index] < SEEN or not present[index]:
            # out of the photo, it cannot be counted right
            verdicts.append("wrong" if visible[index] < SEEN else "missing")
            mines.append(0.0)
            continue
        verdict, mine = _verdict(index, score, every, vouched, distinct, structured)
        verdicts.append(verdict)
        mines.append(mine)
    return verdicts, mines


def _verdict(index: int, score: cells.Scores, every: np.ndarray, vouched: set[int],
             distinct: np.ndarray, structured: np.ndarray,
             placed: frozenset[int] | set[int] = frozenset()) -> tuple[str, float]:
    """A present cell's verdict ("right" (clearly), "wrong", or "unsure") and its distance to
    its own cell (`every`: its _distances); a cell in `vouched` is right when it looks like its
    own cell at all. Only a cell or turn whose content can be told from the cell's own
    (`distinct`) explains it better: flat cells that look alike are matched a little better by
    one or the other by noise and light alone.
    A cell whose picture cell has a pattern (`structured`) is also compared by its structure,
    which light does not change: every other cell and turn must be clearly further by colour
    or, when the cell's pattern is its own cell's (STRUCTURE_LIKE), clearly less correlated;
    and none may be correlated better (shade, glare and a tint left over by the light model
    blur colour distances; a wrong piece matching the colours by chance does not match the
    pattern). A cell whose pattern alone picks its own cell clearly is its own up to UNLIKE:
    glare or a shadow's edge can take its colours that far. But a cell its colour does not
    set clearly apart from every other (beyond NOISE, and not vouched for by features) is only
    "unsure": a shadow's edge or glare draws a pattern as well as taking colours, and a
    swapped piece's drawn pattern may be its cell's; its seams decide, as a flat piece's do.
    The cells in `placed` (their own pieces lie in them), under every turn, explain no other
    cell better (_holding_their_own)."""
    mine = float(every[index])
    elsewhere = _holding_their_own(placed - {index}, len(every))
    told_apart = float(every[distinct[index] & ~elsewhere].min(initial=np.inf))
    by_colour = _beaten_by_colour(index, every)
    beaten, by_structure = _beaten_by_pattern(index, score, by_colour) if structured[index] \
        else (by_colour, np.zeros_like(by_colour))
    by_structure[index] = True
    told = mine <= LOOKS_LIKE and (index in vouched or beaten.all()) \
        or mine <= UNLIKE and by_structure.all()
    if told and (index in vouched or by_colour.all() or mine <= NOISE):
        return "right", mine
    if told:
        # its pattern, not its colour, sets it clearly apart from some cell: light draws
        # patterns too (a shadow's edge across a swapped piece), so its seams decide
        return "unsure", mine
    if mine <= NOISE and ((beaten | elsewhere).all() or (by_structure | elsewhere).all()):
        # within the noise of its own cell, and clearly its own but for cells whose pieces lie
        # in place (every other cell gone, any piece would be "clearly" its own: only so near)
        return "right", mine
    if mine > NOISE or told_apart < mine:
        # unlike its own cell, or not clearly its own; or a cell or turn content can tell
        # from its own explains even flat content better, by however little (a turned flat
        # piece's shading runs the wrong way; its seams stay closed when it lies on top of
        # its neighbours, so they cannot vouch for it)
        return "wrong", mine
    return "unsure", mine  # flat content looks the same turned or moved


FINE_DETAIL = 0.5  # a cell whose contrast the coarse scale keeps less than this share of is
# fine detail (dots, stripes, lines of text); an edge or a shape keeps most of it, and its place
# in the cell tells it from its look-alikes at the fine scale


def _coarse_doubts(lit: list[cells.Body], bank: cells.Bank, judgement: _Judgement,
                   compared: list[bool], vouched: set[int]) -> _Judgement:
    """The cells read again at the coarse scale (cells.coarse) where their picture cell has a
    pattern of fine detail (FINE_DETAIL) and they were counted wrong: a repeating pattern
    (dots, stripes, lines of text) looks the same in many cells but for its phase, which a
    grid a few pixels off or a blur takes away, so a right piece reads as far from its own
    cell as from its look-alikes. Where the coarse scale, the pattern averaged out, finds the
    cell flat content that only look-alikes explain as well (_verdict, as for a flat cell),
    its content cannot tell and it is unsure: its seams decide (_seams_decide), read with the
    coarse distances and look-alikes, as a flat cell's are. The coarse scale never counts a
    cell right by itself: a wrong piece of the same pattern looks like it there too (T6)."""
    fine = bank.coarse.texture < FINE_DETAIL * bank.texture
    doubted = [index for index, verdict in enumerate(judgement.verdicts) if verdict == "wrong"
               and judgement.structured[index] and fine[index] and compared[index]]
    if not doubted:
        return judgement
    refs = bank.turned.coarse
    # a pattern's phase left over at the coarse scale sets cells as far apart as noise does
    coarse_distinct = _distinct(bank.coarse, refs, NOISE)
    flat = np.zeros_like(judgement.structured)
    placed = {index for index, verdict in enumerate(judgement.verdicts) if verdict == "right"}
    verdicts, mines, distances = (list(judgement.verdicts), list(judgement.mines),
                                  list(judgement.distances))
    distinct, structured = judgement.distinct.copy(), judgement.structured.copy()
    for index in doubted:
        body = lit[index]
        # its fine pattern must be its own cell's, about as like it as any cell's: a piece
        # of another pattern in the same colours (stripes for dots) is alike only at the
        # coarse scale, and a swapped piece of a like texture (lines of text) correlates
        # clearly better with its own cell (a pattern's phase moves correlation a little)
        correlated = cells.scores(body, bank.turned).structure().max(0)
        if correlated[index] < max(STRUCTURE_LIKE, correlated.max() - STRUCTURE_MARGIN / 2):
            continue
        score = cells.scores(cells.Body(cells.coarse(body.colour, body.weight), body.weight),
                             refs)
        every = _distances(score, index)
        if _verdict(index, score, every, vouched, coarse_distinct, flat, placed)[0] == "wrong":
            continue
        verdicts[index], mines[index], distances[index] = "unsure", float(every[index]), every
        distinct[index], structured[index] = coarse_distinct[index], False
    return _Judgement(verdicts, mines, distances, distinct, structured)


RAMP_GAIN = 1.6  # the most a flat cell's own ramp of light (a shadow's or a glare patch's edge
# across it) brightens or darkens any of its samples beyond the light its neighbours show


def _ramp_doubts(lit: list[cells.Body], bank: cells.Bank, judgement: _Judgement,
                 compared: list[bool]) -> _Judgement:
    """Flat cells on the rectangle's border (_border_sides: no piece beyond them shows the light
    there) counted wrong, beyond the noise of their own cell, read again each under its own ramp
    of brightness (cells.under_own_ramp, within RAMP_GAIN): the edge of a shadow or of a glare
    patch crossing a piece at the rectangle's corner or border is light its neighbours do not
    show, and a right flat piece then reads as far from its own cell as a wrong one. Inside the
    rectangle the pieces all round a cell show its light (a turned flat piece there, its seams
    closed by chance, was lit into its cell's colours: tuning 109016 cell 9). Where its own
    cell, so lit, explains it within NOISE and no cell that a ramp cannot take into its own
    explains it better (_verdict, as for a flat cell), its content cannot tell and it is unsure:
    its seams decide (_seams_decide), with the look-alikes a ramp makes. The ramp never counts a
    cell right by itself: a flat wrong piece of a like colour is lit into its cell's just as
    well (T6)."""
    refs = bank.turned

    def own_ramp_explains(index: int) -> bool:  # the own cell alone first: most are far from it
        own = cells.Bank(bank.cells[index][None], bank.size)
        return float(cells.under_own_ramp(lit[index], own, RAMP_GAIN).min()) <= NOISE

    doubted = [index for index, verdict in enumerate(judgement.verdicts) if verdict == "wrong"
               and not judgement.structured[index] and compared[index]
               and judgement.mines[index] > NOISE and _border_sides(index)
               and own_ramp_explains(index)]
    whole = np.ones((1, cells.SAMPLES, cells.SAMPLES), np.float32)

    def under_ramps(index: int) -> tuple[np.ndarray, np.ndarray]:
        # and which cells a ramp cannot take its picture cell into
        return (cells.under_own_ramp(lit[index], refs, RAMP_GAIN).min(0),
                cells.under_own_ramp(cells.Body(bank.cells[index][None], whole), refs,
                                     RAMP_GAIN)[0] > DISTINCT)

    return _read_again(doubted, under_ramps, judgement)


def _flat_doubts(lit: list[cells.Body], bank: cells.Bank, judgement: _Judgement,
                 compared: list[bool]) -> _Judgement:
    """Flat cells (their picture cell without the pattern STRUCTURED asks) counted wrong,
    beyond the noise of their own cell, read again by colour alone (cells.distance without
    its pattern term): on a flat print, whatever grey pattern the photo shows was drawn by
    the light and the cut, not the print (the shading of a shadow's or glare's soft edge or
    the lamp's fall-off that the light around the cell does not quite follow; a neighbour's
    tab outlined by its cut line), and correlates with nothing, so the pattern term adds up
    to a quarter of its contrast to a right piece's distance (tuning 3000 and 6000: the right
    flat cells within NOISE of their own 59% with it, 83% without). The colour distance still
    counts any such pattern once, sample by sample. Where its own cell, so read, explains it
    within NOISE and no cell content can tell from its own explains it better (_verdict, as
    for a flat cell), it is unsure: DOUBTED_SEAMS of its seams decide (_seams_decide). A cell
    whose whole body its own cell does not so explain is read on its core (_core_of): the band
    along its sides shows cut lines, gaps and wrong neighbours, not the print. Colour never
    counts a cell right by itself: a flat wrong piece of a like colour reads as near (T6)."""
    def read_on(body: cells.Body, index: int) -> cells.Body | None:
        return body if _own_cell_explains(body, bank, index, pattern_weight=0.0) else None

    def explained(index: int) -> cells.Body | None:
        """The cell's body, else its core (the band along its sides left out: _BODY_CORE),
        that its own cell explains by colour within NOISE; None when neither."""
        return read_on(lit[index], index) or read_on(_core_of(lit[index]), index)

    read = {index: explained(index) for index, verdict in enumerate(judgement.verdicts)
            if verdict == "wrong" and not judgement.structured[index] and compared[index]
            and judgement.mines[index] > NOISE}
    doubted = [index for index, body in read.items() if body is not None]

    def by_colour(index: int) -> tuple[np.ndarray, np.ndarray]:
        return _distances(cells.scores(read[index], bank.turned), pattern_weight=0.0), \
            judgement.distinct[index]

    return _read_again(doubted, by_colour, judgement)


def _own_cell_explains(body: cells.Body, bank: cells.Bank, index: int,
                       pattern_weight: float = cells.PATTERN_WEIGHT) -> bool:
    """Whether cell `index`'s own picture cell alone explains `body` within NOISE (its pattern
    term weighted `pattern_weight`): asked before a cell is read again against every cell and
    turn, since most cells asked are far from their own."""
    own = cells.scores(body, cells.Bank(bank.cells[index][None], bank.size))
    return float(_distances(own, pattern_weight=pattern_weight)[0]) <= NOISE


EDGE_BAND = 0.2  # (share of a side) the band along a cell's sides where cut lines, gaps and
# their shadows, blanks showing the table and a wrong neighbour lying on top show
_BODY_CORE = np.outer(*(np.abs(cells.SAMPLE_CENTRES) < 0.5 - EDGE_BAND,) * 2).astype(np.float32)


def _core_of(body: cells.Body) -> cells.Body:
    """The body without the band along its cell's sides (_BODY_CORE)."""
    return cells.Body(body.colour, body.weight * _BODY_CORE[None])


def _core_doubts(lit: list[cells.Body], bank: cells.Bank, judgement: _Judgement,
                 compared: list[bool]) -> _Judgement:
    """Cells with a pattern counted wrong, beyond the noise of their own cell, read again on
    their core (_BODY_CORE): the band along a piece's sides shows its cut line, the gaps and
    their shadows, blanks showing the table and neighbours lying on top, none of it the
    print. Where its own cell explains the core within NOISE and no cell content can tell
    from its own explains it better (_verdict, as for a flat cell), it is unsure: DOUBTED_SEAMS
    of its seams decide. The core never counts a cell right by itself: less of a piece is
    seen, and a wrong piece is nearer there too (T6)."""
    def on_core(index: int) -> tuple[np.ndarray, np.ndarray]:
        return (_distances(cells.scores(_core_of(lit[index]), bank.turned), index),
                judgement.distinct[index])

    doubted = [index for index, verdict in enumerate(judgement.verdicts) if verdict == "wrong"
               and judgement.structured[index] and compared[index]
               and judgement.mines[index] > NOISE
               and _own_cell_explains(_core_of(lit[index]), bank, index)]
    return _read_again(doubted, on_core, judgement)


def _read_again(doubted: list[int], reread: Callable[[int], tuple[np.ndarray, np.ndarray]],
                judgement: _Judgement) -> _Judgement:
    """The `doubted` cells, each read again (`reread`: its distance to every picture cell
    and turn, and which of them content can tell from its own cell so read), unsure where
    its own cell then explains it as a flat cell's would (_verdict, its scores not looked
    at): its seams decide, with those distances and look-alikes. Never right: the cells
    whose own pieces are counted right explain no other (_holding_their_own)."""
    if not doubted:
        return judgement
    flat = np.zeros(len(judgement.distinct), bool)
    placed = {index for index, verdict in enumerate(judgement.verdicts) if verdict == "right"}
    verdicts, mines, distances, distinct = (list(judgement.verdicts), list(judgement.mines),
                                            list(judgement.distances), judgement.distinct.copy())
    for index in doubted:
        every, told_apart = reread(index)
        # _verdict reads the cell's own row of `distinct` alone
        doubted_distinct = distinct.copy()
        doubted_distinct[index] = told_apart
        if _verdict(index, None, every, set(), doubted_distinct, flat, placed)[0] == "wrong":
            continue
        verdicts[index], mines[index], distances[index] = "unsure", float(every[index]), every
        distinct[index] = told_apart
    return replace(judgement, verdicts=verdicts, mines=mines, distances=distances,
                   distinct=distinct)


def _beaten_by_colour(index: int, every: np.ndarray) -> np.ndarray:
    """(cells × turns) True where the cell's own distance (`every`: its _distances) is clearly
    nearer than that cell and turn's: by CLEARLY, and CLEAR_RATIO times as near. True at its
    own."""
    mine = every[index]
    by_colour = (mine + CLEARLY < every) & (mine < CLEAR_RATIO * every)
    by_colour[index] = True
    return by_colour


def _beaten_by_pattern(index: int, score: cells.Scores, by_colour: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
    """For a cell whose picture cell has a pattern, the cells and turns its own cell beats
    (cells × turns): clearly further by colour (`by_colour`) or clearly less correlated in
    structure (STRUCTURE_MARGIN, when its pattern is its own cell's: STRUCTURE_LIKE), and
    none correlated better; and those it beats by structure alone. Light does not change
    structure; a wrong piece matching the colours by chance does not match the pattern."""
    correlated = score.structure().max(0)
    by_structure = correlated[index] - correlated >= STRUCTURE_MARGIN \
        if correlated[index] >= STRUCTURE_LIKE else np.zeros_like(by_colour)
    return (by_colour | by_structure) & (correlated <= correlated[index]), by_structure


def _upright_in_its_cell(index: int, score: cells.Scores) -> bool:
    """Does the cell's shading show its own piece the right way up? Its pattern correlates
    with its own cell's (STRUCTURE_LIKE) clearly better (STRUCTURE_MARGIN) than with its own
    cell turned by any quarter turn: a turned piece's shading runs another way. Correlation
    does not change with brightness; a flat cell (no pattern above STRUCTURE_FLOOR) correlates
    with nothing, so its turn cannot be told."""
    correlated = score.structure().max(0)[index::GRID * GRID]  # its own cell, turn by turn
    return bool(correlated[0] >= STRUCTURE_LIKE
                and (correlated[0] - correlated[1:] >= STRUCTURE_MARGIN).all())


def _holding_their_own(holding: set[int] | frozenset[int], candidates: int) -> np.ndarray:
    """(candidates: picture cells × turns) True at the cells, under every turn, in `holding`:
    their own pieces lie in them, and one piece cannot be two, so they explain no other cell."""
    held = np.zeros(GRID * GRID, bool)
    held[list(holding)] = True
    return held[np.arange(candidates) % (GRID * GRID)]


PIECE_GAIN = 1.1  # each piece lies at its own slight tilt to the light, and its print and
# gloss vary: its brightness may be this much off the light its neighbours show


def _distances(score: cells.Scores, index: int | None = None,
               pattern_weight: float = cells.PATTERN_WEIGHT) -> np.ndarray:
    """A lit cell's distance (its pattern term weighted `pattern_weight`: cells.distance) to
    every picture cell under every turn, at its best shift. Its
    own cell (`index`) is compared at the piece's own brightness (within PIECE_GAIN) when its
    shading shows its own piece the right way up (_upright_in_its_cell), its own cell is the
    nearest with every cell and turn allowed a brightness of its own alike (a piece of a cell
    only brightness tells apart is nearer that cell), and that brightness takes it within
    NOISE of its cell (a glare veil's lost contrast is no brightness). Otherwise a flat piece
    turned, or another picture's, would be brightened into its cell's colours and counted
    right, undercharging the player (T6)."""
    unlit = np.ones(3)  # the bodies come lit (_relit)
    shifts = np.arange(len(SHIFTS))[:, None]
    candidates = np.arange(score.pattern.shape[1])[None]
    every = cells.distance(score, unlit, shifts, candidates, pattern_weight).min(0)
    if index is not None and _upright_in_its_cell(index, score):
        gain = cells.brightness(score, shifts, candidates, PIECE_GAIN)
        gained = cells.distance(score, gain, shifts, candidates, pattern_weight).min(0)
        if int(np.argmin(gained)) == index and gained[index] <= NOISE:
            every[index] = min(every[index], gained[index])
    return every


FOREIGN_SPAN = (0.2, 0.8)  # (share of a side) where along it a neighbour's tab may lie


def _clear_of_foreign_tabs(index: int, verdicts: list[str]) -> np.ndarray:
    """(S, S) 1 at the cell's samples that no neighbour not counted right can cover with a tab:
    those less than CORE from the side they share, within FOREIGN_SPAN along it, are 0."""
    row, col = divmod(index, GRID)
    steps = cells.SAMPLE_CENTRES + 0.5  # from the cell's top (left) side
    down, across = np.meshgrid(steps, steps, indexing="ij")
    keep = np.ones((cells.SAMPLES, cells.SAMPLES), np.float32)
    for (d_row, d_col), depth, along in (((-1, 0), down, across), ((1, 0), 1 - down, across),
                                         ((0, -1), across, down), ((0, 1), 1 - across, down)):
        row_, col_ = row + d_row, col + d_col
        if 0 <= row_ < GRID and 0 <= col_ < GRID and verdicts[row_ * GRID + col_] != "right":
            keep[(depth < CORE) & (along > FOREIGN_SPAN[0]) & (along < FOREIGN_SPAN[1])] = 0
    return keep


def _seams_decide(found: Pieces, lab: np.ndarray, corners: np.ndarray, bank: cells.Bank,
                  judgement: _Judgement, compared: list[bool], vouched: set[int],
                  by_colour_alone: set[int] | frozenset[int] = frozenset()) -> list[CellState]:
    """The cells' states, the seams (_by_seams) deciding those their content cannot place:
    the unsure, then the flat ones (their own cell within NOISE) that only cells holding their
    own pieces explain better (`distances`: each cell's _distances). One piece cannot be two
    (_holding_their_own): where every cell nearer than its own holds its own piece (counted
    right, or leaning) and its own cell turned is not nearer, its content cannot tell it from
    its own cell after all. A cell nearer a look-alike (a cell its content cannot tell it from)
    not counted right than its own needs DOUBTED_SEAMS closed seams: that piece may lie here,
    unless the rectangle's straight border along the cell rules it out (_outside_rules_out).
    A flat cell (not `structured`: its picture cell without the pattern STRUCTURED asks)
    counted right on its colour alone, not placed by features (`vouched`), is unsure too (T6):
    a flat piece of another picture, or of a cell whose colour the light shifted, has that
    colour as well, and only its cut interlocking with its neighbours can tell it is this
    one. A cell unsure only by its colour (`by_colour_alone`: _flat_doubts) needs
    DOUBTED_SEAMS closed seams: its own piece turned reads as near by colour, and one side of
    a turned piece's cut may interlock by chance."""
    distances, distinct, mines = judgement.distances, judgement.distinct, judgement.mines
    verdicts = ["unsure" if verdict == "right" and not judgement.structured[index]
                and index not in vouched else verdict
                for index, verdict in enumerate(judgement.verdicts)]
    states = [verdict if verdict != "unsure" else "wrong" for verdict in verdicts]

    def leaning(index: int) -> bool:
        """Is the cell counted wrong, but explained best by its own cell of every cell and
        turn: placed by its content only roughly (shade or glare beyond the noise), not
        clearly another piece? A wrong piece lying there is nearest its own cell, or one like
        it; its seams look closed all the same (it lies on top), so of the neighbours counted
        wrong only such a one's seams vouch, as a right or unsure one's do."""
        return verdicts[index] == "wrong" and compared[index] \
            and int(np.argmin(distances[index])) == index

    def only_taken_nearer(index: int) -> bool:
        nearer = distinct[index] & (distances[index] < mines[index])
        holding = {cell for cell in range(GRID * GRID)
                   if cell != index and (states[cell] == "right" or leaning(cell))}
        return not (nearer & ~_holding_their_own(holding, len(nearer))).any()

    def nearer_look_alikes_unplaced(index: int) -> np.ndarray:
        """The cells (under some turn) the cell's content is nearer than its own cell and
        cannot be told from, whose own pieces are not counted right (candidates: picture
        cells × turns): such a piece may lie here."""
        nearer = ~distinct[index] & (distances[index] < mines[index])
        unplaced = {cell for cell in range(GRID * GRID) if cell != index and states[cell] != "right"}
        return np.flatnonzero(nearer & _holding_their_own(unplaced, len(nearer)))

    def needed(index: int) -> int:
        """Closed seams the cell needs: DOUBTED_SEAMS when it is unsure by its colour alone,
        or when a look-alike's piece may lie here (one fewer then when the rectangle's
        straight border along the cell's outside rules those pieces out:
        _outside_rules_out)."""
        if index in by_colour_alone:
            return DOUBTED_SEAMS
        look_alikes = nearer_look_alikes_unplaced(index)
        if not len(look_alikes):
            return 1
        return DOUBTED_SEAMS - _outside_rules_out(found, corners, index, look_alikes)

    def judge(indices: list[int]) -> None:
        near = {other for index in indices for other in _neighbours(index) if leaning(other)}
        for index in indices:
            states[index] = _by_seams(found, lab, corners, index, verdicts, bank, near,
                                      needed(index))

    judge([index for index, verdict in enumerate(verdicts) if verdict == "unsure"])
    judge([index for index, verdict in enumerate(verdicts) if verdict == "wrong"
           and compared[index] and mines[index] <= NOISE and only_taken_nearer(index)])
    return states


def _neighbours(index: int) -> list[int]:
    """The cells sharing a side with cell `index`."""
    row, col = divmod(index, GRID)
    return [r * GRID + c for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < GRID and 0 <= c < GRID]


def _by_seams(found: Pieces, lab: np.ndarray, corners: np.ndarray, index: int,
              verdicts: list[str], bank: cells.Bank,
              leaning: set[int] | frozenset[int] = frozenset(), needed: int = 1) -> CellState:
    """A cell its content cannot place is right when its cut interlocks: its seam with every
    neighbour that is clearly right is closed, and it is closed with at least `needed`
    neighbours that are right or unsure too, or `leaning` (its own cell explains it best). A
    turned or moved piece leaves table showing where its tabs and blanks do not interlock; a
    seam open to a wrong neighbour says nothing about this piece."""
    joined = 0
    for other in _neighbours(index):
        if verdicts[other] not in ("right", "unsure") and other not in leaning:
            continue
        closed = _seam_closed(found, lab, corners, divmod(index, GRID), divmod(other, GRID),
                              bank)
        if not closed and verdicts[other] == "right":
            return "wrong"
        joined += closed
    return "right" if joined >= needed else "wrong"


OUTSIDE_SPAN = 0.35  # (cells) the stretch of a border cell's outside side looked at, either way
# from its middle: clear of the rectangle's corners, and of where the neighbours' sides meet it
OUTSIDE_STRETCHES = 5  # it is looked at in this many stretches, each about a tab's neck wide:
# a tab or a blank fills one of them, though little of the whole side
OUTSIDE_CLEAR = 0.06  # (cells) left out on both sides of the border's line: the cut, the blur
# of the outline and a grid a little off
OUTSIDE_DEPTH = 0.2  # (cells) how far in and out the outside side is looked at: a tab's depth
OUTSIDE_HOLE = 0.05  # share of a stretch's band beyond (within) the border's line that may be
# piece (table): specks and the outline's blur


SIDE_NORMALS = ((0, -1), (1, 0), (0, 1), (-1, 0))  # outwards, of sides 0 top, 1 right, 2
# bottom, 3 left, in cells


def _side_band(found: Pieces, corners: np.ndarray, index: int, side: int,
               along: tuple[float, float], depth: tuple[float, float]) -> np.ndarray:
    """The quadrilateral (mask pixels) over cell `index`'s `side`: from along[0] to along[1]
    (cells, either way of the side's middle) by from depth[0] to depth[1] (cells, outwards)."""
    row, col = divmod(index, GRID)
    normal = np.float64(SIDE_NORMALS[side])
    tangent = np.abs(normal[::-1])
    middle = np.array([col + 0.5, row + 0.5]) + normal / 2
    quad = [middle + a * tangent + d * normal
            for a, d in ((along[0], depth[0]), (along[1], depth[0]), (along[1], depth[1]),
                         (along[0], depth[1]))]
    return projective(corners, np.array(quad) / GRID) / found.factor


def _border_sides(index: int) -> set[int]:
    """The sides (0 top, 1 right, 2 bottom, 3 left) of cell `index` on the rectangle's border."""
    row, col = divmod(index, GRID)
    return {side for side, on in enumerate((row == 0, col == GRID - 1, row == GRID - 1, col == 0))
            if on}


def _outside_rules_out(found: Pieces, corners: np.ndarray, index: int,
                       look_alikes: np.ndarray) -> bool:
    """Does the rectangle's straight border along the border cell `index` rule out the pieces
    of `look_alikes` (picture cells × quarter turns clockwise) lying there? The set's pieces
    interlock on every inner side (a tab or a blank) and are straight only along the picture's
    border (issue 7): a right piece fills the cell up to the border's line and no further on
    every outside side (_outside_worst), and a look-alike's piece, turned as its content
    matches, must lack a straight side on one of them (either way round: a turn read from
    flat content is uncertain). Only the pieces a flat cell is taken for are ruled out: a
    piece of another picture from the same place in its grid has the same straight sides, so
    the cell still needs a closed seam with a neighbour. The mask seals a narrow-necked knob
    now and then (unseen tuning 3000-9000: 3 of 51 knobbed outside sides of wrong pieces read
    straight, while 3 of 11 seams of wrong pieces read closed): the border stands in for the
    second seam only."""
    outside = _border_sides(index)
    for candidate in look_alikes:
        cell, turn = candidate % (GRID * GRID), candidate // (GRID * GRID)
        straight = {(side + way * turn) % 4 for side in _border_sides(cell) for way in (1, -1)}
        if outside <= straight:
            return False
    return bool(outside) and all(
        (worst := _outside_worst(found, corners, index, side)) is not None
        and worst <= OUTSIDE_HOLE for side in outside)


def _outside_worst(found: Pieces, corners: np.ndarray, index: int, side: int) -> float | None:
    """Along cell `index`'s `side` (0 top, 1 right, 2 bottom, 3 left, on the rectangle's
    border), the largest share of table in a stretch's band just inside the border's line, or
    of piece in its band just outside: a blank cut in, a tab sticking out. None where a band
    is not all inside the photo (a tab beyond its edge is not seen)."""
    steps = np.linspace(-OUTSIDE_SPAN, OUTSIDE_SPAN, OUTSIDE_STRETCHES + 1)
    height, width = found.bare.shape
    worst = 0.0
    for near, far, piece in ((-OUTSIDE_DEPTH, -OUTSIDE_CLEAR, 1), (OUTSIDE_CLEAR, OUTSIDE_DEPTH, 0)):
        for start, end in zip(steps[:-1], steps[1:], strict=True):
            points = _side_band(found, corners, index, side, (start, end), (near, far))
            if not np.all((points >= 1) & (points < np.array([width, height]) - 1)):
                return None
            x, y, w, h = cv2.boundingRect(np.int32(np.round(points)))
            band = np.zeros((h, w), np.uint8)
            cv2.fillConvexPoly(band, np.int32(np.round(points)) - (x, y), 1)
            if not band.any():
                return None
            worst = max(worst, float((found.bare[y:y + h, x:x + w][band > 0] != piece).mean()))
    return worst


CUT_WIDTH = 0.06  # (cells) table showing no wider than this along a seam is the cut line or
# the slight gap of pieces pushed together, not a tab or blank that fails to interlock
SEAM_REACH = 0.15  # (cells) the seam's band reaches this far into each cell
SEAM_SPAN = 0.4  # (cells) and this far along the side either way from its middle
LEAST_TELLING = 0.3  # share of the band that must lie where the picture is unlike the table


def _seam_closed(found: Pieces, lab: np.ndarray, corners: np.ndarray, cell: tuple[int, int],
                 neighbour: tuple[int, int], bank: cells.Bank) -> bool:
    """Is the band along the side two cells share all piece (at most HOLE of it table), once
    the cut line is closed? A blurred or light cut line, or a hair's gap, shows the table's
    colours along the whole seam of two right pieces; a piece that does not interlock leaves
    holes the size of a tab. The hole is measured only along the stretches where the picture
    (`bank`) is unlike the table on both sides of the seam: where it has the table's colours
    (a dark mat, a tartan), right pieces show them too. With too few such stretches to tell
    by, the whole band is measured. A hole showing the picture's own print there, under the
    light the band's pieces show, is print the mask calls table, not a gap (_print_showing;
    `lab`: the photo's colours at mask size, lab_of)."""
    (row, col), (d_row, d_col) = cell, (neighbour[0] - cell[0], neighbour[1] - cell[1])
    middle = np.array([col + 0.5 + d_col / 2, row + 0.5 + d_row / 2])
    along, across = np.array([abs(d_row), abs(d_col)]), np.array([abs(d_col), abs(d_row)])

    def mask_quad(start: float, end: float) -> np.ndarray:
        """The band's stretch from `start` to `end` along the side (cells from its middle), in
        mask pixels."""
        quad = [middle + a * along + b * SEAM_REACH * across
                for a, b in ((start, -1), (end, -1), (end, 1), (start, 1))]
        return np.float32(projective(corners, np.array(quad) / GRID)) / found.factor

    points = mask_quad(-SEAM_SPAN, SEAM_SPAN)
    band = np.zeros(found.bare.shape, np.uint8)
    cv2.fillConvexPoly(band, np.int32(points), 1)
    if not band.any():
        return True
    telling = np.zeros_like(band)
    stretches = _telling(found, bank, cell, neighbour)
    steps = np.linspace(-SEAM_SPAN, SEAM_SPAN, len(stretches) + 1)
    for start, end in zip(steps[:-1][stretches], steps[1:][stretches], strict=True):
        cv2.fillConvexPoly(telling, np.int32(np.round(mask_quad(start, end))), 1)
    telling &= band
    if telling.sum() < LEAST_TELLING * band.sum():
        telling = band
    side = float(np.linalg.norm(points[1] - points[0])) / (2 * SEAM_SPAN)  # mask pixels
    cut = 2 * int(CUT_WIDTH * side / 2) + 1
    x, y, width, height = cv2.boundingRect(band)
    reach = np.s_[max(0, y - cut):y + height + cut, max(0, x - cut):x + width + cut]
    kernel = np.ones((cut, cut), np.uint8)
    closed = cv2.morphologyEx(found.bare[reach], cv2.MORPH_CLOSE, kernel)
    holes = (telling[reach] > 0) & (closed == 0)
    if holes.any():
        # print the mask calls table is piece too; the cut line between it and the piece
        # around it (and the blur of the print's edge) is closed as any cut line is
        closed[holes] = _print_showing(found, lab[reach], corners, bank, holes,
                                       (band[reach] > 0) & (found.bare[reach] > 0),
                                       (reach[1].start, reach[0].start))
        closed = cv2.morphologyEx(closed, cv2.MORPH_CLOSE, kernel)
    return bool(1 - closed[telling[reach] > 0].mean() <= HOLE)


def _print_showing(found: Pieces, lab: np.ndarray, corners: np.ndarray, bank: cells.Bank,
                   holes: np.ndarray, piece: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """(holes' pixels) True where a hole in a seam's band (`holes`, in `lab`: the photo's
    colours at mask size, lab_of, from `origin` on) shows the picture's own print: its colour
    is the picture's there (`bank`, laid on `corners`) under the light the band's `piece`
    pixels show, within the segmentation's margin. Print of the table's colours (a dark mat's,
    a tartan's) is no piece to the mask, yet right pieces show it; a gap shows the table where
    the picture has other colours."""
    if found.table is None or not piece.any():
        return np.zeros(int(holes.sum()), bool)
    to_grid = cv2.getPerspectiveTransform(
        np.float32(corners), np.float32([[0, 0], [GRID, 0], [GRID, GRID], [0, GRID]]))
    mosaic = weighted_lab(np.clip(np.round(_mosaic_of(bank.cells)), 0, 255).astype(np.uint8))

    def picture_at(mask: np.ndarray) -> np.ndarray:
        """The picture's colour (weighted Lab) at the pixels of `mask`, from the bank's
        samples of the cell each lies in."""
        rows, cols = np.nonzero(mask)
        points = (np.stack([cols + origin[0], rows + origin[1]], -1) + 0.5) * found.factor
        at = cv2.perspectiveTransform(np.float64(points)[None], to_grid)[0]
        cell = np.clip(np.floor(at), 0, GRID - 1)
        within = np.clip(((at - cell - cells.MARGIN) / (1 - 2 * cells.MARGIN)) * cells.SAMPLES
                         - 0.5, 0, cells.SAMPLES - 1)
        where = np.float32(cell * cells.SAMPLES + within)
        return cv2.remap(mosaic, where[:, None, 0], where[:, None, 1], cv2.INTER_LINEAR)[:, 0]

    light = np.median(lab[piece] - picture_at(piece), axis=0)
    lit = picture_at(holes) + light
    gap = lab[holes] - lit
    lightness = np.maximum(np.abs(gap[:, 0]) - LIGHTNESS_SLACK, 0)
    return np.sqrt(lightness ** 2 + gap[:, 1] ** 2 + gap[:, 2] ** 2) <= found.margin


def _telling(found: Pieces, bank: cells.Bank, cell: tuple[int, int],
             neighbour: tuple[int, int]) -> np.ndarray:
    """(along the seam, SEAM_SPAN either side of its middle) True where the picture's samples
    within SEAM_REACH of the side, in both cells, are all colours the segmentation calls piece
    (further than its margin from the table's): elsewhere right pieces show table colours."""
    lines = int(np.ceil((SEAM_REACH - cells.MARGIN) * cells.SAMPLES / (1 - 2 * cells.MARGIN)))
    inside = np.abs(cells.SAMPLE_CENTRES) <= SEAM_SPAN
    if found.table is None or not len(found.table):
        return inside[inside]
    d_row, d_col = neighbour[0] - cell[0], neighbour[1] - cell[1]
    strips = []
    for (row, col), towards in ((cell, (d_row, d_col)), (neighbour, (-d_row, -d_col))):
        samples = bank.cells[row * GRID + col]
        if towards[0]:  # a side across the cell: its rows nearest it, column by column
            strips.append(samples[-lines:] if towards[0] > 0 else samples[:lines])
        else:
            strips.append((samples[:, -lines:] if towards[1] > 0 else samples[:, :lines])
                          .transpose(1, 0, 2))
    picture = np.concatenate(strips)  # (lines on both sides, along, 3) BGR
    lab = lab_of(np.clip(np.round(picture), 0, 255).astype(np.uint8))
    unlike = (nearest_table(lab, found.table) > found.margin).all(0)
    return unlike[inside]


BORDER_BAND = (0.05, 0.17)  # (cells) inwards from a border side: a jigsaw blank reaches about
# a fifth of a side into its piece, a cut line's blur and the grid's slack less
KNOB_SPAN = (0.25, 0.75)  # (share of a side) where along it a tab or blank lies
FLANKS = ((0.05, 0.18), (0.82, 0.95))  # (share of a side) its shoulders, cut straight either way
KNOB_LEAST = 0.1  # share of KNOB_SPAN's band that is table where a blank lies (a fifth of a
# side deep, a tenth to a third of it wide)
FLANK_MOST = 0.03  # and the most of the flanks' band: a shadow's edge, glare or a grid laid
# off runs along the whole side, a blank leaves its shoulders straight


def _straight_borders(states: list[str], shows_blank: Callable[[int], bool],
                      vouched: set[int]) -> list[str]:
    """The cells' states (or verdicts), each right or unsure one whose side on the
    rectangle's outer border shows a blank (`shows_blank`: _shows_blank) wrong, but for pieces
    the features place (`vouched`)."""
    return [state if state not in ("right", "unsure") or index in vouched
            or not shows_blank(index) else "wrong" for index, state in enumerate(states)]


def _shows_blank(found: Pieces, lab: np.ndarray, corners: np.ndarray, bank: cells.Bank,
                 index: int) -> bool:
    """Does a side of cell `index` on the rectangle's outer border show a blank
    (_blank_shares: its knob's stretch table, its flanks piece)?"""
    return any(knob >= KNOB_LEAST and flanks <= FLANK_MOST
               for knob, flanks in _blank_shares(found, lab, corners, bank, index))


def _blank_shares(found: Pieces, lab: np.ndarray, corners: np.ndarray, bank: cells.Bank,
                  index: int) -> list[tuple[float, float]]:
    """Per side of the cell on the rectangle's outer border: the share of the band BORDER_BAND
    inside it that is table, along KNOB_SPAN and along its FLANKS (the picture's own print the
    mask calls table is piece, _print_showing). The outer border is cut straight: a piece in
    its place is piece right up to it. Only inside: outside the rectangle the table's own
    pattern (polka dots, a cutting mat's lines) is taken for piece often enough to look like a
    tab; a blank shows the table, which the print is told from."""
    shares = []
    for side in _border_sides(index):
        near, far = BORDER_BAND
        quads = [np.int32(np.round(_side_band(found, corners, index, side,
                                              (start - 0.5, end - 0.5), (-near, -far))))
                 for start, end in (KNOB_SPAN, *FLANKS)]
        x, y, width, height = cv2.boundingRect(np.concatenate(quads))
        x, y = max(x, 0), max(y, 0)  # the mask's own window: the bands are small
        window = np.s_[y:y + height, x:x + width]
        if not found.mask[window].size:  # the band lies beyond the photo: nothing seen
            continue
        shares.append(tuple(_table_share(found, lab, corners, bank, stretches, window)
                            for stretches in (quads[:1], quads[1:])))
    return shares


def _table_share(found: Pieces, lab: np.ndarray, corners: np.ndarray, bank: cells.Bank,
                 quads: list[np.ndarray], window: tuple[slice, slice]) -> float:
    """The share of the band `quads` (mask pixels) that is table, within `window` of the mask,
    print of the picture's own showing in it counted as piece (_print_showing)."""
    mask = found.mask[window]
    band = np.zeros(mask.shape, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(band, quad - (window[1].start, window[0].start), 1)
    band = band > 0
    if not band.any():
        return 0.0
    table = (mask == 0) & band
    if table.any():
        table[table] = ~_print_showing(found, lab[window], corners, bank, table,
                                       band & (mask > 0), (window[1].start, window[0].start))
    return float(table.sum() / band.sum())
