"""Tableau photo checks on rendered table photos: accuracy against the issue's targets, and time.

    .venv/bin/python bench/vision_tableau.py [--set held-out|tune] [--fits 140] [--counts 60]
                                             [--size 4000x3000] [--seed 0] [--profile]

Renders (tests/vision/render_jigsaw.py) two-piece photos for every fit case and 4 × 4
rectangles with 0-16 wrong or missing pieces, encodes them as JPEG, and times decode_photo +
check_fit / count_pieces on one core, exactly as the app and the CLI run them (decoded at
vision.jigsaw.FIT_DECODE_SIDE / COUNT_DECODE_SIDE). The picture each check is made against is
itself made the way a user would: a rendered box-cover photo, rectified from four marked
corners. The held-out set uses pictures and surfaces the reader was not tuned on, and other
seeds.
Prints rates with their counts, per-case results, the reasons refused non-fits were given by
case (a confusion table: the players see the reason), median and p90 time, and peak memory: traced
(tracemalloc) on a few photos after the timed run, since tracing slows every allocation, and the
process's peak resident size. --profile adds where the CPU time went (cProfile, CPU clock).
"""

from __future__ import annotations

import os

for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[variable] = "1"

import argparse  # noqa: E402
import collections  # noqa: E402
import cProfile  # noqa: E402
import pstats  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import tracemalloc  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.vision import render_jigsaw as render  # noqa: E402
from vision.jigsaw import (  # noqa: E402
    COUNT_DECODE_SIDE,
    FIT_DECODE_SIDE,
    FitVerdict,
    PieceCount,
    check_fit,
    count_pieces,
)
from vision.photo import decode_photo  # noqa: E402
from vision.pictures import Picture, picture_from_cover  # noqa: E402

cv2.setNumThreads(1)
# the reasons a refusal can give, in the order of the rendered cases that should get them
REFUSAL_REASONS = ("wrong-orientation", "not-neighbours", "not-full-side", "wrong-picture")
SETS = {"tune": (render.TUNE_PICTURES, render.TUNE_SURFACES, 0),
        "held-out": (render.HELD_OUT_PICTURES, render.HELD_OUT_SURFACES, 500_000)}


def pictures_for(names: tuple[str, ...], seed: int,
                 cover_photo=render.cover_photo) -> dict[str, Picture]:
    """Each picture as a user adds it: a box-cover photo rectified from its marked corners."""
    made = {}
    for offset, name in enumerate(names):
        jpeg, corners = cover_photo(name, seed + offset)
        made[name] = picture_from_cover(name, decode_photo(jpeg), corners)
    return made


MEMORY_PHOTOS = 3  # photos of each kind run again under tracemalloc for the peak


def checked_fit(jpeg: bytes, picture: Picture):
    """What a user's photo goes through: decode (no larger than needed), then check."""
    return check_fit(decode_photo(jpeg, FIT_DECODE_SIDE), picture)


def counted(jpeg: bytes, picture: Picture):
    return count_pieces(decode_photo(jpeg, COUNT_DECODE_SIDE), picture)


class Clock:
    """Wall and CPU time per call, and the calls' CPU profile when asked for."""

    def __init__(self, profile: bool) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []  # the machine may be shared: wall time then inflates
        self.profile = cProfile.Profile(time.process_time) if profile else None

    def run(self, function, *arguments):
        if self.profile:
            self.profile.enable()
        started, cpu_started = time.perf_counter(), time.process_time()
        result = function(*arguments)
        self.wall.append(time.perf_counter() - started)
        self.cpu.append(time.process_time() - cpu_started)
        if self.profile:
            self.profile.disable()
        return result


def traced_peak(function, *arguments) -> int:
    """Peak bytes allocated by one call (tracemalloc: numpy and OpenCV arrays included)."""
    tracemalloc.start()
    try:
        function(*arguments)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def rate(part: int, whole: int) -> str:
    return f"{part / whole:6.1%} ({part}/{whole})" if whole else "   n/a"


def scored(right: int, wrong: int, missing: int, cells: tuple[tuple[str, ...], ...],
           truth: tuple[str, ...]) -> collections.Counter:
    """One count's figures against its true cells (row by row): the right count exact, the
    split exact, wrong or missing pieces counted right (the player is undercharged, T6), and
    right pieces counted right (shared with bench/vision_count_paired.py)."""
    pairs = list(zip((state for row in cells for state in row), truth, strict=True))
    return collections.Counter({
        "exact": int(right == truth.count("right")),
        "exact split": int((right, wrong, missing)
                           == tuple(truth.count(state) for state in ("right", "wrong", "missing"))),
        "undercharged cells": sum(got == "right" != true for got, true in pairs),
        "right cells counted right": sum(got == true == "right" for got, true in pairs),
        "right cells": truth.count("right"),
    })


