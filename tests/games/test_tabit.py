"""Tabit (tabit.md, rulings B1-B3): the board scorer, round scoring and the race to 1000."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.match import Match, correct, match_from_json, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tabit import (
    LINE_POINTS,
    TABIT,
    TABLE_LINES,
    TARGET,
    Board,
    BoardEntered,
    Line,
    LineChosen,
    Picture,
    TabitOptions,
    awaiting,
    best_line,
)
from tests.games.match_checks import (
    assert_json_round_trip,
    assert_undo_restores_previous_state,
    documented_example,
)
from tests.games.tabit_play import random_match

ANN, BOB, CY, DEE = (PlayerId(name) for name in ("ann", "bob", "cy", "dee"))
NOW = "2026-11-21T20:00:00+00:00"
MOON, STAR, TREE = Picture.MOON, Picture.STAR, Picture.TREE
MOON_500 = Line(MOON, 4, True)
TREE_25 = Line(TREE, 3, False)


def board(pictures: tuple[Picture, ...], letters: str) -> Board:
    return Board(pictures, tuple(letters))


def new_match(players=(ANN, BOB), first_dealer=0, options=None) -> Match:
    return Match(MatchId("m"), "tabit", Seating(players, first_dealer), options or TabitOptions(),
                 NOW, NOW)


def play(match: Match, *events):
    state = None
    for event in events:
        match, state = record(match, TABIT, event, NOW, state)
    return match, state.game


def round_of(**points: int):
    """One round's entries, each line chosen directly by its points: round_of(ann=500, bob=0)."""
    lines = {500: MOON_500, 400: Line(MOON, 3, True), 100: Line(STAR, 4, False), 25: TREE_25,
             0: None}
    return [LineChosen(PlayerId(player), lines[value]) for player, value in points.items()]


# --- The sheet's worked examples (B2) ---

def test_letters_m_o_o_n_with_four_pictures_of_the_moon_score_500():
    line = best_line(board((MOON,) * 4, "MOON"))
    assert line == Line(MOON, 4, True)
    assert line.points == 500


def test_letters_t_r_e_e_with_three_pictures_of_the_tree_score_200():
    line = best_line(board((TREE, TREE, TREE, STAR), "TREE"))
    assert line == Line(TREE, 3, True)
    assert line.points == 200


def test_three_pictures_of_the_moon_without_the_complete_word_score_150():
    line = best_line(board((MOON, MOON, STAR, MOON), "MOOT"))
    assert line == Line(MOON, 3, False)
    assert line.points == 150


# --- B2: the whole table, the word in any order, anything else no score ---

@pytest.mark.parametrize("line", TABLE_LINES, ids=lambda line: line.describe())
def test_every_line_of_the_table_scores_its_points_B2(line):
    other = STAR if line.picture is not STAR else TREE
    pictures = (line.picture,) * line.pictures + (other,) * (4 - line.pictures)
    letters = line.picture.word if line.with_word else "XYZZ"
    assert best_line(board(pictures, letters)) == line
    assert line.points == LINE_POINTS[line.picture, line.pictures, line.with_word]


def test_the_word_counts_in_any_order_since_the_boxes_have_none_B2():
    assert best_line(board((STAR,) * 4, "RATS")) == Line(STAR, 4, True)


def test_the_word_alone_scores_nothing_B2():
    assert best_line(board((MOON, MOON, STAR, TREE), "MOON")) is None


def test_the_word_of_another_picture_does_not_help_B2():
    assert best_line(board((MOON,) * 4, "STAR")) == Line(MOON, 4, False)


def test_a_board_scores_its_single_best_line_B2():
    # Four stars make both "4 pictures" (100) and "3 pictures" (50): only the best counts.
    assert best_line(board((STAR,) * 4, "ABCD")).points == 100


def test_line_is_described_for_the_screen_in_the_sheets_words():
    assert MOON_500.describe() == "4 pictures of the MOON with the word: 500"


@pytest.mark.parametrize("bad_board, message", [
    (board((MOON,) * 5, "MOON"), "4 pictures, not 5"),
    (board((MOON,) * 3, "MOON"), "4 pictures, not 3"),
    (board((MOON,) * 4, "MOONS"), "4 letters, not 5"),
    (board((MOON,) * 4, "MOO"), "4 letters, not 3"),
    (Board((MOON,) * 4, ("M", "O", "O", "n")), "'n' is not a letter card"),
    (Board((MOON,) * 4, ("M", "O", "O", "NN")), "'NN' is not a letter card"),
])
def test_a_board_that_cannot_be_is_refused_and_the_match_unchanged_B1(bad_board, message):
    match, _ = play(new_match(), BoardEntered(ANN, board((TREE,) * 4, "TREE")))
    with pytest.raises(InvalidEvent, match=message):
        record(match, TABIT, BoardEntered(BOB, bad_board), NOW)
    assert replay(match, TABIT).game.entered[0].points == 300
    assert len(match.events) == 1


