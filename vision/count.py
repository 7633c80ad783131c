"""Tableau count (T6): how many pieces of a player's 4 × 4 rectangle are right, wrong, missing.

How it works, and why:
- The rectangle is placed first: SIFT matches grouped by picture cell give one similarity per
  piece (vision.jigsaw); the best-confirmed piece and every piece placed like it give a
  homography for the whole rectangle, grown from their own matches outwards (a similarity
  extrapolated across a tilted rectangle drifts by a fraction of a cell at the far side).
- The table's colours are taken outside that rectangle (its outline widened by a tab's depth),
  not from the photo's border ring alone: a rectangle running off the photo's edge puts its
  own colours in the ring, and then its pieces read as table. Without a placed rectangle a
  first segmentation from the ring finds the rectangle's outline, and the table is sampled
  again outside it.
- The grid is snapped to the rectangle's straight outer border when the two agree; with too
  few features the border alone places it, under each of the four turns.
- Each cell is compared with every picture cell under every turn at small shifts (normalised
  colour + grey pattern, vision.cells). A cell that is mostly table is missing. A present cell
  is right when its own cell is clearly the best explanation, or, when its content cannot
  tell (flat colour looks the same turned or moved), when its own cell is as good as anything
  and its seams with its neighbours are closed (a turned or moved piece does not interlock).
  Otherwise it is wrong: counting a wrong piece right would undercharge the player (T6).
"""

from __future__ import annotations

