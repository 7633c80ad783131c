"""Random legal Crazy Quilt sessions (see patience_play)."""

from __future__ import annotations

import random

from companion.core.match import Match
from companion.games.patience import CRAZY_QUILT
from tests.games.patience_play import random_session


def random_match(rng: random.Random, events: int | None = None) -> Match:
    return random_session(CRAZY_QUILT, rng, events)