@pytest.mark.parametrize("line", [Line(MOON, 5, True), Line(STAR, 2, False), Line(TREE, 0, True)])
def test_a_line_chosen_directly_must_be_on_the_table_B2(line):
    with pytest.raises(InvalidEvent, match="not a line of the scoring table"):
        play(new_match(), LineChosen(ANN, line))


def test_no_score_may_be_chosen_directly_B2():
    _, state = play(new_match(), LineChosen(ANN, None), LineChosen(BOB, TREE_25))
    assert dict(state.totals) == {ANN: 0, BOB: 25}


# --- B1: a round is every player's board; totals round by round ---

def test_round_closes_when_every_board_is_in_with_points_and_running_totals_B1():
    match, state = play(new_match((ANN, BOB, CY)),
                        BoardEntered(CY, board((MOON,) * 4, "NOOM")),
                        LineChosen(ANN, TREE_25))
    assert state.rounds == () and awaiting(state) == (BOB,)
    match, state = play(match, BoardEntered(BOB, board((STAR, STAR, STAR, TREE), "ABCD")))
    first = state.rounds[0]
    assert [(b.player, b.points) for b in first.boards] == [(ANN, 25), (BOB, 50), (CY, 500)]
    assert first.totals == ((ANN, 25), (BOB, 50), (CY, 500))
    assert first.boards[2].board == board((MOON,) * 4, "NOOM")  # the cards, for the history
    _, state = play(match, *round_of(ann=500, bob=0, cy=25))
    assert state.rounds[1].totals == ((ANN, 525), (BOB, 50), (CY, 525))
    assert state.rounds[1].points_of(BOB) == 0
    assert [(s.player, s.score, s.rank) for s in TABIT.standings(state)] == [
        (ANN, 525, 1), (CY, 525, 1), (BOB, 50, 3)]


def test_a_board_entered_twice_in_one_round_is_refused_B1():
    match, _ = play(new_match((ANN, BOB, CY)), LineChosen(ANN, TREE_25))
    with pytest.raises(InvalidEvent, match="ann's board is already in for this round"):
        record(match, TABIT, LineChosen(ANN, None), NOW)


def test_a_player_not_at_the_table_is_refused():
    with pytest.raises(InvalidEvent, match="zed is not playing at this table"):
        play(new_match(), LineChosen(PlayerId("zed"), None))


@pytest.mark.parametrize("players", [(ANN,), (ANN, BOB, CY, DEE, PlayerId("eve"))])
def test_tabit_is_for_two_to_four_players_B1(players):
    with pytest.raises(InvalidSetup, match="Tabit is for 2 to 4 players"):
        TABIT.new_table(Seating(players))


def test_a_past_board_can_be_corrected_and_totals_follow_G2():
    match, _ = play(new_match(), *round_of(ann=25, bob=0), *round_of(ann=0, bob=25))
    _, state = correct(match, TABIT, 0, LineChosen(ANN, MOON_500), NOW)
    assert dict(state.game.totals) == {ANN: 500, BOB: 25}
    assert state.game.rounds[0].totals == ((ANN, 500), (BOB, 0))


# --- G1: the deal and the first player pass to the left each round ---

def test_deal_and_first_player_pass_to_the_left_each_round_G1():
    match = new_match((ANN, BOB, CY), first_dealer=1)
    dealers, first_players = [], []
    for _ in range(4):
        state = replay(match, TABIT).game
        dealers.append(TABIT.dealer(state))
        first_players.append(TABIT.to_act(state))
        match, _ = play(match, *round_of(ann=0, bob=0, cy=0))
    assert dealers == [BOB, CY, ANN, BOB]
    assert first_players == [CY, ANN, BOB, CY]
    assert [summary.dealer for summary in replay(match, TABIT).game.rounds] == [BOB, CY, ANN, BOB]


# --- B3: first to 1000; the highest total; a tie at the top plays another round ---

def test_first_to_reach_1000_exactly_wins_B3():
    match, state = play(new_match(), *round_of(ann=500, bob=25), *round_of(ann=500, bob=0))
    assert dict(state.totals)[ANN] == TARGET
    assert TABIT.is_over(state) and TABIT.winners(state) == {ANN}
    assert TABIT.dealer(state) is None and TABIT.to_act(state) is None
    with pytest.raises(InvalidEvent, match="The game is over: ann has won"):
        record(match, TABIT, LineChosen(BOB, MOON_500), NOW)


