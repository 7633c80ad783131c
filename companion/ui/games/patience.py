"""Crazy Quilt and Windmill at the table (rulings Q1-Q3): one screen for both, parametrised by
the game.

An attempt starts with a tap (the start time goes into the event, and a clock shows the time
elapsed since); the player may redeal where the game allows it, then finishes the attempt won
(all 104 home) or given up with the cards home counted. The statistics of Q3 are shown for this
session and for the player's whole history of the game. The logic reads no clock: the screen
asks the services' clock when the player taps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial

import flet as ft
from flet.components.hooks.use_ref import MutableRef

from companion.core.errors import InvalidEvent
from companion.core.game import Event
from companion.games.patience import (
    ALL_CARDS,
    CRAZY_QUILT,
    WINDMILL,
    Attempt,
    AttemptFinished,
    AttemptStarted,
    PatienceGame,
    PatienceState,
    PatienceStatistics,
    Redealt,
    SessionEnded,
    attempt_statistics,
    seconds_between,
)
from companion.ui.games import EntryContext, GameScreen
from companion.ui.widgets import (
    action,
    number_field,
    typed_text,
    use_latest_state,
    whole_number_problem,
)


def clock_text(seconds: float) -> str:
    """12:05, or 1:02:05 past an hour."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def parse_clock(text: str) -> float:
    """The time taken typed as m:ss or h:mm:ss (or plain seconds); ValueError with the reason."""
    parts = text.strip().split(":")
    if not 1 <= len(parts) <= 3 or not all(part.isdigit() for part in parts):
        raise ValueError(f"{text.strip() or 'Nothing'} is not a time: write it as m:ss, "
                         "e.g. 12:05.")
    seconds = 0
    for part in parts:
        seconds = seconds * 60 + int(part)
    return float(seconds)


def time_of_day(moment: str) -> str:
    """The clock time of an ISO 8601 moment, for the history ("20:09:30")."""
    try:
        return datetime.fromisoformat(moment).strftime("%H:%M:%S")
    except ValueError:
        return moment


def describe(event: Event, names: Mapping[str, str]) -> str:
    if isinstance(event, AttemptStarted):
        return f"Attempt started at {time_of_day(event.at)}"
    if isinstance(event, Redealt):
        return "Redeal"
    if isinstance(event, AttemptFinished):
        outcome = (f"Won: all {ALL_CARDS} cards home" if event.won
                   else f"Given up with {event.cards_home} cards home")
        return f"{outcome} at {time_of_day(event.at)}"
    if isinstance(event, SessionEnded):
        return "Session ended"
    return type(event).__name__


def statistics_lines(stats: PatienceStatistics) -> str:
    """Q3 in words; figures that need an attempt, or a win, are left out until there is one."""
    if not stats.attempts:
        return "No attempts yet."
    lines = [f"Attempts {stats.attempts} · wins {stats.wins} · win rate {stats.win_rate:.0%}"]
    if stats.best_seconds is not None:
        lines.append(f"Best time {clock_text(stats.best_seconds)} · median time "
                     f"{clock_text(stats.median_seconds)} (won attempts)")
    lines.append(f"Average cards home {stats.average_cards_home:.1f} · winning streak "
                 f"{stats.current_streak} (longest {stats.longest_streak})")
    return "\n".join(lines)


def earlier_attempts(ctx: EntryContext) -> tuple[Attempt, ...]:
    """The player's attempts at this game in his other sessions, oldest session first (Q3).
    Abandoned sessions count in no statistics (G4)."""
    matches = ctx.services.storage.matches
    sessions = sorted(
        (summary for summary in matches.summaries()
         if summary.game == ctx.match.game and summary.seats == ctx.match.seating.seats
         and summary.id != ctx.match.id and not summary.abandoned),
        key=lambda summary: summary.created_at)
    return tuple(attempt for summary in sessions
                 for attempt in matches.state(summary.id).game.attempts)


def refusal(game: PatienceGame, state: PatienceState, event: Event) -> str | None:
    """The rules' reason for refusing `event` now, to show on the form, or None."""
    try:
        game.apply(state, event)
    except InvalidEvent as refused:
        return str(refused)
    return None


