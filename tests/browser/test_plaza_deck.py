"""Teaching the app your deck, in the browser (issue 6): a rendered photo of a whole deck laid
out as a full Plaza is uploaded through the file chooser; the app says what it learnt, keeps it
in the data folder, and forgets it on request.
"""

from __future__ import annotations

import pytest

from storage.deck_profile import PROFILE_FILE
from tests.browser.conftest import screenshot, tap
from tests.browser.test_plaza import button, see
from tests.browser.test_plaza_photo import give_photo_to_plaza_check
from tests.vision.render_plaza_unseen import (
    MISSING_FONTS,
    render_full_deck,
    render_photo,
    unseen_typefaces,
)


@pytest.mark.skipif(not unseen_typefaces(), reason=MISSING_FONTS)
def test_the_deck_is_taught_from_a_full_deck_photo_and_forgotten(app_server, open_app,
                                                                  tmp_path):
    photo_path = tmp_path / "deck.jpg"
    photo_path.write_bytes(render_full_deck(render_photo(1000, kind="legal").deck, 501_000).jpeg)
    page = give_photo_to_plaza_check(app_server, open_app, "Teach the app your deck", photo_path)
    page.get_by_text("Learnt your deck", exact=False).wait_for(timeout=90_000)  # a busy machine
    see(page, "Your deck is taught: photos are read by its inks and numerals.")
    assert (app_server.data_dir / PROFILE_FILE).is_file()
    screenshot(page, "plaza-deck-taught")
    tap(button(page, "Forget my deck"))
    page.get_by_text("Photos are read for any deck.", exact=False).wait_for(timeout=10_000)
    assert not (app_server.data_dir / PROFILE_FILE).exists()
