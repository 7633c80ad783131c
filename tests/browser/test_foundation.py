"""Issue 2 end to end: players and a match survive a server restart; names are checked on the field."""

from __future__ import annotations

from tests.browser.conftest import add_player, load, screenshot, tap, type_into


def test_players_and_match_survive_a_restart(app_server, open_app):
    page = open_app(app_server.url)
    tap(page.get_by_role("button", name="Players"))
    add_player(page, "Ann")
    add_player(page, "  Bob  ")  # trimmed

    type_into(page, "New player's name", "ann")
    tap(page.get_by_role("button", name="Add player"))
    page.get_by_text("There is already a player called ann.").wait_for()

    tap(page.get_by_role("button", name="Back"))
    tap(page.get_by_role("button", name="New Plaza game"))
    # Each seat adds a line above "Start the game": the tap waits for it, or it lands where the
    # button was before the line pushed it down (seen on a loaded machine: the tap was lost).
    tap(page.get_by_role("checkbox", name="Ann"))
    page.get_by_text("Seat 1: Ann").wait_for()
    tap(page.get_by_role("button", name="Start the game"))
    page.get_by_text("Plaza is for 2 to 5 players, not 1.").wait_for()
    tap(page.get_by_role("checkbox", name="Bob"))
    page.get_by_text("Seat 2: Bob").wait_for()
    tap(page.get_by_role("button", name="Start the game"))
    page.get_by_role("button", name="Undo last entry").wait_for()
    screenshot(page, "foundation-match")

    app_server.stop()
    app_server.start()
    load(page, app_server.url)
    page.get_by_text("Games in progress").wait_for()
    page.get_by_text("Plaza: Ann, Bob").wait_for()
    tap(page.get_by_role("button", name="Players"))
    page.get_by_role("button", name="Rename Ann").wait_for()
    page.get_by_role("button", name="Rename Bob").wait_for()


def test_a_damaged_data_file_is_reported_and_the_app_still_starts(app_server, open_app):
    page = open_app(app_server.url)
    tap(page.get_by_role("button", name="Players"))
    add_player(page, "Ann")
    app_server.stop()
    app_server.start()  # opening a changed folder takes the automatic backup
    app_server.stop()
    index = app_server.data_dir / "index.json"
    index.write_text(index.read_text()[: len(index.read_text()) // 2])  # truncated
    app_server.start()
    load(page, app_server.url)
    page.get_by_text("was damaged", exact=False).first.wait_for()
    assert list((app_server.data_dir / "damaged").iterdir()), "the damaged file is kept aside"
    tap(page.get_by_role("button", name="Players"))
    page.get_by_role("button", name="Rename Ann").wait_for()
