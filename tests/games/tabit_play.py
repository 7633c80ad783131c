"""Random legal Tabit games, played through the public API (record).

With `events`, boards scoring little keep the game going until about that many events are in;
then it is played to its end, so the match has `events` events plus the few that finish it.
"""

from __future__ import annotations

import random

from companion.core.match import Match, MatchState, record
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tabit import (
    TABIT,
    TABLE_LINES,
    Board,
    BoardEntered,
    LineChosen,
    Picture,
    TabitOptions,
    awaiting,
)

NOW = "2026-11-21T20:00:00+00:00"
PLAYERS = tuple(PlayerId(name) for name in ("ann", "bob", "cy", "dee"))
LETTERS = "ABEMNORST"  # the words' letters and a few others, so words sometimes come out


def new_match(rng: random.Random) -> Match:
    size = rng.randint(TABIT.min_players, TABIT.max_players)
    options = TabitOptions(whole_table_plays_tie_round=rng.random() < 0.3)
    return Match(MatchId("random"), TABIT.key, Seating(PLAYERS[:size], rng.randrange(size)),
                 options, NOW, NOW)


def random_board(rng: random.Random) -> Board:
    """A board leaning towards one picture, so lines of 3 and 4 pictures come up often."""
    favourite = rng.choice(list(Picture))
    pictures = tuple(favourite if rng.random() < 0.7 else rng.choice(list(Picture))
                     for _ in range(4))
    if rng.random() < 0.4:
        letters = tuple(rng.sample(favourite.word, 4))
    else:
        letters = tuple(rng.choice(LETTERS) for _ in range(4))
    return Board(pictures, letters)


def random_entry(rng: random.Random, player: PlayerId, keep_going: bool):
    if keep_going:  # no score, or the smallest line, so nobody gets near 1000 yet
        return LineChosen(player, None if rng.random() < 0.9 else TABLE_LINES[-1])
    if rng.random() < 0.3:
        return LineChosen(player, rng.choice((None, *TABLE_LINES)))
    return BoardEntered(player, random_board(rng))


def random_match(rng: random.Random, events: int | None = None) -> Match:
    match = new_match(rng)
    state = MatchState(TABIT.initial_state(TABIT.new_table(match.seating, match.options)))
    while not TABIT.is_over(state.game):
        # Often everyone scores alike, so ties at the top and their extra rounds (B3) come up.
        alike = rng.random() < 0.5
        seed = rng.getrandbits(32)
        for player in awaiting(state.game):
            keep_going = events is not None and len(match.events) < events
            entry_rng = random.Random(seed) if alike else rng
            match, state = record(match, TABIT, random_entry(entry_rng, player, keep_going),
                                  NOW, state)
    return match
