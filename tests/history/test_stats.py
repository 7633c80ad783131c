"""Statistics on hand-built histories with known answers (G3 shared wins, G4 abandoned games)."""

from __future__ import annotations

import pytest

from companion.core.errors import InvalidSetup
from companion.core.types import PlayerId
from companion.games.patience import SessionEnded, WindmillOptions
from companion.games.registry import game_for
from companion.games.tablanette import PackResult, Pile, TablanetteOptions
from companion.games.tableau import Edition
from companion.games.tableau_solitaire import Attempt, SessionEnds, SolitaireOptions
from companion.history.charts import games_per_month, games_per_year, running_totals, win_rates
from companion.history.stats import (
    BestSolitaireTime,
    PlazaFigures,
    Status,
    TabitFigures,
    TablanetteFigures,
    TableauFigures,
    every_head_to_head,
    head_to_head,
    history_statistics,
    outcomes,
    played_matches,
)
from tests.history.histories import (
    ANN,
    BOB,
    CY,
    MOON_WITH_WORD,
    STAR_WITH_WORD,
    attempt,
    played,
    seven_matches,
)


@pytest.fixture(scope="module")
def history():
    return played_matches(seven_matches(), game_for)


@pytest.fixture(scope="module")
def results(history):
    """Each match's outcome, what statistics read."""
    return tuple(entry.outcome for entry in history)


@pytest.fixture(scope="module")
def stats(results):
    return history_statistics(results)


def test_statuses_are_read_off_the_replayed_states(history):
    assert [entry.status for entry in history] == [
        Status.FINISHED, Status.FINISHED, Status.FINISHED, Status.ABANDONED, Status.FINISHED,
        Status.FINISHED, Status.IN_PROGRESS]


def test_overall_record_counts_shared_wins_and_leaves_out_abandoned_and_unfinished_G3_G4(stats):
    ann = stats.of(ANN).overall
    # Finished in order: m1 win, m2 shared win, m3 win, m5 loss, m6 win.
    assert (ann.played, ann.wins, ann.abandoned, ann.in_progress) == (5, 4, 1, 1)
    assert ann.win_rate == pytest.approx(0.8)
    assert (ann.current_streak, ann.longest_streak) == (1, 3)


def test_an_abandoned_match_neither_breaks_nor_extends_a_streak_G4(stats):
    bob = stats.of(BOB).overall
    # m1 loss, m2 shared win, m3 loss, (m4 abandoned), m5 win: streak 1 now, never more than 1.
    assert (bob.played, bob.wins, bob.current_streak, bob.longest_streak) == (4, 2, 1, 1)


def test_a_player_who_never_won_has_a_zero_win_rate(stats):
    cy = stats.of(CY).overall
    assert (cy.played, cy.wins, cy.win_rate, cy.longest_streak) == (1, 0, 0.0, 0)


def test_abandoned_matches_are_listed_G4(stats):
    assert stats.abandoned == ("m4",)


def test_per_game_records(stats):
    ann = stats.of(ANN)
    assert [entry.game for entry in ann.games] == [
        "crazy_quilt", "plaza", "tabit", "tableau"]
    plaza = ann.of_game("plaza").record
    assert (plaza.played, plaza.wins, plaza.in_progress) == (2, 2, 1)
    tableau = ann.of_game("tableau").record
    assert (tableau.played, tableau.wins, tableau.abandoned, tableau.win_rate) == (1, 0, 1, 0.0)


def test_plaza_average_points_against_per_hand_counts_won_hands_as_zero_P3(stats):
    # ann: m1 0 + 4, m2 0 + 3 + 3 -> 10 over 5 hands; the unfinished m7 does not count.
    assert stats.of(ANN).of_game("plaza").figures == PlazaFigures(5, 2.0)
    # bob: m1 10 + 0, m2 6 + 0 + 0 -> 16 over 5 hands.
    assert stats.of(BOB).of_game("plaza").figures == PlazaFigures(5, 3.2)


