"""The Plaza hand being entered at the table: the pure logic behind companion/ui/games/plaza.py.

A draft holds what the table has tapped and typed so far for one hand. It becomes a HandPlayed
event only once every field reads cleanly; the rules engine then decides whether the hand could
be real (P3). No Flet here, so all of it is tested without a browser.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, replace

from companion.core.errors import InvalidEvent
from companion.core.types import PlayerId
from companion.games.plaza import (
    MAX_CHARGE,
    MAX_HAND,
    PLAZA,
    Card,
    Charge,
    Colour,
    HandPlayed,
    PlazaState,
    advise_fill_in,
)
from companion.ui.games import with_names


class Entry(enum.Enum):
    """How a player's charge is entered (P3): the counted total, or the cards left."""

    TOTAL = "total"
    CARDS = "cards"


class Why(enum.Enum):
    """Why a card read from a photo was not put into a player's cards."""

    CHARGED = "already charged to"  # to another player in this hand: one of each card (P1)
    TWICE = "read twice on the photo"
    FULL = f"a hand holds at most {MAX_HAND} cards (P3)"


@dataclass(frozen=True)
class NotTaken:
    card: Card
    why: Why
    holder: PlayerId | None = None  # the player the card is already charged to (Why.CHARGED)


@dataclass(frozen=True)
class PhotoFill:
    """What the last photo of a player's cards gave: how many were read and put in, which
    were not taken and why, and how many cards the reader could not read."""

    taken: int
    not_taken: tuple[NotTaken, ...]
    unsure: int


@dataclass(frozen=True)
class ChargeDraft:
    player: PlayerId
    entry: Entry = Entry.TOTAL
    text: str = ""  # the total as typed
    cards: tuple[Card, ...] = ()  # the cards tapped, in Plaza order
    colour: Colour = Colour.RED  # the colour whose numbers are on show
    from_photo: bool = False  # filled from a photo (or kept from a corrected entry) until the
    # table changes this charge by hand
    photo: PhotoFill | None = None  # what the last photo of these cards gave, said on the field
    problem: str | None = None  # a refused tap, shown on this player's field


@dataclass(frozen=True)
class Draft:
    hand: int  # the number of the hand being entered, 1 for the first
    editing: HandPlayed | None  # the entry being corrected (G2), else None
    charges: tuple[ChargeDraft, ...]  # every seat in seat order; the winner's is ignored
    winner: PlayerId | None = None
    open: PlayerId | None = None  # whose cards are being tapped on the grid
    checked: bool = False  # a save was tried: empty fields now say what they need
    problem: str | None = None  # the rules' refusal of the whole hand

    def charge(self, player: PlayerId) -> ChargeDraft:
        return next(charge for charge in self.charges if charge.player == player)

    @property
    def losers(self) -> tuple[ChargeDraft, ...]:
        return tuple(charge for charge in self.charges if charge.player != self.winner)


def new_draft(state: PlazaState, editing: HandPlayed | None = None) -> Draft:
    """An empty form for the next hand, or one filled in from the entry being corrected."""
    hand = len(state.hands) + 1
    if editing is None:
        return Draft(hand, None, tuple(ChargeDraft(player) for player in state.seating.seats))
    entered = {charge.player: charge for charge in editing.charges}
    charges = tuple(_charge_from(entered[player]) if player in entered else ChargeDraft(player)
                    for player in state.seating.seats)
    return Draft(hand, editing, charges, winner=editing.winner)


def _charge_from(charge: Charge) -> ChargeDraft:
    if charge.cards is not None:
        cards = tuple(sorted(charge.cards))
        colour = cards[0].colour if cards else Colour.RED
        return ChargeDraft(charge.player, Entry.CARDS, cards=cards, colour=colour,
                           from_photo=charge.from_photo)
    return ChargeDraft(charge.player, text=str(charge.total), from_photo=charge.from_photo)


