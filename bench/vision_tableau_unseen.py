"""Bench of the Tableau photo checks on photos from a second, independent renderer (issue 7).

`python bench/vision_tableau_unseen.py [--fits 70] [--counts 20] [--first-seed 0]
[--size random|4000x3000] [--samples /tmp/t-unseen] [--verbose]`. The photos come from
tests/vision/render_jigsaw_unseen.py: pictures, piece shapes, tables and light the checks were
never tuned on; each picture is added as a user would, from a rendered box-cover photo and its
four marked corners. Prints the same figures as bench/vision_tableau.py (its Tally: decode +
check on one core, exactly as the app runs them): false-accept rate, rotated false-accept rate,
true-accept rate, unsure rate, exact-count rate, wrong pieces counted right, per-case results
and times (and the 12-megapixel photos' own median); then the errors broken down by each
photo's conditions (fit case, picture, picture kind, piece shape, surface, light, tilt, blur,
JPEG, size, cut line) and, for counts, by the way each cell was wrong. With --samples, the
first two fit photos and the first two count photos are saved there with the checks'
annotated verdicts.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported first: it pins the maths libraries to one thread before numpy and OpenCV load.
from bench.vision_tableau import (  # noqa: E402, I001
    MEMORY_PHOTOS,
    Clock,
    Tally,
    pictures_for,
    print_memory,
    print_times,
)

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.vision import render_jigsaw_unseen as unseen  # noqa: E402
from vision.jigsaw import annotate_count, annotate_fit  # noqa: E402
from vision.photo import decode_photo  # noqa: E402
from vision.pictures import Picture  # noqa: E402

PICTURE_SEED = 700_000  # the box-cover photos' seeds
COUNT_SEEDS = 100_000  # count photos' seeds start this far after the fits'
SAMPLES = 2  # of each kind


def save_sample(folder: Path, name: str, jpeg: bytes, annotated: np.ndarray) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.jpg").write_bytes(jpeg)
    scale = 1600 / max(annotated.shape[:2])
    cv2.imwrite(str(folder / f"{name}-checked.png"),
                cv2.resize(annotated, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))


def fit_tally(case: str, outcome: str, reason_right: bool) -> Counter:
    """One fit photo's contribution to a breakdown row."""
    tally = Counter(photos=1, unsure=outcome == "unsure", reason=reason_right)
    if case == "fit":
        tally.update(fits=1, accepted=outcome == "accept")
    else:
        tally.update(non_fits=1, false_accepts=outcome == "accept")
    return tally


def print_fit_breakdown(table: dict[str, dict[str, Counter]]) -> None:
    print("\nfit errors by the photo's conditions (false accepts of the non-fits, true accepts "
          "of the fits, unsure and expected reasons of all)")
    print(f"  {'condition':<32}{'photos':>7}{'false acc':>12}{'true acc':>12}{'unsure':>9}"
          f"{'reason ok':>11}")
    for factor, levels in table.items():
        for level, t in sorted(levels.items()):
            print(f"  {factor + ': ' + level:<32}{t['photos']:>7}"
                  f"{t['false_accepts']:>6}/{t['non_fits']:<5}{t['accepted']:>6}/{t['fits']:<5}"
                  f"{t['unsure']:>9}{t['reason']:>7}/{t['photos']:<3}")


def print_count_breakdown(table: dict[str, dict[str, Counter]], cells: Counter) -> None:
    print("\ncount errors by the photo's conditions (exact: right count; over: wrong or missing "
          "pieces counted right)")
    print(f"  {'condition':<32}{'photos':>7}{'exact':>9}{'split':>9}{'over':>7}")
    for factor, levels in table.items():
        for level, t in sorted(levels.items()):
            print(f"  {factor + ': ' + level:<32}{t['photos']:>7}{t['exact']:>5}/{t['photos']:<3}"
                  f"{t['split']:>5}/{t['photos']:<3}{t['over']:>7}")
    print("cells by their truth: counted right / wrong / missing")
    for fault in ("right", *unseen.FAULTS):
        print(f"  {fault:<16}{cells[fault, 'right']:>6}{cells[fault, 'wrong']:>6}"
              f"{cells[fault, 'missing']:>6}   of {cells[fault]}")


