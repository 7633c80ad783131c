"""Tableau at the table: tokens per player, calls (T3, T4), the round's end with a preview of
its settlement (T6), the next round with the next dealer (T7), and stopping the table.

The form keeps a draft (which player is called, who won the round, the typed counts); only an
event that submit stored is shown as accepted, and then the draft starts afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import flet as ft

from companion.core.errors import InvalidEvent
from companion.core.game import Event
from companion.core.types import PlayerId
from companion.games.tableau import (
    PIECES_PER_PICTURE,
    TABLEAU,
    Call,
    RoundWon,
    TableauState,
    TableStops,
    TitlesDealt,
    WrongPieces,
)
from companion.ui.games import EntryContext, GameScreen
from companion.ui.widgets import action, number_field, use_latest_state, whole_number_problem

Names = Callable[[PlayerId], str]
Changer = Callable[[Callable[["Draft"], "Draft"]], None]  # change(lambda draft: new draft)
Sender = Callable[[Callable[["Draft"], Event | None]], None]  # send(lambda draft: event)


@dataclass(frozen=True)
class Draft:
    """What the form holds before it is submitted."""

    ending: bool = False  # the round-end panel is open
    called: PlayerId | None = None  # the player whose piece is being called
    winner: PlayerId | None = None
    counts: tuple[tuple[PlayerId, str], ...] = ()  # the wrong pieces as typed, per player

    def count_text(self, player: PlayerId) -> str:
        return dict(self.counts).get(player, "")

    def with_count(self, player: PlayerId, text: str) -> Draft:
        others = tuple(pair for pair in self.counts if pair[0] != player)
        return replace(self, counts=(*others, (player, text)))


def draft_for(event: Event | None) -> Draft:
    """The draft that shows `event` again, for correcting it (G2)."""
    if isinstance(event, Call):
        return Draft(called=event.called)
    if isinstance(event, RoundWon):
        return Draft(ending=True, winner=event.winner,
                     counts=tuple((entry.player, str(entry.count)) for entry in event.wrong_pieces))
    return Draft()


def plural(count: int, thing: str) -> str:
    return f"{count} {thing}" if abs(count) == 1 else f"{count} {thing}s"


def tokens(count: int) -> str:
    return plural(count, "token")


def balance_text(balance: int) -> str:
    """A balance as a player reads it: a negative one is owed (T5)."""
    return tokens(balance) if balance >= 0 else f"owes {tokens(-balance)}"


def called_player(draft: Draft, others: tuple[PlayerId, ...]) -> PlayerId:
    """The chosen player if he can be called now, else the caller's left-hand neighbour."""
    return draft.called if draft.called in others else others[0]


def count_problems(draft: Draft, players: tuple[PlayerId, ...]) -> Mapping[PlayerId, str]:
    """What is wrong with each typed count; a field left empty has no message yet."""
    problems = {}
    for player in players:
        text = draft.count_text(player)
        problem = whole_number_problem(text, 0, PIECES_PER_PICTURE) if text.strip() else None
        if problem:
            problems[player] = problem
    return problems


def round_won(draft: Draft, state: TableauState) -> RoundWon | None:
    """The round end the draft describes, or None while a winner or a valid count is missing."""
    if draft.winner is None:
        return None
    others = state.table.seating.others(draft.winner)
    if count_problems(draft, others) or any(not draft.count_text(p).strip() for p in others):
        return None
    return RoundWon(draft.winner, tuple(
        WrongPieces(player, int(draft.count_text(player))) for player in others))


@dataclass(frozen=True)
class SettlementLine:
    player: PlayerId
    wrong_pieces: int | None  # None for the round's winner
    change: int  # tokens the settlement moves to (+) or from (-) this player
    total: int  # balance after the settlement; negative is owed (T5)
    unpaid: int  # what the settlement asked and could not be paid (allow_debt off, T5)


def settlement(state: TableauState, event: RoundWon) -> tuple[SettlementLine, ...]:
    """The preview: `event` applied to the state without recording it (T6); InvalidEvent if the
    rules refuse it."""
    after = TABLEAU.apply(state, event)
    return tuple(
        SettlementLine(line.player, line.wrong_pieces, line.total - before, line.total,
                       after.unpaid(line.player) - state.unpaid(line.player))
        for line, before in zip(after.rounds[-1].players, state.tokens, strict=True)
    )


