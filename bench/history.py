"""Time to open History on a large history in the browser, and to compute all statistics
(issue 5; targets: first page <= 1 s, statistics <= 300 ms).

    .venv/bin/python bench/history.py [--nights 2000] [--tries 7] [--seed 1]

Builds --nights game nights of 4 to 6 matches each (bench/history_stats.py's builder: real random
games) and writes them through storage (players, nights, create_many) into a temporary data
folder. Then:

- the real app (tests/browser/conftest.py's AppServer) in headless Chromium at 390x844: from
  Home, the time from a tap on "History" until the first page's newest night is in the
  accessibility tree (performance.now() in the page). Baseline in the same run, tap for tap: a
  tap on "Players", which reads only the roster, until its "Add player" button shows.
- in this process, on the same folder: what History reads when it opens (nights and summaries),
  and all statistics the Statistics screen shows (outcomes, records and figures, chart tables,
  every head-to-head): the first time, which reads and replays every match file, and then from
  the states the library keeps, which is what every later opening costs.
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
    cpu_timed,
    timed,
)
from companion.core.types import NightId  # noqa: E402
from companion.games.registry import game_for  # noqa: E402
from companion.history.charts import games_per_month, win_rates  # noqa: E402
from companion.history.stats import every_head_to_head, history_statistics  # noqa: E402
from companion.ui.screens.history import night_entries  # noqa: E402
from companion.ui.screens.statistics import played_history  # noqa: E402
from companion.ui.services import Services  # noqa: E402
from storage import open_library  # noqa: E402
from storage.model import Night  # noqa: E402
from tests.browser.conftest import (  # noqa: E402
    CHROMIUM,
    CHROMIUM_ARGS,
    AppServer,
    free_port,
    load,
    local_only,
)
from tests.history.randomized import PLAYERS  # noqa: E402

TIMEOUT_MS = 60_000

# Tap the button labelled `label`, then wait frame by frame until some node of the accessibility
# tree has a label (or text) starting with `prefix`. Resolves to milliseconds, -1 on timeout,
# -2 when there is no such button.
TAP_AND_WAIT = """([label, prefix, timeout]) => new Promise(resolve => {
    const text = node => (node.getAttribute('aria-label') || node.textContent || '').trim();
    const button = Array.from(document.querySelectorAll('flt-semantics[role=button]'))
        .find(node => text(node) === label);
    if (!button) { resolve(-2); return; }
    const start = performance.now();
    button.click();
    const poll = () => {
        const spent = performance.now() - start;
        if (Array.from(document.querySelectorAll('flt-semantics'))
                .some(node => text(node).startsWith(prefix))) resolve(spent);
        else if (spent > timeout) resolve(-1);
        else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
})"""


def tap(page, label: str, prefix: str) -> float:
    spent = page.evaluate(TAP_AND_WAIT, [label, prefix, TIMEOUT_MS])
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


def browser_times(data_dir: Path, newest: str, tries: int) -> tuple[list[float], list[float]]:
    """(History taps, Players taps) in milliseconds; the first History tap is the first try."""
    server = AppServer(data_dir, free_port())
    start = time.perf_counter()
    server.start()
    print(f"app listening after {time.perf_counter() - start:.1f} s (opening the data folder)")
    history, players = [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                 args=CHROMIUM_ARGS)
            context = browser.new_context(viewport={"width": 390, "height": 844})
            context.route("**/*", local_only)
            page = context.new_page()
            page.set_default_timeout(TIMEOUT_MS)
            load(page, server.url)
            page.get_by_role("button", name="History", exact=True).wait_for()
            for _ in range(tries):
                history.append(tap(page, "History", f"Night of {newest}"))
                tap(page, "Tablemate", "Games")
                players.append(tap(page, "Players", "Add player"))
                tap(page, "Tablemate", "Games")
            browser.close()
    finally:
        server.stop()
    return history, players


def describe(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p90 = ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]
    return (f"  {label:<50} median {statistics.median(times):8.1f} ms   min {ordered[0]:8.1f}"
            f"   p90 {p90:8.1f}   (n={len(times)})")


def all_statistics(services: Services) -> object:
    played = played_history(services)
    stats = history_statistics(played)
    return stats, win_rates(stats), games_per_month(played), every_head_to_head(played)


def in_process_times(data_dir: Path, repeats: int) -> float:
    """Prints what History reads and what statistics cost; returns the kept-state median."""
    with open_library(data_dir, game_for) as library:
        services = Services(library, data_dir)
        print("\nin this process, on the same data folder:")
        print(describe("matches.summaries(), first call (parses them all)",
                       timed(library.matches.summaries, 1)))
        print(describe("History's reads: nights.list() + summaries()", timed(
            lambda: night_entries(library.nights.list(), library.matches.summaries()),
            repeats)))
        print(describe("  of which matches.summaries() alone", timed(
            library.matches.summaries, repeats)))
        first = timed(lambda: all_statistics(services), 1)
        print(describe("all statistics, first time (reads + replays files)", first))
        kept = timed(lambda: all_statistics(services), repeats)
        print(describe("all statistics, from the library's kept states", kept))
        print(describe("  the same, thread CPU", cpu_timed(lambda: all_statistics(services),
                                                           repeats)))
    return statistics.median(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nights", type=int, default=2000)
    parser.add_argument("--tries", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder) / "data"
        start = time.perf_counter()
        newest = build_folder(data_dir, args.nights, args.seed)
        print(f"written through storage in {time.perf_counter() - start:.1f} s")
        history, players = browser_times(data_dir, newest, args.tries)
        print(f"\nheadless Chromium, 390x844, {args.tries} tries each:")
        print(describe("tap History -> first page of nights shown", history))
        print(describe("  first try alone", history[:1]))
        print(describe("baseline: tap Players -> roster shown", players))
        print(f"  ratio of medians (History / Players): "
              f"{statistics.median(history) / statistics.median(players):.2f}")
        kept = in_process_times(data_dir, args.tries)

    opening = statistics.median(history)
    print(f"\ntargets: History first page <= 1000 ms: {'met' if opening <= 1000 else 'NOT met'} "
          f"({opening:.0f} ms); all statistics <= 300 ms: "
          f"{'met' if kept <= 300 else 'NOT met'} ({kept:.0f} ms from kept states)")


if __name__ == "__main__":
    main()
