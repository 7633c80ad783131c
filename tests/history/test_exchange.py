"""Export and import: the JSON round trip, the CSV rows, and every kind of bad file refused
with a precise message while the library stays exactly as it was."""

from __future__ import annotations

import csv
import io
import json

import pytest

from companion.core.errors import FormatError
from companion.core.match import match_to_json
from companion.core.players import Player
from companion.core.types import NightId, PlayerId
from companion.games.plaza import PlazaOptions
from companion.games.registry import game_for
from companion.history.exchange import (
    History,
    export_json,
    history_of,
    history_to_csv,
    history_to_json,
    import_json,
)
from storage import Night, memory_library
from tests.history.histories import ANN, BOB, played, plaza_hand, seven_matches

NOW = "2026-11-21T20:00:00+00:00"
DEE = PlayerId("dee")


def library_with(players, nights, matches):
    library = memory_library(game_for, clock=lambda: NOW)
    library.players.put_many(players)
    library.nights.put_many(nights)
    library.matches.create_many(matches)
    return library


def night(night_id: str, day: str, place: str | None = None) -> Night:
    return Night(NightId(night_id), day, place)


PLAYERS = (Player(ANN, "Ann"), Player(BOB, "Bob"), Player(PlayerId("cy"), "=Cy", archived=True))


@pytest.fixture
def library():
    return library_with(PLAYERS, [night("n1", "2026-01-05", "Ann's")], seven_matches("n1"))


def other_history() -> History:
    """A second device's history: a new player and night, and Ann as the library knows her."""
    return History(
        players=(Player(ANN, "Ann"), Player(DEE, "Dee")),
        nights=(night("n2", "2026-07-01"),),
        matches=(
            played("x1", "plaza", (ANN, DEE), PlazaOptions(deals_each=1),
                   "2026-07-01T19:00:00+00:00",
                   [plaza_hand(ANN, dee=5), plaza_hand(DEE, ann=1)], "n2"),
            played("x2", "plaza", (DEE, ANN), PlazaOptions(deals_each=1),
                   "2026-07-01T20:00:00+00:00", [plaza_hand(DEE, ann=2)], "n2"),
        ),
    )


def other_file() -> dict:
    return history_to_json(other_history(), game_for)


def test_export_then_import_into_an_empty_library_reproduces_the_history(library):
    text = export_json(library, game_for)
    empty = memory_library(game_for)
    result = import_json(text, empty, game_for)
    assert (result.players_added, result.nights_added, result.matches_added,
            result.already_present) == (3, 1, 7, 0)
    assert history_of(empty) == history_of(library)
    assert empty.nights.list() == library.nights.list()
    assert empty.matches.summaries() == library.matches.summaries()
    assert export_json(empty, game_for) == text


def test_importing_the_same_file_again_adds_nothing(library):
    text = export_json(library, game_for)
    result = import_json(text, library, game_for)
    assert (result.players_added, result.nights_added, result.matches_added,
            result.already_present) == (0, 0, 0, 11)
    assert export_json(library, game_for) == text


def test_import_merges_a_second_history_by_id(library):
    result = import_json(json.dumps(other_file()), library, game_for)
    assert (result.players_added, result.nights_added, result.matches_added,
            result.already_present) == (1, 1, 2, 1)
    assert library.players.get(DEE).name == "Dee"
    assert library.nights.get("n2").matches == ("x1", "x2")
    assert library.matches.get("x1") == other_history().matches[0]


def test_csv_has_one_row_per_player_per_match(library):
    rows = list(csv.reader(io.StringIO(history_to_csv(history_of(library), game_for))))
    assert rows[0] == ["date", "game", "player", "score", "rank", "winner", "status"]
    assert len(rows) == 1 + 2 + 3 + 2 + 2 + 2 + 1 + 2
    # m1 in standings order; dates come from the night.
    assert rows[1:3] == [["2026-01-05", "Plaza", "Ann", "4", "1", "yes", "finished"],
                         ["2026-01-05", "Plaza", "Bob", "10", "2", "no", "finished"]]
    # m2: a shared win (G3); Cy's name would be a formula in a spreadsheet, so it is quoted.
    assert [row[2:6] for row in rows[3:6]] == [["Ann", "6", "1", "yes"], ["Bob", "6", "1", "yes"],
                                               ["'=Cy", "9", "3", "no"]]
    # m4 abandoned (G4) and m7 in progress: current score, no rank, no winner.
    assert rows[8][4:] == ["", "", "abandoned"]
    assert rows[-1][2:] == ["Ann", "7", "", "", "in progress"]


def test_a_player_who_is_only_in_the_library_may_be_seated_in_an_imported_match(library):
    data = other_file()
    data["players"] = [player for player in data["players"] if player["id"] != ANN]
    assert import_json(json.dumps(data), library, game_for).matches_added == 2


# --- bad files: each refused with the record and field at fault, and nothing written ----------


def without(data: dict, field: str, index: int, key: str) -> dict:
    del data[field][index][key]
    return data


def with_value(data: dict, field: str, index: int, key: str, value) -> dict:
    data[field][index][key] = value
    return data


def a_hand_too_many(data: dict) -> dict:
    events = data["matches"][0]["events"]
    events.append(events[0])
    return data


