"""Property tests over random histories of real games: a correction anywhere (G2) changes the
statistics exactly as recomputing from scratch does, statistics read off the stored summaries are
those of replaying every match, and export -> import reproduces a history."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent
from companion.core.match import MatchAbandoned, correct, match_from_json, match_to_json
from companion.core.types import NightId
from companion.games.registry import game_for
from companion.history.exchange import export_json, history_of, import_json
from companion.history.stats import (
    HistoryStatistics,
    history_statistics,
    outcomes,
    played_match,
)
from storage import Library, Night, memory_library
from tests.history.randomized import FAST_GAMES, PLAYERS, placed, random_match, replacement

NOW = "2026-11-21T20:00:00+00:00"
PROPERTY = settings(max_examples=20, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def random_history(rng: random.Random, count: int, nights: int = 0) -> Library:
    night_ids = [NightId(f"night-{n}") for n in range(nights)]
    matches = [placed(random_match(rng.choice(FAST_GAMES), rng), number,
                      rng.choice([None, *night_ids]))
               for number in range(count)]
    library = memory_library(game_for, clock=lambda: NOW)
    library.players.put_many(PLAYERS)
    library.nights.put_many(Night(night, f"2025-0{n + 1}-01") for n, night in enumerate(night_ids))
    library.matches.create_many(matches)
    return library


def library_statistics(library: Library) -> HistoryStatistics:
    """Statistics as the app computes them: from the stored match summaries alone."""
    return history_statistics(summary.outcome for summary in library.matches.summaries())


def kept_state_statistics(library: Library) -> HistoryStatistics:
    """Statistics from the replayed states the library keeps (up to date as matches are saved)."""
    matches = history_of(library).matches
    return history_statistics(
        played_match(match, game_for(match.game), library.matches.state(match.id)).outcome
        for match in matches)


def scratch_statistics(library: Library) -> HistoryStatistics:
    """Statistics recomputed from scratch: every match re-read from its JSON and replayed."""
    matches = [match_from_json(json.loads(json.dumps(match_to_json(match, game_for(match.game)))),
                               game_for)
               for match in history_of(library).matches]
    return history_statistics(outcomes(matches, game_for))


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 12), abandoned=st.integers(0, 3))
def test_statistics_from_summaries_are_those_of_replaying_every_match(seed, count, abandoned):
    rng = random.Random(seed)
    library = random_history(rng, count)
    for match in rng.sample(history_of(library).matches, min(abandoned, count)):
        cut = rng.randrange(len(match.events) + 1)  # given up part way, or left unfinished
        ending = (MatchAbandoned(),) if rng.random() < 0.5 else ()
        library.matches.save(replace(match, events=(*match.events[:cut], *ending)))
    assert library_statistics(library) == scratch_statistics(library)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 6))
def test_a_correction_changes_the_statistics_as_recomputing_from_scratch_does_G2(seed, count):
    rng = random.Random(seed)
    library = random_history(rng, count)
    before = library_statistics(library)
    match = rng.choice(history_of(library).matches)
    game = game_for(match.game)
    position = rng.randrange(len(match.events))
    event = replacement(rng, match, match.events[position])
    try:
        corrected, _ = correct(match, game, position, event, NOW)
    except InvalidEvent:
        # A correction that makes a later entry impossible is refused, and so is saving that log.
        with pytest.raises(InvalidEvent):
            library.matches.save(replace(match, events=(*match.events[:position], event,
                                                        *match.events[position + 1:])))
        assert library_statistics(library) == before == scratch_statistics(library)
        return
    library.matches.save(corrected)
    after = library_statistics(library)
    assert after == kept_state_statistics(library) == scratch_statistics(library)
    # Only the players of the corrected match can see their statistics move.
    for player in before.players:
        if player.player not in match.seating.seats:
            assert after.of(player.player) == player


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(0, 8), nights=st.integers(0, 3))
def test_export_then_import_reproduces_the_history_exactly(seed, count, nights):
    library = random_history(random.Random(seed), count, nights)
    text = export_json(library, game_for)
    copy = memory_library(game_for)
    import_json(text, copy, game_for)
    assert history_of(copy) == history_of(library)
    assert copy.nights.list() == library.nights.list()
    assert export_json(copy, game_for) == text
    assert library_statistics(copy) == library_statistics(library)


@PROPERTY
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(1, 10))
def test_per_game_records_add_up_to_the_overall_record(seed, count):
    rng = random.Random(seed)
    matches = [placed(random_match(rng.choice(FAST_GAMES), rng), number)
               for number in range(count)]
    if rng.random() < 0.5:  # now and then a game given up (G4)
        matches[0] = replace(matches[0], events=(*matches[0].events[:1], MatchAbandoned()))
    stats = history_statistics(outcomes(matches, game_for))
    for player in stats.players:
        overall = player.overall
        records = [entry.record for entry in player.games]
        for field in ("played", "wins", "abandoned", "in_progress"):
            assert getattr(overall, field) == sum(getattr(record, field) for record in records)
        assert overall.current_streak <= overall.longest_streak <= overall.wins <= overall.played
