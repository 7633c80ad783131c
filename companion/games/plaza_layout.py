"""The filling-in adviser (P6): every set of cards from a hand that may be added to a Plaza.

A set may be added when, afterwards, every card on the Plaza is legal by P5. Adding cards never
breaks a run or a column, so the Plaza's own cards stay legal and only the added cards need a
place; a card finds one through a few "supports" (the two neighbours of a run window, or the
missing cards of its column), each a set of hand cards that must come with it.

Because adding cards only ever helps, the union of two legal plays is legal: the largest play is
unique (the union of all of them), and every legal play lies inside it. The adviser first shrinks
the hand to that largest play, splits it into groups of cards that cannot affect each other, and
enumerates each group alone; every legal play is then one choice per group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from companion.core.errors import InvalidEvent
from companion.games.plaza_cards import (
    COLUMN_LENGTH,
    NUMBERS,
    RUN_LENGTH,
    Card,
    check_layout,
    distinct_cards,
)

MAX_HAND = 11  # P3: ten dealt plus the card just drawn

Mask = int  # a set of hand cards: bit i is the i-th card of the sorted hand


@dataclass(frozen=True)
class FillInAdvice:
    plays: tuple[tuple[Card, ...], ...]  # every non-empty legal play, largest first
    largest: tuple[Card, ...]  # the largest legal play (empty when nothing can be added)


def advise_fill_in(plaza: Iterable[Card], hand: Iterable[Card]) -> FillInAdvice:
    """P6: every set of cards from `hand` that may be added to the legal layout `plaza`."""
    cards_down = distinct_cards(plaza)
    held = distinct_cards(hand, "your hand")
    _check_position(cards_down, held)
    supports = _supports(frozenset(cards_down), held)
    largest = _largest_play(supports, (1 << len(held)) - 1)
    choices = [_plays_within(group, supports) for group in _groups(largest, supports)]
    plays = sorted((_union(choice) for choice in product(*choices)), key=_biggest_first)
    read = _play_reader(held)
    return FillInAdvice(plays=tuple(read(play) for play in plays if play), largest=read(largest))


def _check_position(plaza: Sequence[Card], hand: Sequence[Card]) -> None:
    verdict = check_layout(plaza)
    if not verdict.legal:
        raise InvalidEvent("The Plaza is not legal yet: " + verdict.problems[0].reason)
    if len(hand) > MAX_HAND:
        raise InvalidEvent(f"A Plaza hand holds at most {MAX_HAND} cards, not {len(hand)}.")
    on_plaza = set(plaza).intersection(hand)
    if on_plaza:
        card = min(on_plaza)
        raise InvalidEvent(f"{card} is already on the Plaza, so it cannot be in your hand.")


def _supports(plaza: frozenset[Card], hand: Sequence[Card]) -> tuple[tuple[Mask, ...], ...]:
    """For each hand card, the sets of other hand cards any one of which gives it a legal place."""
    index = {card: position for position, card in enumerate(hand)}

    def needed(cards: Iterable[Card]) -> Mask | None:
        """The hand cards among `cards`, or None if one of them is neither down nor held."""
        mask = 0
        for card in cards:
            if card in index:
                mask |= 1 << index[card]
            elif card not in plaza:
                return None
        return mask

    result = []
    for card in hand:
        options: set[Mask] = set()
        for start in range(card.number - RUN_LENGTH + 1, card.number + 1):
            window = range(start, start + RUN_LENGTH)
            if window[0] in NUMBERS and window[-1] in NUMBERS:
                mask = needed(Card(card.colour, number) for number in window
                              if number != card.number)
                if mask is not None:
                    options.add(mask)
        column = [other for other in plaza if other.number == card.number]
        mates = [other for other in hand if other.number == card.number and other != card]
        missing = max(0, COLUMN_LENGTH - 1 - len(column))
        options.update(needed(chosen) for chosen in combinations(mates, missing))
        result.append(tuple(options))
    return tuple(result)


def _largest_play(supports: Sequence[tuple[Mask, ...]], candidates: Mask) -> Mask:
    """Drop cards that cannot find a place even with all remaining cards, until none drop."""
    while True:
        keep = candidates
        for card in _members(candidates):
            if not any(support & ~candidates == 0 for support in supports[card]):
                keep &= ~(1 << card)
        if keep == candidates:
            return keep
        candidates = keep


def _groups(cards: Mask, supports: Sequence[tuple[Mask, ...]]) -> list[Mask]:
    """Split `cards` into groups that share no support, so each can be enumerated alone."""
    groups: list[Mask] = []
    for card in _members(cards):
        touching = 1 << card
        for support in supports[card]:
            touching |= support & cards
        merged = [group for group in groups if group & touching]
        for group in merged:
            groups.remove(group)
            touching |= group
        groups.append(touching)
    return groups


def _plays_within(group: Mask, supports: Sequence[tuple[Mask, ...]]) -> list[Mask]:
    """Every legal play made of cards of `group` (the empty play included).

    Decides card by card whether it is played, keeping `available` (the cards played or still
    undecided); a branch is cut as soon as a played card can no longer find a place in it.
    """
    members = _members(group)
    free = {card for card in members if 0 in supports[card]}  # placed whatever else is played
    # Only the played cards that may lean on a card need checking when it is left out.
    leaning_on = {card: _union(1 << other for other in members if other not in free
                               and any(support >> card & 1 for support in supports[other]))
                  for card in members}
    legal: list[Mask] = []

    def placed(card: int, available: Mask) -> bool:
        return card in free or any(support & ~available == 0 for support in supports[card])

    def decide(depth: int, played: Mask, available: Mask) -> None:
        if depth == len(members):
            legal.append(played)
            return
        card = members[depth]
        if placed(card, available):
            decide(depth + 1, played | 1 << card, available)
        without = available & ~(1 << card)
        leaning = played & leaning_on[card]
        if not leaning or all(placed(other, without) for other in _members(leaning)):
            decide(depth + 1, played, without)

    decide(0, 0, group)
    return legal


def _members(mask: Mask) -> list[int]:
    return [position for position in range(mask.bit_length()) if mask >> position & 1]


def _union(masks: Iterable[Mask]) -> Mask:
    combined = 0
    for mask in masks:
        combined |= mask
    return combined


def _biggest_first(play: Mask) -> tuple[int, Mask]:
    return -play.bit_count(), play


def _play_reader(hand: Sequence[Card]) -> Callable[[Mask], tuple[Card, ...]]:
    """Turns a play into its cards by two table look-ups (low and high half of the hand): an
    11-card hand may have 2,047 plays, and reading each bit by bit would dominate the time."""
    split = len(hand) // 2
    low = [_cards(hand, play) for play in range(1 << split)]
    high = [_cards(hand, play << split) for play in range(1 << (len(hand) - split))]
    low_bits = (1 << split) - 1

    def read(play: Mask) -> tuple[Card, ...]:
        return low[play & low_bits] + high[play >> split]

    return read


def _cards(hand: Sequence[Card], play: Mask) -> tuple[Card, ...]:
    return tuple(hand[position] for position in _members(play))
