"""The Plaza hand form's logic (companion/ui/games/plaza_draft.py), without a browser."""

from __future__ import annotations

import random

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
    PlazaState,
)
from companion.ui.games.plaza_draft import (
    AdviserDraft,
    Entry,
    Pile,
    advice,
    choose_winner,
    describe,
    enter_by,
    field_problem,
    hand_event,
    hand_heading,
    held_by_others,
    is_for,
    new_draft,
    read_total,
    rules_verdict,
    tap_pile,
    toggle_card,
    try_save,
    type_total,
    winner_problem,
)
from tests.games.plaza_play import random_hand

ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
RED_10, GREEN_3, BLACK_4 = Card(Colour.RED, 10), Card(Colour.GREEN, 3), Card(Colour.BLACK, 4)


def table(seats=(ANN, BOB, CY), first_dealer: int = 0) -> PlazaState:
    return PLAZA.initial_state(Table(Seating(seats, first_dealer), PlazaOptions()))


def tap(draft, player, cards):
    for card in cards:
        draft = toggle_card(draft, player, card)
    return draft


def test_the_sheets_example_10_3_and_4_is_17_against():
    draft = choose_winner(new_draft(table()), ANN)
    draft = tap(enter_by(draft, BOB, Entry.CARDS), BOB, (RED_10, GREEN_3, BLACK_4))
    draft = type_total(draft, CY, " 17 ")
    event = hand_event(draft)
    assert event == HandPlayed(ANN, (Charge.of_cards(BOB, (RED_10, GREEN_3, BLACK_4)),
                                     Charge.of_total(CY, 17)))
    assert describe(event, NAMES) == "Ann ran out; Bob 17 (10 Red, 3 Green, 4 Black), Cy 17"
    assert PLAZA.apply(table(), event).points_against == {ANN: 0, BOB: 17, CY: 17}


def test_the_heading_names_the_hand_the_dealer_and_who_plays_first_p2_g1():
    state = table((ANN, BOB), first_dealer=1)
    assert hand_heading(state, NAMES) == "Hand 1 of 4, dealer: Bob; Ann plays first"
    state = PLAZA.apply(state, HandPlayed(ANN, (Charge.of_total(BOB, 5),)))
    assert hand_heading(state, NAMES) == "Hand 2 of 4, dealer: Ann; Bob plays first"
    for _ in range(3):
        state = PLAZA.apply(state, HandPlayed(ANN, (Charge.of_total(BOB, 5),)))
    assert hand_heading(state, NAMES) == "All 4 hands are played."


def test_a_total_that_is_not_a_whole_number_in_range_is_refused_on_the_field():
    draft = try_save(choose_winner(new_draft(table()), ANN))
    cases = {
        "12.5": "“12.5” is not a whole number of points, like 17.",
        "abc": "“abc” is not a whole number of points, like 17.",
        "-3": "Points against cannot be negative.",
        "126": "At most 125: 11 cards hold at most 125 points (P3).",
        "": "Enter the points left in the hand, or tap the cards.",
    }
    for text, message in cases.items():
        typed = type_total(draft, BOB, text)
        assert field_problem(typed, typed.charge(BOB)) == message
        assert hand_event(typed) is None
    assert read_total("125") == 125 and read_total("0") == 0


def test_empty_fields_and_the_winner_only_ask_once_a_save_was_tried():
    draft = new_draft(table())
    assert winner_problem(draft) is None
    assert field_problem(draft, draft.charge(BOB)) is None
    assert hand_event(draft) is None
    tried = try_save(draft)
    assert winner_problem(tried) == "Tap the player who ran out first."
    assert field_problem(tried, tried.charge(BOB)) == \
        "Enter the points left in the hand, or tap the cards."


def test_a_card_charged_to_one_player_is_held_from_the_others_p1_p3():
    draft = choose_winner(new_draft(table()), ANN)
    draft = tap(enter_by(draft, BOB, Entry.CARDS), BOB, (RED_10,))
    draft = enter_by(draft, CY, Entry.CARDS)
    assert held_by_others(draft, CY) == {RED_10}
    assert held_by_others(draft, BOB) == frozenset()
    # Bob switching to a total frees his tapped cards for the others.
    assert held_by_others(enter_by(draft, BOB, Entry.TOTAL), CY) == frozenset()
    # The winner's cards are never charged, so they hold nothing back.
    assert held_by_others(choose_winner(draft, BOB), CY) == frozenset()


def test_a_twelfth_card_is_refused_on_the_field_p3():
    draft = enter_by(choose_winner(new_draft(table()), ANN), BOB, Entry.CARDS)
    draft = tap(draft, BOB, PACK[:MAX_HAND])
    refused = toggle_card(draft, BOB, PACK[MAX_HAND])
    assert refused.charge(BOB).cards == draft.charge(BOB).cards
    assert field_problem(refused, refused.charge(BOB)) == \
        "A Plaza hand holds at most 11 cards (P3): tap a card again to take it off."
    taken_off = toggle_card(refused, BOB, PACK[0])
    assert taken_off.charge(BOB).cards == PACK[1:MAX_HAND]
    assert field_problem(taken_off, taken_off.charge(BOB)) is None


