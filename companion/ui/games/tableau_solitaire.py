"""Tableau solitaire at the table (T8): a big start/stop clock, the number of pictures, finished
or not, and the best times per number of pictures.

The screen reads the clock (services.clock); the rules do not: an attempt timed here carries its
start and end times, one timed elsewhere (or corrected) carries the seconds typed.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime

import flet as ft

from companion.core.game import Event
from companion.games.tableau_solitaire import (
    Attempt,
    SessionEnds,
    SolitaireState,
    attempt_seconds,
)
from companion.ui.games import EntryContext, GameScreen
from companion.ui.games.tableau import plural
from companion.ui.widgets import TOUCH, action, typed_text, use_latest_state

TICK_SECONDS = 0.5  # how often a running clock redraws; the display shows whole seconds


def format_duration(seconds: float) -> str:
    """12:05, or 1:02:03 from an hour on; tenths of a second are shown when there are any."""
    whole, tenths = divmod(round(seconds * 10), 10)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    text = f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
    return f"{text}.{tenths}" if tenths else text


def parse_duration(text: str) -> float:
    """Seconds from "95", "95.5", "1:35" or "1:02:03"; ValueError with a message for a player."""
    parts = text.strip().split(":")
    problem = f"“{text.strip()}” is not a time: type seconds, or minutes:seconds like 12:05."
    if len(parts) > 3 or not all(parts):
        raise ValueError(problem)
    try:
        *whole_parts, last = parts
        numbers = [int(part) for part in whole_parts] + [float(last)]
    except ValueError:
        raise ValueError(problem) from None
    if any(number < 0 for number in numbers) or not math.isfinite(numbers[-1]) \
            or any(number >= 60 for number in numbers[1:]):
        raise ValueError(problem)
    seconds = 0.0
    for number in numbers:
        seconds = seconds * 60 + number
    if seconds <= 0:
        raise ValueError("An attempt takes more than zero seconds.")
    return seconds


def elapsed(started_at: str, now: str) -> float:
    return (datetime.fromisoformat(now) - datetime.fromisoformat(started_at)).total_seconds()


@dataclass(frozen=True)
class Draft:
    """The attempt being timed or entered."""

    pictures: int
    started_at: str | None = None
    ended_at: str | None = None  # set when the clock is stopped
    time_text: str = ""  # a time typed (timed elsewhere, or a correction)

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.ended_at is None


def draft_for(state: SolitaireState, editing: Event | None) -> Draft:
    """A fresh attempt with as many pictures as the last one, or the attempt being corrected."""
    if isinstance(editing, Attempt):
        return Draft(editing.pictures, time_text=format_duration(attempt_seconds(editing)))
    return Draft(state.attempts[-1].pictures if state.attempts else 1)


def typed_time(draft: Draft) -> tuple[float | None, str | None]:
    """The typed time in seconds, or the problem with it (neither while the field is empty)."""
    if not draft.time_text.strip():
        return None, None
    try:
        return parse_duration(draft.time_text), None
    except ValueError as problem:
        return None, str(problem)


def attempt_from(draft: Draft, finished: bool, now: str, editing: Event | None) -> Attempt | str:
    """The attempt to record, or what is missing. A running clock stops at `now`."""
    if draft.started_at is not None:
        return Attempt(draft.pictures, finished, started_at=draft.started_at,
                       ended_at=draft.ended_at or now)
    if not draft.time_text.strip():
        return "Start the clock, or type the time the attempt took."
    if isinstance(editing, Attempt) and draft.time_text == format_duration(
            attempt_seconds(editing)):  # the time was left alone: keep it exactly as recorded
        return replace(editing, pictures=draft.pictures, finished=finished)
    try:
        return Attempt(draft.pictures, finished, seconds=parse_duration(draft.time_text))
    except ValueError as problem:
        return str(problem)


def best_times(state: SolitaireState) -> list[str]:
    return [f"{plural(best.pictures, 'picture')}: {format_duration(best.seconds)} "
            f"(attempt {best.attempt})" for best in state.best]


def best_times_panel(state: SolitaireState) -> list[ft.Control]:
    return [
        ft.Text("Best times", size=18, weight=ft.FontWeight.BOLD),
        *(ft.Text(line, size=18) for line in best_times(state)),
        *([] if state.best else [ft.Text("No finished attempt yet.")]),
    ]


@ft.component
def SolitaireResult(context: EntryContext):
    """The ended session's best times (the entry form, which also showed them, is gone)."""
    return ft.Column(best_times_panel(context.state))


def clock_face(draft: Draft, now: str) -> str:
    if draft.started_at is None:
        return "0:00"
    return format_duration(math.floor(max(0.0, elapsed(draft.started_at, draft.ended_at or now))))


