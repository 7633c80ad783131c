"""Statistics over the match history: win records, streaks, per-game figures, head-to-head.

Statistics read one Outcome per match: who sat, how it ended, and each player's tally of the
game's own figures (rounds, points, best times...). An Outcome is worked out once from the
match's replayed state (`outcome`) and kept in the match's stored summary, which storage rewrites
whenever the match changes (G2: a corrected match gives new statistics the next time they are
computed). So statistics over thousands of matches read no match file and replay nothing, and
give exactly what replaying every match gives (tests/history/test_properties.py).

What counts, and why:
- "played" counts finished matches only. An abandoned match (G4) counts in no win statistic, and
  a match still in progress has no result yet; both are counted apart (`abandoned`,
  `in_progress`) so the history can list them. Neither breaks or extends a streak.
- A shared win (G3) is a win for every player who shares it.
- Streaks follow the matches in the order they were created (created_at, then id).
- Game-specific figures (per round, per hand, best times) come from finished matches only too,
  so a game half played or given up moves no average; only finished matches carry tallies.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations
from statistics import median
from typing import Any

from companion.core.errors import InvalidSetup
from companion.core.game import Game, Standing
from companion.core.match import GameLookup, Match, MatchState, replay
from companion.core.types import MatchId, PlayerId
from companion.games.patience import PatienceState, PatienceStatistics, attempt_statistics
from companion.games.plaza import PlazaState
from companion.games.tabit import Line, Picture, TabitState
from companion.games.tablanette import TablanetteState
from companion.games.tableau import TableauState
from companion.games.tableau_solitaire import SolitaireState


class Status(enum.Enum):
    FINISHED = "finished"
    ABANDONED = "abandoned"  # G4
    IN_PROGRESS = "in progress"


# --- each game's figures: a tally per player and match, combined over his matches ------------
#
# A tally holds sums, counts and bests (never an average), so combining tallies gives exactly
# the figures worked out over all the states at once.


@dataclass(frozen=True)
class TableauTally:
    rounds: int
    tokens: int  # net tokens won over those rounds (calls and settlement)


@dataclass(frozen=True)
class PlazaTally:
    hands: int
    points_against: int  # P3, winning hands as 0


@dataclass(frozen=True)
class TablanetteTally:
    packs: int
    points: int
    tablanettes: int  # made (N4)


@dataclass(frozen=True)
class TabitTally:
    rounds: int  # rounds he played (a tie round may leave him out, B3)
    points: int
    best_board: int | None  # the first of his best boards in the match; None without a board
    best_line: Line | None  # that board's line; None also for "NO SCORE"


@dataclass(frozen=True)
class BestSolitaireTime:
    pictures: int
    seconds: float


@dataclass(frozen=True)
class SolitaireFigures:
    attempts: int
    finished_attempts: int
    best_times: tuple[BestSolitaireTime, ...]  # per number of pictures, finished only (T8)


# One match's solitaire figures are already its tally: sums and bests combine as they are.
SolitaireTally = SolitaireFigures


@dataclass(frozen=True)
class PatienceTally:
    """A session's attempts as Q3 needs them across sessions: the won times (for the median),
    and the wins at either end of the session (a winning streak runs on into the next one)."""

    attempts: int
    cards_home: int  # over all its attempts
    won_seconds: tuple[float, ...]  # won attempts' times, in order
    first_wins: int  # won attempts before the first lost one (all, if none was lost)
    last_wins: int  # won attempts after the last lost one: the session's current streak
    longest_streak: int


Tally = (TableauTally | PlazaTally | TablanetteTally | TabitTally | SolitaireTally
         | PatienceTally)
# Each seated player's tally in one finished match, in seat order.
Tallies = tuple[tuple[PlayerId, Tally], ...]


@dataclass(frozen=True)
class TableauFigures:
    rounds: int
    tokens_per_round: float | None  # average net tokens won per round (calls and settlement)


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


def _ratio(total: int, count: int) -> float | None:
    return total / count if count else None


def _tableau_tally(player: PlayerId, state: TableauState) -> TableauTally:
    changes = [line.change for summary in state.rounds for line in summary.players
               if line.player == player]
    return TableauTally(len(changes), sum(changes))


def _tableau_figures(tallies: Sequence[TableauTally]) -> TableauFigures:
    rounds = sum(tally.rounds for tally in tallies)
    return TableauFigures(rounds, _ratio(sum(tally.tokens for tally in tallies), rounds))


def _plaza_tally(player: PlayerId, state: PlazaState) -> PlazaTally:
    return PlazaTally(len(state.hands), sum(hand.points(player) for hand in state.hands))


def _plaza_figures(tallies: Sequence[PlazaTally]) -> PlazaFigures:
    hands = sum(tally.hands for tally in tallies)
    return PlazaFigures(hands, _ratio(sum(tally.points_against for tally in tallies), hands))


def _tablanette_tally(player: PlayerId, state: TablanetteState) -> TablanetteTally:
    scores = [summary.score_of(player) for summary in state.rounds]
    return TablanetteTally(len(scores), sum(score.points for score in scores),
                           sum(len(score.tablanettes) for score in scores))


def _tablanette_figures(tallies: Sequence[TablanetteTally]) -> TablanetteFigures:
    packs = sum(tally.packs for tally in tallies)
    return TablanetteFigures(packs, _ratio(sum(tally.points for tally in tallies), packs),
                             sum(tally.tablanettes for tally in tallies))


def _tabit_tally(player: PlayerId, state: TabitState) -> TabitTally:
    boards = [board for summary in state.rounds for board in summary.boards
              if board.player == player]
    if not boards:
        return TabitTally(0, 0, None, None)
    best = max(boards, key=lambda board: board.points)  # max keeps the first of equals
    return TabitTally(len(boards), sum(board.points for board in boards), best.points, best.line)


def _tabit_figures(tallies: Sequence[TabitTally]) -> TabitFigures:
    played = [tally for tally in tallies if tally.rounds]
    if not played:
        return TabitFigures(0, None, None, None)
    best = max(played, key=lambda tally: tally.best_board)  # the first match's, among equals
    rounds = sum(tally.rounds for tally in played)
    return TabitFigures(rounds, best.best_board, best.best_line,
                        _ratio(sum(tally.points for tally in played), rounds))


def _solitaire_tally(player: PlayerId, state: SolitaireState) -> SolitaireTally:
    return SolitaireTally(len(state.attempts), state.finished_attempts,
                          tuple(BestSolitaireTime(best.pictures, best.seconds)
                                for best in state.best))


def _solitaire_figures(tallies: Sequence[SolitaireTally]) -> SolitaireFigures:
    best: dict[int, float] = {}
    for tally in tallies:
        for entry in tally.best_times:
            best[entry.pictures] = min(entry.seconds, best.get(entry.pictures, entry.seconds))
    return SolitaireFigures(
        attempts=sum(tally.attempts for tally in tallies),
        finished_attempts=sum(tally.finished_attempts for tally in tallies),
        best_times=tuple(BestSolitaireTime(pictures, best[pictures]) for pictures in sorted(best)),
    )


def _patience_tally(player: PlayerId, state: PatienceState) -> PatienceTally:
    attempts = state.attempts
    session = attempt_statistics(attempts)
    first_lost = next((number for number, attempt in enumerate(attempts) if not attempt.won),
                      len(attempts))
    return PatienceTally(len(attempts), sum(attempt.cards_home for attempt in attempts),
                         tuple(attempt.seconds for attempt in attempts if attempt.won),
                         first_lost, session.current_streak, session.longest_streak)


def _patience_figures(tallies: Sequence[PatienceTally]) -> PatienceStatistics:
    """Q3 over every attempt of every session, in the order they were played: what
    attempt_statistics gives over all the attempts put together (a property test checks it)."""
    streak = longest = 0
    for tally in tallies:
        longest = max(longest, tally.longest_streak, streak + tally.first_wins)
        won_throughout = tally.first_wins == tally.attempts
        streak = streak + tally.attempts if won_throughout else tally.last_wins
    attempts = sum(tally.attempts for tally in tallies)
    won = [seconds for tally in tallies for seconds in tally.won_seconds]
    return PatienceStatistics(
        attempts=attempts,
        wins=len(won),
        win_rate=_ratio(len(won), attempts),
        best_seconds=min(won, default=None),
        median_seconds=median(won) if won else None,
        average_cards_home=_ratio(sum(tally.cards_home for tally in tallies), attempts),
        current_streak=streak,
        longest_streak=longest,
    )


# Reading a tally back from the index's JSON. The generic codec takes a fraction of a
# millisecond per value, which over ten thousand summaries is seconds; these take microseconds.

def _tabit_from_json(data: Any) -> TabitTally:
    line = data["best_line"]
    return TabitTally(data["rounds"], data["points"], data["best_board"], None if line is None
                      else Line(Picture(line["picture"]), line["pictures"], line["with_word"]))


def _solitaire_from_json(data: Any) -> SolitaireTally:
    return SolitaireTally(data["attempts"], data["finished_attempts"], tuple(
        BestSolitaireTime(best["pictures"], float(best["seconds"])) for best in data["best_times"]))


def _patience_from_json(data: Any) -> PatienceTally:
    return PatienceTally(data["attempts"], data["cards_home"],
                         tuple(float(seconds) for seconds in data["won_seconds"]),
                         data["first_wins"], data["last_wins"], data["longest_streak"])


@dataclass(frozen=True)
class FigureRules:
    """How one game's figures are worked out: a tally of one player's finished match, the
    figures of a player over his tallies in created order, and the tally read back from JSON."""

    tally: Callable[[PlayerId, Any], Tally]
    figures: Callable[[Sequence[Any]], Figures]
    from_json: Callable[[Any], Tally]


_PATIENCE = FigureRules(_patience_tally, _patience_figures, _patience_from_json)

FIGURES: Mapping[str, FigureRules] = {
    "tableau": FigureRules(_tableau_tally, _tableau_figures, lambda data: TableauTally(**data)),
    "tableau_solitaire": FigureRules(_solitaire_tally, _solitaire_figures, _solitaire_from_json),
    "plaza": FigureRules(_plaza_tally, _plaza_figures, lambda data: PlazaTally(**data)),
    "tablanette": FigureRules(_tablanette_tally, _tablanette_figures,
                              lambda data: TablanetteTally(**data)),
    "tabit": FigureRules(_tabit_tally, _tabit_figures, _tabit_from_json),
    "crazy_quilt": _PATIENCE,
    "windmill": _PATIENCE,
}


def match_tallies(game: str, seats: Sequence[PlayerId], state: object) -> Tallies:
    """Each seated player's tally of a finished match of `game` (empty for a game without
    figures); `state` is the game's state."""
    rules = FIGURES.get(game)
    if rules is None:
        return ()
    return tuple((player, rules.tally(player, state)) for player in seats)


