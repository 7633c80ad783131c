"""Tabit (tabit.md, rulings B1-B3): the board scorer and the race to 1000.

What the table records is the end of a round (B1: the TABIT card was drawn): each player's board,
entered card by card (four pictures, four letters) or as the line of the table chosen directly.
A round closes by itself once every player in it has a board in; its points and running totals
are kept, round by round, in the state.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from string import ascii_uppercase

from companion.core.errors import InvalidEvent
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.seating import Seating
from companion.core.types import PlayerId

TARGET = 1000  # B3: "the first person to tab 1000 points"
BOXES = 4  # B1: four picture boxes and four letter boxes per player


class Picture(enum.Enum):
    """The picture cards the scoring table names (B2); the sheet names no other kind."""

    MOON = "moon"
    STAR = "star"
    TREE = "tree"

    @property
    def word(self) -> str:
        return self.name


# B2: points of each line of the table, by (picture, pictures on the board, with the word).
LINE_POINTS: dict[tuple[Picture, int, bool], int] = {
    (Picture.MOON, 4, True): 500, (Picture.STAR, 4, True): 400, (Picture.TREE, 4, True): 300,
    (Picture.MOON, 3, True): 400, (Picture.STAR, 3, True): 300, (Picture.TREE, 3, True): 200,
    (Picture.MOON, 4, False): 200, (Picture.STAR, 4, False): 100, (Picture.TREE, 4, False): 100,
    (Picture.MOON, 3, False): 150, (Picture.STAR, 3, False): 50, (Picture.TREE, 3, False): 25,
}


@dataclass(frozen=True)
class Line:
    """One line of the scoring table (B2): 3 or 4 pictures of a kind, with or without its word."""

    picture: Picture
    pictures: int
    with_word: bool

    @property
    def is_on_the_table(self) -> bool:
        return (self.picture, self.pictures, self.with_word) in LINE_POINTS

    @property
    def points(self) -> int:
        return LINE_POINTS[self.picture, self.pictures, self.with_word]

    def describe(self) -> str:
        """The line in the sheet's words, e.g. "4 pictures of the MOON with the word: 500"."""
        word = "with the word" if self.with_word else "without the word"
        return f"{self.pictures} pictures of the {self.picture.word} {word}: {self.points}"


TABLE_LINES: tuple[Line, ...] = tuple(Line(*key) for key in LINE_POINTS)


def line_points(line: Line | None) -> int:
    """The points of a line; no line is "NO SCORE" (B2)."""
    return 0 if line is None else line.points


@dataclass(frozen=True)
class Board:
    """A player's board: the cards in his four picture boxes and four letter boxes (B1)."""

    pictures: tuple[Picture, ...]
    letters: tuple[str, ...]


def check_board(board: Board) -> None:
    """InvalidEvent unless the board holds exactly four pictures and four letters A-Z (B1)."""
    if len(board.pictures) != BOXES:
        raise InvalidEvent(f"A board has {BOXES} picture boxes, so it holds {BOXES} pictures, "
                           f"not {len(board.pictures)}.")
    if len(board.letters) != BOXES:
        raise InvalidEvent(f"A board has {BOXES} letter boxes, so it holds {BOXES} letters, "
                           f"not {len(board.letters)}.")
    for letter in board.letters:
        if len(letter) != 1 or letter not in ascii_uppercase:
            raise InvalidEvent(f"{letter!r} is not a letter card: a letter card is one of A to Z.")


def holds(board: Board, line: Line) -> bool:
    """Whether the board makes the line. The boxes have no order, so the word's letters may be
    in any order (B2)."""
    enough_pictures = board.pictures.count(line.picture) >= line.pictures
    word_matches = sorted(board.letters) == sorted(line.picture.word)
    return enough_pictures and (word_matches or not line.with_word)


def best_line(board: Board) -> Line | None:
    """The board's single best line of the table (B2), or None: "NO SCORE"."""
    check_board(board)
    made = [line for line in TABLE_LINES if holds(board, line)]
    return max(made, key=line_points, default=None)


@dataclass(frozen=True)
class TabitOptions:
    # B3 says another round is played when several share the highest total at 1000 or more, not
    # by whom. The ruling: only the tied players play it (the others can no longer win). A table
    # that deals everyone in sets this; then the extra round is an ordinary round for all.
    whole_table_plays_tie_round: bool = False


@dataclass(frozen=True)
class BoardEntered(Event, kind="tabit.board"):
    """A player's board at the end of a round, card by card; the app finds its best line."""

    player: PlayerId
    board: Board


@dataclass(frozen=True)
class LineChosen(Event, kind="tabit.line"):
    """A player's line of the table chosen directly; None is "NO SCORE"."""

    player: PlayerId
    line: Line | None


@dataclass(frozen=True)
class BoardScore:
    """One player's board in one round: its line and, when entered card by card, the cards."""

    player: PlayerId
    line: Line | None
    board: Board | None = None

    @property
    def points(self) -> int:
        return line_points(self.line)


@dataclass(frozen=True)
class RoundSummary:
    number: int  # 1 for the first round
    dealer: PlayerId
    boards: tuple[BoardScore, ...]  # the players of this round, in seat order
    totals: tuple[tuple[PlayerId, int], ...]  # every player's running total after it, seat order
    tie_round: bool = False  # played because several shared the highest total at 1000+ (B3)

    def points_of(self, player: PlayerId) -> int | None:
        """The player's points this round; None if he did not play it (a tie round, B3)."""
        return next((board.points for board in self.boards if board.player == player), None)


