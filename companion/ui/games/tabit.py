"""Tabit at the table (rulings B1-B3): each player's board at the end of a round, entered by
tapping its picture and letter cards or by choosing its line of the scoring table directly.

The form shows the line a tapped board makes, and its points, before it is entered; the round
closes by itself once every player of the round has a board in, and after a tie at the top at
1000 or more only the tied players are offered the extra round (B3).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from string import ascii_uppercase

import flet as ft

from companion.core.game import Event
from companion.core.types import PlayerId
from companion.games.tabit import (
    BOXES,
    TABLE_LINES,
    TARGET,
    Board,
    BoardEntered,
    Line,
    LineChosen,
    Picture,
    TabitState,
    awaiting,
    best_line,
    line_points,
    tied_at_the_top,
)
from companion.ui.games import EntryContext, GameScreen
from companion.ui.widgets import TOUCH, action, use_latest_state

LINE_KINDS = ((4, True), (3, True), (4, False), (3, False))  # the rows of the sheet's table
LINE_BUTTON_WIDTH = 108  # three to a row on a 360 px phone


@dataclass(frozen=True)
class Draft:
    """The board being entered: cards tapped so far, or a line chosen directly (None: NO SCORE)."""

    player: PlayerId | None = None  # None: the first player still to enter
    pictures: tuple[Picture, ...] = ()
    letters: tuple[str, ...] = ()
    line: Line | None = None
    line_chosen: bool = False

    @property
    def board_complete(self) -> bool:
        return len(self.pictures) == BOXES and len(self.letters) == BOXES

    def line_made(self) -> Line | None:
        """The line this entry scores (B2): the chosen one, or the tapped board's best; None
        also while the board is incomplete."""
        if self.line_chosen:
            return self.line
        return best_line(Board(self.pictures, self.letters)) if self.board_complete else None

    def event(self, player: PlayerId) -> Event | None:
        if self.line_chosen:
            return LineChosen(player, self.line)
        if self.board_complete:
            return BoardEntered(player, Board(self.pictures, self.letters))
        return None


def draft_of(event: Event | None) -> Draft:
    """The form pre-filled with an entry being corrected (G2)."""
    if isinstance(event, BoardEntered):
        return Draft(event.player, event.board.pictures, event.board.letters)
    if isinstance(event, LineChosen):
        return Draft(event.player, line=event.line, line_chosen=True)
    return Draft()


def line_text(line: Line | None) -> str:
    return "NO SCORE: 0" if line is None else line.describe()


def name_of(names: Mapping[str, str], player: PlayerId) -> str:
    return names.get(player, player)


def names_of(names: Mapping[str, str], players: tuple[PlayerId, ...]) -> str:
    return ", ".join(name_of(names, player) for player in players)


def describe(event: Event, names: Mapping[str, str]) -> str:
    """One history line: whose board, its cards when tapped, and the line it scored."""
    if isinstance(event, BoardEntered):
        cards = " ".join(picture.word for picture in event.board.pictures)
        return (f"{name_of(names, event.player)}'s board ({cards} · "
                f"{' '.join(event.board.letters)}): {line_text(best_line(event.board))}")
    if isinstance(event, LineChosen):
        return f"{name_of(names, event.player)}: {line_text(event.line)}"
    return type(event).__name__


def round_line(state: TabitState, names: Mapping[str, str]) -> str:
    """"Round 3 · Ann 500 in · to enter: Bob, Cy" and, for an extra round, who plays it (B3)."""
    parts = [f"Round {len(state.rounds) + 1} · first to {TARGET} wins"]
    parts += [f"{name_of(names, score.player)} {score.points} in" for score in state.entered]
    parts.append(f"to enter: {names_of(names, awaiting(state))}")
    text = " · ".join(parts)
    tied = tied_at_the_top(state.totals)
    if len(tied) > 1:
        who = "everyone plays it" if state.playing == state.table.seating.seats else (
            f"only {names_of(names, state.playing)} play it")
        text += f"\nExtra round: {names_of(names, tied)} share the top (B3); {who}."
    return text


def choice(label: str, on_click: Callable[[object], None], *, selected: bool,
           disabled: bool = False, width: int | None = None) -> ft.Control:
    """A tappable card or line: filled when it is the one chosen."""
    kind = ft.FilledButton if selected else ft.OutlinedButton
    return kind(label, on_click=on_click, disabled=disabled, height=TOUCH, width=width,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=4)))


@ft.component
def TabitEntry(ctx: EntryContext):
    # A fresh form after every stored entry (the log grows) and for each entry corrected.
    return BoardForm(ctx, key=f"{len(ctx.match.events)}:{ctx.editing!r}")


@ft.component
def BoardForm(ctx: EntryContext):
    state: TabitState = ctx.state
    # Taps can arrive before the re-render that gives handlers a fresh closure: every change
    # builds on the newest draft, so no tapped card is ever lost.
    latest, edit = use_latest_state(draft_of(ctx.editing))
    draft: Draft = latest.current

    to_enter = awaiting(state) if ctx.editing is None else (ctx.editing.player,)

    def player_of(d: Draft) -> PlayerId:
        return d.player if d.player in to_enter else to_enter[0]

    player = player_of(draft)

    def enter(_) -> None:
        event = latest.current.event(player_of(latest.current))
        if event is not None:
            ctx.submit(event)  # on success the log grows and a fresh form replaces this one

    def add_picture(picture: Picture) -> None:
        edit(lambda d: replace(d, pictures=(*d.pictures, picture)[:BOXES], line_chosen=False))

    def add_letter(letter: str) -> None:
        edit(lambda d: replace(d, letters=(*d.letters, letter)[:BOXES], line_chosen=False))

    def choose_line(line: Line | None) -> None:
        edit(lambda d: replace(d, pictures=(), letters=(), line=line, line_chosen=True))

    made = draft.line_made()
    decided = draft.line_chosen or draft.board_complete  # then `made` is lit up in the table
    who = name_of(ctx.names, player)
    players = ft.Row([
        choice(f"{name_of(ctx.names, p)}'s board", lambda _, p=p: edit(
            lambda d: replace(d, player=p)), selected=p == player)
        for p in to_enter
    ], wrap=True)
    pictures = ft.Row([
        choice(picture.word, lambda _, p=picture: add_picture(p), selected=False,
               disabled=len(draft.pictures) == BOXES, width=2 * TOUCH)
        for picture in Picture
    ] + [action("Clear pictures", lambda _: edit(lambda d: replace(d, pictures=())))], wrap=True)
    letters = ft.Row([
        choice(letter, lambda _, c=letter: add_letter(c), selected=False, width=TOUCH,
               disabled=len(draft.letters) == BOXES)
        for letter in ascii_uppercase
    ] + [action("Clear letters", lambda _: edit(lambda d: replace(d, letters=())))],
        wrap=True, spacing=4, run_spacing=4)

    def line_button(line: Line | None) -> ft.Control:
        label = "No score 0" if line is None else f"{line.picture.word} {line.points}"
        return choice(label, lambda _: choose_line(line), selected=decided and made == line,
                      width=LINE_BUTTON_WIDTH)

    table = [
        ft.Column([
            ft.Text(f"{count} pictures {'with the word' if word else 'without the word'}"),
            ft.Row([line_button(line) for line in TABLE_LINES
                    if (line.pictures, line.with_word) == (count, word)], wrap=True, spacing=4),
        ], spacing=2)
        for count, word in LINE_KINDS
    ]
    event = draft.event(player)
    verb = "Save" if ctx.editing is not None else "Enter"
    return ft.Column([
        *([] if ctx.editing is not None else [ft.Text(round_line(state, ctx.names), size=16)]),
        players,
        ft.Text(f"{who}'s board: {' '.join(p.word for p in draft.pictures) or '—'} · "
                f"{' '.join(draft.letters) or '—'}", size=16),
        ft.Text(preview(draft), size=18, weight=ft.FontWeight.BOLD),
        action(f"{verb} {who}'s board: {line_points(made)}" if event else
               f"{verb} {who}'s board", enter, primary=True, disabled=event is None),
        ft.Text("Picture cards", size=16, weight=ft.FontWeight.BOLD),
        pictures,
        ft.Text("Letter cards", size=16, weight=ft.FontWeight.BOLD),
        letters,
        ft.Text("Or choose the line of the table directly", size=16, weight=ft.FontWeight.BOLD),
        *table,
        line_button(None),
    ])


def preview(draft: Draft) -> str:
    """What the entry will score, or what is still missing from the tapped board."""
    if draft.line_chosen:
        return f"Line chosen: {line_text(draft.line)}"
    if draft.board_complete:
        return f"The board makes {line_text(draft.line_made())}"
    return (f"Tap {BOXES - len(draft.pictures)} more picture(s) and "
            f"{BOXES - len(draft.letters)} more letter(s), or choose a line below.")


RULES_CARD = f"""\
**Tabit** — 2 to 4 players; first to {TARGET} points wins.

- A round ends when the TABIT card is drawn. Then each player scores his **board**: the four
  picture boxes and four letter boxes. The two cards in his hand do not count (B1).
- A board scores its **single best line** of the table below (B2); anything else is NO SCORE
  (0). "With the word" means the four letter boxes hold exactly the word's letters, in any
  order: M O O N, S T A R, T R E E.
- The deal passes to the left every round; the player left of the dealer draws first (G1).
- The game ends after a round in which the highest total is {TARGET} or more and belongs to one
  player alone: he wins (B3). If two or more share that highest total, another round is played:
  by default only the tied players play it (house rule "whole table plays tie round" deals
  everyone in). There is never a shared win in Tabit.
- Enter each board by tapping its cards (the app finds the best line) or by choosing the line.
  Any entry can be undone, or corrected later from the history; totals follow at once (G2).

| | MOON | STAR | TREE |
|---|---|---|---|
| 4 pictures + word | 500 | 400 | 300 |
| 3 pictures + word | 400 | 300 | 200 |
| 4 pictures, no word | 200 | 100 | 100 |
| 3 pictures, no word | 150 | 50 | 25 |
"""

TABIT_SCREEN = GameScreen(entry=TabitEntry, describe=describe, rules_card=RULES_CARD)