def test_several_over_1000_in_one_round_the_highest_total_wins_B3():
    match, state = play(new_match(), *round_of(ann=500, bob=500), *round_of(ann=400, bob=100))
    assert dict(state.totals) == {ANN: 900, BOB: 600}
    _, state = play(match, *round_of(ann=100, bob=500))
    assert dict(state.totals) == {ANN: 1000, BOB: 1100} and TABIT.winners(state) == {BOB}
    _, state = play(match, *round_of(ann=500, bob=400))
    assert dict(state.totals) == {ANN: 1400, BOB: 1000} and TABIT.winners(state) == {ANN}


def test_a_tie_at_the_top_is_played_off_by_the_tied_players_only_B3():
    three = new_match((ANN, BOB, CY))
    match, state = play(three, *round_of(ann=500, bob=500, cy=500),
                        *round_of(ann=500, bob=500, cy=0))
    assert not TABIT.is_over(state) and TABIT.winners(state) == frozenset()
    assert awaiting(state) == (ANN, BOB)
    assert TABIT.dealer(state) == CY and TABIT.to_act(state) == ANN  # cy deals, sits it out
    with pytest.raises(InvalidEvent, match="Only ann and bob play this extra round"):
        record(match, TABIT, LineChosen(CY, MOON_500), NOW)
    match, state = play(match, *round_of(ann=25, bob=25))  # still tied: another round
    assert not TABIT.is_over(state) and state.rounds[-1].tie_round
    assert state.rounds[-1].points_of(CY) is None
    _, state = play(match, *round_of(ann=0, bob=25))
    assert TABIT.is_over(state) and TABIT.winners(state) == {BOB}
    assert dict(state.totals) == {ANN: 1025, BOB: 1050, CY: 500}


def test_house_rule_whole_table_plays_the_tie_round_and_anyone_may_overtake_B3():
    options = TabitOptions(whole_table_plays_tie_round=True)
    match, state = play(new_match((ANN, BOB, CY), options=options),
                        *round_of(ann=500, bob=500, cy=500), *round_of(ann=500, bob=500, cy=400))
    assert awaiting(state) == (ANN, BOB, CY)
    match, state = play(match, *round_of(ann=0, bob=0, cy=100))
    assert dict(state.totals) == {ANN: 1000, BOB: 1000, CY: 1000}  # a three-way tie now
    assert not TABIT.is_over(state) and state.rounds[-1].tie_round
    _, state = play(match, *round_of(ann=0, bob=0, cy=500))
    assert TABIT.winners(state) == {CY}


# --- Properties ---

seeds = st.integers(0, 2**32 - 1)
boards = st.builds(Board, st.tuples(*[st.sampled_from(Picture)] * 4),
                   st.tuples(*[st.sampled_from("AEMNORSTZ")] * 4))


@given(boards, st.randoms(use_true_random=False))
def test_a_boards_line_ignores_the_order_of_its_boxes_and_needs_three_alike_B2(board, rng):
    line = best_line(board)
    shuffled = Board(tuple(rng.sample(board.pictures, 4)), tuple(rng.sample(board.letters, 4)))
    assert best_line(shuffled) == line
    most_alike = max(board.pictures.count(picture) for picture in Picture)
    assert (line is None) == (most_alike < 3)
    if line is not None:
        assert board.pictures.count(line.picture) == line.pictures  # the 4-picture line if it can
        assert line.with_word == (sorted(board.letters) == sorted(line.picture.word))



@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_games_end_with_one_winner_on_the_highest_total_over_1000(seed):
    match = random_match(random.Random(seed))
    state = replay(match, TABIT).game
    assert TABIT.is_over(state)
    (winner,) = TABIT.winners(state)
    totals = dict(state.totals)
    assert totals[winner] >= TARGET
    assert all(total < totals[winner] for player, total in totals.items() if player != winner)
    running = dict.fromkeys(match.seating.seats, 0)
    for summary in state.rounds:
        for score in summary.boards:
            assert score.points in {0, *LINE_POINTS.values()}
            running[score.player] += score.points
        assert summary.totals == tuple(running.items())


@settings(max_examples=40, deadline=None)
@given(seeds, st.floats(0, 1, exclude_max=True))
def test_undoing_any_event_restores_the_previous_state_exactly_G2(seed, where):
    match = random_match(random.Random(seed))
    assert_undo_restores_previous_state(match, TABIT, int(where * len(match.events)))


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_every_match_survives_the_json_round_trip(seed):
    assert_json_round_trip(random_match(random.Random(seed)), TABIT)


def test_a_long_match_for_the_benchmark_has_about_the_events_asked_for():
    match = random_match(random.Random(7), events=500)
    assert 500 <= len(match.events) < 560
    assert TABIT.is_over(replay(match, TABIT).game)


def test_the_documented_example_match_reads_and_replays_to_its_stated_result():
    match = match_from_json(documented_example("tabit.md"), {"tabit": TABIT}.__getitem__)
    state = replay(match, TABIT).game
    assert dict(state.totals) == {ANN: 1000, BOB: 50} and TABIT.winners(state) == {ANN}
