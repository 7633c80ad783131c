"""Statistics: per player overall and per game, head-to-head, and charts (issue 5).

Computed each time the screen opens from the match summaries the library keeps (each holds its
match's outcome and figures, rewritten whenever the match changes), so a match reopened and
corrected (G2) is reflected at once and no match file is read; abandoned matches (G4) count in no
win statistic (companion.history.stats).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

import flet as ft

from companion.core.types import PlayerId
from companion.games.patience import PatienceStatistics
from companion.history.charts import games_per_month, games_per_year, win_rates
from companion.history.stats import (
    Figures,
    GameStatistics,
    Outcome,
    PlazaFigures,
    SolitaireFigures,
    TabitFigures,
    TablanetteFigures,
    TableauFigures,
    WinRecord,
    head_to_head,
    history_statistics,
)
from companion.ui.routes import HOME, Navigate, Route
from companion.ui.screens.charts import bar_chart
from companion.ui.screens.history import choice_row, names_of
from companion.ui.services import Services
from companion.ui.widgets import back, heading


def stored_outcomes(services: Services) -> tuple[Outcome, ...]:
    """Every stored match's outcome, read off its summary (no match file is opened)."""
    return tuple(summary.outcome for summary in services.storage.matches.summaries())


def counted(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def number(value: float | None, unit: str = "", digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}{unit}"


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}:{rest:02d}"


def record_text(record: WinRecord) -> str:
    rate = "-" if record.win_rate is None else f"{100 * record.win_rate:.0f}%"
    apart = [f"{record.abandoned} abandoned"] if record.abandoned else []
    apart += [f"{record.in_progress} in progress"] if record.in_progress else []
    return (f"Played {record.played}, wins {record.wins}, win rate {rate}, "
            f"current streak {record.current_streak}, longest streak {record.longest_streak}"
            + (f" ({', '.join(apart)}, not counted)" if apart else ""))


def figures_text(figures: Figures | None) -> str:
    """Each game's own figures (issue 5), worded for the player."""
    match figures:
        case TableauFigures():
            return (f"{counted(figures.rounds, 'round')}, {number(figures.tokens_per_round)} tokens won "
                    "per round")
        case SolitaireFigures():
            best = ", ".join(f"{entry.pictures} pictures {duration(entry.seconds)}"
                             for entry in figures.best_times) or "none yet"
            return (f"{figures.finished_attempts} of {counted(figures.attempts, 'attempt')} finished; "
                    f"best times: {best}")
        case PlazaFigures():
            return (f"{counted(figures.hands, 'hand')}, {number(figures.average_against_per_hand)} points "
                    "against per hand")
        case TablanetteFigures():
            return (f"{counted(figures.packs, 'pack')}, {number(figures.average_points_per_pack)} points "
                    f"per pack, {counted(figures.tablanettes, 'tablanette')}")
        case TabitFigures():
            return (f"{counted(figures.rounds, 'round')}, best board {figures.best_board or '-'}, "
                    f"{number(figures.average_per_round)} per round")
        case PatienceStatistics():
            rate = None if figures.win_rate is None else 100 * figures.win_rate
            return (f"{counted(figures.attempts, 'attempt')}, win rate {number(rate, '%', 0)}, best time "
                    f"{duration(figures.best_seconds)}, "
                    f"{number(figures.average_cards_home)} cards home on average")
    return ""


def game_block(entry: GameStatistics, services: Services) -> ft.Control:
    figures = figures_text(entry.figures)
    return ft.Column([
        ft.Text(services.game(entry.game).title, weight=ft.FontWeight.BOLD),
        ft.Text(record_text(entry.record)),
        *([ft.Text(figures)] if figures else []),
    ], spacing=2)


def head_to_head_text(played: tuple[Outcome, ...], first: PlayerId, second: PlayerId,
                      names: Mapping[str, str]) -> str:
    record = head_to_head(played, first, second)
    one, other = names.get(first, first), names.get(second, second)
    return (f"{one} against {other}: {record.played} finished together; {one} won "
            f"{record.first_wins}, {other} won {record.second_wins}, shared {record.shared}, "
            f"someone else {record.neither}")


MONTHS_SHOWN = 12


def activity_charts(played: tuple[Outcome, ...]) -> list[ft.Control]:
    """Games per month over the last year, and per year when the history spans several."""
    years = games_per_year(played)
    return [bar_chart(games_per_month(played, last=MONTHS_SHOWN), (1, 2)),
            *([bar_chart(years, (1, 2))] if len(years.rows) > 1 else [])]


class Computed:
    """Every match's outcome and the statistics over them (compared by identity: a new load is a
    new value, and ten thousand matches are never compared field by field)."""

    def __init__(self, played: tuple[Outcome, ...]) -> None:
        self.played = played
        self.statistics = history_statistics(played)


@ft.component
def StatisticsScreen(services: Services, navigate: Navigate):
    computed, set_computed = ft.use_state(None)
    names = ft.use_memo(lambda: names_of(services), [])
    chosen, set_player = ft.use_state(None)
    rival, set_rival = ft.use_state(None)

    async def compute() -> None:
        # A tenth of a second or so over thousands of matches: off the UI loop all the same.
        set_computed(await asyncio.to_thread(lambda: Computed(stored_outcomes(services))))

    ft.use_effect(compute, [])

    top = [back(navigate, HOME, "Home"), heading("Statistics"),
           ft.TextButton("History", on_click=lambda _: navigate(Route("history")), height=48)]
    if computed is None:
        return ft.Column([*top, ft.Row([ft.ProgressRing(width=24, height=24),
                                        ft.Text("Counting every game…")])])
    played, stats = computed.played, computed.statistics
    ordered = sorted((entry.player for entry in stats.players),
                     key=lambda player: names.get(player, player).casefold())
    if not ordered:
        return ft.Column([*top, ft.Text("No games yet: statistics come with the first game.")])
    player = chosen if chosen in ordered else ordered[0]
    mine = stats.of(player)
    others = [other for other in ordered if other != player]
    versus = rival if rival in others else (others[0] if others else None)
    return ft.Column([
        *top,
        choice_row("Player", [(p, names.get(p, p)) for p in ordered], player, set_player),
        ft.Text(f"{names.get(player, player)} overall", size=20, weight=ft.FontWeight.BOLD),
        ft.Text(record_text(mine.overall)),
        *(game_block(entry, services) for entry in mine.games),
        *([
            ft.Text("Head-to-head", size=20, weight=ft.FontWeight.BOLD),
            choice_row("Against", [(p, f"against {names.get(p, p)}") for p in others], versus,
                       set_rival),
            ft.Text(head_to_head_text(played, player, versus, names)),
        ] if versus else []),
        bar_chart(win_rates(stats, names), (3,)),
        *activity_charts(played),
    ])
