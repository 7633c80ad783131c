"""Statistics over the match history: win records, streaks, per-game figures, head-to-head.

Everything is derived from matches and their replayed states (G2: a corrected match gives new
statistics the next time they are computed; nothing is stored).

What counts, and why:
- "played" counts finished matches only. An abandoned match (G4) counts in no win statistic, and
  a match still in progress has no result yet; both are counted apart (`abandoned`,
  `in_progress`) so the history can list them. Neither breaks or extends a streak.
- A shared win (G3) is a win for every player who shares it.
- Streaks follow the matches in the order they were created (created_at, then id).
- Game-specific figures (per round, per hand, best times) come from finished matches only too,
  so a game half played or given up moves no average.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from statistics import fmean

from companion.core.errors import InvalidSetup
from companion.core.game import Game, Standing
from companion.core.match import GameLookup, Match, MatchState, replay
from companion.core.types import MatchId, PlayerId
from companion.games.patience import PatienceState, PatienceStatistics, attempt_statistics
from companion.games.plaza import PlazaState
from companion.games.tabit import Line, TabitState
from companion.games.tablanette import TablanetteState
from companion.games.tableau import TableauState
from companion.games.tableau_solitaire import SolitaireState


class Status(enum.Enum):
    FINISHED = "finished"
    ABANDONED = "abandoned"  # G4
    IN_PROGRESS = "in progress"


@dataclass(frozen=True)
class PlayedMatch:
    """A match with what statistics read off its replayed state."""

    match: Match
    state: MatchState
    game: Game
    status: Status
    winners: frozenset[PlayerId]  # empty unless finished

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """Current standings (final once finished); worked out only when asked for, since win
        statistics need only the winners."""
        return self.game.standings(self.state.game)

    @property
    def order(self) -> tuple[str, str]:
        return self.match.created_at, self.match.id


def played_match(match: Match, game: Game, state: MatchState | None = None) -> PlayedMatch:
    """Read a match's outcome; pass its `state` when it is at hand to skip a replay."""
    current = replay(match, game) if state is None else state
    if current.abandoned:
        status = Status.ABANDONED
    elif game.is_over(current.game):
        status = Status.FINISHED
    else:
        status = Status.IN_PROGRESS
    winners = game.winners(current.game) if status is Status.FINISHED else frozenset()
    return PlayedMatch(match, current, game, status, winners)


def played_matches(matches: Iterable[Match], games: GameLookup) -> tuple[PlayedMatch, ...]:
    """Replay every match (the from-scratch path)."""
    return tuple(played_match(match, games(match.game)) for match in matches)


@dataclass(frozen=True)
class WinRecord:
    played: int  # finished matches
    wins: int  # shared wins included (G3)
    current_streak: int  # wins in a row up to the latest finished match
    longest_streak: int
    abandoned: int  # listed only (G4)
    in_progress: int

    @property
    def win_rate(self) -> float | None:
        """Wins per finished match; None before any finished match."""
        return self.wins / self.played if self.played else None


def win_record(player: PlayerId, matches: Iterable[PlayedMatch]) -> WinRecord:
    """`player`'s record over `matches`, which must be in created order."""
    played = wins = streak = longest = abandoned = in_progress = 0
    for entry in matches:
        if entry.status is Status.ABANDONED:
            abandoned += 1
        elif entry.status is Status.IN_PROGRESS:
            in_progress += 1
        else:
            played += 1
            won = player in entry.winners
            wins += won
            streak = streak + 1 if won else 0
            longest = max(longest, streak)
    return WinRecord(played, wins, streak, longest, abandoned, in_progress)


# --- figures of each game, over one player's finished matches of it --------------------------


def _mean(values: Sequence[float]) -> float | None:
    return fmean(values) if values else None


@dataclass(frozen=True)
class TableauFigures:
    rounds: int
    tokens_per_round: float | None  # average net tokens won per round (calls and settlement)


@dataclass(frozen=True)
class BestSolitaireTime:
    pictures: int
    seconds: float


@dataclass(frozen=True)
class SolitaireFigures:
    attempts: int
    finished_attempts: int
    best_times: tuple[BestSolitaireTime, ...]  # per number of pictures, finished only (T8)


@dataclass(frozen=True)
class PlazaFigures:
    hands: int
    average_against_per_hand: float | None  # P3 points set down against him, winning hands as 0


@dataclass(frozen=True)
class TablanetteFigures:
    packs: int
    average_points_per_pack: float | None
    tablanettes: int  # tablanettes made (N4)


@dataclass(frozen=True)
class TabitFigures:
    rounds: int  # rounds he played (a tie round may leave him out, B3)
    best_board: int | None  # the most points one of his boards made
    best_line: Line | None  # the line of that board; None for no board yet or "NO SCORE"
    average_per_round: float | None


Figures = (TableauFigures | SolitaireFigures | PlazaFigures | TablanetteFigures | TabitFigures
           | PatienceStatistics)


def _tableau_figures(player: PlayerId, states: Sequence[TableauState]) -> TableauFigures:
    changes = [line.change for state in states for summary in state.rounds
               for line in summary.players if line.player == player]
    return TableauFigures(len(changes), _mean(changes))


def _solitaire_figures(player: PlayerId, states: Sequence[SolitaireState]) -> SolitaireFigures:
    best: dict[int, float] = {}
    for state in states:
        for entry in state.best:
            best[entry.pictures] = min(entry.seconds, best.get(entry.pictures, entry.seconds))
    return SolitaireFigures(
        attempts=sum(len(state.attempts) for state in states),
        finished_attempts=sum(state.finished_attempts for state in states),
        best_times=tuple(BestSolitaireTime(pictures, best[pictures]) for pictures in sorted(best)),
    )