def is_for(draft: Draft | None, state: PlazaState, editing: HandPlayed | None) -> bool:
    """Whether a kept draft still belongs to the hand on screen (not one since saved or undone)."""
    return draft is not None and draft.hand == len(state.hands) + 1 and draft.editing == editing


# --- edits: each returns a new draft and clears the refusals it answers ---------------------

def choose_winner(draft: Draft, player: PlayerId) -> Draft:
    return replace(draft, winner=player, open=None if draft.open == player else draft.open,
                   problem=None)


def _edit(draft: Draft, player: PlayerId, **changes) -> Draft:
    """Change one player's charge; a hand-made change is no longer what a photo read."""
    charges = tuple(
        replace(charge, **changes, from_photo=False, problem=None) if charge.player == player
        else charge
        for charge in draft.charges)
    return replace(draft, charges=charges, problem=None)


def type_total(draft: Draft, player: PlayerId, text: str) -> Draft:
    return _edit(draft, player, text=text)


def enter_by(draft: Draft, player: PlayerId, entry: Entry) -> Draft:
    """Switch between a total and the cards; choosing cards opens this player's grid."""
    edited = _edit(draft, player, entry=entry)
    if entry is Entry.CARDS:
        return replace(edited, open=player)
    return replace(edited, open=None if draft.open == player else draft.open)


def open_cards(draft: Draft, player: PlayerId) -> Draft:
    return replace(draft, open=player)


def show_colour(draft: Draft, player: PlayerId, colour: Colour) -> Draft:
    charges = tuple(replace(charge, colour=colour) if charge.player == player else charge
                    for charge in draft.charges)
    return replace(draft, charges=charges)


def toggle_card(draft: Draft, player: PlayerId, card: Card) -> Draft:
    """Tap a card on or off a player's hand; a twelfth card is refused on his field (P3)."""
    held = draft.charge(player).cards
    if card not in held and len(held) >= MAX_HAND:
        charges = tuple(replace(charge, problem=f"A Plaza hand holds at most {MAX_HAND} cards "
                                                f"(P3): tap a card again to take it off.")
                        if charge.player == player else charge
                        for charge in draft.charges)
        return replace(draft, charges=charges)
    return _edit(draft, player, cards=toggled(held, card))


