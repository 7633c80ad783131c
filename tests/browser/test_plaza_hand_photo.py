"""Read the cards left in a hand from a photo, in the browser (issue 6): a rendered photo of a
hand is uploaded at the end of a Plaza hand, the cards the reader sees fill the player's cards
for the table to check, and only the save stores them (P3).

The cards expected on screen are what vision.cards.read_hand reads from the same file, never a
hard-coded list: this tests the screen, and the reader has its own tests.
"""

from __future__ import annotations

import cv2
from skimage import data

from companion.core.match import replay
from companion.games.plaza import PLAZA, Card, Charge, Colour, HandPlayed
from companion.games.plaza_cards import COLOURS
from companion.games.registry import game_for
from storage import open_library
from tests.browser.conftest import screenshot, tap
from tests.browser.test_plaza import button, record, seat_players, see, start_game, tap_cards
from tests.vision.render_plaza import render_photo
from vision.cards import read_hand
from vision.photo import decode_photo

R, G, Y, BR, BK = Colour.RED, Colour.GREEN, Colour.YELLOW, Colour.BROWN, Colour.BLACK
HAND = (Card(R, 10), Card(G, 3), Card(BK, 4), Card(Y, 12), Card(BR, 7))
READ_WAIT = 120_000  # ms: the read runs on a machine other engineers keep busy


def read_from_photo(page, name: str, photo_path) -> None:
    with page.expect_file_chooser() as chooser:
        tap(button(page, f"Read {name}'s cards from a photo"))
    chooser.value.set_files(str(photo_path))


def test_a_hand_photo_fills_the_cards_read_and_only_the_save_stores_them(
        app_server, open_app, tmp_path):
    hand_path, table_path = tmp_path / "hand.jpg", tmp_path / "table.png"
    hand_path.write_bytes(render_photo(21, hand=True, size=(1600, 1200), cards=HAND).jpeg)
    table_path.write_bytes(cv2.imencode(".png", cv2.cvtColor(data.coffee(),
                                                             cv2.COLOR_RGB2BGR))[1].tobytes())
    read = tuple(seen.card for seen in read_hand(decode_photo(hand_path.read_bytes())).cards)
    assert read, "the reader must see cards on this photo for the test to mean anything"
    ids = seat_players(app_server, ("Ann", "Bob", "Cy"))
    page = open_app(app_server.url, 390, 1600)  # tall: the whole form stays in the semantics tree
    start_game(page, ("Ann", "Bob", "Cy"))
    tap(button(page, "Ann ran out"))

    # A photo without cards says so and fills nothing.
    tap(button(page, "Bob: cards left"))
    read_from_photo(page, "Bob", table_path)
    page.get_by_text("No cards found on this photo: tap the cards in by hand.", exact=True) \
        .wait_for(timeout=READ_WAIT)
    see(page, "No cards tapped yet.")
    see(page, "Bob: 0 against")

    # Cy already holds the first card the photo shows: it cannot be Bob's as well (P1).
    taken_by_cy = read[0]
    cy_cards = (taken_by_cy, Card(G, 1) if Card(G, 1) not in read else Card(G, 2))
    tap(button(page, "Cy: cards left"))
    see(page, "Cy's cards: pick a colour, then tap the numbers.")  # Cy's grid, not Bob's
    tap_cards(page, cy_cards)
    see(page, f"Cy: {sum(card.number for card in cy_cards)} against")

    read_from_photo(page, "Bob", hand_path)
    page.get_by_text(f"Not taken: {taken_by_cy} (already charged to Cy).", exact=True) \
        .wait_for(timeout=READ_WAIT)
    filled = tuple(sorted(card for card in read if card != taken_by_cy))
    bob_points = sum(card.number for card in filled)
    see(page, ", ".join(str(card) for card in filled))
    see(page, f"Bob: {bob_points} against")
    for colour in COLOURS:  # Bob's grid is open: each colour button counts his cards in it
        count = sum(card.colour is colour for card in filled)
        button(page, f"{colour} · {count}" if count else str(colour)).wait_for(timeout=5_000)
    page.get_by_role("img", name="The photo of Bob's cards, each card outlined").wait_for(
        timeout=10_000)
    page.wait_for_timeout(1000)  # the photo decoded and painted
    screenshot(page, "plaza-hand-photo")

    library = open_library(app_server.data_dir, game_for)
    (summary,) = library.matches.summaries()
    assert library.matches.get(summary.id).events == ()  # nothing stored before the save

    record(page, 1)
    see(page, "Hand 2 of 6, dealer: Bob; Cy plays first")
    ann, bob, cy = ids["Ann"], ids["Bob"], ids["Cy"]
    stored = open_library(app_server.data_dir, game_for).matches.get(summary.id)
    assert stored.events == (HandPlayed(ann, (Charge(bob, cards=filled, from_photo=True),
                                              Charge.of_cards(cy, tuple(sorted(cy_cards))))),)
    points = {standing.player: standing.score
              for standing in PLAZA.standings(replay(stored, PLAZA).game)}
    assert points == {ann: 0, bob: bob_points,  # P3: the sum of the numbers left in the hand
                      cy: sum(card.number for card in cy_cards)}
