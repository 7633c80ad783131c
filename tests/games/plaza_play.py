"""Random legal Plaza games, played through the public API (record), for property tests and bench.

A Plaza game has 2 x players hands (P2), far fewer than 500 events; when `events` is given, the
game is made that long through the `deals_each` house-rule option (everyone deals more often),
so it is still a complete, legal game that ends by the rules.
"""

from __future__ import annotations

import math
import random

from companion.core.match import Match, record
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.plaza import MAX_HAND, PACK, PLAZA, Charge, HandPlayed, PlazaOptions

NOW = "2026-11-21T20:00:00+00:00"
NAMES = ("ann", "bob", "cy", "dee", "eve")


def new_match(rng: random.Random, players: int, deals_each: int = 2) -> Match:
    seats = tuple(PlayerId(name) for name in NAMES[:players])
    seating = Seating(seats, first_dealer=rng.randrange(players))
    return Match(MatchId(f"plaza-{rng.getrandbits(32):08x}"), PLAZA.key, seating,
                 PlazaOptions(deals_each=deals_each), NOW, NOW)


def random_hand(rng: random.Random, seats: tuple[PlayerId, ...]) -> HandPlayed:
    """A hand someone won, each other player charged by total or by cards left (P3)."""
    winner = rng.choice(seats)
    pack = list(PACK)
    rng.shuffle(pack)
    charges = []
    for player in seats:
        if player == winner:
            continue
        left = [pack.pop() for _ in range(rng.randint(1, MAX_HAND))]
        if rng.random() < 0.5:
            charges.append(Charge.of_total(player, sum(card.number for card in left)))
        else:
            charges.append(Charge(player, cards=tuple(left), from_photo=rng.random() < 0.3))
    rng.shuffle(charges)
    return HandPlayed(winner, tuple(charges))


def random_match(rng: random.Random, events: int | None = None) -> Match:
    """A complete random Plaza game; with `events`, about that many hands (at least one each)."""
    players = rng.randint(PLAZA.min_players, PLAZA.max_players)
    deals_each = 2 if events is None else max(1, math.ceil(events / players))
    match = new_match(rng, players, deals_each)
    state = None
    for _ in range(deals_each * players):
        match, state = record(match, PLAZA, random_hand(rng, match.seating.seats), NOW, state)
    return match
