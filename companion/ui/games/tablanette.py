"""Tablanette at the table: one pack's piles per entry, the running totals to 251, and the capture
adviser (rules sheet tablanette.md, rulings N1-N7; engine in companion/games/tablanette.py).

After a pack the two players count their piles: cards, kings, queens, jacks, other tens (aces when
they score), the tablanettes made, and who took the 2 of clubs and the 10 of diamonds. The form
shows what the pack would score before it is saved, and the engine's reason when no pack can
produce those piles.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import flet as ft

from companion.core.errors import InvalidEvent
from companion.core.game import Event
from companion.core.types import PlayerId
from companion.games.tablanette import (
    PACK_HOLDS,
    PACK_SIZE,
    TABLANETTE,
    TARGET,
    PackResult,
    Pile,
    TablanetteState,
)
from companion.games.tablanette_cards import JACK, Capture, Card, Suit, captures
from companion.ui.games import EntryContext, GameScreen, with_names
from companion.ui.widgets import TOUCH, action, typed_text

# The counts entered per pile, in the order the table counts them; aces only when they score (N6).
COUNTS = ("cards", "kings", "queens", "jacks", "tens")
TABLANETTES = "tablanettes"
SPECIALS = (("two_of_clubs", "the 2 of clubs"), ("ten_of_diamonds", "the 10 of diamonds"))
# How a count is written in a pile's line ("30 cards, 2 K, ..."), in the history and the form.
COUNT_LABELS = {"cards": "cards", "kings": "K", "queens": "Q", "jacks": "J", "tens": "tens",
                "aces": "aces"}
WHOLE_NUMBER = re.compile(r"[0-9]+")

Draft = Mapping[str, str]  # field key -> text typed, or a player id for the two special cards


def field_key(player: PlayerId, name: str) -> str:
    return f"{player}:{name}"


def counts_for(count_aces: bool) -> tuple[str, ...]:
    return (*COUNTS, "aces") if count_aces else COUNTS


def read_count(text: str, name: str) -> int:
    """A count typed in a field. Blank is 0, except the pile's card count, which must be given."""
    text = text.strip()
    if not text:
        if name == "cards":
            raise InvalidEvent("Enter the number of cards in this pile.")
        return 0
    if not WHOLE_NUMBER.fullmatch(text):
        raise InvalidEvent(f"{text!r} is not a whole number (0 or more).")
    return int(text)


def read_tablanettes(text: str) -> tuple[int, ...]:
    """The points of each tablanette, written like '28, 0' (blank: none made)."""
    written = tuple(part for part in re.split(r"[,;\s]+", text.strip()) if part)
    for points in written:
        if not WHOLE_NUMBER.fullmatch(points):
            raise InvalidEvent(f"{points!r} is not a number of points; write each tablanette's "
                               "points, like 28, 0.")
    return tuple(int(points) for points in written)


@dataclass(frozen=True)
class ReadDraft:
    """The pack a draft describes, or what is wrong with it, field by field."""

    event: PackResult | None
    problems: Mapping[str, str]  # field key (or special card) -> message


def read_field(name: str, text: str) -> int | tuple[int, ...]:
    return read_tablanettes(text) if name == TABLANETTES else read_count(text, name)


def read_draft(draft: Draft, seats: Sequence[PlayerId], count_aces: bool) -> ReadDraft:
    problems: dict[str, str] = {}
    values: dict[str, int | tuple[int, ...]] = {}
    for player in seats:
        for name in (*counts_for(count_aces), TABLANETTES):
            key = field_key(player, name)
            try:
                values[key] = read_field(name, draft.get(key, ""))
            except InvalidEvent as wrong:
                problems[key] = str(wrong)
    for special, described in SPECIALS:
        if draft.get(special) not in seats:
            problems[special] = f"Who took {described}?"
    if problems:
        return ReadDraft(None, problems)
    piles = tuple(Pile(player, **{name: values[field_key(player, name)]
                                  for name in (*counts_for(count_aces), TABLANETTES)})
                  for player in seats)
    return ReadDraft(PackResult(piles, draft["two_of_clubs"], draft["ten_of_diamonds"]), {})


def draft_of(event: PackResult) -> dict[str, str]:
    """The draft that re-enters `event` (a correction starts from the entry being corrected)."""
    draft = {"two_of_clubs": event.two_of_clubs, "ten_of_diamonds": event.ten_of_diamonds}
    for pile in event.piles:
        for name in (*COUNTS, "aces"):
            value = getattr(pile, name)
            draft[field_key(pile.player, name)] = "" if value is None else str(value)
        draft[field_key(pile.player, TABLANETTES)] = ", ".join(map(str, pile.tablanettes))
    return draft


