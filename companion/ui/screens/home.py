"""Home: the games the app knows, and the games in progress."""

from __future__ import annotations

import dataclasses
import enum
import typing

import flet as ft

from companion.core.game import Game
from companion.ui.games.registry import GAME_SCREENS
from companion.ui.routes import Navigate, Route
from companion.ui.services import Services
from companion.ui.widgets import action, heading, humanise, players_text


def players_label(game: Game) -> str:
    """The player count, per variant where an option changes it (Tableau's editions, T1)."""
    options = game.options_type()
    hints = typing.get_type_hints(type(options))
    for field in dataclasses.fields(options):
        kind = hints[field.name]
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            ranges = {member: game.player_range(dataclasses.replace(options, **{field.name: member}))
                      for member in kind}
            if len(set(ranges.values())) > 1:
                return "; ".join(f"{humanise(str(member.value))}: {players_text(*players)}"
                                 for member, players in ranges.items())
    return players_text(*game.player_range(options))


def game_card(game: Game, navigate: Navigate) -> ft.Control:
    not_built = [] if game.key in GAME_SCREENS else [ft.Text(
        "Its scoring screen is not built yet: a game can be set up and kept, "
        "but not scored here.", italic=True)]
    return ft.Card(ft.Container(ft.Column([
        ft.Text(game.title, size=20, weight=ft.FontWeight.BOLD),
        ft.Text(players_label(game)),
        *not_built,
        action(f"New {game.title} game", lambda _: navigate(Route("new", game.key)), primary=True),
    ]), padding=12))


@ft.component
def HomeScreen(services: Services, navigate: Navigate):
    in_progress = [summary for summary in services.storage.matches.summaries()
                   if not summary.finished and not summary.abandoned]
    names = {player.id: player.name for player in services.storage.players.list(include_archived=True)}
    resume = [
        ft.ListTile(
            title=ft.Text(f"{services.game(summary.game).title}: "
                          + ", ".join(names.get(seat, "?") for seat in summary.seats)),
            subtitle=ft.Text(f"started {summary.created_at[:16].replace('T', ' ')}"),
            on_click=lambda _, match_id=summary.id: navigate(Route("match", match_id)),
        )
        for summary in in_progress[:10]
    ]
    repairs = [ft.Text(notice, color=ft.Colors.ERROR) for notice in services.notices]
    return ft.Column([
        *repairs,
        ft.Row([
            action("Players", lambda _: navigate(Route("players")), primary=True),
            action("History", lambda _: navigate(Route("history"))),
            action("Statistics", lambda _: navigate(Route("statistics"))),
        ], wrap=True),
        *([heading("Games in progress"), *resume] if resume else []),
        heading("Games"),
        *(game_card(game, navigate) for game in services.games.values()),
        action("Settings: export, import, backups", lambda _: navigate(Route("settings"))),
    ])
