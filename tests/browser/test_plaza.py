"""Plaza at the table, in the browser (issue 4): a whole game through the screens, and the phone
layout at 390 x 844.

The players are put in the data folder through storage before the app starts: this file tests
the Plaza screen, and adding players has its own test (test_foundation.py).
"""

from __future__ import annotations

import re

from companion.core.match import replay
from companion.games.plaza import PLAZA, Card, Charge, Colour, HandPlayed
from companion.games.registry import game_for
from storage import open_library
from tests.browser.conftest import (
    TIMEOUT,
    controls_outside,
    retried,
    screen_texts,
    screenshot,
    show_entry,
    tap,
    type_into,
)


def seat_players(app_server, names: tuple[str, ...]) -> dict[str, str]:
    """Add the players to the app's data folder (with the app stopped); name -> player id."""
    app_server.stop()
    library = open_library(app_server.data_dir, game_for)
    ids = {name: library.players.add(name).id for name in names}
    app_server.start()
    return ids


def see(page, text: str) -> None:
    page.get_by_text(text, exact=True).first.wait_for(timeout=TIMEOUT)


def button(page, name: str):
    return page.get_by_role("button", name=name, exact=True)


def start_game(page, names: tuple[str, ...]) -> None:
    tap(page.get_by_role("button", name="New Plaza game"))
    for seat, name in enumerate(names, start=1):
        tap(page.get_by_role("checkbox", name=name))
        see(page, f"Seat {seat}: {name}")  # seated before the next tap
    tap(page.get_by_role("button", name="Start the game"))
    page.get_by_role("button", name="Undo last entry").wait_for(timeout=TIMEOUT)


def type_total(page, name: str, total: str, shown: str) -> None:
    """Type `total` into the player's field until the screen shows `shown` because of it: a
    field just redrawn (its error appeared) may drop the keys typed into it."""
    type_into(page, f"{name}'s points against", total, shown)
    see(page, shown)


def enter_total(page, name: str, total: int) -> None:
    type_total(page, name, str(total), f"{name}: {total} against")


def pick_colour(page, colour: Colour) -> None:
    # The colour button reads "Red", or "Red · 2" once two Red cards are tapped.
    tap(page.get_by_role("button", name=re.compile(rf"^{colour}( · \d+)?$")))


def tap_cards(page, cards: tuple[Card, ...]) -> None:
    """Pick each card's colour, then tap its number (the grid shows one colour at a time)."""
    for card in cards:
        pick_colour(page, card.colour)
        tap(button(page, str(card)))


def record(page, hand: int) -> None:
    """Record the hand, and wait until the form has moved on from it. Right after typing into a
    field, a tap on the button can be lost in the headless browser (2 CI runs in about 40: the
    screen still showed the hand, its fields filled, no message): the tap is then made again,
    as a player would. A second tap cannot record the hand twice: once it is recorded, the
    button is "Record hand <next>" and no longer found."""
    record_button = button(page, f"Record hand {hand}")
    retried(lambda: tap(record_button), record_button, "detached")


def hand_of_totals(page, hand: int, winner: str, totals: dict[str, int]) -> None:
    """Enter a hand whose losers' points were counted at the table (P3)."""
    tap(button(page, f"{winner} ran out"))
    for name, total in totals.items():
        enter_total(page, name, total)
    record(page, hand)
    see(page, f"{hand}. {winner} ran out; "
        + ", ".join(f"{name} {total}" for name, total in totals.items()))


def shown_standings(page) -> list[tuple[str, str, str]]:
    """The standings as drawn: (rank, name, points against), read from the page's semantics."""
    texts = screen_texts(page)
    start = texts.index("Plaza") + 1  # the standings follow the heading
    rows = []
    while texts[start].endswith(".") and texts[start][:-1].isdigit():
        rows.append((texts[start][:-1], texts[start + 1], texts[start + 2]))
        start += 3
    return rows


