"""The shared match model: replay, undo, correction, rotation (G1, G2) and the JSON form."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.errors import FormatError, InvalidEvent, InvalidSetup
from companion.core.game import rank_scores
from companion.core.match import (
    Match,
    MatchAbandoned,
    correct,
    delete,
    match_from_json,
    match_to_json,
    record,
    replay,
    undo,
)
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from tests.core.counting_game import COUNTING, CountingOptions, Scored

ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
NOW = "2026-11-21T20:00:00+00:00"


def new_match(events=(), first_dealer=0, target=10) -> Match:
    return Match(MatchId("m1"), "counting", Seating((ANN, BOB, CY), first_dealer),
                 CountingOptions(target), NOW, NOW, tuple(events))


def lookup(key: str):
    if key != "counting":
        raise KeyError(key)
    return COUNTING


def test_replay_folds_events_in_order():
    state = replay(new_match([Scored(ANN, 3), Scored(BOB, 2), Scored(ANN, 1)]), COUNTING)
    assert dict(state.game.scores) == {ANN: 4, BOB: 2, CY: 0}


def test_deal_passes_to_the_left_from_the_first_dealer_G1():
    match = new_match(first_dealer=2)
    dealers = []
    for _ in range(4):
        state = replay(match, COUNTING)
        dealers.append(COUNTING.dealer(state.game))
        match, _ = record(match, COUNTING, Scored(ANN, 0), NOW)
    assert dealers == [CY, ANN, BOB, CY]


def test_impossible_event_is_refused_and_match_unchanged():
    match = new_match([Scored(ANN, 3)])
    with pytest.raises(InvalidEvent, match="not playing at this table"):
        record(match, COUNTING, Scored(PlayerId("zed"), 1), NOW)
    assert match.events == (Scored(ANN, 3),)


def test_correction_of_a_past_event_rederives_totals_G2():
    match = new_match([Scored(ANN, 3), Scored(BOB, 2)])
    corrected, state = correct(match, COUNTING, 0, Scored(CY, 5), NOW)
    assert dict(state.game.scores) == {ANN: 0, BOB: 2, CY: 5}
    removed, state = delete(corrected, COUNTING, 1, NOW)
    assert dict(state.game.scores) == {ANN: 0, BOB: 0, CY: 5}


def test_correction_that_breaks_a_later_event_is_refused():
    match = new_match([Scored(ANN, 1), Scored(ANN, 4), Scored(BOB, 1)], target=5)
    with pytest.raises(InvalidEvent, match="Entry 2: The game is over"):
        correct(match, COUNTING, 0, Scored(ANN, 5), NOW)


def test_undo_with_nothing_to_undo_says_so():
    with pytest.raises(InvalidEvent, match="nothing to undo"):
        undo(new_match(), COUNTING, NOW)


def test_abandoned_match_takes_no_more_events_G4():
    match, _ = record(new_match(), COUNTING, MatchAbandoned(), NOW)
    assert replay(match, COUNTING).abandoned
    with pytest.raises(InvalidEvent, match="abandoned"):
        record(match, COUNTING, Scored(ANN, 1), NOW)


def test_player_count_outside_the_range_is_refused():
    with pytest.raises(InvalidSetup, match="2 to 4 players, not 1"):
        COUNTING.new_table(Seating((ANN,)))


def test_ties_share_a_rank_G3():
    standings = rank_scores({ANN: 5, BOB: 7, CY: 7})
    assert [(s.player, s.rank) for s in standings] == [(BOB, 1), (CY, 1), (ANN, 3)]


def test_seating_refuses_a_player_twice():
    with pytest.raises(InvalidSetup):
        Seating((ANN, ANN))


scores = st.lists(st.tuples(st.sampled_from([ANN, BOB, CY]), st.integers(0, 5)), max_size=30)


def build(pairs) -> Match:
    match = new_match(target=1000)
    for player, points in pairs:
        match, _ = record(match, COUNTING, Scored(player, points), NOW)
    return match


@given(scores)
def test_undo_restores_the_previous_state_exactly(pairs):
    match = build(pairs)
    if match.events:
        before = replay(new_match(match.events[:-1], target=1000), COUNTING)
        assert undo(match, COUNTING, NOW)[1] == before


@given(scores)
def test_match_survives_a_json_round_trip(pairs):
    match = build(pairs)
    text = json.dumps(match_to_json(match, COUNTING), sort_keys=True)
    again = match_from_json(json.loads(text), lookup)
    assert again == match
    assert replay(again, COUNTING) == replay(match, COUNTING)


@pytest.mark.parametrize("damage, message", [
    (lambda d: d.pop("seats"), "'seats'"),
    (lambda d: d.update(game="chess"), "unknown game"),
    (lambda d: d["events"].append({"type": "counting.scored", "player": "ann"}), "missing field 'points'"),
    (lambda d: d["events"].append({"type": "counting.scored", "player": "zed", "points": 1}),
     "zed is not playing"),
    (lambda d: d.update(format=99), "newer"),
    (lambda d: d.update(options={"speed": 3}), "unknown option"),
])
def test_bad_match_json_is_refused_with_a_precise_message(damage, message):
    data = match_to_json(build([(ANN, 1)]), COUNTING)
    damage(data)
    with pytest.raises(FormatError, match=message):
        match_from_json(data, lookup)
