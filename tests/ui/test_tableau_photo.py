"""The pure parts of Tableau's photo checks and picture sets (issue 7): what the screens show and
record, from rendered photos and real stored pictures."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.seating import Seating
from companion.core.types import PlayerId
from companion.games.tableau import (
    TABLEAU,
    Call,
    PhotoCheck,
    RoundWon,
    TableauOptions,
    TitleCard,
    TitlesDealt,
    WrongPieces,
)
from companion.ui.games.tableau import Draft, draft_for, round_won, titles_dealt
from companion.ui.screens.pictures import SetDraft
from companion.ui.tableau_photo import (
    SHOWN_SIDE,
    CountCheck,
    NewPicture,
    check_call_photo,
    count_from_photo,
    marked_cover,
    next_corner,
    photo_point,
    picture_from_file,
    picture_from_marks,
    picture_of,
    verdict_words,
)
from storage.pictures import StoredPicture, StoredSet
from tests.vision import render_jigsaw as render
from vision.jigsaw import check_fit, count_pieces
from vision.photo import UnreadablePhoto, decode_photo
from vision.pictures import make_picture, picture_from_bytes, picture_to_bytes

ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
NAMES = ("astronaut", "coffee")
SIZE = (1200, 900)


@cache
def stored(name: str) -> bytes:
    return picture_to_bytes(make_picture(name, render.picture(name)))


def state():
    return TABLEAU.initial_state(TABLEAU.new_table(Seating((ANN, BOB, CY)), TableauOptions()))


def stored_set(set_id: str, *titles: str) -> StoredSet:
    return StoredSet(set_id, set_id.title(), tuple(StoredPicture(title, f"{n}.npz", "")
                                                   for n, title in enumerate(titles)))


# ---------------------------------------------------------------- which picture

def test_the_picture_comes_from_the_set_holding_every_title_of_the_round():
    titles = (TitleCard(ANN, "Harbour"), TitleCard(BOB, "Mill"))
    sets = [stored_set("coast", "Harbour", "Cliffs"), stored_set("holland", "Harbour", "Mill")]
    assert picture_of(ANN, titles, sets) == ("holland", "Harbour")
    assert picture_of(BOB, titles, sets) == ("holland", "Mill")


def test_without_a_set_holding_every_title_the_first_holding_his_is_used():
    titles = (TitleCard(ANN, "Harbour"), TitleCard(BOB, "Typed by hand"))
    sets = [stored_set("coast", "Harbour"), stored_set("holland", "Harbour", "Mill")]
    assert picture_of(ANN, titles, sets) == ("coast", "Harbour")
    assert picture_of(BOB, titles, sets) is None  # no stored picture: a weaker check
    assert picture_of(CY, titles, sets) is None  # no title card at all


# ---------------------------------------------------------------- marking a cover

@given(st.floats(0, 400), st.floats(0, 400), st.floats(100, 500),
       st.tuples(st.integers(32, 5000), st.integers(32, 5000)))
def test_a_tap_lands_on_the_photo_in_photo_pixels(x, y, shown_width, size):
    px, py = photo_point((x, y), shown_width, size)
    assert 0 <= px <= size[0] - 1 and 0 <= py <= size[1] - 1
    if x * size[0] / shown_width <= size[0] - 1:
        assert px == pytest.approx(x * size[0] / shown_width)


def test_corners_are_asked_for_in_the_order_rectify_wants():
    points: list[tuple[float, float]] = []
    asked = []
    while (corner := next_corner(points)) is not None:
        asked.append(corner)
        points.append((0.0, 0.0))
    assert asked == ["top-left", "top-right", "bottom-right", "bottom-left"]


def test_corners_marked_on_a_cover_photo_give_back_the_picture():
    jpeg, corners = render.cover_photo("chelsea", 3)
    photo = decode_photo(jpeg)
    made = picture_from_marks("Cat", photo, [tuple(point) for point in corners])
    picture = picture_from_bytes(made.stored)
    assert picture.title == "Cat"
    original = cv2.resize(render.picture("chelsea"), picture.size)
    difference = np.abs(picture.image.astype(int) - original.astype(int)).mean()
    assert difference < 20  # the same picture, straightened (light and JPEG change it a little)
    shown = cv2.imdecode(np.frombuffer(marked_cover(photo, corners[:2], 800), np.uint8),
                         cv2.IMREAD_COLOR)
    assert max(shown.shape[:2]) == 800


def test_corners_that_outline_no_picture_are_refused_with_the_reason():
    jpeg, corners = render.cover_photo("chelsea", 3)
    crossed = [tuple(corners[i]) for i in (0, 2, 1, 3)]
    with pytest.raises(ValueError, match="The four corners do not outline a picture"):
        picture_from_marks("Cat", decode_photo(jpeg), crossed)


def test_an_imported_picture_is_titled_after_its_file():
    ok, png = cv2.imencode(".png", render.picture("coffee"))
    made = picture_from_file("holiday/Coffee cup.png", png.tobytes())
    assert made.title == "Coffee cup"
    assert picture_from_bytes(made.stored).size == (768, 512)


@pytest.mark.parametrize("data, message", [(b"", "The file is empty."),
                                           (b"not a picture", "not a picture file")])
def test_a_file_that_is_no_picture_is_refused(data, message):
    with pytest.raises(UnreadablePhoto, match=message):
        picture_from_file("x.png", data)


# ---------------------------------------------------------------- a call (T4)

def test_a_call_photo_gets_check_fits_verdict_against_the_callers_picture():
    photo = render.fit_photo(NAMES, ("plain",), "rotated", 2, SIZE, 1.0)
    expected = check_fit(decode_photo(photo.jpeg), picture_from_bytes(stored(photo.picture)))
    check = check_call_photo(photo.jpeg, stored(photo.picture))
    assert check.photo == PhotoCheck(expected.fit, expected.reason, expected.confidence)
    assert not check.weaker
    shown = cv2.imdecode(np.frombuffer(check.picture, np.uint8), cv2.IMREAD_COLOR)
    assert shown.shape[:2] == (600, SHOWN_SIDE)  # sent to the phone at screen size


def test_without_a_picture_the_call_check_says_it_is_weaker():
    photo = render.fit_photo(NAMES, ("plain",), "fit", 1, SIZE, 1.0)
    check = check_call_photo(photo.jpeg, None)
    assert check.weaker
    assert check.photo.verdict == check_fit(decode_photo(photo.jpeg), None).fit


def test_a_damaged_stored_picture_is_told_to_the_player_not_raised_as_a_crash():
    photo = render.fit_photo(NAMES, ("plain",), "fit", 1, SIZE, 1.0)
    with pytest.raises(UnreadablePhoto, match="Delete the picture set and add it again."):
        check_call_photo(photo.jpeg, stored(photo.picture)[:500])


@pytest.mark.parametrize("photo, words", [
    (PhotoCheck(True, "fit", 0.94),
     "The photo says: fit (94% sure). Confirm with Fit, or overrule with No fit."),
    (PhotoCheck(False, "wrong-orientation", 0.8),
     "The photo says: no fit, the piece is turned the wrong way (80% sure). Confirm with No fit, "
     "or overrule with Fit."),
    (PhotoCheck(None, "unsure", 0.0), "The photo cannot tell: retake it, or decide by eye."),
])
def test_the_verdict_in_words(photo, words):
    assert verdict_words(photo) == words


def test_a_call_being_corrected_keeps_its_photo_check():
    call = Call(ANN, CY, False, PhotoCheck(True, "fit", 0.9))  # overruled
    draft = draft_for(call)
    assert draft.called == CY and draft.fit.photo == call.photo and draft.fit.picture is None


# ---------------------------------------------------------------- round end (T6)

def test_a_counted_photo_fills_the_count_with_its_wrong_and_missing_pieces():
    photo = render.count_photo(NAMES, ("plain",), 2, SIZE, 1.0, bad=3)
    expected = count_pieces(decode_photo(photo.jpeg), picture_from_bytes(stored(photo.picture)))
    check = count_from_photo(photo.jpeg, stored(photo.picture))
    assert (check.right, check.wrong, check.missing, check.sure) == (
        expected.right, expected.wrong, expected.missing, expected.sure)
    assert check.to_pay == expected.wrong + expected.missing
    assert check.words == (f"Right {check.right}, wrong {check.wrong}, missing "
                           f"{check.missing}: {check.to_pay} missing or wrong.")


def count(right: int, wrong: int, missing: int, sure: bool = True) -> CountCheck:
    return CountCheck(right, wrong, missing, sure, b"")


def test_a_photo_count_is_recorded_as_from_the_photo_unless_typed_over():
    draft = Draft(panel="round-end", winner=ANN)
    draft = draft.with_count_check(BOB, count(12, 3, 1)).with_count_check(CY, count(10, 2, 4))
    draft = draft.with_count(CY, "5")  # the players disagreed with the photo for Cy
    assert round_won(draft, state()) == RoundWon(ANN, (WrongPieces(BOB, 4, from_photo=True),
                                                       WrongPieces(CY, 5, from_photo=False)))


def test_an_unsure_photo_count_fills_nothing():
    draft = Draft(panel="round-end", winner=ANN).with_count_check(BOB, count(0, 0, 16, False))
    assert draft.count_text(BOB) == ""
    assert draft.photo_counts == ()
    assert "retake it, or count by eye" in dict(draft.count_checks)[BOB].words


@given(st.lists(st.integers(0, 16), min_size=2, max_size=2), st.lists(st.booleans(), min_size=2,
                                                                     max_size=2))
def test_a_round_being_corrected_comes_back_as_it_was_recorded(counts, from_photo):
    event = RoundWon(ANN, tuple(WrongPieces(player, n, from_photo=photo)
                                for player, n, photo in zip((BOB, CY), counts, from_photo,
                                                            strict=True)))
    assert round_won(draft_for(event), state()) == event


def test_title_cards_are_recorded_once_every_player_has_one():
    draft = Draft(panel="titles", titles=((ANN, "Harbour"), (CY, "Mill")))
    assert titles_dealt(draft, state()) is None
    draft = replace(draft, titles=(*draft.titles, (BOB, "Cliffs")))
    assert titles_dealt(draft, state()) == TitlesDealt((
        TitleCard(ANN, "Harbour"), TitleCard(BOB, "Cliffs"), TitleCard(CY, "Mill")))
    assert draft_for(titles_dealt(draft, state())).titles == (
        (ANN, "Harbour"), (BOB, "Cliffs"), (CY, "Mill"))


# ---------------------------------------------------------------- a set being added

def test_pictures_of_a_set_being_added_are_renamed_and_removed_by_place():
    pictures = tuple(NewPicture(title, b"npz", b"png") for title in ("a", "b", "c"))
    draft = SetDraft(name="Box", pictures=pictures).renamed(1, "Harbour").without(0)
    assert [picture.title for picture in draft.pictures] == ["Harbour", "c"]
    assert draft.name == "Box"
