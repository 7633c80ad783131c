"""The shared scoreboard (issue 5): one match shared on the local network, watched live by
other phones, changed only by devices that entered the table's join code.

One web server serves every browser as its own session. This device (the host) is any session
whose browser connects over loopback; every other session is a guest. Sharing needs the server
bound to all addresses (`main.py --web --host 0.0.0.0`): with the default 127.0.0.1 no other
device can connect, and the app says how to restart rather than rebinding behind the user's back.

Live updates go through Flet's pubsub between the sessions of the one server: a screen that
stores a change announces the match id, and every screen showing that match re-reads it from
storage (storage is the one truth; messages carry no state).
"""

from __future__ import annotations

import enum
import io
import ipaddress
import secrets
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import flet as ft
import qrcode

from companion.ui.widgets import action, heading

if TYPE_CHECKING:
    from companion.ui.services import Services

JOIN_CODE_DIGITS = 4
WRONG_CODES_ALLOWED = 5  # per device and shared table: 10,000 codes cannot be tried through
WRONG_CODE = "That is not this table's join code: ask the host."
TOO_MANY_WRONG = "Too many wrong codes from this phone: ask the host to share the table again."
SHARING_TOPIC = "tablemate.sharing"


class Role(enum.Enum):
    """What a session may do on a match screen."""

    HOST = "host"  # this device: everything, and the sharing switch
    PLAYER = "player"  # a guest who entered the join code: entries, undo, corrections
    WATCH = "watch"  # a guest without the code: standings and history only


@dataclass(frozen=True)
class SharedTable:
    match_id: str
    join_code: str


def new_join_code() -> str:
    return "".join(secrets.choice("0123456789") for _ in range(JOIN_CODE_DIGITS))


def is_loopback(address: str) -> bool:
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(parsed, "ipv4_mapped", None)  # "::ffff:127.0.0.1" from a dual-stack socket
    return (mapped or parsed).is_loopback


def is_this_device(client_ip: str | None) -> bool:
    """A desktop window has no client address; a browser on this machine comes over loopback."""
    return not client_ip or is_loopback(client_ip)


def lan_address() -> str | None:
    """This machine's address on the local network, or None when it has none.

    Connecting a UDP socket sends nothing; it only asks the system which interface would be used.
    """
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            try:
                udp.connect((probe, 1))
            except OSError:
                continue
            address = udp.getsockname()[0]
            if not is_loopback(address) and address != "0.0.0.0":
                return address
    return None


def qr_png(text: str) -> bytes:
    """A QR code of `text` as PNG bytes (black on white, scannable in either theme)."""
    picture = qrcode.make(text, box_size=6, border=2)
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    return buffer.getvalue()


@dataclass
class Sharing:
    """The one shared table of this server process, and the guest sessions that joined it.

    Shared by every session, so changed under a lock.
    """

    bind_host: str = "127.0.0.1"
    port: int = 0
    table: SharedTable | None = None
    _joined: set[str] = field(default_factory=set)
    _wrong_codes: dict[str, int] = field(default_factory=dict)  # by device address
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def reachable(self) -> bool:
        """Other devices can connect only when the server listens beyond loopback."""
        return not is_loopback(self.bind_host)

    def address(self) -> str | None:
        host = lan_address() if self.bind_host in ("0.0.0.0", "::") else self.bind_host
        return f"http://{host}:{self.port}" if host and self.reachable else None

    def start(self, match_id: str) -> SharedTable:
        with self._lock:
            self.table = SharedTable(match_id, new_join_code())
            self._joined.clear()  # a new code: earlier guests must join again
            self._wrong_codes.clear()
            return self.table

    def stop(self) -> None:
        with self._lock:
            self.table = None
            self._joined.clear()
            self._wrong_codes.clear()

    def join(self, session_id: str, device: str, code: str) -> str | None:
        """Let session `session_id` of `device` (its address) enter scores if `code` is right;
        None when joined, else why not (for the guest to read)."""
        with self._lock:
            if self.table is None:
                return "No table is shared right now."
            if self._wrong_codes.get(device, 0) >= WRONG_CODES_ALLOWED:
                return TOO_MANY_WRONG
            if code.strip() != self.table.join_code:
                self._wrong_codes[device] = self._wrong_codes.get(device, 0) + 1
                return WRONG_CODE
            self._joined.add(session_id)
            return None

    def guest_role(self, session_id: str) -> Role:
        with self._lock:
            return Role.PLAYER if session_id in self._joined else Role.WATCH


# --- live updates between sessions -----------------------------------------------------------


def match_topic(match_id: str) -> str:
    return f"tablemate.match.{match_id}"


def announce(topic: str) -> None:
    """Tell the other sessions of this server that what `topic` names changed."""
    ft.context.page.pubsub.send_others_on_topic(topic, topic)


def use_announcements(topic: str, on_change: Callable[[], None]) -> None:
    """Call `on_change` whenever another session announces `topic`, while this component shows.

    Pubsub runs handlers on a worker thread without this session's page in context; run_thread
    binds it, so state setters called from `on_change` redraw this session.
    """
    page = ft.context.page
    latest = ft.use_ref(None)  # (use_ref would call a function given as its initial value)
    latest.current = on_change  # the newest render's closure answers
    subscribed = ft.use_ref(None)

    def subscribe() -> None:
        subscribed.current = topic
        page.pubsub.subscribe_topic(
            topic, lambda _topic, _message: page.run_thread(lambda: latest.current()))

    # Flet keeps the newest render's cleanup: it reads the topic actually subscribed.
    ft.use_effect(subscribe, [topic],
                  cleanup=lambda: page.pubsub.unsubscribe_topic(subscribed.current))


# --- the host's panel ------------------------------------------------------------------------


@ft.component
def SharePanel(services: Services, match_id: str):
    """On the host's match screen: the switch, then the address, its QR code and the join code."""
    sharing: Sharing = services.sharing
    _, set_version = ft.use_state(0)
    use_announcements(SHARING_TOPIC, lambda: set_version(lambda version: version + 1))
    address = sharing.address()
    table = sharing.table

    def changed(start: bool) -> None:
        if start:
            sharing.start(match_id)
        else:
            sharing.stop()
        announce(SHARING_TOPIC)
        set_version(lambda version: version + 1)

    if address is None:
        return ft.Column([
            heading("Share this table"),
            ft.Text("Other phones can watch this table when Tablemate is started for the local "
                    "network: python3 main.py --web --host 0.0.0.0 (it now listens on "
                    f"{sharing.bind_host} only).", italic=True),
        ])
    if table is None or table.match_id != match_id:
        elsewhere = [] if table is None else [ft.Text(
            "Another game is shared now: sharing this one stops that.", italic=True)]
        return ft.Column([*elsewhere, action("Share this table on the local network",
                                             lambda _: changed(True))])
    return ft.Column([
        heading("Shared on the local network"),
        ft.Text(f"Open {address} on another phone, or scan:", size=16),
        ft.Image(src=qr_png(address), width=180, height=180,
                 semantics_label=f"QR code of {address}"),
        ft.Text(f"Join code: {table.join_code}", size=24, weight=ft.FontWeight.BOLD),
        ft.Text("Without the code a phone can only watch; with it, it can enter scores."),
        action("Stop sharing", lambda _: changed(False)),
    ])
