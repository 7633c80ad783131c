"""Tableau (tableau.md, rulings T1-T7): the sheet's own cases, the rulings, and properties."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import FormatError, InvalidEvent, InvalidSetup
from companion.core.match import (
    Match,
    correct,
    match_from_json,
    match_to_json,
    record,
    replay,
)
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tableau import (
    TABLEAU,
    Call,
    Edition,
    PhotoCheck,
    RoundWon,
    TableauOptions,
    TableauState,
    TableStops,
    TitleCard,
    TitlesDealt,
    WrongPieces,
)
from tests.games.match_checks import assert_json_round_trip, assert_undo_restores_previous_state
from tests.games.tableau_play import random_match

ANN, BOB, CY, DEE = (PlayerId(name) for name in ("ann", "bob", "cy", "dee"))
NOW = "2026-11-21T20:00:00+00:00"


def new_match(*events, players=(ANN, BOB, CY), first_dealer=0, **options) -> Match:
    match = Match(MatchId("t1"), "tableau", Seating(tuple(players), first_dealer),
                  TableauOptions(**options), NOW, NOW)
    for event in events:
        match, _ = record(match, TABLEAU, event, NOW)
    return match


def state_of(match: Match) -> TableauState:
    return replay(match, TABLEAU).game


def won(winner, **wrong) -> RoundWon:
    return RoundWon(PlayerId(winner), tuple(WrongPieces(PlayerId(p), n) for p, n in wrong.items()))


def lookup(key: str):
    if key != "tableau":
        raise KeyError(key)
    return TABLEAU


def refused(match: Match, event, message: str) -> None:
    """The event raises InvalidEvent with `message`, and the match's state is unchanged."""
    before = replay(match, TABLEAU)
    with pytest.raises(InvalidEvent, match=message):
        record(match, TABLEAU, event, NOW)
    assert replay(match, TABLEAU) == before


# The sheet's own cases ("To Begin Play", "Method of Play", "The Winner", "To Continue Play").

def test_tokens_are_divided_equally_among_the_players_T2():
    assert state_of(new_match()).balances() == {ANN: 20, BOB: 20, CY: 20}
    assert state_of(new_match(tokens_each=7)).balances() == {ANN: 7, BOB: 7, CY: 7}


def test_the_dealer_starts_play_and_play_proceeds_to_the_left_T3():
    match = new_match(first_dealer=1)
    callers = []
    for _ in range(4):
        caller = TABLEAU.to_act(state_of(match))
        callers.append(caller)
        called = ANN if caller != ANN else BOB
        match, _ = record(match, TABLEAU, Call(caller, called, fit=True), NOW)
    assert callers == [BOB, CY, ANN, BOB]


def test_a_piece_that_fits_is_kept_and_no_token_moves_T4():
    state = state_of(new_match(Call(ANN, BOB, fit=True)))
    assert state.balances() == {ANN: 20, BOB: 20, CY: 20}


def test_a_piece_that_does_not_fit_goes_back_with_a_forfeit_of_one_token_T4():
    state = state_of(new_match(Call(ANN, CY, fit=False)))
    assert state.balances() == {ANN: 19, BOB: 20, CY: 21}


def test_a_piece_put_down_upside_down_pays_the_forfeit_even_if_it_would_fit_T4():
    photo = PhotoCheck(False, "wrong-orientation", 0.97)
    state = state_of(new_match(Call(ANN, BOB, fit=False, photo=photo)))
    assert state.balances() == {ANN: 19, BOB: 21, CY: 20}
    assert not state.calls[0].call.overridden


def test_a_corner_only_join_is_not_a_fit_and_pays_the_forfeit_T4():
    photo = PhotoCheck(False, "not-full-side", 0.9)
    state = state_of(new_match(Call(ANN, BOB, fit=False, photo=photo)))
    assert state.balance(ANN) == 19


