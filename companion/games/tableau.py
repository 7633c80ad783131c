"""Tableau, the picture-puzzle game (tableau.md, rulings T1-T7).

Each player assembles a 4 x 4 picture. In turn, from the dealer to the left, a player calls a piece
from another player's rectangle: if it fits, no tokens move; if not, the caller pays the called
player one token. The first player to complete his picture wins the round and collects one token
per missing or wrong piece from every other player. The table may stop after any round; most
tokens wins.

The table records three things, so there are three main events: a call (who called whom, fit or
not), a round won (the winner and everyone else's wrong pieces) and the table stopping. Title
cards may be recorded too, so photo checks know which picture each player is making.
Tokens only ever move from one player to another (`_transfer`), so their sum never changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.types import PlayerId

PIECES_PER_PICTURE = 16  # a picture is cut 4 x 4 (T6)


class Edition(Enum):
    """T1: the Junior box has four pictures, the Deluxe box six; one picture per player."""

    JUNIOR = "junior"
    DELUXE = "deluxe"

    @property
    def pictures(self) -> int:
        return 4 if self is Edition.JUNIOR else 6


@dataclass(frozen=True)
class TableauOptions:
    edition: Edition = Edition.DELUXE  # T1: decides how many may play
    tokens_each: int = 20  # T2: the sheet gives no number; everyone starts equal
    allow_debt: bool = True  # T5: on, a broke player still pays and owes; off, the rest is unpaid

    def __post_init__(self) -> None:
        if not isinstance(self.edition, Edition):
            raise InvalidSetup("Choose the Junior or the Deluxe edition.")
        if isinstance(self.tokens_each, bool) or not isinstance(self.tokens_each, int):
            raise InvalidSetup("Tokens per player must be a whole number.")
        if self.tokens_each < 1:
            raise InvalidSetup("Each player needs at least one token to start.")


PhotoReason = Literal[
    "fit", "not-neighbours", "wrong-orientation", "not-full-side", "wrong-picture", "unsure"
]


@dataclass(frozen=True)
class PhotoCheck:
    """What a photo check of a call said (issue 7): fit, no fit, or unsure (verdict None)."""

    verdict: bool | None
    reason: PhotoReason
    confidence: float


@dataclass(frozen=True)
class Call(Event, kind="tableau.call"):
    """The player to act called a piece from `called`'s rectangle; `fit` is what the table decided.

    `photo` is the photo check's verdict when one was used; the players may override it.
    """

    caller: PlayerId
    called: PlayerId
    fit: bool
    photo: PhotoCheck | None = None

    @property
    def overridden(self) -> bool:
        """The players decided against a firm photo verdict (an unsure photo decides nothing)."""
        return self.photo is not None and self.photo.verdict is not None \
            and self.photo.verdict != self.fit


@dataclass(frozen=True)
class WrongPieces:
    """How many of a player's 16 pieces are missing or wrong at round end (T6)."""

    player: PlayerId
    count: int
    from_photo: bool = False  # counted from a photo (and confirmed) rather than by hand


@dataclass(frozen=True)
class RoundWon(Event, kind="tableau.round_won"):
    """`winner` completed his picture first; every other player's wrong pieces are listed (T6)."""

    winner: PlayerId
    wrong_pieces: tuple[WrongPieces, ...]


@dataclass(frozen=True)
class TitleCard:
    player: PlayerId
    picture: str  # the title of the picture this player is to make


@dataclass(frozen=True)
class TitlesDealt(Event, kind="tableau.titles_dealt"):
    """The title cards of the round in play, one per player (optional; photo checks use them)."""

    titles: tuple[TitleCard, ...]


@dataclass(frozen=True)
class TableStops(Event, kind="tableau.table_stops"):
    """The table stops at the end of a round (T7); the game is over and most tokens wins."""


@dataclass(frozen=True)
class CallOutcome:
    call: Call
    unpaid: bool = False  # a forfeit owed but not paid: no tokens left and allow_debt off (T5)


@dataclass(frozen=True)
class PlayerRound:
    """One player's line of a finished round."""

    player: PlayerId
    wrong_pieces: int | None  # None for the round's winner
    change: int  # tokens won (+) or lost (-) over the round: calls and settlement
    total: int  # balance after the round; negative is owed (T5)
    unpaid: int  # tokens this player owed in the round but could not pay (allow_debt off)


@dataclass(frozen=True)
class RoundSummary:
    number: int  # 1 for the first round
    dealer: PlayerId
    winner: PlayerId
    calls: tuple[CallOutcome, ...]
    titles: tuple[TitleCard, ...]
    players: tuple[PlayerRound, ...]  # seat order


