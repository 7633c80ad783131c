"""A match in play: standings first and largest, dealer and turn, undo, and the game's own entry."""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.core.errors import TablemateError
from companion.core.game import Event
from companion.core.match import Match, MatchAbandoned, MatchState, replay, undo
from companion.ui.games import GAME_SCREENS
from companion.ui.routes import HOME, Navigate
from companion.ui.services import Services
from companion.ui.widgets import action, back, heading


@dataclass(frozen=True)
class Loaded:
    match: Match
    state: MatchState


def standings_table(services: Services, loaded: Loaded, names: dict[str, str]) -> ft.Control:
    game = services.game(loaded.match.game)
    rows = [
        ft.Row([
            ft.Text(f"{standing.rank}.", size=28, width=44),
            ft.Text(names.get(standing.player, standing.player), size=28, expand=True,
                    weight=ft.FontWeight.BOLD),
            ft.Text(str(standing.score), size=36, weight=ft.FontWeight.BOLD),
        ])
        for standing in game.standings(loaded.state.game)
    ]
    return ft.Column(rows, spacing=4)


@ft.component
def MatchScreen(services: Services, navigate: Navigate, match_id: str):
    def load() -> Loaded:
        match = services.storage.matches.get(match_id)
        return Loaded(match, replay(match, services.game(match.game)))

    loaded, set_loaded = ft.use_state(load)
    problem, set_problem = ft.use_state(None)
    match, state = loaded.match, loaded.state
    game = services.game(match.game)
    names = {player.id: player.name for player in services.storage.players.list(True)}

    def submit(event: Event) -> bool:
        """Record an entry; True once it is on disk, False (with the reason shown) if refused."""
        try:
            updated, new_state = services.record_event(match, event, state)
        except TablemateError as refused:
            set_problem(str(refused))
            return False
        set_problem(None)
        set_loaded(Loaded(updated, new_state))
        return True

    def take_back(_) -> None:
        try:
            updated, new_state = undo(match, game, services.clock())
        except TablemateError as refused:
            set_problem(str(refused))
            return
        services.save_log(updated)
        set_problem(None)
        set_loaded(Loaded(updated, new_state))

    dealer = game.dealer(state.game)
    to_act = game.to_act(state.game)
    status = []
    if dealer is not None:
        status.append(f"Dealer: {names.get(dealer, dealer)}")
    if to_act is not None:
        status.append(f"Turn: {names.get(to_act, to_act)}")
    over = game.is_over(state.game)
    if state.abandoned:
        status.append("Abandoned: kept in history, counts in no statistics")
    elif over:
        winners = " and ".join(names.get(w, w) for w in game.winners(state.game))
        status.append(f"Game over. Winner: {winners}")
    screen = GAME_SCREENS.get(match.game)
    entry = (screen(services, match, state, submit) if screen else
             ft.Text(f"The scoring screen for {game.title} is not built yet: this game is kept, "
                     "and can be scored once it is.", italic=True))
    return ft.Column([
        back(navigate, HOME, "Home"),
        heading(game.title),
        standings_table(services, loaded, names),
        ft.Text("  ·  ".join(status), size=18),
        *([ft.Text(problem, color=ft.Colors.ERROR, size=16)] if problem else []),
        ft.Row([
            action("Undo last entry", take_back, disabled=not match.events),
            *([] if state.abandoned or over else
              [action("Abandon game", lambda _: submit(MatchAbandoned()))]),
        ], wrap=True),
        *([] if state.abandoned else [entry]),
    ])
