"""Drive the real app in Debian's Chromium (recipe: ../shared/notes/flet-1.0-facts.md).

Each test gets a server started from main.py on a free port with a temporary data folder.
Where Chromium is missing the browser tests are skipped with the reason, never passed.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = ROOT / "test-artifacts"
TIMEOUT = 30_000  # ms for any wait: the machine may be busy; a real failure still fails


def pytest_collection_modifyitems(items):
    reason = os.environ.get("TABLEMATE_NO_BROWSER") or (
        None if os.path.exists(CHROMIUM) else f"{CHROMIUM} is not installed")
    for item in items:
        if "tests/browser" in str(item.path):
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=f"browser tests skipped: {reason}"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@dataclass
class AppServer:
    data_dir: Path
    port: int
    process: subprocess.Popen | None = None
    options: tuple[str, ...] = ()  # more main.py options, e.g. ("--host", "0.0.0.0")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        """What the app printed: a file, which unlike an unread pipe can never fill and stall it."""
        return self.data_dir.parent / f"app-{self.port}.log"

    def start(self) -> None:
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, str(ROOT / "main.py"), "--web", "--port", str(self.port),
                 "--data-dir", str(self.data_dir), *self.options],
                cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app exited: {self.log_path.read_text()}")
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.2)
        raise RuntimeError("the app did not start listening within 60 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.process = None


@pytest.fixture
def app_server(tmp_path, request) -> Iterator[AppServer]:
    """The app, served; when the test fails, what it printed is added to the failure's report."""
    server = AppServer(tmp_path / "data", free_port())
    server.start()
    yield server
    server.stop()
    failed = failed_report(request)
    if failed:
        failed.sections.append(("the app's output", server.log_path.read_text()))


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