def test_the_winner_collects_one_token_per_incomplete_or_incorrect_piece_T6():
    state = state_of(new_match(won("bob", ann=3, cy=16)))
    assert state.balances() == {ANN: 17, BOB: 39, CY: 4}
    lines = {line.player: line for line in state.rounds[0].players}
    assert lines[BOB].wrong_pieces is None and lines[BOB].change == 19
    assert lines[ANN].wrong_pieces == 3 and lines[CY].change == -16


def test_a_player_whose_picture_is_complete_but_for_none_pays_nothing_T6():
    state = state_of(new_match(won("ann", bob=0, cy=0)))
    assert state.balances() == {ANN: 20, BOB: 20, CY: 20}


def test_the_next_round_is_dealt_by_the_next_player_to_the_left_T7():
    match = new_match(first_dealer=2)
    dealers = []
    for _ in range(4):
        dealers.append(TABLEAU.dealer(state_of(match)))
        match, _ = record(match, TABLEAU, won("ann", bob=1, cy=1), NOW)
    assert dealers == [CY, ANN, BOB, CY]
    assert [summary.dealer for summary in state_of(match).rounds] == [CY, ANN, BOB, CY]


def test_a_new_round_starts_its_calls_with_the_new_dealer_T3_T7():
    match = new_match(Call(ANN, BOB, fit=True), Call(BOB, CY, fit=False), won("cy", ann=2, bob=5))
    state = state_of(match)
    assert TABLEAU.to_act(state) == BOB
    assert state.calls == ()


def test_play_may_be_stopped_at_the_end_of_any_round_and_most_tokens_wins_T7():
    match = new_match(Call(ANN, BOB, fit=False), won("cy", ann=2, bob=4), TableStops())
    state = state_of(match)
    assert TABLEAU.is_over(state)
    assert TABLEAU.winners(state) == {CY}
    assert [(s.player, s.score, s.rank) for s in TABLEAU.standings(state)] == [
        (CY, 26, 1), (ANN, 17, 2), (BOB, 17, 2)]
    assert TABLEAU.dealer(state) is None and TABLEAU.to_act(state) is None


def test_a_tie_for_most_tokens_is_a_shared_win_G3():
    state = state_of(new_match(won("ann", bob=3, cy=1), won("bob", ann=3, cy=1), TableStops()))
    assert state.balances() == {ANN: 21, BOB: 21, CY: 18}
    assert TABLEAU.winners(state) == {ANN, BOB}


def test_the_game_is_not_over_before_the_table_stops():
    state = state_of(new_match(won("ann", bob=16, cy=16)))
    assert not TABLEAU.is_over(state)
    assert TABLEAU.winners(state) == frozenset()


# Editions and player counts (T1).

@pytest.mark.parametrize("edition, fewest, most", [(Edition.JUNIOR, 2, 4), (Edition.DELUXE, 2, 6)])
def test_player_range_depends_on_the_edition_T1(edition, fewest, most):
    assert TABLEAU.player_range(TableauOptions(edition)) == (fewest, most)


def test_five_players_cannot_play_the_junior_edition_T1():
    seating = Seating(tuple(PlayerId(f"p{n}") for n in range(5)))
    with pytest.raises(InvalidSetup, match="2 to 4 players, not 5"):
        TABLEAU.new_table(seating, TableauOptions(Edition.JUNIOR))
    assert TABLEAU.new_table(seating, TableauOptions(Edition.DELUXE)).seating == seating


def test_the_default_is_the_deluxe_edition_with_twenty_tokens_and_debt_T1_T2_T5():
    assert TableauOptions() == TableauOptions(Edition.DELUXE, 20, True)


@pytest.mark.parametrize("options, message", [
    ({"tokens_each": 0}, "at least one token"),
    ({"tokens_each": 2.5}, "whole number"),
    ({"edition": "deluxe"}, "Junior or the Deluxe"),
])
def test_bad_options_are_refused(options, message):
    with pytest.raises(InvalidSetup, match=message):
        TableauOptions(**options)


