"""The repository contract, run against both the in-memory library and a real data folder."""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest

from companion.core.errors import InvalidEvent, InvalidName, InvalidSetup
from companion.core.match import MatchAbandoned, correct, undo
from companion.core.types import MatchId, NightId, PlayerId
from storage import NotFound
from tests.core.counting_game import Scored
from tests.storage.helpers import ANN, BOB, CY, NOW, games, new_match, scored


def test_players_are_listed_by_name_and_archived_ones_hidden(library):
    zoe = library.players.add("zoe")
    library.players.add("Ann")
    bob = library.players.add("  Bob   the  Builder ")
    library.players.archive(zoe.id)
    assert [p.name for p in library.players.list()] == ["Ann", "Bob the Builder"]
    assert [p.name for p in library.players.list(include_archived=True)] == [
        "Ann", "Bob the Builder", "zoe"]
    assert library.players.get(bob.id).name == "Bob the Builder"
    assert not library.players.unarchive(zoe.id).archived
    assert len(library.players.list()) == 3


@pytest.mark.parametrize(("name", "message"), [
    ("   ", "Enter a name"),
    ("x" * 41, "40 characters"),
    ("ANN", "already a player called ANN"),
])
def test_refused_names_say_why(library, name, message):
    library.players.add("Ann")
    with pytest.raises(InvalidName, match=message):
        library.players.add(name)
    assert len(library.players.list()) == 1


def test_an_archived_players_name_stays_taken(library):
    library.players.archive(library.players.add("Ann").id)
    with pytest.raises(InvalidName):
        library.players.add("ann")


def test_rename_keeps_the_id_and_allows_a_change_of_case(library):
    ann = library.players.add("ann")
    library.players.add("Bob")
    assert library.players.rename(ann.id, "Ann").name == "Ann"
    with pytest.raises(InvalidName, match="already"):
        library.players.rename(ann.id, "bob")
    assert library.players.get(ann.id).name == "Ann"


def test_unknown_player_is_not_found(library):
    with pytest.raises(NotFound):
        library.players.get(PlayerId("nobody"))
    with pytest.raises(NotFound):
        library.players.rename(PlayerId("nobody"), "X")


def test_one_night_per_date_listed_newest_first_with_its_players_and_matches(library):
    first = library.nights.get_or_create_for_date(date(2026, 11, 20))
    second = library.nights.get_or_create_for_date(date(2026, 11, 21))
    assert library.nights.get_or_create_for_date(date(2026, 11, 20)) == first
    library.matches.create(new_match("a", night=second.id, created_at="2026-11-21T20:00:00"))
    library.matches.create(replace(new_match("b", night=second.id, created_at="2026-11-21T21:00:00"),
                                   seating=replace(new_match().seating, seats=(CY, ANN))))
    nights = library.nights.list()
    assert [night.date for night in nights] == ["2026-11-21", "2026-11-20"]
    assert nights[0].matches == ("a", "b")
    assert nights[0].players == (ANN, BOB, CY)
    assert nights[1].matches == () and nights[1].players == ()
    assert library.nights.get(second.id) == nights[0]


def test_a_nights_place_is_trimmed_and_can_be_cleared(library):
    night = library.nights.get_or_create_for_date(date(2026, 11, 21))
    assert library.nights.set_place(night.id, "  The  Crown ").place == "The Crown"
    assert library.nights.get(night.id).place == "The Crown"
    assert library.nights.set_place(night.id, "  ").place is None
    with pytest.raises(InvalidName, match="80 characters"):
        library.nights.set_place(night.id, "x" * 81)
    with pytest.raises(NotFound):
        library.nights.get(NightId("nope"))


def test_events_are_appended_in_order_and_the_state_follows(library):
    library.matches.create(new_match())
    for n in range(5):
        match, state = library.matches.append_event(MatchId("m1"), scored(n))
    assert library.matches.get(MatchId("m1")).events == tuple(scored(n) for n in range(5))
    assert dict(library.matches.state(MatchId("m1")).game.scores) == {ANN: 3, BOB: 5, CY: 2}
    assert state == library.matches.state(MatchId("m1"))


