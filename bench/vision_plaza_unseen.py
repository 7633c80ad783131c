"""Bench of the Plaza photo reader on photos from a second, independent renderer (issue 6).

`python bench/vision_plaza_unseen.py [--photos 60] [--first-seed 0] [--size random|4000x3000]
[--samples /tmp/p-unseen] [--show-errors] [--calibrated]`. The photos come from
tests/vision/render_plaza_unseen.py: decks, typefaces, surfaces and light the reader was never
trained or tuned on. Prints the same figures as bench/vision_plaza.py (scored by its score()):
per-card accuracy, whole-photo exact rate, unsure, wrong, missed and extra cards, the legality
verdicts, decode + read time on one core (all photos, and the 12-megapixel ones alone); then
the errors broken down by the conditions of each photo (typeface, artwork, surface, light,
tilt, blur, size, ...), by the card (colour, number, turned, its height in pixels) and by kind
of misreading. One photo in four is a hand; the Plazas alternate legal and illegal. With
--samples, the first four photos and their annotated readings are saved there. Without the
fonts (see MISSING_FONTS) it says so and exits cleanly.

With --calibrated, each photo's deck is also photographed whole, laid out as a full Plaza (its
own light, table and camera: render_full_deck), the reader learns it (vision.deck.learn_deck)
and reads the photo again with that profile: the figures are printed for both readings, the
breakdowns for the calibrated one, and every photo whose outcome changed is listed.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# Imported first: it pins the maths libraries to one thread before numpy and OpenCV load.
from bench.vision_plaza import Run, error_details  # noqa: E402, I001

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from tests.vision.render_plaza_unseen import (  # noqa: E402
    MISSING_FONTS,
    height_bucket,
    height_px,
    render_full_deck,
    render_photo,
    unseen_typefaces,
)
from vision.cards import annotate  # noqa: E402
from vision.deck import DeckError, DeckProfile, learn_deck  # noqa: E402
from vision.photo import decode_photo  # noqa: E402

OUTCOMES = ("right", "unsure", "wrong", "missed")
DECK_PHOTO_SEEDS = 500_000  # the deck photo of photo seed s is rendered from seed s + this


def learnt_deck(seed: int, photo, learn_cpu_ms: list[float]) -> DeckProfile | None:
    """The profile learnt from a full-deck photo of `photo`'s deck (None, saying why, when the
    reader cannot learn it); its CPU time is appended to `learn_cpu_ms`."""
    deck_photo = render_full_deck(photo.deck, seed + DECK_PHOTO_SEEDS)
    started = time.thread_time()
    try:
        return learn_deck(decode_photo(deck_photo.jpeg))
    except DeckError as error:
        print(f"  seed {seed}: no profile: {error}", flush=True)
        return None
    finally:
        learn_cpu_ms.append((time.thread_time() - started) * 1000)


def misreading(key: str) -> str:
    """'wrong:6 Red->9 Red' -> the kind of mistake: colour, number, 6/9, or both."""
    truth, seen = (part.split(" ", 1) for part in key.removeprefix("wrong:").split("->"))
    colour_wrong, number_wrong = truth[1] != seen[1], truth[0] != seen[0]
    if number_wrong and {truth[0], seen[0]} == {"6", "9"}:
        return "6 and 9 swapped" + (" and colour wrong" if colour_wrong else "")
    if colour_wrong and number_wrong:
        return "colour and number wrong"
    if colour_wrong:
        return f"colour wrong ({truth[1]} read as {seen[1]})"
    return f"number wrong ({truth[0]} read as {seen[0]})"


def save_sample(folder: Path, seed: int, photo, reading) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"unseen-{seed}.jpg").write_bytes(photo.jpeg)
    marked = annotate(decode_photo(photo.jpeg), reading)
    scale = 1600 / max(marked.shape[:2])
    cv2.imwrite(str(folder / f"unseen-{seed}-read.png"),
                cv2.resize(marked, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))


def card_outcome(counts: Counter, placed) -> str:
    """What the reader made of one true card, from score()'s per-card keys."""
    name = str(placed.card)
    if counts[f"missed:{name}"]:
        return "missed"
    if counts[f"unsure:{name}"]:
        return "unsure"
    if any(key.startswith(f"wrong:{name}->") for key in counts):
        return "wrong"
    return "right"


def card_factors(placed, deck) -> dict[str, str]:
    factors = {"colour": placed.card.colour.value, "number": f"{placed.card.number:>2}",
               "turned": "turned 180" if placed.upside_down else "upright",
               "its height": height_bucket(height_px(placed))}
    if placed.card.number in (6, 9):
        factors["6 or 9 marked by"] = deck.six_nine_mark
    return factors