def _plaza_figures(player: PlayerId, states: Sequence[PlazaState]) -> PlazaFigures:
    points = [hand.points(player) for state in states for hand in state.hands]
    return PlazaFigures(len(points), _mean(points))


def _tablanette_figures(player: PlayerId, states: Sequence[TablanetteState]) -> TablanetteFigures:
    scores = [summary.score_of(player) for state in states for summary in state.rounds]
    return TablanetteFigures(len(scores), _mean([score.points for score in scores]),
                             sum(len(score.tablanettes) for score in scores))


def _tabit_figures(player: PlayerId, states: Sequence[TabitState]) -> TabitFigures:
    boards = [board for state in states for summary in state.rounds for board in summary.boards
              if board.player == player]
    points = [board.points for board in boards]
    if not boards:
        return TabitFigures(0, None, None, None)
    best = max(range(len(boards)), key=points.__getitem__)  # the first of the best boards
    return TabitFigures(len(boards), points[best], boards[best].line, fmean(points))


def _patience_figures(player: PlayerId, states: Sequence[PatienceState]) -> PatienceStatistics:
    # Q3 over every attempt of every session, in the order they were played.
    return attempt_statistics([attempt for state in states for attempt in state.attempts])


FigureReader = Callable[[PlayerId, Sequence[object]], Figures]

FIGURES: Mapping[str, FigureReader] = {
    "tableau": _tableau_figures,
    "tableau_solitaire": _solitaire_figures,
    "plaza": _plaza_figures,
    "tablanette": _tablanette_figures,
    "tabit": _tabit_figures,
    "crazy_quilt": _patience_figures,
    "windmill": _patience_figures,
}


# --- per player ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameStatistics:
    game: str
    record: WinRecord
    figures: Figures | None  # None for a game this module has no figures for


@dataclass(frozen=True)
class PlayerStatistics:
    player: PlayerId
    overall: WinRecord
    games: tuple[GameStatistics, ...]  # by game key

    def of_game(self, game: str) -> GameStatistics | None:
        return next((entry for entry in self.games if entry.game == game), None)


@dataclass(frozen=True)
class HistoryStatistics:
    players: tuple[PlayerStatistics, ...]  # by player id
    abandoned: tuple[MatchId, ...]  # G4: listed, counted in no win statistic; created order

    def of(self, player: PlayerId) -> PlayerStatistics | None:
        return next((entry for entry in self.players if entry.player == player), None)


def _game_statistics(player: PlayerId, game: str,
                     matches: Sequence[PlayedMatch]) -> GameStatistics:
    reader = FIGURES.get(game)
    finished = [entry.state.game for entry in matches if entry.status is Status.FINISHED]
    figures = reader(player, finished) if reader is not None else None
    return GameStatistics(game, win_record(player, matches), figures)


def history_statistics(matches: Iterable[PlayedMatch]) -> HistoryStatistics:
    """Every player's statistics, overall and per game, over `matches` (any order)."""
    in_order = sorted(matches, key=lambda entry: entry.order)
    by_player: dict[PlayerId, list[PlayedMatch]] = defaultdict(list)
    by_player_game: dict[PlayerId, dict[str, list[PlayedMatch]]] = defaultdict(
        lambda: defaultdict(list))
    for entry in in_order:
        for player in entry.match.seating.seats:
            by_player[player].append(entry)
            by_player_game[player][entry.match.game].append(entry)
    players = tuple(
        PlayerStatistics(
            player,
            win_record(player, by_player[player]),
            tuple(_game_statistics(player, game, games[game]) for game in sorted(games)),
        )
        for player, games in sorted(by_player_game.items())
    )
    abandoned = tuple(entry.match.id for entry in in_order if entry.status is Status.ABANDONED)
    return HistoryStatistics(players, abandoned)


# --- head-to-head --------------------------------------------------------------------------


@dataclass(frozen=True)
class HeadToHead:
    """Two players' record in the matches they both sat in and finished."""

    first: PlayerId
    second: PlayerId
    played: int
    first_wins: int  # the first won, the second did not
    second_wins: int
    shared: int  # both won (G3)
    neither: int  # someone else at the table won


def _tally(first: PlayerId, second: PlayerId, matches: Iterable[PlayedMatch]) -> HeadToHead:
    """The record of two players over finished matches they both sat in."""
    counts = {(True, False): 0, (False, True): 0, (True, True): 0, (False, False): 0}
    for entry in matches:
        counts[first in entry.winners, second in entry.winners] += 1
    return HeadToHead(first, second, sum(counts.values()), counts[True, False],
                      counts[False, True], counts[True, True], counts[False, False])


def head_to_head(matches: Iterable[PlayedMatch], first: PlayerId, second: PlayerId) -> HeadToHead:
    if first == second:
        raise InvalidSetup("Choose two different players for a head-to-head.")
    return _tally(first, second, (
        entry for entry in matches if entry.status is Status.FINISHED
        and first in entry.match.seating.seats and second in entry.match.seating.seats))


def every_head_to_head(matches: Iterable[PlayedMatch]) -> tuple[HeadToHead, ...]:
    """The record of every pair of players who finished a match together, in one pass
    (first < second by id)."""
    together: dict[tuple[PlayerId, PlayerId], list[PlayedMatch]] = defaultdict(list)
    for entry in matches:
        if entry.status is Status.FINISHED:
            for pair in combinations(sorted(entry.match.seating.seats), 2):
                together[pair].append(entry)
    return tuple(_tally(first, second, together[first, second])
                 for first, second in sorted(together))
