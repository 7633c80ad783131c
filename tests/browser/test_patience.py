"""Issue 4, Crazy Quilt and Windmill: a whole session of each through the screens (the attempt
clock running, Crazy Quilt's redeal, numbers refused on the field, an undo, a correction of an
attempt no longer among the latest history entries), checked against the rules engine and its Q3
statistics on the same events; each game's screen at 390x844 with nothing outside the viewport."""

from __future__ import annotations

import re
from dataclasses import dataclass
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
    PatienceGame,
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
from tests.browser.conftest import retried, screen_texts, screenshot, show_entry, type_into
from tests.browser.test_tabit import (
    assert_inside_viewport,
    entry_shown,
    standings_on_screen,
    start_game,
    tap_button,
    wait_for_entry,
)


def give_up_with(page, cards: str, awaited) -> None:
    """Type the cards home and tap "Given up" until `awaited` (a locator) shows: retried, as
    the typed cards or the tap right after typing can be lost on a loaded machine."""
    retried(lambda: (type_into(page, re.compile("^Cards home when given up"), cards),
                     tap_button(page, "Given up")), awaited)


def session_statistics_shown(page) -> str:
    text = next(text for text in screen_texts(page) if text.startswith("This session:"))
    return " ".join(text.removeprefix("This session:").split())


@dataclass(frozen=True)
class SessionCase:
    game: PatienceGame
    fewest_home: int  # the bases out at the start (Q1, Q2): fewer cards home are refused
    redeal: bool  # the attempt uses the game's redeal (Crazy Quilt's one redeal, Q1)


SESSIONS = [SessionCase(CRAZY_QUILT, 8, redeal=True), SessionCase(WINDMILL, 1, redeal=False)]


@pytest.mark.parametrize("case", SESSIONS, ids=lambda case: case.game.key)
def test_a_whole_session_with_undo_and_a_correction_of_an_older_attempt(app_server, open_app,
                                                                        case):
    page = open_app(app_server.url, 360, 740)
    start_game(page, case.game.title, ("Ann",))
    entries = 0

    def entered(label: str) -> None:
        """Tap `label` and wait until its entry is in the history (stored on disk by then)."""
        nonlocal entries
        tap_button(page, label)
        entries += 1
        wait_for_entry(page, entries)

    entered("Start an attempt")
    # The attempt clock runs from the start stored in the event.
    page.get_by_text(re.compile(r"Attempt clock 0:0[2-9]")).wait_for(timeout=10_000)
    if case.redeal:
        entered("Redeal (1 left)")
        page.get_by_text("Redeals used: 1 of 1").wait_for(timeout=10_000)
        assert page.get_by_role("button", name="Redeal (0 left)").is_disabled()
    else:  # Q1, Q2 give Windmill no redeal: the screen offers none
        page.get_by_text("Windmill is played without a redeal.").wait_for(timeout=10_000)
        assert page.get_by_role("button", name=re.compile("^Redeal")).count() == 0

    allowed = f"enter {case.fewest_home} to 103."
    # not a number: refused on the field, nothing stored
    give_up_with(page, "lots", page.get_by_text(f"“lots” is not a whole number: {allowed}"))
    too_few = case.fewest_home - 1  # fewer than the bases out at the start (Q1, Q2)
    give_up_with(page, str(too_few), page.get_by_text(f"{too_few} is out of range: {allowed}"))
    entries += 1
    give_up_with(page, "87", entry_shown(page, entries))
    given_up = entries  # the attempt corrected below

    for _ in range(2):
        entered("Start an attempt")
        entered("Won: all 104 home")
    entered("Start an attempt")
    give_up_with(page, "50", entry_shown(page, entries + 1))  # a slip: that attempt came out
    tap_button(page, "Undo last entry")
    page.get_by_role("button", name=f"Delete entry {entries + 1}", exact=True).wait_for(
        state="detached", timeout=10_000)
    entered("Won: all 104 home")

    # The first attempt had 90 cards home, not 87; it is no longer among the latest entries.
    show_entry(page, given_up)
    tap_button(page, f"Correct entry {given_up}")
    page.get_by_text(f"Correcting entry {given_up}").wait_for(timeout=10_000)
    give_up_with(page, "90",
                 page.get_by_text(re.compile(rf"^{given_up}\. Given up with 90 cards home")))
    shown_statistics = session_statistics_shown(page)
    assert shown_statistics.startswith("Attempts 4 · wins 3 · win rate 75%")

    tap_button(page, "End the session")
    page.get_by_text("Game over. Winner: Ann").wait_for(timeout=10_000)
    shown = standings_on_screen(page)

    app_server.stop()  # read what is on disk, as the app left it
    with open_library(app_server.data_dir, game_for) as library:
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    times = [event.at for event in stored.events if hasattr(event, "at")]
    expected = (AttemptStarted(times[0]), *([Redealt()] if case.redeal else []),
                AttemptFinished(times[1], 90, False),
                *(event for start, end in ((2, 3), (4, 5), (6, 7))
                  for event in (AttemptStarted(times[start]),
                                AttemptFinished(times[end], 104, True))),
                SessionEnded())
    assert stored.events == expected
    by_engine = replay(Match(stored.id, case.game.key, stored.seating, stored.options, "", "",
                             expected), case.game).game
    assert shown == [(1, "Ann", 3)] == [(s.rank, "Ann", s.score)
                                        for s in case.game.standings(by_engine)]
    statistics = session_statistics(by_engine)
    assert shown_statistics == " ".join(statistics_lines(statistics).split())
    assert [attempt.redeals for attempt in by_engine.attempts] == [int(case.redeal), 0, 0, 0]


@pytest.mark.parametrize("title", ["Crazy Quilt", "Windmill"])
def test_patience_screen_fits_a_390_px_phone(app_server, open_app, title):
    page = open_app(app_server.url, 390, 844)
    start_game(page, title, ("Ann",))
    tap_button(page, "Start an attempt")
    wait_for_entry(page, 1)
    give_up_with(page, "0", page.get_by_text(re.compile("0 is out of range")))
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