def tallies_from_json(game: str, data: Any) -> Tallies:
    """The tallies of a match of `game` from their JSON form (codec.to_json)."""
    rules = FIGURES.get(game)
    if rules is None or not data:
        return ()
    return tuple((PlayerId(player), rules.from_json(tally)) for player, tally in data)


# --- each match's outcome ------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    """What statistics read off one match (storage keeps it in the match's summary)."""

    id: MatchId
    game: str
    seats: tuple[PlayerId, ...]
    created_at: str
    status: Status
    winners: frozenset[PlayerId]  # empty unless finished
    tallies: Tallies  # empty unless finished

    @property
    def order(self) -> tuple[str, str]:
        return self.created_at, self.id


@dataclass(frozen=True)
class PlayedMatch:
    """A match with its replayed state and its outcome (what charts and exports read)."""

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

    @cached_property
    def outcome(self) -> Outcome:
        match = self.match
        finished = self.status is Status.FINISHED
        tallies = match_tallies(match.game, match.seating.seats, self.state.game) if finished \
            else ()
        return Outcome(match.id, match.game, match.seating.seats, match.created_at, self.status,
                       self.winners, tallies)

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


def outcomes(matches: Iterable[Match], games: GameLookup) -> tuple[Outcome, ...]:
    """Every match's outcome from a replay (the from-scratch path; the app reads summaries)."""
    return tuple(entry.outcome for entry in played_matches(matches, games))


