"""Tableau at the table: tokens per player, the round's title cards, calls (T3, T4), the round's
end with a preview of its settlement (T6), the next round with the next dealer (T7), and
stopping the table.

Photo checks (issue 7): the title cards are chosen from a stored picture set, so a call can be
checked from a photo against the caller's picture, and a player's rectangle counted from a photo
against his own. The photo's verdict only pre-selects: the players confirm or overrule it with
the usual taps, and the call records what the photo said (PhotoCheck), so an overrule shows.

The form keeps a draft (which player is called, the photo's verdict, who won the round, the
typed counts); only an event that submit stored is shown as accepted, and then the draft starts
afresh.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

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
    TitleCard,
    TitlesDealt,
    WrongPieces,
)
from companion.ui.games import EntryContext, GameScreen
from companion.ui.photo_tool import PhotoTool
from companion.ui.tableau_photo import (
    CountCheck,
    FitCheck,
    check_call_photo,
    count_from_photo,
    picture_of,
    verdict_words,
)
from companion.ui.widgets import action, number_field, use_latest_state, whole_number_problem
from storage.model import NotFound
from storage.pictures import DamagedPicture, PictureStore, StoredSet
from vision.photo import UnreadablePhoto

Names = Callable[[PlayerId], str]
Changer = Callable[[Callable[["Draft"], "Draft"]], None]  # change(lambda draft: new draft)
Sender = Callable[[Callable[["Draft"], Event | None]], None]  # send(lambda draft: event)


Panel = Literal["calls", "titles", "round-end"]


def _with(pairs: tuple[tuple[PlayerId, Any], ...], player: PlayerId,
          value: Any) -> tuple[tuple[PlayerId, Any], ...]:
    """Per-player pairs with `player`'s value set (replacing an older one)."""
    return (*(pair for pair in pairs if pair[0] != player), (player, value))


@dataclass(frozen=True)
class Draft:
    """What the form holds before it is submitted."""

    panel: Panel = "calls"
    called: PlayerId | None = None  # the player whose piece is being called
    fit: FitCheck | None = None  # the photo check of this call; recorded with it
    picture_set: str | None = None  # the set the title cards are chosen from
    titles: tuple[tuple[PlayerId, str], ...] = ()  # the title card chosen per player
    winner: PlayerId | None = None
    counts: tuple[tuple[PlayerId, str], ...] = ()  # the wrong pieces as typed, per player
    photo_counts: tuple[tuple[PlayerId, int], ...] = ()  # what a photo counted (T6)
    count_checks: tuple[tuple[PlayerId, CountCheck], ...] = ()  # what each photo showed

    def count_text(self, player: PlayerId) -> str:
        return dict(self.counts).get(player, "")

    def with_count(self, player: PlayerId, text: str) -> Draft:
        return replace(self, counts=_with(self.counts, player, text))

    def with_count_check(self, player: PlayerId, check: CountCheck) -> Draft:
        """A photo's count shown; a sure one fills the player's count, for confirmation."""
        shown = replace(self, count_checks=_with(self.count_checks, player, check))
        if not check.sure:
            return shown
        return replace(shown.with_count(player, str(check.to_pay)),
                       photo_counts=_with(self.photo_counts, player, check.to_pay))

    def from_photo(self, player: PlayerId, count: int) -> bool:
        """The count to record is the one a photo gave (not typed over)."""
        return dict(self.photo_counts).get(player) == count


def draft_for(event: Event | None) -> Draft:
    """The draft that shows `event` again, for correcting it (G2)."""
    if isinstance(event, Call):
        return Draft(called=event.called,
                     fit=None if event.photo is None else FitCheck(event.photo, weaker=False))
    if isinstance(event, RoundWon):
        return Draft(panel="round-end", winner=event.winner,
                     counts=tuple((entry.player, str(entry.count)) for entry in event.wrong_pieces),
                     photo_counts=tuple((entry.player, entry.count)
                                        for entry in event.wrong_pieces if entry.from_photo))
    if isinstance(event, TitlesDealt):
        return Draft(panel="titles",
                     titles=tuple((title.player, title.picture) for title in event.titles))
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
    counts = {player: int(draft.count_text(player)) for player in others}
    return RoundWon(draft.winner, tuple(
        WrongPieces(player, count, from_photo=draft.from_photo(player, count))
        for player, count in counts.items()))


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