@dataclass
class Tally:
    """What a bench run gathers, fits then counts, on the clock: verdicts per case and count
    outcomes (shared with bench/vision_tableau_unseen.py, which renders its photos otherwise)."""

    clock: Clock
    per_case: dict[str, collections.Counter] = field(
        default_factory=lambda: collections.defaultdict(collections.Counter))
    counts: collections.Counter = field(default_factory=collections.Counter)
    # (case, reason) of every non-fit refused: does the reason the players see match the case?
    refused: collections.Counter = field(default_factory=collections.Counter)

    def fit(self, jpeg: bytes, picture: Picture, case: str) -> tuple[FitVerdict, str]:
        """Check one fit photo; its verdict and outcome (accept, reject or unsure)."""
        verdict = self.clock.run(checked_fit, jpeg, picture)
        outcome = ("unsure" if verdict.fit is None else "accept" if verdict.fit else "reject")
        self.per_case[case][outcome] += 1
        self.per_case[case]["reason-right"] += verdict.reason == render.EXPECTED_REASON[case]
        if verdict.fit is False and case != "fit":
            self.refused[case, verdict.reason] += 1
        return verdict, outcome

    def count(self, jpeg: bytes, picture: Picture,
              cells: tuple[str, ...]) -> tuple[PieceCount, int]:
        """Count one rectangle against its true cells; the count and how many wrong or missing
        pieces it counted right."""
        count = self.clock.run(counted, jpeg, picture)
        score = scored(count.right, count.wrong, count.missing, count.cells, cells)
        tally = self.counts
        tally.update(score)
        tally["photos"] += 1
        tally["unsure"] += not count.sure
        tally["undercharged photos"] += score["undercharged cells"] > 0
        return count, score["undercharged cells"]

    def print_figures(self) -> None:
        per_case, counts = self.per_case, self.counts
        fits = per_case["fit"]
        non_fit = [c for c in render.FIT_CASES if c != "fit"]
        non_total = sum(sum(per_case[c][o] for o in ("accept", "reject", "unsure"))
                        for c in non_fit)
        fit_total = sum(fits[o] for o in ("accept", "reject", "unsure"))
        all_unsure = sum(per_case[c]["unsure"] for c in render.FIT_CASES)
        rotated = per_case["rotated"]
        print(f"false accepts (non-fit called fit):  "
              f"{rate(sum(per_case[c]['accept'] for c in non_fit), non_total)}"
              "   target <= 0.5%")
        print(f"false accepts on rotated pieces:     "
              f"{rate(rotated['accept'], sum(rotated[o] for o in ('accept', 'reject', 'unsure')))}"
              "   target <= 0.1%")
        print(f"true accepts (fit called fit):       {rate(fits['accept'], fit_total)}"
              "   target >= 98%")
        print(f"unsure (all fit photos):             {rate(all_unsure, non_total + fit_total)}"
              "   target <= 3%")
        print(f"exact counts (right, so 16 - right): {rate(counts['exact'], counts['photos'])}"
              "   target >= 95%")
        print(f"exact right/wrong/missing split:     "
              f"{rate(counts['exact split'], counts['photos'])}")
        print(f"counts with no rectangle placed:     {rate(counts['unsure'], counts['photos'])}")
        print(f"over-counted right (T6 undercharge): "
              f"{rate(counts['undercharged photos'], counts['photos'])} of counts, "
              f"{counts['undercharged cells']} cells   target 0")
        print("per case: accept / reject / unsure / reason as expected")
        for case in render.FIT_CASES:
            tally = per_case[case]
            print(f"  {case:16s} {tally['accept']:4d} {tally['reject']:4d} {tally['unsure']:4d}"
                  f" {tally['reason-right']:4d}")
        self.print_reasons()

    def print_reasons(self) -> None:
        """The non-fits refused, by case (rows) and the reason given (columns)."""
        right = sum(n for (case, reason), n in self.refused.items()
                    if reason == render.EXPECTED_REASON[case])
        print(f"reasons of the refused non-fits (as expected: "
              f"{rate(right, sum(self.refused.values()))}); rows the case, columns the reason")
        print(f"  {'':16s}" + "".join(f"{reason:>18s}" for reason in REFUSAL_REASONS))
        for case in (c for c in render.FIT_CASES if c != "fit"):
            print(f"  {case:16s}" + "".join(f"{self.refused[case, reason]:>18d}"
                                             for reason in REFUSAL_REASONS))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--set", choices=SETS, default="held-out")
    parser.add_argument("--fits", type=int, default=140)
    parser.add_argument("--counts", type=int, default=60)
    parser.add_argument("--size", default="4000x3000")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--profile", action="store_true",
                        help="print where the CPU time went (times then include cProfile)")
    arguments = parser.parse_args()
    names, surfaces, base_seed = SETS[arguments.set]
    base_seed += arguments.seed
    size = tuple(int(v) for v in arguments.size.split("x"))
    render_scale = min(1.0, 1400 / size[0])  # draw at about 1400 px wide, then resize
    pictures = pictures_for(names, base_seed)
    tally = Tally(Clock(arguments.profile))
    kept: dict[str, list[tuple[bytes, Picture]]] = {"fit": [], "count": []}
    for index in range(arguments.fits):
        case = render.FIT_CASES[index % len(render.FIT_CASES)]
        photo = render.fit_photo(names, surfaces, case, base_seed + index, size, render_scale)
        verdict, _ = tally.fit(photo.jpeg, pictures[photo.picture], case)
        if len(kept["fit"]) < MEMORY_PHOTOS:
            kept["fit"].append((photo.jpeg, pictures[photo.picture]))
        if arguments.verbose:
            print(f"fit {index:4d} {case:16s} {photo.picture:22s} -> {verdict.reason:18s} "
                  f"{verdict.confidence:.2f}", flush=True)
    for index in range(arguments.counts):
        photo = render.count_photo(names, surfaces, base_seed + 100_000 + index, size,
                                   render_scale)
        count, _ = tally.count(photo.jpeg, pictures[photo.picture], photo.cells)
        if len(kept["count"]) < MEMORY_PHOTOS:
            kept["count"].append((photo.jpeg, pictures[photo.picture]))
        if arguments.verbose:
            print(f"count {index:3d} {photo.picture:22s} truth r{photo.right:2d} "
                  f"w{photo.wrong:2d} m{photo.missing:2d} -> r{count.right:2d} "
                  f"w{count.wrong:2d} m{count.missing:2d}", flush=True)
    print(f"set: {arguments.set} ({', '.join(names)}; surfaces {', '.join(surfaces)}), "
          f"photos {size[0]}x{size[1]}, seed {base_seed}")
    tally.print_figures()
    print_times(tally.clock, arguments.fits, arguments.counts)
    print_memory(kept)
    if tally.clock.profile:
        print("CPU profile of the timed calls (cProfile, CPU clock), top 20 by own time:")
        pstats.Stats(tally.clock.profile, stream=sys.stdout).sort_stats("tottime").print_stats(20)


