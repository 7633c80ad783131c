"""Picture sets for Tableau checks: rectified box-cover pictures and their precomputed features.

The user photographs the box cover (or imports picture files) and marks each picture's four
corners; `picture_from_cover` straightens one picture and precomputes its SIFT keypoints, so a
check only has to describe the table photo. `picture_to_bytes` / `picture_from_bytes` turn a
picture into npz bytes for the app to store; storing files is the app's job, not this module's.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.photo import load_photo

# Pictures are kept at this long side: large enough for the features of one of 16 pieces,
# small enough that describing a picture takes a fraction of a second.
PICTURE_LONG_SIDE = 768
MAX_FEATURES = 6000
# Lower than SIFT's default 0.04: pieces photographed at a slant, blurred and in poor light keep
# too few features at the default. The table photo is described with the same setting.
CONTRAST_THRESHOLD = 0.02
# Features are found on a locally contrast-equalised grey image (CLAHE), on the picture and on
# the table photo alike: smooth pictures (a blurred clock, the moon, flat illustrations) kept
# 7 to 350 keypoints without it, too few to place their pieces. Stored pictures carry the
# version of this recipe; older ones are described again when loaded.
FEATURES_VERSION = 2
CLAHE_CLIP, CLAHE_TILES = 2.0, 8


@dataclass(frozen=True, eq=False)
class Picture:
    """One rectified picture, with SIFT keypoint positions (N × 2) and descriptors (N × 128)."""
    title: str
    image: np.ndarray
    points: np.ndarray
    descriptors: np.ndarray

    @property
    def size(self) -> tuple[int, int]:
        """(width, height) in pixels."""
        return self.image.shape[1], self.image.shape[0]


@dataclass(frozen=True)
class PictureSet:
    title: str
    pictures: tuple[Picture, ...]

    def picture(self, title: str) -> Picture:
        for picture in self.pictures:
            if picture.title == title:
                return picture
        raise KeyError(f"The set {self.title!r} has no picture called {title!r}.")


def check_image(image: np.ndarray, what: str = "photo") -> None:
    """Raise ValueError unless `image` is a BGR uint8 array of a usable size."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise ValueError(f"The {what} must be a uint8 image array.")
    if image.ndim != 3 or image.shape[2] != 3:
        raise ValueError(f"The {what} must be a colour (BGR) image, height × width × 3.")
    if min(image.shape[:2]) < 32:
        raise ValueError(f"The {what} is too small to check ({image.shape[1]} × "
                         f"{image.shape[0]} pixels).")


def rectify(photo: np.ndarray, corners: Sequence[Sequence[float]]) -> np.ndarray:
    """The quadrilateral `corners` (top-left, top-right, bottom-right, bottom-left, in photo
    pixels) straightened into a rectangle whose sides are the mean lengths of the opposite
    sides, scaled so the long side is PICTURE_LONG_SIDE."""
    check_image(photo)
    quad = np.asarray(corners, np.float32)
    if quad.shape != (4, 2) or not np.isfinite(quad).all():
        raise ValueError("Mark exactly four corners: top-left, top-right, bottom-right, "
                         "bottom-left.")
    width = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    height = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    # the signed area is positive only for corners in the order asked for, not crossed
    x, y = quad[:, 0], quad[:, 1]
    area = 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y))
    if min(width, height) < 16 or area < 0.25 * width * height:
        raise ValueError("The four corners do not outline a picture: mark top-left, "
                         "top-right, bottom-right, bottom-left.")
    scale = PICTURE_LONG_SIDE / max(width, height)
    size = (round(width * scale), round(height * scale))
    target = np.float32([[0, 0], [size[0], 0], [size[0], size[1]], [0, size[1]]])
    return cv2.warpPerspective(photo, cv2.getPerspectiveTransform(quad, target), size,
                               flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC,
                               borderMode=cv2.BORDER_REPLICATE)


def sift(features: int) -> cv2.SIFT:
    return cv2.SIFT_create(nfeatures=features, contrastThreshold=CONTRAST_THRESHOLD)


def feature_grey(image: np.ndarray) -> np.ndarray:
    """The grey image features are found on (see FEATURES_VERSION)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    return cv2.createCLAHE(CLAHE_CLIP, (CLAHE_TILES, CLAHE_TILES)).apply(grey)


def describe(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """SIFT keypoint positions and descriptors of a picture-sized image."""
    keypoints, descriptors = sift(MAX_FEATURES).detectAndCompute(feature_grey(image), None)
    if descriptors is None:
        return np.zeros((0, 2), np.float32), np.zeros((0, 128), np.float32)
    return np.float32([k.pt for k in keypoints]), descriptors.astype(np.float32)


def make_picture(title: str, image: np.ndarray) -> Picture:
    """A picture from an already straight image (an imported picture file)."""
    check_image(image, "picture")
    scale = PICTURE_LONG_SIDE / max(image.shape[:2])
    if abs(scale - 1) > 1e-3:
        image = cv2.resize(image, None, fx=scale, fy=scale,
                           interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC)
    points, descriptors = describe(image)
    return Picture(title, image, points, descriptors)


def picture_from_cover(title: str, photo: np.ndarray,
                       corners: Sequence[Sequence[float]]) -> Picture:
    """A picture from a box-cover photo and the four corners the user marked."""
    return make_picture(title, rectify(photo, corners))


def picture_to_bytes(picture: Picture) -> bytes:
    """npz bytes holding the image (PNG-encoded), keypoints and descriptors, and the title."""
    ok, png = cv2.imencode(".png", picture.image)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, title=np.array(picture.title), image=png,
                        features=np.array(FEATURES_VERSION),
                        points=picture.points, descriptors=picture.descriptors.astype(np.float16))
    return buffer.getvalue()


def picture_from_bytes(data: bytes) -> Picture:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as stored:
            image = cv2.imdecode(stored["image"], cv2.IMREAD_COLOR)
            points = stored["points"].astype(np.float32)
            descriptors = stored["descriptors"].astype(np.float32)
            title = str(stored["title"])
            current = "features" in stored and int(stored["features"]) == FEATURES_VERSION
    except Exception:  # zip, npz and key errors all mean the same: not a stored picture
        raise ValueError("These bytes are not a stored Tableau picture.") from None
    if image is None or points.shape[0] != descriptors.shape[0]:
        raise ValueError("The stored Tableau picture is damaged.")
    if not current:
        points, descriptors = describe(image)
    return Picture(title, image, points, descriptors)


def load_picture(path: str | Path) -> Picture:
    """A picture from a file: a stored picture (.npz) or a straight picture image."""
    path = Path(path)
    if path.suffix.lower() == ".npz":
        try:
            return picture_from_bytes(path.read_bytes())
        except OSError as error:
            raise ValueError(f"Cannot open the picture: {error.strerror or error}.") from None
    return make_picture(path.stem, load_photo(path))
