"""Teaching the app a deck (issue 6, "teach the app your deck"), the pure part: a photo's bytes
in, the profile saved (real files on disk) and what the screen says out."""

from __future__ import annotations

import functools

import pytest

from companion.games.plaza_cards import PACK
from companion.ui.plaza_photo import check_plaza_photo, saved_deck, teach_deck
from storage.deck_profile import PROFILE_FILE, DeckProfileStore
from tests.vision.render_plaza_unseen import (
    MISSING_FONTS,
    render_full_deck,
    render_photo,
    unseen_typefaces,
)
from vision.deck import learn_deck
from vision.photo import UnreadablePhoto, decode_photo

if not unseen_typefaces():
    pytest.skip(MISSING_FONTS, allow_module_level=True)


@functools.cache
def _deck_jpeg() -> bytes:
    return render_full_deck(render_photo(1000, kind="legal").deck, 501_000).jpeg


def test_a_full_deck_is_learnt_saved_and_used(tmp_path):
    store = DeckProfileStore(tmp_path)
    message = teach_deck(_deck_jpeg(), store)
    assert message.startswith("Learnt your deck")
    assert (tmp_path / PROFILE_FILE).is_file()  # on disk before the screen says so
    profile = saved_deck(DeckProfileStore(tmp_path))
    assert profile == learn_deck(decode_photo(_deck_jpeg()))
    check = check_plaza_photo(render_photo(1000, kind="legal").jpeg, profile)
    assert check.verdict.startswith("Legal")


def test_a_partial_deck_is_refused_naming_what_is_missing_and_the_old_profile_stays(tmp_path):
    store = DeckProfileStore(tmp_path)
    teach_deck(_deck_jpeg(), store)
    before = saved_deck(store)
    deck = render_photo(1000, kind="legal").deck
    partial = render_photo(501_000, kind="legal", size=(4000, 3000), deck=deck,
                           cards=tuple(card for card in PACK if card.number != 12))
    with pytest.raises(UnreadablePhoto, match="Found 55 of 60 cards; missing: .*12"):
        teach_deck(partial.jpeg, store)
    assert saved_deck(store) == before


def test_a_damaged_profile_is_set_aside_and_photos_read_without_it(tmp_path):
    (tmp_path / PROFILE_FILE).write_text('{"inks": [], "shapes": []}')
    store = DeckProfileStore(tmp_path)
    assert saved_deck(store) is None
    assert "could not be read" in store.notices[0]
    assert not (tmp_path / PROFILE_FILE).exists()