def print_memory(kept: dict[str, list[tuple[bytes, Picture]]]) -> None:
    """Peak traced memory of a few photos of each kind, run again untimed, and the peak RSS."""
    peaks = {kind: max((traced_peak(run, *photo) for photo in kept[kind]), default=0)
             for kind, run in (("fit", checked_fit), ("count", counted))}
    print(f"peak traced memory, decode included (tracemalloc, {MEMORY_PHOTOS} photos each, "
          f"untimed): check_fit {peaks['fit'] / 2**20:.0f} MiB, count_pieces "
          f"{peaks['count'] / 2**20:.0f} MiB; peak resident size of the whole run "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


def print_times(clock: Clock, fits: int, counts: int) -> None:
    """Median and p90 wall and CPU time per photo: all, fits alone, counts alone."""
    for what, part in (("all photos", slice(None)), ("fits", slice(0, fits)),
                       ("counts", slice(fits, fits + counts))):
        wall, cpu = clock.wall[part], clock.cpu[part]
        if not wall:
            continue
        print(f"time per photo, decode included, one core ({what}, {len(wall)}): median "
              f"{np.median(wall):.3f} s, p90 {np.percentile(wall, 90):.3f} s, max "
              f"{max(wall):.3f} s; CPU median {np.median(cpu):.3f} s, p90 "
              f"{np.percentile(cpu, 90):.3f} s")
    profiled = " (under cProfile: slower)" if clock.profile else ""
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores{profiled}")


if __name__ == "__main__":
    main()
