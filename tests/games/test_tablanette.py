"""Tablanette (N1-N7): the sheet's worked examples, every ruling, refusals, and properties."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from itertools import combinations, product
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import event_from_json
from companion.core.match import Match, match_from_json, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tablanette import (
    TABLANETTE,
    TARGET,
    PackResult,
    Pile,
    TablanetteOptions,
    pack_points,
    pack_result,
)
from companion.games.tablanette_cards import (
    FULL_PACK,
    JACK,
    Card,
    Suit,
    capture_values,
    captures,
    card,
    card_points,
    finish_pack,
    is_possible_tablanette,
    play_card,
    start_pack,
)
from tests.games.match_checks import assert_json_round_trip, assert_undo_restores_previous_state
from tests.games.tablanette_play import NOW, play_pack, random_match

ANN, BOB = PlayerId("ann"), PlayerId("bob")


def cards(codes: str) -> tuple[Card, ...]:
    return tuple(card(code) for code in codes.split())


def codes(taken) -> set[str]:
    return {c.code for c in taken}


def capture_taking(table: str, played: str, taken: str, **options):
    found = [c for c in captures(cards(table), card(played), **options)
             if codes(c.taken) == set(taken.split())]
    assert len(found) == 1, f"{played} on {table}: no single capture of {taken}"
    return found[0]


HOUSE_RULES_OFF = TablanetteOptions()


def new_match(options=HOUSE_RULES_OFF, first_dealer=0, events=()) -> Match:
    return Match(MatchId("m"), TABLANETTE.key, Seating((ANN, BOB), first_dealer), options,
                 NOW, NOW, tuple(events))


def pack(ann_cards=26, ann=(2, 2, 2, 2), bob=(2, 2, 2, 1), two=ANN, ten=BOB,
         ann_tablanettes=(), bob_tablanettes=(), aces=None) -> PackResult:
    """A pack entry; `ann`/`bob` are (kings, queens, jacks, other tens)."""
    ann_aces, bob_aces = aces or (None, None)
    return PackResult((Pile(ANN, ann_cards, *ann, ann_aces, tuple(ann_tablanettes)),
                       Pile(BOB, 52 - ann_cards, *bob, bob_aces, tuple(bob_tablanettes))),
                      two, ten)


def play(events, options=HOUSE_RULES_OFF):
    match = new_match(options)
    for event in events:
        match, state = record(match, TABLANETTE, event, NOW)
    return match, replay(match, TABLANETTE).game


# --- The sheet's worked examples -------------------------------------------------------------

def test_a_king_takes_an_ace_and_a_three_ace_as_eleven():
    capture = capture_taking("AS 3H 5D", "KC", "AS 3H")
    assert capture.played_value == 14
    assert [codes(group) for group in capture.groups] == [{"AS", "3H"}]


def test_a_seven_takes_a_six_and_an_ace_ace_as_one():
    capture = capture_taking("6S AH 9D", "7C", "6S AH")
    assert capture.played_value == 7 and not capture.clears_table


def test_a_jack_takes_every_card_and_its_tablanette_scores_nothing_N2_N4():
    (sweep,) = captures(cards("KS 9D 2C"), card("JH"))
    assert sweep.is_sweep and codes(sweep.taken) == {"KS", "9D", "2C"}
    assert sweep.clears_table and sweep.tablanette_points == 0 and sweep.played_card_taken


def test_the_played_card_stays_on_the_table_after_an_ordinary_capture_N3():
    pack_play = play_card(start_pack((ANN, BOB), cards("5S 9D")), ANN, card("5H"), cards("5S"))
    assert pack_play.table == cards("9D 5H")
    assert pack_play.piles_by_player()[ANN] == cards("5S")


def test_classic_capture_takes_the_played_card_too_N3():
    pack_play = play_card(start_pack((ANN, BOB), cards("5S 9D"), classic_capture=True), ANN,
                          card("5H"), cards("5S"))
    assert pack_play.table == cards("9D")
    assert set(pack_play.piles_by_player()[ANN]) == set(cards("5S 5H"))


def test_a_tablanette_takes_the_played_card_and_is_recorded_with_its_points_N4():
    pack_play = play_card(start_pack((ANN, BOB), cards("6S AH")), BOB, card("7C"), cards("6S AH"))
    assert pack_play.table == ()
    assert set(pack_play.piles_by_player()[BOB]) == set(cards("6S AH 7C"))
    assert pack_play.tablanettes_by_player() == {ANN: (), BOB: (14,)}


# --- N2: what a played card can take ---------------------------------------------------------

def test_a_group_of_three_cards_adding_up_is_taken_N2():
    assert capture_taking("2S 3H 3D", "8C", "2S 3H 3D").clears_table


def test_four_cards_are_never_one_group_N2():
    assert captures(cards("2S 2H 2D 2C"), card("8C")) == ()


def test_several_groups_sharing_no_card_are_taken_at_once_N2():
    capture = capture_taking("7D 6S AH 4C 3C", "7C", "7D 6S AH 4C 3C")
    assert sorted(map(codes, capture.groups), key=len) == [{"7D"}, {"6S", "AH"}, {"4C", "3C"}]
    assert capture.tablanette_points == 28  # three groups of 7 and the played 7 (N4)


def test_every_distinct_set_is_listed_once_and_only_the_largest_is_maximal_N2():
    found = captures(cards("7D 6S AH 4C 3C"), card("7C"))
    taken = [frozenset(codes(c.taken)) for c in found]
    assert len(taken) == len(set(taken)) == 7  # {7}, {6,A}, {4,3} and every union of them
    assert [c.maximal for c in found] == [True] + [False] * 6
    assert found[0].clears_table


def test_both_non_maximal_sets_are_maximal_when_neither_contains_the_other_N2():
    # 4+5 and 4+2+3 both need the 4, so neither can grow and neither contains the other.
    found = captures(cards("4S 5H 2D 3C"), card("9C"))
    assert {frozenset(codes(c.taken)) for c in found if c.maximal} == {
        frozenset({"4S", "5H"}), frozenset({"4S", "2D", "3C"})}


def test_a_played_ace_counts_one_or_eleven_N2():
    found = captures(cards("AH 5D 6C"), card("AS"))
    taken = {frozenset(codes(c.taken)): c.played_value for c in found}
    assert taken == {frozenset({"AH", "5D", "6C"}): 11, frozenset({"5D", "6C"}): 11,
                     frozenset({"AH"}): 11}
    assert found[0].tablanette_points == 33


def test_a_queen_takes_three_aces_one_of_them_as_eleven_N2():
    assert capture_taking("AS AH AD", "QC", "AS AH AD").tablanette_points == 26


def test_an_ace_on_a_lone_ace_is_a_tablanette_of_22_ace_as_eleven_N2_N4():
    (capture,) = captures(cards("AH"), card("AS"))
    assert capture.tablanette_points == 22


def test_a_jack_on_the_table_is_taken_only_by_a_jack():
    # Decision (the sheet is silent): a jack has no number to add; only a jack's sweep takes it.
    assert [codes(c.taken) for c in captures(cards("JS 5H"), card("5C"))] == [{"5H"}]
    assert not captures(cards("JS 5H"), card("5C"))[0].clears_table
    assert captures(cards("JS"), card("JD"))[0].tablanette_points == 0


def test_a_jack_on_an_empty_table_takes_nothing():
    assert captures((), card("JD")) == ()


@pytest.mark.parametrize("table, played, message", [
    ("5S 5S", "9C", "The 5 of spades is there twice"),
    ("5S 9D", "9D", "The 9 of diamonds is there twice"),
])
def test_impossible_tables_are_refused(table, played, message):
    with pytest.raises(InvalidEvent, match=message):
        captures(cards(table), card(played))


@pytest.mark.parametrize("code", ["", "X", "1S", "11H", "KX", "JOKER"])
def test_a_card_code_that_is_no_card_is_refused(code):
    with pytest.raises(InvalidEvent, match="is not a card"):
        card(code)


def test_a_rank_outside_the_pack_is_refused():
    with pytest.raises(InvalidEvent, match="ranks go from ace"):
        Card(14, Suit.HEARTS)


# --- N4: tablanette scores --------------------------------------------------------------------

def test_a_tablanette_matching_the_sum_exactly_scores_twice_the_played_card_N4():
    assert capture_taking("6S AH", "7C", "6S AH").tablanette_points == 14


def test_a_tablanette_of_two_groups_scores_the_cards_taken_plus_the_played_card_N4():
    assert capture_taking("7D 6S AH", "7C", "7D 6S AH").tablanette_points == 7 + 6 + 1 + 7


def test_possible_tablanette_scores_N4():
    assert all(is_possible_tablanette(points) for points in (0, 2, 4, 9, 21, 26, 28, 33))
    assert not any(is_possible_tablanette(points) for points in (1, 5, 7, -14))


# --- N1, N5: a pack played card by card ------------------------------------------------------

def test_a_jack_may_not_lie_face_up_at_the_start_N1():
    with pytest.raises(InvalidEvent, match="bottom of the pack"):
        start_pack((ANN, BOB), cards("JS 2H 3D 4C"))


def test_the_cards_left_go_to_the_last_capturer_and_are_no_tablanette_N5():
    pack_play = start_pack((ANN, BOB), cards("5S 9D"))
    pack_play = play_card(pack_play, ANN, card("5H"), cards("5S"))
    pack_play = play_card(pack_play, BOB, card("2C"))
    finished = finish_pack(pack_play)
    assert finished.table == ()
    assert set(finished.piles_by_player()[ANN]) == set(cards("5S 9D 5H 2C"))
    assert finished.tablanettes_by_player() == {ANN: (), BOB: ()}


def test_leftovers_with_no_capturer_are_refused_N5():
    with pytest.raises(InvalidEvent, match="no owner"):
        finish_pack(start_pack((ANN, BOB), cards("5S 9D")))


def test_a_capture_the_adviser_does_not_allow_is_refused():
    with pytest.raises(InvalidEvent, match="cannot take the 9 of diamonds"):
        play_card(start_pack((ANN, BOB), cards("5S 9D")), ANN, card("5H"), cards("9D"))


def test_a_card_cannot_be_played_twice_in_a_pack():
    with pytest.raises(InvalidEvent, match="already been played"):
        play_card(start_pack((ANN, BOB), cards("5S 9D")), ANN, card("9D"))


# --- N6: pack scoring -------------------------------------------------------------------------

@pytest.mark.parametrize("code, points, with_aces", [
    ("2C", 1, 1), ("10D", 2, 2), ("10S", 1, 1), ("KH", 1, 1), ("QD", 1, 1), ("JC", 1, 1),
    ("2D", 0, 0), ("9S", 0, 0), ("AH", 0, 1),
])
def test_card_points_N6(code, points, with_aces):
    assert card_points(card(code)) == points
    assert card_points(card(code), count_aces=True) == with_aces


def test_a_pack_holds_18_card_points_and_the_majority_scores_3_N6():
    _, state = play([pack(ann_cards=28, ann_tablanettes=(28,))])
    ann, bob = state.rounds[0].scores
    assert (ann.card_points, ann.majority, ann.points) == (8 + 1, 3, 9 + 3 + 28)
    assert (bob.card_points, bob.majority, bob.points) == (7 + 2, 0, 9)
    assert ann.card_points + bob.card_points == 18


def test_27_cards_is_not_more_than_27_unless_majority_at_27_N6():
    assert play([pack(ann_cards=27)])[1].rounds[0].scores[0].majority == 0
    at_27 = TablanetteOptions(majority_at_27=True)
    assert play([pack(ann_cards=27)], at_27)[1].rounds[0].scores[0].majority == 3


def test_26_each_gives_nobody_the_majority_N6():
    assert [s.majority for s in play([pack(ann_cards=26)])[1].rounds[0].scores] == [0, 0]


def test_aces_score_one_each_under_count_aces_N6():
    counted = TablanetteOptions(count_aces=True)
    scores = play([pack(aces=(3, 1))], counted)[1].rounds[0].scores
    plain = play([pack(aces=(3, 1))])[1].rounds[0].scores
    assert [s.card_points for s in scores] == [s.card_points + a for s, a in zip(plain, (3, 1), strict=True)]


def test_pack_points_from_the_exact_cards_N6():
    ann_pile = [c for c in FULL_PACK if c.suit in (Suit.CLUBS, Suit.HEARTS)] + list(cards("AD AS"))
    bob_pile = [c for c in FULL_PACK if c not in ann_pile]
    # Ann (28 cards): 2C 1, four tens/jacks/queens/kings of clubs and hearts 8, majority 3; Bob: 10D 2, 7.
    assert pack_points({ANN: ann_pile, BOB: bob_pile}, TablanetteOptions(), {ANN: (14,)}) == {
        ANN: 1 + 8 + 3 + 14, BOB: 2 + 7}


def test_pack_points_refuse_piles_that_are_not_the_whole_pack():
    with pytest.raises(InvalidEvent, match="in no pile"):
        pack_points({ANN: FULL_PACK[:30], BOB: FULL_PACK[31:]}, TablanetteOptions())
    with pytest.raises(InvalidEvent, match="twice"):
        pack_points({ANN: FULL_PACK[:30], BOB: FULL_PACK[29:]}, TablanetteOptions())


# --- N1, N7: the game ---------------------------------------------------------------------------

def test_one_dealer_deals_the_whole_pack_and_the_deal_alternates_by_pack_N1_G1():
    match = new_match(first_dealer=1)
    seen = []
    for _ in range(3):
        state = replay(match, TABLANETTE).game
        seen.append((TABLANETTE.dealer(state), TABLANETTE.to_act(state)))
        match, _ = record(match, TABLANETTE, pack(), NOW)
    assert seen == [(BOB, ANN), (ANN, BOB), (BOB, ANN)]
    assert [summary.dealer for summary in replay(match, TABLANETTE).game.rounds] == [BOB, ANN, BOB]


ANN_AHEAD = pack(ann_cards=30, ann_tablanettes=(28,) * 4)  # Ann 9 + 3 + 112 = 124, Bob 9
LEVEL = pack(ann_tablanettes=(28,) * 4, bob_tablanettes=(28,) * 4)  # 9 + 112 = 121 each


def test_the_first_to_251_wins_N7():
    _, state = play([ANN_AHEAD] * 2)
    assert dict(state.totals) == {ANN: 248, BOB: 18} and not TABLANETTE.is_over(state)
    _, state = play([ANN_AHEAD] * 3)
    assert dict(state.totals) == {ANN: 372, BOB: 27}
    assert TABLANETTE.is_over(state) and TABLANETTE.winners(state) == {ANN}
    assert TABLANETTE.dealer(state) is None and TABLANETTE.to_act(state) is None


def test_when_both_pass_251_in_the_same_pack_the_higher_total_wins_N7():
    _, state = play([LEVEL, LEVEL, pack(ann_tablanettes=(28,) * 3, bob_tablanettes=(28,) * 2)])
    assert dict(state.totals) == {ANN: 242 + 93, BOB: 242 + 65}
    assert TABLANETTE.winners(state) == {ANN}


def test_an_exact_tie_past_251_plays_another_pack_N7():
    _, state = play([LEVEL] * 3)
    assert dict(state.totals) == {ANN: 363, BOB: 363}
    assert state.playing_off_tie and not TABLANETTE.is_over(state)
    assert TABLANETTE.winners(state) == frozenset() and TABLANETTE.dealer(state) == BOB
    _, state = play([LEVEL] * 3 + [pack(ann_cards=30)])
    assert TABLANETTE.winners(state) == {ANN} and not state.playing_off_tie


def test_no_pack_is_entered_after_the_game_is_over_N7():
    match, _ = play([ANN_AHEAD] * 3)
    with pytest.raises(InvalidEvent, match="The game is over: ann won with 372"):
        record(match, TABLANETTE, pack(), NOW)


def test_rounds_keep_each_packs_points_and_running_totals():
    _, state = play([pack(ann_tablanettes=(14,)), pack(ann_cards=20, bob_tablanettes=(0, 28))])
    assert [[(s.points, s.total) for s in r.scores] for r in state.rounds] == [
        [(9 + 14, 23), (9, 9)], [(9, 32), (9 + 3 + 28, 49)]]
    assert state.rounds[1].score_of(BOB).tablanette_points == 28
    assert [(s.player, s.score, s.rank) for s in TABLANETTE.standings(state)] == [
        (BOB, 49, 1), (ANN, 32, 2)]


def test_tablanette_is_for_two_players():
    with pytest.raises(InvalidSetup, match="2 players, not 3"):
        TABLANETTE.new_table(Seating((ANN, BOB, PlayerId("cy"))))


def test_an_option_is_on_or_off():
    with pytest.raises(InvalidSetup, match="count_aces is either on or off"):
        TablanetteOptions(count_aces="yes")


ZED = PlayerId("zed")


@pytest.mark.parametrize("event, options, message", [
    (replace(pack(), two_of_clubs=ZED), TablanetteOptions(), "zed is not playing"),
    (replace(pack(), piles=(Pile(ANN, 26), Pile(ZED, 26))), TablanetteOptions(),
     "zed is not playing"),
    (replace(pack(), piles=pack().piles[:1]), TablanetteOptions(), "bob's pile is missing"),
    (replace(pack(), piles=pack().piles[:1] * 2), TablanetteOptions(), "ann's pile is entered"),
    (replace(pack(), piles=(Pile(ANN, 20, 2, 2, 2, 2), Pile(BOB, 30, 2, 2, 2, 1))),
     TablanetteOptions(), "hold 50 cards between them; a pack has 52"),
    (pack(ann=(3, 2, 2, 2)), TablanetteOptions(), "hold 5 kings between them; a pack has 4"),
    (pack(bob=(2, 2, 2, 2)), TablanetteOptions(), "4 tens besides the 10 of diamonds"),
    (pack(ann=(-1, 2, 2, 2), bob=(5, 2, 2, 1)), TablanetteOptions(), "ann's kings must be a whole"),
    (replace(pack(), piles=(Pile(ANN, None), pack().piles[1])), TablanetteOptions(),
     "ann's cards must be a whole number"),
    (pack(ann_cards=5), TablanetteOptions(), "pile of 5 cards cannot hold the 9 counted cards"),
    (pack(ann_tablanettes=(5,)), TablanetteOptions(), "5 points is not a tablanette score"),
    (pack(ann_cards=10, ann=(4, 4, 1, 0), bob=(0, 0, 3, 3), ann_tablanettes=(0,) * 6),
     TablanetteOptions(), "6 tablanettes with only 10 cards"),
    (pack(ann=(2, 2, 0, 2), bob=(2, 2, 4, 1), ann_tablanettes=(0,)), TablanetteOptions(),
     "0-point tablanette is a jack's sweep"),
    (pack(ann_cards=10, ann_tablanettes=(140,)), TablanetteOptions(), "worth at most 87"),
    (pack(), TablanetteOptions(count_aces=True), "enter each player's aces"),
    (pack(aces=(2, None)), TablanetteOptions(), "for both players or for neither"),
    (pack(aces=(2, 3)), TablanetteOptions(), "hold 5 aces between them"),
])
def test_an_impossible_pack_is_refused_and_the_match_is_unchanged(event, options, message):
    match, state = play([pack(aces=(2, 2)) if options.count_aces else pack()], options)
    with pytest.raises(InvalidEvent, match=message):
        record(match, TABLANETTE, event, NOW)
    assert replay(match, TABLANETTE).game == state


# --- Properties ---------------------------------------------------------------------------------

seeds = st.integers(0, 2**32 - 1)
few = settings(max_examples=25, deadline=None)


@few
@given(seeds)
def test_random_games_end_with_one_winner_past_251_N7(seed):
    state = replay(random_match(random.Random(seed)), TABLANETTE).game
    totals = dict(state.totals)
    (winner,) = TABLANETTE.winners(state)
    assert totals[winner] >= TARGET and totals[winner] > min(totals.values())
    card_total = 18 + (4 if state.table.options.count_aces else 0)
    for summary in state.rounds:
        assert sum(score.card_points for score in summary.scores) == card_total
        assert sum(score.cards for score in summary.scores) == 52
    assert totals == {p: sum(r.score_of(p).points for r in state.rounds) for p in (ANN, BOB)}


@few
@given(seeds, st.data())
def test_undoing_any_pack_restores_the_state_before_it_exactly_G2(seed, data):
    match = random_match(random.Random(seed))
    position = data.draw(st.integers(0, len(match.events) - 1))
    assert_undo_restores_previous_state(match, TABLANETTE, position)


@few
@given(seeds)
def test_a_match_survives_the_json_round_trip(seed):
    assert_json_round_trip(random_match(random.Random(seed)), TABLANETTE)


options_st = st.builds(TablanetteOptions, st.booleans(), st.booleans(), st.booleans())


@given(st.lists(st.booleans(), min_size=52, max_size=52), options_st)
def test_any_split_of_the_pack_scores_its_card_points_plus_the_majority_N6(to_ann, options):
    piles = {ANN: [c for c, a in zip(FULL_PACK, to_ann, strict=True) if a],
             BOB: [c for c, a in zip(FULL_PACK, to_ann, strict=True) if not a]}
    expected = {player: sum(card_points(c, count_aces=options.count_aces) for c in pile)
                + (3 if len(pile) > 27 or options.majority_at_27 and len(pile) == 27 else 0)
                for player, pile in piles.items()}
    assert pack_points(piles, options) == expected
    _, state = play([pack_result(piles)], options)
    assert {s.player: s.points for s in state.rounds[0].scores} == expected


@few
@given(seeds, options_st)
def test_a_played_pack_is_a_valid_entry_whatever_the_options(seed, options):
    played = play_pack(random.Random(seed), ANN, options)
    made = played.tablanettes_by_player()
    event = pack_result(played.piles_by_player(), made)
    _, state = play([event], options)
    expected = pack_points(played.piles_by_player(), options, made)
    assert {s.player: s.points for s in state.rounds[0].scores} == expected


def partitions_into_groups(taken: tuple[Card, ...], value: int) -> bool:
    """Brute force: can `taken` be split into groups of 1-3 numbered cards worth `value` each?"""
    if not taken:
        return True
    first, rest = taken[0], taken[1:]
    for size in range(0, 3):
        for others in combinations(rest, size):
            group = (first, *others)
            if any(c.rank == JACK for c in group):
                continue
            if any(sum(choice) == value for choice in product(*map(capture_values, group))):
                remaining = tuple(c for c in rest if c not in others)
                if partitions_into_groups(remaining, value):
                    return True
    return False


@given(st.lists(st.sampled_from(FULL_PACK), min_size=1, max_size=8, unique=True))
def test_the_adviser_lists_exactly_the_sets_a_brute_force_finds_N2(drawn):
    played, table = drawn[0], tuple(drawn[1:])
    found = captures(table, played)
    if played.rank == JACK:
        expected = {frozenset(table)} if table else set()
    else:
        expected = {frozenset(subset) for size in range(1, len(table) + 1)
                    for subset in combinations(table, size)
                    if any(partitions_into_groups(subset, v) for v in capture_values(played))}
    assert {frozenset(c.taken) for c in found} == expected
    assert len(found) == len(expected)
    for capture in found:
        assert set(capture.taken) == {c for group in capture.groups for c in group}
        assert sum(map(len, capture.groups)) == len(capture.taken)
        assert capture.clears_table == (len(capture.taken) == len(table))
        bigger = [c for c in found if set(capture.taken) < set(c.taken)]
        assert capture.maximal == (not bigger)
        if capture.clears_table and not capture.is_sweep:
            assert capture.tablanette_points == capture.played_value * (len(capture.groups) + 1)


# --- The documented format ----------------------------------------------------------------------

DOC = (Path(__file__).resolve().parents[2] / "docs/match-format/tablanette.md").read_text()


def doc_json_blocks() -> list:
    return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", DOC, re.S)]


def test_the_documented_pack_event_reads_and_scores_as_the_doc_says():
    event = event_from_json(doc_json_blocks()[0], {PackResult.kind: PackResult})
    _, state = play([event])
    assert [s.points for s in state.rounds[0].scores] == [40, 9]


def test_the_documented_example_match_loads_and_gives_the_documented_totals():
    match = match_from_json(doc_json_blocks()[-1], {TABLANETTE.key: TABLANETTE}.__getitem__)
    state = replay(match, TABLANETTE).game
    assert [[s.points for s in r.scores] for r in state.rounds] == [[40, 9], [8, 49]]
    assert dict(state.totals) == {ANN: 48, BOB: 58} and TABLANETTE.dealer(state) == ANN