@dataclass(frozen=True)
class TableauState:
    table: Table
    tokens: tuple[int, ...]  # balance per seat, in seat order; negative is owed (T5)
    calls: tuple[CallOutcome, ...] = ()  # the round in play
    titles: tuple[TitleCard, ...] = ()  # the round in play, if recorded
    rounds: tuple[RoundSummary, ...] = ()  # finished rounds, first to last
    stopped: bool = False

    def balance(self, player: PlayerId) -> int:
        return self.tokens[self.table.seating.seat_of(player)]

    def balances(self) -> Mapping[PlayerId, int]:
        return dict(zip(self.table.seating.seats, self.tokens, strict=True))

    def unpaid(self, player: PlayerId) -> int:
        """Tokens `player` owed over the whole game but could not pay (allow_debt off, T5/T6)."""
        self.table.seating.seat_of(player)  # a clear error for a player not at the table
        finished = sum(line.unpaid for summary in self.rounds for line in summary.players
                       if line.player == player)
        return finished + _unpaid_calls(self.calls, player)

    @property
    def round_in_play(self) -> bool:
        """Something of the current round is recorded, so the table cannot stop now (T7)."""
        return bool(self.calls or self.titles)


def _unpaid_calls(calls: tuple[CallOutcome, ...], player: PlayerId) -> int:
    return sum(1 for outcome in calls if outcome.unpaid and outcome.call.caller == player)


def _transfer(tokens: tuple[int, ...], payer: int, payee: int, amount: int,
              allow_debt: bool) -> tuple[tuple[int, ...], int]:
    """Move `amount` tokens between seats; returns the new balances and what stayed unpaid.

    With allow_debt the payer always pays in full and may go negative (T5); without it he pays
    what he has and the rest is unpaid. Nothing is created or destroyed either way.
    """
    paid = amount if allow_debt else min(amount, tokens[payer])
    moved = list(tokens)
    moved[payer] -= paid
    moved[payee] += paid
    return tuple(moved), amount - paid


class TableauGame(Game[TableauState, TableauOptions]):
    key = "tableau"
    title = "Tableau"
    min_players = 2
    max_players = Edition.DELUXE.pictures
    options_type = TableauOptions
    event_types = (Call, RoundWon, TitlesDealt, TableStops)
    state_type = TableauState

    def player_range(self, options: TableauOptions) -> tuple[int, int]:
        # T1: as many pictures as players, so the edition's picture count caps the table.
        return self.min_players, options.edition.pictures

    def initial_state(self, table: Table) -> TableauState:
        return TableauState(table, _starting_tokens(table))

    def apply(self, state: TableauState, event: Event) -> TableauState:
        if state.stopped:
            raise InvalidEvent("The table has stopped: the game is over. Undo the stop to play on.")
        if isinstance(event, Call):
            return self._call(state, event)
        if isinstance(event, RoundWon):
            return self._round_won(state, event)
        if isinstance(event, TitlesDealt):
            return self._titles_dealt(state, event)
        if isinstance(event, TableStops):
            return self._table_stops(state)
        raise InvalidEvent(f"{type(event).__name__} is not an event of Tableau.")

    def _call(self, state: TableauState, call: Call) -> TableauState:
        seating = state.table.seating
        caller = seating.seat_of(call.caller)
        called = seating.seat_of(call.called)
        if caller == called:
            raise InvalidEvent(f"{call.caller} cannot call a piece from his own rectangle.")
        to_act = self.to_act(state)
        if call.caller != to_act:  # T3: one call per turn, from the dealer to the left
            raise InvalidEvent(f"It is {to_act}'s turn to call, not {call.caller}'s.")
        if not isinstance(call.fit, bool):
            raise InvalidEvent("Say whether the called piece fit or not.")
        if call.photo is not None:
            _check_photo(call.photo)
        if call.fit:  # T4: a piece goes each way, no tokens move
            return replace(state, calls=(*state.calls, CallOutcome(call)))
        # T4: no fit, the caller pays the called player one token (T5 when he has none).
        tokens, unpaid = _transfer(state.tokens, caller, called, 1, state.table.options.allow_debt)
        return replace(state, tokens=tokens, calls=(*state.calls, CallOutcome(call, unpaid > 0)))

    def _round_won(self, state: TableauState, event: RoundWon) -> TableauState:
        seating = state.table.seating
        winner = seating.seat_of(event.winner)
        counts = _checked_wrong_pieces(state, event)
        tokens = state.tokens
        unpaid_settlement: dict[PlayerId, int] = {}
        for player, count in counts.items():  # T6: one token per missing or wrong piece
            tokens, unpaid_settlement[player] = _transfer(
                tokens, seating.seat_of(player), winner, count, state.table.options.allow_debt)
        opening = _opening_tokens(state)
        players = tuple(
            PlayerRound(
                player=player,
                wrong_pieces=counts.get(player),
                change=tokens[seat] - opening[seat],
                total=tokens[seat],
                unpaid=_unpaid_calls(state.calls, player) + unpaid_settlement.get(player, 0),
            )
            for seat, player in enumerate(seating.seats)
        )
        summary = RoundSummary(
            number=len(state.rounds) + 1,
            dealer=self._dealer_now(state),
            winner=event.winner,
            calls=state.calls,
            titles=state.titles,
            players=players,
        )
        # T7: the next round starts empty and is dealt by the next player to the left.
        return replace(state, tokens=tokens, calls=(), titles=(), rounds=(*state.rounds, summary))

    def _titles_dealt(self, state: TableauState, event: TitlesDealt) -> TableauState:
        if state.titles:
            raise InvalidEvent("This round's title cards are already recorded; correct that entry.")
        seating = state.table.seating
        _check_names_each_once(seating.seats, [title.player for title in event.titles],
                               "a title card")
        pictures = [title.picture.strip() for title in event.titles]
        if not all(pictures):
            raise InvalidEvent("Every title card needs the name of its picture.")
        if len(set(pictures)) != len(pictures):
            raise InvalidEvent("Two players cannot hold the same title card.")
        return replace(state, titles=event.titles)

    def _table_stops(self, state: TableauState) -> TableauState:
        if not state.rounds:
            raise InvalidEvent("No round has been finished yet; abandon the game instead.")
        if state.round_in_play:  # T7: play stops only at the end of a round
            raise InvalidEvent("Play stops only at the end of a round: record this round's "
                               "winner first, or undo its entries.")
        return replace(state, stopped=True)

    def standings(self, state: TableauState) -> tuple[Standing, ...]:
        return rank_scores(state.balances())  # T7: most tokens wins, G3 on ties

    def is_over(self, state: TableauState) -> bool:
        return state.stopped

    def dealer(self, state: TableauState) -> PlayerId | None:
        return None if state.stopped else self._dealer_now(state)

    def to_act(self, state: TableauState) -> PlayerId | None:
        """T3: the dealer calls first, then each player to the left, one call per turn."""
        if state.stopped:
            return None
        seating = state.table.seating
        dealer = seating.dealer_of_deal(len(state.rounds))
        return seating.player(seating.left_of(dealer, len(state.calls)))

    @staticmethod
    def _dealer_now(state: TableauState) -> PlayerId:
        seating = state.table.seating
        return seating.player(seating.dealer_of_deal(len(state.rounds)))  # T7, G1