@dataclass(frozen=True)
class Pictures:
    """The stored picture sets and this round's title cards: which picture each player makes."""

    store: PictureStore
    sets: tuple[StoredSet, ...]
    titles: tuple[TitleCard, ...]

    def known(self, player: PlayerId) -> bool:
        return picture_of(player, self.titles, self.sets) is not None

    def picture(self, player: PlayerId) -> bytes | None:
        """The stored picture of `player` (None: no title card names one). Read off the UI
        loop, with the photo; a damaged file is told like an unreadable photo."""
        source = picture_of(player, self.titles, self.sets)
        if source is None:
            return None
        try:
            return self.store.picture(*source)
        except (DamagedPicture, NotFound) as problem:
            raise UnreadablePhoto(str(problem)) from None

    def required(self, player: PlayerId) -> bytes:
        picture = self.picture(player)
        if picture is None:  # the button is not offered then; said plainly if it ever is
            raise UnreadablePhoto("No picture is recorded for this player.")
        return picture


def fit_buttons(draft: Draft, send_call: Callable[[bool], None]) -> ft.Control:
    """Fit and No fit; a photo's firm verdict pre-selects one, an unsure one neither."""
    verdict = True if draft.fit is None else draft.fit.photo.verdict
    return ft.Row([action("Fit", lambda _: send_call(True), primary=verdict is True),
                   action("No fit", lambda _: send_call(False), primary=verdict is False)],
                  wrap=True)


def fit_photo(state: TableauState, caller: PlayerId, draft: Draft, pictures: Pictures,
              name: Names, change: Changer) -> list[ft.Control]:
    """Check the call with a photo against the caller's picture: the called piece must fit into
    the picture he is building (T4)."""
    controls: list[ft.Control] = [PhotoTool(
        "Check with a photo", read=lambda data: check_call_photo(data, pictures.picture(caller)),
        on_result=lambda check: change(lambda d: replace(d, fit=check)),
        key=f"fit:{len(state.rounds)}:{len(state.calls)}")]
    weaker = draft.fit.weaker if draft.fit is not None else not pictures.known(caller)
    if weaker:
        controls.append(ft.Text(f"No title card names a stored picture for {name(caller)}: "
                                "a photo check judges the shapes only, so its verdict is "
                                "weaker.", italic=True))
    if draft.fit is not None:
        controls.append(ft.Text(verdict_words(draft.fit.photo), size=16,
                                weight=ft.FontWeight.BOLD))
        if draft.fit.picture is not None:
            controls.append(ft.Image(src=draft.fit.picture, fit=ft.BoxFit.CONTAIN,
                                     semantics_label="The photo, the pieces outlined and the "
                                                     "verdict written on it"))
    return controls


def calls_panel(state: TableauState, draft: Draft, name: Names, change: Changer,
                send: Sender, pictures: Pictures) -> list[ft.Control]:
    caller = TABLEAU.to_act(state)
    others = state.table.seating.others(caller)
    called = called_player(draft, others)
    stop = [action("Stop the table: game over", lambda _: send(lambda _draft: TableStops()))] \
        if state.rounds and not state.round_in_play else []  # T7: only between rounds
    titles = [] if state.titles else [
        action("Record the title cards", lambda _: change(lambda d: replace(d, panel="titles")))]

    def send_call(fit: bool) -> None:
        send(lambda d: Call(caller, called_player(d, others), fit,
                            None if d.fit is None else d.fit.photo))

    return [
        ft.Text(f"{name(caller)} calls a piece from", size=18, weight=ft.FontWeight.BOLD),
        ft.Row([action(f"From {name(player)}", lambda _, p=player: change(lambda d: replace(d, called=p)),
                       primary=player == called) for player in others], wrap=True),
        ft.Text(forfeit_hint(state, caller, called, name)),
        fit_buttons(draft, send_call),
        *fit_photo(state, caller, draft, pictures, name, change),
        ft.Row([action("Round won: settle it",
                       lambda _: change(lambda d: replace(d, panel="round-end"))),
                *titles, *stop], wrap=True),
    ]


def chosen_set(draft: Draft, sets: tuple[StoredSet, ...]) -> StoredSet | None:
    """The set the title cards are being chosen from: the one picked, else the first."""
    return next((entry for entry in sets if entry.id == draft.picture_set), sets[0] if sets else None)


def titles_dealt(draft: Draft, state: TableauState) -> TitlesDealt | None:
    """The title cards the draft describes, or None while a player has none."""
    chosen = dict(draft.titles)
    seats = state.table.seating.seats
    if any(player not in chosen for player in seats):
        return None
    return TitlesDealt(tuple(TitleCard(player, chosen[player]) for player in seats))


