"""Reading the cards left in a hand from a photo (issue 6), without a browser: which cards read
from the photo fill a player's cards, which are refused and why, what the field says, and the
bytes-to-reading step the screen runs off the UI loop.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.game import Table
from companion.core.seating import Seating
from companion.core.types import PlayerId
from companion.games.plaza import (
    MAX_HAND,
    PACK,
    PLAZA,
    Card,
    Charge,
    Colour,
    HandPlayed,
    PlazaOptions,
)
from companion.ui.games.plaza_draft import (
    Entry,
    NotTaken,
    PhotoFill,
    Why,
    choose_winner,
    describe,
    enter_by,
    fill_from_photo,
    hand_event,
    new_draft,
    photo_lines,
    rules_verdict,
    toggle_card,
)
from companion.ui.plaza_photo import HAND_SHOWN_SIDE, read_hand_photo
from tests.vision.render_plaza import render_photo, tuning_typefaces
from vision.cards import read_hand
from vision.photo import UnreadablePhoto, decode_photo

ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
R, G, Y, BR, BK = Colour.RED, Colour.GREEN, Colour.YELLOW, Colour.BROWN, Colour.BLACK
STATE = PLAZA.initial_state(Table(Seating((ANN, BOB, CY), 0), PlazaOptions()))


def ann_ran_out(cy_cards: tuple[Card, ...] = ()):
    """Hand 1 after Ann ran out, with Cy's cards (if any) tapped in by hand."""
    draft = choose_winner(new_draft(STATE), ANN)
    if cy_cards:
        draft = enter_by(draft, CY, Entry.CARDS)
        for card in cy_cards:
            draft = toggle_card(draft, CY, card)
    return draft


def test_the_cards_read_fill_the_players_cards_for_the_save_to_confirm():
    # The sheet's own example (P3): 10, 3 and 4 left in the hand is 17 against.
    draft = fill_from_photo(ann_ran_out(), BOB, (Card(BK, 4), Card(R, 10), Card(G, 3)), 0)
    bob = draft.charge(BOB)
    assert bob.entry is Entry.CARDS and bob.cards == (Card(R, 10), Card(G, 3), Card(BK, 4))
    assert bob.from_photo and draft.open == BOB and bob.colour is R
    assert photo_lines(bob.photo, NAMES) == (
        "3 cards read from the photo: check them, then record the hand.",)
    draft = fill_from_photo(draft, CY, (Card(Y, 2),), 0)
    event = hand_event(draft)
    assert event == HandPlayed(ANN, (Charge(BOB, cards=bob.cards, from_photo=True),
                                     Charge(CY, cards=(Card(Y, 2),), from_photo=True)))
    assert rules_verdict(STATE, event, NAMES) is None
    scores = {s.player: s.score for s in PLAZA.standings(PLAZA.apply(STATE, event))}
    assert scores == {ANN: 0, BOB: 17, CY: 2}
    assert describe(event, NAMES) == ("Ann ran out; Bob 17 (10 Red, 3 Green, 4 Black, "
                                      "from a photo), Cy 2 (2 Yellow, from a photo)")


def test_a_card_charged_to_another_player_is_not_taken_and_the_field_names_him():
    draft = fill_from_photo(ann_ran_out(cy_cards=(Card(R, 10),)), BOB,
                            (Card(R, 10), Card(G, 3)), 0)
    bob = draft.charge(BOB)
    assert bob.cards == (Card(G, 3),)  # the pack has one 10 Red, and Cy holds it (P1)
    assert bob.photo == PhotoFill(1, (NotTaken(Card(R, 10), Why.CHARGED, CY),), 0)
    assert photo_lines(bob.photo, NAMES)[1] == "Not taken: 10 Red (already charged to Cy)."


def test_a_card_read_twice_and_a_twelfth_card_are_not_taken():
    twelve = tuple(Card(R, number) for number in range(1, MAX_HAND + 2))
    draft = fill_from_photo(ann_ran_out(), BOB, (Card(G, 3), Card(G, 3), *twelve[1:]), 0)
    bob = draft.charge(BOB)
    assert len(bob.cards) == MAX_HAND  # a hand holds at most 11 cards (P3)
    assert bob.photo.not_taken == (NotTaken(Card(G, 3), Why.TWICE),
                                   NotTaken(Card(R, 12), Why.FULL))
    assert photo_lines(bob.photo, NAMES)[1] == (
        "Not taken: 3 Green (read twice on the photo), "
        "12 Red (a hand holds at most 11 cards (P3)).")


