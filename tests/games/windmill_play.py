"""Random legal Windmill sessions (see patience_play)."""

from __future__ import annotations

import random

from companion.core.match import Match
from companion.games.patience import WINDMILL
from tests.games.patience_play import random_session


def random_match(rng: random.Random, events: int | None = None) -> Match:
    return random_session(WINDMILL, rng, events)
