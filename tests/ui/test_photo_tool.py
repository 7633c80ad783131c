"""shown_png, the shared step of every photo tool (companion/ui/photo_tool.py): an annotated
photo as PNG bytes, at most screen size."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.ui.photo_tool import SHOWN_SIDE, shown_png


def decoded(png: bytes) -> np.ndarray:
    assert png.startswith(b"\x89PNG")
    return cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)


def test_a_photo_smaller_than_the_screen_is_sent_pixel_for_pixel():
    image = np.random.default_rng(1).integers(0, 256, (300, 200, 3), np.uint8)
    assert np.array_equal(decoded(shown_png(image)), image)


@settings(max_examples=40, deadline=None)
@given(height=st.integers(32, 3000), width=st.integers(32, 3000), side=st.integers(100, 1500))
def test_a_larger_photo_is_scaled_down_to_the_side_keeping_its_shape(height, width, side):
    shown = decoded(shown_png(np.full((height, width, 3), 200, np.uint8), side))
    assert max(shown.shape[:2]) == min(side, max(height, width))
    scale = min(1.0, side / max(height, width))  # both sides by the same factor, to a pixel
    assert abs(shown.shape[0] - height * scale) <= 1 and abs(shown.shape[1] - width * scale) <= 1


def test_the_default_side_is_a_screen():
    shown = decoded(shown_png(np.zeros((3000, 4000, 3), np.uint8)))
    assert shown.shape[:2] == (SHOWN_SIDE * 3 // 4, SHOWN_SIDE)