from dataclasses import dataclass

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
    bilinear,
    hypotheses,
    photo_scene,
    same_placement,
)
from vision.pictures import Picture, check_image
from vision.pieces import (
    SEED,
    TABLE_COLOURS,
    Pieces,
    at_mask_size,
    border_ring,
    lab_of,
    read_rectangle,
    segment,
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
    readings = [reading for group in _placements(scene, picture)
                for reading in _read_placement(scene, picture, bank, group)]
    readings += _read_by_border(scene, picture, bank)
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


def find_pieces_outside(work: np.ndarray, corners: np.ndarray) -> Pieces:
    """The pieces segmented from table colours sampled outside the rectangle at `corners` (work
    pixels), widened by WIDEN cells; from the photo's border ring when too little is left."""
    small, factor = at_mask_size(work)
    lab = lab_of(small)
    centre = corners.mean(0)
    widened = centre + (corners - centre) * (1 + 2 * WIDEN / GRID)
    inside = np.zeros(small.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.int32(np.round(widened / factor)), 1)
    outside = lab[inside == 0]
    table = outside if len(outside) >= LEAST_TABLE * inside.size else border_ring(lab)
    return segment(lab, table[:: max(1, len(table) // 4000)], factor)


def find_pieces_on_ring(work: np.ndarray, picture: Picture) -> Pieces:
    """The pieces segmented from the table colours of the photo's border ring, without the
    ring's colours that are the picture's and continue from the ring into the middle of the
    photo: the rectangle running off the photo's edge (a flat picture's colour reaches from
    the edge to the middle; the table there shows only through missing pieces)."""
    small, factor = at_mask_size(work)
    lab = lab_of(small)
    ring = np.zeros(small.shape[:2], bool)
    width = max(3, min(small.shape[:2]) // 25)
    ring[:width], ring[-width:], ring[:, :width], ring[:, -width:] = True, True, True, True
    sample = lab[ring][:: max(1, int(ring.sum()) // 3000)]
    cv2.setRNGSeed(SEED)
    _, _, centres = cv2.kmeans(sample, TABLE_COLOURS, None,
                               (cv2.TERM_CRITERIA_MAX_ITER + cv2.TERM_CRITERIA_EPS, 15, 0.5), 1,
                               cv2.KMEANS_PP_CENTERS)
    gaps = np.linalg.norm(lab[..., None, :] - centres[None, None], axis=-1)
    nearest = np.where(gaps.min(-1) < SAME_COLOUR, gaps.argmin(-1), -1)
    height, width_ = small.shape[:2]
    middle = np.zeros(small.shape[:2], np.uint8)
    cv2.circle(middle, (width_ // 2, height // 2), int(MIDDLE * min(height, width_)), 1, -1)
    painted = lab_of(cv2.resize(picture.image, (128, 128), interpolation=cv2.INTER_AREA))
    suspect, keep = np.zeros(len(centres), bool), np.ones(len(centres), bool)
    for k, centre in enumerate(centres):
        suspect[k] = (np.linalg.norm(painted - centre, axis=-1) < LIKE_PICTURE).mean() \
            > PICTURE_COLOUR
        _, parts = cv2.connectedComponents((nearest == k).astype(np.uint8), connectivity=8)
        from_ring = np.setdiff1d(np.unique(parts[ring & (nearest == k)]), [0])
        keep[k] = not (suspect[k] and np.isin(parts[middle > 0], from_ring).mean()
                       > REACHES_MIDDLE)

    def segmented(keep: np.ndarray) -> tuple[float, Pieces] | None:
        table = np.isin(nearest[ring], np.flatnonzero(keep))
        if table.mean() < LEAST_RING:
            return None  # too little of the ring left for a table
        pixels = lab[ring][table]
        found = segment(lab, pixels[:: max(1, len(pixels) // 4000)], factor)
        return _rectangle_likeness(found.mask), found

    best = segmented(keep) or segmented(np.ones(len(centres), bool))
    # A picture colour that reaches the ring beside the rectangle but not the middle: dropped
    # when the pieces then grow and stay as convex (the rest of the rectangle); a table colour
    # dropped adds bands and specks of table around the rectangle, far from convex.
    for k in np.flatnonzero(suspect & keep):
        trial = keep.copy()
        trial[k] = False
        tried = segmented(trial)
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
                    agreeing: list[Hypothesis]) -> list[_Reading]:
    """The cells read on the rectangle placed by pieces placed alike: the homography from their
    matches, and the straight border when that agrees (sharper, unless glare or a stray piece
    joins the outline: both are read); the table sampled around it."""
    grid = _grid_transform(scene, picture, agreeing, agreeing[0])
    frame = np.float64([[0, 0], [picture.size[0], 0], list(picture.size), [0, picture.size[1]]])
    by_features = cv2.perspectiveTransform(frame[None], grid)[0]
    found = find_pieces_outside(scene.work, by_features)
    placed = _placed_cells(scene, picture, agreeing)
    snapped = _straight_border(found, by_features)
    return [_read_cells(scene.work, found, corners, bank, placed)
            for corners in ([by_features] if snapped is by_features else [by_features, snapped])]


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


def _read_by_border(scene: Scene, picture: Picture, bank: cells.Bank) -> list[_Reading]:
    """The cells read on the rectangle's straight outer border under each plausible turn (found
    in a first segmentation, then again with the table sampled around it)."""
    found = find_pieces_on_ring(scene.work, picture)
    outline = read_rectangle(found) if found.area else None
    if outline is not None:
        found = find_pieces_outside(scene.work, outline)
        outline = read_rectangle(found) if found.area else None
    if outline is None:
        return []
    turns = [np.roll(outline, -turn, axis=0) for turn in range(4)]
    return [_read_cells(scene.work, found, corners, bank, set())
            for corners in turns if _plausible_turn(corners, bank)]


def _placements(scene: Scene, picture: Picture) -> list[list[Hypothesis]]:
    """Groups of pieces the features place alike, best supported first (each group's anchor
    first). Right pieces agree on one placement; a turned or moved piece has one of its own,
    though a few of them may happen to agree: the groups are read and the best reading wins."""
    left = hypotheses(scene, picture)
    groups = []
    while left and len(groups) < PLACEMENTS:
        support = [sum(other.inliers for other in left if same_placement(h, other, picture))
                   for h in left]
        anchor = left[int(np.argmax(support))]
        group = [anchor] + [h for h in left if h is not anchor
                            and same_placement(anchor, h, picture)]
        if len(group) < LEAST_AGREEING:
            break
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


def _plausible_turn(corners: np.ndarray, bank: cells.Bank) -> bool:
    width = (np.linalg.norm(corners[1] - corners[0]) + np.linalg.norm(corners[2] - corners[3]))
    height = (np.linalg.norm(corners[3] - corners[0]) + np.linalg.norm(corners[2] - corners[1]))
    aspect = width / height / (bank.size[0] / bank.size[1])
    return 1 / ASPECT_SLACK < aspect < ASPECT_SLACK


# ---------------------------------------------------------------- the cells

# A cell is missing when less than PRESENT of its middle is piece. It is right when its own
# cell (under the rectangle's turn) is within LOOKS_LIKE and every other cell/turn is at least
# CLEARLY further and 1 / CLEAR_RATIO times as far; or, when the content cannot tell (its own
# within NOISE: a flat cell), when its seams are closed. Otherwise it is wrong (a cell only
# about as near its own as another, beyond the noise, may be either: T6 counts it wrong).
PRESENT = 0.5
CLEARLY = 0.04
CLEAR_RATIO = 0.7
NOISE = 0.06  # distances below this are blur, noise and compression: they tell cells apart no more
SHIFTS = np.float64([(0.0, 0.0)] + [(x, y) for x in (-0.05, 0, 0.05) for y in (-0.05, 0, 0.05)
                                     if x or y])  # the grid places a cell only roughly
LOCAL_LIGHT = 1.35  # a cell's light may differ from the photo's by this factor (shade, glare)
LOCAL_TINT = 1.08  # and its tint by this much per channel
CLEAR_OF_TABLE = 2  # mask pixels kept clear of the table in the comparison
SEEN = 0.3  # a cell whose middle is less than this share inside the photo is not read
HOLE = 0.02  # a seam with more than this share of table in its band is open


@dataclass(frozen=True)
class _Reading:
    """The 16 cells read with the picture laid on the rectangle's `corners` (work pixels);
    `fitness` sums each present cell's distance to its own cell (lower is better)."""
    corners: np.ndarray
    states: list[CellState]
    fitness: float
    clear: int  # cells whose content matches their own cell clearly


def _cell_axes(corners: np.ndarray, row: int, col: int) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """The cell's centre and its x and y sides (work pixels) on the rectangle at `corners`."""
    centre = bilinear(corners, (col + 0.5) / GRID, (row + 0.5) / GRID)
    x_side = (bilinear(corners, (col + 1) / GRID, (row + 0.5) / GRID)
              - bilinear(corners, col / GRID, (row + 0.5) / GRID))
    y_side = (bilinear(corners, (col + 0.5) / GRID, (row + 1) / GRID)
              - bilinear(corners, (col + 0.5) / GRID, row / GRID))
    return centre, x_side, y_side


def _read_cells(work: np.ndarray, found: Pieces, corners: np.ndarray, bank: cells.Bank,
                placed: set[int]) -> _Reading:
    """Read every cell with the picture laid on `corners` (work pixels). A cell is present
    where the piece mask covers its middle or features place its piece (`placed`), which is
    then right unless its content contradicts it."""
    refs = cells.turned(bank)
    # Beyond the photo's edge nothing is seen: sampling repeats the edge pixels there, so the
    # masks get a frame of zeros (the piece mask: not piece; `seen`: not seen).
    seen = np.pad(np.ones(np.subtract(found.bare.shape, 2), np.uint8), 1)
    bare = found.bare * seen
    # the piece mask's holes are a little small (blur, the cut's shadow): the comparison keeps
    # clear of their rims, where table colour would weigh as a large colour error
    compared = cv2.erode(bare, np.ones((3, 3), np.uint8), iterations=CLEAR_OF_TABLE)
    coverage, visible, scored = [], [], []
    for row in range(GRID):
        for col in range(GRID):
            centre, x_side, y_side = _cell_axes(corners, row, col)
            middle = [(x_side * 0.5, y_side * 0.5)]
            visible.append(float(cells.body(work, seen, found.factor, centre,
                                            middle).weight.mean()))
            coverage.append(float(cells.body(work, bare, found.factor, centre,
                                             middle).weight.mean()) / max(visible[-1], 1e-6))
            # a piece whose colours are the table's is lost by the mask; its features in the
            # cell's core place it all the same (neighbours' tabs do not reach the core)
            lost = coverage[-1] < PRESENT and row * GRID + col in placed
            shifted = centre + SHIFTS @ np.stack([x_side, y_side])
            # one Scores per cell, its entry k the cell shifted by SHIFTS[k]
            scored.append(cells.scores(cells.bodies(
                work, seen if lost else compared, found.factor, shifted, [(x_side, y_side)]),
                refs))
    present = [share >= PRESENT or index in placed for index, share in enumerate(coverage)]
    gains = _gains(np.array([(s.picture_mean[0, i] + 4) / (s.photo_mean[0] + 4)
                             for i, s in enumerate(scored)]), present)
    fitness = LOOKS_LIKE * (GRID * GRID - sum(present))
    verdicts: list[str] = []  # "missing", "right" (clearly), "wrong", or "unsure"
    for index, score in enumerate(scored):
        if visible[index] < SEEN:
            verdicts.append("wrong")  # out of the photo: it cannot be counted right
            continue
        if not present[index]:
            verdicts.append("missing")
            continue
        gain = gains[index]
        every = cells.distance(score, gain, np.arange(len(SHIFTS))[:, None],
                               np.arange(len(refs.cells))[None]).min(0)
        mine = float(every[index])
        fitness += min(mine, 2 * LOOKS_LIKE)
        others = float(np.delete(every, index).min())
        if mine <= LOOKS_LIKE and (index in placed or (
                mine + CLEARLY < others and mine < CLEAR_RATIO * others)):
            verdicts.append("right")
        elif mine > NOISE:
            verdicts.append("wrong")  # unlike its own cell, or not clearly its own
        else:
            verdicts.append("unsure")  # flat content looks the same turned or moved
    states = [_by_seams(found, corners, index, verdicts) if verdict == "unsure" else verdict
              for index, verdict in enumerate(verdicts)]
    return _Reading(corners, states, fitness, verdicts.count("right"))


def _by_seams(found: Pieces, corners: np.ndarray, index: int,
              verdicts: list[str]) -> CellState:
    """A cell its content cannot place is right when its cut interlocks: its seam with every
    neighbour that is clearly right is closed, and it is closed with at least one neighbour that
    is right or unsure too. A turned or moved piece leaves table showing where its tabs and
    blanks do not interlock; a seam open to a wrong neighbour says nothing about this piece."""
    row, col = divmod(index, GRID)
    joined = False
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if not (0 <= r < GRID and 0 <= c < GRID) or verdicts[r * GRID + c] not in (
                "right", "unsure"):
            continue
        closed = _seam_closed(found, corners, (row, col), (r, c))
        if not closed and verdicts[r * GRID + c] == "right":
            return "wrong"
        joined |= closed
    return "right" if joined else "wrong"


def _gains(ratios: np.ndarray, present: list[bool]) -> np.ndarray:
    """Per-channel gains taking each cell's photo colours to the picture's: the photo's colour
    cast, however strong (the camera's white balance and the cover photo's both count), as the
    median over present cells of the ratio that matches a cell to its own cell; and each cell
    free to differ from it by uneven light (brightness) and a little tint."""
    logs = np.log(ratios)
    cast = np.median(logs[present], axis=0) if any(present) else np.zeros(3)
    local = logs - cast
    level = np.clip(local.mean(1, keepdims=True), -np.log(LOCAL_LIGHT), np.log(LOCAL_LIGHT))
    tint = np.clip(local - level, -np.log(LOCAL_TINT), np.log(LOCAL_TINT))
    return np.exp(cast + level + tint)


def _seam_closed(found: Pieces, corners: np.ndarray, cell: tuple[int, int],
                 neighbour: tuple[int, int]) -> bool:
    """Is the band along the side two cells share all piece (at most HOLE of it table)?"""
    (row, col), (d_row, d_col) = cell, (neighbour[0] - cell[0], neighbour[1] - cell[1])
    middle = np.array([col + 0.5 + d_col / 2, row + 0.5 + d_row / 2])
    along, across = np.array([abs(d_row), abs(d_col)]), np.array([abs(d_col), abs(d_row)])
    quad = [middle + a * 0.4 * along + b * 0.15 * across
            for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    points = np.float32([bilinear(corners, x / GRID, y / GRID) for x, y in quad])
    band = np.zeros(found.bare.shape, np.uint8)
    cv2.fillConvexPoly(band, np.int32(points / found.factor), 1)
    return not band.any() or 1 - found.bare[band > 0].mean() <= HOLE