def print_breakdown(title: str, table: dict[str, dict[str, Counter]]) -> None:
    """Outcome shares per level of each factor; with photo counts when the table has them."""
    photos = any(counts["photos"] for levels in table.values() for counts in levels.values())
    print(f"\n{title}")
    print(f"  {'condition':<34}{'photos':>7}{'cards':>7}{'right':>8}{'unsure':>8}{'wrong':>8}"
          f"{'missed':>8}" + (f"{'extra':>7}{'exact':>8}" if photos else ""))
    for factor, levels in table.items():
        for level, counts in sorted(levels.items()):
            cards = max(1, counts["cards"])
            line = (f"  {factor + ': ' + level:<34}{counts['photos'] or '':>7}{counts['cards']:>7}"
                    + "".join(f"{counts[outcome] / cards:>8.3f}" for outcome in OUTCOMES))
            if photos:
                line += (f"{counts['extra'] + counts['extra_unsure']:>7}"
                         f"{counts['exact']:>5}/{counts['photos']}")
            print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--size", default="random",
                        help="'random' (phone sizes from 1 to 12 MP) or WIDTHxHEIGHT")
    parser.add_argument("--samples", type=Path, default=None,
                        help="save the first four photos and their readings in this folder")
    parser.add_argument("--show-errors", action="store_true")
    parser.add_argument("--calibrated", action="store_true",
                        help="also read each photo with its deck learnt from a full-deck photo")
    arguments = parser.parse_args()
    if not unseen_typefaces():
        print(f"skipped: {MISSING_FONTS}")
        return
    cv2.setNumThreads(1)
    size = None if arguments.size == "random" else \
        tuple(int(v) for v in arguments.size.split("x"))
    run, plain = Run(), Run()
    learn_cpu_ms: list[float] = []
    unlearnt = 0
    mistakes: Counter = Counter()
    by_condition: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    by_card: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    read_ms_12mp = []
    for index in range(arguments.photos):
        seed = arguments.first_seed + index
        kind = "hand" if index % 4 == 3 else ("legal", "illegal")[index % 2]
        photo = render_photo(seed, kind=kind, size=size)
        if arguments.calibrated:
            deck = learnt_deck(seed, photo, learn_cpu_ms)
            unlearnt += deck is None
            _, before, _ = plain.read(photo, kind == "hand")
        reading, counts, image = run.read(photo, kind == "hand",
                                          deck if arguments.calibrated else None)
        if arguments.calibrated and error_details(before) != error_details(counts):
            print(f"  seed {seed} {kind}: without profile {error_details(before)}, "
                  f"with {error_details(counts)}", flush=True)
        if image.shape[0] * image.shape[1] >= 11e6:
            read_ms_12mp.append(run.read_ms[-1])
        counts["photos"] = 1
        for factor, level in photo.conditions.items():
            by_condition[factor][level] += counts
        for placed in photo.cards:
            outcome = Counter(cards=1, **{card_outcome(counts, placed): 1})
            for factor, level in card_factors(placed, photo.deck).items():
                by_card[factor][level] += outcome
        mistakes.update({misreading(key): n for key, n in counts.items()
                         if key.startswith("wrong:")})
        if arguments.samples and index < 4:
            save_sample(arguments.samples, seed, photo, reading)
        if arguments.show_errors and not counts["exact"]:
            print(f"  seed {seed} {kind} {dict(photo.conditions)}: {error_details(counts)}",
                  flush=True)
    photos = arguments.photos
    print(f"photos: {photos} (unseen renderer, seeds {arguments.first_seed}.."
          f"{arguments.first_seed + photos - 1}, size {arguments.size}, "
          f"{len(unseen_typefaces())} typefaces installed), cards: {run.totals['cards']}")
    if arguments.calibrated:
        print("without calibration:")
        plain.print_figures(photos)
        print(f"with calibration (profiles learnt for {photos - unlearnt} of {photos} decks, "
              f"learning CPU median {np.median(learn_cpu_ms):.0f} ms):")
    run.print_figures(photos)
    if read_ms_12mp:
        print(f"time per 12 MP photo ({len(read_ms_12mp)} of them): median "
              f"{np.median(read_ms_12mp):.0f} ms, p95 {np.percentile(read_ms_12mp, 95):.0f} ms")
    print(f"peak resident memory: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB"
          " (renderer included)")
    print("\nmisreadings by kind: " + (", ".join(f"{kind} {n}" for kind, n in
                                                 mistakes.most_common()) or "none"))
    print_breakdown("errors by the photo's conditions (shares of its cards; exact: whole photos)",
                    by_condition)
    print_breakdown("errors by the card itself (shares of those cards)", by_card)


if __name__ == "__main__":
    main()
