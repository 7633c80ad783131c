"""How long recording one event takes, with a small and a large history (issue 2), and what the
picture sets cost the rolling backups (issue 7).

    .venv/bin/python bench/storage.py [--nights 2000] [--rounds 5] [--backup-rounds 15]
                                      [--part all|appends|backups] [--dir /some/folder]

Builds two data folders through the storage layer (10 game nights, and --nights nights), each night
with 5 finished matches of 60 events, then plays new 60-event matches in both (alternating, so
both face the same machine load) and prints the median and percentiles of one append_event, and
the ratio of the medians. Targets: median at most 5 ms, ratio at most 1.5. Alongside, it times the
bare atomic write of a file of the same size (the disk floor), since fsync time depends on what
else the machine's disk is doing.

The backups part builds two small data folders, one with a typical Tableau picture set (six real
photographs from scikit-image's sample data, stored as the app stores them, about 1.4 MB each)
and one without, then alternately changes one match file in each and times backup_now(): the
pictures, unchanged, are hard links, so the ratio should stay near 1. It also times the first
backup after the set was added (the one that copies the pictures), restore_backup (which copies
every file back), and counts the disk space the backups' pictures take.
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
from functools import partial
from pathlib import Path
from unittest.mock import patch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.core.match import Match  # noqa: E402
from companion.core.seating import Seating  # noqa: E402
from companion.core.types import MatchId, PlayerId  # noqa: E402
from storage import Library, open_library  # noqa: E402
from storage.atomic import atomic_write_bytes  # noqa: E402
from storage.pictures import PICTURES  # noqa: E402
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


def describe(label: str, timings: list[float], what: str = "appends") -> str:
    ms = [t * 1000 for t in timings]
    return (f"{label:>14}: median {statistics.median(ms):6.3f} ms   p90 {percentile(ms, 0.9):6.3f} ms"
            f"   p99 {percentile(ms, 0.99):6.3f} ms   max {max(ms):6.3f} ms   ({len(ms)} {what})")


def typical_picture_set() -> list[tuple[str, bytes]]:
    """Six real photographs, made into stored pictures the way the app makes them."""
    import numpy as np
    from skimage import data

    from vision.pictures import make_picture, picture_to_bytes

    names = ("astronaut", "coffee", "chelsea", "rocket", "immunohistochemistry",
             "hubble_deep_field")
    return [(name, picture_to_bytes(make_picture(name, np.ascontiguousarray(
        getattr(data, name)()[..., ::-1])))) for name in names]  # RGB to OpenCV's BGR


def timed(action) -> tuple[float, object]:
    started = time.perf_counter()
    result = action()
    return time.perf_counter() - started, result


def disk_use(folder: Path) -> tuple[int, int]:
    """Bytes of the files under `folder`: as listed, and on disk (each hard-linked file once)."""
    listed, inodes = 0, {}
    for path in folder.rglob("*"):
        if path.is_file():
            stat = path.stat()
            listed += stat.st_size
            inodes[stat.st_ino] = stat.st_size
    return listed, sum(inodes.values())


def bench_backups(scratch: Path, rounds: int) -> None:
    started = time.perf_counter()
    pictures = typical_picture_set()
    megabytes = sum(len(content) for _, content in pictures) / 1e6
    print(f"made {len(pictures)} stored pictures ({megabytes:.1f} MB) in "
          f"{time.perf_counter() - started:.1f} s")
    folders = {"no pictures": scratch / "plain", "6 pictures": scratch / "pictures"}
    libraries = {label: open_library(folder, games) for label, folder in folders.items()}
    first: dict[str, float] = {}
    for label, library in libraries.items():
        seats = tuple(library.players.add(name).id for name in ("Ann", "Bob", "Cy"))
        library.matches.create(Match(MatchId("m"), "counting", Seating(seats),
                                     CountingOptions(1_000_000), NOW, NOW))
        library.backup_now()
        if label == "6 pictures":
            library.pictures.add("Deluxe", pictures)
        library.matches.append_event(MatchId("m"), Scored(seats[0], 1))
        first[label] = timed(library.backup_now)[0]
    timings: dict[str, list[float]] = {label: [] for label in libraries}
    restoring: dict[str, list[float]] = {label: [] for label in libraries}
    for round_number in range(rounds):
        for label, library in libraries.items():  # alternate, so both see the same load
            seats = library.matches.get(MatchId("m")).seating.seats
            library.matches.append_event(MatchId("m"), Scored(seats[0], round_number % 6))
            timings[label].append(timed(library.backup_now)[0])
    for _ in range(max(1, rounds // 3)):
        for label, library in libraries.items():
            older = library.list_backups()[1].id
            restoring[label].append(timed(partial(library.restore_backup, older))[0])
    print()
    for label in libraries:
        print(describe(f"backup, {label}", timings[label], "backups")
              + f"; the first after adding the set {first[label] * 1000:.1f} ms")
    for label in libraries:
        print(f"{'restore':>14}: {label}, median {statistics.median(restoring[label]) * 1000:.1f} ms "
              f"({len(restoring[label])} restores; copies every file back)")
    plain, with_pictures = (statistics.median(timings[label]) for label in libraries)
    print(f"\nratio of backup medians (6 pictures / none): {with_pictures / plain:.2f}"
          "   (unchanged pictures are hard links)")
    listed, on_disk = disk_use(folders["6 pictures"] / "backups")
    held = len(libraries["6 pictures"].list_backups())
    live = sum(path.stat().st_size for path in (folders["6 pictures"] / PICTURES).rglob("*")
               if path.is_file())
    print(f"{held} backups list {listed / 1e6:.1f} MB and take {on_disk / 1e6:.1f} MB on disk; "
          f"the live pictures folder {live / 1e6:.1f} MB")
    for library in libraries.values():
        library.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nights", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5, help="new matches played per history")
    parser.add_argument("--backup-rounds", type=int, default=15,
                        help="backups timed per data folder")
    parser.add_argument("--part", choices=("all", "appends", "backups"), default="all")
    parser.add_argument("--dir", type=Path, default=None, help="where to build (default: a temp dir)")
    arguments = parser.parse_args()
    if arguments.part in ("all", "backups"):
        with tempfile.TemporaryDirectory(dir=arguments.dir) as scratch:
            bench_backups(Path(scratch), arguments.backup_rounds)
    if arguments.part in ("all", "appends"):
        bench_appends(arguments)
    print(f"peak memory (max RSS): {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def bench_appends(arguments: argparse.Namespace) -> None:
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


if __name__ == "__main__":
    main()