def toggled(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    """`cards` with `card` tapped on or off, in Plaza order."""
    return tuple(c for c in cards if c != card) if card in cards else tuple(sorted((*cards, card)))


def fill_from_photo(draft: Draft, player: PlayerId, read: tuple[Card, ...],
                    unsure: int) -> Draft:
    """Put the cards a photo shows into a player's cards, for the table to confirm with the save.

    The photo shows the whole hand, so it replaces the cards tapped so far, unless it gave no
    card at all. A card already charged to another player in this hand (P1), one read twice,
    or one past the eleventh (P3) is not taken, and the field says which and why.
    """
    charged = holders(draft, player)
    taken: list[Card] = []
    not_taken: list[NotTaken] = []
    for card in read:
        if card in charged:
            not_taken.append(NotTaken(card, Why.CHARGED, charged[card]))
        elif card in taken:
            not_taken.append(NotTaken(card, Why.TWICE))
        elif len(taken) >= MAX_HAND:
            not_taken.append(NotTaken(card, Why.FULL))
        else:
            taken.append(card)
    fill = PhotoFill(len(taken), tuple(not_taken), unsure)
    charge = draft.charge(player)
    if taken:
        cards = tuple(sorted(taken))
        charge = replace(charge, entry=Entry.CARDS, cards=cards, colour=cards[0].colour,
                         from_photo=True)
    charges = tuple(replace(charge, photo=fill, problem=None) if c.player == player else c
                    for c in draft.charges)
    return replace(draft, charges=charges, open=player, problem=None)


def refuse(draft: Draft, reason: str) -> Draft:
    return replace(draft, problem=reason)


def try_save(draft: Draft) -> Draft:
    """Mark the draft as checked, so fields still empty say what they need."""
    return replace(draft, checked=True)


# --- reading the draft -----------------------------------------------------------------------

def read_total(text: str) -> int:
    """A typed total as points, or InvalidEvent saying what is wrong with it (P3)."""
    cleaned = text.strip()
    if cleaned.startswith("-") and cleaned[1:].isdecimal():
        raise InvalidEvent("Points against cannot be negative.")
    if not cleaned.isdecimal():
        raise InvalidEvent(f"“{cleaned}” is not a whole number of points, like 17.")
    points = int(cleaned)
    if points > MAX_CHARGE:
        raise InvalidEvent(f"At most {MAX_CHARGE}: {MAX_HAND} cards hold at most "
                           f"{MAX_CHARGE} points (P3).")
    return points


def field_problem(draft: Draft, charge: ChargeDraft) -> str | None:
    """What is wrong with one player's field, if anything; empty fields only after a save try."""
    if charge.problem:
        return charge.problem
    if charge.entry is Entry.CARDS:
        missing = draft.checked and not charge.cards
        return "Tap the cards left in the hand, or enter a total." if missing else None
    if not charge.text.strip():
        return "Enter the points left in the hand, or tap the cards." if draft.checked else None
    try:
        read_total(charge.text)
    except InvalidEvent as wrong:
        return str(wrong)
    return None


def winner_problem(draft: Draft) -> str | None:
    return "Tap the player who ran out first." if draft.checked and draft.winner is None else None


def points(charge: ChargeDraft) -> int | None:
    """The points a charge stands for so far, or None while its total does not read."""
    if charge.entry is Entry.CARDS:
        return sum(card.number for card in charge.cards)
    try:
        return read_total(charge.text)
    except InvalidEvent:
        return None


def held_by_others(draft: Draft, player: PlayerId) -> frozenset[Card]:
    """Cards already charged to another player in this hand: the pack has one of each (P1)."""
    return frozenset(holders(draft, player))


def holders(draft: Draft, player: PlayerId) -> Mapping[Card, PlayerId]:
    """Each card already charged to another player in this hand, and to whom (P1)."""
    return {card: charge.player for charge in draft.losers if charge.player != player
            and charge.entry is Entry.CARDS for card in charge.cards}


def hand_event(draft: Draft) -> HandPlayed | None:
    """The hand as an event, or None while a field still needs fixing (the field says why)."""
    checked = try_save(draft)
    if draft.winner is None or any(field_problem(checked, charge) for charge in checked.losers):
        return None
    return HandPlayed(draft.winner, tuple(_charge(charge) for charge in draft.losers))


def _charge(charge: ChargeDraft) -> Charge:
    if charge.entry is Entry.CARDS:
        return Charge(charge.player, cards=charge.cards, from_photo=charge.from_photo)
    return Charge(charge.player, total=read_total(charge.text), from_photo=charge.from_photo)


def rules_verdict(state: PlazaState, event: HandPlayed, names: Mapping[str, str]) -> str | None:
    """The rules' refusal of the hand (P3), with names for player ids, or None if it may stand."""
    try:
        PLAZA.apply(state, event)
    except InvalidEvent as refused:
        return with_names(str(refused), names)
    return None


# --- what the screens print ------------------------------------------------------------------

def hand_heading(state: PlazaState, names: Mapping[str, str]) -> str:
    """'Hand 3 of 8, dealer: Ann; Bob plays first' (P2, G1)."""
    dealer, opener = PLAZA.dealer(state), PLAZA.opener(state)
    if dealer is None or opener is None:
        return f"All {state.hands_in_game} hands are played."
    return (f"Hand {len(state.hands) + 1} of {state.hands_in_game}, "
            f"dealer: {names.get(dealer, dealer)}; {names.get(opener, opener)} plays first")


def card_list(cards: tuple[Card, ...]) -> str:
    return ", ".join(str(card) for card in cards)


def photo_lines(fill: PhotoFill, names: Mapping[str, str]) -> tuple[str, ...]:
    """What a photo of a player's cards gave, said plainly on his field."""
    def cards(count: int) -> str:
        return "1 card" if count == 1 else f"{count} cards"

    def them(count: int) -> str:
        return "it" if count == 1 else "them"

    if not fill.taken and not fill.not_taken and not fill.unsure:
        return ("No cards found on this photo: tap the cards in by hand.",)
    lines = []
    if fill.taken:
        lines.append(f"{cards(fill.taken)} read from the photo: check {them(fill.taken)}, "
                     f"then record the hand.")
    if fill.not_taken:
        reasons = ", ".join(
            f"{item.card} ({item.why.value}"
            + (f" {names.get(item.holder, item.holder)})" if item.holder else ")")
            for item in fill.not_taken)
        lines.append(f"Not taken: {reasons}.")
    if fill.unsure:
        lines.append(f"{cards(fill.unsure)} could not be read: tap {them(fill.unsure)} in by hand.")
    return tuple(lines)


def describe(event: HandPlayed, names: Mapping[str, str]) -> str:
    """One history line: 'Ann ran out; Bob 17 (10 Red, 3 Green, 4 Black), Cy 17'."""
    def name(player: PlayerId) -> str:
        return names.get(player, player)

    def charged(charge: Charge) -> str:
        photo = ", from a photo" if charge.from_photo else ""
        if charge.cards is None:
            return f"{name(charge.player)} {charge.total}{photo}"
        total = sum(card.number for card in charge.cards)
        return f"{name(charge.player)} {total} ({card_list(tuple(sorted(charge.cards)))}{photo})"

    return f"{name(event.winner)} ran out; " + ", ".join(charged(c) for c in event.charges)


# --- the filling-in adviser as a tool at the table (P6) --------------------------------------

class Pile(enum.Enum):
    PLAZA = "the Plaza"
    HAND = "your hand"


PLAYS_SHOWN = 8  # a hand can have up to 2,047 legal plays; the largest few say enough


@dataclass(frozen=True)
class AdviserDraft:
    plaza: tuple[Card, ...] = ()
    hand: tuple[Card, ...] = ()
    picking: Pile = Pile.PLAZA  # which pile a tap on the grid goes to
    colour: Colour = Colour.RED

    @property
    def picked(self) -> tuple[Card, ...]:
        return self.plaza if self.picking is Pile.PLAZA else self.hand

    @property
    def elsewhere(self) -> frozenset[Card]:
        """Cards in the other pile: a card is on the Plaza or in your hand, not both (P1)."""
        return frozenset(self.hand if self.picking is Pile.PLAZA else self.plaza)


def tap_pile(adviser: AdviserDraft, card: Card) -> AdviserDraft:
    if adviser.picking is Pile.PLAZA:
        return replace(adviser, plaza=toggled(adviser.plaza, card))
    return replace(adviser, hand=toggled(adviser.hand, card))


def advice(adviser: AdviserDraft) -> tuple[str, ...]:
    """What may be filled in from the hand (P6), as lines for the table, or why not."""
    if not adviser.hand:
        return ("Tap the cards on the Plaza, then the cards in your hand.",)
    try:
        found = advise_fill_in(adviser.plaza, adviser.hand)
    except InvalidEvent as refused:
        return (str(refused),)
    if not found.largest:
        return ("Nothing in your hand can be filled in now.",)
    shown = [card_list(play) for play in found.plays[:PLAYS_SHOWN]]
    more = len(found.plays) - len(shown)
    return (f"You can fill in up to {len(found.largest)}: {card_list(found.largest)}.",
            f"Every legal play ({len(found.plays)}), largest first:",
            *shown, *([f"… and {more} more."] if more else []))