# Debt (T5) and unpaid settlements (T6 with allow_debt off).

def test_a_player_with_no_tokens_still_pays_and_owes_T5():
    events = (Call(ANN, BOB, fit=False), Call(BOB, ANN, fit=True), Call(ANN, BOB, fit=False))
    state = state_of(new_match(*events, players=(ANN, BOB), tokens_each=1))
    assert state.balances() == {ANN: -1, BOB: 3}
    assert state.unpaid(ANN) == 0


def test_without_debt_a_broke_caller_records_the_forfeit_as_unpaid_T5():
    events = (Call(ANN, BOB, fit=False), Call(BOB, ANN, fit=True), Call(ANN, BOB, fit=False))
    state = state_of(new_match(*events, players=(ANN, BOB), tokens_each=1, allow_debt=False))
    assert state.balances() == {ANN: 0, BOB: 2}
    assert [outcome.unpaid for outcome in state.calls] == [False, False, True]
    assert state.unpaid(ANN) == 1


def test_with_debt_the_round_loser_pays_every_piece_and_goes_negative_T5_T6():
    state = state_of(new_match(won("ann", bob=9, cy=2), tokens_each=5))
    assert state.balances() == {ANN: 16, BOB: -4, CY: 3}


def test_without_debt_a_loser_pays_what_he_has_and_the_rest_is_unpaid_T5_T6():
    state = state_of(new_match(won("ann", bob=9, cy=2), tokens_each=5, allow_debt=False))
    assert state.balances() == {ANN: 12, BOB: 0, CY: 3}
    lines = {line.player: line for line in state.rounds[0].players}
    assert (lines[BOB].change, lines[BOB].unpaid) == (-5, 4)
    assert (lines[CY].change, lines[CY].unpaid) == (-2, 0)
    assert state.unpaid(BOB) == 4


def test_round_summary_counts_the_rounds_unpaid_forfeits_T5():
    events = (Call(ANN, BOB, fit=False), Call(BOB, ANN, fit=False), won("bob", ann=3))
    state = state_of(new_match(*events, players=(ANN, BOB), tokens_each=1, allow_debt=False))
    line = {line.player: line for line in state.rounds[0].players}[ANN]
    # ann pays bob a forfeit, gets one back, and at round end pays her last token of three owed.
    assert (line.change, line.total, line.unpaid) == (-1, 0, 2)


def test_round_history_has_each_round_and_running_totals():
    match = new_match(Call(ANN, BOB, fit=False), won("bob", ann=2, cy=1),
                      Call(BOB, CY, fit=True), won("ann", bob=4, cy=0))
    rounds = state_of(match).rounds
    assert [summary.number for summary in rounds] == [1, 2]
    assert [summary.winner for summary in rounds] == [BOB, ANN]
    assert [[line.change for line in r.players] for r in rounds] == [[-3, 4, -1], [4, -4, 0]]
    assert [[line.total for line in r.players] for r in rounds] == [[17, 24, 19], [21, 20, 19]]
    assert [len(summary.calls) for summary in rounds] == [1, 1]


# Title cards and photo checks (issue 7).

def test_title_cards_are_kept_with_the_round_they_were_dealt_for():
    titles = (TitleCard(ANN, "Lighthouse"), TitleCard(BOB, "Harbour"), TitleCard(CY, "Mill"))
    match = new_match(TitlesDealt(titles), Call(ANN, BOB, fit=True))
    assert state_of(match).titles == titles
    state = state_of(new_match(*match.events, won("ann", bob=1, cy=1)))
    assert state.rounds[0].titles == titles and state.titles == ()


def test_a_players_override_of_the_photo_verdict_is_recorded():
    call = Call(ANN, BOB, fit=True, photo=PhotoCheck(False, "not-neighbours", 0.8))
    assert call.overridden
    assert state_of(new_match(call)).balances() == {ANN: 20, BOB: 20, CY: 20}
    assert not Call(ANN, BOB, fit=True, photo=PhotoCheck(None, "unsure", 0.3)).overridden


