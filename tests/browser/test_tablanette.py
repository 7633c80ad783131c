"""Tablanette's table-side screen in the browser (issue 4): a whole game, and the phone layout."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import expect

from companion.core.match import Match, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.registry import game_for
from companion.games.tablanette import (
    TABLANETTE,
    PackResult,
    Pile,
    TablanetteOptions,
    TablanetteState,
)
from companion.ui.games.tablanette import COUNT_LABELS, preview
from storage import open_library
from tests.browser.conftest import controls_outside, retried, screen_texts, screenshot, tap

PHONE = (390, 844)
WAIT = 20_000  # ms: the machine is shared; a real failure still fails
BY_NAME = {name: PlayerId(name) for name in ("Ann", "Bob")}
NAMES = {player: name for name, player in BY_NAME.items()}


@dataclass(frozen=True)
class Counted:
    """One pile as the table counts it, by player name."""

    cards: int
    kings: int = 0
    queens: int = 0
    jacks: int = 0
    tens: int = 0
    tablanettes: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pack:
    ann: Counted
    bob: Counted
    two_of_clubs: str
    ten_of_diamonds: str

    def event(self, ids: dict[str, PlayerId]) -> PackResult:
        piles = tuple(Pile(ids[name], **vars(getattr(self, name.lower())))
                      for name in ("Ann", "Bob"))
        return PackResult(piles, ids[self.two_of_clubs], ids[self.ten_of_diamonds])


# The format doc's two packs (Ann 40 / Bob 9, then Ann 8 / Bob 49), the first corrected to add a
# 26-point tablanette (a queen taking a queen, N4), and a last pack of ten 28-point tablanettes
# (a king taking a king) that takes Ann past 251 (N7).
FIRST = Pack(Counted(30, 2, 3, 1, 2, (28,)), Counted(22, 2, 1, 3, 1, (0,)), "Ann", "Bob")
FIRST_CORRECTED = Pack(Counted(30, 2, 3, 1, 2, (28, 26)), FIRST.bob, "Ann", "Bob")
SECOND = Pack(Counted(24, 1, 2, 2, 1), Counted(28, 3, 2, 2, 2, (14, 22)), "Bob", "Ann")
SECOND_MISTYPED = Pack(SECOND.ann, Counted(28, 3, 2, 2, 2, (14,)), "Bob", "Ann")
LAST = Pack(Counted(40, 4, 4, 2, 3, (28,) * 10), Counted(12, 0, 0, 2, 0), "Ann", "Ann")


def start_game(app_server, open_app, size: tuple[int, int]):
    """Ann and Bob on the roster (put there through storage: adding players has its own test in
    test_foundation), then a Tablanette game started through the screens, Ann dealing first."""
    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        for name in ("Ann", "Bob"):
            library.players.add(name)
    app_server.start()
    page = open_app(app_server.url, *size)
    tap(page.get_by_role("button", name="New Tablanette game"))
    # One tap at a time: a second tap before the first is drawn can act on the old seating.
    for seat, name in enumerate(("Ann", "Bob"), start=1):
        tap(page.get_by_role("checkbox", name=name))
        page.get_by_text(f"Seat {seat}: {name}").wait_for(timeout=WAIT)
    tap(page.get_by_role("button", name="Start the game"))
    page.get_by_role("button", name="Save pack 1").wait_for(timeout=WAIT)
    return page


def as_read(name: str, field: str, text: str) -> re.Pattern:
    """The line under the fields that shows `name`'s pile as the app read it, once it has `text`
    in `field` (blank is read as 0, or as no tablanettes)."""
    if field == "tablanettes":
        made = [points for points in re.split(r"[,\s]+", text) if points]
        shown = "tablanettes " + " + ".join(made) if made else "no tablanettes"
        return re.compile(rf"^{name}'s pile as read: .*; {re.escape(shown)}$")
    return re.compile(rf"^{name}'s pile as read: (.*, )?{text or 0} {COUNT_LABELS[field]}[,;]")


def type_pile_field(page, name: str, field: str, text: str,
                    shown: str | re.Pattern | None = None) -> None:
    """Tap `name`'s field and type, as a player does, until the app shows it got the text (the
    pile's line as read, or `shown`). Keys sent before Flutter has the tapped field ready for
    editing reach the page's input but never the app, so the field is typed again then."""
    box = page.get_by_role("textbox", name=f"{name}'s {field}")
    shown = shown or as_read(name, field, text)
    if page.get_by_text(shown).count():
        # Already right (a correction form comes filled in): a player leaves it alone. Typing
        # anyway can append to the old text when the select-all arrives before the field's focus.
        return

    def type_once() -> None:
        box.click()
        page.keyboard.press("Control+A")
        page.keyboard.press("Backspace")
        page.keyboard.type(text, delay=20)

    retried(type_once, page.get_by_text(shown).first, wait_ms=3_000)


