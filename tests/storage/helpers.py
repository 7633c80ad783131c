"""Shared pieces of the storage tests: the counting test game, ready-made matches, and real
stored pictures."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np

from companion.core.game import Game
from companion.core.match import Match
from companion.core.seating import Seating
from companion.core.types import MatchId, NightId, PlayerId
from tests.core.counting_game import COUNTING, CountingOptions, Scored
from vision.pictures import make_picture, picture_to_bytes

NOW = "2026-11-21T20:00:00+00:00"
ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
LONG_GAME = 1_000_000  # a target nobody reaches, for matches that must stay open


def games(key: str) -> Game:
    if key != "counting":
        raise KeyError(key)
    return COUNTING


def counter_ids(prefix: str = "id") -> Callable[[], str]:
    """Deterministic ids: id1, id2, ..."""
    numbers = itertools.count(1)
    return lambda: f"{prefix}{next(numbers)}"


def new_match(match_id: str = "m1", *, night: NightId | None = None, target: int = LONG_GAME,
              events: tuple[Scored, ...] = (), created_at: str = NOW) -> Match:
    return Match(MatchId(match_id), "counting", Seating((ANN, BOB, CY)), CountingOptions(target),
                 created_at, created_at, events, night)


def scored(n: int) -> Scored:
    """The n-th event of a test log: who and how much are derived from n, so a log is checkable."""
    return Scored((ANN, BOB, CY)[n % 3], n % 6)


@cache
def stored_picture(seed: int) -> bytes:
    """A real stored picture: random blocks, so it has features to describe."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, 256, (12, 16, 3), dtype=np.uint8)
    image = np.kron(blocks, np.ones((16, 16, 1), np.uint8))
    return picture_to_bytes(make_picture(f"picture {seed}", image))
