"""History: game nights newest first, filtered by player and game, a page at a time; a night's
page with each match's result and its round-by-round table (issue 5).

Results come from the match summaries the library keeps (no match file is read to list nights);
a night's page loads its own few matches for their round tables.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import flet as ft

from companion.core.types import NightId, PlayerId
from companion.history.charts import running_totals
from companion.history.stats import played_match
from companion.ui.routes import HOME, Navigate, Route
from companion.ui.screens.charts import line_chart
from companion.ui.services import Services
from companion.ui.widgets import action, back, heading
from storage.model import MatchSummary, Night

PAGE_SIZE = 20
ALL = ""  # the filter value that keeps everything


@dataclass(frozen=True)
class NightEntry:
    """A night as the list shows it: who played and which games."""

    night: Night
    games: tuple[str, ...]  # game keys, first played first


def night_entries(nights: Iterable[Night], summaries: Iterable[MatchSummary]) -> list[NightEntry]:
    """Each night (in the order given) with the games of its matches."""
    games: dict[NightId | None, dict[str, None]] = defaultdict(dict)
    for summary in sorted(summaries, key=lambda summary: summary.created_at):
        games[summary.night][summary.game] = None
    return [NightEntry(night, tuple(games[night.id])) for night in nights]


def matching(entries: Iterable[NightEntry], player: str, game: str) -> list[NightEntry]:
    """The nights where `player` sat and `game` was played (ALL keeps any)."""
    return [entry for entry in entries
            if (player == ALL or player in entry.night.players)
            and (game == ALL or game in entry.games)]


def names_of(services: Services) -> dict[str, str]:
    return {player.id: player.name
            for player in services.storage.players.list(include_archived=True)}


def joined(players: Iterable[PlayerId], names: Mapping[str, str]) -> str:
    return ", ".join(names.get(player, player) for player in players)


def result_text(summary: MatchSummary, names: Mapping[str, str]) -> str:
    """What became of a match: abandoned (G4), in progress, or its winners (shared, G3)."""
    if summary.abandoned:
        return "Abandoned: shown here, counted in no statistics."
    if not summary.finished:
        return "In progress."
    winners = sorted(names.get(player, player) for player in summary.winners)
    if len(winners) > 1:
        return f"Shared win: {' and '.join(winners)}."
    return f"Winner: {winners[0]}." if winners else "No winner."


def standings_text(summary: MatchSummary, names: Mapping[str, str]) -> str:
    return "   ".join(f"{standing.rank}. {names.get(standing.player, standing.player)} "
                      f"{standing.score}" for standing in summary.standings)


def choice_row(title: str, options: Sequence[tuple[str, str]], chosen: str,
               choose: Callable[[str], None]) -> ft.Control:
    """A titled row of buttons, one per (value, label); the chosen one is filled."""
    return ft.Column([
        ft.Text(title, weight=ft.FontWeight.BOLD),
        ft.Row([
            (ft.FilledButton if value == chosen else ft.OutlinedButton)(
                label, on_click=lambda _, value=value: choose(value), height=40)
            for value, label in options
        ], wrap=True, spacing=4, run_spacing=4),
    ], spacing=2)


def night_tile(entry: NightEntry, services: Services, names: Mapping[str, str],
               navigate: Navigate) -> ft.Control:
    night = entry.night
    place = f" at {night.place}" if night.place else ""
    count = len(night.matches)
    games = ", ".join(services.game(key).title for key in entry.games)
    return ft.ListTile(
        title=ft.Text(f"Night of {night.date}{place}"),
        subtitle=ft.Text(f"{count} game{'s' if count != 1 else ''}: {games}\n"
                         f"{joined(night.players, names)}"),
        is_three_line=True,
        on_click=lambda _: navigate(Route("night", night.id)),
    )


@ft.component
def HistoryScreen(services: Services, navigate: Navigate):
    # Read once when the screen opens: filtering and paging then cost no storage access.
    entries = ft.use_memo(lambda: night_entries(services.storage.nights.list(),
                                                services.storage.matches.summaries()), [])
    names = ft.use_memo(lambda: names_of(services), [])
    player, set_player = ft.use_state(ALL)
    game, set_game = ft.use_state(ALL)
    shown, set_shown = ft.use_state(PAGE_SIZE)

    def filter_by(setter: Callable[[str], None]) -> Callable[[str], None]:
        def choose(value: str) -> None:
            setter(value)
            set_shown(PAGE_SIZE)  # a new filter starts again at its first page
        return choose

    seated = sorted({player for entry in entries for player in entry.night.players},
                    key=lambda player: names.get(player, player).casefold())
    played = sorted({key for entry in entries for key in entry.games})
    chosen = matching(entries, player, game)
    return ft.Column([
        back(navigate, HOME, "Home"),
        heading("History"),
        action("Statistics", lambda _: navigate(Route("statistics"))),
        choice_row("Player", [(ALL, "All players"), *((p, names.get(p, p)) for p in seated)],
                   player, filter_by(set_player)),
        choice_row("Game", [(ALL, "All games"), *((key, services.game(key).title)
                                                   for key in played)],
                   game, filter_by(set_game)),
        ft.Text(f"{len(chosen)} game night{'s' if len(chosen) != 1 else ''}"),
        *(night_tile(entry, services, names, navigate) for entry in chosen[:shown]),
        *([action("Show more", lambda _: set_shown(shown + PAGE_SIZE))]
          if len(chosen) > shown else []),
        *([] if entries else [ft.Text("No game nights yet: start a game and it is filed under "
                                      "today's night.")]),
    ])


def match_card(summary: MatchSummary, services: Services, names: Mapping[str, str],
               navigate: Navigate) -> ft.Control:
    game = services.game(summary.game)
    storage = services.storage.matches
    entry = played_match(storage.get(summary.id), game, storage.state(summary.id))
    table = running_totals(entry, names)
    return ft.Card(ft.Container(ft.Column([
        ft.Text(f"{game.title}: {joined(summary.seats, names)}", size=18,
                weight=ft.FontWeight.BOLD),
        ft.Text(f"started {summary.created_at[11:16]}"),
        ft.Text(result_text(summary, names), weight=ft.FontWeight.BOLD,
                color=ft.Colors.ERROR if summary.abandoned else None),
        *([ft.Text(standings_text(summary, names))] if summary.standings else []),
        line_chart(table) if table.rows else ft.Text("No rounds recorded."),
        action(f"Open this {game.title} game", lambda _: navigate(Route("match", summary.id))),
    ]), padding=12), semantic_container=False)


@ft.component
def NightScreen(services: Services, navigate: Navigate, night_id: str):
    night = services.storage.nights.get(NightId(night_id))
    summaries = sorted(services.storage.matches.summaries(night=night.id),
                       key=lambda summary: summary.created_at)
    names = names_of(services)
    place = f" at {night.place}" if night.place else ""
    return ft.Column([
        back(navigate, Route("history"), "History"),
        heading(f"Night of {night.date}{place}"),
        ft.Text(f"Players: {joined(night.players, names)}"),
        *(match_card(summary, services, names, navigate) for summary in summaries),
    ])
