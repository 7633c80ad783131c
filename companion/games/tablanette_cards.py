"""Tablanette's cards: the capture adviser, card points, and a pack played card by card.

The adviser answers "what can this card take?" (N2): given the cards face up on the table and the
card played, every distinct set of table cards that can be taken, one way of grouping each set,
whether it clears the table (a tablanette) and what that scores (N4). Each distinct set appears
once, maximal or not, with a flag saying whether some other capture takes these cards and more.

Decisions where the sheet is silent (documented in docs/match-format/tablanette.md):
- A jack on the table (one played onto an empty table) has no number to add: it never joins an
  equal card or a group and is taken only by a played jack's sweep. Its value 0 matters for N4.
- Where aces could count either way for the same cards, the adviser shows the way that scores most
  (the player chooses, N2); the score never depends on it otherwise, only on the played value.
- Playing a card without taking anything is always allowed and is not listed as a capture.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import Enum
from itertools import combinations, product

from companion.core.errors import InvalidEvent
from companion.core.types import PlayerId

ACE, JACK, QUEEN, KING = 1, 11, 12, 13
_RANK_CODES = {ACE: "A", JACK: "J", QUEEN: "Q", KING: "K"}
_RANK_NAMES = {ACE: "ace", JACK: "jack", QUEEN: "queen", KING: "king"}
MAX_GROUP_SIZE = 3  # N2: one equal card, or two or three cards adding up


class Suit(Enum):
    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def code(self) -> str:
        return self.value[0].upper()


@dataclass(frozen=True)
class Card:
    rank: int  # 1 ace, 2-10, 11 jack, 12 queen, 13 king
    suit: Suit

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int) or not 1 <= self.rank <= 13:
            raise InvalidEvent(f"There is no card of rank {self.rank!r}: ranks go from ace (1) "
                               "to king (13).")
        if not isinstance(self.suit, Suit):
            raise InvalidEvent(f"{self.suit!r} is not a suit: clubs, diamonds, hearts or spades.")

    @property
    def code(self) -> str:
        """Short form, e.g. 'KH' for the king of hearts, '10D' for the ten of diamonds."""
        return f"{_RANK_CODES.get(self.rank, str(self.rank))}{self.suit.code}"

    def __str__(self) -> str:
        return f"the {_RANK_NAMES.get(self.rank, str(self.rank))} of {self.suit.value}"


def card(code: str) -> Card:
    """The card written as `code`: rank A, 2-10, J, Q or K, then suit C, D, H or S ('10D')."""
    text = code.strip().upper()
    ranks = {name: rank for rank, name in _RANK_CODES.items()} | {str(n): n for n in range(2, 11)}
    suits = {suit.code: suit for suit in Suit}
    if len(text) < 2 or text[:-1] not in ranks or text[-1] not in suits:
        raise InvalidEvent(f"{code!r} is not a card; write it like 'KH' (king of hearts) or '10D'.")
    return Card(ranks[text[:-1]], suits[text[-1]])


FULL_PACK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in Suit for rank in range(1, 14))
TWO_OF_CLUBS = Card(2, Suit.CLUBS)
TEN_OF_DIAMONDS = Card(10, Suit.DIAMONDS)


def capture_values(played_or_table: Card) -> tuple[int, ...]:
    """N2: ace 1 or 11 (the player chooses), 2-10 their number, jack 0, queen 13, king 14."""
    rank = played_or_table.rank
    if rank == ACE:
        return (1, 11)
    if rank == JACK:
        return (0,)
    return (rank + 1,) if rank in (QUEEN, KING) else (rank,)


def card_points(captured: Card, *, count_aces: bool = False) -> int:
    """N6: 2 of clubs 1, 10 of diamonds 2, every other king, queen, jack and ten 1; aces 0.

    Under the `count_aces` house rule an ace scores 1, the common modern rule.
    """
    if captured == TEN_OF_DIAMONDS:
        return 2
    if captured == TWO_OF_CLUBS or captured.rank in (10, JACK, QUEEN, KING):
        return 1
    return 1 if count_aces and captured.rank == ACE else 0


_PLAYED_VALUES = frozenset(value for c in FULL_PACK for value in capture_values(c) if value)
_ACES_IN_PACK = 4


def is_possible_tablanette(points: int) -> bool:
    """N4: a tablanette scores 0 (a jack's sweep) or k + 1 times the played value (k groups taken).

    A played ace counting 1 can take only other aces (groups of 1), so at most three groups.
    How high a score the cards allow is checked against the capturing player's pile.
    """
    if points == 0:
        return True
    return any(points % value == 0 and points // value >= 2
               and (value != 1 or points <= _ACES_IN_PACK) for value in _PLAYED_VALUES)


@dataclass(frozen=True)
class Capture:
    """One legal capture by `played` from the table (N2), and whether it is a tablanette (N4)."""

    played: Card
    played_value: int  # the value the played card counts as (an ace: 1 or 11; a jack: 0)
    groups: tuple[tuple[Card, ...], ...]  # one way of grouping the cards taken; a sweep is one group
    taken: tuple[Card, ...]  # the table cards taken, in table order
    clears_table: bool  # a tablanette
    tablanette_points: int | None  # N4 score; None when the table is not cleared
    played_card_taken: bool  # N3: stays on the table unless tablanette or `classic_capture`
    maximal: bool  # no other capture takes all these cards and more

    @property
    def is_sweep(self) -> bool:
        return self.played.rank == JACK


def captures(table: Sequence[Card], played: Card, *,
             classic_capture: bool = False) -> tuple[Capture, ...]:
    """Every distinct set of table cards `played` can take, tablanettes first, then largest first.

    InvalidEvent when a card is on the table twice or the played card is also on the table.
    """
    _check_one_of_each((*table, played))
    if not table:
        return ()
    if played.rank == JACK:  # N2: a jack takes every card; N4: scoring nothing extra
        return (Capture(played, 0, (tuple(table),), tuple(table), True, 0, True, True),)
    best: dict[int, tuple[int, tuple[int, ...]]] = {}  # taken mask -> (played value, groups)
    for value in capture_values(played):
        for mask, groups in _disjoint_unions(_groups_summing_to(table, value)).items():
            if mask not in best or _points(value, groups) > _points(*best[mask]):
                best[mask] = (value, groups)
    everything = (1 << len(table)) - 1
    maximal_masks: list[int] = []
    found = []
    for mask in sorted(best, key=lambda m: (m != everything, -m.bit_count(), m)):
        maximal = not any(mask & other == mask for other in maximal_masks)
        if maximal:
            maximal_masks.append(mask)
        value, groups = best[mask]
        clears = mask == everything
        found.append(Capture(
            played=played,
            played_value=value,
            groups=tuple(_cards_of(table, group) for group in groups),
            taken=_cards_of(table, mask),
            clears_table=clears,
            tablanette_points=_points(value, groups) if clears else None,
            played_card_taken=clears or classic_capture,
            maximal=maximal,
        ))
    return tuple(found)


def _points(value: int, groups: tuple[int, ...]) -> int:
    """N4: the cards taken (each group adds up to the played value) plus the played card."""
    return value * (len(groups) + 1)


def _groups_summing_to(table: Sequence[Card], value: int) -> list[int]:
    """Masks of the table cards that can form one group worth `value` (N2); jacks never join."""
    numbered = [index for index, c in enumerate(table) if c.rank != JACK]
    groups = []
    for size in range(1, MAX_GROUP_SIZE + 1):
        for indexes in combinations(numbered, size):
            choices = product(*(capture_values(table[index]) for index in indexes))
            if any(sum(choice) == value for choice in choices):
                groups.append(sum(1 << index for index in indexes))
    return groups


def _disjoint_unions(groups: list[int]) -> dict[int, tuple[int, ...]]:
    """Every non-empty union of groups sharing no card, with one grouping that makes it."""
    reachable: dict[int, tuple[int, ...]] = {0: ()}
    for group in groups:
        for mask, parts in list(reachable.items()):
            if not mask & group and mask | group not in reachable:
                reachable[mask | group] = (*parts, group)
    del reachable[0]
    return reachable


def _cards_of(table: Sequence[Card], mask: int) -> tuple[Card, ...]:
    """The cards whose bits are set, in table order (walks the set bits only)."""
    found = []
    while mask:
        lowest = mask & -mask
        found.append(table[lowest.bit_length() - 1])
        mask ^= lowest
    return tuple(found)


def _check_one_of_each(cards: Sequence[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if c in seen:
            raise InvalidEvent(f"{str(c).capitalize()} is there twice; a pack has one of each card.")
        seen.add(c)


@dataclass(frozen=True)
class PackPlay:
    """A pack played card by card with the adviser: the table, and each player's pile.

    `piles` and `tablanettes` are in the order of `players`. Used to enter a pack card by card and
    by the tests' random games; `finish_pack` hands what is left on the table out (N5).
    """

    players: tuple[PlayerId, ...]
    table: tuple[Card, ...]
    piles: tuple[tuple[Card, ...], ...]
    tablanettes: tuple[tuple[int, ...], ...]
    last_capturer: PlayerId | None = None
    classic_capture: bool = False

    def piles_by_player(self) -> Mapping[PlayerId, tuple[Card, ...]]:
        return dict(zip(self.players, self.piles, strict=True))

    def tablanettes_by_player(self) -> Mapping[PlayerId, tuple[int, ...]]:
        return dict(zip(self.players, self.tablanettes, strict=True))

    def seat_of(self, player: PlayerId) -> int:
        if player not in self.players:
            raise InvalidEvent(f"{player} is not playing at this table.")
        return self.players.index(player)


def start_pack(players: Sequence[PlayerId], table: Sequence[Card], *,
               classic_capture: bool = False) -> PackPlay:
    """A pack whose first deal put `table` face up (N1: never a jack, it is replaced)."""
    _check_one_of_each(table)
    if any(c.rank == JACK for c in table):
        raise InvalidEvent("A jack turned up on the table goes to the bottom of the pack and is "
                           "replaced (N1).")
    return PackPlay(tuple(players), tuple(table), tuple(() for _ in players),
                    tuple(() for _ in players), None, classic_capture)


def play_card(pack: PackPlay, player: PlayerId, played: Card,
              taking: Collection[Card] = ()) -> PackPlay:
    """`player` plays `played` and takes the table cards `taking` (none: the card is laid down)."""
    seat = pack.seat_of(player)
    if played in pack.table or any(played in pile for pile in pack.piles):
        raise InvalidEvent(f"{str(played).capitalize()} has already been played in this pack.")
    if not taking:
        return replace(pack, table=(*pack.table, played))
    wanted = set(taking)
    choice = next((c for c in captures(pack.table, played, classic_capture=pack.classic_capture)
                   if set(c.taken) == wanted), None)
    if choice is None:
        cards = ", ".join(str(c) for c in taking)
        raise InvalidEvent(f"{str(played).capitalize()} cannot take {cards} from this table.")
    won = (*choice.taken, played) if choice.played_card_taken else choice.taken
    left = tuple(c for c in pack.table if c not in wanted)
    made = (choice.tablanette_points,) if choice.tablanette_points is not None else ()
    return replace(
        pack,
        table=left if choice.played_card_taken else (*left, played),
        piles=_with(pack.piles, seat, pack.piles[seat] + won),
        tablanettes=_with(pack.tablanettes, seat, pack.tablanettes[seat] + made),
        last_capturer=player,
    )


def finish_pack(pack: PackPlay) -> PackPlay:
    """N5: the cards left on the table go to the last player who captured; not a tablanette."""
    if not pack.table:
        return pack
    if pack.last_capturer is None:
        raise InvalidEvent("Nobody has taken a card yet, so the cards on the table have no owner.")
    seat = pack.seat_of(pack.last_capturer)
    return replace(pack, table=(), piles=_with(pack.piles, seat, pack.piles[seat] + pack.table))


def _with(items: tuple, index: int, value: object) -> tuple:
    return (*items[:index], value, *items[index + 1:])
