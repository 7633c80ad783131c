"""Rules speed (issue 3): median time to replay a 500-event match per game, and the Plaza
filling-in adviser's worst case over 1,000 random (Plaza, 11-card hand) pairs.

Run: .venv/bin/python bench/rules.py    Targets: replay <= 10 ms, adviser worst case <= 50 ms.
Tablanette games end after 12-20 packs (one event each), so its match is a whole game, not 500
events. CPU time is printed beside wall time because a busy machine inflates the latter.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dataclasses import replace  # noqa: E402

from companion.core.game import Game  # noqa: E402
from companion.core.match import Match, replay  # noqa: E402
from companion.core.seating import Seating  # noqa: E402
from companion.core.types import MatchId, PlayerId  # noqa: E402
from companion.games.registry import GAMES  # noqa: E402
from tests.core.counting_game import COUNTING, CountingOptions, Scored  # noqa: E402

EVENTS = 500
RUNS = 30


def replay_times(match: Match, game: Game) -> tuple[float, float]:
    """Median wall-clock and CPU milliseconds to replay `match` from its first event."""
    wall, cpu = [], []
    for _ in range(RUNS):
        started, started_cpu = time.perf_counter(), time.process_time()
        replay(match, game)
        wall.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
    return statistics.median(wall), statistics.median(cpu)


def baseline_match() -> Match:
    """The trivial counting game of tests/core, 500 events: the cost of the shared replay itself."""
    match = Match(MatchId("baseline"), COUNTING.key, Seating((PlayerId("a"), PlayerId("b"))),
                  CountingOptions(target=10**9), "", "")
    return replace(match, events=tuple(Scored(PlayerId("a"), 1) for _ in range(EVENTS)))


def main() -> None:
    print(f"replay of a ~{EVENTS}-event match, median of {RUNS} runs (target <= 10 ms)")
    base_wall, base_cpu = replay_times(baseline_match(), COUNTING)
    print(f"  {'baseline (counting)':20} {EVENTS:4} events  wall {base_wall:7.2f} ms"
          f"  cpu {base_cpu:7.2f} ms")
    for key, game in GAMES.items():
        play = importlib.import_module(f"tests.games.{key}_play")
        match = play.random_match(random.Random(2026), events=EVENTS)
        wall, cpu = replay_times(match, game)
        print(f"  {key:20} {len(match.events):4} events  wall {wall:7.2f} ms  cpu {cpu:7.2f} ms"
              f"  ({cpu / base_cpu:4.1f} x baseline cpu)")
    adviser = importlib.import_module("bench.plaza_adviser")
    adviser.main()


if __name__ == "__main__":
    main()
