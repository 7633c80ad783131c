"""Statistics read match summaries only (issue 5): each finished match's summary keeps every
player's tally of the game's figures. These tests check that a tally survives the index's JSON,
that tallies combine into exactly the figures of all the states at once, and that an index
written before summaries kept tallies is filed again on opening."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.codec import from_json, to_json
from companion.core.errors import FormatError
from companion.core.game import Table
from companion.core.match import MatchAbandoned, replay
from companion.core.seating import Seating
from companion.core.types import PlayerId
from companion.games.patience import Attempt, PatienceState, WindmillOptions, attempt_statistics
from companion.games.registry import game_for
from companion.games.tablanette import TablanetteOptions
from companion.history.stats import FIGURES, Status, history_statistics, outcomes
from storage import open_library
from storage.model import MatchSummary, summarize, summary_from_json
from tests.history.histories import ANN, BOB, played, seven_matches
from tests.history.randomized import FAST_GAMES, PLAYERS, placed, random_match
from tests.history.test_stats import tablanette_pack

PROPERTY = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def through_the_index(summary: MatchSummary) -> dict:
    """The summary as the index file holds it: codec JSON written out and read back."""
    return json.loads(json.dumps(to_json(summary)))


def assert_read_back_unchanged(summary: MatchSummary) -> None:
    data = through_the_index(summary)
    assert summary_from_json(data) == summary
    assert from_json(MatchSummary, data) == summary  # the generic codec agrees


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(FAST_GAMES),
       ending=st.sampled_from(["finished", "cut", "abandoned"]))
def test_a_summary_reads_back_from_the_index_unchanged(seed, game, ending):
    rng = random.Random(seed)
    match = placed(random_match(game, rng), 0)
    if ending != "finished":  # left unfinished part way, or given up there (G4)
        cut = rng.randrange(len(match.events) + 1)
        tail = (MatchAbandoned(),) if ending == "abandoned" else ()
        match = replace(match, events=(*match.events[:cut], *tail))
    summary = summarize(match, game_for(game), replay(match, game_for(game)))
    assert bool(summary.tallies) == summary.finished  # figures come from finished games only
    assert_read_back_unchanged(summary)


def test_every_game_of_the_hand_built_history_and_tablanette_read_back_unchanged():
    tablanette = played("t1", "tablanette", (ANN, BOB), TablanetteOptions(),
                        "2026-05-01T19:00:00+00:00", [tablanette_pack((20,))] * 7)
    for match in (*seven_matches(), tablanette):
        game = game_for(match.game)
        assert_read_back_unchanged(summarize(match, game, replay(match, game)))


def test_a_damaged_summary_is_refused_naming_its_game():
    match = seven_matches()[0]
    data = through_the_index(summarize(match, game_for(match.game),
                                       replay(match, game_for(match.game))))
    del data["tallies"][0][1]["hands"]
    with pytest.raises(FormatError, match="summary of game 'm1'.*hands"):
        summary_from_json(data)


attempts = st.builds(
    lambda seconds, cards, won: Attempt("2026-01-01T10:00:00+00:00", "2026-01-01T10:30:00+00:00",
                                        seconds, 104 if won else cards, 0, won),
    st.floats(10, 5000, allow_nan=False), st.integers(0, 103), st.booleans())


@PROPERTY
@given(sessions=st.lists(st.lists(attempts, max_size=6), max_size=6))
def test_patience_tallies_combine_into_Q3_over_all_attempts_in_order(sessions):
    rules = FIGURES["windmill"]
    table = Table(Seating((ANN,)), WindmillOptions())
    tallies = [rules.tally(ANN, PatienceState(table, tuple(session))) for session in sessions]
    tallies = [rules.from_json(json.loads(json.dumps(to_json(tally)))) for tally in tallies]
    everything = [attempt for session in sessions for attempt in session]
    assert rules.figures(tallies) == attempt_statistics(everything)


def write_version_2_index(folder) -> None:
    """Make the folder's index what version 2 wrote: summaries without tallies."""
    path = folder / "index.json"
    tables = json.loads(path.read_text())
    tables["meta"] = {"1": {"schema": 2}}
    for summary in tables["matches"].values():
        del summary["tallies"]
    path.write_text(json.dumps(tables))


def test_summaries_of_a_version_2_folder_are_filed_again_with_their_figures(tmp_path):
    rng = random.Random(5)
    matches = [placed(random_match(game, rng), number)
               for number, game in enumerate(FAST_GAMES)]
    folder = tmp_path / "data"
    with open_library(folder, game_for) as library:
        library.players.put_many(PLAYERS)
        library.matches.create_many(matches)
        written = library.matches.summaries()
    write_version_2_index(folder)
    with open_library(folder, game_for) as library:
        assert library.matches.summaries() == written
        from_summaries = history_statistics(s.outcome for s in library.matches.summaries())
    assert from_summaries == history_statistics(outcomes(matches, game_for))
    assert any(entry.status is Status.FINISHED for entry in outcomes(matches, game_for))


def test_recording_in_a_game_in_progress_keeps_its_summary_without_figures(tmp_path):
    match = seven_matches()[6]  # a Plaza game one hand into two
    with open_library(tmp_path / "data", game_for) as library:
        library.matches.create(replace(match, events=()))
        library.matches.append_event(match.id, match.events[0])
        (summary,) = library.matches.summaries()
    assert (summary.finished, summary.tallies) == (False, ())
    assert summary.outcome.status is Status.IN_PROGRESS
    assert summary.seats == (PlayerId("ann"), PlayerId("bob"))
