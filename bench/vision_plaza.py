"""Bench of the Plaza photo reader: accuracy on rendered photos and time per photo on one core.

`python bench/vision_plaza.py [--photos 100] [--first-seed 100000] [--typefaces held-out]
[--size 4000x3000]`. Prints per-card accuracy (colour and number both right), whole-photo exact
rate, unsure rate, wrong and extra cards, the legality verdicts, and the median and 95th
percentile of decode + read time per photo, with the decode alone as a baseline from the same
run. Seeds below 100000 are for tuning; the default report uses seeds from 100000 and the
typefaces held out from training and tuning. One photo in four is a hand, the rest Plazas.
"""

from __future__ import annotations

import os

for _variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_variable] = "1"

import argparse  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections import Counter  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.plaza_cards import check_layout  # noqa: E402
from tests.vision.render_plaza import (  # noqa: E402
    Photo,
    held_out_typefaces,
    render_photo,
    tuning_typefaces,
)
from vision.cards import HandReading, PlazaReading, read_hand, read_plaza  # noqa: E402
from vision.deck import DeckProfile  # noqa: E402
from vision.photo import decode_photo  # noqa: E402


def score(photo: Photo, reading: PlazaReading | HandReading) -> Counter:
    """Match each reported card to the true card under its centre, and count outcomes."""
    counts: Counter = Counter(cards=len(photo.cards))
    quads = [np.array(placed.corners, np.float32) for placed in photo.cards]
    taken: set[int] = set()

    def owner(corners) -> int | None:
        x, y = np.mean(corners, axis=0)
        for index, quad in enumerate(quads):
            if index not in taken and cv2.pointPolygonTest(quad, (float(x), float(y)),
                                                            False) >= 0:
                taken.add(index)
                return index
        return None

    for seen in reading.cards:
        index = owner(seen.corners)
        if index is None:
            counts["extra"] += 1
        elif photo.cards[index].card == seen.card:
            counts["right"] += 1
        else:
            counts["wrong"] += 1
            counts[f"wrong:{photo.cards[index].card}->{seen.card}"] += 1
    for unsure in reading.unsure:
        index = owner(unsure.corners)
        counts["unsure" if index is not None else "extra_unsure"] += 1
        if index is not None:
            counts[f"unsure:{photo.cards[index].card}"] += 1
    counts["missed"] = len(photo.cards) - len(taken)
    # Which cards went unread, for breakdowns by card (bench/vision_plaza_unseen.py).
    counts.update(f"missed:{placed.card}" for index, placed in enumerate(photo.cards)
                  if index not in taken)
    counts["exact"] = int(counts["right"] == len(photo.cards) and not counts["extra"]
                          and not counts["extra_unsure"])
    return counts


@dataclass
class Run:
    """What a bench run gathers: outcome counts, Plaza verdicts, and decode + read times."""

    totals: Counter = field(default_factory=Counter)
    verdicts: Counter = field(default_factory=Counter)
    decode_ms: list[float] = field(default_factory=list)
    read_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)

    def read(self, photo, hand: bool, deck: DeckProfile | None = None
             ) -> tuple[PlazaReading | HandReading, Counter, np.ndarray]:
        """Decode and read one rendered photo on the clock (with the `deck` profile, if any),
        score it, and tally it."""
        started, cpu_started = time.perf_counter(), time.thread_time()
        image = decode_photo(photo.jpeg)
        decoded = time.perf_counter()
        reading = read_hand(image, deck) if hand else read_plaza(image, deck)
        finished, cpu_finished = time.perf_counter(), time.thread_time()
        self.decode_ms.append((decoded - started) * 1000)
        self.read_ms.append((finished - started) * 1000)
        self.cpu_ms.append((cpu_finished - cpu_started) * 1000)
        counts = score(photo, reading)
        self.totals += counts
        if not hand:
            truth = check_layout(placed.card for placed in photo.cards).legal
            self.verdicts["photos"] += 1
            self.verdicts["warned"] += bool(reading.unsure)
            self.verdicts["verdict right"] += reading.legal == truth
            self.verdicts["verdict wrong"] += reading.legal != truth
            self.verdicts["wrong unwarned"] += reading.legal != truth and not reading.unsure
        return reading, counts, image

    def print_figures(self, photos: int) -> None:
        totals, verdicts, read_ms = self.totals, self.verdicts, self.read_ms
        cards = totals["cards"]
        print(f"per-card accuracy (colour and number right): {totals['right'] / cards:.4f}")
        print(f"whole-photo exact rate: {totals['exact'] / photos:.4f}")
        print(f"unsure rate: {totals['unsure'] / cards:.4f}   wrong: {totals['wrong'] / cards:.4f}"
              f"   missed: {totals['missed'] / cards:.4f}   extra cards: {totals['extra']}, "
              f"extra unsure: {totals['extra_unsure']}")
        print(f"plaza verdicts: {verdicts['verdict right']} right, "
              f"{verdicts['verdict wrong']} wrong ({verdicts['wrong unwarned']} of them "
              f"without an unreadable-cards warning), {verdicts['warned']} warned "
              f"of {verdicts['photos']}")
        print(f"time per photo, decode + read, one core: median {np.median(read_ms):.0f} ms, "
              f"p95 {np.percentile(read_ms, 95):.0f} ms (decode alone: median "
              f"{np.median(self.decode_ms):.0f} ms, "
              f"ratio {np.median(read_ms) / np.median(self.decode_ms):.1f}x)")
        # Wall time suffers when other work shares the cores; the thread's own CPU time does not.
        print(f"CPU time per photo, decode + read: median {np.median(self.cpu_ms):.0f} ms, "
              f"p95 {np.percentile(self.cpu_ms, 95):.0f} ms (load average over the last minute "
              f"at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")


def error_details(counts: Counter) -> dict[str, int]:
    return {k: v for k, v in counts.items() if k.startswith("wrong:") or
            k in ("missed", "extra", "unsure", "extra_unsure") and v}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=100)
    parser.add_argument("--first-seed", type=int, default=100_000)
    parser.add_argument("--typefaces", choices=("held-out", "tuning"), default="held-out")
    parser.add_argument("--size", default="4000x3000")
    parser.add_argument("--show-errors", action="store_true")
    arguments = parser.parse_args()
    cv2.setNumThreads(1)
    size = tuple(int(v) for v in arguments.size.split("x"))
    typefaces = held_out_typefaces() if arguments.typefaces == "held-out" else tuning_typefaces()
    run = Run()
    for index in range(arguments.photos):
        seed = arguments.first_seed + index
        hand = index % 4 == 3
        photo = render_photo(seed, hand=hand, size=size, typefaces=typefaces)
        _, counts, _ = run.read(photo, hand)
        if arguments.show_errors and not counts["exact"]:
            print(f"  seed {seed} {'hand' if hand else 'plaza'} {photo.deck.typeface.name} "
                  f"{photo.deck.artwork}: {error_details(counts)}", flush=True)
    print(f"photos: {arguments.photos} ({arguments.typefaces} typefaces, seeds "
          f"{arguments.first_seed}..{arguments.first_seed + arguments.photos - 1}, "
          f"{size[0]}x{size[1]}), cards: {run.totals['cards']}")
    run.print_figures(arguments.photos)
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB")


if __name__ == "__main__":
    main()
