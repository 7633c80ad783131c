"""A data folder on disk: reopening, damaged files, backups, migrations, and what an event costs."""

from __future__ import annotations

import json
import os
import tempfile
from datetime import date
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.match import match_to_json, undo
from companion.core.types import MatchId
from storage import DamagedMatch, DataTooNew, open_library
from storage.migrations import SCHEMA_VERSION
from tests.core.counting_game import Scored
from tests.storage.helpers import ANN, NOW, games, new_match, scored


def open_at(folder: Path, **options):
    return open_library(folder, games, **options)


def events_of(library, match_id="m1"):
    return library.matches.get(MatchId(match_id)).events


def test_everything_is_there_after_reopening(tmp_path):
    with open_at(tmp_path) as library:
        ann = library.players.add("Ann")
        library.players.archive(library.players.add("Bob").id)
        night = library.nights.get_or_create_for_date(date(2026, 11, 21))
        library.nights.set_place(night.id, "Kitchen")
        library.matches.create(new_match(night=night.id))
        for n in range(7):
            library.matches.append_event(MatchId("m1"), scored(n))
    with open_at(tmp_path) as library:
        assert [(p.name, p.archived) for p in library.players.list(include_archived=True)] == [
            ("Ann", False), ("Bob", True)]
        assert library.players.get(ann.id) == ann
        (reopened,) = library.nights.list()
        assert (reopened.place, reopened.matches) == ("Kitchen", ("m1",))
        assert events_of(library) == tuple(scored(n) for n in range(7))
        assert library.notices == ()


def test_recording_an_event_rewrites_only_its_match_file_until_the_summary_changes(tmp_path):
    with open_at(tmp_path) as library:
        library.matches.create(new_match(target=10))
        library.matches.create(new_match("other"))
        index, match_file = tmp_path / "index.json", tmp_path / "matches" / "m1.json"
        other_file = tmp_path / "matches" / "other.json"
        index_before, other_before = os.stat(index), os.stat(other_file)
        for points in (1, 2, 3):
            match_before = os.stat(match_file)
            library.matches.append_event(MatchId("m1"), Scored(ANN, points))
            assert os.stat(match_file).st_ino != match_before.st_ino  # replaced atomically
        assert os.stat(index).st_ino == index_before.st_ino
        assert os.stat(other_file).st_ino == other_before.st_ino
        library.matches.append_event(MatchId("m1"), Scored(ANN, 5))
        assert os.stat(index).st_ino != index_before.st_ino  # the game is won: summary changed


# --- damaged files -----------------------------------------------------------------------------

