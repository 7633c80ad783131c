"""Crazy Quilt and Windmill (crazy-quilt-and-windmill.md, rulings Q1-Q3): attempts, statistics."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.match import Match, MatchAbandoned, match_from_json, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.patience import (
    ALL_CARDS,
    CRAZY_QUILT,
    WINDMILL,
    Attempt,
    AttemptFinished,
    AttemptStarted,
    CrazyQuiltOptions,
    PatienceGame,
    PatienceStatistics,
    Redealt,
    SessionEnded,
    WindmillOptions,
    attempt_statistics,
    session_statistics,
)
from tests.games import crazy_quilt_play, windmill_play
from tests.games.match_checks import (
    assert_json_round_trip,
    assert_undo_restores_previous_state,
    documented_example,
)

ANN = PlayerId("ann")
NOW = "2026-11-21T20:00:00+00:00"
T0, T5, T9 = "2026-11-21T20:00:00+00:00", "2026-11-21T20:05:00+00:00", "2026-11-21T20:09:30+00:00"
GAMES = pytest.mark.parametrize("game", [CRAZY_QUILT, WINDMILL], ids=lambda game: game.key)


def new_match(game: PatienceGame, options=None) -> Match:
    return Match(MatchId("m"), game.key, Seating((ANN,)), options or game.options_type(), NOW, NOW)


def play(game: PatienceGame, *events, options=None):
    match, state = new_match(game, options), None
    for event in events:
        match, state = record(match, game, event, NOW, state)
    return match, state.game if state else replay(match, game).game


def refused(game: PatienceGame, events, event, message: str, options=None) -> None:
    """`event` after `events` raises InvalidEvent with `message`, and the match is unchanged."""
    match, _ = play(game, *events, options=options)
    with pytest.raises(InvalidEvent, match=message):
        record(match, game, event, NOW)
    assert len(match.events) == len(events)


# --- Q2: what an attempt records ---

@GAMES
def test_an_attempt_records_its_times_cards_home_redeals_and_outcome_Q2(game):
    options = game.options_type(redeals_allowed=1)
    _, state = play(game, AttemptStarted(T0), Redealt(), AttemptFinished(T9, 87, False),
                    options=options)
    assert state.attempts == (Attempt(T0, T9, 570.0, 87, 1, False),)
    assert state.under_way is None


def test_the_clock_runs_from_the_start_recorded_in_the_state():
    _, state = play(CRAZY_QUILT, AttemptStarted(T0))
    assert state.under_way.started_at == T0 and state.attempts == ()


def test_won_is_all_104_cards_home_Q2():
    _, state = play(WINDMILL, AttemptStarted(T0), AttemptFinished(T5, ALL_CARDS, True))
    assert state.attempts[0].won and state.attempts[0].seconds == 300.0


@GAMES
def test_104_home_but_given_up_is_contradictory_Q2(game):
    refused(game, [AttemptStarted(T0)], AttemptFinished(T5, 104, False),
            "With all 104 cards home the game is won, not given up")


@GAMES
def test_won_with_cards_still_out_is_contradictory_Q2(game):
    refused(game, [AttemptStarted(T0)], AttemptFinished(T5, 103, True),
            "A won game has all 104 cards home, not 103")


@GAMES
def test_more_than_104_cards_home_is_impossible_Q1(game):
    refused(game, [AttemptStarted(T0)], AttemptFinished(T5, 105, False), "Two packs hold 104")


def test_crazy_quilt_has_its_8_bases_home_from_the_start_so_fewer_is_impossible_Q1_Q2():
    refused(CRAZY_QUILT, [AttemptStarted(T0)], AttemptFinished(T5, 7, False),
            "8 foundation aces and kings home, so cards home cannot be fewer than 8")
    _, state = play(CRAZY_QUILT, AttemptStarted(T0), AttemptFinished(T5, 8, False))
    assert state.attempts[0].cards_home == 8


def test_windmill_has_its_centre_ace_home_from_the_start_so_at_least_one_Q1_Q2():
    refused(WINDMILL, [AttemptStarted(T0)], AttemptFinished(T5, 0, False),
            "starts with its centre ace home, so cards home cannot be fewer than 1")
    _, state = play(WINDMILL, AttemptStarted(T0), AttemptFinished(T5, 1, False))
    assert state.attempts[0].cards_home == 1


# --- Q1: redeals ---

def test_crazy_quilt_allows_one_redeal_and_a_second_is_impossible_Q1():
    _, state = play(CRAZY_QUILT, AttemptStarted(T0), Redealt())
    assert state.under_way.redeals == 1
    refused(CRAZY_QUILT, [AttemptStarted(T0), Redealt()], Redealt(),
            "Crazy Quilt allows one redeal, and it has been used")


def test_crazy_quilt_redeal_limit_is_per_attempt_Q1():
    _, state = play(CRAZY_QUILT, AttemptStarted(T0), Redealt(), AttemptFinished(T5, 60, False),
                    AttemptStarted(T5), Redealt(), AttemptFinished(T9, 70, False))
    assert [attempt.redeals for attempt in state.attempts] == [1, 1]


def test_windmill_deals_its_stock_once_by_default():
    refused(WINDMILL, [AttemptStarted(T0)], Redealt(), "Windmill is played without a redeal")


def test_windmill_house_rule_allows_a_redeal():
    options = WindmillOptions(redeals_allowed=1)
    _, state = play(WINDMILL, AttemptStarted(T0), Redealt(), options=options)
    assert state.under_way.redeals == 1
    refused(WINDMILL, [AttemptStarted(T0), Redealt()], Redealt(),
            "Windmill allows one redeal, and it has been used", options=options)


def test_a_house_rule_of_several_redeals_counts_them():
    refused(CRAZY_QUILT, [AttemptStarted(T0), Redealt(), Redealt()], Redealt(),
            "Crazy Quilt allows 2 redeals, and they have all been used",
            options=CrazyQuiltOptions(redeals_allowed=2))


def test_a_negative_number_of_redeals_is_refused_at_set_up():
    with pytest.raises(InvalidSetup, match="cannot be negative"):
        CRAZY_QUILT.new_table(Seating((ANN,)), CrazyQuiltOptions(redeals_allowed=-1))


# --- The order of events and the times ---

@GAMES
@pytest.mark.parametrize("events, event, message", [
    ([], Redealt(), "Start an attempt before redealing"),
    ([], AttemptFinished(T5, 50, False), "No attempt is under way"),
    ([AttemptStarted(T0)], AttemptStarted(T5), "An attempt is already under way"),
    ([AttemptStarted(T0)], SessionEnded(), "Finish the attempt under way"),
    ([SessionEnded()], AttemptStarted(T0), "This session is over"),
    ([AttemptStarted(T5)], AttemptFinished(T0, 50, False), "cannot end before it started"),
    ([], AttemptStarted("half past eight"), "'half past eight' is not a time"),
    ([AttemptStarted(T0)], AttemptFinished("2026-11-21T20:05:00", 50, False), "time zone"),
])
def test_an_event_out_of_order_or_with_a_bad_time_is_refused(game, events, event, message):
    refused(game, events, event, message)


@GAMES
def test_a_patience_is_for_one_player(game):
    with pytest.raises(InvalidSetup, match=f"{game.title} is for 1 player"):
        game.new_table(Seating((ANN, PlayerId("bob"))))


@GAMES
def test_a_session_is_over_when_ended_and_won_if_an_attempt_came_out(game):
    _, going = play(game, AttemptStarted(T0), AttemptFinished(T5, 104, True))
    assert not game.is_over(going) and game.winners(going) == frozenset()
    assert game.to_act(going) == ANN and game.dealer(going) is None
    _, won = play(game, AttemptStarted(T0), AttemptFinished(T5, 104, True), SessionEnded())
    assert game.is_over(won) and game.winners(won) == {ANN} and game.to_act(won) is None
    assert [(s.player, s.score, s.rank) for s in game.standings(won)] == [(ANN, 1, 1)]
    _, lost = play(game, AttemptStarted(T0), AttemptFinished(T5, 40, False), SessionEnded())
    assert game.is_over(lost) and game.winners(lost) == frozenset()


def test_an_abandoned_session_takes_no_more_attempts_G4():
    match, _ = play(CRAZY_QUILT, AttemptStarted(T0), MatchAbandoned())
    assert replay(match, CRAZY_QUILT).abandoned
    with pytest.raises(InvalidEvent, match="abandoned"):
        record(match, CRAZY_QUILT, AttemptFinished(T5, 50, False), NOW)


# --- Q3: statistics on hand-built histories ---

def attempt(seconds: float, cards_home: int) -> Attempt:
    return Attempt(T0, T0, seconds, cards_home, 0, cards_home == ALL_CARDS)


def test_statistics_of_a_mixed_history_Q3():
    # won 300 s, lost (60), won 200 s, won 400 s, lost (80), won 100 s, won 500 s, won 250 s
    history = [attempt(300, 104), attempt(90, 60), attempt(200, 104), attempt(400, 104),
               attempt(45, 80), attempt(100, 104), attempt(500, 104), attempt(250, 104)]
    assert attempt_statistics(history) == PatienceStatistics(
        attempts=8, wins=6, win_rate=0.75, best_seconds=100, median_seconds=275.0,
        average_cards_home=(6 * 104 + 60 + 80) / 8, current_streak=3, longest_streak=3)


def test_current_streak_is_broken_by_a_loss_and_longest_remembers_Q3():
    history = [attempt(10, 104), attempt(20, 104), attempt(30, 104), attempt(40, 50),
               attempt(50, 104)]
    stats = attempt_statistics(history)
    assert (stats.current_streak, stats.longest_streak) == (1, 3)
    assert stats.median_seconds == 25.0  # 10, 20, 30, 50: between 20 and 30
    assert attempt_statistics(history[:4]).current_streak == 0


def test_statistics_with_no_win_have_no_times_Q3():
    stats = attempt_statistics([attempt(30, 9), attempt(40, 20)])
    assert stats == PatienceStatistics(2, 0, 0.0, None, None, 14.5, 0, 0)


def test_statistics_of_no_attempts_say_so_rather_than_divide_by_zero_Q3():
    assert attempt_statistics([]) == PatienceStatistics(0, 0, None, None, None, None, 0, 0)


def test_session_statistics_follow_the_recorded_attempts_Q3():
    _, state = play(CRAZY_QUILT,
                    AttemptStarted(T0), AttemptFinished(T5, 104, True),
                    AttemptStarted(T5), Redealt(), AttemptFinished(T9, 52, False))
    stats = session_statistics(state)
    assert (stats.attempts, stats.wins, stats.win_rate) == (2, 1, 0.5)
    assert (stats.best_seconds, stats.median_seconds) == (300.0, 300.0)
    assert stats.average_cards_home == 78.0
    assert (stats.current_streak, stats.longest_streak) == (0, 1)


# --- Properties, for both games ---

seeds = st.integers(0, 2**32 - 1)
PLAYS = pytest.mark.parametrize("game, play_module", [
    (CRAZY_QUILT, crazy_quilt_play), (WINDMILL, windmill_play)], ids=["crazy_quilt", "windmill"])


@PLAYS
@settings(max_examples=40, deadline=None)
@given(seed=seeds)
def test_random_sessions_end_with_valid_attempts_and_statistics(game, play_module, seed):
    match = play_module.random_match(random.Random(seed))
    state = replay(match, game).game
    assert game.is_over(state) and state.under_way is None
    assert len(state.attempts) == sum(isinstance(e, AttemptFinished) for e in match.events)
    for each in state.attempts:
        assert game.rules.bases_out_at_start <= each.cards_home <= ALL_CARDS
        assert each.won == (each.cards_home == ALL_CARDS)
        assert 0 <= each.redeals <= match.options.redeals_allowed
        assert each.seconds >= 0
    stats = session_statistics(state)
    assert stats.wins == sum(each.won for each in state.attempts)
    assert 0 <= stats.current_streak <= stats.longest_streak <= stats.wins
    assert game.winners(state) == ({ANN} if stats.wins else frozenset())


@PLAYS
@settings(max_examples=30, deadline=None)
@given(seed=seeds, where=st.floats(0, 1, exclude_max=True))
def test_undoing_any_event_restores_the_previous_state_exactly_G2(game, play_module, seed, where):
    match = play_module.random_match(random.Random(seed))
    assert_undo_restores_previous_state(match, game, int(where * len(match.events)))


@PLAYS
@settings(max_examples=30, deadline=None)
@given(seed=seeds)
def test_every_session_survives_the_json_round_trip(game, play_module, seed):
    assert_json_round_trip(play_module.random_match(random.Random(seed)), game)


@PLAYS
def test_a_long_session_for_the_benchmark_has_about_the_events_asked_for(game, play_module):
    match = play_module.random_match(random.Random(3), events=500)
    assert 500 <= len(match.events) < 510
    assert game.is_over(replay(match, game).game)


def test_the_documented_example_session_reads_and_replays_to_its_stated_result():
    lookup = {"crazy_quilt": CRAZY_QUILT}.__getitem__
    match = match_from_json(documented_example("patience.md"), lookup)
    state = replay(match, CRAZY_QUILT).game
    assert [(a.seconds, a.cards_home, a.redeals, a.won) for a in state.attempts] == [
        (570.0, 87, 1, False), (900.0, 104, 0, True)]
    assert CRAZY_QUILT.is_over(state) and CRAZY_QUILT.winners(state) == {ANN}