def twice(data: dict, field: str) -> dict:
    data[field].append(dict(data[field][0]))
    return data


def unknown_player(data: dict) -> dict:
    data["players"] = [player for player in data["players"] if player["id"] != DEE]
    return data


def changed_library_match(data: dict) -> dict:
    stored = match_to_json(seven_matches("n1")[6], game_for("plaza"))
    stored["events"] = []
    data["matches"].append(stored)
    return data


BAD_FILES = [
    ("not JSON", lambda data: "{\"format\": 1,", r"^The file is not JSON \(.* line 1, column"),
    ("a list at the top", lambda data: [data], r"should hold one JSON object, not a list"),
    ("a newer format", lambda data: {**data, "format": 2}, r"format 2 is newer than this app"),
    ("no format", lambda data: {k: v for k, v in data.items() if k != "format"},
     r"field 'format' is missing"),
    ("players not a list", lambda data: {**data, "players": {}}, r"field 'players' must be a list"),
    ("a player's name a number", lambda data: with_value(data, "players", 1, "name", 5),
     r"^players\[1\]\.name: expected str"),
    ("a player with an empty name", lambda data: with_value(data, "players", 1, "name", " "),
     r"^players\[1\]: field 'name': Enter a name"),
    ("a night without a date", lambda data: without(data, "nights", 0, "date"),
     r"^nights\[0\]: missing field 'date'"),
    ("a night's date not a date", lambda data: with_value(data, "nights", 0, "date", "July 1st"),
     r"^nights\[0\]: field 'date' 'July 1st' is not a date"),
    ("a match with a missing field", lambda data: without(data, "matches", 1, "created_at"),
     r"^matches\[1\] \(id 'x2'\): field 'created_at' is missing"),
    ("an unknown game", lambda data: with_value(data, "matches", 0, "game", "chess"),
     r"^matches\[0\] \(id 'x1'\): unknown game 'chess'"),
    ("an unknown event type", lambda data: with_value(data, "matches", 1, "events", [{"type": "x"}]),
     r"^matches\[1\] \(id 'x2'\): events\[0\]: unknown event type 'x'"),
    ("an event that breaks the rules", a_hand_too_many,
     r"^matches\[0\] \(id 'x1'\): match x1: Entry 3: The game is over: all 2 hands"),
    ("a player id not in the players list", unknown_player,
     r"^matches\[0\] \(id 'x1'\): field 'seats': seat 2 holds player 'dee', who is not in the "
     r"players list"),
    ("a night id in neither file nor library",
     lambda data: with_value(data, "matches", 1, "night", "n9"),
     r"^matches\[1\] \(id 'x2'\): field 'night': there is no game night 'n9'"),
    ("a player id twice", lambda data: twice(data, "players"),
     r"^players\[2\]: id 'ann' is already used by players\[0\]"),
    ("a match id twice", lambda data: twice(data, "matches"),
     r"^matches\[2\]: id 'x1' is already used by matches\[0\]"),
    ("a night id twice", lambda data: twice(data, "nights"),
     r"^nights\[1\]: id 'n2' is already used by nights\[0\]"),
    ("two players with one name", lambda data: with_value(data, "players", 1, "name", "ANN"),
     r"^players\[1\]: name 'ANN' is already used by players\[0\]"),
    ("a known player under another name",
     lambda data: with_value(data, "players", 0, "name", "Annie"),
     r"^players\[0\] \(id 'ann'\): the library already has this player, and it differs in 'name'"),
    ("a new player with a name the library has",
     lambda data: with_value(data, "players", 1, "name", "bob"),
     r"^players\[1\] \(id 'dee'\): the library already has a player called Bob \(id 'bob'\)"),
    ("a known match with other events", changed_library_match,
     r"^matches\[2\] \(id 'm7'\): the library already has this game, and it differs in 'events'"),
    ("a known night elsewhere",
     lambda data: {**data, "nights": [*data["nights"], {"id": "n1", "date": "2026-01-06"}]},
     r"^nights\[1\] \(id 'n1'\): the library already has this game night, and it differs in "
     r"'date', 'place'"),
]


@pytest.mark.parametrize(("change", "message"), [case[1:] for case in BAD_FILES],
                         ids=[case[0] for case in BAD_FILES])
def test_a_bad_file_is_refused_precisely_and_changes_nothing(library, change, message):
    before = export_json(library, game_for)
    changed = change(other_file())
    text = changed if isinstance(changed, str) else json.dumps(changed)
    with pytest.raises(FormatError, match=message):
        import_json(text, library, game_for)
    assert export_json(library, game_for) == before


def test_the_good_file_the_bad_ones_are_made_from_is_accepted(library):
    assert import_json(json.dumps(other_file()), library, game_for).matches_added == 2


def test_a_night_from_another_device_on_the_same_date_is_kept_apart(library):
    data = other_file()
    data["nights"][0]["date"] = "2026-01-05"  # the library's n1 has this date too
    assert import_json(json.dumps(data), library, game_for).nights_added == 1
    assert sorted((night.id, night.date) for night in library.nights.list()) == [
        ("n1", "2026-01-05"), ("n2", "2026-01-05")]
