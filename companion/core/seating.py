"""Seats, the deal and the turn (G1), once for every game.

Seats are an ordered list; "to the left" is the next seat in that list. The first dealer is
chosen at set-up and the deal passes to the left after every deal unless a game says otherwise.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.types import PlayerId


@dataclass(frozen=True)
class Seating:
    seats: tuple[PlayerId, ...]
    first_dealer: int = 0

    def __post_init__(self) -> None:
        if not self.seats:
            raise InvalidSetup("A table needs at least one player.")
        if len({seat.casefold() for seat in self.seats}) != len(self.seats):
            raise InvalidSetup("A player cannot sit at the table twice.")
        if not 0 <= self.first_dealer < len(self.seats):
            raise InvalidSetup("The first dealer must be one of the players at the table.")

    @property
    def size(self) -> int:
        return len(self.seats)

    def left_of(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` places to the left of `seat` (G1)."""
        return (seat + steps) % self.size

    def dealer_of_deal(self, deal_number: int) -> int:
        """The seat that deals deal number `deal_number` (0 is the first deal)."""
        return self.left_of(self.first_dealer, deal_number)

    def player(self, seat: int) -> PlayerId:
        return self.seats[seat]

    def seat_of(self, player: PlayerId) -> int:
        """The seat of `player`; InvalidEvent when the player is not at this table."""
        try:
            return self.seats.index(player)
        except ValueError:
            raise InvalidEvent(f"{player} is not playing at this table.") from None

    def others(self, player: PlayerId) -> tuple[PlayerId, ...]:
        """Everyone at the table but `player`, in seat order starting to his left."""
        seat = self.seat_of(player)
        return tuple(self.seats[self.left_of(seat, step)] for step in range(1, self.size))


def draw_first_dealer(seat_count: int, rng: random.Random | None = None) -> int:
    """Draw the first dealer at random (G1): the app's stand-in for cutting the pack."""
    return (rng or random.SystemRandom()).randrange(seat_count)
