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


def _years_between(first: str, last: str) -> list[str]:
    return [f"{year:04d}" for year in range(int(first), int(last) + 1)]


def _per_period(title: str, heading: str, matches: Iterable[Outcome], length: int,
                every: Callable[[str, str], list[str]], last: int | None) -> ChartTable:
    """Finished and abandoned matches per period (the first `length` characters of the date
    they were started), quiet periods as 0; only the `last` periods up to the newest when given."""
    counts = Counter((entry.created_at[:length], entry.status) for entry in matches)
    periods = sorted({period for period, _ in counts})
    shown = every(periods[0], periods[-1]) if periods else []
    rows = tuple((period, counts[period, Status.FINISHED], counts[period, Status.ABANDONED])
                 for period in (shown if last is None else shown[-last:]))
    return ChartTable(title, (heading, "Finished", "Abandoned"), rows)


def games_per_month(matches: Iterable[Outcome], last: int | None = None) -> ChartTable:
    """Finished and abandoned matches per month they were started in (G4 shown, apart); only
    the `last` months up to the newest match's when given (a phone shows a year of bars, and
    years of them take seconds to draw)."""
    title = "Games played per month" + (f", last {last} months" if last else "")
    return _per_period(title, "Month", matches, 7, _months_between, last)


def games_per_year(matches: Iterable[Outcome]) -> ChartTable:
    """Finished and abandoned matches per year they were started in (G4 shown, apart)."""
    return _per_period("Games played per year", "Year", matches, 4, _years_between, None)
