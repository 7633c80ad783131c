"""How long computing all statistics takes over a large history (issue 5; target <= 300 ms).

    .venv/bin/python bench/history_stats.py [--nights 2000] [--repeats 7] [--seed 1]

Builds --nights game nights of 4 to 6 matches each (about 5) from real random games
(tests/games/<key>_play.py random_match), in memory. Random games cost from 1 ms (Windmill) to
over half a second (Tablanette, played card by card), so a pool of distinct games is played per
game and each night draws its matches from the pools, every copy with its own id, date and night.
Replayed states are kept with the matches, as the storage library keeps them once loaded.

"All statistics" is what the statistics screens need from the whole history: each match's
outcome read off its state, every player's overall and per-game records and figures, the win-rate
and games-per-month chart tables, and head-to-head for every pair of players. Each part is timed
on its own too, to show what dominates, and against it the cost of replaying every match from
scratch (what statistics would cost without the library's kept states), in the same run.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.match import Match, MatchState, replay  # noqa: E402
from companion.core.types import NightId  # noqa: E402
from companion.games.registry import GAMES, game_for  # noqa: E402
from companion.history.charts import games_per_month, win_rates  # noqa: E402
from companion.history.stats import (  # noqa: E402
    PlayedMatch,
    every_head_to_head,
    history_statistics,
    played_match,
)
from tests.history.randomized import placed, random_match  # noqa: E402

POOL = {"tablanette": 6}  # per game; the rest use DEFAULT_POOL
DEFAULT_POOL = 120
FIRST_NIGHT = date(2019, 1, 4)
REPLAY_SAMPLE = 20


def build_pools(rng: random.Random) -> dict[str, list[tuple[Match, MatchState]]]:
    pools = {}
    for key in GAMES:
        matches = [random_match(key, rng) for _ in range(POOL.get(key, DEFAULT_POOL))]
        pools[key] = [(match, replay(match, game_for(key))) for match in matches]
    return pools


def build_history(rng: random.Random, nights: int,
                  pools: dict[str, list[tuple[Match, MatchState]]]) -> list[tuple[Match, MatchState]]:
    history = []
    keys = list(pools)
    for night in range(nights):
        day = FIRST_NIGHT + timedelta(days=night)
        for _ in range(rng.randint(4, 6)):
            match, state = rng.choice(pools[rng.choice(keys)])
            at = f"{day.isoformat()}T{19 + len(history) % 4:02d}:00:00+00:00"
            copy = placed(match, len(history), NightId(f"night-{night:05d}"))
            history.append((replace(copy, created_at=at, updated_at=at), state))
    return history


def outcomes(history: list[tuple[Match, MatchState]]) -> list[PlayedMatch]:
    return [played_match(match, game_for(match.game), state) for match, state in history]


def all_statistics(history: list[tuple[Match, MatchState]]) -> Any:
    return statistics_of_outcomes(outcomes(history))


def statistics_of_outcomes(played: list[PlayedMatch]) -> Any:
    """All statistics when each match's outcome is kept too (a screen keeps them, and replaces
    one when its match is corrected)."""
    stats = history_statistics(played)
    return stats, win_rates(stats), games_per_month(played), every_head_to_head(played)


def timed(work: Callable[[], object], repeats: int) -> list[float]:
    """Wall-clock milliseconds of each run (garbage collection done between runs)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return times


def cpu_timed(work: Callable[[], object], repeats: int) -> list[float]:
    """Thread CPU milliseconds: on a shared machine the wall clock includes waiting."""
    times = []
    for _ in range(repeats):
        gc.collect()
        start = time.thread_time()
        work()
        times.append((time.thread_time() - start) * 1000)
    return times


def describe(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (f"  {label:<44} median {statistics.median(times):8.1f} ms   "
            f"min {ordered[0]:8.1f}   p90 {p90:8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    start = time.perf_counter()
    pools = build_pools(rng)
    history = build_history(rng, args.nights, pools)
    events = sum(len(match.events) for match, _ in history)
    print(f"history: {args.nights} nights, {len(history)} matches, {events} events "
          f"(built in {time.perf_counter() - start:.1f} s from pools of "
          f"{', '.join(f'{key} {len(pool)}' for key, pool in pools.items())})")

    played = outcomes(history)
    stats = history_statistics(played)
    players = [entry.player for entry in stats.players]
    repeats = args.repeats
    print(f"\nall statistics ({len(players)} players, {len(players) * (len(players) - 1) // 2} "
          f"head-to-head pairs), {repeats} runs:")
    total = timed(lambda: all_statistics(history), repeats)
    print(describe("all statistics (wall clock)", total))
    print(describe("all statistics (thread CPU)", cpu_timed(lambda: all_statistics(history),
                                                            repeats)))
    print(describe("all, from kept outcomes (thread CPU)",
                   cpu_timed(lambda: statistics_of_outcomes(played), repeats)))
    print("\nits parts (wall clock):")
    print(describe("outcomes read off the kept states", timed(lambda: outcomes(history), repeats)))
    print(describe("player records and per-game figures",
                   timed(lambda: history_statistics(played), repeats)))
    print(describe("head-to-head, every pair", timed(lambda: every_head_to_head(played),
                                                      repeats)))
    print(describe("chart tables (win rates, per month)",
                   timed(lambda: (win_rates(stats), games_per_month(played)), repeats)))

    # Replaying is slow, so the baseline replays every REPLAY_SAMPLE-th match and scales up.
    sample = history[::REPLAY_SAMPLE]
    print(f"\nbaseline in the same run: replaying every match from scratch "
          f"(timed on {len(sample)} matches, scaled x{REPLAY_SAMPLE})")
    replays = [REPLAY_SAMPLE * ms for ms in timed(
        lambda: [replay(match, game_for(match.game)) for match, _ in sample], 3)]
    print(describe("replay all matches (estimate)", replays))
    print(f"  ratio, all statistics / replay: "
          f"{statistics.median(total) / statistics.median(replays):.3f}")

    gc.collect()
    tracemalloc.start()
    all_statistics(history)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\npeak memory allocated while computing all statistics: {peak / 2**20:.1f} MiB")
    verdict = "meets" if statistics.median(total) <= 300 else "misses"
    print(f"target: median <= 300 ms; this run {verdict} it "
          f"({statistics.median(total):.0f} ms).")


if __name__ == "__main__":
    main()
