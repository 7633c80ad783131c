"""Time from a tap on a score control to the new total on screen, in the browser (issue 4;
target: median <= 150 ms).

    .venv/bin/python bench/ui.py [--taps 60] [--warmup 5] [--width 390 --height 844]

The real app (tests/browser/conftest.py's AppServer, a fresh data folder) in Debian's headless
Chromium. A Tableau game for Ann, Bob and Cy; each measured tap is "No fit", which records the
call (on disk first) and moves a token from the caller to the called player (T4): the time runs
from the tap, taken in the page with performance.now(), until Flutter's accessibility tree shows
the new standings (rank, name, tokens for every player, as the rules engine computes them after
the same calls). The baseline, measured in the same run, tap for tap between the measured ones,
is a tap that only changes a choice on screen ("From Bob" / "From Cy": which player is called)
and waits for the hint naming that player: the same round trip to the server and redraw, without
storing anything. The history grows by one entry per tap, as in a real game (the match screen
draws its latest entries only): the first and last thirds of the taps are also shown apart. The
machine's load average before and after the run is printed with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from companion.core.seating import Seating  # noqa: E402
from companion.core.types import PlayerId  # noqa: E402
from companion.games.registry import game_for  # noqa: E402
from companion.games.tableau import TABLEAU, Call, TableauState  # noqa: E402
from storage import open_library  # noqa: E402
from tests.browser.conftest import AppServer, free_port, launch_chromium, open_page  # noqa: E402

PLAYERS = tuple(PlayerId(name) for name in ("Ann", "Bob", "Cy"))  # names stand for ids here
TIMEOUT_MS = 20_000

# Tap the button labelled `label` (a DOM click on its semantics node is Flutter's tap), then
# wait, frame by frame, until the leaf texts of the accessibility tree hold `expected` in order,
# one after another. Resolves to the milliseconds taken, or -1 on timeout.
TAP_AND_WAIT = """([label, expected, timeout]) => new Promise(resolve => {
    const leaves = () => Array.from(document.querySelectorAll('flt-semantics'))
        .filter(node => !node.querySelector('flt-semantics'))
        .map(node => node.textContent.trim());
    const shown = () => {
        const texts = leaves();
        return texts.some((_, start) => expected.every((text, i) => texts[start + i] === text));
    };
    const button = Array.from(document.querySelectorAll('flt-semantics[role=button]'))
        .find(node => (node.getAttribute('aria-label') || node.textContent.trim()) === label);
    if (!button) { resolve(-2); return; }
    const start = performance.now();
    button.click();
    const poll = () => {
        const spent = performance.now() - start;
        if (shown()) resolve(spent);
        else if (spent > timeout) resolve(-1);
        else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
})"""


def standings_texts(state: TableauState) -> list[str]:
    """The standings as the match screen's leaf texts show them: "1.", name, tokens, ..."""
    return [text for standing in TABLEAU.standings(state)
            for text in (f"{standing.rank}.", standing.player, str(standing.score))]


def tap(page, label: str, expected: list[str]) -> float:
    spent = page.evaluate(TAP_AND_WAIT, [label, expected, TIMEOUT_MS])
    if spent == -2:
        raise RuntimeError(f"no button {label!r} on screen")
    if spent < 0:
        raise RuntimeError(f"after tapping {label!r}, {expected} was not shown within "
                           f"{TIMEOUT_MS} ms")
    return spent


def start_tableau(page) -> None:
    page.get_by_role("button", name="New Tableau game").click()
    for seat, name in enumerate(PLAYERS, start=1):
        page.get_by_role("checkbox", name=name).click()
        page.get_by_text(f"Seat {seat}: {name}").wait_for(state="attached")
    page.get_by_role("button", name="Start the game").click()
    page.get_by_text("Round 1: 0 calls so far").wait_for(state="attached")


def play(page, taps: int) -> tuple[list[float], list[float]]:
    """`taps` rounds of (baseline choice tap, measured No fit tap): both lists of milliseconds."""
    state = TABLEAU.initial_state(TABLEAU.new_table(Seating(PLAYERS, 0), None))
    baseline, measured = [], []
    for _ in range(taps):
        caller = TABLEAU.to_act(state)
        # The default called player is the left neighbour: choosing the other one changes the
        # screen (its hint) without recording anything. Each player pays his right neighbour and
        # is paid by his left one in turn, so nobody runs out of tokens (the hint's wording
        # would change, T5).
        called = state.table.seating.others(caller)[-1]
        baseline.append(tap(page, f"From {called}", [
            f"Fit: no tokens move. No fit: {caller} pays {called} 1 token."]))
        state = TABLEAU.apply(state, Call(caller, called, False))
        measured.append(tap(page, "No fit", standings_texts(state)))
    return baseline, measured


def summary(label: str, times: list[float]) -> str:
    p95 = statistics.quantiles(times, n=20, method="inclusive")[18]
    return (f"{label:<34} median {statistics.median(times):7.1f} ms   p95 {p95:7.1f} ms   "
            f"min {min(times):7.1f}   max {max(times):7.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--taps", type=int, default=60, help="measured taps (at least 50)")
    parser.add_argument("--warmup", type=int, default=5, help="taps first, not counted")
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    args = parser.parse_args()
    if args.taps < 2 or args.warmup < 0:
        parser.error("--taps must be at least 2 (for percentiles), --warmup 0 or more")

    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder) / "data"
        with open_library(data_dir, game_for) as library:
            for name in PLAYERS:
                library.players.add(name)
        server = AppServer(data_dir, free_port())
        server.start()
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                page = open_page(browser, server.url, args.width, args.height, timeout=30_000)
                start_tableau(page)
                baseline, measured = play(page, args.warmup + args.taps)
                browser.close()
        finally:
            server.stop()

    baseline, measured = baseline[args.warmup:], measured[args.warmup:]
    print(f"Tableau in headless Chromium at {args.width}x{args.height}, {args.taps} taps each "
          f"after {args.warmup} warm-up taps; load average {load_before:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores)")
    print(summary("tap 'No fit' -> new standings", measured))
    print(summary("baseline: tap 'From X' -> hint", baseline))
    third = len(measured) // 3
    for label, part in (("first", slice(None, third)), ("last", slice(-third, None))):
        print(f"  {label} third of the taps: No fit median {statistics.median(measured[part]):.1f}"
              f" ms, baseline median {statistics.median(baseline[part]):.1f} ms")
    print(f"ratio of medians (No fit / baseline): "
          f"{statistics.median(measured) / statistics.median(baseline):.2f}")
    target = statistics.median(measured) <= 150
    print(f"target median <= 150 ms: {'met' if target else 'NOT met'}")


if __name__ == "__main__":
    main()
