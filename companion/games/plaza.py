"""Plaza (1913): the rules engine for scoring a game (P1-P4) on the shared match model.

The table records one event per hand: who ran out, and what every other player is charged,
entered as a total or as the cards left in his hand (P3). The state keeps every hand with each
player's points and running total, so screens can show the game hand by hand and statistics can
read points against per hand. The layout checker (P5) is in plaza_cards.py and the filling-in
adviser (P6) in plaza_layout.py; both are re-exported here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.seating import Seating
from companion.core.types import PlayerId
from companion.games.plaza_cards import (
    PACK,
    Card,
    Colour,
    LayoutProblem,
    LayoutVerdict,
    check_layout,
)
from companion.games.plaza_layout import MAX_HAND, FillInAdvice, advise_fill_in

__all__ = [
    "MAX_CHARGE", "MAX_HAND", "PACK", "PLAZA", "Card", "Charge", "Colour", "FillInAdvice",
    "HandPlayed", "HandSummary", "HandLine", "LayoutProblem", "LayoutVerdict", "PlazaGame",
    "PlazaOptions", "PlazaState", "advise_fill_in", "check_layout",
]

# P3: the most a player can be charged is a full hand of the highest cards in the pack.
MAX_CHARGE = sum(sorted((card.number for card in PACK), reverse=True)[:MAX_HAND])


@dataclass(frozen=True)
class PlazaOptions:
    deals_each: int = 2  # P2: "until each player has had two turns as Dealer"


@dataclass(frozen=True)
class Charge:
    """What one player is charged at the end of a hand (P3): a total, or the cards left."""

    player: PlayerId
    total: int | None = None
    cards: tuple[Card, ...] | None = None
    from_photo: bool = False  # read from a photo of the hand (issue 6) and confirmed by the table

    @classmethod
    def of_total(cls, player: PlayerId, total: int) -> Charge:
        return cls(player, total=total)

    @classmethod
    def of_cards(cls, player: PlayerId, cards: Iterable[Card]) -> Charge:
        return cls(player, cards=tuple(cards))


@dataclass(frozen=True)
class HandPlayed(Event, kind="plaza.hand"):
    """A hand ended: `winner` ran out (P3) and every other player has a charge."""

    winner: PlayerId
    charges: tuple[Charge, ...]


@dataclass(frozen=True)
class HandLine:
    """One player's line in one hand."""

    player: PlayerId
    points: int  # set down against him this hand; 0 for the winner
    total: int  # his points against after this hand
    cards: tuple[Card, ...] | None = None  # the cards left, when they were entered as cards


@dataclass(frozen=True)
class HandSummary:
    number: int  # 1 for the first hand
    dealer: PlayerId
    winner: PlayerId
    lines: tuple[HandLine, ...]  # in seat order

    def points(self, player: PlayerId) -> int:
        """The points charged to `player` in this hand."""
        for line in self.lines:
            if line.player == player:
                return line.points
        raise InvalidEvent(f"{player} is not playing at this table.")


@dataclass(frozen=True)
class PlazaState:
    seating: Seating
    options: PlazaOptions
    hands: tuple[HandSummary, ...] = ()

    @property
    def hands_in_game(self) -> int:
        """P2: everyone deals `deals_each` times (twice by the sheet)."""
        return self.options.deals_each * self.seating.size

    @property
    def points_against(self) -> Mapping[PlayerId, int]:
        """Every player's points against so far, in seat order."""
        if not self.hands:
            return {player: 0 for player in self.seating.seats}
        return {line.player: line.total for line in self.hands[-1].lines}