def text_field(label: str, latest: MutableRef[str], change, error: str | None) -> ft.TextField:
    """A labelled text field kept in a use_latest_state value (read by the buttons that use it)."""
    return ft.TextField(label=label, value=latest.current, error=error,
                        on_change=lambda e: change(lambda _: typed_text(e)))


@dataclass(frozen=True)
class Problem:
    """A refused entry's reason, and the field it belongs to ("" for the form as a whole)."""

    field: str
    message: str

    def on(self, field: str) -> str | None:
        return self.message if self.field == field else None


@ft.component
def PatienceEntry(game: PatienceGame, ctx: EntryContext):
    return ft.Column([
        # A fresh form after every stored entry (the log grows) and for each entry corrected.
        AttemptForm(game, ctx, key=f"{len(ctx.match.events)}:{ctx.editing!r}"),
        SessionStatistics(game, ctx),
    ])


@ft.component
def SessionStatistics(game: PatienceGame, ctx: EntryContext):
    """Q3 for this session and for all the player's sessions: under the form, and the result
    once the session has ended."""
    player = ctx.match.seating.player(0)
    history = ft.use_memo(lambda: earlier_attempts(ctx), [ctx.match.id])
    state: PatienceState = ctx.state
    return ft.Column([
        ft.Text("Statistics (Q3)", size=18, weight=ft.FontWeight.BOLD),
        ft.Text(f"This session:\n{statistics_lines(attempt_statistics(state.attempts))}"),
        ft.Text(f"All {game.title} sessions of {ctx.names.get(player, player)}:\n"
                f"{statistics_lines(attempt_statistics((*history, *state.attempts)))}"),
    ])


@ft.component
def ElapsedClock(started_at: str, clock: Callable[[], str]):
    """The attempt clock: time since the start, moving on every second while it is shown."""
    now, set_now = ft.use_state(clock)

    async def tick() -> None:
        while True:
            await asyncio.sleep(1)
            set_now(clock())

    # The cleanup makes Flet cancel the ticking task when the clock leaves the screen.
    ft.use_effect(tick, [started_at], cleanup=lambda: None)
    shown = clock_text(max(0.0, seconds_between(started_at, now)))
    return ft.Semantics(content=ft.Text(shown, size=56, weight=ft.FontWeight.BOLD),
                        label=f"Attempt clock {shown}")


@ft.component
def AttemptForm(game: PatienceGame, ctx: EntryContext):
    state: PatienceState = ctx.state
    editing = ctx.editing
    problem, set_problem = ft.use_state(Problem("", ""))
    cards_typed, change_cards = use_latest_state(
        str(editing.cards_home) if isinstance(editing, AttemptFinished) else "")
    taken_typed, change_taken = use_latest_state(time_taken(state, editing))
    started_typed, change_started = use_latest_state(
        editing.at if isinstance(editing, AttemptStarted) else "")
    fewest, most_given_up = game.rules.bases_out_at_start, ALL_CARDS - 1

    def send(event: Event, field: str = "") -> None:
        """Refuse on the form with the rules' reason, else store it (the screen shows it then)."""
        reason = refusal(game, state, event)
        if reason is not None:
            set_problem(Problem(field, reason))
        elif ctx.submit(event):
            set_problem(Problem("", ""))

    def finished_at() -> str:
        """Now; when correcting, the start plus the time taken typed in (G2)."""
        if editing is None:
            return ctx.services.clock()
        started = datetime.fromisoformat(state.under_way.started_at)
        return (started + timedelta(seconds=parse_clock(taken_typed.current))).isoformat()

    def finish(won: bool) -> None:
        wrong_count = None if won else whole_number_problem(
            cards_typed.current, fewest, most_given_up)
        if wrong_count is not None:
            set_problem(Problem("cards", wrong_count))
            return
        try:
            at = finished_at()
        except ValueError as not_a_time:
            set_problem(Problem("time", str(not_a_time)))
            return
        send(AttemptFinished(at, ALL_CARDS if won else int(cards_typed.current), won), "cards")

    if isinstance(editing, AttemptStarted):
        return ft.Column([
            text_field("Started at (ISO 8601, as stored)", started_typed, change_started,
                       problem.on("start")),
            action("Save the start", lambda _: send(
                AttemptStarted(started_typed.current.strip()), "start"), primary=True),
        ])
    if isinstance(editing, Redealt | SessionEnded):
        return ft.Text(f"{describe(editing, ctx.names)}: nothing to correct here; delete the "
                       "entry instead if it was recorded by mistake.")
    heading = ft.Text(f"Attempt {len(state.attempts) + 1}", size=20, weight=ft.FontWeight.BOLD)
    form_problem = [ft.Text(problem.message, color=ft.Colors.ERROR)] if problem.on("") else []
    if state.under_way is None:
        return ft.Column([
            heading,
            *form_problem,
            ft.Row([
                action("Start an attempt", lambda _: send(AttemptStarted(ctx.services.clock())),
                       primary=True),
                action("End the session", lambda _: send(SessionEnded())),
            ], wrap=True),
        ])
    allowed = state.table.options.redeals_allowed
    used = state.under_way.redeals
    if editing is None:
        timing = ElapsedClock(state.under_way.started_at, ctx.services.clock)
        redeal = [action(f"Redeal ({allowed - used} left)", lambda _: send(Redealt()),
                         disabled=used >= allowed)] if allowed else []
    else:
        timing = text_field("Time taken (m:ss)", taken_typed, change_taken, problem.on("time"))
        redeal = []
    return ft.Column([
        heading,
        timing,
        ft.Text(f"Redeals used: {used} of {allowed}" if allowed
                else f"{game.title} is played without a redeal."),
        *redeal,
        *form_problem,
        number_field(f"Cards home when given up ({fewest}–{most_given_up})", cards_typed.current,
                     lambda text: change_cards(lambda _: text), problem.on("cards")),
        ft.Row([
            action(f"Won: all {ALL_CARDS} home", lambda _: finish(True), primary=True),
            action("Given up", lambda _: finish(False)),
        ], wrap=True),
    ])


