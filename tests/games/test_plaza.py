"""Plaza (P1-P6): the sheet's worked examples, each ruling, and properties of random games."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.codec import from_json, to_json
from companion.core.errors import FormatError, InvalidEvent, InvalidSetup
from companion.core.match import Match, match_from_json, match_to_json, record, replay
from companion.core.seating import Seating
from companion.games.plaza import (
    MAX_CHARGE,
    MAX_HAND,
    PACK,
    PLAZA,
    Card,
    Charge,
    Colour,
    HandPlayed,
    PlazaState,
    advise_fill_in,
    check_layout,
)
from tests.games.match_checks import assert_json_round_trip, assert_undo_restores_previous_state
from tests.games.plaza_play import NOW, new_match, random_match

RED, GREEN, YELLOW, BROWN, BLACK = Colour
ANN, BOB, CY = "ann", "bob", "cy"


def cards(colour: Colour, *numbers: int) -> list[Card]:
    return [Card(colour, number) for number in numbers]


def lookup(key: str):
    if key != PLAZA.key:
        raise KeyError(key)
    return PLAZA


def three_player_match(first_dealer: int = 0, deals_each: int = 2) -> Match:
    match = new_match(random.Random(0), 3, deals_each)
    return replace(match, seating=Seating(match.seating.seats, first_dealer))


def play(match, *events):
    state = None
    for event in events:
        match, state = record(match, PLAZA, event, NOW, state)
    return match, (state or replay(match, PLAZA)).game


def hand(winner, *charges):
    return HandPlayed(winner, tuple(charges))


def refused(match, event, message):
    """The event raises InvalidEvent with `message` and the recorded state stays as it was."""
    before = replay(match, PLAZA)
    with pytest.raises(InvalidEvent, match=message):
        record(match, PLAZA, event, NOW, before)
    assert replay(match, PLAZA) == before


# --- the sheet's worked examples --------------------------------------------------------------

def test_a_player_left_with_10_3_and_4_has_17_set_down_against_himself():
    left = [Card(RED, 10), Card(GREEN, 3), Card(BLACK, 4)]
    _, state = play(three_player_match(),
                    hand(ANN, Charge.of_cards(BOB, left), Charge.of_total(CY, 17)))
    assert state.hands[0].points(BOB) == 17
    assert state.hands[0].points(CY) == 17
    assert state.hands[0].lines[1].cards == tuple(left)


# The Primer, step by step. Its pictures are lost in the scan; its words place every card: the
# first sequence is three Red cards that two 5s cross and a 7 Red extends, so 4-5-6 Red.
PRIMER_START = cards(RED, 4, 5, 6)


def test_two_5s_complete_a_column_across_the_red_row_and_7_red_makes_a_sequence_of_four():
    fill_in = [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7)]
    assert check_layout(PRIMER_START + fill_in).legal
    advice = advise_fill_in(PRIMER_START, fill_in)
    assert set(advice.largest) == set(fill_in)
    assert (Card(GREEN, 5), Card(YELLOW, 5)) in advice.plays  # a play lists cards in row order
    assert (Card(RED, 7),) in advice.plays


def test_one_5_alone_does_not_complete_the_column():
    advice = advise_fill_in(PRIMER_START, [Card(YELLOW, 5)])
    assert advice.plays == () and advice.largest == ()


def test_rules_page_example_two_5s_across_4_5_6_7_red_or_a_3_or_8_red_in_sequence():
    row = cards(RED, 4, 5, 6, 7)
    advice = advise_fill_in(row, [Card(GREEN, 5), Card(BLACK, 5), Card(RED, 3), Card(RED, 8)])
    plays = set(advice.plays)
    assert (Card(GREEN, 5), Card(BLACK, 5)) in plays
    assert (Card(RED, 3),) in plays and (Card(RED, 8),) in plays
    assert (Card(GREEN, 5),) not in plays  # two 5s are needed to make three


def test_mr_brown_adds_5_black_to_the_column_of_5s():
    plaza = PRIMER_START + [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7)]
    assert advise_fill_in(plaza, [Card(BLACK, 5)]).largest == (Card(BLACK, 5),)


def test_miss_jones_plays_3_and_4_black_completing_a_sequence_of_three():
    plaza = PRIMER_START + [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7), Card(BLACK, 5)]
    advice = advise_fill_in(plaza, cards(BLACK, 3, 4))
    assert advice.plays == ((Card(BLACK, 3), Card(BLACK, 4)),)
    assert check_layout(plaza + cards(BLACK, 3, 4)).legal


def test_the_7_7_7_column_with_a_space_in_it_is_a_column():
    plaza = (PRIMER_START + [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7)]
             + cards(BLACK, 3, 4, 5))
    sevens = [Card(YELLOW, 7), Card(BLACK, 7)]
    assert check_layout(plaza + sevens).legal  # no Green or Brown 7 between them: still a column
    assert advise_fill_in(plaza, sevens).plays == (tuple(sorted(sevens)),)


def test_the_black_7_alone_has_no_place_in_the_black_row():
    plaza = PRIMER_START + [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7)] + cards(BLACK, 3, 4, 5)
    verdict = check_layout(plaza + [Card(BLACK, 7)])
    assert not verdict.legal
    assert [problem.card for problem in verdict.problems] == [Card(BLACK, 7)]
    assert verdict.problems[0].reason == (
        "7 Black is in no run of three Black cards in a row and no column of three 7s.")


def test_a_sequence_must_fit_tightly_unlike_a_column():
    verdict = check_layout(cards(BROWN, 6, 8, 9) + cards(GREEN, 1, 2, 3))
    assert [problem.card for problem in verdict.problems] == cards(BROWN, 6, 8, 9)


def test_primer_fill_ins_6_yellow_3_red_or_a_4_to_make_a_column_of_three_4s():
    plaza = (PRIMER_START + [Card(YELLOW, 5), Card(GREEN, 5), Card(RED, 7)] + cards(BLACK, 3, 4, 5)
             + [Card(YELLOW, 7), Card(BLACK, 7)] + cards(BROWN, 6, 7, 8))  # Mr. Smith's Brown
    assert check_layout(plaza).legal
    offered = [Card(YELLOW, 6), Card(RED, 3), Card(YELLOW, 4), Card(GREEN, 4)]
    plays = set(advise_fill_in(plaza, offered).plays)
    for single in offered:
        assert (single,) in plays


# --- P1 the pack, P5 the layout checker ---------------------------------------------------------

def test_the_pack_has_one_card_of_each_colour_and_number_P1():
    assert len(PACK) == len(set(PACK)) == 60
    assert {card.colour for card in PACK} == set(Colour)
    assert {card.number for card in PACK} == set(range(1, 13))
    assert str(Card(RED, 7)) == "7 Red"
    assert sorted([Card(BLACK, 1), Card(RED, 12), Card(GREEN, 2)]) == [
        Card(RED, 12), Card(GREEN, 2), Card(BLACK, 1)]  # row order, then number
    assert Card(RED, 12) <= Card(GREEN, 1) and Card(BLACK, 1) >= Card(BLACK, 1)


@pytest.mark.parametrize("number", [0, 13, -1, True, 7.0])
def test_a_card_outside_the_pack_is_refused_P1(number):
    with pytest.raises(InvalidEvent):
        Card(RED, number)


def test_a_card_twice_in_a_layout_is_refused_P1():
    with pytest.raises(InvalidEvent, match="only one 4 Red"):
        check_layout(cards(RED, 4, 5, 6, 4))


def test_the_empty_plaza_is_legal_P5():
    assert check_layout([]).legal


def test_two_cards_alone_are_never_legal_P5():
    verdict = check_layout(cards(RED, 1, 2))
    assert not verdict.legal and len(verdict.problems) == 2


def test_a_run_reaches_the_ends_of_a_row_P5():
    assert check_layout(cards(GREEN, 10, 11, 12) + cards(YELLOW, 1, 2, 3)).legal


# --- P2 hands and dealer, P3 charges, P4 the winner --------------------------------------------

def test_everyone_deals_twice_the_deal_passing_left_P2():
    match = three_player_match(first_dealer=1)
    dealers = []
    state = replay(match, PLAZA).game
    while not PLAZA.is_over(state):
        dealers.append(PLAZA.dealer(state))
        match, state = play(match, hand(ANN, Charge.of_total(BOB, 1), Charge.of_total(CY, 2)))
    assert dealers == [BOB, CY, ANN, BOB, CY, ANN]
    assert [summary.dealer for summary in state.hands] == dealers
    assert PLAZA.dealer(state) is None and PLAZA.opener(state) is None


def test_the_player_left_of_the_dealer_has_first_turn():
    state = replay(three_player_match(first_dealer=2), PLAZA).game
    assert PLAZA.dealer(state) == CY and PLAZA.opener(state) == ANN


def test_no_hand_after_the_last_hand_P2():
    match = three_player_match(deals_each=1)
    for _ in range(3):
        match, _ = play(match, hand(ANN, Charge.of_total(BOB, 1), Charge.of_total(CY, 2)))
    refused(match, hand(BOB, Charge.of_total(ANN, 1), Charge.of_total(CY, 2)),
            "game is over: all 3 hands")


def test_deals_each_option_sets_the_length_of_the_game_P2():
    match = three_player_match(deals_each=3)
    assert replay(match, PLAZA).game.hands_in_game == 9
    with pytest.raises(InvalidSetup, match="deals at least once"):
        replay(three_player_match(deals_each=0), PLAZA)


def test_fewest_points_against_wins_P4():
    match = three_player_match(deals_each=1)
    _, state = play(match,
                    hand(ANN, Charge.of_total(BOB, 10), Charge.of_total(CY, 20)),
                    hand(BOB, Charge.of_total(ANN, 15), Charge.of_total(CY, 1)),
                    hand(CY, Charge.of_total(ANN, 1), Charge.of_total(BOB, 1)))
    assert dict(state.points_against) == {ANN: 16, BOB: 11, CY: 21}
    assert [(s.player, s.score, s.rank) for s in PLAZA.standings(state)] == [
        (BOB, 11, 1), (ANN, 16, 2), (CY, 21, 3)]
    assert PLAZA.winners(state) == {BOB}


def test_a_tie_for_fewest_points_is_a_shared_win_P4_G3():
    match = three_player_match(deals_each=1)
    _, state = play(match,
                    hand(ANN, Charge.of_total(BOB, 10), Charge.of_total(CY, 20)),
                    hand(BOB, Charge.of_total(ANN, 10), Charge.of_total(CY, 1)),
                    hand(CY, Charge.of_total(ANN, 0), Charge.of_total(BOB, 0)))
    assert PLAZA.winners(state) == {ANN, BOB}
    assert [s.rank for s in PLAZA.standings(state)] == [1, 1, 3]


def test_no_winner_before_the_last_hand_P4():
    _, state = play(three_player_match(),
                    hand(ANN, Charge.of_total(BOB, 10), Charge.of_total(CY, 20)))
    assert not PLAZA.is_over(state) and PLAZA.winners(state) == frozenset()


def test_the_winner_is_charged_nothing_and_totals_run_on_P3():
    match, state = play(three_player_match(),
                        hand(BOB, Charge.of_total(ANN, 12), Charge.of_cards(CY, cards(RED, 1, 2))),
                        hand(ANN, Charge.of_total(BOB, 5), Charge.of_total(CY, 4)))
    first, second = state.hands
    assert [(line.player, line.points, line.total) for line in first.lines] == [
        (ANN, 12, 12), (BOB, 0, 0), (CY, 3, 3)]
    assert [(line.player, line.points, line.total) for line in second.lines] == [
        (ANN, 0, 12), (BOB, 5, 5), (CY, 4, 7)]
    assert (first.number, first.winner, second.number) == (1, BOB, 2)
    with pytest.raises(InvalidEvent, match="zed is not playing"):
        first.points("zed")


def test_the_largest_possible_charge_is_the_eleven_highest_cards_P3():
    assert MAX_CHARGE == 12 * 5 + 11 * 5 + 10 == 125
    highest = sorted(PACK, key=lambda card: card.number)[-MAX_HAND:]
    _, state = play(three_player_match(),
                    hand(ANN, Charge.of_cards(BOB, highest), Charge.of_total(CY, MAX_CHARGE)))
    assert state.hands[0].points(BOB) == state.hands[0].points(CY) == 125


@pytest.mark.parametrize(("event", "message"), [
    (hand("zed", Charge.of_total(BOB, 1), Charge.of_total(CY, 1)), "zed is not playing"),
    (hand(ANN, Charge.of_total("zed", 1), Charge.of_total(BOB, 1), Charge.of_total(CY, 1)),
     "zed is not playing"),
    (hand(ANN, Charge.of_cards(BOB, cards(RED, 1, 2)), Charge.of_cards(CY, cards(RED, 2, 3))),
     "2 Red is charged to both bob and cy, but the pack has only one 2 Red"),
    (hand(ANN, Charge.of_cards(BOB, cards(RED, 1, 1)), Charge.of_total(CY, 1)),
     "1 Red is charged twice"),
    (hand(ANN, Charge.of_cards(BOB, cards(RED, *range(1, 13))), Charge.of_total(CY, 1)),
     "bob cannot hold 12 cards: a Plaza hand holds at most 11"),
    (hand(ANN, Charge.of_total(ANN, 0), Charge.of_total(BOB, 1), Charge.of_total(CY, 1)),
     "ann won the hand by running out, so the winner is charged nothing"),
    (hand(ANN, Charge.of_total(BOB, 1)), "Enter what cy still held"),
    (hand(ANN), "Enter what bob and cy still held"),
    (hand(ANN, Charge.of_total(BOB, 1), Charge.of_total(BOB, 2), Charge.of_total(CY, 1)),
     "bob is charged twice in this hand"),
    (hand(ANN, Charge.of_total(BOB, -1), Charge.of_total(CY, 1)), "from 0 to 125"),
    (hand(ANN, Charge.of_total(BOB, 126), Charge.of_total(CY, 1)), "from 0 to 125"),
    (hand(ANN, Charge(BOB), Charge.of_total(CY, 1)), "Enter a total or the cards left for bob"),
    (hand(ANN, Charge(BOB, 3, (Card(RED, 3),)), Charge.of_total(CY, 1)), "not both"),
])
def test_impossible_hands_are_refused_and_the_match_is_unchanged_P3(event, message):
    match, _ = play(three_player_match(),
                    hand(BOB, Charge.of_total(ANN, 3), Charge.of_total(CY, 4)))
    refused(match, event, message)


def test_a_card_may_be_charged_again_in_a_later_hand_P3():
    match, state = play(three_player_match(),
                        hand(ANN, Charge.of_cards(BOB, cards(RED, 9)), Charge.of_total(CY, 1)),
                        hand(ANN, Charge.of_cards(BOB, cards(RED, 9)), Charge.of_total(CY, 1)))
    assert state.points_against[BOB] == 18


# --- P6 the adviser's own refusals --------------------------------------------------------------

def test_the_adviser_refuses_a_hand_of_12_cards_P6():
    with pytest.raises(InvalidEvent, match="at most 11 cards, not 12"):
        advise_fill_in([], cards(RED, *range(1, 13)))


def test_the_adviser_refuses_a_card_both_down_and_in_hand_P6():
    with pytest.raises(InvalidEvent, match="5 Red is already on the Plaza"):
        advise_fill_in(cards(RED, 4, 5, 6), [Card(RED, 5)])


def test_the_adviser_refuses_an_illegal_plaza_P6():
    with pytest.raises(InvalidEvent, match="Plaza is not legal yet: 1 Red is in no run"):
        advise_fill_in(cards(RED, 1, 2), [Card(RED, 3)])


def test_a_whole_new_sequence_or_column_from_the_hand_is_a_play_P6():
    advice = advise_fill_in([], cards(GREEN, 10, 11, 12) + [Card(RED, 8)])
    assert advice.plays == (tuple(cards(GREEN, 10, 11, 12)),)
    advice = advise_fill_in([], [Card(RED, 8), Card(YELLOW, 8), Card(BLACK, 8), Card(GREEN, 2)])
    assert advice.largest == (Card(RED, 8), Card(YELLOW, 8), Card(BLACK, 8))


def test_plays_come_largest_first_and_the_largest_holds_every_play_P6():
    advice = advise_fill_in(cards(RED, 4, 5, 6), [Card(RED, 3), Card(RED, 7), Card(RED, 8)])
    assert advice.plays[0] == advice.largest == tuple(cards(RED, 3, 7, 8))
    assert [len(play) for play in advice.plays] == sorted(
        (len(play) for play in advice.plays), reverse=True)
    assert set(advice.plays) == {tuple(cards(RED, 3, 7, 8)), tuple(cards(RED, 3, 7)),
                                 tuple(cards(RED, 7, 8)), (Card(RED, 3),), (Card(RED, 7),)}


# --- JSON ----------------------------------------------------------------------------------------

def test_a_hand_event_has_the_documented_json_form():
    event = hand(ANN, Charge.of_cards(BOB, [Card(RED, 10)]), Charge.of_total(CY, 17))
    assert to_json(event) == {
        "winner": "ann",
        "charges": [{"player": "bob", "total": None, "cards": [{"colour": "red", "number": 10}],
                     "from_photo": False},
                    {"player": "cy", "total": 17, "cards": None, "from_photo": False}],
    }


def test_a_card_outside_the_pack_in_a_file_is_a_format_error():
    data = match_to_json(play(three_player_match(), hand(
        ANN, Charge.of_cards(BOB, [Card(RED, 10)]), Charge.of_total(CY, 17)))[0], PLAZA)
    data["events"][0]["charges"][0]["cards"][0]["number"] = 13
    with pytest.raises(FormatError, match="no 13 Red"):
        match_from_json(data, lookup)


# --- properties ---------------------------------------------------------------------------------

seeds = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(seeds)
def test_random_games_end_with_the_fewest_points_against_winning(seed):
    match = random_match(random.Random(seed))
    state = replay(match, PLAZA).game
    players = match.seating.size
    assert PLAZA.is_over(state) and len(state.hands) == 2 * players == len(match.events)
    fewest = min(state.points_against.values())
    assert PLAZA.winners(state) == {p for p, total in state.points_against.items()
                                    if total == fewest}
    dealers = [summary.dealer for summary in state.hands]
    assert dealers == [match.seating.player(match.seating.dealer_of_deal(k))
                       for k in range(2 * players)]


@SETTINGS
@given(seeds)
def test_charges_are_between_0_and_the_eleven_highest_cards_and_totals_add_up(seed):
    state = replay(random_match(random.Random(seed)), PLAZA).game
    running = dict.fromkeys(state.seating.seats, 0)
    for summary in state.hands:
        assert summary.points(summary.winner) == 0
        for line in summary.lines:
            assert 0 <= line.points <= MAX_CHARGE
            running[line.player] += line.points
            assert line.total == running[line.player]


@SETTINGS
@given(seeds)
def test_undoing_any_hand_restores_the_state_before_it(seed):
    match = random_match(random.Random(seed))
    for position in range(len(match.events)):
        assert_undo_restores_previous_state(match, PLAZA, position)


@SETTINGS
@given(seeds)
def test_every_game_survives_a_json_round_trip(seed):
    match = random_match(random.Random(seed))
    assert_json_round_trip(match, PLAZA)
    state = replay(match, PLAZA)
    assert from_json(PlazaState, json.loads(json.dumps(to_json(state.game)))) == state.game


@SETTINGS
@given(seeds, st.integers(min_value=-50, max_value=200))
def test_a_total_is_accepted_exactly_when_it_is_0_to_125(seed, total):
    match = three_player_match()
    event = hand(ANN, Charge.of_total(BOB, total), Charge.of_total(CY, 0))
    if 0 <= total <= MAX_CHARGE:
        assert play(match, event)[1].points_against[BOB] == total
    else:
        refused(match, event, "from 0 to 125")


@st.composite
def plaza_and_hand(draw, hand_size: int):
    """A legal Plaza (a union of runs and columns is legal) and a hand of other cards."""
    down: set[Card] = set()
    for _ in range(draw(st.integers(0, 6))):
        if draw(st.booleans()):
            colour = draw(st.sampled_from(list(Colour)))
            start = draw(st.integers(1, 10))
            length = draw(st.integers(3, min(6, 13 - start)))
            down.update(Card(colour, number) for number in range(start, start + length))
        else:
            number = draw(st.integers(1, 12))
            colours = draw(st.sets(st.sampled_from(list(Colour)), min_size=3))
            down.update(Card(colour, number) for colour in colours)
    rest = [card for card in PACK if card not in down]
    held = draw(st.lists(st.sampled_from(rest), unique=True, max_size=min(hand_size, len(rest))))
    return sorted(down), held


def brute_force_plays(plaza, held):
    return {tuple(sorted(chosen)) for size in range(1, len(held) + 1)
            for chosen in combinations(held, size) if check_layout([*plaza, *chosen]).legal}


@settings(max_examples=150, deadline=None)
@given(plaza_and_hand(hand_size=7))
def test_the_adviser_finds_exactly_the_legal_plays_of_brute_force_P6(position):
    plaza, held = position
    advice = advise_fill_in(plaza, held)
    assert len(set(advice.plays)) == len(advice.plays)
    assert set(advice.plays) == brute_force_plays(plaza, held)


@settings(max_examples=60, deadline=None)
@given(plaza_and_hand(hand_size=MAX_HAND))
def test_every_suggested_play_makes_a_legal_plaza_and_lies_in_the_largest_P6(position):
    plaza, held = position
    advice = advise_fill_in(plaza, held)
    for chosen in advice.plays:
        assert check_layout([*plaza, *chosen]).legal
        assert set(chosen) <= set(advice.largest)
    assert advice.largest == (advice.plays[0] if advice.plays else ())


def documented_json_blocks() -> list[str]:
    text = (Path(__file__).resolve().parents[2] / "docs" / "match-format" / "plaza.md").read_text()
    return re.findall(r"```json\n(.*?)```", text, flags=re.DOTALL)


def test_the_documented_example_match_reads_and_replays_as_documented():
    match = match_from_json(json.loads(documented_json_blocks()[-1]), lookup)
    state = replay(match, PLAZA).game
    assert [summary.dealer for summary in state.hands] == [BOB, ANN]
    assert dict(state.points_against) == {ANN: 0, BOB: 35}
    assert PLAZA.winners(state) == {ANN}


def test_the_documented_hand_event_charges_17_to_each():
    data = json.loads(documented_json_blocks()[1])
    match = replace(three_player_match(), events=())
    data_match = {**match_to_json(match, PLAZA), "events": [data]}
    state = replay(match_from_json(data_match, lookup), PLAZA).game
    assert [line.points for line in state.hands[0].lines] == [0, 17, 17]
