"""A match in play: standings first and largest, dealer and turn, undo, history with correction
(G2; its latest entries, the rest a tap away), abandon (G4) after a confirming tap, the rules
card, the game's own entry form and, once the game is over, the game's own result. The screen is
kept awake while it is shown."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any

import flet as ft

from companion.core.errors import TablemateError
from companion.core.game import Event, Game
from companion.core.match import (
    Match,
    MatchAbandoned,
    MatchState,
    correct,
    delete,
    replay,
    undo,
)
from companion.ui.games import EntryContext, with_names
from companion.ui.games.registry import GAME_SCREENS
from companion.ui.routes import HOME, Navigate
from companion.ui.services import Services
from companion.ui.sharing import Role, SharePanel, announce, match_topic, use_announcements
from companion.ui.widgets import TOUCH, action, back, heading


@dataclass(frozen=True)
class Loaded:
    match: Match
    state: MatchState


def standings_table(game: Game, state: MatchState, names: Mapping[str, str]) -> ft.Control:
    rows = [
        ft.Row([
            ft.Text(f"{standing.rank}.", size=28, width=44),
            ft.Text(names.get(standing.player, standing.player), size=28, expand=True,
                    weight=ft.FontWeight.BOLD),
            ft.Text(str(standing.score), size=36, weight=ft.FontWeight.BOLD),
        ])
        for standing in game.standings(state.game)
    ]
    return ft.Column(rows, spacing=4)


def status_line(game: Game, state: MatchState, names: Mapping[str, str]) -> str:
    parts = []
    dealer, to_act = game.dealer(state.game), game.to_act(state.game)
    if dealer is not None:
        parts.append(f"Dealer: {names.get(dealer, dealer)}")
    if to_act is not None and not game.is_over(state.game):
        parts.append(f"Turn: {names.get(to_act, to_act)}")
    if state.abandoned:
        parts.append("Abandoned: kept in history, counts in no statistics")
    elif game.is_over(state.game):
        winners = sorted(names.get(w, w) for w in game.winners(state.game))
        shared = " (shared win)" if len(winners) > 1 else ""
        parts.append(f"Game over. Winner: {' and '.join(winners)}{shared}")
    return "  ·  ".join(parts)


def describe(event: Event, match: Match, names: Mapping[str, str]) -> str:
    if isinstance(event, MatchAbandoned):
        return "The table abandoned the game"
    screen = GAME_SCREENS.get(match.game)
    return screen.describe(event, names) if screen else type(event).__name__


def abandon_confirmation(abandon: Callable[[Any], None],
                         keep_playing: Callable[[Any], None]) -> list[ft.Control]:
    """The second tap abandoning takes: a slip of the finger must not end a game (G4)."""
    return [
        ft.Text("Abandon this game? It stays in the history and counts in no statistics.",
                size=16),
        ft.Row([action("Yes, abandon it", abandon, primary=True),
                action("Keep playing", keep_playing)], wrap=True),
    ]


def seated_names(match: Match, names: Mapping[str, str]) -> dict[str, str]:
    """Name by id of the players at this table (an unknown id keeps standing for itself)."""
    return {player: names.get(player, player) for player in match.seating.seats}


def use_screen_awake() -> None:
    """Keep the device awake while the calling component is shown (Flet's Wakelock service).

    The web client takes the browser's Screen Wake Lock and releases it when the screen goes
    (tests/browser/test_match_screen.py watches it in Chromium). Where the platform refuses (a
    browser without that API, or one that wants a user gesture first) the screen may sleep as
    usual: nothing else depends on it.
    """
    wakelock = ft.use_memo(ft.Wakelock, [])

    async def keep_awake() -> None:
        with suppress(Exception):  # any refusal by the platform means "not kept awake"
            await wakelock.enable()

    async def let_sleep() -> None:
        with suppress(Exception):
            await wakelock.disable()

    ft.use_effect(keep_awake, [], cleanup=let_sleep)  # Flet runs async effects as tasks


def use_stable(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A function of constant identity that calls the newest `handler`: memoized children that
    get it are not re-rendered because of a new closure."""
    latest = ft.use_ref(None)  # (a callable given to use_ref would be called as an initializer)
    latest.current = handler
    return ft.use_callback(lambda *args: latest.current(*args), [])


# Memoized: its arguments never change while the match is shown, so a tap that records an entry
# does not re-render it (it re-renders itself when the sharing changes).
SharePanelOnce = ft.memo(SharePanel)
HISTORY_SHOWN = 5  # entries the history shows until "Show all N entries" is tapped


@ft.memo
@ft.component
def HistoryEntry(position: int, text: str, correctable: bool, editable: bool,
                 on_correct: Callable[[int], Any], on_delete: Callable[[int], Any]):
    """One entry of the history. Memoized: a new entry re-renders itself only, not the whole
    history (which made each tap slower as the game went on; see bench/ui.py)."""
    buttons = [
        *([ft.TextButton(f"Correct entry {position + 1}", height=TOUCH,
                         on_click=lambda _: on_correct(position))] if correctable else []),
        ft.TextButton(f"Delete entry {position + 1}", height=TOUCH,
                      on_click=lambda _: on_delete(position)),
    ]
    return ft.Column([
        ft.Text(f"{position + 1}. {text}"),
        *([ft.Row(buttons, wrap=True)] if editable else []),
    ], spacing=0)


def shown_positions(count: int, show_all: bool) -> range:
    """The history entries drawn: the latest few unless the whole history was asked for.

    Every drawn entry costs each later tap a redraw in the browser, so a long game drew ever
    more slowly (bench/ui.py); older entries are one tap away.
    """
    return range(count) if show_all else range(max(0, count - HISTORY_SHOWN), count)


def history_toggle(count: int, show_all: bool, set_show_all: Callable[[bool], None]) -> list[ft.Control]:
    """The button that opens or closes the older entries, when there are any."""
    if count <= HISTORY_SHOWN:
        return []
    label = f"Show only the last {HISTORY_SHOWN} entries" if show_all else f"Show all {count} entries"
    return [action(label, lambda _: set_show_all(not show_all))]


@ft.component
def MatchScreen(services: Services, navigate: Navigate, match_id: str, role: Role = Role.HOST):
    """`role`: this device, or a guest's phone on a shared table (issue 5, see sharing.py)."""

    def load() -> Loaded:
        match = services.storage.matches.get(match_id)
        return Loaded(match, replay(match, services.game(match.game)))

    loaded, set_loaded = ft.use_state(load)
    # Another phone stored a change to this match: show it (storage is the one truth).
    use_announcements(match_topic(match_id), lambda: set_loaded(load()))
    problem, set_problem = ft.use_state(None)
    editing, set_editing = ft.use_state(None)  # position of the entry being corrected
    show_rules, set_show_rules = ft.use_state(False)
    confirming_abandon, set_confirming_abandon = ft.use_state(False)
    show_all, set_show_all = ft.use_state(False)  # the whole history, not only the latest
    use_screen_awake()
    match, state = loaded.match, loaded.state
    game = services.game(match.game)
    names = {player.id: player.name for player in services.storage.players.list(include_archived=True)}
    screen = GAME_SCREENS.get(match.game)

    def refused(error: TablemateError) -> bool:
        set_problem(with_names(str(error), seated_names(match, names)))
        return False

    def accepted(updated: Match, new_state: MatchState) -> bool:
        set_problem(None)
        set_editing(None)
        set_loaded(Loaded(updated, new_state))
        announce(match_topic(match_id))
        return True

    def submit(event: Event) -> bool:
        """Record an entry; True once it is on disk, False (with the reason shown) if refused."""
        try:
            return accepted(*services.record_event(match, event))
        except TablemateError as error:
            return refused(error)

    def abandon(_) -> None:
        set_confirming_abandon(False)
        submit(MatchAbandoned())

    def rewrite(change) -> bool:
        """Undo or correct: re-derive by the rules, store the whole log, then show it.

        `change` gets the stored match, not the one on screen: another phone may have added an
        entry since this screen last read it (entries are only appended, so positions hold).
        """
        try:
            updated, _ = change(services.storage.matches.get(match_id))
        except TablemateError as error:
            return refused(error)
        return accepted(updated, services.save_log(updated))

    now = services.clock
    watching = role is Role.WATCH
    correct_entry = use_stable(set_editing)
    delete_entry = use_stable(
        lambda position: rewrite(lambda stored: delete(stored, game, position, now())))
    shown = shown_positions(len(match.events), show_all)
    entries = [
        HistoryEntry(position, describe(event, match, names),
                     correctable=screen is not None and not isinstance(event, MatchAbandoned),
                     editable=not watching, on_correct=correct_entry, on_delete=delete_entry,
                     key=str(position))
        for position, event in enumerate(match.events) if position in shown
    ]
    history = [
        ft.Text("History", size=20, weight=ft.FontWeight.BOLD),
        *history_toggle(len(match.events), show_all, set_show_all),
        *entries,
    ] if entries else []

    if editing is not None and screen is not None:
        before = replay(replace(match, events=match.events[:editing]), game)
        form = ft.Column([
            ft.Text(f"Correcting entry {editing + 1}", size=18, weight=ft.FontWeight.BOLD),
            screen.entry(EntryContext(
                services, match, before.game, names,
                lambda event: rewrite(
                    lambda stored: correct(stored, game, editing, event, now())),
                match.events[editing])),
            action("Cancel the correction", lambda _: set_editing(None)),
        ])
    elif screen is None:
        form = ft.Text(f"The scoring screen for {game.title} is not built yet: this game is kept, "
                       "and can be scored once it is.", italic=True)
    elif state.abandoned or game.is_over(state.game) and screen.result is None:
        form = ft.Container()
    elif game.is_over(state.game):
        form = screen.result(EntryContext(services, match, state.game, names, submit))
    else:
        form = screen.entry(EntryContext(services, match, state.game, names, submit))

    if watching:
        return ft.Column([
            heading(game.title),
            standings_table(game, state, names),
            ft.Text(status_line(game, state, names), size=18),
            *history,
        ])
    return ft.Column([
        *([back(navigate, HOME, "Home")] if role is Role.HOST else []),
        heading(game.title),
        standings_table(game, state, names),
        ft.Text(status_line(game, state, names), size=18),
        *([ft.Text(problem, color=ft.Colors.ERROR, size=16)] if problem else []),
        ft.Row([
            action("Undo last entry", lambda _: rewrite(lambda stored: undo(stored, game, now())),
                   disabled=not match.events),
            *([] if state.abandoned or game.is_over(state.game) or confirming_abandon else
              [action("Abandon game", lambda _: set_confirming_abandon(True))]),
            *([action("Hide rules" if show_rules else "Rules", lambda _: set_show_rules(
                not show_rules))] if screen else []),
        ], wrap=True),
        *(abandon_confirmation(abandon, lambda _: set_confirming_abandon(False))
          if confirming_abandon and not state.abandoned else []),
        *([ft.Markdown(screen.rules_card)] if show_rules and screen else []),
        form,
        *history,
        *([SharePanelOnce(services, match_id)] if role is Role.HOST else []),
    ])
