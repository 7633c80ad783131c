"""Random legal Crazy Quilt and Windmill sessions, played through the public API (record).

Without `events`, a session has 1 to 8 attempts; with `events`, attempts follow one another until
about that many events are in, then the session ends.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from companion.core.match import Match, MatchState, record
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.patience import (
    ALL_CARDS,
    AttemptFinished,
    AttemptStarted,
    PatienceGame,
    Redealt,
    SessionEnded,
)

NOW = "2026-11-21T20:00:00+00:00"
PLAYER = PlayerId("ann")


def new_match(rng: random.Random, game: PatienceGame) -> Match:
    options = game.options_type()
    if rng.random() < 0.3:  # now and then a house rule on redeals
        options = game.options_type(redeals_allowed=rng.randint(0, 3))
    return Match(MatchId("random"), game.key, Seating((PLAYER,)), options, NOW, NOW)


def attempt_events(rng: random.Random, game: PatienceGame, options, start: datetime):
    """The events of one legal attempt starting at `start`, and when it ends."""
    end = start + timedelta(seconds=rng.randint(60, 3600), milliseconds=rng.randint(0, 999))
    won = rng.random() < 0.3
    cards_home = ALL_CARDS if won else rng.randint(game.rules.bases_out_at_start, ALL_CARDS - 1)
    redeals = rng.randint(0, options.redeals_allowed)
    return ([AttemptStarted(start.isoformat()), *[Redealt()] * redeals,
             AttemptFinished(end.isoformat(), cards_home, won)], end)


def random_session(game: PatienceGame, rng: random.Random, events: int | None = None) -> Match:
    match = new_match(rng, game)
    state = MatchState(game.initial_state(game.new_table(match.seating, match.options)))
    clock = datetime.fromisoformat(NOW)
    attempts_left = rng.randint(1, 8)
    while (len(match.events) < events) if events is not None else attempts_left > 0:
        attempt, clock = attempt_events(rng, game, match.options,
                                        clock + timedelta(seconds=rng.randint(0, 600)))
        for event in attempt:
            match, state = record(match, game, event, NOW, state)
        attempts_left -= 1
    match, _ = record(match, game, SessionEnded(), NOW, state)
    return match