def launch_chromium(playwright):
    """Debian's Chromium, headless, as every browser test and bench drives it."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)


def open_page(browser, url: str, width: int = 390, height: int = 844, timeout: int = TIMEOUT):
    """A page with the app at `url` loaded and semantics on, in a fresh context of `browser`
    that may reach this machine only."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.route("**/*", local_only)
    page = context.new_page()
    page.set_default_timeout(timeout)
    load(page, url)
    return page


def local_only(route) -> None:
    """Let the page reach this machine only: the client's one outside request is harmless blocked."""
    host = route.request.url.split("/")[2].split(":")[0]
    (route.continue_() if host in ("127.0.0.1", "localhost") else route.abort())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test, so fixtures can tell that the test failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def failed_report(request):
    """The test's report when the test itself failed (fixtures add what they saw to it), else None."""
    call = getattr(request.node, "report_call", None)
    return call if call is not None and call.failed else None


@pytest.fixture
def open_app(browser, request):
    """open_app(url, width, height) -> a Playwright page with the app loaded and semantics on.

    When the test fails, every page it opened is saved as test-artifacts/failed-<test>-<n>.png,
    and the texts each page showed are added to the failure's report: a flaky tap leaves the
    screen it produced behind, in the CI log too.
    """
    contexts = []

    def opened(url: str, width: int = 390, height: int = 844):
        page = open_page(browser, url, width, height)
        contexts.append(page.context)
        return page

    yield opened
    failed = failed_report(request)
    if failed:
        pages = [page for context in contexts for page in context.pages]
        for number, page in enumerate(pages, start=1):
            with contextlib.suppress(Exception):  # a dead page must not hide the failure
                screenshot(page, f"failed-{request.node.name}-{number}")
                failed.sections.append((f"page {number} at failure", "\n".join(screen_texts(page))))
    for context in contexts:
        context.close()


def load(page, url: str) -> None:
    """Open the app and switch on Flutter's accessibility tree (once per page load)."""
    listen_for_events(page)
    page.add_init_script(NOTE_RECENT_INPUT)
    page.goto(url)
    page.wait_for_selector("flt-semantics-placeholder", state="attached", timeout=60_000)
    page.evaluate("document.querySelector('flt-semantics-placeholder').click()")
    page.wait_for_selector("flt-semantics", state="attached", timeout=30_000)


def screen_texts(page) -> list[str]:
    """The texts the screen shows, in reading order (leaves of the accessibility tree)."""
    return page.evaluate("""Array.from(document.querySelectorAll('flt-semantics'))
        .filter(e => !e.querySelector('flt-semantics') && e.textContent.trim())
        .map(e => e.textContent.trim())""")


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def tap(control) -> None:
    """Tap the control (a Playwright locator) through its semantics node, as a screen reader does,
    and make sure the app heard it.

    A mouse click is aimed by coordinates, which on Flutter's web client can disagree with what is
    drawn: a re-render can move the semantics tree between Playwright's aim and the click, and for
    a while after a mouse event Flutter ignores the page scrolling that Playwright does to bring a
    node into view (its scroller is overflow: hidden then, which scrollIntoView moves anyway).
    A click event sent to the node is a tap on that node wherever the layout is, and sends no
    mouse events. Text fields are still clicked (type_into): focusing one from script lost typed
    keys.

    A tap waits until the client listens on the node (`flt-tappable`): a lost tap's record
    showed "Record hand 2", tapped 126 ms after typing, without it (its box 2 px tall, below the
    viewport, while Flutter laid the screen out again); by the repeat it had it.

    The client may still lose a tap now and then, loaded machine or not (seen right after typing
    into a field: "Confirm the round" after a count, a Plaza hand's record after its cards): it
    never sends the control's event to the app. So the tap is repeated,
    at most three times, until the client has sent a tap's event (`TAP_EVENTS`) for it: a tap
    the app heard is never repeated, and one it never heard cannot have changed anything. Each
    repeat's warning shows the page's last input events, the node and the focus, since the loss
    is too rare to reproduce at will (none in two full browser runs at a load of 11 to 17).
    """
    expect(control).to_be_enabled(timeout=TIMEOUT)  # as a click waits for it
    page = control.page
    for _ in range(3):
        # Two animation frames, as a click waits for a stable box: a frame Flutter has in hand
        # may still renumber the node.
        page.evaluate("() => new Promise(done => requestAnimationFrame("
                      "() => requestAnimationFrame(done)))")
        # As a click waits for its target to receive events: Flutter's client drops a click on
        # a node it is not listening to, which it marks by the absence of `flt-tappable`.
        expect(control).to_have_attribute("flt-tappable", ANY_VALUE, timeout=TIMEOUT)
        heard_before = len(_events_sent[page])
        control.dispatch_event("click")
        if _tap_heard(page, heard_before):
            return
        warnings.warn(f"the app did not hear a tap on {control} within {TAP_HEARD_MS} ms: "
                      f"tapped again. {lost_tap_evidence(control)}", LostTap, stacklevel=2)
    raise AssertionError(f"the app never heard a tap on {control} (tapped three times)")


class LostTap(UserWarning):
    """A tap the client never sent to the app, repeated: listed in the test run's summary."""


# Events a tap makes a Flet control send: a button's click, a gesture's tap, a checkbox's change.
TAP_EVENTS = frozenset({"click", "tap", "change"})
ANY_VALUE = re.compile(".*")  # any value: an empty pattern matched no node, set or not
TAP_HEARD_MS = 5_000  # a client busy re-rendering sends a tap's event within a second or two
CONTROL_EVENT = 3  # Flet's client-to-app message kind for a control's event: [3, {target, name}]
_events_sent: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # page -> event names


# The page's last input events (kind, page time, target, its flt-tappable and aria-disabled),
# kept so that a LostTap warning shows what reached the page before the tap that got lost.
NOTE_RECENT_INPUT = """window.recentInput = [];
for (const kind of ['pointerdown', 'pointerup', 'click', 'keydown', 'focusin', 'focusout']) {
  document.addEventListener(kind, event => {
    const target = event.target;
    window.recentInput.push([kind, Math.round(event.timeStamp), target.tagName, target.id,
                             target.getAttribute?.('flt-tappable'),
                             target.getAttribute?.('aria-disabled')]);
    window.recentInput.splice(0, window.recentInput.length - 12);
  }, true);
}"""


def lost_tap_evidence(control) -> str:
    """What the page saw before a lost tap: its last input events, the tapped node, the focus."""
    page = control.page
    return (f"Recent input: {page.evaluate('window.recentInput')}. "
            f"Node: {control.evaluate('node => node.outerHTML.slice(0, 300)')}. "
            f"Focus: {page.evaluate('document.activeElement?.outerHTML.slice(0, 200)')}")


def listen_for_events(page) -> None:
    """Note the name of every control event the page's client sends to the app (once per page)."""
    if page in _events_sent:
        return
    sent: list[str] = []
    _events_sent[page] = sent

    def on_frame(payload) -> None:
        name = control_event_name(payload)
        if name is not None:
            sent.append(name)

    page.on("websocket", lambda socket: socket.on("framesent", on_frame))


def control_event_name(payload: bytes | str) -> str | None:
    """The event's name when the frame is a Flet client's control event, else None. A frame is a
    format byte and then a MessagePack array [kind, body]."""
    if not isinstance(payload, bytes):
        return None
    try:
        kind, body = msgpack.unpackb(payload[1:])
    except (ValueError, TypeError, msgpack.UnpackException):
        return None
    return body.get("name") if kind == CONTROL_EVENT and isinstance(body, dict) else None


def _tap_heard(page, heard_before: int) -> bool:
    """Wait until the page has sent a tap's event since `heard_before` events, at most
    TAP_HEARD_MS; waiting in Playwright lets it deliver the socket's frames."""
    deadline = time.monotonic() + TAP_HEARD_MS / 1000
    while not TAP_EVENTS.intersection(_events_sent[page][heard_before:]):
        if time.monotonic() > deadline:
            return False
        page.wait_for_timeout(25)
    return True


def retried(action, awaited, state: str = "visible", wait_ms: int = 10_000) -> None:
    """Do `action` until `awaited` (a locator) is in `state`, at most three times.

    On a loaded machine the headless browser can lose keys typed into a field, and a tap made
    right after typing (the screen stays as it was, with no message): a player would do it
    again, and so do the tests. Every action retried is safe to repeat: typing replaces the
    field's text, and a tap that took effect has moved the screen on (a recorded hand's button
    is gone)."""
    for _ in range(3):
        action()
        try:
            awaited.wait_for(state=state, timeout=wait_ms)
            return
        except PlaywrightTimeout:
            continue
    awaited.wait_for(state=state)  # fails, saying what was awaited


def type_into(page, label, text: str, shown=None) -> None:
    """Replace the text of the field labelled `label` (text or pattern) as a person would:
    tap, delete the old text, type; with `shown`, wait until the screen shows it because of the
    typing.

    Playwright's fill() on Flutter's semantics input is not reliable (the value sometimes never
    reaches the app, or the element is swapped under it), and a fresh page may drop the first
    keys typed: real key presses are used, and repeated (retried) until `shown` is there.
    """
    field = page.get_by_role("textbox", name=label)

    def type_once() -> None:
        focus(field)
        # The old text is deleted key by key: select-all is not always honoured (a retry once
        # appended "87" three times to the "7" left by a dropped key: "7878787").
        page.keyboard.press("Control+End")
        for _ in field.input_value():
            page.keyboard.press("Backspace")
        page.keyboard.type(text)

    if shown is None:
        type_once()
    else:
        retried(type_once, page.get_by_text(shown).first, "attached", 5_000)


def focus(field) -> None:
    """Click the text field until it has the keyboard focus, at most three times: on a loaded
    machine a click can be lost while Flutter lays the screen out again, and the keys typed next
    then go to the field focused before (CI saw Bob's count "4" appended to Ann's "16")."""
    for _ in range(3):
        field.click()
        try:
            expect(field).to_be_focused(timeout=FOCUS_MS)
            return
        except AssertionError:
            continue
    expect(field).to_be_focused()  # fails, saying which field never took the focus


FOCUS_MS = 2_000  # a click's focus arrives within a frame or two, even on a busy client


def add_player(page, name: str) -> None:
    """Add a player on the players screen and wait until his row is there (the name typed
    again before each further tap: it may not have arrived)."""
    retried(lambda: (type_into(page, "New player's name", name),
                     tap(page.get_by_role("button", name="Add player"))),
            page.get_by_role("button", name=f"Rename {' '.join(name.split())}"), wait_ms=5_000)


def controls_outside(page, width: int) -> list[str]:
    """Every semantics node that reaches past the viewport's sides, and the page's scroll width."""
    return page.evaluate("""width => {
        const out = [];
        for (const node of document.querySelectorAll('flt-semantics')) {
            const box = node.getBoundingClientRect();
            if (box.width && (box.right > width + 1 || box.left < -1)) {
                out.push(`${node.getAttribute('aria-label') || node.textContent}: ` +
                         `${box.left}..${box.right}`);
            }
        }
        if (document.documentElement.scrollWidth > width) {
            out.push(`page scroll width ${document.documentElement.scrollWidth}`);
        }
        return out;
    }""", width)


def show_entry(page, number: int) -> None:
    """Make history entry `number` (counted from 1) reachable on the match screen.

    The history shows its latest few entries; an older one appears once "Show all N entries" is
    tapped. Entries that can be deleted are told apart by their "Delete entry N" button.
    """
    entry = page.get_by_role("button", name=f"Delete entry {number}", exact=True)
    show_all = page.get_by_role("button", name=re.compile(r"^Show all \d+ entries$"))
    entry.or_(show_all).first.wait_for()
    if entry.count() == 0:
        tap(show_all)
        entry.wait_for()