# --- win records ---------------------------------------------------------------------------


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


def win_record(player: PlayerId, matches: Iterable[Outcome]) -> WinRecord:
    """`player`'s record over `matches`, which must be in created order."""
    played = wins = streak = longest = abandoned = in_progress = 0
    given_up, unfinished = Status.ABANDONED, Status.IN_PROGRESS  # looked up once, not per match
    for entry in matches:
        status = entry.status
        if status is given_up:
            abandoned += 1
        elif status is unfinished:
            in_progress += 1
        else:
            played += 1
            if player in entry.winners:
                wins += 1
                streak += 1
                longest = max(longest, streak)
            else:
                streak = 0
    return WinRecord(played, wins, streak, longest, abandoned, in_progress)


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


def history_statistics(matches: Iterable[Outcome]) -> HistoryStatistics:
    """Every player's statistics, overall and per game, over `matches` (any order)."""
    in_order = sorted(matches, key=lambda entry: entry.order)
    by_player: dict[PlayerId, list[Outcome]] = defaultdict(list)
    by_player_game: dict[PlayerId, dict[str, list[Outcome]]] = defaultdict(
        lambda: defaultdict(list))
    tallies: dict[tuple[PlayerId, str], list[Tally]] = defaultdict(list)
    for entry in in_order:
        game = entry.game
        for player in entry.seats:
            by_player[player].append(entry)
            by_player_game[player][game].append(entry)
        for player, tally in entry.tallies:  # finished matches only
            tallies[player, game].append(tally)

    def game_statistics(player: PlayerId, game: str) -> GameStatistics:
        rules = FIGURES.get(game)
        figures = None if rules is None else rules.figures(tallies[player, game])
        return GameStatistics(game, win_record(player, by_player_game[player][game]), figures)

    players = tuple(
        PlayerStatistics(player, win_record(player, by_player[player]),
                         tuple(game_statistics(player, game) for game in sorted(games)))
        for player, games in sorted(by_player_game.items())
    )
    abandoned = tuple(entry.id for entry in in_order if entry.status is Status.ABANDONED)
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


