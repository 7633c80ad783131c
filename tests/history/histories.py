"""Hand-built histories for the history tests: real matches of the real games, entered event by
event through the public API (record), so every match is one the app could hold."""

from __future__ import annotations

from collections.abc import Iterable

from companion.core.game import Event
from companion.core.match import Match, MatchAbandoned, record
from companion.core.seating import Seating
from companion.core.types import MatchId, NightId, PlayerId
from companion.games.patience import AttemptFinished, AttemptStarted, CrazyQuiltOptions, SessionEnded
from companion.games.plaza import Charge, HandPlayed, PlazaOptions
from companion.games.registry import game_for
from companion.games.tabit import Line, LineChosen, Picture, TabitOptions
from companion.games.tableau import Call, RoundWon, TableauOptions, TableStops, WrongPieces

ANN, BOB, CY = PlayerId("ann"), PlayerId("bob"), PlayerId("cy")
MOON_WITH_WORD = Line(Picture.MOON, 4, True)  # 500 (B2)
STAR_WITH_WORD = Line(Picture.STAR, 4, True)  # 400 (B2)


def played(match_id: str, game: str, seats: Iterable[PlayerId], options, created_at: str,
           events: Iterable[Event], night: str | None = None, first_dealer: int = 0) -> Match:
    """A match with `events` recorded one by one (each checked by the game's rules)."""
    match = Match(MatchId(match_id), game, Seating(tuple(seats), first_dealer), options,
                  created_at, created_at, night=NightId(night) if night else None)
    state = None
    for event in events:
        match, state = record(match, game_for(game), event, created_at, state)
    return match


def plaza_hand(winner: PlayerId, **charges: int) -> HandPlayed:
    return HandPlayed(winner, tuple(Charge.of_total(PlayerId(p), t) for p, t in charges.items()))


def attempt(start: str, end: str, cards_home: int) -> tuple[Event, Event]:
    return AttemptStarted(start), AttemptFinished(end, cards_home, cards_home == 104)


def seven_matches(night: str | None = None) -> tuple[Match, ...]:
    """The history most statistics tests read; its known answers are worked out in the tests."""
    return (
        # ann 4 against, bob 10: ann wins (P4).
        played("m1", "plaza", (ANN, BOB), PlazaOptions(deals_each=1), "2026-01-05T19:00:00+00:00",
               [plaza_hand(ANN, bob=10), plaza_hand(BOB, ann=4)], night),
        # ann 6, bob 6, cy 9: ann and bob share the win (G3).
        played("m2", "plaza", (ANN, BOB, CY), PlazaOptions(deals_each=1),
               "2026-01-12T19:00:00+00:00",
               [plaza_hand(ANN, bob=6, cy=3), plaza_hand(BOB, ann=3, cy=6),
                plaza_hand(CY, ann=3, bob=0)], night),
        # Two rounds: ann 500 + 500 = 1000 (B3), bob 0 + 400.
        played("m3", "tabit", (ANN, BOB), TabitOptions(), "2026-02-02T19:00:00+00:00",
               [LineChosen(ANN, MOON_WITH_WORD), LineChosen(BOB, None),
                LineChosen(ANN, MOON_WITH_WORD), LineChosen(BOB, STAR_WITH_WORD)], night),
        # Given up after one call (G4).
        played("m4", "tableau", (ANN, BOB), TableauOptions(), "2026-02-09T19:00:00+00:00",
               [Call(ANN, BOB, False), MatchAbandoned()], night),
        # ann pays bob 1 for a call that did not fit (T4), then 3 wrong pieces (T6): 16 to 24.
        played("m5", "tableau", (ANN, BOB), TableauOptions(), "2026-03-01T19:00:00+00:00",
               [Call(ANN, BOB, False), RoundWon(BOB, (WrongPieces(ANN, 3),)), TableStops()],
               night),
        # One attempt won in 10 minutes, one given up with 50 home: the session is won.
        played("m6", "crazy_quilt", (ANN,), CrazyQuiltOptions(), "2026-03-08T19:00:00+00:00",
               [*attempt("2026-03-08T19:00:00+00:00", "2026-03-08T19:10:00+00:00", 104),
                *attempt("2026-03-08T19:20:00+00:00", "2026-03-08T19:50:00+00:00", 50),
                SessionEnded()], night),
        # Still being played: one hand of two.
        played("m7", "plaza", (ANN, BOB), PlazaOptions(deals_each=1), "2026-03-09T19:00:00+00:00",
               [plaza_hand(BOB, ann=7)], night),
    )
