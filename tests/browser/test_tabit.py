"""Issue 4, Tabit: a whole game through the screens (boards tapped card by card and lines chosen,
an undo, a correction of a past round that brings on the extra round of B3), checked against the
rules engine on the same events; and the screen at 390x844 with nothing outside the viewport."""

from __future__ import annotations

import re

from companion.core.match import Match, replay
from companion.core.types import PlayerId
from companion.games.registry import game_for
from companion.games.tabit import TABIT, Board, BoardEntered, Line, LineChosen, Picture
from storage import open_library
from tests.browser.conftest import add_player, screen_texts, screenshot, tap

MOON_WORD_4 = Line(Picture.MOON, 4, True)  # 500
STAR_WORD_4 = Line(Picture.STAR, 4, True)  # 400
TREE_BARE_3 = Line(Picture.TREE, 3, False)  # 25


def start_game(page, title: str, players: tuple[str, ...]) -> None:
    """Add the players, then set up a game of `title` with them seated in that order."""
    tap(page.get_by_role("button", name="Players"))
    for name in players:
        add_player(page, name)
    tap(page.get_by_role("button", name="Back"))
    tap(page.get_by_role("button", name=f"New {title} game"))
    for seat, name in enumerate(players, start=1):
        tap(page.get_by_role("checkbox", name=name))
        # Seat by seat: a second tap before the re-render would toggle from a stale seat list.
        page.get_by_text(f"Seat {seat}: {name}").wait_for(timeout=10_000)
    tap(page.get_by_role("button", name="Start the game"))
    page.get_by_role("button", name="Undo last entry").wait_for(timeout=10_000)


def tap_button(page, label: str) -> None:
    """Tap the button labelled exactly `label` through its semantics node (conftest's tap: a
    mouse click aimed by coordinates can reach another node on a loaded machine)."""
    tap(page.get_by_role("button", name=label, exact=True))


def standings_on_screen(page) -> list[tuple[int, str, int]]:
    """The standings table at the top of the match screen: (rank, name, score) rows."""
    texts = screen_texts(page)
    start = next(i for i, text in enumerate(texts) if re.fullmatch(r"\d+\.", text))
    rows = []
    while start + 2 < len(texts) and re.fullmatch(r"\d+\.", texts[start]):
        rows.append((int(texts[start][:-1]), texts[start + 1], int(texts[start + 2])))
        start += 3
    return rows


def assert_inside_viewport(page, width: int) -> None:
    """No control reaches past the left or right edge, and nothing scrolls sideways."""
    outside = page.evaluate("""(width) => Array.from(document.querySelectorAll('flt-semantics'))
        .map(e => [e.textContent.trim().slice(0, 40), e.getBoundingClientRect()])
        .filter(([_, r]) => r.width > 0 && (r.right > width + 1 || r.left < -1))
        .map(([text, r]) => `${text} [${r.left}, ${r.right}]`)""", width)
    assert outside == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def scroll_app(page, down: bool) -> None:
    """Scroll the app to its bottom or top (Flutter scrolls inside its canvas, not the page)."""
    page.mouse.move(100, 400)
    for _ in range(5):
        page.mouse.wheel(0, 1000 if down else -1000)
    page.wait_for_timeout(500)


def wait_for_entry(page, number: int) -> None:
    """The history shows entry `number`: it is on disk (the screen shows only stored entries)."""
    entry_shown(page, number).wait_for(timeout=10_000)


def entry_shown(page, number: int):
    """The history's entry `number` (a locator): shown only once it is stored."""
    return page.get_by_role("button", name=f"Delete entry {number}", exact=True)


def enter_line(page, player: str, label: str, number: int) -> None:
    tap_button(page, f"{player}'s board")
    tap_button(page, label)
    tap(page.get_by_role("button", name=re.compile(rf"^Enter {player}'s board: \d+$")))
    wait_for_entry(page, number)


def tap_moon_board(page, verb: str, player: str) -> None:
    """Four MOON pictures and the letters N, O, O, M (any order makes the word, B2): 500."""
    for _ in range(4):
        tap_button(page, "MOON")
    for letter in "NOOM":
        tap_button(page, letter)
    page.get_by_text("The board makes 4 pictures of the MOON with the word: 500").wait_for(
        timeout=10_000)
    tap_button(page, f"{verb} {player}'s board: 500")


