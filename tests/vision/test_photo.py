"""decode_photo's reduced decoding: a reader that works small gets the photo decoded small."""

import cv2
import numpy as np

from vision.photo import decode_photo


def _jpeg(width: int, height: int) -> bytes:
    gradient = np.linspace(0, 255, width, dtype=np.float32)
    image = np.dstack([np.tile(gradient, (height, 1))] * 3).astype(np.uint8)
    return cv2.imencode(".jpg", image)[1].tobytes()


def test_a_photo_is_decoded_whole_unless_a_reader_asks_for_less():
    assert decode_photo(_jpeg(4000, 3000)).shape == (3000, 4000, 3)


def test_the_smallest_reduction_that_keeps_the_readers_long_side_is_taken():
    # a quarter (1000 px) would fall short of 1024: half it is
    assert decode_photo(_jpeg(4000, 3000), least_side=1024).shape == (1500, 2000, 3)


def test_a_huge_photo_is_still_reduced_to_the_memory_bound():
    assert decode_photo(_jpeg(8000, 6000), least_side=8000).shape == (3000, 4000, 3)


def test_reduction_never_goes_below_the_readers_long_side():
    jpeg = _jpeg(4000, 3000)
    for least_side, expected_width in ((3000, 4000), (1600, 2000), (1000, 1000), (400, 500)):
        assert decode_photo(jpeg, least_side=least_side).shape[1] == expected_width
