"""Rules speed (issue 3): median time to replay a 500-event match per game, and the Plaza
filling-in adviser's worst case over 1,000 random (Plaza, 11-card hand) pairs.

Run: .venv/bin/python bench/rules.py    Targets: replay <= 10 ms, adviser worst case <= 50 ms.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.match import replay  # noqa: E402
from companion.games.registry import GAMES  # noqa: E402

EVENTS = 500
RUNS = 30


def replay_times(key: str) -> tuple[int, float]:
    """(events in the match, median ms to replay it)."""
    play = importlib.import_module(f"tests.games.{key}_play")
    match = play.random_match(random.Random(2026), events=EVENTS)
    game = GAMES[key]
    timings = []
    for _ in range(RUNS):
        started = time.perf_counter()
        replay(match, game)
        timings.append((time.perf_counter() - started) * 1000)
    return len(match.events), statistics.median(timings)


def main() -> None:
    print(f"replay of a ~{EVENTS}-event match, median of {RUNS} runs (target <= 10 ms)")
    for key in GAMES:
        count, median = replay_times(key)
        print(f"  {key:18} {count:4} events  {median:7.2f} ms")
    adviser = importlib.import_module("bench.plaza_adviser")
    adviser.main()


if __name__ == "__main__":
    main()
