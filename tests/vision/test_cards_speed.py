"""The Plaza reader's shortcuts for speed (issue 6) give what the long way gives, to the bit."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import render_plaza_unseen
from vision import cards
from vision.cards import _distances, _lined_round, read_plaza
from vision.photo import decode_photo


@pytest.mark.skipif(not render_plaza_unseen.unseen_typefaces(),
                    reason=render_plaza_unseen.MISSING_FONTS)
def test_a_block_of_paper_both_pattern_free_masks_hold_is_read_once(monkeypatch):
    # Unseen tuning seed 4005, a Plaza on a plain table: opened at a third and at half a card,
    # the paper left unread holds the same blocks, and reading one twice costs the time again.
    regions: list[cards._Region] = []
    within: list[bool] = []
    original_region, original_unread_paper = cards._read_region, cards._read_unread_paper

    def read_unread_paper(*arguments):
        within.append(True)
        try:
            return original_unread_paper(*arguments)
        finally:
            within.pop()

    def read_region(normalised, paper, region, *rest, **options):
        if within:
            regions.append(region)
        return original_region(normalised, paper, region, *rest, **options)

    monkeypatch.setattr(cards, "_read_unread_paper", read_unread_paper)
    monkeypatch.setattr(cards, "_read_region", read_region)
    photo = render_plaza_unseen.render_photo(4005, kind="illegal")
    read_plaza(decode_photo(photo.jpeg))
    assert regions
    assert len(set(regions)) == len(regions)


def test_distances_are_np_linalg_norms_to_the_bit():
    # The places the row-gap look skips, and the neighbours it steps along, were told by
    # np.linalg.norm: one ulp off could tell one apart differently.
    rng = np.random.default_rng(6)
    points = rng.uniform(-4000, 4000, (5000, 2))
    centre = rng.uniform(-4000, 4000, 2)
    expected = np.array([np.linalg.norm(centre - point) for point in points])
    assert np.array_equal(_distances(points, centre), expected)


def test_a_blobs_rim_has_the_blobs_hull_in_the_same_order():
    # _lined_round takes the hull of a blob's rim; its corners (approxPolyDP, which starts from
    # the hull's first point) must be those of the whole blob's hull.
    rng = np.random.default_rng(7)
    for _ in range(300):
        blob = np.zeros((int(rng.integers(5, 90)), int(rng.integers(5, 90))), np.uint8)
        for _ in range(int(rng.integers(1, 6))):
            start, end = (tuple(int(v) for v in rng.integers(0, 90, 2)) for _ in range(2))
            cv2.line(blob, start, end, 1, int(rng.integers(1, 5)))
        if not blob.any():
            continue
        rim = blob - cv2.erode(blob, np.ones((3, 3), np.uint8), borderType=cv2.BORDER_CONSTANT,
                               borderValue=0)
        assert np.array_equal(cv2.convexHull(cv2.findNonZero(rim)),
                              cv2.convexHull(cv2.findNonZero(blob)))


def test_a_printed_frame_is_still_lined_round():
    frame = np.zeros((60, 44), bool)
    cv2.rectangle(frame.view(np.uint8), (1, 1), (42, 58), 1, 2)
    digit = np.zeros((60, 44), bool)
    cv2.circle(digit.view(np.uint8), (22, 30), 18, 1, 3)
    assert _lined_round(frame)
    assert not _lined_round(digit)
