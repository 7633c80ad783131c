"""Tableau's table-side screen in the browser (issue 4): a whole game with an undo and a
correction, checked against the rules engine, and the phone layout.

The players are put in the data folder before the app starts (the Players screen has its own
test); everything about Tableau goes through the screens.
"""

from __future__ import annotations

import contextlib
import re

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion.core.match import replay
from companion.games.registry import game_for
from companion.games.tableau import TABLEAU, Call, RoundWon, TableStops, WrongPieces
from storage import open_library
from tests.browser.conftest import (
    controls_outside,
    retried,
    screen_texts,
    screenshot,
    tap,
    type_into,
)

PLAYERS = ("Ann", "Bob", "Cy")  # seated in this order; Ann deals first


def seat_players(app_server, names: tuple[str, ...] = PLAYERS) -> None:
    """Put the players in the data folder, then (re)start the app."""
    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        for name in names:
            library.players.add(name)
    app_server.start()


def start_game(page) -> None:
    tap(page.get_by_role("button", name="New Tableau game"))
    for name in PLAYERS:
        tap(page.get_by_role("checkbox", name=name))
        see(page, f"Seat {PLAYERS.index(name) + 1}: {name}")
    tap(page.get_by_role("button", name="Start the game"))
    see(page, "Round 1: 0 calls so far")


def see(page, text: str | re.Pattern, exact: bool = False, timeout: int = 10_000) -> None:
    """Wait until the text is on the page (scrolled out of view or not)."""
    try:
        page.get_by_text(text, exact=exact).wait_for(state="attached", timeout=timeout)
    except PlaywrightTimeout:
        screenshot(page, "tableau-failure")
        raise AssertionError(f"{text!r} is not shown; shown: {screen_texts(page)}") from None


def wait_for_entry(page, line: str) -> None:
    see(page, line, exact=True)


def call(page, called: str | None, fit: bool, line: str) -> None:
    """The player to act calls from `called` (None: the preselected left-hand neighbour)."""
    if called:
        tap(page.get_by_role("button", name=f"From {called}"))
        see(page, re.compile(f"pays {called} 1 token"))
    tap(page.get_by_role("button", name="Fit" if fit else "No fit", exact=True))
    wait_for_entry(page, line)


def type_counts(page, counts: list[tuple[str, int]]) -> None:
    """Type each count, then wait until the screen previews the last player's (the preview shows
    only once every count is in and in range).

    Between two fields it waits a while for the screen to have the count ("Still to count" names
    the players left), since keys typed while the form is built again can be lost. When the
    preview does not come, every count is typed again (typing replaces a field's text): seen on a
    loaded machine, "2" never reached the app though the field showed it, and Bob's "4" went to
    Ann's field ("164 is out of range"), so retyping only the last field could never recover.
    """
    last_name, last_count = counts[-1]

    def type_all() -> None:
        for done, (name, count) in enumerate(counts, start=1):
            type_into(page, f"{name}: missing or wrong pieces", str(count))
            waiting = [other for other, _ in counts[done:]]
            if waiting:
                # Only pacing: a count that did not arrive is typed again by the retry below.
                with contextlib.suppress(PlaywrightTimeout):
                    page.get_by_text(f"Still to count: {', '.join(waiting)}.").first.wait_for(
                        state="attached", timeout=5_000)

    retried(type_all, page.get_by_text(re.compile(f"^{last_name}: {last_count} wrong")).first,
            "attached", 5_000)


def settle(page, winner: str, counts: list[tuple[str, int]], preview: list[str],
           line: str) -> None:
    tap(page.get_by_role("button", name="Round won: settle it"))
    tap(page.get_by_role("button", name=f"Won by {winner}"))
    type_counts(page, counts)
    for expected in preview:
        see(page, expected, exact=True)
    tap(page.get_by_role("button", name="Confirm the round"))
    wait_for_entry(page, line)


def shown_standings(page) -> list[tuple[int, str, int]]:
    """The standings rows on screen: rank, name, tokens."""
    texts = screen_texts(page)
    return [(int(texts[i][:-1]), texts[i + 1], int(texts[i + 2]))
            for i in range(len(texts) - 2) if re.fullmatch(r"\d+\.", texts[i])]