def _starting_tokens(table: Table) -> tuple[int, ...]:
    return (table.options.tokens_each,) * table.seating.size  # T2: equal shares


def _opening_tokens(state: TableauState) -> tuple[int, ...]:
    """Balances at the start of the round in play."""
    if not state.rounds:
        return _starting_tokens(state.table)
    return tuple(line.total for line in state.rounds[-1].players)


def _check_photo(photo: PhotoCheck) -> None:
    expected = {"fit": True, "unsure": None}.get(photo.reason, False)
    if photo.verdict is not expected:
        raise InvalidEvent(f"The photo check does not add up: the reason {photo.reason!r} "
                           f"does not go with the verdict {photo.verdict}.")
    if not 0.0 <= photo.confidence <= 1.0:
        raise InvalidEvent("A photo check's confidence is between 0 and 1.")


def _check_names_each_once(seats: tuple[PlayerId, ...], named: list[PlayerId], what: str) -> None:
    """Every player in `seats` named exactly once, and nobody else."""
    for player in named:
        if player not in seats:
            raise InvalidEvent(f"{player} is not playing at this table.")
    repeated = sorted({player for player in named if named.count(player) > 1})
    if repeated:
        raise InvalidEvent(f"{', '.join(repeated)} is listed twice; give {what} once per player.")
    missing = [player for player in seats if player not in named]
    if missing:
        raise InvalidEvent(f"Give {what} for {', '.join(missing)} too.")


def _checked_wrong_pieces(state: TableauState, event: RoundWon) -> dict[PlayerId, int]:
    """The wrong-piece counts in seat order, or InvalidEvent saying what is wrong (T6)."""
    named = [entry.player for entry in event.wrong_pieces]
    if event.winner in named:
        raise InvalidEvent(f"{event.winner} won the round, so has no wrong pieces to count.")
    others = state.table.seating.others(event.winner)
    _check_names_each_once(others, named, "a count of wrong pieces")
    for entry in event.wrong_pieces:
        if isinstance(entry.count, bool) or not isinstance(entry.count, int):
            raise InvalidEvent(f"{entry.player}'s wrong pieces must be a whole number.")
        if not 0 <= entry.count <= PIECES_PER_PICTURE:
            raise InvalidEvent(f"{entry.player} cannot have {entry.count} wrong pieces: "
                               f"a picture has {PIECES_PER_PICTURE} pieces.")
    by_player = {entry.player: entry.count for entry in event.wrong_pieces}
    return {player: by_player[player] for player in state.table.seating.seats
            if player != event.winner}


TABLEAU = TableauGame()
