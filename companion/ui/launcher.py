"""Start the app: a desktop window where one can be had, else the offline web app."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import flet as ft
from platformdirs import user_data_dir

from companion.ui.app import build_page
from companion.ui.services import open_services
from companion.ui.sharing import Sharing

APP_NAME = "Tablemate"


def default_data_dir() -> Path:
    """The platform's user data folder; inside a packaged Flet app, its app-data folder."""
    packaged = os.environ.get("FLET_APP_STORAGE_DATA")
    return Path(packaged) if packaged else Path(user_data_dir(APP_NAME, appauthor=False))


def desktop_available() -> bool:
    """A window needs a display and Flet's desktop client package.

    On Linux the client is downloaded on first use, which fails offline, so only an
    explicitly installed flet-desktop counts there.
    """
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False
    return importlib.util.find_spec("flet_desktop") is not None


def launch(*, web: bool, host: str, port: int, data_dir: Path | None) -> None:
    services = open_services(data_dir or default_data_dir())
    services.sharing = Sharing(host, port)  # where other phones can reach this server, if at all
    for notice in services.notices:
        print(f"Tablemate: {notice}", flush=True)
    if not web and desktop_available():
        ft.run(lambda page: build_page(page, services), name=APP_NAME)
        return
    # Offline web: never fetch the renderer from a CDN; bind where asked (127.0.0.1 unless shared).
    os.environ["FLET_FORCE_WEB_SERVER"] = "1"  # print the address rather than open a browser
    print(f"Tablemate is running at http://{host}:{port}  (data: {services.data_dir})", flush=True)
    ft.run(lambda page: build_page(page, services), name="", host=host, port=port,
           view=ft.AppView.WEB_BROWSER, no_cdn=True)