def test_a_whole_game_with_an_undo_and_a_correction(app_server, open_app):
    seat_players(app_server)
    page = open_app(app_server.url, 360, 740)
    start_game(page)

    # Round 1, Ann deals and calls first (T3); a no-fit moves one token to the called (T4).
    call(page, None, False, "1. Ann called a piece from Bob: no fit, Ann forfeits 1 token to Bob")
    see(page, "Ann: 19 tokens")
    call(page, None, True, "2. Bob called a piece from Cy: fit")
    call(page, None, True, "3. Cy called a piece from Ann: fit")  # a slip of the finger ...
    tap(page.get_by_role("button", name="Undo last entry"))  # ... undone
    page.get_by_text("3. Cy called a piece from Ann: fit").wait_for(state="detached",
                                                                     timeout=10_000)
    call(page, "Bob", False, "3. Cy called a piece from Bob: no fit, Cy forfeits 1 token to Bob")

    # Impossible counts are refused on the field (T6: 0 to 16 pieces).
    tap(page.get_by_role("button", name="Round won: settle it"))
    tap(page.get_by_role("button", name="Won by Bob"))
    type_into(page, "Cy: missing or wrong pieces", "17", "17 is out of range: enter 0 to 16.")
    type_into(page, "Cy: missing or wrong pieces", "two",
              "“two” is not a whole number: enter 0 to 16.")
    assert page.get_by_role("button", name="Confirm the round").is_disabled()
    tap(page.get_by_role("button", name="Back to calls"))

    settle(page, "Bob", [("Cy", 2), ("Ann", 16)],
           ["Bob: won the round, +18, now 40 tokens", "Cy: 2 wrong, -2, now 17 tokens",
            "Ann: 16 wrong, -16, now 3 tokens"],
           "4. Round won by Bob; wrong pieces: Cy 2, Ann 16")

    # Round 2 is dealt by Bob, the next player to the left (T7).
    see(page, "Round 2: 0 calls so far")
    see(page, "Dealer: Bob  ·  Turn: Bob")
    call(page, "Ann", False, "5. Bob called a piece from Ann: no fit, Bob forfeits 1 token to Ann")
    call(page, None, False, "6. Cy called a piece from Ann: no fit, Cy forfeits 1 token to Ann")
    call(page, "Cy", False, "7. Ann called a piece from Cy: no fit, Ann forfeits 1 token to Cy")
    # Ann has 4 tokens and 12 wrong pieces: she pays all and owes 8 (T5), shown before confirming.
    settle(page, "Cy", [("Ann", 12), ("Bob", 3)],
           ["Cy: won the round, +15, now 32 tokens", "Ann: 12 wrong, -12, now owes 8 tokens",
            "Bob: 3 wrong, -3, now 36 tokens"],
           "8. Round won by Cy; wrong pieces: Ann 12, Bob 3")
    see(page, "Ann: owes 8 tokens")
    assert controls_outside(page, 360) == []

    # G2: round 1 is corrected (Ann had 14 wrong, not 16); the totals follow at once.
    tap(page.get_by_role("button", name="Correct entry 4"))
    see(page, "Correcting entry 4")
    see(page, "Ann: 16 wrong, -16, now 3 tokens", exact=True)  # pre-filled with the old round
    type_counts(page, [("Ann", 14)])
    see(page, "Ann: 14 wrong, -14, now 5 tokens", exact=True)
    tap(page.get_by_role("button", name="Confirm the round"))
    wait_for_entry(page, "4. Round won by Bob; wrong pieces: Cy 2, Ann 14")
    see(page, "Ann: owes 6 tokens")

    tap(page.get_by_role("button", name="Stop the table: game over"))
    see(page, "Game over. Winner: Bob")
    shown = shown_standings(page)

    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        ids = {player.name: player.id for player in library.players.list()}
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    ann, bob, cy = (ids[name] for name in PLAYERS)
    expected_events = (
        Call(ann, bob, False), Call(bob, cy, True), Call(cy, bob, False),
        RoundWon(bob, (WrongPieces(cy, 2), WrongPieces(ann, 14))),
        Call(bob, ann, False), Call(cy, ann, False), Call(ann, cy, False),
        RoundWon(cy, (WrongPieces(ann, 12), WrongPieces(bob, 3))),
        TableStops(),
    )
    assert stored.events == expected_events
    state = replay(stored, TABLEAU).game
    names = {player_id: name for name, player_id in ids.items()}
    assert shown == [(standing.rank, names[standing.player], standing.score)
                     for standing in TABLEAU.standings(state)]
    assert shown == [(1, "Bob", 34), (2, "Cy", 32), (3, "Ann", -6)]  # by hand, T4-T6
    assert summary.finished and summary.winners == frozenset({bob})


def test_the_round_end_fits_a_phone(app_server, open_app):
    seat_players(app_server)
    page = open_app(app_server.url, 390, 844)
    start_game(page)
    call(page, None, False, "1. Ann called a piece from Bob: no fit, Ann forfeits 1 token to Bob")
    tap(page.get_by_role("button", name="Round won: settle it"))
    tap(page.get_by_role("button", name="Won by Cy"))
    type_counts(page, [("Ann", 16), ("Bob", 4)])
    page.mouse.move(195, 600)
    page.mouse.wheel(0, 400)  # the settlement preview into view
    see(page, "Ann: 16 wrong, -16, now 3 tokens", exact=True)
    screenshot(page, "tableau-390x844")
    assert controls_outside(page, 390) == []