def test_a_whole_plaza_game_with_an_undo_and_a_correction(app_server, open_app):
    names = ("Ann", "Bob", "Cy")
    ids = seat_players(app_server, names)
    page = open_app(app_server.url)
    start_game(page, names)  # Ann deals first; P2: everyone deals twice, six hands

    # Hand 1, dealt by Ann; Bob at her left plays first (G1).
    see(page, "Hand 1 of 6, dealer: Ann; Bob plays first")
    tap(button(page, "Ann ran out"))
    tap(button(page, "Bob: cards left"))
    bob_cards = (Card(Colour.RED, 12), Card(Colour.YELLOW, 5))
    tap_cards(page, bob_cards)
    see(page, "Bob: 17 against")
    tap(button(page, "Cy: cards left"))
    pick_colour(page, Colour.RED)
    # P1, P3: the 12 Red is in Bob's hand, so it cannot be charged to Cy as well.
    assert button(page, "12 Red").is_disabled()
    cy_cards = (Card(Colour.RED, 10), Card(Colour.GREEN, 3), Card(Colour.BLACK, 4))
    tap_cards(page, cy_cards)
    see(page, "Cy: 17 against")  # the sheet's own example: 10, 3 and 4 is 17 against (P3)
    record(page, 1)
    see(page, "Hand 2 of 6, dealer: Bob; Cy plays first")

    # Hand 2: impossible totals are refused on the field, with the reason.
    tap(button(page, "Bob ran out"))
    type_total(page, "Ann", "12.5", "“12.5” is not a whole number of points, like 17.")
    type_total(page, "Ann", "200", "At most 125: 11 cards hold at most 125 points (P3).")
    enter_total(page, "Ann", 20)
    tap(button(page, "Record hand 2"))  # refused: the form stays
    see(page, "Enter the points left in the hand, or tap the cards.")  # Cy's empty field
    enter_total(page, "Cy", 7)
    record(page, 2)
    see(page, "Hand 3 of 6, dealer: Cy; Ann plays first")

    # Undo takes hand 2 back (G2); it is entered again with Cy holding 9.
    tap(button(page, "Undo last entry"))
    see(page, "Hand 2 of 6, dealer: Bob; Cy plays first")
    hand_of_totals(page, 2, "Bob", {"Ann": 20, "Cy": 9})

    # Hands 3 to 6; the last one ends the game (P2).
    hand_of_totals(page, 3, "Cy", {"Ann": 5, "Bob": 30})
    hand_of_totals(page, 4, "Ann", {"Bob": 8, "Cy": 6})
    hand_of_totals(page, 5, "Bob", {"Ann": 10, "Cy": 4})
    see(page, "Hand 6 of 6, dealer: Cy; Ann plays first")
    hand_of_totals(page, 6, "Cy", {"Ann": 1, "Bob": 11})
    page.get_by_text("Game over.", exact=False).wait_for(timeout=TIMEOUT)

    # Correct hand 1 (G2): Bob really held just the 2 Red; the totals follow at once.
    show_entry(page, 1)  # six hands on: the first is no longer among the latest shown
    tap(button(page, "Correct entry 1"))
    see(page, "Bob: 17 against")  # the form comes filled in with the entry being corrected
    tap(button(page, "Tap Bob's cards"))
    tap_cards(page, bob_cards)  # tapping a held card takes it off
    tap_cards(page, (Card(Colour.RED, 2),))
    see(page, "Bob: 2 against")
    tap(button(page, "Save corrected hand 1"))
    see(page, "1. Ann ran out; Bob 2 (2 Red), Cy 17 (10 Red, 3 Green, 4 Black)")

    # The same events, replayed by the rules engine, give the standings on screen (P4, G3).
    ann, bob, cy = (ids[name] for name in names)
    events = (
        HandPlayed(ann, (Charge.of_cards(bob, (Card(Colour.RED, 2),)),
                         Charge.of_cards(cy, cy_cards))),
        HandPlayed(bob, (Charge.of_total(ann, 20), Charge.of_total(cy, 9))),
        HandPlayed(cy, (Charge.of_total(ann, 5), Charge.of_total(bob, 30))),
        HandPlayed(ann, (Charge.of_total(bob, 8), Charge.of_total(cy, 6))),
        HandPlayed(bob, (Charge.of_total(ann, 10), Charge.of_total(cy, 4))),
        HandPlayed(cy, (Charge.of_total(ann, 1), Charge.of_total(bob, 11))),
    )
    library = open_library(app_server.data_dir, game_for)
    (summary,) = library.matches.summaries()
    stored = library.matches.get(summary.id)
    assert stored.events == events  # what is on disk is what was entered, corrected
    final = replay(stored, PLAZA).game
    assert PLAZA.is_over(final)
    name_of = {player_id: name for name, player_id in ids.items()}
    expected = [(str(s.rank), name_of[s.player], str(s.score)) for s in PLAZA.standings(final)]
    assert expected == [("1", "Ann", "36"), ("1", "Cy", "36"), ("3", "Bob", "51")]
    assert shown_standings(page) == expected
    see(page, "Game over. Winner: Ann and Cy (shared win)")


def test_the_plaza_screen_fits_a_phone(app_server, open_app):
    names = ("Ann", "Bob", "Cy", "Dee", "Eve")  # the most players, the longest form
    seat_players(app_server, names)
    page = open_app(app_server.url, 390, 844)
    start_game(page, names)
    tap(button(page, "Ann ran out"))
    tap(button(page, "Bob: cards left"))
    tap_cards(page, (Card(Colour.BROWN, 11), Card(Colour.BROWN, 12)))
    enter_total(page, "Cy", 12)
    page.wait_for_timeout(300)  # the last frame painted, not just its semantics
    screenshot(page, "plaza-390x844")
    assert controls_outside(page, 390) == []
    # Every number of the open colour is a 48 px target named after its card.
    for number in (1, 6, 7, 12):
        box = button(page, f"{number} Brown").bounding_box()
        assert box["height"] >= 48 and box["width"] >= 48

    # The filling-in adviser (P6) on the same screen, on the sheet's example: 4, 5, 6, 7 Red
    # lie in a row, and the two 5s in the hand complete a column.
    tap(button(page, "Bob: total"))  # closes Bob's grid, so card names are unique again
    tap(button(page, "Filling-in adviser"))
    tap_cards(page, tuple(Card(Colour.RED, n) for n in (4, 5, 6, 7)))
    tap(button(page, "Tap your hand"))
    tap_cards(page, (Card(Colour.GREEN, 5), Card(Colour.YELLOW, 5), Card(Colour.BLACK, 9)))
    see(page, "You can fill in up to 2: 5 Green, 5 Yellow.")
    assert controls_outside(page, 390) == []
