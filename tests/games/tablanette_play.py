"""Random legal Tablanette games, played card by card with the capture adviser.

Each pack is really played: the pack is shuffled, four cards go face up (a jack goes to the bottom
and is replaced, N1), the dealer deals four times six cards, the players alternate from the
dealer's opponent, each playing a random card and taking a random legal capture when there is one
(N2-N4), and the leftovers go to the last capturer (N5). The piles become the PackResult the table
would enter, recorded through the public API until someone reaches 251 (N7).

A game ends within about 30 packs (every pack hands out at least 18 card points), so `events`
larger than that stops at the end of the game rather than padding it.
"""

from __future__ import annotations

import random
from dataclasses import replace

from companion.core.match import Match, MatchState, record, replay
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tablanette import (
    TABLANETTE,
    PackResult,
    TablanetteOptions,
    pack_result,
)
from companion.games.tablanette_cards import (
    FULL_PACK,
    JACK,
    PackPlay,
    captures,
    finish_pack,
    play_card,
    start_pack,
)

NOW = "2026-11-21T20:00:00+00:00"
PLAYERS = (PlayerId("ann"), PlayerId("bob"))
DEALS = 4
HAND = 6
TABLE_CARDS = 4


def new_match(rng: random.Random, options: TablanetteOptions | None = None) -> Match:
    chosen = options or TablanetteOptions(*(rng.random() < 0.5 for _ in range(3)))
    return Match(MatchId("random"), TABLANETTE.key, Seating(PLAYERS, rng.randrange(2)), chosen,
                 NOW, NOW)


def play_pack(rng: random.Random, dealer: PlayerId, options: TablanetteOptions) -> PackPlay:
    """One whole pack played at random; the piles hold all 52 cards afterwards."""
    stock = list(FULL_PACK)
    rng.shuffle(stock)
    table: list = []
    while len(table) < TABLE_CARDS:
        turned = stock.pop()
        if turned.rank == JACK:
            stock.insert(0, turned)  # N1: to the bottom of the pack, and another card is dealt
        else:
            table.append(turned)
    pack = start_pack(PLAYERS, table, classic_capture=options.classic_capture)
    order = (PLAYERS[1], PLAYERS[0]) if dealer == PLAYERS[0] else PLAYERS
    for _ in range(DEALS):
        hands = {player: [stock.pop() for _ in range(HAND)] for player in order}
        for _ in range(HAND):
            for player in order:
                played = hands[player].pop(rng.randrange(len(hands[player])))
                options_now = captures(pack.table, played, classic_capture=options.classic_capture)
                taking = rng.choice(options_now).taken if options_now and rng.random() < 0.9 else ()
                pack = play_card(pack, player, played, taking)
    return finish_pack(pack)


def random_pack(rng: random.Random, match: Match, state: MatchState) -> PackResult:
    dealer = TABLANETTE.dealer(state.game)
    assert dealer is not None
    pack = play_pack(rng, dealer, match.options)
    result = pack_result(pack.piles_by_player(), pack.tablanettes_by_player())
    if match.options.count_aces or rng.random() < 0.5:
        return result
    # Aces score nothing here, so the table may leave them out of the entry.
    return replace(result, piles=tuple(replace(pile, aces=None) for pile in result.piles))


def random_match(rng: random.Random, events: int | None = None) -> Match:
    """A random legal game played to its end (or `events` packs, whichever comes first)."""
    match = new_match(rng)
    state = replay(match, TABLANETTE)
    while not TABLANETTE.is_over(state.game) and (events is None or len(match.events) < events):
        match, state = record(match, TABLANETTE, random_pack(rng, match, state), NOW, state)
    return match