def test_the_rules_refusal_names_the_players():
    event = HandPlayed(ANN, (Charge.of_cards(BOB, (RED_10,)), Charge.of_cards(CY, (RED_10,))))
    assert rules_verdict(table(), event, NAMES) == \
        "10 Red is charged to both Bob and Cy, but the pack has only one 10 Red (P1, P3)."


def test_a_correction_starts_from_the_entry_and_a_change_drops_the_photo_mark_g2():
    entered = HandPlayed(CY, (Charge(ANN, total=9, from_photo=True),
                              Charge(BOB, cards=(BLACK_4, RED_10), from_photo=True)))
    draft = new_draft(table(), entered)
    assert draft.winner == CY and draft.hand == 1
    assert draft.charge(BOB).entry is Entry.CARDS
    assert draft.charge(BOB).colour is Colour.RED  # the grid opens on the first card's colour
    assert hand_event(draft) == HandPlayed(CY, (Charge(ANN, total=9, from_photo=True),
                                                Charge(BOB, cards=(RED_10, BLACK_4),
                                                       from_photo=True)))
    changed = hand_event(type_total(draft, ANN, "8"))
    assert changed.charges[0] == Charge(ANN, total=8)
    assert changed.charges[1].from_photo


def test_a_kept_draft_is_dropped_once_its_hand_is_recorded_or_it_is_for_another_entry():
    state = table()
    draft = type_total(choose_winner(new_draft(state), ANN), BOB, "4")
    assert is_for(draft, state, None)
    entered = hand_event(type_total(draft, CY, "5"))
    assert not is_for(draft, PLAZA.apply(state, entered), None)
    assert not is_for(draft, state, entered)
    assert not is_for(None, state, None)


@given(st.randoms(use_true_random=False), st.integers(2, 5))
def test_a_correction_form_reproduces_the_entry_it_was_filled_from(rng: random.Random,
                                                                    players: int):
    seats = tuple(PlayerId(name) for name in ("ann", "bob", "cy", "dee", "eve")[:players])
    state = table(seats, rng.randrange(players))
    event = random_hand(rng, seats)
    by_player = {charge.player: charge for charge in event.charges}
    expected = HandPlayed(event.winner, tuple(
        Charge(p, by_player[p].total, by_player[p].cards and tuple(sorted(by_player[p].cards)),
               by_player[p].from_photo)
        for p in seats if p != event.winner))
    assert hand_event(new_draft(state, event)) == expected
    assert rules_verdict(state, expected, {}) is None


@given(st.lists(st.sampled_from(PACK), max_size=40))
def test_tapped_cards_stay_distinct_in_plaza_order_and_at_most_a_hand(taps: list[Card]):
    draft = enter_by(choose_winner(new_draft(table()), ANN), BOB, Entry.CARDS)
    held: list[Card] = []
    for card in taps:
        draft = toggle_card(draft, BOB, card)
        if card in held:
            held.remove(card)
        elif len(held) < MAX_HAND:
            held.append(card)
    assert draft.charge(BOB).cards == tuple(sorted(held))


def adviser_with(plaza: tuple[Card, ...], hand: tuple[Card, ...]) -> AdviserDraft:
    adviser = AdviserDraft()
    for card in plaza:
        adviser = tap_pile(adviser, card)
    adviser = AdviserDraft(adviser.plaza, picking=Pile.HAND)
    for card in hand:
        adviser = tap_pile(adviser, card)
    return adviser


def reds(*numbers: int) -> tuple[Card, ...]:
    return tuple(Card(Colour.RED, n) for n in numbers)


def test_the_adviser_on_the_sheets_example_two_fives_make_a_column_p6():
    # The sheet: 4, 5, 6, 7 Red lie in a row; you hold two other 5s and may place them.
    fives = (Card(Colour.GREEN, 5), Card(Colour.YELLOW, 5))
    adviser = adviser_with(reds(4, 5, 6, 7), (*fives, Card(Colour.BLACK, 9)))
    assert adviser.elsewhere == set(reds(4, 5, 6, 7))  # not tappable while picking the hand
    assert advice(adviser) == ("You can fill in up to 2: 5 Green, 5 Yellow.",
                               "Every legal play (1), largest first:", "5 Green, 5 Yellow")


def test_the_adviser_shows_the_largest_plays_and_counts_the_rest():
    greens = tuple(Card(Colour.GREEN, n) for n in (4, 5, 6))
    hand = (*reds(3, 7), Card(Colour.GREEN, 3), Card(Colour.GREEN, 7))
    lines = advice(adviser_with((*reds(4, 5, 6), *greens), hand))
    assert lines[:2] == ("You can fill in up to 4: 3 Red, 7 Red, 3 Green, 7 Green.",
                         "Every legal play (15), largest first:")
    assert len(lines) == 2 + 8 + 1 and lines[-1] == "… and 7 more."


def test_the_adviser_says_why_it_cannot_answer():
    assert advice(AdviserDraft()) == ("Tap the cards on the Plaza, then the cards in your hand.",)
    assert advice(adviser_with(reds(4, 5), reds(9))) == (
        "The Plaza is not legal yet: 4 Red is in no run of three Red cards in a row "
        "and no column of three 4s.",)
    assert advice(adviser_with(reds(4, 5, 6), reds(10))) == (
        "Nothing in your hand can be filled in now.",)
