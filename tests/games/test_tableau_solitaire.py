"""Tableau solitaire (tableau.md "as rapidly as possible", ruling T8)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import FormatError, InvalidEvent, InvalidSetup
from companion.core.match import Match, match_from_json, match_to_json, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tableau import Edition
from companion.games.tableau_solitaire import (
    TABLEAU_SOLITAIRE,
    Attempt,
    BestTime,
    SessionEnds,
    SolitaireOptions,
    SolitaireState,
)
from tests.games.match_checks import assert_json_round_trip, assert_undo_restores_previous_state
from tests.games.tableau_solitaire_play import random_match

ANN = PlayerId("ann")
NOW = "2026-11-21T20:00:00+00:00"


def new_match(*events, edition=Edition.DELUXE) -> Match:
    match = Match(MatchId("s1"), "tableau_solitaire", Seating((ANN,)), SolitaireOptions(edition),
                  NOW, NOW)
    for event in events:
        match, _ = record(match, TABLEAU_SOLITAIRE, event, NOW)
    return match


def state_of(match: Match) -> SolitaireState:
    return replay(match, TABLEAU_SOLITAIRE).game


def lookup(key: str):
    if key != "tableau_solitaire":
        raise KeyError(key)
    return TABLEAU_SOLITAIRE


def test_an_attempt_records_pictures_time_and_whether_finished_T8():
    state = state_of(new_match(Attempt(3, finished=True, seconds=412.5)))
    [attempt] = state.attempts
    assert (attempt.number, attempt.pictures, attempt.seconds, attempt.finished) == (1, 3, 412.5,
                                                                                     True)


def test_an_attempt_timed_by_the_callers_clock_T8():
    attempt = Attempt(1, finished=True, started_at="2026-11-21T20:00:00+00:00",
                      ended_at="2026-11-21T20:02:05.500000+00:00")
    assert state_of(new_match(attempt)).attempts[0].seconds == 125.5


def test_best_times_are_kept_per_number_of_pictures_T8():
    state = state_of(new_match(
        Attempt(2, True, seconds=300), Attempt(6, True, seconds=1500),
        Attempt(2, True, seconds=250), Attempt(2, True, seconds=280)))
    assert state.best == (BestTime(2, 250.0, 3), BestTime(6, 1500.0, 2))
    assert [attempt.new_best for attempt in state.attempts] == [True, True, True, False]
    assert state.best_time(4) is None


def test_an_unfinished_attempt_never_sets_a_best_time_T8():
    state = state_of(new_match(Attempt(2, True, seconds=300), Attempt(2, False, seconds=60)))
    assert state.best_time(2) == 300.0
    assert not state.attempts[1].new_best


def test_an_equal_time_leaves_the_earlier_best_in_place():
    state = state_of(new_match(Attempt(1, True, seconds=90), Attempt(1, True, seconds=90)))
    assert state.best == (BestTime(1, 90.0, 1),)


def test_the_junior_edition_has_only_four_pictures_to_assemble_T1_T8():
    match = new_match(Attempt(4, True, seconds=600), edition=Edition.JUNIOR)
    with pytest.raises(InvalidEvent, match="1 to 4 pictures \\(the junior edition\\), not 5"):
        record(match, TABLEAU_SOLITAIRE, Attempt(5, True, seconds=600), NOW)


def test_solitaire_is_for_one_player_T8():
    with pytest.raises(InvalidSetup, match="for 1 players, not 2"):
        TABLEAU_SOLITAIRE.new_table(Seating((ANN, PlayerId("bob"))))


def test_the_session_is_over_when_the_player_ends_it():
    match = new_match(Attempt(1, False, seconds=50), Attempt(1, True, seconds=80))
    assert not TABLEAU_SOLITAIRE.is_over(state_of(match))
    assert TABLEAU_SOLITAIRE.to_act(state_of(match)) == ANN
    state = state_of(new_match(*match.events, SessionEnds()))
    assert TABLEAU_SOLITAIRE.is_over(state)
    assert TABLEAU_SOLITAIRE.winners(state) == {ANN}
    assert [(s.player, s.score, s.rank) for s in TABLEAU_SOLITAIRE.standings(state)] == [
        (ANN, 1, 1)]
    assert TABLEAU_SOLITAIRE.to_act(state) is None


def test_a_session_with_no_finished_attempt_has_no_winner():
    state = state_of(new_match(Attempt(6, False, seconds=3600), SessionEnds()))
    assert TABLEAU_SOLITAIRE.is_over(state)
    assert TABLEAU_SOLITAIRE.winners(state) == frozenset()


@pytest.mark.parametrize("event, message", [
    (Attempt(0, True, seconds=10), "1 to 6 pictures \\(the deluxe edition\\), not 0"),
    (Attempt(7, True, seconds=10), "not 7"),
    (Attempt(2, True), "Give the attempt's time"),
    (Attempt(2, True, started_at="2026-11-21T20:00:00"), "both a start and an end"),
    (Attempt(2, True, seconds=5, started_at="2026-11-21T20:00:00",
             ended_at="2026-11-21T20:05:00"), "not both"),
    (Attempt(2, True, seconds=0), "more than zero seconds"),
    (Attempt(2, True, seconds=-3), "more than zero seconds"),
    (Attempt(2, True, seconds=float("nan")), "more than zero seconds"),
    (Attempt(2, True, started_at="2026-11-21T20:05:00", ended_at="2026-11-21T20:00:00"),
     "the end after the start"),
    (Attempt(2, True, started_at="half past eight", ended_at="2026-11-21T20:00:00"),
     "start time 'half past eight' is not a date and time"),
    (Attempt(2, True, started_at="2026-11-21T20:00:00+01:00", ended_at="2026-11-21T20:09:00"),
     "both with a time zone or both without"),
    (SessionEnds(), "No attempt has been recorded yet"),
])
def test_impossible_attempt_is_refused_with_a_clear_message(event, message):
    match = new_match()
    with pytest.raises(InvalidEvent, match=message):
        record(match, TABLEAU_SOLITAIRE, event, NOW)
    assert state_of(match) == state_of(new_match())


def test_no_attempt_is_taken_after_the_session_ends():
    match = new_match(Attempt(1, True, seconds=60), SessionEnds())
    for event in (Attempt(1, True, seconds=30), SessionEnds()):
        with pytest.raises(InvalidEvent, match="session has ended"):
            record(match, TABLEAU_SOLITAIRE, event, NOW)


def test_bad_attempt_json_names_the_field():
    data = match_to_json(new_match(Attempt(1, True, seconds=60)), TABLEAU_SOLITAIRE)
    data["events"][0]["pictures"] = "three"
    with pytest.raises(FormatError, match=r"events\[0\]\.pictures"):
        match_from_json(data, lookup)


seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_best_time_is_the_fastest_finished_attempt_for_each_count(seed):
    match = random_match(random.Random(seed))
    state = state_of(match)
    assert TABLEAU_SOLITAIRE.is_over(state)
    finished = [attempt for attempt in state.attempts if attempt.finished]
    expected = {}
    for attempt in finished:
        expected[attempt.pictures] = min(expected.get(attempt.pictures, attempt.seconds),
                                         attempt.seconds)
    assert {best.pictures: best.seconds for best in state.best} == expected
    assert [best.pictures for best in state.best] == sorted(expected)
    assert TABLEAU_SOLITAIRE.winners(state) == ({ANN} if finished else frozenset())


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_undoing_any_event_restores_the_previous_state_exactly(seed, data):
    match = random_match(random.Random(seed))
    position = data.draw(st.integers(0, len(match.events) - 1))
    assert_undo_restores_previous_state(match, TABLEAU_SOLITAIRE, position)


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_every_session_survives_a_json_round_trip(seed):
    assert_json_round_trip(random_match(random.Random(seed)), TABLEAU_SOLITAIRE)


def test_random_match_has_the_asked_number_of_events():
    assert len(random_match(random.Random(3), events=500).events) == 500


def test_the_documented_example_imports_and_gives_the_documented_best_time():
    doc = (Path(__file__).parents[2] / "docs/match-format/tableau_solitaire.md").read_text()
    example = doc.split("## Example")[1].split("```json")[1].split("```")[0]
    state = state_of(match_from_json(json.loads(example), lookup))
    assert state.best == (BestTime(2, 312.4, 1),)
    assert state.attempts[1].seconds == 690.0
    assert TABLEAU_SOLITAIRE.winners(state) == {ANN}