def rest_for(draft: Draft, player: PlayerId, other: PlayerId, count_aces: bool) -> dict[str, str]:
    """Fill `player`'s counts with what the pack holds beyond `other`'s (52 cards, 4 kings, ...).

    Only counts the other pile has readable are filled; a count past the pack is left as typed.
    """
    filled = dict(draft)
    for name in counts_for(count_aces):
        holds = PACK_SIZE if name == "cards" else PACK_HOLDS[name]
        try:
            theirs = read_count(draft.get(field_key(other, name), ""), name)
        except InvalidEvent:
            continue
        if theirs <= holds:
            filled[field_key(player, name)] = str(holds - theirs)
    return filled


def preview(state: TablanetteState, event: PackResult, names: Mapping[str, str]) -> str:
    """What the pack scores, as it would be saved; or the rules' reason no pack gives these piles."""
    try:
        after = TABLANETTE.apply(state, event)
    except InvalidEvent as refused:
        return with_names(str(refused), names)
    scores = after.rounds[-1].scores
    return "This pack: " + ", ".join(
        f"{names.get(s.player, s.player)} +{s.points} (total {s.total})" for s in scores)


def count_parts(counts: Sequence[tuple[str, int | str]]) -> list[str]:
    return [f"{value} {COUNT_LABELS[name]}" for name, value in counts]


def tablanettes_text(points: Sequence[int]) -> str:
    return "tablanettes " + " + ".join(map(str, points))


def pile_text(pile: Pile, event: PackResult, names: Mapping[str, str]) -> str:
    parts = count_parts([(name, getattr(pile, name)) for name in counts_for(pile.aces is not None)])
    parts += [described for special, described in SPECIALS
              if getattr(event, special) == pile.player]
    if pile.tablanettes:
        parts.append(tablanettes_text(pile.tablanettes))
    return f"{names.get(pile.player, pile.player)}: {', '.join(parts)}"


def pile_as_read(draft: Draft, player: PlayerId, count_aces: bool,
                 names: Mapping[str, str]) -> str:
    """The player's pile as the form reads it so far (blank is 0, '?' for what cannot be read):
    the table sees what will be saved, field by field, before the whole pack adds up."""
    def read(name: str) -> int | tuple[int, ...] | None:
        try:
            return read_field(name, draft.get(field_key(player, name), ""))
        except InvalidEvent:
            return None

    counts = [(name, "?" if (value := read(name)) is None else value)
              for name in counts_for(count_aces)]
    made = read(TABLANETTES)
    tablanettes = "tablanettes ?" if made is None else (
        tablanettes_text(made) if made else "no tablanettes")
    return (f"{names.get(player, player)}'s pile as read: {', '.join(count_parts(counts))}; "
            f"{tablanettes}")


def describe(event: Event, names: Mapping[str, str]) -> str:
    if not isinstance(event, PackResult):
        return type(event).__name__
    return "Pack: " + "; ".join(pile_text(pile, event, names) for pile in event.piles)


def running_totals(state: TablanetteState, names: Mapping[str, str]) -> ft.Control:
    """Points per pack and the running totals, with how far each player is from 251 (N7)."""
    def name(player: PlayerId) -> str:
        return names.get(player, player)

    rows = [ft.Text(f"Pack {summary.number} (dealer {name(summary.dealer)}): " + ", ".join(
        f"{name(s.player)} +{s.points} = {s.total}" for s in summary.scores))
        for summary in state.rounds]
    to_go = ", ".join(f"{name(player)} {max(TARGET - total, 0)}" for player, total in state.totals)
    rows.append(ft.Text(f"Points still needed for {TARGET}: {to_go}", weight=ft.FontWeight.BOLD))
    if state.playing_off_tie:
        rows.append(ft.Text(f"Tied at {TARGET} or more: another pack decides (N7).",
                            weight=ft.FontWeight.BOLD))
    return ft.Column(rows, spacing=2)


def choice(label: str, semantics: str, chosen: bool, on_click: Callable[[object], None],
           *, width: float | None = None, disabled: bool = False) -> ft.Control:
    """A toggle-like button: filled when chosen; `semantics` is its accessible name."""
    kind = ft.FilledButton if chosen else ft.OutlinedButton
    return kind(ft.Text(label, semantics_label=semantics), on_click=on_click, height=TOUCH,
                width=width, disabled=disabled,
                style=ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8)))


@ft.component
def _draft_field(label: str, key: str, text: str, error: str | None, numeric: bool,
                 typed: Callable[[str, str], None]):
    return ft.TextField(
        label=label, value=text, error=error, error_max_lines=4, expand=True, dense=True,
        keyboard_type=ft.KeyboardType.NUMBER if numeric else ft.KeyboardType.TEXT,
        on_change=lambda e: typed(key, typed_text(e)))


