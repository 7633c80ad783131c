"""Picture sets: rectifying a box-cover photo, features, storing as bytes."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from tests.vision import render_jigsaw as render
from vision.photo import decode_photo
from vision.pictures import (
    PICTURE_LONG_SIDE,
    PictureSet,
    make_picture,
    picture_from_bytes,
    picture_from_cover,
    picture_to_bytes,
    rectify,
)


def test_a_cover_photo_is_straightened_to_the_picture():
    jpeg, corners = render.cover_photo("coffee", 7)
    picture = picture_from_cover("Coffee", decode_photo(jpeg), corners)
    original = render.picture("coffee")
    assert max(picture.image.shape[:2]) == PICTURE_LONG_SIDE
    resized = cv2.resize(picture.image, (original.shape[1], original.shape[0]))
    assert np.abs(resized.astype(int) - original.astype(int)).mean() < 25
    assert len(picture.points) > 200 and picture.descriptors.shape == (len(picture.points), 128)


@pytest.mark.parametrize("corners", [[[0, 0], [10, 0], [10, 10]],
                                     [[0, 0], [300, 300], [300, 0], [0, 300]],
                                     [[0, 0], [0, 0], [0, 0], [0, 0]]])
def test_corners_that_do_not_outline_a_picture_are_refused(corners):
    with pytest.raises(ValueError, match="corners"):
        rectify(np.zeros((400, 400, 3), np.uint8), corners)


def test_a_picture_survives_storing_as_bytes():
    picture = make_picture("Chelsea", render.picture("chelsea"))
    again = picture_from_bytes(picture_to_bytes(picture))
    assert again.title == "Chelsea" and np.array_equal(again.image, picture.image)
    assert np.allclose(again.points, picture.points)
    assert np.allclose(again.descriptors, picture.descriptors, atol=0.5)


def test_a_picture_stored_with_an_older_feature_recipe_is_described_again():
    picture = make_picture("Chelsea", render.picture("chelsea"))
    ok, png = cv2.imencode(".png", picture.image)
    buffer = io.BytesIO()  # as stored before FEATURES_VERSION: no version, other features
    np.savez_compressed(buffer, title=np.array("Chelsea"), image=png,
                        points=np.zeros((1, 2), np.float32),
                        descriptors=np.zeros((1, 128), np.float16))
    again = picture_from_bytes(buffer.getvalue())
    assert ok and len(again.points) == len(picture.points) > 1
    assert np.allclose(again.points, picture.points)


def test_bytes_that_are_not_a_picture_are_refused():
    with pytest.raises(ValueError, match="not a stored"):
        picture_from_bytes(b"not an npz file")


def test_a_set_finds_its_pictures_by_title():
    chelsea = make_picture("Chelsea", render.picture("chelsea"))
    pictures = PictureSet("Cats", (chelsea,))
    assert pictures.picture("Chelsea") is chelsea
    with pytest.raises(KeyError, match="Dogs"):
        pictures.picture("Dogs")


def test_a_grey_or_float_image_is_not_a_picture():
    with pytest.raises(ValueError, match="picture"):
        make_picture("x", np.zeros((100, 100), np.uint8))
    with pytest.raises(ValueError, match="picture"):
        make_picture("x", np.zeros((100, 100, 3), np.float64))
