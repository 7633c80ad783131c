"""Tableau count: how far the grid count_pieces lays on the rectangle is from the true one (issue 7).

    .venv/bin/python bench/vision_count_grid.py [--first-seed 3000] [--counts 20] [--seeds ...]
                                                [--off 0.3]

Counts the unseen renderer's count photos (tests/vision/render_jigsaw_unseen.py, the seeds of
bench/vision_tableau_unseen.py: first seed + 100000 .., or the count seeds given) and measures,
for each cell, where the centre of the found grid's cell lies in the picture under the photo's
true placement (the renderer's camera, the rectangle's placement on the table and its pieces'
spread), in cells from the cell's true centre: about 3 for a grid turned 180° and about 1 for
one turned 90° or a cell off. Prints per photo the largest and median offset and the right
pieces counted wrong, each with its cell's offset; then the right pieces by the offset of
their cell: a cell lost under a grid within a few hundredths of a cell is lost by its reading,
not by the grid.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported first: it pins the maths libraries to one thread before numpy and OpenCV load.
from bench.vision_tableau import pictures_for  # noqa: E402, I001
from bench.vision_tableau_unseen import COUNT_SEEDS, PICTURE_SEED  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.vision import render_jigsaw_unseen as unseen  # noqa: E402
from vision.jigsaw import COUNT_DECODE_SIDE, GRID, count_pieces  # noqa: E402
from vision.matching import projective  # noqa: E402
from vision.photo import decode_photo  # noqa: E402

BANDS = (0.05, 0.1, 0.2, 0.3)  # (cells) upper ends of the offset bands tallied; beyond: the last


def picture_to_photo(photo: unseen.CountPhoto) -> np.ndarray:
    """3 × 3: picture coordinates → photo pixels, as the renderer laid the rectangle (its
    pieces spread about the picture's middle) and the camera saw it."""
    spread, middle = photo.layout.spread, np.array(unseen.PICTURE_SIZE) / 2
    spreading = np.array([[spread, 0, middle[0] * (1 - spread)],
                          [0, spread, middle[1] * (1 - spread)], [0, 0, 1]])
    return photo.homography @ np.vstack([photo.layout.base, (0, 0, 1)]) @ spreading


def cell_offsets(photo: unseen.CountPhoto, grid: np.ndarray) -> np.ndarray:
    """(16,) how far (cells) each cell's centre on `grid` (photo corners, row by row) lies
    from its true centre, the larger of its offsets across and down the picture."""
    centres = np.float64([[(col + 0.5) / GRID, (row + 0.5) / GRID]
                          for row in range(GRID) for col in range(GRID)])
    found = projective(grid, centres)
    in_picture = cv2.perspectiveTransform(found[None], np.linalg.inv(picture_to_photo(photo)))[0]
    cell = np.array(unseen.PICTURE_SIZE) / GRID
    return np.abs(in_picture / cell - centres * GRID).max(axis=1)


def add_photo_arguments(parser: argparse.ArgumentParser) -> None:
    """The count benches' choice of photos: a set (--first-seed, --counts) or --seeds."""
    parser.add_argument("--first-seed", type=int, default=3000)
    parser.add_argument("--counts", type=int, default=20)
    parser.add_argument("--seeds", type=int, nargs="*",
                        help="count photo seeds (e.g. 109009) instead of a set")


def count_photos(arguments: argparse.Namespace
                 ) -> Iterator[tuple[int, unseen.CountPhoto, np.ndarray, object]]:
    """Each count photo `arguments` name (add_photo_arguments): its seed, the photo, the photo
    decoded as the benches count it, and its picture."""
    names = unseen.UNSEEN_PICTURES
    pictures = pictures_for(names, PICTURE_SEED, unseen.cover_photo)
    for seed in arguments.seeds or [arguments.first_seed + COUNT_SEEDS + index
                                    for index in range(arguments.counts)]:
        photo = unseen.count_photo(names, seed)
        yield seed, photo, decode_photo(photo.jpeg, COUNT_DECODE_SIDE), pictures[photo.picture]


def band_of(offset: float) -> str:
    upper = next((band for band in BANDS if offset <= band), None)
    return f"<= {upper:.2f}" if upper is not None else f"> {BANDS[-1]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_photo_arguments(parser)
    parser.add_argument("--off", type=float, default=0.3,
                        help="(cells) a cell's grid this far off is listed as off")
    arguments = parser.parse_args()
    by_band: Counter = Counter()
    for seed, photo, decoded, picture in count_photos(arguments):
        count = count_pieces(decoded, picture)
        states = [state for row in count.cells for state in row]
        right = [cell for cell, truth in enumerate(photo.cells) if truth == "right"]
        lost = [cell for cell in right if states[cell] != "right"]
        if not count.grid:  # no rectangle placed: every right piece is lost, off by any measure
            by_band["no grid", "lost"] += len(lost)
            print(f"{seed}: no grid; right {len(right)}, lost {len(lost)}", flush=True)
            continue
        # the grid is given in the decoded photo's pixels: the photo scaled down when decoded
        offsets = cell_offsets(photo, np.float64(count.grid) * photo.size[0] / decoded.shape[1])
        for cell in right:
            by_band[band_of(offsets[cell]), "lost" if cell in lost else "kept"] += 1
        off = [f"c{cell} {offsets[cell]:.2f}" for cell in lost]
        print(f"{seed}: grid off max {offsets.max():.2f} median {np.median(offsets):.2f} cells; "
              f"right {len(right)}, lost {len(lost)}" + (f": {', '.join(off)}" if off else "")
              + ("  <- grid off" if offsets.max() > arguments.off else ""), flush=True)
    print("right pieces by their cell's grid offset (cells): counted right / counted wrong")
    for band in [band_of(upper) for upper in BANDS] + [band_of(np.inf), "no grid"]:
        print(f"  {band:10s}{by_band[band, 'kept']:6d}{by_band[band, 'lost']:6d}")


if __name__ == "__main__":
    main()