def test_a_whole_game_with_undo_and_a_correction_that_brings_on_the_tie_round(app_server, open_app):
    page = open_app(app_server.url, 360, 740)
    start_game(page, "Tabit", ("Ann", "Bob"))

    # Round 1: Ann's board tapped card by card, Bob's line chosen (wrongly, corrected below).
    tap_button(page, "Ann's board")
    tap_moon_board(page, "Enter", "Ann")
    wait_for_entry(page, 1)
    enter_line(page, "Bob", "STAR 400", 2)
    # Round 2: Bob's first entry is a slip, undone and entered again.
    enter_line(page, "Ann", "MOON 500", 3)
    enter_line(page, "Bob", "TREE 25", 4)
    page.get_by_text("Game over. Winner: Ann").wait_for(timeout=10_000)
    tap_button(page, "Undo last entry")
    page.get_by_role("button", name="Delete entry 4", exact=True).wait_for(
        state="detached", timeout=10_000)
    enter_line(page, "Bob", "MOON 500", 4)
    assert standings_on_screen(page) == [(1, "Ann", 1000), (2, "Bob", 900)]

    # Correct round 1: Bob's board was MOON with the word too. Both now have 1000: the game is
    # back on, for an extra round (B3).
    tap_button(page, "Correct entry 2")
    page.get_by_text("Correcting entry 2").wait_for(timeout=10_000)
    tap_moon_board(page, "Save", "Bob")
    page.get_by_text("Correcting entry 2").wait_for(state="detached", timeout=10_000)
    page.get_by_text(re.compile("Extra round: Ann, Bob share the top")).wait_for(timeout=10_000)
    assert standings_on_screen(page) == [(1, "Ann", 1000), (1, "Bob", 1000)]

    enter_line(page, "Ann", "TREE 25", 5)
    enter_line(page, "Bob", "No score 0", 6)
    page.get_by_text("Game over. Winner: Ann").wait_for(timeout=10_000)
    shown = standings_on_screen(page)

    app_server.stop()  # read what is on disk, as the app left it
    with open_library(app_server.data_dir, game_for) as library:
        ids = {player.name: player.id for player in library.players.list()}
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    ann, bob = PlayerId(ids["Ann"]), PlayerId(ids["Bob"])
    moon_board = Board((Picture.MOON,) * 4, tuple("NOOM"))
    expected = (BoardEntered(ann, moon_board), BoardEntered(bob, moon_board),
                LineChosen(ann, MOON_WORD_4), LineChosen(bob, MOON_WORD_4),
                LineChosen(ann, TREE_BARE_3), LineChosen(bob, None))
    assert stored.events == expected
    by_engine = replay(Match(stored.id, "tabit", stored.seating, stored.options, "", "",
                             expected), TABIT).game
    names = {ann: "Ann", bob: "Bob"}
    assert shown == [(s.rank, names[s.player], s.score) for s in TABIT.standings(by_engine)]
    assert shown == [(1, "Ann", 1025), (2, "Bob", 1000)]
    assert TABIT.winners(by_engine) == {ann}
    assert [summary.tie_round for summary in by_engine.rounds] == [False, False, True]


def test_tabit_screen_fits_a_390_px_phone(app_server, open_app):
    page = open_app(app_server.url, 390, 844)
    start_game(page, "Tabit", ("Ann", "Bob", "Cy"))
    for picture in ("STAR", "STAR", "STAR", "TREE"):
        tap_button(page, picture)
    for letter in "RATS":
        tap_button(page, letter)
    page.get_by_text("The board makes 3 pictures of the STAR with the word: 300").wait_for(
        timeout=10_000)
    scroll_app(page, down=False)  # the taps scrolled down to the letters
    screenshot(page, "tabit-390x844")
    assert_inside_viewport(page, 390)
    scroll_app(page, down=True)
    page.get_by_role("button", name="No score 0", exact=True).wait_for(timeout=10_000)
    screenshot(page, "tabit-390x844-end")
    assert_inside_viewport(page, 390)
