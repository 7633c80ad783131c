"""Random legal Tableau games, played through the public API (record)."""

from __future__ import annotations

import random

from companion.core.match import Match, MatchState, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tableau import (
    PIECES_PER_PICTURE,
    TABLEAU,
    Call,
    Edition,
    PhotoCheck,
    RoundWon,
    TableauOptions,
    TableStops,
    TitleCard,
    TitlesDealt,
    WrongPieces,
)

NOW = "2026-11-21T20:00:00+00:00"
PLAYERS = tuple(PlayerId(name) for name in ("ann", "bob", "cy", "dee", "eve", "fay"))
PHOTO_REASONS = ("not-neighbours", "wrong-orientation", "not-full-side", "wrong-picture")


def new_match(rng: random.Random) -> Match:
    edition = rng.choice(list(Edition))
    size = rng.randint(2, edition.pictures)
    options = TableauOptions(edition, rng.choice((1, 2, 5, 20)), rng.random() < 0.5)
    seating = Seating(PLAYERS[:size], rng.randrange(size))
    return Match(MatchId("random"), TABLEAU.key, seating, options, NOW, NOW)


def random_photo(rng: random.Random) -> PhotoCheck | None:
    roll = rng.random()
    if roll < 0.6:
        return None
    if roll < 0.7:
        return PhotoCheck(None, "unsure", rng.random())
    verdict = rng.random() < 0.5
    return PhotoCheck(verdict, "fit" if verdict else rng.choice(PHOTO_REASONS), rng.random())


def random_round_end(rng: random.Random, seats: tuple[PlayerId, ...]) -> RoundWon:
    winner = rng.choice(seats)
    return RoundWon(winner, tuple(
        WrongPieces(player, rng.randint(0, PIECES_PER_PICTURE), rng.random() < 0.2)
        for player in seats if player != winner))


def next_event(rng: random.Random, match: Match, state: MatchState, wind_down: bool):
    """One legal event for `state`; `wind_down` ends the round soon and then stops the table."""
    tableau = state.game
    seats = match.seating.seats
    if wind_down and not tableau.round_in_play and tableau.rounds:
        return TableStops()
    if not tableau.titles and rng.random() < 0.1:
        pictures = rng.sample([f"picture {n}" for n in range(match.options.edition.pictures)],
                              len(seats))
        return TitlesDealt(tuple(map(TitleCard, seats, pictures)))
    if rng.random() < (0.5 if wind_down else 0.12):
        return random_round_end(rng, seats)
    caller = TABLEAU.to_act(tableau)
    called = rng.choice([player for player in seats if player != caller])
    return Call(caller, called, rng.random() < 0.4, random_photo(rng))


def random_match(rng: random.Random, events: int | None = None) -> Match:
    """A random legal game played until the table stops.

    Tableau has no natural end: without `events` the table stops after a random number of
    events (up to about 60); with `events` it plays on until about that many, then finishes the
    round in play and stops, so the log is a little longer than asked.
    """
    match = new_match(rng)
    state = replay(match, TABLEAU)
    target = rng.randint(1, 60) if events is None else events
    while not TABLEAU.is_over(state.game):
        event = next_event(rng, match, state, wind_down=len(match.events) >= target)
        match, state = record(match, TABLEAU, event, NOW, state)
    return match
