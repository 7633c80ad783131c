"""Check the Plaza from a photo, in the browser (issue 6): a rendered photo is uploaded through
the file chooser and the reader's verdict, cards and annotated photo are shown.
"""

from __future__ import annotations

from pathlib import Path

from companion.games.plaza_cards import Card, Colour
from tests.browser.conftest import screenshot, tap
from tests.browser.test_plaza import button, seat_players, see, start_game
from tests.vision.render_plaza import render_photo

R, G, Y, BR, BK = Colour.RED, Colour.GREEN, Colour.YELLOW, Colour.BROWN, Colour.BLACK
# The Primer's Plaza (runs in Red and Brown, a column of 5s) and a stray 11 Black (P5).
PRIMER_PLAZA_AND_A_STRAY = (Card(R, 4), Card(R, 5), Card(R, 6), Card(R, 7), Card(Y, 5),
                            Card(G, 5), Card(BR, 6), Card(BR, 7), Card(BR, 8), Card(BK, 11))


def give_photo_to_plaza_check(app_server, open_app, chooser_button: str, photo: Path):
    """A Plaza game of Ann and Bob, its photo check open, and `photo` chosen in the file
    chooser that `chooser_button` opens; the page."""
    seat_players(app_server, ("Ann", "Bob"))
    page = open_app(app_server.url, 390, 1400)  # tall: the result stays in the semantics tree
    start_game(page, ("Ann", "Bob"))
    tap(button(page, "Check the Plaza from a photo"))
    with page.expect_file_chooser() as chooser:
        tap(button(page, chooser_button))
    chooser.value.set_files(str(photo))
    return page


def test_a_plaza_photo_is_checked_and_the_stray_card_named(app_server, open_app, tmp_path):
    photo_path = tmp_path / "plaza.jpg"
    photo_path.write_bytes(render_photo(14, size=(1600, 1200),
                                        cards=PRIMER_PLAZA_AND_A_STRAY).jpeg)
    page = give_photo_to_plaza_check(app_server, open_app, "Choose a photo of the Plaza",
                                     photo_path)
    page.get_by_text("Not legal (P5): 11 Black (red on the photo).", exact=True) \
        .wait_for(timeout=60_000)  # the read runs on a busy machine
    see(page, "Red: 4, 5, 6, 7")
    see(page, "Black: 11")
    page.get_by_role("img", name="The photo, each card outlined and labelled").wait_for(
        timeout=10_000)
    page.wait_for_timeout(3000)  # the photo decoded and the last frame painted
    screenshot(page, "plaza-photo-check")
