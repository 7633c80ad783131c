"""How fast a shared table reaches another phone (issue 5: within a second of any change).

    .venv/bin/python bench/share.py [--entries 12]

Starts the real app for the local network (AppServer with --host 0.0.0.0) on a data folder
holding one Crazy Quilt session, opens it in headless Chromium twice: the host at 127.0.0.1,
which shares the table, and a guest at this machine's network address, which watches. Then the
host enters --entries entries (attempt started, attempt won, ...). For each, on one clock
(Date.now() in both pages, same machine):

- baseline: from the host's tap until the host's own screen shows the stored entry;
- shared: from the host's tap until the guest's screen shows it (pubsub, then a re-read from
  storage and a redraw in the guest's session).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright  # noqa: E402

from bench.timing import describe  # noqa: E402
from companion.games.registry import game_for  # noqa: E402
from companion.ui.services import Services  # noqa: E402
from companion.ui.sharing import lan_address  # noqa: E402
from storage import open_library  # noqa: E402
from tests.browser.conftest import AppServer, free_port, launch_chromium, load  # noqa: E402

TIMEOUT_MS = 30_000
SEES = "node => (node.getAttribute('aria-label') || node.textContent || '').trim()"

# The guest notes (epoch ms) when a node starting with `prefix` first shows; returns at once.
GUEST_WATCH = f"""prefix => {{
    const text = {SEES};
    window.__seen = null;
    const poll = () => {{
        if (Array.from(document.querySelectorAll('flt-semantics'))
                .some(node => text(node).startsWith(prefix))) window.__seen = Date.now();
        else requestAnimationFrame(poll);
    }};
    requestAnimationFrame(poll);
}}"""

# The host taps `label` and resolves to [tap time, time its own screen shows `prefix`].
HOST_TAP = f"""([label, prefix, timeout]) => new Promise((resolve, reject) => {{
    const text = {SEES};
    const button = Array.from(document.querySelectorAll('flt-semantics[role=button]'))
        .find(node => text(node) === label);
    if (!button) {{ reject(new Error('no button ' + label)); return; }}
    const tapped = Date.now();
    button.click();
    const poll = () => {{
        if (Array.from(document.querySelectorAll('flt-semantics'))
                .some(node => text(node).startsWith(prefix))) resolve([tapped, Date.now()]);
        else if (Date.now() - tapped > timeout) reject(new Error('host never showed ' + prefix));
        else requestAnimationFrame(poll);
    }};
    requestAnimationFrame(poll);
}})"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=12)
    entries = parser.parse_args().entries
    address = lan_address()
    if address is None:
        sys.exit("this machine has no local network address: nothing to share on")
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "data"
        with open_library(data, game_for) as library:
            ann = library.players.add("Ann")
            Services(storage=library, data_dir=data).start_match("crazy_quilt", (ann.id,), 0)
        server = AppServer(data, free_port(), options=("--host", "0.0.0.0"))
        server.start()
        own, shared = [], []
        try:
            with sync_playwright() as playwright:
                browser = launch_chromium(playwright)
                host = browser.new_context(viewport={"width": 390, "height": 1400}).new_page()
                host.set_default_timeout(TIMEOUT_MS)
                load(host, server.url)
                host.get_by_text("Crazy Quilt: Ann").click()
                host.get_by_role("button", name="Share this table on the local network").click()
                host.get_by_text("Stop sharing").wait_for()
                guest = browser.new_context(viewport={"width": 390, "height": 1400}).new_page()
                guest.set_default_timeout(TIMEOUT_MS)
                load(guest, f"http://{address}:{server.port}")
                guest.get_by_role("textbox", name="Join code").wait_for()
                for number in range(1, entries + 1):
                    label = "Start an attempt" if number % 2 else "Won: all 104 home"
                    prefix = f"{number}. "
                    guest.evaluate(GUEST_WATCH, prefix)
                    tapped, host_saw = host.evaluate(HOST_TAP, [label, prefix, TIMEOUT_MS])
                    guest.wait_for_function("window.__seen !== null")
                    own.append(host_saw - tapped)
                    shared.append(guest.evaluate("window.__seen") - tapped)
                browser.close()
        finally:
            server.stop()
    print(f"shared table, {entries} entries by the host, guest at {address}:")
    print(describe("host's own screen (baseline)", own))
    print(describe("guest's screen", shared))
    print(f"  ratio guest/host, medians: {statistics.median(shared) / statistics.median(own):.2f}"
          f"   target: guest within 1000 ms")


if __name__ == "__main__":
    main()
