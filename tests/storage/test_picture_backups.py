"""Picture sets in the rolling backups (issue 7 follow-up: data is never lost), on real files.

Every backup holds the picture store's files beside the library's, hard-linked when unchanged; a
restore brings them back; a damaged or missing picture file, or a damaged list of sets, is put
back from the newest backup holding a good copy, with a notice.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ui.screens.settings import backup_contents
from storage import Backup, open_library
from storage.pictures import PICTURES, StoredSet
from tests.storage.helpers import counter_ids, games, new_match, stored_picture

ROOT = Path(__file__).resolve().parents[2]
SIX = [(f"Picture {n}", stored_picture(n)) for n in range(6)]  # a Deluxe box: six pictures
SIX_MORE = [(f"Photo {n}", stored_picture(10 + n)) for n in range(6)]


def open_at(folder: Path):
    return open_library(folder, games)  # random ids: sets added in different sessions never clash


def with_a_set(folder: Path, title: str = "Deluxe", pictures=SIX) -> StoredSet:
    """A library with one picture set and one match; the next open backs them up."""
    with open_at(folder) as library:
        library.matches.create(new_match())
        return library.pictures.add(title, pictures)


def backup_folder(folder: Path, backup_id: str) -> Path:
    return folder / "backups" / backup_id


def picture_path(folder: Path, added: StoredSet, number: int) -> Path:
    return folder / PICTURES / added.id / f"{number}.npz"


def test_a_backup_holds_every_picture_and_counts_them_apart_from_the_other_files(tmp_path):
    added = with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        (backup,) = library.list_backups()
    copies = backup_folder(tmp_path, backup.id)
    for number, (_, content) in enumerate(SIX):
        assert (copies / PICTURES / added.id / f"{number}.npz").read_bytes() == content
    assert (copies / PICTURES / "index.json").read_bytes() == (
        tmp_path / PICTURES / "index.json").read_bytes()
    # index.json, matches/m1.json and pictures/index.json, then the six pictures
    assert (backup.files, backup.pictures) == (3, 6)
    assert backup_contents(backup) == "3 files and 6 pictures"


def test_the_settings_wording_counts_one_file_and_no_pictures_right():
    assert backup_contents(Backup("x", "2026-11-21T20:00:00+00:00", 1, 0)) == "1 file"
    assert backup_contents(Backup("x", "2026-11-21T20:00:00+00:00", 2, 1)) == (
        "2 files and 1 picture")


def test_unchanged_pictures_are_hard_links_to_the_previous_backup_never_to_the_live_file(
        tmp_path):
    added = with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        library.players.add("Ann")  # something changes, so the next open takes a new backup
    with open_at(tmp_path) as library:
        newer, older = library.list_backups()
    for number in range(len(SIX)):
        in_older = backup_folder(tmp_path, older.id) / PICTURES / added.id / f"{number}.npz"
        in_newer = backup_folder(tmp_path, newer.id) / PICTURES / added.id / f"{number}.npz"
        assert os.stat(in_older).st_ino == os.stat(in_newer).st_ino
        assert os.stat(in_newer).st_nlink == 2  # two backups, one copy
        assert os.stat(picture_path(tmp_path, added, number)).st_ino != os.stat(in_newer).st_ino


def test_restoring_a_backup_brings_back_a_deleted_set_and_the_undo_backup_holds_the_newer_one(
        tmp_path):
    deluxe = with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        (backup,) = library.list_backups()
        library.pictures.delete(deluxe.id)
        home_made = library.pictures.add("Home made", [("Cat", stored_picture(7))])
        before = library.restore_backup(backup.id)
        assert library.pictures.sets() == (deluxe,)
        assert [library.pictures.picture(deluxe.id, title) for title, _ in SIX] == [
            content for _, content in SIX]
        assert not (tmp_path / PICTURES / home_made.id).exists()
        assert next(b for b in library.list_backups() if b.id == before).pictures == 1
        library.restore_backup(before)  # and the restore is undone
        assert library.pictures.sets() == (home_made,)
        assert library.pictures.picture(home_made.id, "Cat") == stored_picture(7)
        assert not (tmp_path / PICTURES / deluxe.id).exists()
    with open_at(tmp_path) as library:
        assert library.pictures.sets() == (home_made,)
        assert library.pictures.notices == ()


def test_restoring_a_backup_taken_before_any_set_leaves_no_set(tmp_path):
    with open_at(tmp_path) as library:
        library.players.add("Ann")
    with open_at(tmp_path) as library:
        (empty,) = library.list_backups()
        library.pictures.add("Deluxe", SIX)
        library.restore_backup(empty.id)
        assert library.pictures.sets() == ()
        assert library.pictures.notices == ()
    with open_at(tmp_path) as library:  # nothing left that looks like a set whose list was lost
        assert library.pictures.sets() == ()
        assert library.pictures.notices == ()


def test_a_truncated_picture_is_put_back_from_the_backup_on_opening_with_a_notice(tmp_path):
    added = with_a_set(tmp_path)
    with open_at(tmp_path):
        pass  # the backup taken on opening holds the set
    path = picture_path(tmp_path, added, 2)
    truncated = SIX[2][1][:1000]
    path.write_bytes(truncated)
    with open_at(tmp_path) as library:
        (notice,) = library.pictures.notices
        assert notice.startswith("The stored picture Picture 2 of the set Deluxe was damaged, so "
                                 "Tablemate put back its automatic backup of ")
        moved = notice.split("The damaged file was kept as ")[1].rstrip(".")
        assert (tmp_path / moved).read_bytes() == truncated  # kept, never deleted
        assert path.read_bytes() == SIX[2][1]
        assert library.pictures.picture(added.id, "Picture 2") == SIX[2][1]
        newest = library.list_backups()[0]
    # The backup taken after the repair holds the good picture, not the truncated one.
    copy = backup_folder(tmp_path, newest.id) / PICTURES / added.id / "2.npz"
    assert copy.read_bytes() == SIX[2][1]


def test_a_missing_picture_is_put_back_on_opening(tmp_path):
    added = with_a_set(tmp_path)
    with open_at(tmp_path):
        pass
    picture_path(tmp_path, added, 0).unlink()
    with open_at(tmp_path) as library:
        (notice,) = library.pictures.notices
        assert notice.startswith("The stored picture Picture 0 of the set Deluxe was missing, so "
                                 "Tablemate put back its automatic backup of ")
        assert "kept as" not in notice
        assert library.pictures.picture(added.id, "Picture 0") == SIX[0][1]


def test_damage_that_looks_unchanged_is_put_back_when_the_picture_is_asked_for(tmp_path):
    added = with_a_set(tmp_path)
    with open_at(tmp_path):
        pass
    path = picture_path(tmp_path, added, 4)
    before = os.stat(path)
    path.write_bytes(b"\0" * before.st_size)  # a failing disk: same size, same time
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    with open_at(tmp_path) as library:
        assert library.pictures.notices == ()  # unchanged to a quick look: not read on opening
        assert library.pictures.picture(added.id, "Picture 4") == SIX[4][1]
        (notice,) = library.pictures.notices
        assert "Picture 4 of the set Deluxe was damaged" in notice


def test_a_damaged_list_of_sets_is_put_back_and_a_set_added_after_the_backup_is_kept_aside(
        tmp_path):
    deluxe = with_a_set(tmp_path)
    with open_at(tmp_path) as library:  # the backup taken on opening holds Deluxe only
        later = library.pictures.add("Later", [("Cat", stored_picture(7))])
    damaged = b'{"version": 1, "sets": [{"id"'
    (tmp_path / PICTURES / "index.json").write_bytes(damaged)
    with open_at(tmp_path) as library:
        listed, kept_aside = library.pictures.notices
        assert listed.startswith("The list of picture sets was damaged (the list of picture sets "
                                 "is not readable")
        assert "so Tablemate put back its automatic backup of " in listed
        moved = listed.split("The damaged list was kept as ")[1].rstrip(".")
        assert (tmp_path / moved).read_bytes() == damaged
        assert library.pictures.sets() == (deluxe,)
        assert library.pictures.picture(deluxe.id, "Picture 5") == SIX[5][1]
        aside = kept_aside.split("were kept as ")[1].rstrip(".")
        assert (tmp_path / aside / "0.npz").read_bytes() == stored_picture(7)
        assert later.id not in {entry.id for entry in library.pictures.sets()}
    with open_at(tmp_path) as library:  # repaired for good: nothing more to say
        assert library.pictures.notices == ()
        assert library.pictures.sets() == (deluxe,)
        assert (tmp_path / aside).is_dir()


def test_a_lost_list_of_sets_is_put_back_when_set_files_remain(tmp_path):
    deluxe = with_a_set(tmp_path)
    with open_at(tmp_path):
        pass
    (tmp_path / PICTURES / "index.json").unlink()
    with open_at(tmp_path) as library:
        (notice,) = library.pictures.notices
        assert notice.startswith("The list of picture sets was missing, so Tablemate put back")
        assert library.pictures.sets() == (deluxe,)


def test_a_damaged_list_with_no_backup_still_starts_empty_and_keeps_the_files(tmp_path):
    deluxe = with_a_set(tmp_path)  # added after the only backup was taken: no backup has it
    (tmp_path / PICTURES / "index.json").write_bytes(b"{")
    with open_at(tmp_path) as library:
        (notice,) = library.pictures.notices
        assert "add them again" in notice
        assert library.pictures.sets() == ()
    assert picture_path(tmp_path, deluxe, 0).read_bytes() == SIX[0][1]


def test_a_failed_backup_leaves_nothing_half_done(tmp_path, monkeypatch):
    with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        backups = library.list_backups()
        library.pictures.add("Second", SIX_MORE)  # 8 files to copy: 6 pictures and 2 lists
        real_copy, copies = shutil.copy2, 0

        def disk_full_after_two(source, target):
            nonlocal copies
            copies += 1
            if copies > 2:
                raise OSError(28, "No space left on device")
            return real_copy(source, target)

        monkeypatch.setattr(shutil, "copy2", disk_full_after_two)
        with pytest.raises(OSError, match="No space left"):
            library.backup_now()
        assert copies == 3
        assert library.list_backups() == backups
        assert os.listdir(tmp_path / "backups") == [b.id for b in backups]


def test_a_set_added_while_a_backup_runs_waits_so_the_backup_holds_whole_sets(tmp_path,
                                                                             monkeypatch):
    deluxe = with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        library.players.add("Ann")  # the library's index changed: the next backup copies it
        real_copy, adder, blocked = shutil.copy2, None, None

        def copy_while_a_set_is_added(source, target):
            nonlocal adder, blocked
            if adder is None:  # on the first copy, another player adds a set
                adder = threading.Thread(target=library.pictures.add, args=("Second", SIX_MORE))
                adder.start()
                adder.join(timeout=0.5)
                blocked = adder.is_alive()
            return real_copy(source, target)

        monkeypatch.setattr(shutil, "copy2", copy_while_a_set_is_added)
        made = library.backup_now()
        adder.join()
        assert blocked
        copies = backup_folder(tmp_path, made) / PICTURES
        listed = json.loads((copies / "index.json").read_text())["sets"]
        assert [entry["id"] for entry in listed] == [deluxe.id]
        assert sorted(path.name for path in copies.iterdir()) == sorted([deluxe.id, "index.json"])
        assert [entry.title for entry in library.pictures.sets()] == ["Deluxe", "Second"]


def test_a_crash_mid_backup_leaves_no_half_backup(tmp_path):
    """The child is killed (SIGKILL) after copying three of the six new pictures into the backup
    it takes on opening; the next start removes the half-built folder and takes a whole backup."""
    deluxe = with_a_set(tmp_path)
    with open_at(tmp_path) as library:
        before = library.list_backups()  # holds Deluxe
        second = library.pictures.add("Second", SIX_MORE)
    child = subprocess.run([sys.executable, "-m", "tests.storage.backup_kill_child",
                            str(tmp_path), "3"], cwd=ROOT, capture_output=True, text=True)
    assert child.returncode == -signal.SIGKILL, child.stderr
    (half,) = [name for name in os.listdir(tmp_path / "backups") if name.startswith(".incomplete")]
    assert len(list((tmp_path / "backups" / half / PICTURES / second.id).iterdir())) == 3
    with open_at(tmp_path) as library:
        assert not (tmp_path / "backups" / half).exists()
        newest, *rest = library.list_backups()
        assert rest == list(before)
        assert (newest.files, newest.pictures) == (3, 12)
        assert library.pictures.notices == () and library.notices == ()
        for added, pictures in ((deluxe, SIX), (second, SIX_MORE)):
            assert [library.pictures.picture(added.id, title) for title, _ in pictures] == [
                content for _, content in pictures]


# --- property ----------------------------------------------------------------------------------

Step = tuple[str, int]  # ("add", picture seed), ("delete", which set), ("restore", which backup)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["add", "delete", "backup", "restore"]),
                          st.integers(0, 5)), max_size=10))
def test_restoring_any_backup_gives_back_the_sets_as_they_were_when_it_was_taken(steps):
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        with open_library(folder, games, new_id=counter_ids("s"), keep_backups=50) as library:
            held: dict[str, dict[str, bytes]] = {}  # backup id -> set title -> its one picture

            def now() -> dict[str, bytes]:
                return {entry.title: library.pictures.picture(entry.id, "Only")
                        for entry in library.pictures.sets()}

            for number, (step, value) in enumerate(steps):
                sets = library.pictures.sets()
                if step == "add":
                    library.pictures.add(f"Set {number}", [("Only", stored_picture(value))])
                elif step == "delete" and sets:
                    library.pictures.delete(sets[value % len(sets)].id)
                elif step == "backup" and (made := library.backup_now()) is not None:
                    held[made] = now()
                elif step == "restore" and held:
                    chosen = sorted(held)[value % len(held)]
                    state_before = now()
                    before = library.restore_backup(chosen)
                    assert now() == held[chosen]
                    held[before] = state_before
            assert library.pictures.notices == ()
