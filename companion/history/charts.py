"""Chart data as plain tables: the same rows feed a chart and its text alternative.

A ChartTable is a title, column headings and rows of values; the first column is the x axis (a
round, a player, a month), the others are the series. Screen readers get the table as it is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate

from companion.core.types import PlayerId
from companion.games.patience import PatienceState
from companion.games.plaza import PlazaState
from companion.games.tabit import TabitState
from companion.games.tablanette import TablanetteState
from companion.games.tableau import TableauState
from companion.games.tableau_solitaire import SolitaireState
from companion.history.stats import HistoryStatistics, Outcome, PlayedMatch, Status

Cell = str | int | float | None


@dataclass(frozen=True)
class ChartTable:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]


Names = Mapping[PlayerId, str]

# Each game's running totals after each round, in seat order.
RoundTotals = Callable[[object], Iterable[tuple[int, ...]]]


def _tableau_totals(state: TableauState) -> Iterable[tuple[int, ...]]:
    return (tuple(line.total for line in summary.players) for summary in state.rounds)


def _plaza_totals(state: PlazaState) -> Iterable[tuple[int, ...]]:
    return (tuple(line.total for line in hand.lines) for hand in state.hands)


def _tablanette_totals(state: TablanetteState) -> Iterable[tuple[int, ...]]:
    return (tuple(score.total for score in summary.scores) for summary in state.rounds)


def _tabit_totals(state: TabitState) -> Iterable[tuple[int, ...]]:
    return (tuple(total for _, total in summary.totals) for summary in state.rounds)


def _solitaire_totals(state: SolitaireState) -> Iterable[tuple[int, ...]]:
    # One player, attempt by attempt: pictures finished so far (his score, T8).
    return ((count,) for count in accumulate(int(attempt.finished) for attempt in state.attempts))


def _patience_totals(state: PatienceState) -> Iterable[tuple[int, ...]]:
    return ((count,) for count in accumulate(int(attempt.won) for attempt in state.attempts))


ROUND_TOTALS: Mapping[str, tuple[str, RoundTotals]] = {
    "tableau": ("Round", _tableau_totals),
    "tableau_solitaire": ("Attempt", _solitaire_totals),
    "plaza": ("Hand", _plaza_totals),
    "tablanette": ("Pack", _tablanette_totals),
    "tabit": ("Round", _tabit_totals),
    "crazy_quilt": ("Attempt", _patience_totals),
    "windmill": ("Attempt", _patience_totals),
}


def _name(player: PlayerId, names: Names | None) -> str:
    return names.get(player, player) if names else player


def running_totals(entry: PlayedMatch, names: Names | None = None) -> ChartTable:
    """Each player's running total after each round (hand, pack, attempt) of one match."""
    step, totals = ROUND_TOTALS[entry.match.game]
    seats = entry.match.seating.seats
    rows = tuple((number, *line) for number, line in enumerate(totals(entry.state.game), 1))
    return ChartTable(f"{entry.game.title}: running totals",
                      (step, *(_name(player, names) for player in seats)), rows)


def win_rates(statistics: HistoryStatistics, names: Names | None = None) -> ChartTable:
    """Win rate per player over finished matches, as a percentage (G3 shared wins count)."""
    rows = tuple(
        (_name(entry.player, names), entry.overall.played, entry.overall.wins,
         None if entry.overall.win_rate is None else round(100 * entry.overall.win_rate, 1))
        for entry in statistics.players
    )
    return ChartTable("Win rate per player", ("Player", "Played", "Wins", "Win rate %"), rows)


def _months_between(first: str, last: str) -> list[str]:
    """Every month from `first` to `last` ("YYYY-MM"), so a chart shows quiet months as 0."""
    year, month = int(first[:4]), int(first[5:7])
    months = []
    while (label := f"{year:04d}-{month:02d}") <= last:
        months.append(label)
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    return months


def games_per_month(matches: Iterable[Outcome]) -> ChartTable:
    """Finished and abandoned matches per month they were started in (G4 shown, apart)."""
    counts = Counter((entry.created_at[:7], entry.status) for entry in matches)
    months = sorted({month for month, _ in counts})
    rows = tuple((month, counts[month, Status.FINISHED], counts[month, Status.ABANDONED])
                 for month in (_months_between(months[0], months[-1]) if months else []))
    return ChartTable("Games played per month", ("Month", "Finished", "Abandoned"), rows)
