"""Tableau count: every grid a count reads, how far it lies from the true one, and what it counts (issue 7).

    .venv/bin/python bench/vision_count_turned.py [--first-seed 3000] [--counts 20]
                                                  [--seeds ...] [--anchors N]

Counts the unseen renderer's count photos (the seeds of bench/vision_tableau_unseen.py: first
seed + 100000 .., or the count seeds given) as the benches do and prints, per photo, every
reading count_pieces made (each grid it read: the features' placements, the straight border
under each turn) with its largest cell offset from the true grid (about 3 cells for a grid
turned 180°, 1 for one turned 90° or a cell off: bench/vision_count_grid.py), its cells
clearly their own (`clear`, which decides first), its fitness (which decides among equals),
the right pieces it counts right and the wrong or missing ones it counts right (T6
undercharge); the chosen one starred. Then, for the photos where both an upright grid (within
OFF of the true one) and one turned 180° were read, the best of each and the margin between
them. --anchors sets count.ANCHORS (the cells clearly right a reading needs before seams vouch
for its flat cells) to see what a reading would count without that rule; the choice of reading
does not depend on it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported first: it pins the maths libraries to one thread before numpy and OpenCV load.
from bench.vision_count_grid import (  # noqa: E402, I001
    add_photo_arguments,
    cell_offsets,
    count_photos,
)

import numpy as np  # noqa: E402

from vision import count  # noqa: E402

OFF = 0.5  # (cells) a grid within this of the true one lies upright
TURNED = (2.5, 3.5)  # (cells) a grid this far off lies turned 180°


def readings_of(photo: np.ndarray, picture) -> tuple[object, list, float]:
    """count_pieces' result, every reading it made and the work frame's scale (photo pixels
    per work pixel: readings' corners are in work pixels)."""
    readings, scenes = [], []
    read_cells, photo_scene = count._read_cells, count.photo_scene

    def recording_read_cells(*arguments):
        readings.append(read_cells(*arguments))
        return readings[-1]

    def recording_scene(*arguments):
        scenes.append(photo_scene(*arguments))
        return scenes[-1]

    count._read_cells, count.photo_scene = recording_read_cells, recording_scene
    try:
        result = count.count_pieces(photo, picture)
    finally:
        count._read_cells, count.photo_scene = read_cells, photo_scene
    return result, readings, scenes[-1].factor


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_photo_arguments(parser)
    parser.add_argument("--anchors", type=int, default=count.ANCHORS)
    arguments = parser.parse_args()
    count.ANCHORS = arguments.anchors
    twins = []
    for seed, photo, decoded, picture in count_photos(arguments):
        result, readings, factor = readings_of(decoded, picture)
        print(f"{seed} {photo.picture} ({photo.conditions['light']}): truth r{photo.right} "
              f"w{photo.wrong} m{photo.missing}, counted r{result.right}", flush=True)
        if not result.grid:
            continue
        # the readings of single pieces are replaced with fewer clear cells: the chosen one is
        # the reading on the grid returned
        to_photo = factor * photo.size[0] / decoded.shape[1]
        chosen = min(readings, key=lambda r: np.abs(r.corners * factor - result.grid).max())
        read = []
        for reading in (r for r in readings if np.isfinite(r.fitness)):
            off = float(cell_offsets(photo, reading.corners * to_photo).max())
            right = sum(got == "right" == truth for got, truth
                        in zip(reading.states, photo.cells, strict=True))
            under = sum(got == "right" != truth for got, truth
                        in zip(reading.states, photo.cells, strict=True))
            read.append((off, reading.clear, reading.fitness))
            print(f"  {'*' if reading is chosen else ' '} off {off:4.2f} clear {reading.clear:2d} "
                  f"fitness {reading.fitness:6.3f} right {right:2d} undercharge {under}")
        upright = [r for r in read if r[0] < OFF]
        turned = [r for r in read if TURNED[0] < r[0] < TURNED[1]]
        if upright and turned:
            best = [max(group, key=lambda r: (r[1], -r[2])) for group in (upright, turned)]
            twins.append((seed, photo.picture, *best))
    print("upright against turned 180° (best of each: clear, fitness; turned - upright):")
    for seed, picture, upright, turned in twins:
        print(f"  {seed} {picture:11s} upright c{upright[1]} {upright[2]:.3f}  turned "
              f"c{turned[1]} {turned[2]:.3f}  {turned[2] - upright[2]:+.3f}"
              + ("  TURNED CHOSEN" if (turned[1], -turned[2]) > (upright[1], -upright[2])
                 else ""))


if __name__ == "__main__":
    main()
