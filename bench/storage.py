"""How long recording one event takes, with a small and a large history (issue 2).

    .venv/bin/python bench/storage.py [--nights 2000] [--rounds 5] [--dir /some/folder]

Builds two data folders through the storage layer (10 game nights, and --nights nights), each night
with 5 finished matches of 60 events, then plays new 60-event matches in both (alternating, so
both face the same machine load) and prints the median and percentiles of one append_event, and
the ratio of the medians. Targets: median at most 5 ms, ratio at most 1.5. Alongside, it times the
bare atomic write of a file of the same size (the disk floor), since fsync time depends on what
else the machine's disk is doing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import date, timedelta
from pathlib import Path
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.match import Match  # noqa: E402
from companion.core.seating import Seating  # noqa: E402
from companion.core.types import MatchId, PlayerId  # noqa: E402
from storage import Library, open_library  # noqa: E402
from storage.atomic import atomic_write_bytes  # noqa: E402
from tests.core.counting_game import COUNTING, CountingOptions, Scored  # noqa: E402

MATCHES_PER_NIGHT = 5
EVENTS_PER_MATCH = 60
SMALL = 10
BATCH_NIGHTS = 500
FIRST_NIGHT = date(2020, 1, 1)
NOW = "2026-11-21T20:00:00+00:00"


def games(key: str):
    if key != "counting":
        raise KeyError(key)
    return COUNTING


def finished_match(match_id: str, night, seats: tuple[PlayerId, ...]) -> Match:
    # 59 scoreless deals round the table, then the first player reaches the target of 5.
    events = tuple(Scored(seats[n % len(seats)], 0) for n in range(EVENTS_PER_MATCH - 1))
    return Match(MatchId(match_id), "counting", Seating(seats), CountingOptions(5), NOW, NOW,
                 (*events, Scored(seats[0], 5)), night)


@contextmanager
def without_fsync():
    """Building the history is set-up, not what is measured: skip its fsyncs (os.sync at the end).
    The appends measured afterwards run with full durability."""
    with patch("storage.atomic._sync_data"), patch("storage.atomic.fsync_directory"):
        yield
    os.sync()


def build(folder: Path, nights: int) -> float:
    started = time.perf_counter()
    with without_fsync(), open_library(folder, games) as library:
        seats = tuple(library.players.add(name).id for name in ("Ann", "Bob", "Cy", "Dee"))
        night_ids = [library.nights.get_or_create_for_date(FIRST_NIGHT + timedelta(days=number)).id
                     for number in range(nights)]
        for first in range(0, nights, BATCH_NIGHTS):  # a few index writes, not one per match
            library.matches.create_many(
                finished_match(f"n{number}m{k}", night_ids[number], seats[: 2 + k % 3])
                for number in range(first, min(nights, first + BATCH_NIGHTS))
                for k in range(MATCHES_PER_NIGHT))
    return time.perf_counter() - started


def disk_floor(folder: Path, size: int) -> float:
    """Seconds for the bare atomic write of `size` bytes (tmp file, fsync, rename, fsync dir):
    the least any durable append can cost on this disk now."""
    started = time.perf_counter()
    atomic_write_bytes(folder / "floor.json", b"x" * size)
    return time.perf_counter() - started


def play_one_match(library: Library, match_id: str) -> list[float]:
    """Seconds taken by each append_event of a new 60-event match filed under today's night."""
    night = library.nights.get_or_create_for_date(date(2026, 11, 21))
    seats = tuple(player.id for player in library.players.list()[:3])
    library.matches.create(Match(MatchId(match_id), "counting", Seating(seats),
                                 CountingOptions(1_000_000), NOW, NOW, (), night.id))
    timings = []
    for n in range(EVENTS_PER_MATCH):
        event = Scored(seats[n % 3], n % 6)
        started = time.perf_counter()
        library.matches.append_event(MatchId(match_id), event)
        timings.append(time.perf_counter() - started)
    return timings


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def describe(label: str, timings: list[float]) -> str:
    ms = [t * 1000 for t in timings]
    return (f"{label:>14}: median {statistics.median(ms):6.3f} ms   p90 {percentile(ms, 0.9):6.3f} ms"
            f"   p99 {percentile(ms, 0.99):6.3f} ms   max {max(ms):6.3f} ms   ({len(ms)} appends)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5, help="new matches played per history")
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=arguments.dir) as scratch:
        sizes = {SMALL: Path(scratch) / "small", arguments.nights: Path(scratch) / "large"}
        for nights, folder in sizes.items():
            seconds = build(folder, nights)
            files = nights * MATCHES_PER_NIGHT
            print(f"built {nights} nights ({files} matches of {EVENTS_PER_MATCH} events) "
                  f"in {seconds:.1f} s; index {(folder / 'index.json').stat().st_size / 1e6:.2f} MB")
        timings: dict[int, list[float]] = {nights: [] for nights in sizes}
        opening: dict[int, list[float]] = {nights: [] for nights in sizes}
        floor: list[float] = []
        for round_number in range(arguments.rounds):
            for nights, folder in sizes.items():  # alternate, so both see the same load
                started = time.perf_counter()
                library = open_library(folder, games)
                opening[nights].append(time.perf_counter() - started)
                with library:
                    timings[nights] += play_one_match(library, f"bench{round_number}")
            size = (sizes[SMALL] / "matches" / f"bench{round_number}.json").stat().st_size
            floor += [disk_floor(Path(scratch), size) for _ in range(EVENTS_PER_MATCH)]
        print()
        for nights in sizes:
            print(describe(f"{nights} nights", timings[nights]))
        print(describe("disk floor", floor))
        for nights in sizes:
            print(f"{'open':>14}: {nights} nights, median {statistics.median(opening[nights]):.3f} s "
                  "(checks changed files, takes the rolling backup)")
        small, large = (statistics.median(timings[nights]) for nights in sizes)
        print(f"\nratio of medians ({arguments.nights} / {SMALL} nights): {large / small:.2f}"
              "   (target <= 1.5)")
        print(f"median with {arguments.nights} nights: {large * 1000:.3f} ms   (target <= 5 ms); "
              f"{large / statistics.median(floor):.2f} x the disk floor measured alongside")
        print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