def titles_panel(state: TableauState, draft: Draft, name: Names, change: Changer,
                 send: Sender, pictures: Pictures) -> list[ft.Control]:
    """Each player's title card, chosen from a stored picture set, so photos can be checked."""
    back_to_calls = action("Back to calls", lambda _: change(lambda d: replace(d, panel="calls")))
    chosen = chosen_set(draft, pictures.sets)
    if chosen is None:
        return [ft.Text("No picture sets yet: add your box's pictures under Settings, "
                        "Picture sets, then record the title cards here."), back_to_calls]
    controls: list[ft.Control] = [ft.Text("Title cards", size=18, weight=ft.FontWeight.BOLD)]
    if len(pictures.sets) > 1:
        controls.append(ft.Row([
            action(f"Set {entry.title}",
                   lambda _, i=entry.id: change(lambda d: replace(d, picture_set=i, titles=())),
                   primary=entry is chosen)
            for entry in pictures.sets], wrap=True))
    seats = state.table.seating.seats
    if len(chosen.titles) < len(seats):  # T1: one picture per player
        controls.append(ft.Text(f"The set {chosen.title} has {plural(len(chosen.titles), 'picture')} "
                                f"for {len(seats)} players: each player needs their own.",
                                color=ft.Colors.ERROR))
    held = dict(draft.titles)
    for player in seats:
        controls += [
            ft.Text(f"{name(player)}'s picture"),
            ft.Row([action(f"{name(player)}: {title}",
                           lambda _, p=player, t=title: change(
                               lambda d: replace(d, titles=_with(d.titles, p, t))),
                           primary=held.get(player) == title)
                    for title in chosen.titles], wrap=True),
        ]
    return [
        *controls,
        ft.Row([action("Record the title cards", lambda _: send(lambda d: titles_dealt(d, state)),
                       primary=True, disabled=titles_dealt(draft, state) is None),
                back_to_calls], wrap=True),
    ]


def count_photo(state: TableauState, player: PlayerId, draft: Draft, pictures: Pictures,
                name: Names, change: Changer) -> list[ft.Control]:
    """Count a player's missing or wrong pieces from a photo of his rectangle, against his own
    picture (T6); a sure count fills his field, for confirmation."""
    if not pictures.known(player):
        return [ft.Text(f"Counting {name(player)} from a photo needs their picture: record the "
                        "round's title cards from a picture set.", italic=True)]
    controls: list[ft.Control] = [PhotoTool(
        f"Count {name(player)} from a photo",
        read=lambda data: count_from_photo(data, pictures.required(player)),
        on_result=lambda check: change(lambda d: d.with_count_check(player, check)),
        key=f"count:{len(state.rounds)}:{player}")]
    check = dict(draft.count_checks).get(player)
    if check is not None:
        controls += [ft.Text(f"{name(player)}: {check.words}", size=16),
                     ft.Image(src=check.picture, fit=ft.BoxFit.CONTAIN,
                              semantics_label=f"{name(player)}'s rectangle, each cell outlined "
                                              "by what the photo found")]
    return controls


def round_end_panel(state: TableauState, draft: Draft, name: Names, change: Changer,
                    send: Sender, pictures: Pictures) -> list[ft.Control]:
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
        for player in others:
            controls.append(number_field(
                f"{name(player)}: missing or wrong pieces", draft.count_text(player),
                lambda text, p=player: change(lambda d: d.with_count(p, text)),
                problems.get(player)))
            controls += count_photo(state, player, draft, pictures, name, change)
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
            action("Back to calls", lambda _: change(lambda d: replace(d, panel="calls"))),
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

    store: PictureStore = context.services.storage.pictures
    pictures = Pictures(store, store.sets(), state.titles)
    panel = {"calls": calls_panel, "titles": titles_panel, "round-end": round_end_panel}[draft.panel]
    return ft.Column([
        ft.Text(f"Round {len(state.rounds) + 1}: {plural(len(state.calls), 'call')} so far",
                size=16),
        token_rows(state, name),
        *panel(state, draft, name, change, send, pictures),
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
- Photo checks (optional): record the round's title cards from a picture set (Settings,
  Picture sets). **Check with a photo** judges a call against the caller's picture, and at the
  round's end a photo counts a player's rectangle against his own. The photo only pre-selects:
  you confirm or overrule it, and an overrule is recorded.
"""

TABLEAU_SCREEN = GameScreen(entry=tableau_entry, describe=describe, rules_card=RULES_CARD)
