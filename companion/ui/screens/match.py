"""A match in play: standings first and largest, dealer and turn, undo, history with correction
(G2), abandon (G4), the rules card, and the game's own entry form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

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
from companion.ui.games import EntryContext
from companion.ui.games.registry import GAME_SCREENS
from companion.ui.routes import HOME, Navigate
from companion.ui.services import Services
from companion.ui.widgets import action, back, heading


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


@ft.component
def MatchScreen(services: Services, navigate: Navigate, match_id: str):
    def load() -> Loaded:
        match = services.storage.matches.get(match_id)
        return Loaded(match, replay(match, services.game(match.game)))

    loaded, set_loaded = ft.use_state(load)
    problem, set_problem = ft.use_state(None)
    editing, set_editing = ft.use_state(None)  # position of the entry being corrected
    show_rules, set_show_rules = ft.use_state(False)
    match, state = loaded.match, loaded.state
    game = services.game(match.game)
    names = {player.id: player.name for player in services.storage.players.list(include_archived=True)}
    screen = GAME_SCREENS.get(match.game)

    def refused(error: TablemateError) -> bool:
        set_problem(str(error))
        return False

    def accepted(updated: Match, new_state: MatchState) -> bool:
        set_problem(None)
        set_editing(None)
        set_loaded(Loaded(updated, new_state))
        return True

    def submit(event: Event) -> bool:
        """Record an entry; True once it is on disk, False (with the reason shown) if refused."""
        try:
            return accepted(*services.record_event(match, event))
        except TablemateError as error:
            return refused(error)

    def rewrite(change) -> bool:
        """Undo or correct: re-derive by the rules, store the whole log, then show it."""
        try:
            updated, _ = change()
        except TablemateError as error:
            return refused(error)
        return accepted(updated, services.save_log(updated))

    now = services.clock
    history = [
        ft.Column([
            ft.Text(f"{position + 1}. {describe(event, match, names)}"),
            ft.Row([
                *([] if screen is None or isinstance(event, MatchAbandoned) else [
                    ft.TextButton(f"Correct entry {position + 1}", height=48,
                                  on_click=lambda _, p=position: set_editing(p))]),
                ft.TextButton(f"Delete entry {position + 1}", height=48,
                              on_click=lambda _, p=position: rewrite(
                                  lambda: delete(match, game, p, now()))),
            ], wrap=True),
        ], spacing=0)
        for position, event in enumerate(match.events)
    ]

    if editing is not None and screen is not None:
        before = replay(replace(match, events=match.events[:editing]), game)
        form = ft.Column([
            ft.Text(f"Correcting entry {editing + 1}", size=18, weight=ft.FontWeight.BOLD),
            screen.entry(EntryContext(
                services, match, before.game, names,
                lambda event: rewrite(lambda: correct(match, game, editing, event, now())),
                match.events[editing])),
            action("Cancel the correction", lambda _: set_editing(None)),
        ])
    elif screen is None:
        form = ft.Text(f"The scoring screen for {game.title} is not built yet: this game is kept, "
                       "and can be scored once it is.", italic=True)
    elif state.abandoned or game.is_over(state.game):
        form = ft.Container()
    else:
        form = screen.entry(EntryContext(services, match, state.game, names, submit))

    return ft.Column([
        back(navigate, HOME, "Home"),
        heading(game.title),
        standings_table(game, state, names),
        ft.Text(status_line(game, state, names), size=18),
        *([ft.Text(problem, color=ft.Colors.ERROR, size=16)] if problem else []),
        ft.Row([
            action("Undo last entry", lambda _: rewrite(lambda: undo(match, game, now())),
                   disabled=not match.events),
            *([] if state.abandoned or game.is_over(state.game) else
              [action("Abandon game", lambda _: submit(MatchAbandoned()))]),
            *([action("Hide rules" if show_rules else "Rules", lambda _: set_show_rules(
                not show_rules))] if screen else []),
        ], wrap=True),
        *([ft.Markdown(screen.rules_card)] if show_rules and screen else []),
        form,
        *([ft.Text("History", size=20, weight=ft.FontWeight.BOLD), *history] if history else []),
    ])