def test_tabit_best_board_and_average_per_round_B2(stats):
    assert stats.of(ANN).of_game("tabit").figures == TabitFigures(2, 500, MOON_WITH_WORD, 500.0)
    assert stats.of(BOB).of_game("tabit").figures == TabitFigures(2, 400, STAR_WITH_WORD, 200.0)


def test_tableau_tokens_per_round_from_finished_games_only_T4_T6(stats):
    # The abandoned m4 moved a token too, but counts in nothing.
    assert stats.of(ANN).of_game("tableau").figures == TableauFigures(1, -4.0)
    assert stats.of(BOB).of_game("tableau").figures == TableauFigures(1, 4.0)


def test_crazy_quilt_figures_are_the_Q3_attempt_statistics(stats):
    figures = stats.of(ANN).of_game("crazy_quilt").figures
    assert (figures.attempts, figures.wins, figures.win_rate) == (2, 1, 0.5)
    assert figures.best_seconds == 600.0
    assert figures.average_cards_home == 77.0  # (104 + 50) / 2


def test_windmill_statistics_run_across_sessions_in_order():
    sessions = [
        played("w1", "windmill", (ANN,), WindmillOptions(), "2026-04-01T10:00:00+00:00",
               [*attempt("2026-04-01T10:00:00+00:00", "2026-04-01T10:20:00+00:00", 104),
                SessionEnded()]),
        played("w2", "windmill", (ANN,), WindmillOptions(), "2026-04-02T10:00:00+00:00",
               [*attempt("2026-04-02T10:00:00+00:00", "2026-04-02T10:15:00+00:00", 104),
                *attempt("2026-04-02T11:00:00+00:00", "2026-04-02T11:05:00+00:00", 30),
                SessionEnded()]),
    ]
    figures = history_statistics(outcomes(sessions, game_for)).of(ANN).of_game(
        "windmill").figures
    assert (figures.attempts, figures.wins, figures.best_seconds) == (3, 2, 900.0)
    assert (figures.current_streak, figures.longest_streak) == (0, 2)
    assert figures.average_cards_home == pytest.approx((104 + 104 + 30) / 3)


def tablanette_pack(ann_tablanettes: tuple[int, ...]) -> PackResult:
    """ann takes 40 cards with every counted card; bob 12 plain ones (N6)."""
    return PackResult((Pile(ANN, 40, kings=4, queens=4, jacks=4, tens=3,
                            tablanettes=ann_tablanettes),
                       Pile(BOB, 12)), two_of_clubs=ANN, ten_of_diamonds=ANN)


def test_tablanette_average_points_per_pack_and_tablanettes_made_N4_N6():
    # ann per pack: 15 honours + 1 (2 of clubs) + 2 (10 of diamonds) + 3 majority + 20 = 41,
    # so 7 packs take her past 251 (N7); bob scores nothing.
    match = played("t1", "tablanette", (ANN, BOB), TablanetteOptions(), "2026-05-01T19:00:00+00:00",
                   [tablanette_pack((20,))] * 7)
    stats = history_statistics(outcomes([match], game_for))
    assert stats.of(ANN).of_game("tablanette").figures == TablanetteFigures(7, 41.0, 7)
    assert stats.of(BOB).of_game("tablanette").figures == TablanetteFigures(7, 0.0, 0)
    assert stats.of(ANN).overall.wins == 1


def test_solitaire_best_time_per_number_of_pictures_over_sessions_T8():
    first = played("s1", "tableau_solitaire", (ANN,), SolitaireOptions(Edition.DELUXE),
                   "2026-06-01T10:00:00+00:00",
                   [Attempt(3, True, seconds=200.0), Attempt(3, False, seconds=90.0),
                    Attempt(4, True, seconds=400.0), SessionEnds()])
    second = played("s2", "tableau_solitaire", (ANN,), SolitaireOptions(Edition.DELUXE),
                    "2026-06-02T10:00:00+00:00",
                    [Attempt(3, True, seconds=150.0), Attempt(4, True, seconds=450.0),
                     SessionEnds()])
    figures = history_statistics(outcomes([first, second], game_for)).of(ANN).of_game(
        "tableau_solitaire").figures
    # The unfinished 90-second attempt sets no best time.
    assert figures.best_times == (BestSolitaireTime(3, 150.0), BestSolitaireTime(4, 400.0))
    assert (figures.attempts, figures.finished_attempts) == (5, 4)