# Impossible events: refused with a message for the table, state unchanged.

@pytest.mark.parametrize("event, message", [
    (Call(PlayerId("zed"), BOB, fit=True), "zed is not playing at this table"),
    (Call(ANN, PlayerId("zed"), fit=True), "zed is not playing at this table"),
    (Call(ANN, ANN, fit=False), "cannot call a piece from his own rectangle"),
    (Call(BOB, CY, fit=False), "It is ann's turn to call, not bob's"),
    (won("ann", bob=17, cy=0), "bob cannot have 17 wrong pieces: a picture has 16"),
    (won("ann", bob=-1, cy=0), "bob cannot have -1 wrong pieces"),
    (won("ann", ann=2, bob=1, cy=0), "ann won the round, so has no wrong pieces"),
    (won("ann", bob=1), "Give a count of wrong pieces for cy too"),
    (won("ann", bob=1, cy=0, zed=3), "zed is not playing at this table"),
    (RoundWon(ANN, (WrongPieces(BOB, 1), WrongPieces(BOB, 2), WrongPieces(CY, 0))),
     "bob is listed twice"),
    (won("zed", ann=1, bob=1, cy=1), "zed is not playing at this table"),
    (TableStops(), "No round has been finished yet"),
    (Call(ANN, BOB, fit=False, photo=PhotoCheck(True, "wrong-picture", 0.5)), "does not add up"),
    (Call(ANN, BOB, fit=False, photo=PhotoCheck(None, "unsure", 1.5)), "between 0 and 1"),
    (Call(ANN, BOB, fit="maybe"), "fit or not"),
    (TitlesDealt((TitleCard(ANN, "Mill"), TitleCard(BOB, "Mill"), TitleCard(CY, "Sea"))),
     "same title card"),
    (TitlesDealt((TitleCard(ANN, "Mill"), TitleCard(BOB, "Sea"))), "title card for cy"),
    (TitlesDealt((TitleCard(ANN, "Mill"), TitleCard(BOB, "Sea"), TitleCard(CY, " "))),
     "name of its picture"),
])
def test_impossible_event_is_refused_with_a_clear_message(event, message):
    refused(new_match(), event, message)


def test_no_event_is_taken_after_the_table_stops_T7():
    match = new_match(won("ann", bob=1, cy=1), TableStops())
    for event in (Call(BOB, ANN, fit=True), won("ann", bob=1, cy=1), TableStops()):
        refused(match, event, "The table has stopped")


def test_the_table_cannot_stop_in_the_middle_of_a_round_T7():
    match = new_match(won("ann", bob=1, cy=1), Call(BOB, ANN, fit=True))
    refused(match, TableStops(), "only at the end of a round")


def test_title_cards_are_recorded_once_per_round():
    titles = TitlesDealt((TitleCard(ANN, "A"), TitleCard(BOB, "B"), TitleCard(CY, "C")))
    refused(new_match(titles), titles, "already recorded")


def test_correcting_a_call_to_no_fit_moves_the_forfeit_and_totals_follow_G2():
    match = new_match(Call(ANN, BOB, fit=True), won("cy", ann=1, bob=1), TableStops())
    corrected, state = correct(match, TABLEAU, 0, Call(ANN, BOB, fit=False), NOW)
    assert state.game.balances() == {ANN: 18, BOB: 20, CY: 22}
    assert [line.total for line in state.game.rounds[0].players] == [18, 20, 22]


def test_a_correction_that_makes_a_later_call_out_of_turn_is_refused_G2():
    match = new_match(Call(ANN, BOB, fit=True), Call(BOB, CY, fit=True))
    with pytest.raises(InvalidEvent, match="Entry 2: It is ann's turn"):
        titles = (TitleCard(ANN, "A"), TitleCard(BOB, "B"), TitleCard(CY, "C"))
        correct(match, TABLEAU, 0, TitlesDealt(titles), NOW)


