"""Tablanette, the two-player fishing card game (tablanette.md, rulings N1-N7).

A pack (one scoring round) is the whole 52 cards, dealt in four deals of six by the same dealer;
the deal passes to the other player for the next pack (G1 applied per pack, N1). After each pack
the table counts its piles, so the one event is a PackResult: each player's captured card count,
kings, queens, jacks, other tens (and aces, needed under `count_aces`), the tablanettes made with
their points, and who took the 2 of clubs and the 10 of diamonds. It is checked against the pack
(52 cards, 4 kings, ...) and scored per N4/N6; first to 251 wins, an exact tie there plays on (N7).

The capture adviser and card-by-card play live in tablanette_cards; `pack_result` turns the exact
captured cards into the event, `pack_points` scores them directly.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from companion.core.errors import InvalidEvent, InvalidSetup
from companion.core.game import Event, Game, Standing, Table, rank_scores
from companion.core.types import PlayerId
from companion.games.tablanette_cards import (
    ACE,
    FULL_PACK,
    JACK,
    KING,
    QUEEN,
    TEN_OF_DIAMONDS,
    TWO_OF_CLUBS,
    Card,
    Suit,
    capture_values,
    card_points,
    is_possible_tablanette,
)

TARGET = 251  # N7
PACK_SIZE = len(FULL_PACK)
MAJORITY_POINTS = 3  # N6
MAJORITY_OVER = 27  # N6: "more than twenty-seven cards"
HONOURS = {"kings": KING, "queens": QUEEN, "jacks": JACK, "tens": 10, "aces": ACE}
# How many of each counted rank a pack holds; "tens" are those besides the 10 of diamonds.
PACK_HOLDS = {name: 3 if rank == 10 else 4 for name, rank in HONOURS.items()}
# One card standing for each counted rank, for points and values (suits do not matter there).
_STANDS_FOR = {name: Card(rank, Suit.SPADES) for name, rank in HONOURS.items()}


@dataclass(frozen=True)
class TablanetteOptions:
    classic_capture: bool = False  # N3: the played card of an ordinary capture is taken too
    count_aces: bool = False  # N6: each ace scores 1 (the common modern rule)
    majority_at_27: bool = False  # N6: the 3 majority points at 27 cards or more, not 28

    def __post_init__(self) -> None:
        for option in fields(self):
            if not isinstance(getattr(self, option.name), bool):
                raise InvalidSetup(f"The option {option.name} is either on or off.")


@dataclass(frozen=True)
class Pile:
    """What one player captured in a pack, as the table counts it."""

    player: PlayerId
    cards: int  # every card in the pile, N5's leftovers included
    kings: int = 0
    queens: int = 0
    jacks: int = 0
    tens: int = 0  # tens besides the 10 of diamonds
    aces: int | None = None  # needed under `count_aces`; otherwise optional and checked only
    tablanettes: tuple[int, ...] = ()  # the points of each tablanette made (N4)


@dataclass(frozen=True)
class PackResult(Event, kind="tablanette.pack"):
    """One pack's piles, one per player, and who took the two cards that score on their own."""

    piles: tuple[Pile, ...]
    two_of_clubs: PlayerId
    ten_of_diamonds: PlayerId


@dataclass(frozen=True)
class PackScore:
    """One player's points for one pack, and his running total after it."""

    player: PlayerId
    cards: int
    card_points: int  # N6: 2 of clubs, 10 of diamonds, kings, queens, jacks, tens (and aces)
    majority: int  # N6: 3 for the player with the most cards, else 0
    tablanettes: tuple[int, ...]  # N4 points of each
    points: int  # everything this pack
    total: int  # running total

    @property
    def tablanette_points(self) -> int:
        return sum(self.tablanettes)


@dataclass(frozen=True)
class PackSummary:
    number: int  # 1 for the first pack
    dealer: PlayerId
    scores: tuple[PackScore, ...]  # in seat order

    def score_of(self, player: PlayerId) -> PackScore:
        for score in self.scores:
            if score.player == player:
                return score
        raise InvalidEvent(f"{player} is not playing at this table.")


@dataclass(frozen=True)
class TablanetteState:
    table: Table
    rounds: tuple[PackSummary, ...] = ()  # one per pack played

    @property
    def totals(self) -> tuple[tuple[PlayerId, int], ...]:
        """Each player's total, in seat order."""
        if not self.rounds:
            return tuple((player, 0) for player in self.table.seating.seats)
        return tuple((score.player, score.total) for score in self.rounds[-1].scores)

    @property
    def playing_off_tie(self) -> bool:
        """N7: both reached 251 after the same pack with equal totals; another pack is played."""
        first, second = (total for _, total in self.totals)
        return first == second >= TARGET


def majority_points(cards: int, options: TablanetteOptions) -> int:
    """N6: more than 27 cards scores 3 (27 is enough under `majority_at_27`)."""
    enough = cards >= MAJORITY_OVER if options.majority_at_27 else cards > MAJORITY_OVER
    return MAJORITY_POINTS if enough else 0