def test_head_to_head_counts_only_matches_both_finished(results):
    record = head_to_head(results, ANN, BOB)
    # m1 ann, m2 shared, m3 ann, m5 bob; the abandoned m4 and unfinished m7 are left out.
    assert (record.played, record.first_wins, record.second_wins, record.shared,
            record.neither) == (4, 2, 1, 1, 0)
    assert head_to_head(results, BOB, CY).first_wins == 1
    assert head_to_head(results, CY, PlayerId("dee")).played == 0


def test_every_head_to_head_in_one_pass_agrees_with_each_pair(results):
    records = every_head_to_head(results)
    assert [(record.first, record.second) for record in records] == [
        (ANN, BOB), (ANN, CY), (BOB, CY)]
    assert records == tuple(head_to_head(results, record.first, record.second)
                            for record in records)


def test_head_to_head_needs_two_players(results):
    with pytest.raises(InvalidSetup, match="two different players"):
        head_to_head(results, ANN, ANN)


def test_running_totals_of_a_plaza_game_hand_by_hand(history):
    table = running_totals(history[1], {ANN: "Ann", BOB: "Bob", CY: "Cy"})
    assert table.columns == ("Hand", "Ann", "Bob", "Cy")
    assert table.rows == ((1, 0, 6, 3), (2, 3, 6, 9), (3, 6, 6, 9))


def test_running_totals_of_tableau_tabit_and_patience(history):
    assert running_totals(history[4]).rows == ((1, 16, 24),)
    assert running_totals(history[2]).rows == ((1, 500, 0), (2, 1000, 400))
    assert running_totals(history[5]).rows == ((1, 1), (2, 1))


def test_win_rates_chart_as_a_table(stats):
    table = win_rates(stats, {ANN: "Ann"})
    assert table.columns == ("Player", "Played", "Wins", "Win rate %")
    assert table.rows == (("Ann", 5, 4, 80.0), ("bob", 4, 2, 50.0), ("cy", 1, 0, 0.0))


def test_games_per_month_shows_quiet_months_and_abandoned_apart_G4(results):
    late = played("m8", "plaza", (ANN, BOB), None, "2026-06-20T19:00:00+00:00", [])
    table = games_per_month([*results, *outcomes([late], game_for)])
    assert table.rows == (("2026-01", 2, 0), ("2026-02", 1, 1), ("2026-03", 2, 0),
                          ("2026-04", 0, 0), ("2026-05", 0, 0), ("2026-06", 0, 0))


def test_games_per_month_across_a_new_year():
    matches = [played(f"y{n}", "plaza", (ANN, BOB), None, at, [])
               for n, at in enumerate(("2025-11-30T20:00:00+00:00", "2026-01-02T20:00:00+00:00"))]
    table = games_per_month(outcomes(matches, game_for))
    assert [row[0] for row in table.rows] == ["2025-11", "2025-12", "2026-01"]


def test_games_per_month_can_show_only_the_last_months_up_to_the_newest_match(results):
    table = games_per_month(results, last=2)
    assert table.title == "Games played per month, last 2 months"
    assert table.rows == (("2026-02", 1, 1), ("2026-03", 2, 0))


def test_games_per_year_shows_quiet_years_and_abandoned_apart_G4(results):
    old = played("y0", "plaza", (ANN, BOB), None, "2024-12-30T20:00:00+00:00", [])
    table = games_per_year([*outcomes([old], game_for), *results])
    assert table.columns == ("Year", "Finished", "Abandoned")
    # m7 is still in progress and the 2024 game was never played: neither counts.
    assert table.rows == (("2024", 0, 0), ("2025", 0, 0), ("2026", 5, 1))


def test_an_empty_history_has_no_statistics():
    stats = history_statistics([])
    assert (stats.players, stats.abandoned) == ((), ())
    assert games_per_month([]).rows == games_per_year([]).rows == ()
