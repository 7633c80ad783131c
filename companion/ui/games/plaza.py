"""Plaza at the table (issue 4): who ran out, then what every other player still held.

Each other player's charge is typed as a total or tapped card by card: pick a colour, then tap
the numbers (a 5 x 12 grid shown one colour at a time, so every cell keeps a 48 px target on a
phone), or read from a photo of the hand and then checked (issue 6). A card already charged to
someone else in this hand is disabled (P1, P3). The form's logic is in plaza_draft.py; this
module only draws it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

import flet as ft

from companion.core.types import PlayerId
from companion.games.plaza import Card, Colour, PlazaState
from companion.games.plaza_cards import COLOURS, NUMBERS
from companion.ui.games import EntryContext, GameScreen
from companion.ui.games.plaza_draft import (
    AdviserDraft,
    ChargeDraft,
    Draft,
    Entry,
    Pile,
    advice,
    card_list,
    choose_winner,
    describe,
    enter_by,
    field_problem,
    fill_from_photo,
    hand_event,
    hand_heading,
    held_by_others,
    is_for,
    new_draft,
    open_cards,
    photo_lines,
    points,
    refuse,
    rules_verdict,
    show_colour,
    tap_pile,
    toggle_card,
    try_save,
    type_total,
    winner_problem,
)
from companion.ui.photo_tool import PhotoTool
from companion.ui.plaza_photo import HandPhoto, PlazaPhotoCheck, read_hand_photo, saved_deck
from companion.ui.widgets import TOUCH, action, typed_text
from storage.deck_profile import DeckProfileStore

# The colours of the pack, so a colour button looks like the cards it stands for.
SWATCHES = {
    Colour.RED: ft.Colors.RED_600,
    Colour.GREEN: ft.Colors.GREEN_600,
    Colour.YELLOW: ft.Colors.AMBER_400,
    Colour.BROWN: ft.Colors.BROWN_400,
    Colour.BLACK: ft.Colors.BLACK,
}
CELL_WIDTH = 52  # six numbers to a line within 340 px
PHOTO_WIDTH = 120  # the annotated hand photo, small beside what it gave

Edit = Callable[[Callable[[Draft], Draft]], None]


def problem_text(message: str | None) -> list[ft.Control]:
    return [ft.Text(message, color=ft.Colors.ERROR, size=16)] if message else []


def colour_button(colour: Colour, count: int, picked: bool, on_click) -> ft.Control:
    kind = ft.FilledButton if picked else ft.OutlinedButton
    label = f"{colour} · {count}" if count else str(colour)
    swatch = ft.Container(width=16, height=16, bgcolor=SWATCHES[colour], border_radius=8,
                          border=ft.Border.all(1, ft.Colors.OUTLINE))
    return kind(content=ft.Row([swatch, ft.Text(label)], tight=True, spacing=6),
                on_click=on_click, height=TOUCH)


def card_cell(card: Card, held: bool, taken: bool, on_click) -> ft.Control:
    """One number of the open colour; its accessible name is the card, e.g. '7 Red'."""
    kind = ft.FilledButton if held else ft.OutlinedButton
    return kind(content=ft.Text(str(card.number), semantics_label=str(card), size=18),
                on_click=on_click, disabled=taken, width=CELL_WIDTH, height=TOUCH,
                style=ft.ButtonStyle(padding=0))


def card_picker(colour: Colour, chosen: tuple[Card, ...], unavailable: frozenset[Card],
                on_colour: Callable[[Colour], None], on_card: Callable[[Card], None]) -> ft.Control:
    """The 5 x 12 grid, one colour at a time: five colour buttons, then that colour's numbers."""
    counts = {c: sum(card.colour is c for card in chosen) for c in COLOURS}
    return ft.Column([
        ft.Row([colour_button(c, counts[c], c is colour, lambda _, c=c: on_colour(c))
                for c in COLOURS], wrap=True, spacing=6, run_spacing=6),
        ft.Row([card_cell(card, card in chosen, card in unavailable,
                          lambda _, card=card: on_card(card))
                for card in (Card(colour, number) for number in NUMBERS)],
               wrap=True, spacing=4, run_spacing=4),
    ])


