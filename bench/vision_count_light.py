"""Tableau count: is a cell read far from its own cell because of the light it was read under? (issue 7)

    .venv/bin/python bench/vision_count_light.py [--first-seed 3000] [--counts 20] [--seeds ...]

Counts the unseen renderer's count photos (the seeds of bench/vision_tableau_unseen.py: first
seed + 100000 .., or the count seeds given) as the benches do, and for the reading the count
chose, when its grid lies within OFF cells of the true one, measures each present cell's
distance to its own cell (count._distances) under three lights: the light the count read it
under (count._relit from the other present cells), the light the truly right cells other
than itself alone would give (the renderer's truth picks them: never in the count), and no
relighting. Prints per photo the right and the wrong cells with their three distances and
their verdict, then how many right cells each light takes within NOISE and LOOKS_LIKE of
their own cell, and how many wrong cells it takes within NOISE (the danger: a wrong piece
lit into its cell's colours undercharges, T6). A right cell far under the read light but
near under the right cells' light is lost by the light; one far under both is not.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported first: it pins the maths libraries to one thread before numpy and OpenCV load.
from bench.vision_count_grid import (  # noqa: E402, I001
    add_photo_arguments,
    cell_offsets,
    count_photos,
)

import numpy as np  # noqa: E402

from vision import cells, count  # noqa: E402
from vision.jigsaw import GRID, LOOKS_LIKE  # noqa: E402

OFF = 0.3  # (cells) a chosen grid further than this from the true one is not measured
LIGHTS = ("read", "right cells", "none")


def read_with_light(photo: np.ndarray, picture) -> tuple[object, list[tuple]]:
    """count_pieces' result, and for each reading it made: the reading, the cells' bodies as
    sampled and whether each is present (what count._relit was given)."""
    readings: list[tuple] = []
    relit, read_cells = count._relit, count._read_cells
    given: dict = {}

    def recording_relit(bodies, bank, present):
        given.update(bodies=bodies, bank=bank, present=present)
        return relit(bodies, bank, present)

    def recording_read_cells(*arguments):
        given.clear()
        reading = read_cells(*arguments)
        if given:
            readings.append((reading, given["bodies"], given["bank"], given["present"]))
        return reading

    count._relit, count._read_cells = recording_relit, recording_read_cells
    try:
        result = count.count_pieces(photo, picture)
    finally:
        count._relit, count._read_cells = relit, read_cells
    return result, readings


def own_distance(body: cells.Body, bank: cells.Bank, index: int) -> tuple[float, str]:
    """The lit body's distance to its own cell and its verdict, as count._judge reads it alone
    (no cell holding its own piece, none vouched for by features)."""
    score = cells.scores(body, bank.turned)
    every = count._distances(score, index)
    verdict, mine = count._verdict(index, score, every, set(), count._distinct(bank, bank.turned),
                                   bank.texture >= count.STRUCTURED)
    return mine, verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_photo_arguments(parser)
    arguments = parser.parse_args()
    tally: Counter = Counter()
    for seed, photo, decoded, picture in count_photos(arguments):
        result, readings = read_with_light(decoded, picture)
        offsets = cell_offsets(photo, np.float64(result.grid) * photo.size[0] / decoded.shape[1]) \
            if result.grid else np.full(GRID * GRID, np.inf)
        got = [state for row in result.cells for state in row]
        print(f"{seed} {photo.picture} ({photo.conditions['light']}): truth r{photo.right} "
              f"w{photo.wrong} m{photo.missing}, counted r{result.right}, grid off "
              f"{offsets.max():.2f}", flush=True)
        if not readings or offsets.max() > OFF:
            print("  grid off or no reading: not measured")
            continue
        # the reading count_pieces chose, by its own key
        _, bodies, bank, present = max(readings, key=lambda r: (r[0].clear, -r[0].fitness))
        right = [truth == "right" for truth in photo.cells]
        lit = {"read": count._relit(bodies, bank, present), "none": bodies,
               "right cells": [count._relit(bodies, bank, [r and other != index for other, r
                                                           in enumerate(right)])[index]
                               for index in range(GRID * GRID)]}
        for index, truth in enumerate(photo.cells):
            if truth == "missing" or not present[index]:
                continue
            measured = {light: own_distance(lit[light][index], bank, index) for light in LIGHTS}
            print(f"  c{index:<2d} {truth:5s} counted {got[index]:7s}" + "".join(
                f" | {light} {mine:.3f} {verdict}" for light, (mine, verdict)
                in measured.items()))
            for light, (mine, _) in measured.items():
                tally[truth, light, "noise"] += mine <= count.NOISE
                tally[truth, light, "looks"] += mine <= LOOKS_LIKE
            tally[truth] += 1
    print(f"right cells measured {tally['right']}, wrong {tally['wrong']}")
    for light in LIGHTS:
        print(f"  {light:12s} right within NOISE {tally['right', light, 'noise']:4d}, within "
              f"LOOKS_LIKE {tally['right', light, 'looks']:4d}; wrong within NOISE "
              f"{tally['wrong', light, 'noise']:4d}")


if __name__ == "__main__":
    main()