def time_taken(state: PatienceState, editing: Event | None) -> str:
    """The time taken by the attempt being corrected, as m:ss, to pre-fill its field."""
    if not isinstance(editing, AttemptFinished) or state.under_way is None:
        return ""
    return clock_text(seconds_between(state.under_way.started_at, editing.at))


def rules_card(game: PatienceGame, layout: str) -> str:
    redeal = ("One redeal is allowed (Q1; house rule: redeals allowed)."
              if game.key == CRAZY_QUILT.key else
              "The stock is dealt once: no redeal by default (house rule: redeals allowed).")
    return f"""\
**{game.title}** — a patience for one player with two packs, {ALL_CARDS} cards (Q1).

{layout}
- {redeal}
- Tap **Start an attempt** when you start laying out: the clock runs from then. Tap **Won** when
  all {ALL_CARDS} cards are home, or count the cards on the foundations (the bases included:
  {game.rules.bases_named}, so at least {game.rules.bases_out_at_start}) and tap **Given up** (Q2).
- Statistics (Q3), for this session and for all your sessions of {game.title}: attempts, wins,
  win rate, best and median time of won attempts, average cards home, current and longest
  winning streak. Abandoned sessions count in none of them (G4).
- End the session when you are done. Any entry can be undone, or corrected from the history (G2).
"""


CRAZY_QUILT_LAYOUT = """\
- One ace and one king of each suit start on the foundations: aces are built up in suit to
  kings, kings down in suit to aces.
- Between them, 64 cards in eight rows of eight, turned alternately; a card is free when one of
  its narrow edges is free. Spaces are never filled.
- Turn the hand one card at a time onto a single wastepile; free tableau cards may be built on
  its top card in suit, up or down, round the corner (ace on king and king on ace)."""

WINDMILL_LAYOUT = """\
- One ace in the centre, built up regardless of suit until it holds 52 cards, round the corner.
- Eight reserve cards: two above, two below, two to each side of the ace.
- The first four kings that become free go between the arms and are built down to aces,
  regardless of suit."""

CRAZY_QUILT_SCREEN = GameScreen(entry=partial(PatienceEntry, CRAZY_QUILT), describe=describe,
                                rules_card=rules_card(CRAZY_QUILT, CRAZY_QUILT_LAYOUT),
                                result=partial(SessionStatistics, CRAZY_QUILT))
WINDMILL_SCREEN = GameScreen(entry=partial(PatienceEntry, WINDMILL), describe=describe,
                             rules_card=rules_card(WINDMILL, WINDMILL_LAYOUT),
                             result=partial(SessionStatistics, WINDMILL))
