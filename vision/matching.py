"""The photo matched to a picture by SIFT features, and one placement hypothesis per piece
(shared by the fit check, vision.jigsaw, and the count, vision.count).

- The photo is searched at WORK_LONG_SIDE (SIFT on 12 MP takes seconds); features are found
  on a CLAHE-equalised grey image, only on and around the pieces when their mask is known.
- Matches are grouped by the picture cell they fall in and each cell gets its own RANSAC
  similarity: one transform per piece (a single transform can bend to cover two offset
  pieces).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.cells import GRID
from vision.pictures import Picture, feature_grey, sift
from vision.pieces import Pieces

WORK_LONG_SIDE = 1024  # the photo is searched at this size (SIFT on 12 MP takes seconds)
MIN_INLIERS = 8
RATIO = 0.8  # Lowe's ratio test
MATCH_SEED = 7


@dataclass(frozen=True, eq=False)
class Hypothesis:
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
class Scene:
    """The photo prepared once: work-size image, features, matches to the picture."""
    work: np.ndarray
    factor: float  # photo pixels per work pixel
    photo_points: np.ndarray  # matched points in the work photo
    picture_points: np.ndarray  # the same matches in the picture
    keypoints: np.ndarray  # every keypoint of the work photo


def to_work(photo: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo reduced to WORK_LONG_SIDE, and photo pixels per work pixel."""
    factor = max(photo.shape[:2]) / WORK_LONG_SIDE
    if factor <= 1:
        return photo, 1.0
    return cv2.resize(photo, None, fx=1 / factor, fy=1 / factor,
                      interpolation=cv2.INTER_AREA), factor


def photo_scene(photo: np.ndarray, picture: Picture) -> Scene:
    """The scene of a whole photo, features searched everywhere."""
    work, factor = to_work(photo)
    return scene_of(work, factor, picture, None)


FEATURE_REACH = 8  # work pixels around the pieces' mask where features are still looked for
FEATURE_MARGIN = 32  # and the image kept beyond that, so descriptors see what they saw whole


def features(work: np.ndarray, pieces: Pieces | None) -> tuple[np.ndarray, np.ndarray | None]:
    """SIFT keypoint positions (work pixels) and descriptors, only on and around the pieces
    when their mask is known: the table's own texture gave most keypoints and most of the time
    (a cropped, masked search took a quarter of it), and its keypoints explain nothing."""
    grey = feature_grey(work)  # equalised whole: CLAHE tiles follow the image's size
    if pieces is None or not pieces.area:
        keypoints, descriptors = sift(5000).detectAndCompute(grey, None)
        return np.float32([k.pt for k in keypoints]).reshape(-1, 2), descriptors
    reach = cv2.resize(pieces.mask, (work.shape[1], work.shape[0]),
                       interpolation=cv2.INTER_NEAREST)
    reach = cv2.dilate(reach, np.ones((2 * FEATURE_REACH + 1,) * 2, np.uint8)) * 255
    x, y, width, height = cv2.boundingRect(reach)
    left, top = max(0, x - FEATURE_MARGIN), max(0, y - FEATURE_MARGIN)
    right = min(work.shape[1], x + width + FEATURE_MARGIN)
    bottom = min(work.shape[0], y + height + FEATURE_MARGIN)
    keypoints, descriptors = sift(5000).detectAndCompute(grey[top:bottom, left:right],
                                                         reach[top:bottom, left:right])
    points = np.float32([k.pt for k in keypoints]).reshape(-1, 2) + np.float32([left, top])
    return points, descriptors


def scene_of(work: np.ndarray, factor: float, picture: Picture,
              pieces: Pieces | None) -> Scene:
    """The scene of a work-size photo; features only around `pieces` when given."""
    points, descriptors = features(work, pieces)
    empty = np.zeros((0, 2), np.float32)
    if descriptors is None or len(picture.descriptors) < 2 or len(points) < 2:
        return Scene(work, factor, empty, empty, points)
    # FLANN's random kd-trees draw from OpenCV's RNG: seeded, the same photo always gets the
    # same matches and so the same verdict (unseeded, a retake of nothing flipped fit/unsure).
    cv2.setRNGSeed(MATCH_SEED)
    matcher = cv2.FlannBasedMatcher({"algorithm": 1, "trees": 4}, {"checks": 48})
    pairs = matcher.knnMatch(descriptors.astype(np.float32), picture.descriptors, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < RATIO * p[1].distance]
    photo_points = np.float32([points[m.queryIdx] for m in good]).reshape(-1, 2)
    picture_points = np.float32([picture.points[m.trainIdx] for m in good]).reshape(-1, 2)
    return Scene(work, factor, photo_points, picture_points, points)


def cell_size(picture: Picture) -> np.ndarray:
    """A picture cell's (width, height) in picture pixels."""
    return np.array(picture.size, np.float64) / GRID


def hypotheses(scene: Scene, picture: Picture) -> list[Hypothesis]:
    """One RANSAC similarity per picture cell, from the matches in and around that cell."""
    cell = cell_size(picture)
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
                found.append(Hypothesis((row, col), np.vstack([affine, [0, 0, 1]]),
                                        len(inside)))
    return found


def same_placement(a: Hypothesis, b: Hypothesis, picture: Picture) -> bool:
    """Do both transforms put b's cell at the same place in the photo, the same way round?"""
    centre = (np.array([b.cell[1], b.cell[0]]) + 0.5) * cell_size(picture)
    where = [cv2.perspectiveTransform(centre[None, None], h.transform)[0, 0] for h in (a, b)]
    turn = abs((a.angle - b.angle + np.pi) % (2 * np.pi) - np.pi)
    return bool(np.linalg.norm(where[0] - where[1]) < 0.08 * a.scale * cell_size(picture).min()
                and turn < np.radians(6))


_UNIT_SQUARE = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])


def projective(corners: np.ndarray, points) -> np.ndarray:
    """The points at (u, v) (shares of the sides; N of them, as an (N, 2) array) of the
    quadrilateral `corners` seen in perspective: a tilted camera foreshortens the far cells,
    which spread evenly are a fifth of a cell off in the middle of a rectangle tilted 30°."""
    homography = cv2.getPerspectiveTransform(_UNIT_SQUARE, np.float32(corners))
    return cv2.perspectiveTransform(np.float64(points).reshape(1, -1, 2), homography)[0]
