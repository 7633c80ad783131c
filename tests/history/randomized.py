"""Random histories of real games for the property tests and the bench: matches from the games'
own random players (tests/games/<key>_play.py), given their own ids, dates and night."""

from __future__ import annotations

import importlib
import random
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from companion.core.game import Event
from companion.core.match import Match, MatchAbandoned
from companion.core.players import Player
from companion.core.types import MatchId, NightId, PlayerId
from companion.games.patience import ALL_CARDS, AttemptFinished
from companion.games.plaza import HandPlayed
from companion.games.tabit import TABLE_LINES, BoardEntered, LineChosen
from companion.games.tableau import Call, RoundWon
from companion.games.tableau_solitaire import Attempt as SolitaireAttempt
from tests.games.plaza_play import random_hand
from tests.games.tableau_play import random_round_end

# Every player the random games seat.
PLAYERS = tuple(Player(PlayerId(name), name.capitalize())
                for name in ("ann", "bob", "cy", "dee", "eve", "fay"))
FAST_GAMES = ("tableau", "tableau_solitaire", "plaza", "tabit", "crazy_quilt", "windmill")
START = datetime(2025, 1, 3, 19, 0, tzinfo=UTC)


def random_match(game: str, rng: random.Random) -> Match:
    return importlib.import_module(f"tests.games.{game}_play").random_match(rng)


def placed(match: Match, number: int, night: NightId | None = None) -> Match:
    """`match` as the `number`th of a history: its own id, a later date, filed under `night`."""
    at = (START + timedelta(days=3 * number)).isoformat()
    return replace(match, id=MatchId(f"match-{number:05d}"), created_at=at, updated_at=at,
                   night=night)


def replacement(rng: random.Random, match: Match, event: Event) -> Event:
    """An event to correct `event` with: usually one of the same kind, else an abandonment
    (which is legal only as the last entry, so some corrections are refused, as they should)."""
    seats = match.seating.seats
    if isinstance(event, HandPlayed):
        return random_hand(rng, seats)
    if isinstance(event, Call):
        return Call(event.caller, event.called, not event.fit)
    if isinstance(event, RoundWon):
        return random_round_end(rng, seats)
    if isinstance(event, BoardEntered | LineChosen):
        return LineChosen(event.player, rng.choice((None, *TABLE_LINES)))
    if isinstance(event, SolitaireAttempt):  # 4 pictures fit either edition (T1, T8)
        return SolitaireAttempt(rng.randint(1, 4), rng.random() < 0.5, seconds=rng.randint(20, 900))
    if isinstance(event, AttemptFinished):  # won with all home, or given up with 60 (Q2)
        won = rng.random() < 0.5
        return AttemptFinished(event.at, ALL_CARDS if won else 60, won)
    return MatchAbandoned()
