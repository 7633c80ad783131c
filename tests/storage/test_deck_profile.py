"""The user's deck profile on disk (issue 6, "teach the app your deck"): real files in a
temporary data folder."""

from __future__ import annotations

import numpy as np

from storage.deck_profile import PROFILE_FILE, DeckProfileStore
from vision.cards import GLYPH
from vision.deck import DeckProfile


def _profile(seed: int = 1) -> DeckProfile:
    rng = np.random.default_rng(seed)
    return DeckProfile(
        inks=tuple(tuple(float(v) for v in rng.uniform(-80, 80, 3)) for _ in range(5)),
        shapes=tuple(tuple(float(v) for v in rng.random(GLYPH * GLYPH)) for _ in range(12)))


def test_a_saved_profile_is_on_disk_and_read_back_alike(tmp_path):
    DeckProfileStore(tmp_path).save(_profile().as_json())
    assert [p.name for p in tmp_path.iterdir()] == [PROFILE_FILE]  # no temporary file left
    again = DeckProfileStore(tmp_path)  # as after a restart
    assert DeckProfile.from_json(again.load()) == _profile()
    assert again.notices == []


def test_a_new_profile_replaces_the_old_one(tmp_path):
    store = DeckProfileStore(tmp_path)
    store.save(_profile(1).as_json())
    store.save(_profile(2).as_json())
    assert DeckProfile.from_json(DeckProfileStore(tmp_path).load()) == _profile(2)


def test_nothing_saved_is_no_profile(tmp_path):
    assert DeckProfileStore(tmp_path / "new").load() is None


def test_forgetting_removes_the_file(tmp_path):
    store = DeckProfileStore(tmp_path)
    store.save(_profile().as_json())
    store.forget()
    assert not (tmp_path / PROFILE_FILE).exists()
    assert DeckProfileStore(tmp_path).load() is None
    store.forget()  # forgetting twice is no error


def test_a_damaged_file_is_set_aside_with_a_notice_and_reading_goes_on_without(tmp_path):
    (tmp_path / PROFILE_FILE).write_bytes(b'{"inks": [[1, 2')  # cut short
    store = DeckProfileStore(tmp_path)
    assert store.load() is None
    assert [path.read_bytes() for path in _set_aside(tmp_path)] == [b'{"inks": [[1, 2']
    assert not (tmp_path / PROFILE_FILE).exists()
    assert len(store.notices) == 1 and "could not be read" in store.notices[0]
    store.save(_profile().as_json())  # teaching again works
    assert DeckProfile.from_json(store.load()) == _profile()


def test_a_second_damaged_file_is_set_aside_beside_the_first_not_over_it(tmp_path):
    for content in (b'{"inks"', b'[1, 2'):
        (tmp_path / PROFILE_FILE).write_bytes(content)
        assert DeckProfileStore(tmp_path).load() is None
    assert sorted(path.read_bytes() for path in _set_aside(tmp_path)) == [b'[1, 2', b'{"inks"']


def _set_aside(folder):
    return sorted(folder.glob(f"damaged-{PROFILE_FILE}.*"))


def test_a_file_of_no_profile_is_set_aside_by_its_reader(tmp_path):
    DeckProfileStore(tmp_path).save({"inks": "red"})
    store = DeckProfileStore(tmp_path)
    data = store.load()
    try:
        DeckProfile.from_json(data)
    except ValueError as error:
        store.set_aside(str(error))
    assert store.load() is None
    assert len(_set_aside(tmp_path)) == 1
    assert "not a deck profile" in store.notices[0]


def test_the_memory_store_keeps_a_copy_not_the_callers_dict():
    store = DeckProfileStore(None)
    data = _profile().as_json()
    store.save(data)
    data["inks"].clear()
    assert DeckProfile.from_json(store.load()) == _profile()
    store.forget()
    assert store.load() is None