def time_field(draft: Draft, correcting: bool, change: Callable) -> list[ft.Control]:
    """A time typed by hand, read back as it will be recorded (95 is 1:35)."""
    seconds, problem = typed_time(draft)
    return [
        ft.TextField(
            label="Time (minutes:seconds)" if correcting else "Or type the time (minutes:seconds)",
            value=draft.time_text, error=problem, error_max_lines=3,
            keyboard_type=ft.KeyboardType.DATETIME,
            on_change=lambda e: change(lambda d: replace(d, time_text=typed_text(e)))),
        *([ft.Text(f"Time to record: {format_duration(seconds)}")] if seconds else []),
    ]


@ft.component
def SolitaireEntry(context: EntryContext):
    state: SolitaireState = context.state
    clock = context.services.clock
    correcting = context.editing is not None
    latest, change = use_latest_state(draft_for(state, context.editing))
    draft: Draft = latest.current
    now, set_now = ft.use_state(clock)
    problem, set_problem = ft.use_state(None)

    async def tick() -> None:
        while latest.current.running:
            set_now(clock())
            await asyncio.sleep(TICK_SECONDS)

    # Redraw the running clock; the task is cancelled when the clock stops or the form goes.
    ft.use_effect(tick, [draft.started_at, draft.ended_at], cleanup=lambda: None)

    def start(_) -> None:
        set_problem(None)
        change(lambda d: replace(d, started_at=clock(), ended_at=None, time_text=""))

    def stop(_) -> None:
        change(lambda d: replace(d, ended_at=d.ended_at or clock()))

    def record(finished: bool) -> None:
        made = attempt_from(latest.current, finished, clock(), context.editing)
        if isinstance(made, str):
            set_problem(made)
            return
        if made.started_at is not None:  # the clock stops when the attempt is recorded
            change(lambda d: replace(d, ended_at=made.ended_at))
        if context.submit(made):
            set_problem(None)
            change(lambda d: Draft(d.pictures))

    def submit_end(_) -> None:
        context.submit(SessionEnds())

    if draft.running:
        clock_buttons = [action("Stop the clock", stop)]
    elif draft.started_at is not None:
        clock_buttons = [action("Restart the clock", start)]
    else:
        clock_buttons = [action("Start the clock", start, primary=True)]
    pictures = state.table.options.edition.pictures
    if isinstance(context.editing, Attempt):
        title = f"Recorded as {'finished' if context.editing.finished else 'not finished'}"
    else:
        title = f"Attempt {len(state.attempts) + 1}"
    return ft.Column([
        ft.Text(title, size=18, weight=ft.FontWeight.BOLD),
        *([] if correcting else [
            ft.Text(clock_face(draft, now), size=72, weight=ft.FontWeight.BOLD),
            ft.Row(clock_buttons, wrap=True),
        ]),
        *([] if draft.started_at is not None else time_field(draft, correcting, change)),
        ft.Text("Pictures", size=18, weight=ft.FontWeight.BOLD),
        ft.Row([action(plural(count, "picture"),
                       lambda _, n=count: change(lambda d: replace(d, pictures=n)),
                       primary=count == draft.pictures)
                for count in range(1, pictures + 1)], wrap=True),
        ft.Row([action("Finished", lambda _: record(True), primary=True),
                action("Not finished", lambda _: record(False))], wrap=True),
        *([ft.Text(problem, color=ft.Colors.ERROR)] if problem else []),
        *best_times_panel(state),
        # Never offered while an attempt is timed (it would be lost) or corrected (it would be
        # replaced by the session's end).
        *([] if isinstance(context.editing, Attempt) else [
            ft.Container(height=TOUCH / 2),
            action("End the session", submit_end, disabled=draft.running),
        ]),
    ])


def solitaire_entry(context: EntryContext) -> ft.Control:
    # Keyed, so a running clock survives a message appearing above the form; correcting another
    # attempt gets a fresh form.
    state: SolitaireState = context.state
    key = "tableau_solitaire" if context.editing is None else \
        f"tableau_solitaire:{len(state.attempts)}:{context.editing!r}"
    return SolitaireEntry(context, key=key)


def describe(event: Event, names: Mapping[str, str]) -> str:
    if isinstance(event, Attempt):
        result = "finished" if event.finished else "not finished"
        return f"{plural(event.pictures, 'picture')} in " \
               f"{format_duration(attempt_seconds(event))}, {result}"
    if isinstance(event, SessionEnds):
        return "The session ended"
    return type(event).__name__


RULES_CARD = """\
**Tableau solitaire** — put the pictures together as fast as you can (T8).

- Choose how many pictures to assemble: 1 to 4 with the Junior box, 1 to 6 with the Deluxe
  (T1). Each picture is 16 pieces.
- Start the clock, assemble, and tap **Finished** when every picture is complete, or
  **Not finished** to give up; the clock stops as you tap. A time taken elsewhere can be typed.
- Best times are kept per number of pictures, from finished attempts only.
- End the session when you stop playing; it counts as won when at least one attempt was
  finished. A wrong entry can be undone or corrected afterwards, and the best times follow
  (G2).
"""

SOLITAIRE_SCREEN = GameScreen(entry=solitaire_entry, describe=describe, rules_card=RULES_CARD,
                              result=SolitaireResult)