def hand_photo(charge: ChargeDraft, names: Mapping[str, str], edit: Edit,
               deck_store: DeckProfileStore) -> ft.Control:
    """Read a player's cards from a photo (by the deck taught in `deck_store`, if any): they
    fill his cards, to be checked before the save."""
    player, name = charge.player, names.get(charge.player, charge.player)

    def show(photo: HandPhoto) -> list[ft.Control]:
        if charge.photo is None:  # the form was cleared since this photo was read
            return []
        return [ft.Row([
            ft.Image(src=photo.picture, width=PHOTO_WIDTH, fit=ft.BoxFit.CONTAIN,
                     semantics_label=f"The photo of {name}'s cards, each card outlined"),
            ft.Column([ft.Text(line) for line in photo_lines(charge.photo, names)],
                      expand=True),
        ], vertical_alignment=ft.CrossAxisAlignment.START)]

    return PhotoTool(f"Read {name}'s cards from a photo",
                     lambda data: read_hand_photo(data, saved_deck(deck_store)), show=show,
                     on_result=lambda photo: edit(
                         lambda d: fill_from_photo(d, player, photo.cards, photo.unsure)))


def charge_section(draft: Draft, charge: ChargeDraft, names: Mapping[str, str],
                   edit: Edit, deck_store: DeckProfileStore) -> ft.Control:
    """One loser's line: his points so far, how they are entered, and the field or the cards."""
    player, by_cards = charge.player, charge.entry is Entry.CARDS
    name = names.get(player, player)
    so_far = points(charge)
    problem = field_problem(draft, charge)
    if by_cards:
        field: list[ft.Control] = [
            hand_photo(charge, names, edit, deck_store),  # first: its place, so its state, stays put
            ft.Text(card_list(charge.cards) if charge.cards else "No cards tapped yet."),
            *problem_text(problem),
            *([ft.Text(f"{name}'s cards: pick a colour, then tap the numbers."),
               card_picker(charge.colour, charge.cards, held_by_others(draft, player),
                           lambda c: edit(lambda d: show_colour(d, player, c)),
                           lambda card: edit(lambda d: toggle_card(d, player, card)))]
              if draft.open == player else
              [action(f"Tap {name}'s cards", lambda _: edit(lambda d: open_cards(d, player)))]),
        ]
    else:
        def total_typed(event) -> None:
            text = typed_text(event)
            edit(lambda d: type_total(d, player, text))

        field = [ft.TextField(
            label=f"{name}'s points against", value=charge.text, error=problem,
            keyboard_type=ft.KeyboardType.NUMBER, on_change=total_typed)]
    return ft.Column([
        ft.Text(f"{name}: {so_far} against" if so_far is not None else name, size=18,
                weight=ft.FontWeight.BOLD),
        ft.Row([
            action(f"{name}: total", lambda _: edit(lambda d: enter_by(d, player, Entry.TOTAL)),
                   primary=not by_cards),
            action(f"{name}: cards left",
                   lambda _: edit(lambda d: enter_by(d, player, Entry.CARDS)), primary=by_cards),
        ], wrap=True),
        *field,
    ], key=player)


@ft.component
def FillInAdviser():
    """P6 as a tool during a hand: tap the Plaza and your hand, see every legal play."""
    adviser, set_adviser = ft.use_state(AdviserDraft())

    def change(edit: Callable[[AdviserDraft], AdviserDraft]) -> None:
        set_adviser(edit)  # applied to the latest taps, never to a stale render's copy

    def pile_button(pile: Pile, cards: tuple[Card, ...]) -> ft.Control:
        label = f"Tap {pile.value}" + (f" · {len(cards)}" if cards else "")
        return action(label, lambda _: change(lambda a: replace(a, picking=pile)),
                      primary=adviser.picking is pile)

    return ft.Column([
        ft.Text("Filling-in adviser", size=18, weight=ft.FontWeight.BOLD),
        ft.Row([pile_button(Pile.PLAZA, adviser.plaza), pile_button(Pile.HAND, adviser.hand)],
               wrap=True),
        ft.Text(f"On the Plaza: {card_list(adviser.plaza) or 'nothing yet'}"),
        ft.Text(f"In your hand: {card_list(adviser.hand) or 'nothing yet'}"),
        card_picker(adviser.colour, adviser.picked, adviser.elsewhere,
                    lambda c: change(lambda a: replace(a, colour=c)),
                    lambda card: change(lambda a: tap_pile(a, card))),
        *(ft.Text(line) for line in advice(adviser)),
        action("Clear the adviser", lambda _: set_adviser(AdviserDraft())),
    ])


