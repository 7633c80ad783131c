"""Issue 5, backup and exchange on the settings screen: the whole history downloads as JSON (that
imports again) and as CSV; a bad file is refused with the exact reason and changes nothing; a good
one is merged; restoring the start-up backup takes the data back to before the import."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from companion.core.errors import FormatError
from companion.games.registry import game_for
from companion.history.exchange import CSV_COLUMNS, export_json, read_history
from companion.ui.services import Services
from storage import memory_library, open_library
from tests.browser.conftest import AppServer, free_port, screenshot, tap

SETTINGS = "Settings: export, import, backups"


@pytest.fixture
def server_with_history(tmp_path):
    """Ann has played one Crazy Quilt session; opening the folder takes the start-up backup."""
    data = tmp_path / "data"
    with open_library(data, game_for) as library:
        ann = library.players.add("Ann")
        Services(storage=library, data_dir=data).start_match("crazy_quilt", (ann.id,), 0)
    server = AppServer(data, free_port())
    server.start()
    yield server
    server.stop()


def open_settings(open_app, url: str):
    page = open_app(url, 390, 3000)  # tall: the settings button sits below the games
    tap(page.get_by_role("button", name=SETTINGS))
    page.get_by_role("button", name="Export history as JSON").wait_for()
    return page


def download(page, label: str) -> tuple[str, str]:
    with page.expect_download() as started:
        tap(page.get_by_role("button", name=label))
    name = started.value.suggested_filename
    # The report moves the buttons down: the next tap waits for the layout it will hit.
    page.get_by_text(f"Exported the whole history as {name}.").wait_for()
    return name, Path(started.value.path()).read_text("utf-8")


def import_file(page, path: Path) -> None:
    with page.expect_file_chooser() as chooser:
        tap(page.get_by_role("button", name="Import a history file"))
    chooser.value.set_files(str(path))


def players_shown(page, open_app) -> None:
    tap(page.get_by_role("button", name="Home"))
    tap(page.get_by_role("button", name="Players"))
    page.get_by_role("button", name="Rename Ann").wait_for()


def test_the_history_downloads_as_json_that_reimports_and_as_csv(server_with_history, open_app):
    page = open_settings(open_app, server_with_history.url)
    name, text = download(page, "Export history as JSON")
    assert re.fullmatch(r"tablemate-history-\d{4}-\d\d-\d\d\.json", name)
    history = read_history(text, game_for)  # the documented format, and it reads back
    assert [player.name for player in history.players] == ["Ann"]
    assert [match.game for match in history.matches] == ["crazy_quilt"]
    assert len(history.nights) == 1

    name, text = download(page, "Export history as CSV")
    assert name.endswith(".csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(row[1], row[2]) for row in rows[1:]] == [("Crazy Quilt", "Ann")]


def test_a_bad_file_is_refused_a_good_one_merged_and_a_backup_restored(server_with_history,
                                                                       open_app, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1, "players": [{"id": "p1", "name": "  "}]}))
    with pytest.raises(FormatError) as refused:
        read_history(bad.read_text(), game_for)
    good = tmp_path / "zoe.json"
    elsewhere = memory_library(game_for)
    zoe = elsewhere.players.add("Zoe")
    Services(storage=elsewhere, data_dir=tmp_path).start_match("crazy_quilt", (zoe.id,), 0)
    good.write_text(export_json(elsewhere, game_for))

    page = open_settings(open_app, server_with_history.url)
    import_file(page, bad)
    page.get_by_text(f"bad.json was not imported, nothing changed: {refused.value}").wait_for()
    import_file(page, good)
    page.get_by_text("Imported zoe.json: 1 player, 1 game night and 1 game added; "
                     "0 records already here.").wait_for()
    players_shown(page, open_app)
    page.get_by_role("button", name="Rename Zoe").wait_for()

    tap(page.get_by_role("button", name="Back"))
    tap(page.get_by_role("button", name=SETTINGS))
    tap(page.get_by_role("button", name=re.compile(r"^Restore \d\d \w{3} \d{4}")).first)
    tap(page.get_by_role("button", name="Yes, restore it"))
    page.get_by_text(re.compile(r"^Restored the data as it was on .*restore that to undo this\.$"))\
        .wait_for()
    screenshot(page, "settings-restored")
    players_shown(page, open_app)
    assert page.get_by_role("button", name="Rename Zoe").count() == 0