def enter_pile(page, name: str, pile: Counted) -> None:
    for field in ("cards", "kings", "queens", "jacks", "tens"):
        type_pile_field(page, name, field, str(getattr(pile, field)))
    type_pile_field(page, name, "tablanettes", ", ".join(map(str, pile.tablanettes)))


def enter_pack(page, pack: Pack, after: tuple[Pack, ...], save: str) -> None:
    """Enter `pack` following the packs `after`; save once the form previews what the rules
    engine scores for it (so the whole entry reached the app)."""
    enter_pile(page, "Ann", pack.ann)
    enter_pile(page, "Bob", pack.bob)
    tap(page.get_by_role("button", name=f"{pack.two_of_clubs} took the 2 of clubs"))
    tap(page.get_by_role("button", name=f"{pack.ten_of_diamonds} took the 10 of diamonds"))
    page.get_by_text(preview(engine_state(after), pack.event(BY_NAME), NAMES)).wait_for(
        timeout=WAIT)
    tap(page.get_by_role("button", name=save))


def wait_for_history(page, entries: int) -> None:
    """Wait until the history lists exactly `entries` packs (the save is on disk by then)."""
    page.get_by_role("button", name=f"Correct entry {entries}").wait_for(timeout=WAIT)
    page.get_by_role("button", name=f"Correct entry {entries + 1}").wait_for(
        state="detached", timeout=WAIT)