def test_an_impossible_event_is_refused_and_nothing_is_stored(library):
    library.matches.create(new_match())
    library.matches.append_event(MatchId("m1"), scored(1))
    with pytest.raises(InvalidEvent, match="not playing"):
        library.matches.append_event(MatchId("m1"), Scored(PlayerId("dan"), 1))
    assert library.matches.get(MatchId("m1")).events == (scored(1),)


def test_summary_changes_when_the_game_is_won(library):
    library.matches.create(new_match(target=10))
    library.matches.append_event(MatchId("m1"), Scored(ANN, 5))
    (summary,) = library.matches.summaries()
    assert not summary.finished and summary.winners == frozenset() and summary.standings == ()
    library.matches.append_event(MatchId("m1"), Scored(ANN, 5))
    (summary,) = library.matches.summaries()
    assert summary.finished and summary.winners == {ANN}
    assert [(s.player, s.score, s.rank) for s in summary.standings] == [
        (ANN, 10, 1), (BOB, 0, 2), (CY, 0, 2)]


def test_abandoned_match_is_flagged_and_has_no_winner_G4(library):
    library.matches.create(new_match(target=10))
    library.matches.append_event(MatchId("m1"), Scored(ANN, 5))
    library.matches.append_event(MatchId("m1"), MatchAbandoned())
    (summary,) = library.matches.summaries()
    assert summary.abandoned and not summary.finished and summary.winners == frozenset()


def test_undo_and_correction_are_saved_and_the_summary_re_derived_G2(library):
    library.matches.create(new_match(target=10))
    for points in (5, 5):
        match, _ = library.matches.append_event(MatchId("m1"), Scored(ANN, points))
    assert library.matches.summaries()[0].finished
    match, _ = undo(match, games("counting"), NOW)
    library.matches.save(match)
    assert not library.matches.summaries()[0].finished
    match, _ = correct(match, games("counting"), 0, Scored(BOB, 2), NOW)
    state = library.matches.save(match)
    assert dict(state.game.scores) == {ANN: 0, BOB: 2, CY: 0}
    assert library.matches.get(MatchId("m1")).events == (Scored(BOB, 2),)


def test_a_save_that_breaks_the_rules_is_refused(library):
    library.matches.create(new_match())
    broken = new_match(events=(Scored(PlayerId("dan"), 1),))
    with pytest.raises(InvalidEvent):
        library.matches.save(broken)
    assert library.matches.get(MatchId("m1")).events == ()


def test_creating_a_match_twice_or_for_an_unknown_night_is_refused(library):
    library.matches.create(new_match())
    with pytest.raises(InvalidSetup, match="already a game"):
        library.matches.create(new_match())
    with pytest.raises(NotFound, match="game night"):
        library.matches.create(new_match("m2", night=NightId("nope")))


def test_a_batch_with_one_bad_match_stores_none(library):
    with pytest.raises(InvalidSetup, match="already a game"):
        library.matches.create_many([new_match("a"), new_match("b"), new_match("a")])
    with pytest.raises(InvalidEvent):
        library.matches.create_many([new_match("c"), new_match("d", events=(Scored(PlayerId("x"), 1),))])
    assert library.matches.summaries() == ()
    with pytest.raises(NotFound):
        library.matches.get(MatchId("a"))


def test_summaries_are_newest_first_and_filter_by_night(library):
    night = library.nights.get_or_create_for_date(date(2026, 11, 21))
    library.matches.create_many([new_match("old", created_at="2026-01-01T10:00:00"),
                                 new_match("new", night=night.id, created_at="2026-11-21T10:00:00")])
    assert [s.id for s in library.matches.summaries()] == ["new", "old"]
    assert [s.id for s in library.matches.summaries(night=night.id)] == ["new"]


def test_deleted_match_is_gone(library):
    library.matches.create(new_match())
    library.matches.delete(MatchId("m1"))
    assert library.matches.summaries() == ()
    with pytest.raises(NotFound):
        library.matches.get(MatchId("m1"))
    with pytest.raises(NotFound):
        library.matches.delete(MatchId("m1"))


def test_unknown_match_is_not_found(library):
    with pytest.raises(NotFound):
        library.matches.append_event(MatchId("nope"), scored(0))
