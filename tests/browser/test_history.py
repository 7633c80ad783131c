"""Issue 5 in the browser: History (filters, a night's page with results and round tables, a match
reopened and corrected) and Statistics, whose numbers are checked against companion.history.stats
computed on the same matches.

The history is the hand-built one of tests/history (seven real matches, an abandoned one among
them, G4), filed under two nights and put in the data folder before the app starts.
"""

from __future__ import annotations

from dataclasses import replace

from companion.core.players import Player
from companion.core.types import NightId
from companion.games.registry import game_for
from companion.history.stats import HistoryStatistics, WinRecord, history_statistics, outcomes
from storage import open_library
from storage.model import Night
from tests.browser.conftest import controls_outside, screenshot, tap
from tests.history.histories import ANN, BOB, CY, seven_matches

WINTER, SPRING = NightId("winter"), NightId("spring")
NIGHTS = (Night(WINTER, "2026-01-12"), Night(SPRING, "2026-03-09", place="Bob's kitchen"))
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
# Older nights whose games were deleted: enough of them to need a second page (20 a page).
EMPTY_NIGHTS = tuple(Night(NightId(f"december-{day}"), f"2025-12-{day:02d}") for day in range(1, 22))


def history():
    """m1, m2 (the only one Cy sat in) in winter; m3 (Tabit) to m7 in spring."""
    return tuple(replace(match, night=WINTER if match.id in ("m1", "m2") else SPRING)
                 for match in seven_matches())


def store_history(app_server) -> None:
    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        library.players.put_many(Player(player, name) for player, name in NAMES.items())
        library.nights.put_many(NIGHTS + EMPTY_NIGHTS)
        library.matches.create_many(history())
    app_server.start()


def statistics_of(matches) -> HistoryStatistics:
    return history_statistics(outcomes(matches, game_for))


def shown_record(record: WinRecord) -> str:
    """The start of the record line the Statistics screen shows."""
    rate = f"{100 * record.wins / record.played:.0f}%"
    return (f"Played {record.played}, wins {record.wins}, win rate {rate}, "
            f"current streak {record.current_streak}, longest streak {record.longest_streak}")


def nights_listed(page) -> tuple[bool, bool]:
    return (page.get_by_text("Night of 2026-01-12").count() > 0,
            page.get_by_text("Night of 2026-03-09 at Bob's kitchen").count() > 0)


def test_history_filters_nights_shows_round_tables_and_statistics_follow_a_correction(
        app_server, open_app):
    store_history(app_server)
    page = open_app(app_server.url, 390, 2600)  # tall: the whole first page in the tree

    tap(page.get_by_role("button", name="History"))
    page.get_by_text("23 game nights").wait_for()
    assert nights_listed(page) == (True, True)
    page.get_by_text("Night of 2025-12-04").wait_for()  # the 20th, newest first
    assert page.get_by_text("Night of 2025-12-03").count() == 0
    tap(page.get_by_role("button", name="Show more"))
    page.get_by_text("Night of 2025-12-01").wait_for()
    page.get_by_role("button", name="Show more").wait_for(state="detached")
    tap(page.get_by_role("button", name="Cy", exact=True))
    page.get_by_text("1 game night", exact=True).wait_for()
    assert nights_listed(page) == (True, False)
    tap(page.get_by_role("button", name="All players", exact=True))
    page.get_by_text("23 game nights", exact=True).wait_for()  # the filter is off before the next
    tap(page.get_by_role("button", name="Tabit", exact=True))
    page.get_by_text("1 game night", exact=True).wait_for()
    assert nights_listed(page) == (False, True)
    tap(page.get_by_role("button", name="Cy", exact=True))
    page.get_by_text("0 game nights").wait_for()
    tap(page.get_by_role("button", name="All players", exact=True))

    page.set_viewport_size({"width": 390, "height": 844})
    tap(page.get_by_text("Night of 2026-03-09 at Bob's kitchen"))
    page.get_by_text("Tabit: Ann, Bob").wait_for()
    page.get_by_text("Abandoned: shown here, counted in no statistics.").wait_for()
    page.get_by_text("Shared win").wait_for(state="detached")  # m2 is another night's
    # Tabit's round table (B3): Ann 500 then 1000, Bob 0 then 400.
    page.get_by_text("1000", exact=True).wait_for()
    page.get_by_text("400", exact=True).wait_for()
    page.get_by_text("Chart of Tabit: running totals", exact=False).first.wait_for(
        state="attached")
    screenshot(page, "history-night")
    assert controls_outside(page, 390) == []

    matches = history()
    stats = statistics_of(matches)
    tap(page.get_by_role("button", name="Tablemate"))
    tap(page.get_by_role("button", name="Statistics"))
    page.get_by_text("Ann overall").wait_for()
    page.get_by_text(shown_record(stats.of(ANN).overall), exact=False).wait_for()
    # Ann and Bob: m1 Ann, m2 shared (G3), m3 Ann, m5 Bob; m4 abandoned (G4), m7 unfinished.
    page.get_by_text("Ann against Bob: 4 finished together; Ann won 2, Bob won 1, shared 1, "
                     "someone else 0").wait_for()
    tap(page.get_by_role("button", name="Bob", exact=True))
    page.get_by_text(shown_record(stats.of(BOB).overall), exact=False).wait_for()
    page.get_by_text("Win rate per player", exact=True).wait_for()
    screenshot(page, "history-statistics")
    assert controls_outside(page, 390) == []

    # Reopen the Tabit match and take back its last board: it is unfinished again, and the
    # statistics, computed afresh, follow (G2).
    tap(page.get_by_role("button", name="History"))
    tap(page.get_by_text("Night of 2026-03-09 at Bob's kitchen"))
    tap(page.get_by_role("button", name="Open this Tabit game"))
    tap(page.get_by_role("button", name="Undo last entry"))
    page.get_by_role("button", name="Delete entry 4").wait_for(state="detached")
    corrected = tuple(replace(match, events=match.events[:-1]) if match.id == "m3" else match
                      for match in matches)
    after = statistics_of(corrected)
    assert after.of(ANN).overall != stats.of(ANN).overall
    tap(page.get_by_role("button", name="Home"))
    tap(page.get_by_role("button", name="Statistics"))
    page.get_by_text(shown_record(after.of(ANN).overall), exact=False).wait_for()
