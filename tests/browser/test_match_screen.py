"""What the match screen adds to every game, in the browser (issue 4): refusals name the players,
abandoning takes a confirming tap (G4), a game's result stays on screen once it is over, and the
screen is kept awake while a match is shown.
"""

from __future__ import annotations

from companion.core.match import MatchAbandoned
from companion.games.registry import game_for
from companion.games.tableau import Call
from companion.games.tableau_solitaire import Attempt, SessionEnds
from storage import open_library
from tests.browser.conftest import load, tap, type_into
from tests.browser.test_patience import session_statistics_shown
from tests.browser.test_tabit import start_game as start_game_with_new_players
from tests.browser.test_tabit import tap_button, wait_for_entry
from tests.browser.test_tableau import call, seat_players, see, start_game
from tests.browser.test_tableau_solitaire import TIME_FIELD, start_session

# Records the page's Screen Wake Lock requests and releases (the web client's wakelock) in
# window.wakeLog, before the app's own script runs.
RECORD_WAKE_LOCK = """(() => {
    window.wakeLog = [];
    if (!navigator.wakeLock) { window.wakeLog.push('no Screen Wake Lock API'); return; }
    const request = navigator.wakeLock.request.bind(navigator.wakeLock);
    navigator.wakeLock.request = async type => {
        const sentinel = await request(type);
        window.wakeLog.push('held');
        const release = sentinel.release.bind(sentinel);
        sentinel.release = () => { window.wakeLog.push('released'); return release(); };
        return sentinel;
    };
})()"""


def stored(app_server) -> tuple[tuple, dict[str, str]]:
    """The one match's events as the app left them on disk, and the players' ids by name."""
    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        (summary,) = library.matches.summaries()
        ids = {player.name: player.id for player in library.players.list()}
        return library.matches.get(summary.id).events, ids


def test_a_refusal_names_the_players_and_abandoning_is_confirmed(app_server, open_app):
    seat_players(app_server)
    page = open_app(app_server.url, 390, 844)
    start_game(page)
    call(page, None, False, "1. Ann called a piece from Bob: no fit, Ann forfeits 1 token to Bob")
    call(page, None, True, "2. Bob called a piece from Cy: fit")

    # Without entry 1, Bob's call would come out of turn (T3): refused, in names, log kept.
    tap(page.get_by_role("button", name="Delete entry 1"))
    see(page, "Entry 1: It is Ann's turn to call, not Bob's.", exact=True)
    see(page, "1. Ann called a piece from Bob: no fit, Ann forfeits 1 token to Bob", exact=True)

    # G4 takes a second tap; "Keep playing" records nothing.
    tap(page.get_by_role("button", name="Abandon game"))
    tap(page.get_by_role("button", name="Keep playing"))
    page.get_by_role("button", name="Abandon game").wait_for()
    assert page.get_by_role("button", name="Yes, abandon it").count() == 0
    tap(page.get_by_role("button", name="Abandon game"))
    tap(page.get_by_role("button", name="Yes, abandon it"))
    see(page, "3. The table abandoned the game", exact=True)
    see(page, "Abandoned: kept in history, counts in no statistics")
    assert page.get_by_role("button", name="Abandon game").count() == 0

    events, ids = stored(app_server)
    assert events == (Call(ids["Ann"], ids["Bob"], False), Call(ids["Bob"], ids["Cy"], True),
                      MatchAbandoned())


def test_the_best_times_stay_when_the_solitaire_session_ends(app_server, open_app):
    seat_players(app_server, ("Ann",))
    page = open_app(app_server.url, 390, 844)
    start_session(page)
    type_into(page, TIME_FIELD, "2:10", "Time to record: 2:10")
    tap(page.get_by_role("button", name="Finished", exact=True))
    see(page, "1. 1 picture in 2:10, finished", exact=True)

    tap(page.get_by_role("button", name="End the session"))
    see(page, "Game over. Winner: Ann")
    see(page, "Best times", exact=True)  # the result, now that the entry form is gone
    see(page, "1 picture: 2:10 (attempt 1)", exact=True)
    assert page.get_by_role("button", name="Finished", exact=True).count() == 0

    events, _ = stored(app_server)
    assert events == (Attempt(1, True, seconds=130.0), SessionEnds())


def test_a_crazy_quilt_session_ends_with_its_statistics_on_screen(app_server, open_app):
    page = open_app(app_server.url, 390, 844)
    start_game_with_new_players(page, "Crazy Quilt", ("Ann",))
    tap_button(page, "Start an attempt")
    wait_for_entry(page, 1)
    tap_button(page, "Won: all 104 home")
    wait_for_entry(page, 2)
    tap_button(page, "End the session")
    see(page, "Game over. Winner: Ann")
    see(page, "Statistics (Q3)", exact=True)  # the result, now that the entry form is gone
    assert session_statistics_shown(page).startswith("Attempts 1 · wins 1 · win rate 100%")
    assert page.get_by_role("button", name="Start an attempt").count() == 0


def test_the_screen_is_kept_awake_while_a_match_is_shown(app_server, open_app):
    seat_players(app_server)
    page = open_app(app_server.url, 390, 844)
    page.context.add_init_script(RECORD_WAKE_LOCK)
    load(page, app_server.url)
    start_game(page)
    page.wait_for_function("window.wakeLog.join() === 'held'", timeout=10_000)
    tap(page.get_by_role("button", name="Home"))
    page.wait_for_function("window.wakeLog.join() === 'held,released'", timeout=10_000)
