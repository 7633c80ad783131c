"""The match screen shows the rules' refusals with the players' names, not their ids (issue 4)."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.core.errors import InvalidEvent
from companion.core.match import Match, delete
from companion.core.seating import Seating
from companion.core.types import MatchId, PlayerId
from companion.games.tableau import TABLEAU, Call
from companion.ui.games import with_names
from companion.ui.screens.match import seated_names

ANN, BOB, CY = (PlayerId(uuid.uuid4().hex) for _ in range(3))
NAMES = {ANN: "Ann", BOB: "Bob", CY: "Cy"}
NOW = "2026-11-21T20:00:00+00:00"


def tableau_match(*events) -> Match:
    seating = Seating((ANN, BOB, CY), 0)
    options = TABLEAU.new_table(seating, None).options
    return Match(MatchId("m1"), TABLEAU.key, seating, options, NOW, NOW, events)


def test_an_out_of_turn_call_is_refused_with_names():
    """T3: Ann calls first, then Bob; deleting Ann's call leaves Bob calling out of turn."""
    match = tableau_match(Call(ANN, BOB, False), Call(BOB, CY, True))
    with pytest.raises(InvalidEvent) as refused:
        delete(match, TABLEAU, 0, NOW)
    message = str(refused.value)
    assert ANN in message and BOB in message  # the engine speaks in ids ...
    shown = with_names(message, seated_names(match, NAMES))
    assert shown == "Entry 1: It is Ann's turn to call, not Bob's."  # ... the table in names


def test_a_player_without_a_name_keeps_his_id():
    match = tableau_match()
    assert seated_names(match, {ANN: "Ann"}) == {ANN: "Ann", BOB: BOB, CY: CY}


def test_only_ids_are_replaced_and_only_once():
    # One id is the start of another; a name looks like an id: each is replaced once, whole.
    names = {"ab": "Cy", "abc": "ab", "x": "X"}
    assert with_names("ab, abc and x; not y", names) == "Cy, ab and X; not y"
    assert with_names("nothing to do", {}) == "nothing to do"


ids = st.lists(st.uuids().map(lambda found: found.hex), min_size=1, max_size=6, unique=True)


@given(ids, st.data())
def test_every_id_in_a_message_becomes_its_name(players, data):
    names = {player: data.draw(st.text(min_size=1, max_size=12)) for player in players}
    mentioned = data.draw(st.lists(st.sampled_from(players), min_size=1, max_size=8))
    message = " then ".join(f"{player}'s turn" for player in mentioned)
    assert with_names(message, names) == " then ".join(
        f"{names[player]}'s turn" for player in mentioned)