class PlazaGame(Game[PlazaState, PlazaOptions]):
    key = "plaza"
    title = "Plaza"
    min_players = 2
    max_players = 5
    options_type = PlazaOptions
    event_types = (HandPlayed,)
    state_type = PlazaState

    def initial_state(self, table: Table) -> PlazaState:
        options = table.options
        if isinstance(options.deals_each, bool) or not isinstance(options.deals_each, int) \
                or options.deals_each < 1:
            raise InvalidSetup("In Plaza every player deals at least once (P2).")
        return PlazaState(table.seating, options)

    def apply(self, state: PlazaState, event: Event) -> PlazaState:
        if not isinstance(event, HandPlayed):
            raise InvalidEvent(f"{type(event).__name__} is not an event of Plaza.")
        if self.is_over(state):
            raise InvalidEvent(
                f"The game is over: all {state.hands_in_game} hands have been played (P2).")
        charged = _charges_by_player(state.seating, event)
        totals = state.points_against
        lines = []
        for player in state.seating.seats:
            points, cards = charged.get(player, (0, None))  # the winner is charged 0 (P3)
            lines.append(HandLine(player, points, totals[player] + points, cards))
        summary = HandSummary(len(state.hands) + 1, _dealer_of_hand(state, len(state.hands)),
                              event.winner, tuple(lines))
        return PlazaState(state.seating, state.options, (*state.hands, summary))

    def standings(self, state: PlazaState) -> tuple[Standing, ...]:
        # P4: the fewest points against is best; ties share the rank (G3).
        return rank_scores(state.points_against, lower_is_better=True)

    def is_over(self, state: PlazaState) -> bool:
        return len(state.hands) >= state.hands_in_game

    def dealer(self, state: PlazaState) -> PlayerId | None:
        """Who deals the next hand (P2, deal passing left by G1); None once the game is over."""
        return None if self.is_over(state) else _dealer_of_hand(state, len(state.hands))

    def opener(self, state: PlazaState) -> PlayerId | None:
        """Who has the first turn of the next hand: the player at the dealer's left.

        Turns inside a hand are not recorded (the table enters whole hands), so `to_act` stays
        None; this is what a screen can show instead.
        """
        if self.is_over(state):
            return None
        seating = state.seating
        return seating.player(seating.left_of(seating.dealer_of_deal(len(state.hands))))


def _dealer_of_hand(state: PlazaState, hand_index: int) -> PlayerId:
    return state.seating.player(state.seating.dealer_of_deal(hand_index))


def _charges_by_player(
        seating: Seating, event: HandPlayed) -> dict[PlayerId, tuple[int, tuple[Card, ...] | None]]:
    """P3: each loser's points (and cards, if entered) after checking the hand could be real."""
    seating.seat_of(event.winner)
    result: dict[PlayerId, tuple[int, tuple[Card, ...] | None]] = {}
    holder: dict[Card, PlayerId] = {}
    for charge in event.charges:
        seating.seat_of(charge.player)
        if charge.player == event.winner:
            raise InvalidEvent(
                f"{charge.player} won the hand by running out, "
                "so the winner is charged nothing (P3).")
        if charge.player in result:
            raise InvalidEvent(f"{charge.player} is charged twice in this hand.")
        result[charge.player] = (_points(charge, holder), charge.cards)
    missing = [player for player in seating.others(event.winner) if player not in result]
    if missing:
        raise InvalidEvent(f"Enter what {' and '.join(missing)} still held: a total or the cards.")
    return result


def _points(charge: Charge, holder: dict[Card, PlayerId]) -> int:
    """The charge in points; records the charged cards in `holder` to catch a card given twice."""
    if charge.total is not None and charge.cards is not None:
        raise InvalidEvent(f"Enter a total or the cards left for {charge.player}, not both.")
    if charge.total is None and charge.cards is None:
        raise InvalidEvent(f"Enter a total or the cards left for {charge.player}.")
    if charge.cards is None:
        total = charge.total
        if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= MAX_CHARGE:
            raise InvalidEvent(
                f"{charge.player}'s total must be a whole number from 0 to {MAX_CHARGE}: "
                f"{MAX_HAND} cards hold at most {MAX_CHARGE} points (P3).")
        return total
    if len(charge.cards) > MAX_HAND:
        raise InvalidEvent(
            f"{charge.player} cannot hold {len(charge.cards)} cards: "
            f"a Plaza hand holds at most {MAX_HAND} (P3).")
    for card in charge.cards:
        if not isinstance(card, Card):
            raise InvalidEvent(f"{card!r} is not a Plaza card.")
        if card in holder:
            owner = holder[card]
            where = "twice" if owner == charge.player else f"to both {owner} and {charge.player}"
            raise InvalidEvent(
                f"{card} is charged {where}, but the pack has only one {card} (P1, P3).")
        holder[card] = charge.player
    return sum(card.number for card in charge.cards)  # P3: "10, 3 and 4" is 17 against


PLAZA = PlazaGame()