def test_unsure_cards_are_said_plainly_and_left_to_tap():
    draft = fill_from_photo(ann_ran_out(), BOB, (Card(G, 3),), 2)
    assert photo_lines(draft.charge(BOB).photo, NAMES) == (
        "1 card read from the photo: check it, then record the hand.",
        "2 cards could not be read: tap them in by hand.")
    one = fill_from_photo(ann_ran_out(), BOB, (), 1)
    assert photo_lines(one.charge(BOB).photo, NAMES) == (
        "1 card could not be read: tap it in by hand.",)


def test_a_photo_without_cards_says_so_and_keeps_what_was_tapped():
    draft = toggle_card(enter_by(ann_ran_out(), BOB, Entry.CARDS), BOB, Card(BR, 5))
    after = fill_from_photo(draft, BOB, (), 0)
    assert after.charge(BOB).cards == (Card(BR, 5),) and not after.charge(BOB).from_photo
    assert photo_lines(after.charge(BOB).photo, NAMES) == (
        "No cards found on this photo: tap the cards in by hand.",)


def test_a_tap_after_the_photo_makes_the_charge_hand_made():
    draft = fill_from_photo(ann_ran_out(), BOB, (Card(G, 3),), 0)
    tapped = toggle_card(draft, BOB, Card(G, 4))
    assert tapped.charge(BOB).cards == (Card(G, 3), Card(G, 4))
    assert not tapped.charge(BOB).from_photo


cards = st.sampled_from(PACK)


@given(cy=st.lists(cards, max_size=MAX_HAND, unique=True), tapped=st.lists(cards, max_size=5),
       read=st.lists(cards, max_size=20), unsure=st.integers(0, 5))
def test_a_photo_fills_only_cards_the_hand_can_hold(cy, tapped, read, unsure):
    draft = enter_by(ann_ran_out(tuple(cy)), BOB, Entry.CARDS)
    for card in tapped:
        draft = toggle_card(draft, BOB, card)
    before = draft.charge(BOB).cards
    bob = fill_from_photo(draft, BOB, tuple(read), unsure).charge(BOB)
    # Every card read is either taken or listed as not taken, never both, never lost.
    taken = list(read)
    for item in bob.photo.not_taken:
        taken.remove(item.card)
    assert bob.photo.taken == len(taken) and bob.photo.unsure == unsure
    assert bob.cards == (tuple(sorted(taken)) if taken else before)
    # What is taken can be a real hand: no card twice, none of Cy's, at most 11 (P1, P3).
    assert len(set(taken)) == len(taken) <= MAX_HAND and not set(taken) & set(cy)
    # And every refusal's reason holds.
    for item in bob.photo.not_taken:
        assert {Why.CHARGED: item.card in cy and item.holder == CY,
                Why.TWICE: item.card in taken,
                Why.FULL: len(taken) == MAX_HAND}[item.why]
    assert fill_from_photo(draft, BOB, tuple(read), unsure).charge(CY) == draft.charge(CY)


needs_fonts = pytest.mark.skipif(not any(typeface.path for typeface in tuning_typefaces()),
                                 reason="the photo renders need the DejaVu fonts")


@needs_fonts
def test_the_hand_photo_gives_what_the_reader_reads_and_a_small_annotated_copy():
    jpeg = render_photo(21, hand=True, size=(1600, 1200),
                        cards=(Card(R, 10), Card(G, 3), Card(BK, 4))).jpeg
    photo = read_hand_photo(jpeg)
    reading = read_hand(decode_photo(jpeg))
    assert photo.cards == tuple(seen.card for seen in reading.cards)
    assert photo.unsure == len(reading.unsure)
    shown = cv2.imdecode(np.frombuffer(photo.picture, np.uint8), cv2.IMREAD_COLOR)
    assert max(shown.shape[:2]) == HAND_SHOWN_SIDE  # sent small: it is shown small


@pytest.mark.parametrize("data", [b"", b"not a photo at all"])
def test_what_is_not_a_photo_of_a_hand_is_refused_with_a_reason(data):
    with pytest.raises(UnreadablePhoto):
        read_hand_photo(data)