def test_bad_event_json_names_the_entry_and_field():
    data = match_to_json(new_match(Call(ANN, BOB, fit=True)), TABLEAU)
    data["events"][0]["fit"] = "yes"
    with pytest.raises(FormatError, match=r"events\[0\]\.fit"):
        match_from_json(data, lookup)
    data["events"][0] = {"type": "tableau.round_won", "winner": "ann",
                         "wrong_pieces": [{"player": "bob", "count": 17}, {"player": "cy",
                                                                           "count": 0}]}
    with pytest.raises(FormatError, match="Entry 1: bob cannot have 17"):
        match_from_json(data, lookup)


# Properties over random legal games.

seeds = st.integers(0, 2**32 - 1)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_games_end_with_the_most_tokens_winning(seed):
    match = random_match(random.Random(seed))
    state = state_of(match)
    assert TABLEAU.is_over(state)
    winners = TABLEAU.winners(state)
    assert winners and winners <= set(match.seating.seats)
    assert {player for player, tokens in state.balances().items()
            if tokens == max(state.tokens)} == winners


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_tokens_are_conserved_after_every_event(seed):
    match = random_match(random.Random(seed))
    options = match.options
    total = options.tokens_each * match.seating.size
    partial = replace(match, events=())
    for event in match.events:
        partial, state = record(partial, TABLEAU, event, NOW)
        assert sum(state.game.tokens) == total
        if not options.allow_debt:
            assert min(state.game.tokens) >= 0
    previous = (options.tokens_each,) * match.seating.size
    for summary in state.game.rounds:  # each round's changes lead from one total to the next
        totals = tuple(line.total for line in summary.players)
        assert tuple(line.change for line in summary.players) == tuple(
            after - before for before, after in zip(previous, totals, strict=True))
        assert sum(line.change for line in summary.players) == 0
        previous = totals
    assert previous == state.game.tokens  # the table stopped at a round's end


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_unpaid_tokens_only_arise_without_debt_T5(seed):
    match = random_match(random.Random(seed))
    state = state_of(match)
    unpaid = sum(state.unpaid(player) for player in match.seating.seats)
    if match.options.allow_debt:
        assert unpaid == 0


@settings(max_examples=40, deadline=None)
@given(seeds, st.data())
def test_undoing_any_event_restores_the_previous_state_exactly(seed, data):
    match = random_match(random.Random(seed))
    position = data.draw(st.integers(0, len(match.events) - 1))
    assert_undo_restores_previous_state(match, TABLEAU, position)


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_every_match_survives_a_json_round_trip(seed):
    assert_json_round_trip(random_match(random.Random(seed)), TABLEAU)


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_each_round_is_called_from_its_dealer_to_the_left_T3(seed):
    match = random_match(random.Random(seed))
    seating = match.seating
    for number, summary in enumerate(state_of(match).rounds):
        dealer = seating.dealer_of_deal(number)
        expected = [seating.player(seating.left_of(dealer, k)) for k in range(len(summary.calls))]
        assert [outcome.call.caller for outcome in summary.calls] == expected


def test_random_match_plays_on_to_about_the_asked_number_of_events():
    match = random_match(random.Random(7), events=500)
    assert 500 <= len(match.events) < 560
    assert TABLEAU.is_over(state_of(match))


def test_the_documented_example_imports_and_gives_the_documented_totals():
    doc = (Path(__file__).parents[2] / "docs/match-format/tableau.md").read_text()
    example = doc.split("## Example")[1].split("```json")[1].split("```")[0]
    state = state_of(match_from_json(json.loads(example), lookup))
    assert state.balances() == {ANN: 17, BOB: 14, CY: 29}
    assert TABLEAU.winners(state) == {CY}
    assert [outcome.call.overridden for outcome in state.rounds[0].calls] == [False, False, True]