def settlement_text(line: SettlementLine, name: Names) -> str:
    wrong = "won the round" if line.wrong_pieces is None else f"{line.wrong_pieces} wrong"
    unpaid = f" ({tokens(line.unpaid)} unpaid)" if line.unpaid else ""
    # Plain words: the web client's fonts have no arrow glyph.
    return f"{name(line.player)}: {wrong}, {line.change:+d}, now {balance_text(line.total)}{unpaid}"


def token_rows(state: TableauState, name: Names) -> ft.Control:
    """Every player's tokens; an owed balance stands out (T5)."""
    debt_off = not state.table.options.allow_debt
    rows = []
    for player, balance in state.balances().items():
        unpaid = state.unpaid(player) if debt_off else 0
        rows.append(ft.Text(
            f"{name(player)}: {balance_text(balance)}"
            + (f" · {tokens(unpaid)} unpaid" if unpaid else ""),
            size=18, color=ft.Colors.ERROR if balance < 0 else None,
            weight=ft.FontWeight.BOLD if balance < 0 else None))
    return ft.Column(rows, spacing=2)


def forfeit_hint(state: TableauState, caller: PlayerId, called: PlayerId, name: Names) -> str:
    """What a no-fit would cost (T4), and what happens when the caller has no tokens (T5)."""
    hint = f"Fit: no tokens move. No fit: {name(caller)} pays {name(called)} 1 token"
    if state.balance(caller) > 0:
        return hint + "."
    if state.table.options.allow_debt:
        return hint + f" and owes it ({name(caller)} has no tokens left)."
    return hint + ", but has none: it is recorded as unpaid."


def calls_panel(state: TableauState, draft: Draft, name: Names, change: Changer,
                send: Sender) -> list[ft.Control]:
    caller = TABLEAU.to_act(state)
    others = state.table.seating.others(caller)
    called = called_player(draft, others)
    stop = [action("Stop the table: game over", lambda _: send(lambda _draft: TableStops()))] \
        if state.rounds and not state.round_in_play else []  # T7: only between rounds
    return [
        ft.Text(f"{name(caller)} calls a piece from", size=18, weight=ft.FontWeight.BOLD),
        ft.Row([action(f"From {name(player)}", lambda _, p=player: change(lambda d: replace(d, called=p)),
                       primary=player == called) for player in others], wrap=True),
        ft.Text(forfeit_hint(state, caller, called, name)),
        ft.Row([
            action("Fit", lambda _: send(lambda d: Call(caller, called_player(d, others), True)),
                   primary=True),
            action("No fit", lambda _: send(lambda d: Call(caller, called_player(d, others), False))),
        ], wrap=True),
        ft.Row([action("Round won: settle it", lambda _: change(lambda d: replace(d, ending=True))),
                *stop], wrap=True),
    ]


def round_end_panel(state: TableauState, draft: Draft, name: Names,
                    change: Changer,
                    send: Sender) -> list[ft.Control]:
    seating = state.table.seating
    controls: list[ft.Control] = [
        ft.Text("Who completed the picture first?", size=18, weight=ft.FontWeight.BOLD),
        ft.Row([action(f"Won by {name(player)}",
                       lambda _, p=player: change(lambda d: replace(d, winner=p)),
                       primary=player == draft.winner) for player in seating.seats], wrap=True),
    ]
    if draft.winner is not None:
        others = seating.others(draft.winner)
        problems = count_problems(draft, others)
        controls.append(ft.Text(f"Missing or wrong pieces (0–{PIECES_PER_PICTURE}); "
                                f"each pays {name(draft.winner)} one token per piece (T6)."))
        controls += [
            number_field(f"{name(player)}: missing or wrong pieces", draft.count_text(player),
                         lambda text, p=player: change(lambda d: d.with_count(p, text)),
                         problems.get(player))
            for player in others
        ]
    event = round_won(draft, state)
    preview: list[ft.Control] = []
    if draft.winner is not None and event is None:
        missing = [name(player) for player in seating.others(draft.winner)
                   if not draft.count_text(player).strip()]
        if missing:
            preview = [ft.Text(f"Still to count: {', '.join(missing)}.")]
    if event is not None:
        try:
            lines = settlement(state, event)
        except InvalidEvent as refused:
            preview = [ft.Text(str(refused), color=ft.Colors.ERROR)]
        else:
            preview = [ft.Text("Settlement", size=18, weight=ft.FontWeight.BOLD),
                       *(ft.Text(settlement_text(line, name), size=16,
                                 color=ft.Colors.ERROR if line.total < 0 else None)
                         for line in lines)]
    return [
        *controls,
        *preview,
        ft.Row([
            action("Confirm the round", lambda _: send(lambda d: round_won(d, state)),
                   primary=True, disabled=event is None),
            action("Back to calls", lambda _: change(lambda d: replace(d, ending=False))),
        ], wrap=True),
    ]