# Memoized: typing in one field re-renders the form, and a field re-rendered while the player
# types in it would be sent the form's older text; unchanged fields are left alone.
DraftField = ft.memo(_draft_field)


@ft.component
def PackEntry(context: EntryContext):
    """A fresh form whenever the stored log changes. A save can reach the app before the re-render
    that would draw the text typed last; the emptied form then equals the last one drawn, no
    update is sent, and the field went on showing the saved count. New fields show none."""
    return PackForm(context, key=f"{len(context.match.events)}@{context.match.updated_at}")


@ft.component
def PackForm(context: EntryContext):
    state: TablanetteState = context.state
    seats = state.table.seating.seats
    count_aces = state.table.options.count_aces
    names = context.names
    initial = draft_of(context.editing) if isinstance(context.editing, PackResult) else {}
    draft, set_draft = ft.use_state(initial)
    # The latest draft, read by save: a tap can arrive before the re-render that would give save
    # a fresh closure, and what was typed last must never be lost.
    latest = ft.use_ref(initial)
    tried, set_tried = ft.use_state(False)
    show_adviser, set_show_adviser = ft.use_state(False)
    read = read_draft(draft, seats, count_aces)

    set_latest = ft.use_ref(lambda: set_draft)  # a callable initial value would be called
    set_latest.current = set_draft

    def change(new_draft: dict[str, str]) -> None:
        latest.current = new_draft
        set_latest.current(new_draft)

    # One function for every field's life: the fields are memoized (see DraftField), so their
    # arguments must not change from one render to the next unless their own text does.
    typed = ft.use_callback(lambda key, text: change({**latest.current, key: text}), [])

    def save(_) -> None:
        set_tried(True)
        event = read_draft(latest.current, seats, count_aces).event
        if event is not None and context.submit(event):  # True only once it is on disk
            change({})
            set_tried(False)

    def problem(key: str) -> str | None:
        """A field's message: at once for what is typed wrong, for blanks once save was tried."""
        return read.problems.get(key) if tried or draft.get(key, "").strip() else None

    def field(player: PlayerId, name: str) -> ft.Control:
        key = field_key(player, name)
        return DraftField(f"{names.get(player, player)}'s {name}", key, draft.get(key, ""),
                          problem(key), name != TABLANETTES, typed)

    def special_row(special: str, described: str) -> ft.Control:
        buttons = [choice(names.get(player, player), f"{names.get(player, player)} took "
                          f"{described}", draft.get(special) == player,
                          lambda _, p=player: typed(special, p)) for player in seats]
        message = problem(special)
        return ft.Column([
            ft.Row([ft.Text(f"{described.capitalize()}:"), *buttons], wrap=True),
            *([ft.Text(message, color=ft.Colors.ERROR)] if message else []),
        ], spacing=2)

    first, second = seats
    number = len(state.rounds) + 1
    verdict = preview(state, read.event, names) if read.event is not None else None
    return ft.Column([
        running_totals(state, names),
        ft.Text(f"Pack {number}: count the piles", size=20, weight=ft.FontWeight.BOLD),
        ft.Text("Tens: not counting the 10 of diamonds. Tablanettes: the points of each, "
                "like 28, 0."),
        *(ft.Row([field(first, name), field(second, name)],
                 vertical_alignment=ft.CrossAxisAlignment.START)
          for name in (*counts_for(count_aces), TABLANETTES)),
        *(ft.Text(pile_as_read(draft, player, count_aces, names)) for player in seats),
        ft.Row([action(f"{names.get(p, p)} has the rest",
                       lambda _, p=p, o=o: change(rest_for(latest.current, p, o, count_aces)))
                for p, o in ((first, second), (second, first))], wrap=True),
        *(special_row(special, described) for special, described in SPECIALS),
        *([ft.Text(verdict, size=16, weight=ft.FontWeight.BOLD)] if verdict else []),
        action(f"Save pack {number}" if context.editing is None else "Save the correction",
               save, primary=True),
        action("Hide the capture adviser" if show_adviser else "Capture adviser",
               lambda _: set_show_adviser(not show_adviser)),
        *([CaptureAdviser(state.table.options.classic_capture)] if show_adviser else []),
    ], spacing=8)


def card_name(c: Card) -> str:
    return str(c).removeprefix("the ")


def capture_text(found: Capture) -> str:
    groups = ", ".join(" + ".join(c.code for c in group) for group in found.groups)
    if found.clears_table:
        how = ("a jack's sweep, 0 points (N4)" if found.is_sweep
               else f"{found.tablanette_points} points (N4)")
        return f"Takes {groups}: clears the table, TABLANETTE, {how}"
    stays = "the played card is taken too" if found.played_card_taken else \
        "the played card stays on the table (N3)"
    more = "" if found.maximal else "; another capture takes these and more"
    return f"Takes {groups}: {stays}{more}"


