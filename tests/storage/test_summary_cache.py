"""The library keeps its match summaries parsed in memory (History lists thousands of them): what
it hands out must always be what the data folder holds, as a fresh open of the folder reads it."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from datetime import date

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent
from companion.core.match import undo
from companion.core.types import MatchId
from storage import open_library
from storage.model import MatchSummary
from tests.core.counting_game import COUNTING, Scored
from tests.storage.helpers import ANN, BOB, NOW, games, new_match


def fresh_summaries(folder) -> tuple[MatchSummary, ...]:
    with open_library(folder, games) as reopened:
        return reopened.matches.summaries()


def test_a_finished_undone_and_deleted_match_is_listed_as_the_folder_holds_it(tmp_path):
    folder = tmp_path / "data"
    with open_library(folder, games) as library:
        night = library.nights.get_or_create_for_date(date(2026, 11, 21))
        library.matches.create(new_match("m1", target=5, night=night.id))
        library.matches.create(new_match("m2", target=5))
        assert [summary.finished for summary in library.matches.summaries()] == [False, False]

        finished, _ = library.matches.append_event(MatchId("m1"), Scored(ANN, 5))
        assert library.matches.summaries(night=night.id)[0].winners == frozenset({ANN})
        assert library.matches.summaries() == fresh_summaries(folder)

        library.matches.save(undo(finished, COUNTING, NOW)[0])
        assert not library.matches.summaries(night=night.id)[0].finished
        library.matches.delete(MatchId("m2"))
        assert [summary.id for summary in library.matches.summaries()] == ["m1"]
        assert library.matches.summaries() == fresh_summaries(folder)


def test_a_restored_backup_lists_the_matches_it_holds(tmp_path):
    folder = tmp_path / "data"
    with open_library(folder, games) as library:
        library.matches.create(new_match("m1"))
    with open_library(folder, games) as library:  # opening a changed folder backs it up
        backup = library.list_backups()[0].id
        library.matches.create(new_match("m2"))
        assert len(library.matches.summaries()) == 2
        library.restore_backup(backup)
        assert [summary.id for summary in library.matches.summaries()] == ["m1"]


operation = st.one_of(
    st.tuples(st.just("create"), st.integers(1, 8)),
    st.tuples(st.just("score"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("undo"), st.integers(0, 5)),
    st.tuples(st.just("delete"), st.integers(0, 5)),
)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(operation, max_size=8))
def test_summaries_after_any_changes_equal_a_fresh_read_of_the_folder(tmp_path_factory,
                                                                       operations):
    folder = tmp_path_factory.mktemp("data")
    with open_library(folder, games) as library:
        library.matches.summaries()  # parsed before the changes, so each must keep it right
        created = 0
        for kind, *numbers in operations:
            ids = [summary.id for summary in library.matches.summaries()]
            if kind == "create":
                created += 1
                library.matches.create(replace(new_match(f"m{created}", target=numbers[0]),
                                               created_at=f"2026-11-21T20:00:{created:02d}+00:00"))
            elif not ids:
                continue
            elif kind == "score":
                with suppress(InvalidEvent):  # a finished match refuses more: nothing changes
                    library.matches.append_event(ids[numbers[0] % len(ids)], Scored(BOB, numbers[1]))
            elif kind == "undo":
                match = library.matches.get(ids[numbers[0] % len(ids)])
                if match.events:
                    library.matches.save(undo(match, COUNTING, NOW)[0])
            else:
                library.matches.delete(ids[numbers[0] % len(ids)])
        assert library.matches.summaries() == fresh_summaries(folder)
