"""How fast the Plaza filling-in adviser (P6) answers: 1,000 random (Plaza, 11-card hand) pairs.

Prints the median, 95th percentile and worst time per pair (target: worst <= 50 ms), the same for
a naive baseline that tests all 2,048 subsets of the hand with the same fast layout test (on the
first 100 pairs, measured in this run), the hardest hand we know (every one of the 2,047 non-empty
subsets is a legal play), and the adviser's peak memory. The adviser is timed twice: by the wall
clock, and by the CPU time of this thread (which leaves out time the machine gave to others).

Run: .venv/bin/python bench/plaza_adviser.py [pairs] [seed]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.plaza_cards import COLOURS, PACK, Card, Colour, rows_of, stranded  # noqa: E402
from companion.games.plaza_layout import MAX_HAND, advise_fill_in  # noqa: E402

Pair = tuple[list[Card], list[Card]]


def random_plaza(rng: random.Random) -> list[Card]:
    """A legal Plaza: the union of random runs and columns (adding cards never breaks P5)."""
    down: set[Card] = set()
    for _ in range(rng.randint(0, 8)):
        if rng.random() < 0.5:
            colour, start = rng.choice(COLOURS), rng.randint(1, 10)
            length = rng.randint(3, min(6, 13 - start))
            down.update(Card(colour, number) for number in range(start, start + length))
        else:
            number = rng.randint(1, 12)
            down.update(Card(colour, number) for colour in rng.sample(COLOURS, rng.randint(3, 5)))
    return sorted(down)


def random_pair(rng: random.Random) -> Pair:
    plaza = random_plaza(rng)
    rest = [card for card in PACK if card not in set(plaza)]
    return plaza, rng.sample(rest, MAX_HAND)


def naive_plays(plaza: list[Card], hand: list[Card]) -> list[tuple[Card, ...]]:
    """Baseline: every subset of the hand, each tested with the bitmask layout check."""
    return [chosen for size in range(1, len(hand) + 1) for chosen in combinations(hand, size)
            if not any(stranded(rows_of([*plaza, *chosen])))]


def timings_ms(pairs: list[Pair], advise: Callable[[list[Card], list[Card]], object],
               clock: Callable[[], float] = time.perf_counter) -> list[float]:
    result = []
    for plaza, hand in pairs:
        start = clock()
        advise(plaza, hand)
        result.append((clock() - start) * 1000)
    return sorted(result)


def summary(times: list[float]) -> str:
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    return f"median {statistics.median(times):7.3f} ms   p95 {p95:7.3f} ms   worst {times[-1]:7.3f} ms"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 2026)
    pairs = [random_pair(rng) for _ in range(count)]
    plays = sorted(len(advise_fill_in(*pair).plays) for pair in pairs)

    adviser = timings_ms(pairs, advise_fill_in)
    # CPU time of this thread leaves out the time other processes held the core: on a shared,
    # loaded machine the wall-clock worst case is mostly waiting, not the adviser's own work.
    adviser_cpu = timings_ms(pairs, advise_fill_in, time.thread_time)
    baseline_pairs = pairs[:100]
    naive = timings_ms(baseline_pairs, naive_plays)
    adviser_same = timings_ms(baseline_pairs, advise_fill_in)

    # Two full rows put two cards in every column, so each Red card alone makes a column.
    hardest = ([Card(colour, n) for colour in (Colour.GREEN, Colour.YELLOW) for n in range(1, 13)],
               [Card(Colour.RED, n) for n in range(1, MAX_HAND + 1)])
    hardest_times = timings_ms([hardest] * 20, advise_fill_in)

    tracemalloc.start()
    for pair in pairs[:200]:
        advise_fill_in(*pair)
    advise_fill_in(*hardest)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    print(f"Plaza filling-in adviser (P6), {count} random (Plaza, {MAX_HAND}-card hand) pairs")
    print(f"  legal plays per pair: median {statistics.median(plays):.0f}, most {plays[-1]}")
    print(f"  adviser (wall)   {summary(adviser)}   (target: worst <= 50 ms)")
    print(f"  adviser (CPU)    {summary(adviser_cpu)}")
    print(f"  first {len(baseline_pairs)} pairs: adviser {summary(adviser_same)}")
    print(f"  first {len(baseline_pairs)} pairs: naive   {summary(naive)}")
    ratio = statistics.median(naive) / statistics.median(adviser_same)
    print(f"  naive / adviser, median ratio {ratio:.0f}x")
    print(f"  hardest hand ({len(advise_fill_in(*hardest).plays)} plays), 20 runs: "
          f"{summary(hardest_times)}")
    print(f"  peak memory while advising: {peak / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