@dataclass(frozen=True)
class TabitState:
    table: Table
    rounds: tuple[RoundSummary, ...] = ()
    playing: tuple[PlayerId, ...] = ()  # who plays the round being scored, seat order
    entered: tuple[BoardScore, ...] = ()  # boards in so far for that round

    @property
    def totals(self) -> tuple[tuple[PlayerId, int], ...]:
        if self.rounds:
            return self.rounds[-1].totals
        return tuple((player, 0) for player in self.table.seating.seats)


def tied_at_the_top(totals: Iterable[tuple[PlayerId, int]]) -> tuple[PlayerId, ...]:
    """The players sharing the highest total once it is 1000 or more, else nobody (B3)."""
    pairs = tuple(totals)
    highest = max(total for _, total in pairs)
    if highest < TARGET:
        return ()
    return tuple(player for player, total in pairs if total == highest)


def _names(players: Iterable[PlayerId]) -> str:
    names = list(players)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


class TabitGame(Game[TabitState, TabitOptions]):
    key = "tabit"
    title = "Tabit"
    min_players = 2  # B1
    max_players = 4
    options_type = TabitOptions
    event_types = (BoardEntered, LineChosen)
    state_type = TabitState

    def initial_state(self, table: Table) -> TabitState:
        return TabitState(table, playing=table.seating.seats)

    def apply(self, state: TabitState, event: Event) -> TabitState:
        if self.is_over(state):
            winner = tied_at_the_top(state.totals)[0]
            raise InvalidEvent(f"The game is over: {winner} has won with the highest total.")
        if not isinstance(event, BoardEntered | LineChosen):
            raise InvalidEvent(f"{type(event).__name__} is not an event of Tabit.")
        self._check_player(state, event.player)
        entered = (*state.entered, self._board_score(event))
        if len(entered) < len(state.playing):
            return TabitState(state.table, state.rounds, state.playing, entered)
        return self._close_round(state, entered)

    @staticmethod
    def _board_score(event: BoardEntered | LineChosen) -> BoardScore:
        if isinstance(event, BoardEntered):
            return BoardScore(event.player, best_line(event.board), event.board)
        if event.line is not None and not event.line.is_on_the_table:
            raise InvalidEvent(f"{event.line.pictures} pictures of the {event.line.picture.word} "
                               "is not a line of the scoring table: a line is 3 or 4 pictures, "
                               "with or without the word.")
        return BoardScore(event.player, event.line)

    def _check_player(self, state: TabitState, player: PlayerId) -> None:
        state.table.seating.seat_of(player)
        if player not in state.playing:
            raise InvalidEvent(f"Only {_names(state.playing)} play this extra round, for the tie "
                               f"at the top; {player} sits it out.")
        if any(score.player == player for score in state.entered):
            raise InvalidEvent(f"{player}'s board is already in for this round; "
                               "undo it or correct it to change it.")

    def _close_round(self, state: TabitState, entered: tuple[BoardScore, ...]) -> TabitState:
        seating = state.table.seating
        by_player = {score.player: score for score in entered}
        boards = tuple(by_player[player] for player in state.playing)  # seat order
        points = {score.player: score.points for score in boards}
        totals = tuple((player, total + points.get(player, 0)) for player, total in state.totals)
        summary = RoundSummary(
            number=len(state.rounds) + 1,
            dealer=self._dealer_of_round(seating, len(state.rounds)),
            boards=boards,
            totals=totals,
            tie_round=len(tied_at_the_top(state.totals)) > 1,
        )
        tied = tied_at_the_top(totals)
        plays_off = len(tied) > 1 and not state.table.options.whole_table_plays_tie_round
        return replace(state, rounds=(*state.rounds, summary), entered=(),
                       playing=tied if plays_off else seating.seats)

    @staticmethod
    def _dealer_of_round(seating: Seating, round_index: int) -> PlayerId:
        return seating.player(seating.dealer_of_deal(round_index))  # G1: one to the left a round

    def standings(self, state: TabitState) -> tuple[Standing, ...]:
        return rank_scores(dict(state.totals))

    def is_over(self, state: TabitState) -> bool:
        """B3: someone has 1000 or more, and the highest total is his alone."""
        return len(tied_at_the_top(state.totals)) == 1

    def dealer(self, state: TabitState) -> PlayerId | None:
        if self.is_over(state):
            return None
        return self._dealer_of_round(state.table.seating, len(state.rounds))

    def to_act(self, state: TabitState) -> PlayerId | None:
        """Who draws first this round: the first player of the round to the dealer's left."""
        if self.is_over(state):
            return None
        seating = state.table.seating
        dealer_seat = seating.dealer_of_deal(len(state.rounds))
        order = (seating.player(seating.left_of(dealer_seat, step))
                 for step in range(1, seating.size + 1))
        return next(player for player in order if player in state.playing)


def awaiting(state: TabitState) -> tuple[PlayerId, ...]:
    """The players of the current round whose boards are not in yet, in seat order."""
    done = {score.player for score in state.entered}
    return tuple(player for player in state.playing if player not in done)


TABIT = TabitGame()