def pack_points(piles: Mapping[PlayerId, Collection[Card]], options: TablanetteOptions,
                tablanettes: Mapping[PlayerId, Sequence[int]] | None = None) -> dict[PlayerId, int]:
    """Each player's points for a pack, scored from the exact cards captured (N4, N6)."""
    _check_whole_pack(piles)
    made = tablanettes or {}
    return {player: sum(card_points(c, count_aces=options.count_aces) for c in pile)
            + majority_points(len(pile), options) + sum(made.get(player, ()))
            for player, pile in piles.items()}


def pack_result(piles: Mapping[PlayerId, Collection[Card]],
                tablanettes: Mapping[PlayerId, Sequence[int]] | None = None) -> PackResult:
    """The PackResult the table would enter for these exact piles (aces always counted)."""
    _check_whole_pack(piles)
    made = tablanettes or {}

    def count(pile: Collection[Card], rank: int) -> int:
        return sum(1 for c in pile if c.rank == rank and c != TEN_OF_DIAMONDS)

    def holder(special: Card) -> PlayerId:
        return next(player for player, pile in piles.items() if special in pile)

    return PackResult(
        piles=tuple(Pile(player, len(pile), **{name: count(pile, rank)
                                               for name, rank in HONOURS.items()},
                         tablanettes=tuple(made.get(player, ())))
                    for player, pile in piles.items()),
        two_of_clubs=holder(TWO_OF_CLUBS),
        ten_of_diamonds=holder(TEN_OF_DIAMONDS),
    )


def _check_whole_pack(piles: Mapping[PlayerId, Collection[Card]]) -> None:
    cards = [c for pile in piles.values() for c in pile]
    twice = {c for c in cards if cards.count(c) > 1}
    if twice:
        raise InvalidEvent(f"{str(min(twice, key=FULL_PACK.index)).capitalize()} is in the piles "
                           "twice; a pack has one of each card.")
    missing = [c for c in FULL_PACK if c not in set(cards)]
    if missing:
        raise InvalidEvent(f"{str(missing[0]).capitalize()} is in no pile; at the end of a pack "
                           "every card is in someone's pile (N5).")


class TablanetteGame(Game[TablanetteState, TablanetteOptions]):
    key = "tablanette"
    title = "Tablanette"
    min_players = 2
    max_players = 2
    options_type = TablanetteOptions
    event_types = (PackResult,)
    state_type = TablanetteState

    def initial_state(self, table: Table) -> TablanetteState:
        return TablanetteState(table)

    def apply(self, state: TablanetteState, event: Event) -> TablanetteState:
        if not isinstance(event, PackResult):
            raise InvalidEvent(f"{type(event).__name__} is not an event of Tablanette.")
        if self.is_over(state):
            winner, total = max(state.totals, key=lambda item: item[1])
            raise InvalidEvent(f"The game is over: {winner} won with {total}. Undo or correct a "
                               "pack to change it.")
        _check_pack(event, state.table)
        seating = state.table.seating
        previous = dict(state.totals)
        piles = {pile.player: pile for pile in event.piles}
        scores = tuple(_score(piles[player], event, state.table.options, previous[player])
                       for player in seating.seats)
        summary = PackSummary(len(state.rounds) + 1, self._dealer_now(state), scores)
        return replace(state, rounds=(*state.rounds, summary))

    def standings(self, state: TablanetteState) -> tuple[Standing, ...]:
        return rank_scores(dict(state.totals))

    def is_over(self, state: TablanetteState) -> bool:
        """N7: someone has 251 or more and the totals differ (an exact tie plays on)."""
        first, second = (total for _, total in state.totals)
        return max(first, second) >= TARGET and first != second

    def dealer(self, state: TablanetteState) -> PlayerId | None:
        """Who deals the next pack (all four of its deals); None once the game is over."""
        return None if self.is_over(state) else self._dealer_now(state)

    def to_act(self, state: TablanetteState) -> PlayerId | None:
        """The dealer's opponent plays the first card of the pack (the sheet)."""
        if self.is_over(state):
            return None
        seating = state.table.seating
        return seating.player(seating.left_of(_dealer_seat(state)))

    @staticmethod
    def _dealer_now(state: TablanetteState) -> PlayerId:
        return state.table.seating.player(_dealer_seat(state))


TABLANETTE = TablanetteGame()


def _dealer_seat(state: TablanetteState) -> int:
    """N1 with G1 per pack: one dealer deals all four deals of a pack, the next pack passes left."""
    return state.table.seating.dealer_of_deal(len(state.rounds))


def _score(pile: Pile, event: PackResult, options: TablanetteOptions, before: int) -> PackScore:
    by_rank = sum(getattr(pile, name) * card_points(_STANDS_FOR[name], count_aces=options.count_aces)
                  for name in HONOURS if name != "aces" or options.count_aces)
    singles = sum(card_points(special) for special, holder in _specials(event)
                  if holder == pile.player)
    majority = majority_points(pile.cards, options)
    points = by_rank + singles + majority + sum(pile.tablanettes)
    return PackScore(pile.player, pile.cards, by_rank + singles, majority, pile.tablanettes,
                     points, before + points)