def _record_between(first: PlayerId, second: PlayerId, matches: Iterable[Outcome]) -> HeadToHead:
    """The record of two players over finished matches they both sat in."""
    counts = {(True, False): 0, (False, True): 0, (True, True): 0, (False, False): 0}
    for entry in matches:
        counts[first in entry.winners, second in entry.winners] += 1
    return HeadToHead(first, second, sum(counts.values()), counts[True, False],
                      counts[False, True], counts[True, True], counts[False, False])


def head_to_head(matches: Iterable[Outcome], first: PlayerId, second: PlayerId) -> HeadToHead:
    if first == second:
        raise InvalidSetup("Choose two different players for a head-to-head.")
    return _record_between(first, second, (
        entry for entry in matches if entry.status is Status.FINISHED
        and first in entry.seats and second in entry.seats))


def every_head_to_head(matches: Iterable[Outcome]) -> tuple[HeadToHead, ...]:
    """The record of every pair of players who finished a match together, in one pass
    (first < second by id)."""
    together: dict[tuple[PlayerId, PlayerId], list[Outcome]] = defaultdict(list)
    for entry in matches:
        if entry.status is Status.FINISHED:
            for pair in combinations(sorted(entry.seats), 2):
                together[pair].append(entry)
    return tuple(_record_between(first, second, together[first, second])
                 for first, second in sorted(together))
