"""How long computing all statistics takes over a large history (issue 5; target <= 300 ms).

    .venv/bin/python bench/history_stats.py [--nights 2000] [--repeats 7] [--seed 1]

Builds --nights game nights of 4 to 6 matches each (about 5) from real random games
(tests/games/<key>_play.py random_match), in memory. Random games cost from 1 ms (Windmill) to
over half a second (Tablanette, played card by card), so a pool of distinct games is played per
game and each night draws its matches from the pools, every copy with its own id, date and night.
Each match is summarised as storage does when it is stored or changed (storage.model.summarize:
its outcome and each player's tally of the game's figures).

"All statistics" is what the statistics screens need from the whole history: each match's
outcome read off its summary, every player's overall and per-game records and figures, the
win-rate and games-per-month chart tables, and head-to-head for every pair of players. Each part
is timed on its own too, and so is reading the summaries back from the index's JSON (what the
first statistics after start-up add). Baselines in the same run: the same statistics with each
outcome read off the match's replayed state (the path before summaries kept figures), and
replaying every match from scratch.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import cpu_timed, describe, timed  # noqa: E402
from companion.core.codec import from_json, to_json  # noqa: E402
from companion.core.match import Match, MatchState, replay  # noqa: E402
from companion.core.types import NightId  # noqa: E402
from companion.games.registry import GAMES, game_for  # noqa: E402
from companion.history.charts import games_per_month, win_rates  # noqa: E402
from companion.history.stats import (  # noqa: E402
    Outcome,
    every_head_to_head,
    history_statistics,
    played_match,
)
from storage.model import MatchSummary, summarize, summary_from_json  # noqa: E402
from tests.history.randomized import placed, random_match  # noqa: E402

POOL = {"tablanette": 6}  # per game; the rest use DEFAULT_POOL
DEFAULT_POOL = 120
FIRST_NIGHT = date(2019, 1, 4)
SAMPLE = 20  # every SAMPLE-th match for the slow baselines


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


def statistics_of(outcomes: Sequence[Outcome]) -> Any:
    """All statistics the screens show, from every match's outcome."""
    stats = history_statistics(outcomes)
    return stats, win_rates(stats), games_per_month(outcomes), every_head_to_head(outcomes)


def all_statistics(summaries: Sequence[MatchSummary]) -> Any:
    """What the Statistics screen computes: outcomes read off the summaries, then statistics."""
    return statistics_of([summary.outcome for summary in summaries])


def from_kept_states(history: list[tuple[Match, MatchState]]) -> Any:
    """Baseline: each outcome (figures included) read off the match's replayed state."""
    return statistics_of([played_match(match, game_for(match.game), state).outcome
                          for match, state in history])


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

    summaries = [summarize(match, game_for(match.game), state) for match, state in history]
    documents = json.loads(json.dumps([to_json(summary) for summary in summaries]))
    outcomes = [summary.outcome for summary in summaries]
    stats = history_statistics(outcomes)
    players = len(stats.players)
    repeats = args.repeats
    print(f"\nall statistics ({players} players, {players * (players - 1) // 2} head-to-head "
          f"pairs) from the matches' summaries, {repeats} runs:")
    total = timed(lambda: all_statistics(summaries), repeats)
    print(describe("all statistics (wall clock)", total))
    cpu = cpu_timed(lambda: all_statistics(summaries), repeats)
    print(describe("all statistics (thread CPU)", cpu))
    print("\nits parts (thread CPU; each summary works its outcome out once and keeps it):")
    print(describe("outcomes read off the summaries",
                   cpu_timed(lambda: [summary.outcome for summary in summaries], repeats)))
    print(describe("player records and per-game figures",
                   cpu_timed(lambda: history_statistics(outcomes), repeats)))
    print(describe("head-to-head, every pair", cpu_timed(lambda: every_head_to_head(outcomes),
                                                          repeats)))
    print(describe("chart tables (win rates, per month)",
                   cpu_timed(lambda: (win_rates(stats), games_per_month(outcomes)), repeats)))
    print("\nreading the summaries back from the index's JSON (first statistics after start-up):")
    decoded = cpu_timed(lambda: [summary_from_json(doc) for doc in documents], repeats)
    print(describe("storage.model.summary_from_json (thread CPU)", decoded))
    print(describe("read back, then all statistics (thread CPU)", cpu_timed(
        lambda: all_statistics([summary_from_json(doc) for doc in documents]), 3)))
    # The generic codec is slow, so it decodes every SAMPLE-th summary and is scaled up.
    codec = [SAMPLE * ms for ms in cpu_timed(
        lambda: [from_json(MatchSummary, doc) for doc in documents[::SAMPLE]], 3)]
    print(describe(f"baseline: codec.from_json (x{SAMPLE} estimate)", codec))
    print(f"  ratio, summary_from_json / codec: "
          f"{statistics.median(decoded) / statistics.median(codec):.3f}")

    print("\nbaselines in the same run:")
    kept = cpu_timed(lambda: from_kept_states(history), repeats)
    print(describe("all statistics from kept states (thread CPU)", kept))
    print(f"  ratio, from summaries / from kept states: "
          f"{statistics.median(cpu) / statistics.median(kept):.3f}")
    sample = history[::SAMPLE]
    replays = [SAMPLE * ms for ms in timed(
        lambda: [replay(match, game_for(match.game)) for match, _ in sample], 3)]
    print(describe(f"replay all matches (wall, x{SAMPLE} estimate)", replays))
    print(f"  ratio, all statistics / replay: "
          f"{statistics.median(total) / statistics.median(replays):.4f}")

    gc.collect()
    tracemalloc.start()
    all_statistics(summaries)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"\npeak memory allocated while computing all statistics: {peak / 2**20:.1f} MiB")
    verdict = "meets" if statistics.median(total) <= 300 else "misses"
    print(f"target: median <= 300 ms; this run {verdict} it "
          f"({statistics.median(total):.0f} ms wall, {statistics.median(cpu):.0f} ms CPU).")


if __name__ == "__main__":
    main()