def test_a_whole_game_with_an_undo_and_a_correction(app_server, open_app):
    # Tall enough for the whole screen, history included: Flutter leaves what is scrolled far
    # out of view out of the accessibility tree.
    page = start_game(app_server, open_app, (1000, 2400))

    type_pile_field(page, "Ann", "cards", "3o", "'3o' is not a whole number (0 or more).")
    enter_pack(page, FIRST, (), "Save pack 1")
    wait_for_history(page, 1)
    page.get_by_text("Pack 1 (dealer Ann): Ann +40 = 40, Bob +9 = 9").wait_for(timeout=WAIT)

    enter_pack(page, SECOND_MISTYPED, (FIRST,), "Save pack 2")
    wait_for_history(page, 2)
    tap(page.get_by_role("button", name="Undo last entry"))
    wait_for_history(page, 1)

    # Bob's pile filled from Ann's by "Bob has the rest", then his tablanettes typed.
    enter_pile(page, "Ann", SECOND.ann)
    tap(page.get_by_role("button", name="Bob has the rest"))
    page.get_by_text("Bob's pile as read: 28 cards, 3 K, 2 Q, 2 J, 2 tens; no tablanettes").wait_for(
        timeout=WAIT)
    type_pile_field(page, "Bob", "tablanettes", "14, 5")
    tap(page.get_by_role("button", name="Bob took the 2 of clubs"))
    tap(page.get_by_role("button", name="Ann took the 10 of diamonds"))
    page.get_by_text("5 points is not a tablanette score", exact=False).first.wait_for(timeout=WAIT)
    type_pile_field(page, "Bob", "tablanettes", "14, 22")
    page.get_by_text("This pack: Ann +8 (total 48), Bob +49 (total 58)").wait_for(timeout=WAIT)
    tap(page.get_by_role("button", name="Save pack 2"))
    wait_for_history(page, 2)

    # After a save the form is empty again, in the app and in the page (a fresh form is drawn).
    page.get_by_text("Ann's pile as read: ? cards, 0 K, 0 Q, 0 J, 0 tens; no tablanettes").wait_for(
        timeout=WAIT)
    expect(page.get_by_role("textbox", name="Ann's cards")).to_have_value("", timeout=WAIT)
    tap(page.get_by_role("button", name="Correct entry 1"))
    page.get_by_text("Correcting entry 1").wait_for(timeout=WAIT)
    # The form comes filled in with the pack being corrected.
    page.get_by_text("Ann's pile as read: 30 cards, 2 K, 3 Q, 1 J, 2 tens; tablanettes 28").wait_for(
        timeout=WAIT)
    enter_pack(page, FIRST_CORRECTED, (), "Save the correction")
    page.get_by_text("Pack 1 (dealer Ann): Ann +66 = 66, Bob +9 = 9").wait_for(timeout=WAIT)
    page.get_by_text("Pack 2 (dealer Bob): Ann +8 = 74, Bob +49 = 58").wait_for(timeout=WAIT)

    enter_pack(page, LAST, (FIRST_CORRECTED, SECOND), "Save pack 3")
    wait_for_history(page, 3)
    page.get_by_text("Game over. Winner: Ann").wait_for(timeout=WAIT)

    # The rules engine on the same events gives what the page shows.
    final = engine_state((FIRST_CORRECTED, SECOND, LAST))
    assert TABLANETTE.is_over(final)
    expected = {NAMES[player]: total for player, total in final.totals}
    assert expected == {"Ann": 373, "Bob": 60}
    assert shown_standings(page) == [(f"{standing.rank}.", NAMES[standing.player],
                                      str(standing.score))
                                     for standing in TABLANETTE.standings(final)]

    app_server.stop()
    with open_library(app_server.data_dir, game_for) as library:
        ids = {player.name: player.id for player in library.players.list()}
        (summary,) = library.matches.summaries()
        stored = library.matches.get(summary.id)
    assert stored.events == tuple(pack.event(ids) for pack in (FIRST_CORRECTED, SECOND, LAST))
    state = replay(stored, TABLANETTE).game
    assert TABLANETTE.winners(state) == {ids["Ann"]}
    assert {name: dict(state.totals)[ids[name]] for name in ids} == expected


def shown_standings(page) -> list[tuple[str, str, str]]:
    """The standings as drawn under the game's heading: (rank, name, points) per row."""
    texts = screen_texts(page)
    start = texts.index("Tablanette") + 1
    rows = []
    while re.fullmatch(r"[0-9]+\.", texts[start]):
        rows.append(tuple(texts[start:start + 3]))
        start += 3
    return rows


def engine_state(packs: tuple[Pack, ...]) -> TablanetteState:
    """The rules engine's state after `packs`, the players' ids being their names."""
    match = Match(MatchId("same-events"), TABLANETTE.key, Seating(tuple(BY_NAME.values()), 0),
                  TablanetteOptions(), "2026-01-01T20:00:00+00:00", "2026-01-01T20:00:00+00:00",
                  events=tuple(pack.event(BY_NAME) for pack in packs))
    return replay(match, TABLANETTE).game


def test_the_pack_form_and_adviser_fit_a_phone(app_server, open_app):
    page = start_game(app_server, open_app, PHONE)
    tap(page.get_by_role("button", name="Capture adviser"))
    tap(page.get_by_role("button", name="7 of clubs"))
    screenshot(page, "tablanette-390x844")
    assert controls_outside(page, PHONE[0]) == []