DAMAGE = {
    "garbage": lambda content: os.urandom(len(content)),
    "truncated": lambda content: content[: len(content) // 2],
    "empty": lambda content: b"",
}


def damage(path: Path, how: str) -> bytes:
    damaged = DAMAGE[how](path.read_bytes())
    path.write_bytes(damaged)  # in place, as a failing disk or a crashed editor would
    return damaged


def library_with_a_backup(folder: Path) -> None:
    """Ann and a match of 3 events are in the newest backup; Bob, 2 more events and match m2
    came after it."""
    with open_at(folder) as library:
        library.players.add("Ann")
        library.matches.create(new_match())
        for n in range(3):
            library.matches.append_event(MatchId("m1"), scored(n))
    with open_at(folder) as library:  # opening takes the backup
        library.players.add("Bob")
        for n in range(3, 5):
            library.matches.append_event(MatchId("m1"), scored(n))
        library.matches.create(new_match("m2"))


def check_moved_aside(folder: Path, library, name: str, damaged: bytes) -> None:
    (notice,) = library.notices
    assert notice.file == name and notice.restored_from is not None
    assert "damaged" in notice.message and notice.moved_to in notice.message
    assert (folder / notice.moved_to).read_bytes() == damaged  # kept, never deleted


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_damaged_match_file_is_moved_aside_and_its_backup_put_back(tmp_path, how):
    library_with_a_backup(tmp_path)
    damaged = damage(tmp_path / "matches" / "m1.json", how)
    with open_at(tmp_path) as library:
        check_moved_aside(tmp_path, library, "matches/m1.json", damaged)
        assert events_of(library) == tuple(scored(n) for n in range(3))
        assert [p.name for p in library.players.list()] == ["Ann", "Bob"]
        library.matches.append_event(MatchId("m1"), scored(3))  # and play goes on


@pytest.mark.parametrize("how", sorted(DAMAGE))
def test_damaged_index_is_moved_aside_and_matches_are_filed_again(tmp_path, how):
    library_with_a_backup(tmp_path)
    damaged = damage(tmp_path / "index.json", how)
    with open_at(tmp_path) as library:
        check_moved_aside(tmp_path, library, "index.json", damaged)
        assert [p.name for p in library.players.list()] == ["Ann"]  # Bob came after the backup
        # Matches live in their own files, so none is lost, not even one newer than the backup.
        assert sorted(s.id for s in library.matches.summaries()) == ["m1", "m2"]
        assert events_of(library) == tuple(scored(n) for n in range(5))


def test_damage_found_after_opening_is_repaired_the_same_way(tmp_path):
    library_with_a_backup(tmp_path)
    with open_at(tmp_path):
        pass  # the backup now holds m1 with 5 events
    path = tmp_path / "matches" / "m1.json"
    before = os.stat(path)
    path.write_bytes(b"\0" * before.st_size)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # looks unchanged at open
    with open_at(tmp_path) as library:
        assert library.notices == ()
        assert events_of(library) == tuple(scored(n) for n in range(5))
        (notice,) = library.notices
        assert notice.file == "matches/m1.json"


def test_damaged_match_without_any_backup_says_so(tmp_path):
    with open_at(tmp_path) as library:
        library.matches.create(new_match())
    damaged = damage(tmp_path / "matches" / "m1.json", "truncated")
    with open_at(tmp_path) as library:
        (notice,) = library.notices
        assert notice.restored_from is None and "no backup" in notice.message
        assert (tmp_path / notice.moved_to).read_bytes() == damaged
        with pytest.raises(DamagedMatch, match="no backup"):
            library.matches.get(MatchId("m1"))


def test_interrupted_write_leaves_no_temporary_file_behind(tmp_path):
    with open_at(tmp_path) as library:
        library.matches.create(new_match())
    leftover = tmp_path / "matches" / ".m1.json.123.0.tmp"
    leftover.write_bytes(b'{"match": {"match": {"id": "m1"')
    with open_at(tmp_path) as library:
        assert not leftover.exists()
        assert library.notices == ()


# --- backups -----------------------------------------------------------------------------------

def test_backups_roll_and_share_unchanged_files(tmp_path):
    with open_at(tmp_path, keep_backups=3) as library:
        library.matches.create(new_match())
        library.matches.create(new_match("m2"))
    for n in range(4):
        with open_at(tmp_path, keep_backups=3) as library:
            library.matches.append_event(MatchId("m2"), scored(n))  # m1 stays unchanged
    with open_at(tmp_path, keep_backups=3) as library:
        backups = library.list_backups()
    with open_at(tmp_path, keep_backups=3) as library:
        assert library.list_backups() == backups  # nothing changed: no new backup
    assert len(backups) == 3
    assert [b.id for b in backups] == sorted((b.id for b in backups), reverse=True)
    copies = [tmp_path / "backups" / b.id / "matches" / "m1.json" for b in backups]
    assert len({os.stat(copy).st_ino for copy in copies}) == 1  # one copy, linked
    assert os.stat(tmp_path / "matches" / "m1.json").st_ino != os.stat(copies[0]).st_ino


def test_restoring_a_backup_and_undoing_the_restore(tmp_path):
    with open_at(tmp_path) as library:
        library.players.add("Ann")
    with open_at(tmp_path) as library:
        (backup, *_) = library.list_backups()
        library.players.add("Bob")
        library.matches.create(new_match())
        library.matches.append_event(MatchId("m1"), scored(1))
        before = library.restore_backup(backup.id)
        assert [p.name for p in library.players.list()] == ["Ann"]
        assert library.matches.summaries() == ()
        library.restore_backup(before)
        assert [p.name for p in library.players.list()] == ["Ann", "Bob"]
        assert events_of(library) == (scored(1),)


# --- schema versions ---------------------------------------------------------------------------

def write_index(folder: Path, tables: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "index.json").write_text(json.dumps(tables))


def test_version_0_folder_is_migrated_and_its_matches_filed(tmp_path):
    write_index(tmp_path, {
        "players": {"p1": {"id": "p1", "name": "Ann"}},
        "nights": {"n1": {"id": "n1", "date": "2026-01-02", "place": ""}},
    })
    (tmp_path / "matches").mkdir()
    old_match = new_match(events=(scored(1),))
    (tmp_path / "matches" / "m1.json").write_text(
        json.dumps({"match": {"match": match_to_json(old_match, games("counting"))}}))
    with open_at(tmp_path) as library:
        (ann,) = library.players.list()
        assert (ann.name, ann.archived) == ("Ann", False)
        assert library.nights.list()[0].place is None
        assert [s.id for s in library.matches.summaries()] == ["m1"]
        assert events_of(library) == (scored(1),)
        (backup,) = library.list_backups()
    index = json.loads((tmp_path / "index.json").read_text())
    assert index["meta"]["1"]["schema"] == SCHEMA_VERSION == 3
    # The data as it was before the migration is kept in the backup taken on opening.
    assert "meta" not in json.loads((tmp_path / "backups" / backup.id / "index.json").read_text())


def test_version_1_folder_gets_only_the_later_step(tmp_path):
    write_index(tmp_path, {
        "meta": {"1": {"schema": 1}},
        "players": {"p1": {"id": "p1", "name": "Ann", "archived": True}},
        "nights": {"n1": {"id": "n1", "date": "2026-01-02", "place": ""},
                   "n2": {"id": "n2", "date": "2026-01-03", "place": "Pub"}},
    })
    with open_at(tmp_path) as library:
        assert library.players.list(include_archived=True)[0].archived
        assert [n.place for n in library.nights.list()] == ["Pub", None]


def test_data_from_a_newer_app_is_refused_and_left_alone(tmp_path):
    write_index(tmp_path, {"meta": {"1": {"schema": SCHEMA_VERSION + 1}}, "players": {}})
    before = (tmp_path / "index.json").read_bytes()
    with pytest.raises(DataTooNew, match="newer Tablemate"):
        open_at(tmp_path)
    assert (tmp_path / "index.json").read_bytes() == before
    assert not any((tmp_path / "backups").iterdir())


# --- properties --------------------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 50), st.just("undo"), st.just("reopen")), max_size=25))
def test_stored_log_always_equals_the_log_played(steps):
    with tempfile.TemporaryDirectory() as folder:
        library = open_at(Path(folder))
        library.matches.create(new_match())
        played = []
        for step in steps:
            if step == "reopen":
                library.close()
                library = open_at(Path(folder))
            elif step == "undo" and played:
                match, _ = undo(library.matches.get(MatchId("m1")), games("counting"), NOW)
                library.matches.save(match)
                played.pop()
            elif isinstance(step, int):
                library.matches.append_event(MatchId("m1"), scored(step))
                played.append(scored(step))
        library.close()
        with open_at(Path(folder)) as reopened:
            assert events_of(reopened) == tuple(played)
            assert reopened.notices == ()