RANK_LABELS = {1: "A", JACK: "J", 12: "Q", 13: "K"}


@ft.component
def CaptureAdviser(classic_capture: bool):
    """Tap the table cards and the played card; every legal capture is listed (N2-N4)."""
    table, set_table = ft.use_state(())
    played, set_played = ft.use_state(None)
    suit, set_suit = ft.use_state(Suit.CLUBS)
    picking_played, set_picking_played = ft.use_state(False)

    def pick(c: Card) -> None:
        if picking_played:
            set_played(c)
        else:
            set_table((*table, c))

    in_use = {*table, played}
    ranks = [choice(RANK_LABELS.get(rank, str(rank)), card_name(Card(rank, suit)), False,
                    lambda _, r=rank: pick(Card(r, suit)), width=TOUCH,
                    disabled=Card(rank, suit) in in_use) for rank in range(1, 14)]
    on_table = [choice(f"{c.code} ×", f"Remove the {card_name(c)} from the table", False,
                       lambda _, c=c: set_table(tuple(t for t in table if t != c)))
                for c in table]
    try:
        found = captures(table, played, classic_capture=classic_capture) if played else ()
        results = [ft.Text(capture_text(f)) for f in found] or (
            [ft.Text(f"The {card_name(played)} takes nothing: it is laid on the table.")]
            if played and table else [])
    except InvalidEvent as refused:
        results = [ft.Text(str(refused), color=ft.Colors.ERROR)]
    return ft.Column([
        ft.Text("Capture adviser", size=20, weight=ft.FontWeight.BOLD),
        ft.Row([choice("Table cards", "Pick table cards", not picking_played,
                       lambda _: set_picking_played(False)),
                choice("Played card", "Pick the played card", picking_played,
                       lambda _: set_picking_played(True))], wrap=True),
        ft.Row([choice(s.value.capitalize(), s.value.capitalize(), s == suit,
                       lambda _, s=s: set_suit(s)) for s in Suit], wrap=True, spacing=4),
        ft.Row(ranks, wrap=True, spacing=4, run_spacing=4),
        ft.Row([ft.Text("Table:"), *on_table] if table else [ft.Text("Table: empty")],
               wrap=True, spacing=4),
        ft.Row([ft.Text(f"Played: {card_name(played)}" if played else "Played: none"),
                *([action("Clear the played card", lambda _: set_played(None))]
                  if played else [])], wrap=True),
        *([action("Clear the table", lambda _: set_table(()))] if table else []),
        *results,
    ], spacing=8)


RULES_CARD = f"""\
**Tablanette** — two players, a 52-card pack, first to {TARGET} points.

- **A pack** is the whole 52 cards: the dealer deals six to each player four times; the first deal
  also puts four cards face up (a jack turned up goes to the bottom and is replaced) (N1). The
  dealer's opponent plays first. The next pack is dealt by the other player.
- **Capturing** (N2): play a card to take one table card of equal value, or two or three cards
  adding up to it; several such groups at once if they share no card. Values: ace 1 or 11 (your
  choice), 2–10 their number, jack 0, queen 13, king 14. A played jack takes the whole table.
- After an ordinary capture the played card **stays on the table** (N3; the house rule
  *classic capture* takes it too).
- **Tablanette** (N4): a capture that clears the table, played card included. It scores the
  values of the cards taken plus the played card — twice the played value when the cards add up
  to it once. A jack clearing the table scores nothing extra.
- At the end of the pack the cards left on the table go to the last player who captured; that is
  not a tablanette (N5).
- **Points per pack** (N6): 2 of clubs 1, 10 of diamonds 2, every other king, queen, jack and ten
  1; aces nothing (house rule *count aces*: 1 each). More than 27 cards: 3 more (house rule
  *majority at 27*: 27 is enough). With 26 each nobody gets them.
- **Winning** (N7): first to {TARGET} or more. If both pass it after the same pack, the higher
  total wins; an exact tie plays another pack.

Entering a pack: count each pile (the two hold 52 cards, 4 kings, 4 queens, 4 jacks and 3 tens
besides the 10 of diamonds), write each tablanette's points, and tap who took the 2 of clubs and
the 10 of diamonds. "Has the rest" fills a pile from the other. The capture adviser lists every
capture a card can make, and which one clears the table.
"""

TABLANETTE_SCREEN = GameScreen(entry=PackEntry, describe=describe, rules_card=RULES_CARD)