@ft.component
def PlazaEntry(context: EntryContext):
    state: PlazaState = context.state
    kept, set_kept = ft.use_state(None)
    advising, set_advising = ft.use_state(False)
    checking_photo, set_checking_photo = ft.use_state(False)
    # The draft as last edited, read by save: a tap can arrive before the re-render that would
    # give save a fresh closure, and the number typed last must never be lost.
    latest = ft.use_ref(None)

    def current(candidate: Draft | None) -> Draft:
        """The kept draft while it is for this hand; a fresh (or pre-filled) one otherwise."""
        return candidate if is_for(candidate, state, context.editing) \
            else new_draft(state, context.editing)

    def edit(change: Callable[[Draft], Draft]) -> None:
        def step(previous: Draft | None) -> Draft:
            latest.current = change(current(previous))
            return latest.current
        set_kept(step)

    def save(_) -> None:
        event = hand_event(current(latest.current))
        if event is None:
            edit(try_save)  # the fields now say what they need
            return
        refusal = rules_verdict(state, event, context.names)
        if refusal:
            edit(lambda d: refuse(d, refusal))
            return
        if context.submit(event):  # on disk: only now is the form cleared for the next hand
            latest.current = None
            set_kept(None)

    draft = current(kept)

    def name(player: PlayerId) -> str:
        return context.names.get(player, player)

    correcting = context.editing is not None
    return ft.Column([
        ft.Text(hand_heading(state, context.names), size=18, weight=ft.FontWeight.BOLD),
        ft.Text("Who ran out first?"),
        ft.Row([action(f"{name(player)} ran out",
                       lambda _, p=player: edit(lambda d: choose_winner(d, p)),
                       primary=player == draft.winner)
                for player in state.seating.seats], wrap=True),
        *problem_text(winner_problem(draft)),
        *([charge_section(draft, charge, context.names, edit, context.services.deck_profile)
           for charge in draft.losers]
          if draft.winner else [ft.Text("Then enter what each other player still holds.")]),
        *problem_text(draft.problem),
        action(f"Save corrected hand {draft.hand}" if correcting else f"Record hand {draft.hand}",
               save, primary=True),
        *([] if correcting else [
            action("Hide the adviser" if advising else "Filling-in adviser",
                   lambda _: set_advising(not advising)),
            *([FillInAdviser()] if advising else []),
            action("Hide the photo check" if checking_photo else "Check the Plaza from a photo",
                   lambda _: set_checking_photo(not checking_photo)),
            *([PlazaPhotoCheck(context.services.deck_profile)] if checking_photo else []),
        ]),
    ])


RULES_CARD = """\
## Plaza: the rules in our words

**The pack** has 60 cards: five colours (Red, Green, Yellow, Brown, Black), each numbered 1 to
12, one card of each (P1).

**A game** has two hands per player: everyone deals twice, the deal passing to the left
(P2, G1). The player at the dealer's left plays first. A house rule may set how many times each
player deals.

**A turn** is draw, play, discard. Draw the top card of the pack or of the discard pile; play
runs of three or more of one colour in a row, columns of three or more of one number, or fill
cards in; then discard one card. On the turn you run out, your last card goes to the Plaza and
you do not discard.

**The Plaza** is a grid, one row per colour and one column per number. It is legal when every
card on it is in a run of three or more consecutive numbers of its colour (no gap), or in a
column of three or more cards of its number (gaps in a column do not matter) (P5). You may fill
in any set of cards from your hand that leaves every card on the Plaza legal (P6).

**Scoring a hand.** The first player to run out wins the hand and is charged nothing. Every
other player is charged the sum of the numbers left in his hand: 10, 3 and 4 is 17 against
(P3). Enter it as a total, or tap the cards themselves: a hand holds at most 11 cards, and no
card can be charged twice in one hand, since the pack has one of each.

**Winning.** After the last hand, the fewest points against wins (P4). Players tied for the
fewest all win (G3).

**At the table.** Undo takes back the last entry; any past hand can be corrected, and every
total follows the corrected record (G2). A game can be abandoned: it stays in the history and
counts in no statistics (G4).
"""

PLAZA_SCREEN = GameScreen(entry=PlazaEntry, describe=describe, rules_card=RULES_CARD)