@ft.component
def TableauEntry(context: EntryContext):
    state: TableauState = context.state
    latest, change = use_latest_state(draft_for(context.editing))
    draft: Draft = latest.current

    def name(player: PlayerId) -> str:
        return context.names.get(player, player)

    def send(make: Callable[[Draft], Event | None]) -> None:
        """Build the event from the newest draft and submit it; a stored entry clears the draft."""
        event = make(latest.current)
        if event is not None and context.submit(event):
            change(lambda _: Draft())

    panel = round_end_panel if draft.ending else calls_panel
    return ft.Column([
        ft.Text(f"Round {len(state.rounds) + 1}: {plural(len(state.calls), 'call')} so far",
                size=16),
        token_rows(state, name),
        *panel(state, draft, name, change, send),
    ])


def tableau_entry(context: EntryContext) -> ft.Control:
    # Keyed, so the draft survives a message appearing above the form; a correction of another
    # entry gets a fresh form (the position in the game and the event tell them apart).
    state: TableauState = context.state
    key = f"tableau:{len(state.rounds)}:{len(state.calls)}:{context.editing!r}" \
        if context.editing is not None else "tableau"
    return TableauEntry(context, key=key)


def describe(event: Event, names: Mapping[str, str]) -> str:
    def name(player: PlayerId) -> str:
        return names.get(player, player)

    if isinstance(event, Call):
        result = "fit" if event.fit else \
            f"no fit, {name(event.caller)} forfeits 1 token to {name(event.called)}"
        checked = " (photo overruled)" if event.overridden else ""
        return f"{name(event.caller)} called a piece from {name(event.called)}: {result}{checked}"
    if isinstance(event, RoundWon):
        counts = ", ".join(f"{name(entry.player)} {entry.count}" for entry in event.wrong_pieces)
        return f"Round won by {name(event.winner)}; wrong pieces: {counts}"
    if isinstance(event, TitlesDealt):
        return "Title cards: " + ", ".join(f"{name(title.player)} {title.picture}"
                                           for title in event.titles)
    if isinstance(event, TableStops):
        return "The table stopped: most tokens wins"
    return type(event).__name__


RULES_CARD = f"""\
**Tableau** — each player assembles a {PIECES_PER_PICTURE}-piece picture, 4 × 4.

- Everyone starts with the same tokens (20 unless the table chose otherwise, T2).
- The dealer calls first, then each player to the left, one call per turn (T3).
- A call names one piece in another player's rectangle. **Fit** (joined on one full side, right
  way up, next to a piece of the caller's picture): the caller keeps it and gives a piece back;
  no tokens move. **No fit**: the piece goes back with a forfeit of one token (T4).
- A player with no tokens still pays and then owes: the balance goes below zero and is shown
  as owed. With the house rule "allow debt" off, the balance stops at zero and the rest is
  recorded as unpaid (T5).
- The first player to complete his picture wins the round and collects, from every other
  player, one token per missing or wrong piece, 0 to {PIECES_PER_PICTURE} each (T6). The screen
  shows the settlement before you confirm it.
- The next round is dealt by the next player to the left. The table may stop after any round;
  most tokens wins, and a tie shares the win (T7, G3).
"""

TABLEAU_SCREEN = GameScreen(entry=tableau_entry, describe=describe, rules_card=RULES_CARD)
