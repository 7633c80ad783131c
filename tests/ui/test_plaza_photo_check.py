"""The pure part of the Plaza photo check (issue 6): bytes in, what the screen shows out."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.games.plaza_cards import Card, Colour
from companion.ui.plaza_photo import SHOWN_SIDE, check_plaza_photo
from tests.vision.render_plaza import render_photo, tuning_typefaces
from vision.photo import UnreadablePhoto

if not any(typeface.path for typeface in tuning_typefaces()):
    pytest.skip("the photo renders need the DejaVu fonts (Debian package fonts-dejavu-core)",
                allow_module_level=True)

R, G, Y, BR, BK = Colour.RED, Colour.GREEN, Colour.YELLOW, Colour.BROWN, Colour.BLACK
PRIMER_PLAZA = (Card(R, 4), Card(R, 5), Card(R, 6), Card(R, 7), Card(Y, 5), Card(G, 5),
                Card(BR, 6), Card(BR, 7), Card(BR, 8))


def test_a_stray_card_is_named_in_the_verdict_and_the_photo_comes_back_annotated():
    photo = render_photo(14, size=(1600, 1200), cards=PRIMER_PLAZA + (Card(BK, 11),))
    check = check_plaza_photo(photo.jpeg)
    assert check.verdict == "Not legal (P5): 11 Black (red on the photo)."
    assert check.cards == ("Red: 4, 5, 6, 7", "Green: 5", "Yellow: 5", "Brown: 6, 7, 8",
                           "Black: 11")
    assert check.problems == ("11 Black is in no run of three Black cards in a row and no "
                              "column of three 11s.",)
    shown = cv2.imdecode(np.frombuffer(check.picture, np.uint8), cv2.IMREAD_COLOR)
    assert max(shown.shape[:2]) == SHOWN_SIDE  # sent to the phone at screen size


def test_the_primer_plaza_is_legal():
    check = check_plaza_photo(render_photo(11, size=(1600, 1200), cards=PRIMER_PLAZA).jpeg)
    assert check.verdict == "Legal: all 9 cards are in a run or a column (P5)."
    assert check.problems == ()


def test_a_photo_without_cards_says_so():
    from skimage import data
    table = cv2.cvtColor(data.coffee(), cv2.COLOR_RGB2BGR)
    check = check_plaza_photo(cv2.imencode(".png", table)[1].tobytes())
    assert check.verdict == "No cards found on this photo." and check.cards == ()


@pytest.mark.parametrize("data", [b"", b"not a photo at all", b"\xff\xd8\xff\xe0" + b"0" * 40])
def test_what_is_not_a_photo_is_refused_with_a_reason(data):
    with pytest.raises(UnreadablePhoto):
        check_plaza_photo(data)