def _specials(event: PackResult) -> tuple[tuple[Card, PlayerId], ...]:
    return ((TWO_OF_CLUBS, event.two_of_clubs), (TEN_OF_DIAMONDS, event.ten_of_diamonds))


def _check_pack(event: PackResult, table: Table) -> None:
    """Refuse piles that no pack can produce, with a message for the table."""
    seating = table.seating
    named = [pile.player for pile in event.piles]
    for player in (*named, event.two_of_clubs, event.ten_of_diamonds):
        seating.seat_of(player)
    for player in seating.seats:
        if named.count(player) != 1:
            state = "missing" if player not in named else "entered twice"
            raise InvalidEvent(f"{player}'s pile is {state}; enter each player's pile once.")
    for pile in event.piles:
        _check_counts(pile)
    aces_given = [pile.aces is not None for pile in event.piles]
    if table.options.count_aces and not all(aces_given):
        raise InvalidEvent("Aces score under this table's rules: enter each player's aces.")
    if any(aces_given) and not all(aces_given):
        raise InvalidEvent("Enter the aces for both players or for neither.")
    _check_totals(event.piles, "cards", PACK_SIZE, "cards")
    for name in HONOURS:
        if name != "aces" or all(aces_given):
            described = "tens besides the 10 of diamonds" if name == "tens" else name
            _check_totals(event.piles, name, PACK_HOLDS[name], described)
    for pile in event.piles:
        _check_pile(pile, event)


def _check_counts(pile: Pile) -> None:
    for name in ("cards", *HONOURS):
        value = getattr(pile, name)
        if value is None and name == "aces":  # aces may be left out (checked in _check_pack)
            continue
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidEvent(f"{pile.player}'s {name} must be a whole number, 0 or more.")


def _check_totals(piles: Sequence[Pile], name: str, pack_holds: int, described: str) -> None:
    total = sum(getattr(pile, name) for pile in piles)
    if total != pack_holds:
        raise InvalidEvent(f"The piles hold {total} {described} between them; a pack has "
                           f"{pack_holds} (the cards left at the end go to the last player who "
                           "captured, N5).")


def _check_pile(pile: Pile, event: PackResult) -> None:
    known = _known_cards(pile, event)
    if len(known) > pile.cards:
        raise InvalidEvent(f"{pile.player}'s pile of {pile.cards} cards cannot hold the "
                           f"{len(known)} counted cards entered for it.")
    for points in pile.tablanettes:
        if isinstance(points, bool) or not isinstance(points, int) \
                or not is_possible_tablanette(points):
            raise InvalidEvent(f"{points} points is not a tablanette score: it is the values of the "
                               "cards taken plus the played card's, or 0 for a jack (N4).")
    if 2 * len(pile.tablanettes) > pile.cards:
        raise InvalidEvent(f"{pile.player} made {len(pile.tablanettes)} tablanettes with only "
                           f"{pile.cards} cards; each takes the played card and at least one more.")
    sweeps = pile.tablanettes.count(0)
    if sweeps > pile.jacks:
        raise InvalidEvent(f"A 0-point tablanette is a jack's sweep, and {pile.player}'s pile holds "
                           f"{pile.jacks} jacks for {sweeps} of them (N4).")
    most = _most_capture_value(known, pile.cards - len(known), pile.aces is not None)
    if sum(pile.tablanettes) > most:
        raise InvalidEvent(f"{pile.player}'s tablanettes add up to {sum(pile.tablanettes)} points, "
                           f"but the cards in that pile are worth at most {most}: a tablanette "
                           "counts the played card and the cards taken, all in the pile (N4).")


def _known_cards(pile: Pile, event: PackResult) -> list[Card]:
    """The cards the entry pins down in this pile (a stand-in of the right rank for counts)."""
    counted = [_STANDS_FOR[name] for name in HONOURS for _ in range(getattr(pile, name) or 0)]
    return counted + [special for special, holder in _specials(event) if holder == pile.player]


def _highest_values(aces_known: bool) -> tuple[int, ...]:
    """Capture values of the cards an entry leaves open (aces unless counted, 2-9 but the 2 of
    clubs), highest first, aces as 11."""
    return tuple(sorted((max(capture_values(c)) for c in FULL_PACK
                         if c.rank in range(ACE if not aces_known else 2, 10)
                         and c != TWO_OF_CLUBS), reverse=True))


_OPEN_VALUES = {aces_known: _highest_values(aces_known) for aces_known in (False, True)}


def _most_capture_value(known: list[Card], unknown: int, aces_known: bool) -> int:
    """The highest total capture value a pile can have: the cards the entry pins down, and for the
    rest the highest of the cards it leaves open."""
    return sum(max(capture_values(c)) for c in known) + sum(_OPEN_VALUES[aces_known][:unknown])