def photo_size(text: str) -> tuple[int, int] | None:
    return None if text == "random" else tuple(int(v) for v in text.split("x"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fits", type=int, default=70)
    parser.add_argument("--counts", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--size", default="random",
                        help="'random' (phone sizes from 1 to 12 MP) or WIDTHxHEIGHT")
    parser.add_argument("--samples", type=Path, default=None,
                        help="save the first two fit and count photos, checked, in this folder")
    parser.add_argument("--verbose", action="store_true")
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    size = photo_size(arguments.size)
    names = unseen.UNSEEN_PICTURES
    pictures = pictures_for(names, PICTURE_SEED, unseen.cover_photo)
    tally = Tally(Clock(profile=False))
    kept: dict[str, list] = {"fit": [], "count": []}
    twelve_mp: list[int] = []  # which timed photos had 12 megapixels

    def note(kind: str, photo: unseen.FitPhoto | unseen.CountPhoto, picture: Picture) -> None:
        """After a photo is timed: keep it for the memory figures if among the first of its
        kind, and mark it if it has 12 megapixels."""
        if len(kept[kind]) < MEMORY_PHOTOS:
            kept[kind].append((photo.jpeg, picture))
        if photo.size[0] * photo.size[1] >= 11e6:
            twelve_mp.append(len(tally.clock.wall) - 1)

    by_fit: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    for index in range(arguments.fits):
        case = unseen.FIT_CASES[index % len(unseen.FIT_CASES)]
        photo = unseen.fit_photo(names, case, arguments.first_seed + index, size)
        picture = pictures[photo.picture]
        verdict, outcome = tally.fit(photo.jpeg, picture, case)
        note("fit", photo, picture)
        row = fit_tally(case, outcome, verdict.reason == unseen.EXPECTED_REASON[case])
        for factor, level in {"case": case, **photo.conditions}.items():
            by_fit[factor][level] += row
        if arguments.samples and index < SAMPLES:
            save_sample(arguments.samples, f"fit-{index}-{case}", photo.jpeg,
                        annotate_fit(decode_photo(photo.jpeg), verdict))
        if arguments.verbose:
            print(f"fit {index:4d} {case:16s} {photo.picture:12s} -> {verdict.reason:18s} "
                  f"{verdict.confidence:.2f} {dict(photo.conditions)}", flush=True)
    by_count: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    cells: Counter = Counter()
    for index in range(arguments.counts):
        photo = unseen.count_photo(names, arguments.first_seed + COUNT_SEEDS + index, size)
        picture = pictures[photo.picture]
        count, over = tally.count(photo.jpeg, picture, photo.cells)
        note("count", photo, picture)
        seen = [state for row in count.cells for state in row]
        cells.update(photo.faults)
        cells.update(zip(photo.faults, seen, strict=True))
        row = Counter(photos=1, exact=count.right == photo.right, over=over,
                      split=(count.right, count.wrong, count.missing)
                      == (photo.right, photo.wrong, photo.missing))
        for factor, level in photo.conditions.items():
            by_count[factor][level] += row
        if arguments.samples and index < SAMPLES:
            save_sample(arguments.samples, f"count-{index}", photo.jpeg,
                        annotate_count(decode_photo(photo.jpeg), count))
        if arguments.verbose:
            print(f"count {index:3d} {photo.picture:12s} truth r{photo.right:2d} "
                  f"w{photo.wrong:2d} m{photo.missing:2d} -> r{count.right:2d} "
                  f"w{count.wrong:2d} m{count.missing:2d} {dict(photo.conditions)}", flush=True)
    print(f"unseen renderer: {arguments.fits} fit photos, {arguments.counts} count photos, "
          f"seeds from {arguments.first_seed}, size {arguments.size}; pictures "
          f"{', '.join(names)}")
    tally.print_figures()
    print_times(tally.clock, arguments.fits, arguments.counts)
    if twelve_mp:
        wall, cpu = (np.array(times)[twelve_mp] for times in (tally.clock.wall, tally.clock.cpu))
        print(f"time per 12 MP photo, decode included ({len(twelve_mp)} of them, fits and "
              f"counts): median {np.median(wall):.3f} s, p90 {np.percentile(wall, 90):.3f} s; "
              f"CPU median {np.median(cpu):.3f} s, p90 {np.percentile(cpu, 90):.3f} s")
    print_memory(kept)
    print_fit_breakdown(by_fit)
    print_count_breakdown(by_count, cells)


if __name__ == "__main__":
    main()
