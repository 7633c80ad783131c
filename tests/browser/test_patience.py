"""Issue 4, Crazy Quilt and Windmill: a whole session through the screens (the attempt clock
running, a redeal, numbers refused on the field, an undo, a correction of a past attempt), checked
against the rules engine and its Q3 statistics on the same events; each game's screen at 390x844
with nothing outside the viewport."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.match import Match, MatchAbandoned, replay
from companion.core.seating import Seating
from companion.core.types import MatchId
from companion.games.patience import (
    CRAZY_QUILT,
    WINDMILL,
    Attempt,
    AttemptFinished,
    AttemptStarted,
    Redealt,
    SessionEnded,
    attempt_statistics,
    session_statistics,
)
from companion.games.registry import game_for
from companion.ui.games import EntryContext
from companion.ui.games.patience import (
    clock_text,
    earlier_attempts,
    parse_clock,
    statistics_lines,
)
from companion.ui.services import Services
from storage import memory_library, open_library
from tests.browser.conftest import screenshot, type_into
from tests.browser.test_tabit import (
    assert_inside_viewport,
    screen_texts,
    standings_on_screen,
    start_game,
    tap,
    wait_for_entry,
)


def give_up_with(page, cards: str) -> None:
    type_into(page, re.compile("^Cards home when given up"), cards)
    tap(page, "Given up")


def session_statistics_shown(page) -> str:
    text = next(text for text in screen_texts(page) if text.startswith("This session:"))
    return " ".join(text.removeprefix("This session:").split())


def test_a_whole_crazy_quilt_session_with_undo_and_a_correction(app_server, open_app):
    page = open_app(app_server.url, 360, 740)
    start_game(page, "Crazy Quilt", ("Ann",))

    tap(page, "Start an attempt")
    wait_for_entry(page, 1)
    # The attempt clock runs from the start stored in the event.
    page.get_by_text(re.compile(r"Attempt clock 0:0[2-9]")).wait_for(timeout=10_000)
    tap(page, "Redeal (1 left)")
    wait_for_entry(page, 2)
    page.get_by_text("Redeals used: 1 of 1").wait_for(timeout=10_000)
    assert page.get_by_role("button", name="Redeal (0 left)").is_disabled()

    give_up_with(page, "lots")  # not a number: refused on the field, nothing stored
    page.get_by_text("“lots” is not a whole number: enter 8 to 103.").wait_for(timeout=10_000)
    give_up_with(page, "5")  # fewer than the 8 foundation bases (Q1, Q2)
    page.get_by_text("5 is out of range: enter 8 to 103.").wait_for(timeout=10_000)
    give_up_with(page, "87")
    wait_for_entry(page, 3)

    tap(page, "Start an attempt")
    wait_for_entry(page, 4)
    tap(page, "Won: all 104 home")
    wait_for_entry(page, 5)
    tap(page, "Start an attempt")
    wait_for_entry(page, 6)
    give_up_with(page, "50")  # a slip: that attempt came out
    wait_for_entry(page, 7)
    tap(page, "Undo last entry")
    page.get_by_role("button", name="Delete entry 7", exact=True).wait_for(
        state="detached", timeout=10_000)
    tap(page, "Won: all 104 home")
    wait_for_entry(page, 7)

    # The first attempt had 90 cards home, not 87.
    tap(page, "Correct entry 3")
    page.get_by_text("Correcting entry 3").wait_for(timeout=10_000)
    give_up_with(page, "90")
    page.get_by_text(re.compile(r"^3\. Given up with 90 cards home")).wait_for(timeout=10_000)
    shown_statistics = session_statistics_shown(page)
    assert shown_statistics.startswith("Attempts 3 · wins 2 · win rate 67%")

    tap(page, "End the session")
    page.get_by_text("Game over. Winner: Ann").wait_for(timeout=10_000)
    shown = standings_on_screen(page)

    app_server.stop()  # read what is on disk, as the app left it
    with open_library(app_server.data_dir, game_for) as library:
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    times = [event.at for event in stored.events if hasattr(event, "at")]
    expected = (AttemptStarted(times[0]), Redealt(), AttemptFinished(times[1], 90, False),
                AttemptStarted(times[2]), AttemptFinished(times[3], 104, True),
                AttemptStarted(times[4]), AttemptFinished(times[5], 104, True), SessionEnded())
    assert stored.events == expected
    by_engine = replay(Match(stored.id, CRAZY_QUILT.key, stored.seating, stored.options, "", "",
                             expected), CRAZY_QUILT).game
    assert shown == [(1, "Ann", 2)] == [(s.rank, "Ann", s.score)
                                        for s in CRAZY_QUILT.standings(by_engine)]
    statistics = session_statistics(by_engine)
    assert shown_statistics == " ".join(statistics_lines(statistics).split())
    assert [attempt.redeals for attempt in by_engine.attempts] == [1, 0, 0]


@pytest.mark.parametrize("title", ["Crazy Quilt", "Windmill"])
def test_patience_screen_fits_a_390_px_phone(app_server, open_app, title):
    page = open_app(app_server.url, 390, 844)
    start_game(page, title, ("Ann",))
    tap(page, "Start an attempt")
    wait_for_entry(page, 1)
    give_up_with(page, "0")
    page.get_by_text(re.compile("0 is out of range")).wait_for(timeout=10_000)
    page.wait_for_timeout(500)
    screenshot(page, f"{title.lower().replace(' ', '_')}-390x844")
    assert_inside_viewport(page, 390)


# The pieces the screen builds on, without a browser.

@given(st.integers(min_value=0, max_value=100 * 3600))
def test_a_time_shown_on_the_clock_reads_back_as_the_same_time(seconds):
    assert parse_clock(clock_text(seconds)) == seconds


@pytest.mark.parametrize("typed", ["", "12:", "1:2:3:4", "ten", "-5", "1.5"])
def test_a_time_taken_that_is_not_m_ss_is_refused_with_the_reason(typed):
    with pytest.raises(ValueError, match="is not a time: write it as m:ss"):
        parse_clock(typed)


def test_statistics_leave_out_times_until_an_attempt_is_won():
    lost = Attempt("t0", "t1", 600.0, 87, 1, False)
    assert statistics_lines(attempt_statistics([])) == "No attempts yet."
    assert "Best time" not in statistics_lines(attempt_statistics([lost]))
    won = Attempt("t2", "t3", 725.0, 104, 0, True)
    assert statistics_lines(attempt_statistics([lost, won])) == (
        "Attempts 2 · wins 1 · win rate 50%\n"
        "Best time 12:05 · median time 12:05 (won attempts)\n"
        "Average cards home 95.5 · winning streak 1 (longest 1)")


def session(match_id: str, game, player, created_at: str, *events) -> Match:
    return Match(MatchId(match_id), game.key, Seating((player,)), game.options_type(),
                 created_at, created_at, events)


def attempt(start: str, end: str, cards_home: int):
    return (AttemptStarted(f"2026-11-{start}:00+00:00"),
            AttemptFinished(f"2026-11-{end}:00+00:00", cards_home, cards_home == 104))


def test_the_players_history_is_his_other_sessions_of_this_game_oldest_first_not_abandoned():
    library = memory_library(game_for)
    ann, bob = library.players.add("Ann").id, library.players.add("Bob").id
    current = session("now", CRAZY_QUILT, ann, "2026-11-22T20:00:00+00:00",
                      *attempt("22T20:00", "22T20:10", 104))
    library.matches.create_many([
        current,
        session("second", CRAZY_QUILT, ann, "2026-11-21T20:00:00+00:00",
                *attempt("21T20:00", "21T20:09", 60), SessionEnded()),
        session("first", CRAZY_QUILT, ann, "2026-11-20T20:00:00+00:00",
                *attempt("20T20:00", "20T20:12", 104), *attempt("20T20:20", "20T20:30", 90)),
        session("abandoned", CRAZY_QUILT, ann, "2026-11-21T21:00:00+00:00",
                *attempt("21T21:00", "21T21:08", 104), MatchAbandoned()),  # G4
        session("windmill", WINDMILL, ann, "2026-11-21T22:00:00+00:00",
                *attempt("21T22:00", "21T22:05", 104)),
        session("bob", CRAZY_QUILT, bob, "2026-11-21T23:00:00+00:00",
                *attempt("21T23:00", "21T23:05", 104)),
    ])
    context = EntryContext(Services(library, Path(".")), current, None, {ann: "Ann"}, bool)

    earlier = earlier_attempts(context)

    assert [a.cards_home for a in earlier] == [104, 90, 60]
    state = replay(current, CRAZY_QUILT).game
    statistics = attempt_statistics((*earlier, *state.attempts))
    assert (statistics.attempts, statistics.wins, statistics.current_streak,
            statistics.longest_streak, statistics.best_seconds) == (4, 2, 1, 1, 600.0)
