"""The picture-set store (issue 7): one contract, run on a real data folder and in memory, with
real stored pictures (vision.pictures.picture_to_bytes)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core.errors import InvalidName, InvalidSetup
from storage import memory_library, open_library
from storage.model import NotFound
from storage.pictures import (
    PICTURES,
    DamagedPicture,
    FolderBlobs,
    MemoryBlobs,
    PictureStore,
)
from tests.storage.helpers import counter_ids, games, stored_picture
from vision.pictures import picture_from_bytes


class Opened:
    """A store and a way to open the same files again (as the next app start would)."""

    def __init__(self, kind: str, folder: Path) -> None:
        self.kind = kind
        self.folder = folder / PICTURES
        self.memory = MemoryBlobs()
        self.ids = counter_ids("set")
        self.store = self.reopen()

    def reopen(self) -> PictureStore:
        blobs = FolderBlobs(self.folder) if self.kind == "folder" else self.memory
        self.store = PictureStore(blobs, self.ids)
        return self.store

    def write(self, name: str, content: bytes) -> None:
        """Change a file behind the store's back (damage, a crash's leftovers)."""
        if self.kind == "folder":
            path = self.folder / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(content)
        else:
            self.memory.files[name] = content

    def files(self) -> set[str]:
        if self.kind == "folder":
            return {path.relative_to(self.folder).as_posix()
                    for path in self.folder.rglob("*") if path.is_file()}
        return set(self.memory.files)


@pytest.fixture(params=["memory", "folder"])
def opened(request, tmp_path) -> Opened:
    return Opened(request.param, tmp_path)


def test_a_set_is_listed_with_its_picture_titles_and_gives_back_each_picture(opened):
    pictures = [("Harbour", stored_picture(1)), ("Lighthouse", stored_picture(2))]
    added = opened.store.add("  Seaside   box ", pictures)
    assert added.title == "Seaside box"
    assert added.titles == ("Harbour", "Lighthouse")
    assert opened.store.sets() == (added,)
    assert opened.store.picture(added.id, "Lighthouse") == stored_picture(2)
    back = picture_from_bytes(opened.store.picture(added.id, "Harbour"))
    assert back.title == "picture 1" and back.size == (768, 576)


def test_sets_survive_reopening_and_are_listed_by_title(opened):
    zoo = opened.store.add("zoo", [("Lion", stored_picture(1))])
    alps = opened.store.add("Alps", [("Peak", stored_picture(2))])
    store = opened.reopen()
    assert store.sets() == (alps, zoo)
    assert store.picture(zoo.id, "Lion") == stored_picture(1)


def test_deleting_a_set_removes_it_and_its_files(opened):
    kept = opened.store.add("Kept", [("One", stored_picture(1))])
    gone = opened.store.add("Gone", [("Two", stored_picture(2)), ("Three", stored_picture(3))])
    opened.store.delete(gone.id)
    assert opened.store.sets() == (kept,)
    assert not any(name.startswith(f"{gone.id}/") for name in opened.files())
    assert opened.reopen().sets() == (kept,)
    with pytest.raises(NotFound):
        opened.store.delete(gone.id)


@pytest.mark.parametrize("title, pictures, refusal, message", [
    ("  ", [("One", b"x")], InvalidName, "Enter a name for the picture set."),
    ("Box", [], InvalidSetup, "Add at least one picture to the set."),
    ("Box", [("One", b"x"), ("one ", b"y")], InvalidName,
     "There is already a picture in this set called one."),
    ("Box", [("", b"x")], InvalidName, "Enter a name for the picture in this set."),
    ("Box", [("One", b"")], InvalidSetup, "The picture One is empty or too large to store."),
    ("B" * 61, [("One", b"x")], InvalidName,
     "Keep the name of the picture set to 60 characters or fewer."),
])
def test_a_refused_set_says_why_and_stores_nothing(opened, title, pictures, refusal, message):
    with pytest.raises(refusal) as refused:
        opened.store.add(title, pictures)
    assert str(refused.value) == message
    assert opened.store.sets() == ()
    assert opened.files() == set()


def test_two_sets_cannot_share_a_name_whatever_the_case(opened):
    opened.store.add("Seaside", [("One", stored_picture(1))])
    with pytest.raises(InvalidName, match="There is already a picture set called SEASIDE."):
        opened.store.add("SEASIDE", [("Two", stored_picture(2))])


def test_asking_for_what_is_not_there_is_not_found(opened):
    added = opened.store.add("Box", [("One", stored_picture(1))])
    with pytest.raises(NotFound, match="The set Box has no picture called Two."):
        opened.store.picture(added.id, "Two")
    with pytest.raises(NotFound, match="There is no picture set 'nope'."):
        opened.store.picture("nope", "One")


def test_a_damaged_picture_file_is_reported_when_asked_for_and_the_rest_still_works(opened):
    added = opened.store.add("Box", [("One", stored_picture(1)), ("Two", stored_picture(2))])
    opened.write(f"{added.id}/0.npz", stored_picture(1)[:1000])  # truncated
    store = opened.reopen()
    with pytest.raises(DamagedPicture, match="The stored picture One of the set Box is damaged"):
        store.picture(added.id, "One")
    assert store.picture(added.id, "Two") == stored_picture(2)
    assert store.sets() == (added,)


def test_a_missing_picture_file_is_reported(opened):
    added = opened.store.add("Box", [("One", stored_picture(1))])
    if opened.kind == "folder":
        (opened.folder / added.id / "0.npz").unlink()
    else:
        del opened.memory.files[f"{added.id}/0.npz"]
    with pytest.raises(DamagedPicture, match="The stored picture One of the set Box is missing"):
        opened.store.picture(added.id, "One")


@pytest.mark.parametrize("garbage", [b"", b"{not json", b'{"version": 1, "sets": [{"id": 3}]}',
                                     b'{"version": 99, "sets": []}', b"\xff\xfe"])
def test_a_damaged_list_of_sets_is_moved_aside_and_reported_not_a_crash(opened, garbage):
    added = opened.store.add("Box", [("One", stored_picture(1))])
    opened.write("index.json", garbage)
    store = opened.reopen()
    assert store.sets() == ()
    [notice] = store.notices
    assert notice.startswith("The list of picture sets was damaged (the list of picture sets is "
                             "not readable")
    assert "pictures/damaged-index.json" in notice
    kept = [name for name in opened.files() if name.startswith("damaged-index.json")]
    assert len(kept) == 1
    assert f"{added.id}/0.npz" in opened.files()  # nothing named them, nothing removed them
    assert store.add("Box", [("One", stored_picture(2))]).titles == ("One",)


def test_files_a_crash_left_unnamed_are_removed_on_opening(opened):
    kept = opened.store.add("Box", [("One", stored_picture(1))])
    opened.write("set99/0.npz", b"a picture written before the crash, never named")
    if opened.kind == "folder":
        opened.write(".index.json.123.0.tmp", b"half a write")
    store = opened.reopen()
    assert store.sets() == (kept,)
    assert opened.files() == {"index.json", f"{kept.id}/0.npz"}


def test_both_libraries_have_a_picture_store(tmp_path):
    in_memory = memory_library(games)
    in_memory.pictures.add("Box", [("One", stored_picture(1))])
    assert [entry.title for entry in in_memory.pictures.sets()] == ["Box"]
    with open_library(tmp_path / "data", games) as library:
        added = library.pictures.add("Box", [("One", stored_picture(1))])
    assert (tmp_path / "data" / PICTURES / added.id / "0.npz").is_file()
    with open_library(tmp_path / "data", games) as library:
        assert library.pictures.picture(added.id, "One") == stored_picture(1)


Operation = tuple[str, int]  # ("add", picture seed) or ("delete", index among the sets)


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["memory", "folder"]),
       st.lists(st.tuples(st.sampled_from(["add", "delete"]), st.integers(0, 5)), max_size=8))
def test_the_store_always_holds_what_was_added_and_not_deleted(kind, operations):
    with tempfile.TemporaryDirectory() as folder:
        opened = Opened(kind, Path(folder))
        model: dict[str, bytes] = {}  # set title -> the bytes of its one picture
        for number, (operation, value) in enumerate(operations):
            sets = opened.store.sets()
            if operation == "delete" and sets:
                target = sets[value % len(sets)]
                opened.store.delete(target.id)
                del model[target.title]
            elif operation == "add":
                opened.store.add(f"Set {number}", [("Only", stored_picture(value))])
                model[f"Set {number}"] = stored_picture(value)
        store = opened.reopen()
        assert {entry.title: store.picture(entry.id, "Only") for entry in store.sets()} == model
