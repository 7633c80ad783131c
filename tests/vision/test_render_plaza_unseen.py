"""The independent Plaza renderer's ground truth is consistent (issue 6): the bench scores the
reader against it, so a wrong truth would blame the reader for the renderer's mistakes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.plaza_cards import check_layout
from tests.vision.render_plaza_unseen import (
    MISSING_FONTS,
    plaza_layout,
    render_photo,
    unseen_typefaces,
)
from vision.photo import decode_photo

needs_fonts = pytest.mark.skipif(not unseen_typefaces(), reason=MISSING_FONTS)
SIZE = (960, 720)  # small photos keep the test fast; the geometry does not depend on size


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(3, 40), legal=st.booleans())
def test_layouts_have_the_asked_size_and_p5_verdict(seed, count, legal):
    cards = plaza_layout(np.random.default_rng(seed), count, legal)
    assert len(set(cards)) == len(cards) == count
    assert check_layout(cards).legal == legal  # P5


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return 0.5 * float(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


def _centre(placed) -> np.ndarray:
    return np.mean(placed.corners, axis=0)


def _width(placed) -> float:
    corners = np.array(placed.corners)
    return float(np.linalg.norm(corners[0] - corners[1]) + np.linalg.norm(corners[3] - corners[2])
                 ) / 2


@needs_fonts
@pytest.mark.parametrize("seed,kind", [(1, "legal"), (2, "illegal"), (3, "hand"),
                                       (4, "legal"), (5, "illegal"), (6, "hand")])
def test_every_card_lies_inside_the_photo_corners_in_order(seed, kind):
    photo = render_photo(seed, kind=kind, size=SIZE)
    assert decode_photo(photo.jpeg).shape[:2] == (SIZE[1], SIZE[0])
    assert len({placed.card for placed in photo.cards}) == len(photo.cards)
    for placed in photo.cards:
        quad = np.array(placed.corners)
        assert quad.shape == (4, 2)
        assert (quad >= 0).all() and (quad[:, 0] <= SIZE[0]).all() and (quad[:, 1] <= SIZE[1]).all()
        # The card's own corners in order round the card, seen from above (not mirrored).
        assert _signed_area(quad) > 0
        assert cv2.isContourConvex(quad.astype(np.float32))


@needs_fonts
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_plaza_truth_matches_its_kind_and_rows_touch(seed):
    for kind in ("legal", "illegal"):
        photo = render_photo(seed, kind=kind, size=SIZE)
        cards = {placed.card: placed for placed in photo.cards}
        assert 3 <= len(cards) <= 40
        assert check_layout(cards).legal == (kind == "legal")  # P5
        # P5 as laid: the next number of the same colour lies right beside a card, touching.
        for card, placed in cards.items():
            right = next((other for other in cards.values() if other.card.colour is card.colour
                          and other.card.number == card.number + 1), None)
            if right is not None:
                gap = np.linalg.norm(_centre(placed) - _centre(right))
                assert gap < 1.15 * max(_width(placed), _width(right))


@needs_fonts
def test_hand_cards_lie_apart():
    photo = render_photo(21, kind="hand", size=SIZE)
    assert 1 <= len(photo.cards) <= 11
    quads = [np.array(placed.corners, np.float32) for placed in photo.cards]
    for index, quad in enumerate(quads):
        for other in quads[index + 1:]:
            assert all(cv2.pointPolygonTest(other, (float(x), float(y)), False) < 0
                       for x, y in quad)
