"""Random legal Tableau solitaire sessions, played through the public API (record)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from companion.core.match import Match, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tableau import Edition
from companion.games.tableau_solitaire import (
    TABLEAU_SOLITAIRE,
    Attempt,
    SessionEnds,
    SolitaireOptions,
)

NOW = "2026-11-21T20:00:00+00:00"
START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def random_attempt(rng: random.Random, edition: Edition, start: datetime) -> Attempt:
    """An attempt timed either in seconds or by timestamps, as a UI clock might give it."""
    pictures = rng.randint(1, edition.pictures)
    seconds = rng.randint(20, 300) * pictures + rng.random()
    finished = rng.random() < 0.7
    if rng.random() < 0.5:
        return Attempt(pictures, finished, seconds=round(seconds, 1))
    end = start + timedelta(seconds=seconds)
    return Attempt(pictures, finished, started_at=start.isoformat(), ended_at=end.isoformat())


def random_match(rng: random.Random, events: int | None = None) -> Match:
    """A random session of attempts, ended by the player.

    Without `events` it has 1 to 30 attempts; with `events` it has exactly that many events
    (attempts, then the session's end), since a session can go on as long as the player likes.
    """
    edition = rng.choice(list(Edition))
    match = Match(MatchId("random"), TABLEAU_SOLITAIRE.key, Seating((PlayerId("ann"),)),
                  SolitaireOptions(edition), NOW, NOW)
    state = replay(match, TABLEAU_SOLITAIRE)
    attempts = rng.randint(1, 30) if events is None else max(1, events - 1)
    clock = START
    for _ in range(attempts):
        attempt = random_attempt(rng, edition, clock)
        clock += timedelta(minutes=30)
        match, state = record(match, TABLEAU_SOLITAIRE, attempt, NOW, state)
    match, _ = record(match, TABLEAU_SOLITAIRE, SessionEnds(), NOW, state)
    return match
