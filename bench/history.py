"""Time to open History and Statistics on a large history in the browser, and to compute all
statistics (issue 5; targets: first page <= 1 s, statistics <= 300 ms).

    .venv/bin/python bench/history.py [--nights 2000] [--tries 7] [--seed 1] [--folder DIR]

Builds --nights game nights of 4 to 6 matches each (bench/history_stats.py's builder: real random
games) and writes them through storage (players, nights, create_many) into a temporary data
folder, or into --folder, which is kept and used as it is by later runs (building takes minutes).
Then:

- the real app (tests/browser/conftest.py's AppServer) in headless Chromium at 390x844: from
  Home, the time from a tap on "History" until the first page's newest night is in the
  accessibility tree, and from a tap on "Statistics" until the first player's figures are
  (performance.now() in the page); the first Statistics tap is the first after start-up.
  Baseline in the same run, tap for tap: a tap on "Players", which reads only the roster, until
  its "Add player" button shows.
- in this process, on the same folder: what History reads when it opens (nights and summaries),
  and all statistics the Statistics screen shows (outcomes read off the match summaries, records
  and figures, chart tables, every head-to-head): the first time after opening the folder, which
  parses every summary, and then with the summaries the library keeps parsed, which is what
  every later opening costs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.history_stats import (  # noqa: E402
    FIRST_NIGHT,
    build_history,
    build_pools,
    statistics_of,
)
from bench.timing import cpu_timed, describe, timed  # noqa: E402
from companion.core.types import NightId  # noqa: E402
from companion.games.registry import game_for  # noqa: E402
from companion.ui.screens.history import night_entries  # noqa: E402
from companion.ui.screens.statistics import stored_outcomes  # noqa: E402
from companion.ui.services import Services  # noqa: E402
from storage import open_library  # noqa: E402
from storage.model import Night  # noqa: E402
from tests.browser.conftest import AppServer, free_port, launch_chromium, open_page  # noqa: E402
from tests.history.randomized import PLAYERS  # noqa: E402

TIMEOUT_MS = 60_000

# Tap the button labelled `label`, then wait frame by frame until some node of the accessibility
# tree has a label (or text) starting with `prefix` (or equal to it, when `exact`). Resolves to
# milliseconds, -1 on timeout, -2 when there is no such button.
TAP_AND_WAIT = """([label, prefix, exact, timeout]) => new Promise(resolve => {
    const text = node => (node.getAttribute('aria-label') || node.textContent || '').trim();
    const button = Array.from(document.querySelectorAll('flt-semantics[role=button]'))
        .find(node => text(node) === label);
    if (!button) { resolve(-2); return; }
    const start = performance.now();
    button.click();
    const poll = () => {
        const spent = performance.now() - start;
        if (Array.from(document.querySelectorAll('flt-semantics'))
                .some(node => exact ? text(node) === prefix : text(node).startsWith(prefix)))
            resolve(spent);
        else if (spent > timeout) resolve(-1);
        else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
})"""


def tap(page, label: str, prefix: str, *, exact: bool = False) -> float:
    spent = page.evaluate(TAP_AND_WAIT, [label, prefix, exact, TIMEOUT_MS])
    if spent == -2:
        raise RuntimeError(f"no button {label!r} on screen")
    if spent < 0:
        raise RuntimeError(f"after tapping {label!r}, nothing starting {prefix!r} showed within "
                           f"{TIMEOUT_MS} ms")
    return spent


def build_folder(data_dir: Path, nights: int, seed: int) -> str:
    """Write the history into `data_dir`; returns the newest night's date."""
    rng = random.Random(seed)
    history = build_history(rng, nights, build_pools(rng))
    days = sorted({match.night: match.created_at[:10] for match, _ in history}.items())
    with open_library(data_dir, game_for) as library:
        library.players.put_many(PLAYERS)
        library.nights.put_many(Night(NightId(night), day) for night, day in days)
        library.matches.create_many(match for match, _ in history)
    print(f"history: {nights} nights, {len(history)} matches, "
          f"{sum(len(match.events) for match, _ in history)} events, from {FIRST_NIGHT}")
    return max(day for _, day in days)


def browser_times(data_dir: Path, newest: str, tries: int) -> dict[str, list[float]]:
    """Milliseconds per tap on History, Statistics and Players, in the order they were made."""
    server = AppServer(data_dir, free_port())
    start = time.perf_counter()
    server.start()
    print(f"app listening after {time.perf_counter() - start:.1f} s (opening the data folder)")
    taps: dict[str, list[float]] = {"History": [], "Statistics": [], "Players": []}
    shown = {"History": f"Night of {newest}", "Statistics": f"{PLAYERS[0].name} overall",
             "Players": "Add player"}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = open_page(browser, server.url, timeout=TIMEOUT_MS)
            page.get_by_role("button", name="History", exact=True).wait_for()
            for _ in range(tries):
                for label, times in taps.items():
                    times.append(tap(page, label, shown[label]))
                    # Home's heading; Statistics has "Games played per month"
                    tap(page, "Tablemate", "Games", exact=True)
            browser.close()
    finally:
        server.stop()
    return taps


def all_statistics(services: Services) -> object:
    """What the Statistics screen computes: every outcome from the summaries, then statistics."""
    return statistics_of(stored_outcomes(services))


def first_and_cpu(work) -> tuple[float, float]:
    """(wall, thread CPU) milliseconds of one run of `work`."""
    wall, cpu = time.perf_counter(), time.thread_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000


def in_process_times(data_dir: Path, repeats: int) -> tuple[float, float]:
    """Prints what History reads and what statistics cost; returns the (wall, thread CPU)
    medians with the summaries kept parsed (every opening but the first after start-up)."""
    with open_library(data_dir, game_for) as library:
        services = Services(library, data_dir)
        print("\nin this process, on the same data folder, just opened:")
        wall, cpu = first_and_cpu(lambda: all_statistics(services))
        print(f"  all statistics, first time (parses every summary)   {wall:8.1f} ms wall, "
              f"{cpu:8.1f} ms thread CPU")
        kept = timed(lambda: all_statistics(services), repeats)
        print(describe("all statistics, summaries kept parsed (wall)", kept))
        kept_cpu = cpu_timed(lambda: all_statistics(services), repeats)
        print(describe("  the same, thread CPU", kept_cpu))
    with open_library(data_dir, game_for) as library:
        print("\nopened again:")
        wall, cpu = first_and_cpu(library.matches.summaries)
        print(f"  matches.summaries(), first call (parses them all)   {wall:8.1f} ms wall, "
              f"{cpu:8.1f} ms thread CPU")
        print(describe("History's reads: nights.list() + summaries()", timed(
            lambda: night_entries(library.nights.list(), library.matches.summaries()),
            repeats)))
        print(describe("  of which matches.summaries() alone", timed(
            library.matches.summaries, repeats)))
    return statistics.median(kept), statistics.median(kept_cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=2000)
    parser.add_argument("--tries", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--folder", type=Path, help="a data folder to build once and reuse")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as temporary:
        data_dir = args.folder or Path(temporary) / "data"
        start = time.perf_counter()
        if (data_dir / "index.json").is_file():
            with open_library(data_dir, game_for) as library:
                newest = library.nights.list()[0].date
            print(f"reusing {data_dir} (opened in {time.perf_counter() - start:.1f} s)")
        else:
            newest = build_folder(data_dir, args.nights, args.seed)
            print(f"written through storage in {time.perf_counter() - start:.1f} s")
        taps = browser_times(data_dir, newest, args.tries)
        print(f"\nheadless Chromium, 390x844, {args.tries} tries each:")
        print(describe("tap History -> first page of nights shown", taps["History"]))
        print(describe("  first try alone", taps["History"][:1]))
        print(describe("tap Statistics -> first player's figures shown", taps["Statistics"]))
        print(describe("  first try alone (first after start-up)", taps["Statistics"][:1]))
        print(describe("baseline: tap Players -> roster shown", taps["Players"]))
        players = statistics.median(taps["Players"])
        print(f"  ratio of medians, History / Players: "
              f"{statistics.median(taps['History']) / players:.2f}; Statistics / Players: "
              f"{statistics.median(taps['Statistics']) / players:.2f}")
        kept, cpu = in_process_times(data_dir, args.tries)

    opening = statistics.median(taps["History"])
    print(f"\ntargets: History first page <= 1000 ms: {'met' if opening <= 1000 else 'NOT met'} "
          f"({opening:.0f} ms); all statistics <= 300 ms: "
          f"{'met' if kept <= 300 else 'NOT met'} ({kept:.0f} ms wall, {cpu:.0f} ms thread CPU, "
          "summaries kept parsed)")


if __name__ == "__main__":
    main()
