"""Tableau solitaire's screen in the browser (issue 4): a session timed by the clock and by
typed times, with an undo and a correction, checked against the rules engine; the phone layout.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from companion.core.match import replay
from companion.games.registry import game_for
from companion.games.tableau_solitaire import TABLEAU_SOLITAIRE, Attempt, SessionEnds
from companion.ui.games.tableau_solitaire import best_times, format_duration, parse_duration
from storage import open_library
from tests.browser.conftest import controls_outside, screen_texts, screenshot, tap
from tests.browser.test_tableau import seat_players, see, type_into

TIME_FIELD = "Or type the time (minutes:seconds)"


def start_session(page) -> None:
    tap(page.get_by_role("button", name="New Tableau solitaire game"))
    tap(page.get_by_role("checkbox", name="Ann"))
    see(page, "Seat 1: Ann")
    tap(page.get_by_role("button", name="Start the game"))
    see(page, "Attempt 1")


def typed_attempt(page, time: str, pictures: str, result: str, line: str) -> None:
    type_into(page, TIME_FIELD, time, f"Time to record: {time}")
    tap(page.get_by_role("button", name=pictures, exact=True))
    tap(page.get_by_role("button", name=result, exact=True))
    see(page, line, exact=True)


def test_a_session_with_the_clock_an_undo_and_a_correction(app_server, open_app):
    seat_players(app_server, ("Ann",))
    page = open_app(app_server.url, 360, 740)
    start_session(page)

    # Attempt 1 on the clock: it runs, and tapping Finished stops it and records the attempt.
    tap(page.get_by_role("button", name="2 pictures", exact=True))
    tap(page.get_by_role("button", name="Start the clock"))
    see(page, re.compile(r"^0:0[2-9]$"))  # the clock ticks on screen
    tap(page.get_by_role("button", name="Finished", exact=True))
    see(page, re.compile(r"^1\. 2 pictures in 0:\d\d, finished$"))
    see(page, "Attempt 2")

    # A time taken elsewhere is typed; a wrong one is refused on the field.
    type_into(page, TIME_FIELD, "1:3x", "“1:3x” is not a time: type seconds, or minutes:seconds "
                                        "like 12:05.")
    typed_attempt(page, "3:05", "1 picture", "Not finished", "2. 1 picture in 3:05, not finished")
    typed_attempt(page, "2:30", "1 picture", "Finished", "3. 1 picture in 2:30, finished")
    tap(page.get_by_role("button", name="Undo last entry"))
    page.get_by_text("3. 1 picture in 2:30, finished").wait_for(state="detached", timeout=10_000)
    typed_attempt(page, "2:10", "1 picture", "Finished", "3. 1 picture in 2:10, finished")
    see(page, "1 picture: 2:10 (attempt 3)")

    # G2: attempt 2 is corrected (it was finished, in 1:55): the best time follows.
    tap(page.get_by_role("button", name="Correct entry 2"))
    see(page, "Recorded as not finished")
    type_into(page, "Time (minutes:seconds)", "1:55", "Time to record: 1:55")
    tap(page.get_by_role("button", name="Finished", exact=True))
    see(page, "2. 1 picture in 1:55, finished", exact=True)
    see(page, "1 picture: 1:55 (attempt 2)")
    shown_best = [text for text in screen_texts(page) if re.match(r"\d pictures?: ", text)]

    tap(page.get_by_role("button", name="End the session"))
    see(page, "Game over. Winner: Ann")

    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    clocked, *typed, end = stored.events
    assert (clocked.pictures, clocked.finished, clocked.seconds) == (2, True, None)
    assert clocked.started_at < clocked.ended_at  # the screen's clock times, carried by the event
    assert typed == [Attempt(1, True, seconds=115.0), Attempt(1, True, seconds=130.0)]
    assert end == SessionEnds()
    state = replay(stored, TABLEAU_SOLITAIRE).game
    assert shown_best == best_times(state)
    assert [best.pictures for best in state.best] == [1, 2]
    assert summary.finished and summary.winners == frozenset(stored.seating.seats)


def test_the_running_clock_fits_a_phone(app_server, open_app):
    seat_players(app_server, ("Ann",))
    page = open_app(app_server.url, 390, 844)
    start_session(page)
    tap(page.get_by_role("button", name="Start the clock"))
    see(page, re.compile(r"^0:0[1-9]$"))
    page.mouse.move(195, 600)
    page.mouse.wheel(0, 300)  # the clock and the attempt's buttons into view
    screenshot(page, "tableau_solitaire-390x844")
    assert controls_outside(page, 390) == []


@given(st.floats(min_value=0.1, max_value=100 * 3600))  # below, it shows as 0:00: no attempt
def test_a_shown_time_reads_back_as_itself(seconds):
    """What the screen shows (tenths of a second) is what a player can type back (G2 corrections
    start from the shown time)."""
    shown = format_duration(seconds)
    read_back = parse_duration(shown)
    assert abs(read_back - seconds) <= 0.05 + 1e-9
    assert format_duration(read_back) == shown
