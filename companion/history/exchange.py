"""Export and import of the whole history: JSON (re-importable) and CSV (for spreadsheets).

The JSON file (history format 1) is one object:

    {"format": 1,
     "players": [{"id": ..., "name": ..., "archived": false}, ...],
     "nights": [{"id": ..., "date": "YYYY-MM-DD", "place": null}, ...],
     "matches": [<a match in the documented match format, docs/match-format.md>, ...]}

Functions here take and return strings and values; the caller reads and writes files.

Importing merges by id, and is all or nothing:
- everything in the file is checked first (JSON, fields, every match replayed through its
  game's rules, every seat's player and every match's night known, no id twice in the file),
  then against the library; one fault refuses the whole file, with a message naming the record
  (`matches[3] (id 'x')`) and the field, and nothing is written;
- a record whose id the library already has is skipped when it is identical, and refused when it
  differs (the message names the differing fields): an import never overwrites what the library
  holds, so a stale backup cannot undo later corrections;
- nights are kept with their own ids, so two nights may share a date after merging histories
  from two devices.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date

from companion.core.codec import JSON, from_json, to_json
from companion.core.errors import FormatError, TablemateError
from companion.core.match import GameLookup, Match, match_from_json, match_to_json
from companion.core.players import Player, clean_name
from companion.core.types import PlayerId
from companion.history.stats import PlayedMatch, Status, played_matches
from storage.library import Library
from storage.model import Night

HISTORY_FORMAT = 1
CSV_COLUMNS = ("date", "game", "player", "score", "rank", "winner", "status")


@dataclass(frozen=True)
class History:
    """Everything a history file holds, in file order (positions name records in messages)."""

    players: tuple[Player, ...]
    nights: tuple[Night, ...]  # id, date and place; who played and what is derived
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class ImportResult:
    players_added: int
    nights_added: int
    matches_added: int
    already_present: int  # identical records skipped


# --- export ----------------------------------------------------------------------------------


def history_of(library: Library) -> History:
    """The library's whole history: every player (archived too), night and match (oldest first)."""
    summaries = sorted(library.matches.summaries(), key=lambda summary: summary.created_at)
    return History(
        players=library.players.list(include_archived=True),
        nights=tuple(Night(night.id, night.date, night.place)
                     for night in sorted(library.nights.list(), key=lambda night: night.date)),
        matches=tuple(library.matches.get(summary.id) for summary in summaries),
    )


def history_to_json(history: History, games: GameLookup) -> dict[str, JSON]:
    return {
        "format": HISTORY_FORMAT,
        "players": [to_json(player) for player in history.players],
        "nights": [_night_to_json(night) for night in history.nights],
        "matches": [match_to_json(match, games(match.game)) for match in history.matches],
    }


def export_json(library: Library, games: GameLookup) -> str:
    return json.dumps(history_to_json(history_of(library), games), indent=1, ensure_ascii=False)


def _night_to_json(night: Night) -> dict[str, JSON]:
    return {"id": night.id, "date": night.date, "place": night.place}


def history_to_csv(history: History, games: GameLookup) -> str:
    """One row per player per match: date, game, player, score, rank, winner (and status).

    Rank and winner are filled in for finished matches only; an abandoned match (G4) or one in
    progress shows its current score and its status.
    """
    names = {player.id: player.name for player in history.players}
    night_dates = {night.id: night.date for night in history.nights}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for entry in sorted(played_matches(history.matches, games), key=lambda entry: entry.order):
        writer.writerows(_csv_rows(entry, names, night_dates))
    return out.getvalue()


def _csv_rows(entry: PlayedMatch, names: Mapping[PlayerId, str],
              night_dates: Mapping[str, str]) -> Iterable[tuple[str | int, ...]]:
    match = entry.match
    day = night_dates.get(match.night or "", match.created_at[:10])
    finished = entry.status is Status.FINISHED
    for standing in entry.standings:
        yield (day, entry.game.title, _spreadsheet_safe(names.get(standing.player, standing.player)),
               standing.score, standing.rank if finished else "",
               ("yes" if standing.player in entry.winners else "no") if finished else "",
               entry.status.value)


def _spreadsheet_safe(text: str) -> str:
    # A name starting like a formula would be run by a spreadsheet; a quote keeps it text.
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# --- reading and checking a file ---------------------------------------------------------------


def read_history(text: str, games: GameLookup) -> History:
    """Parse and check a history file on its own; FormatError names the record and field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError(f"The file is not JSON ({error.msg} at line {error.lineno}, "
                          f"column {error.colno}).") from None
    if not isinstance(data, dict):
        raise FormatError("The file is not a Tablemate history: it should hold one JSON object, "
                          f"not a {type(data).__name__}.")
    version = data.get("format")
    if isinstance(version, bool) or not isinstance(version, int):
        raise FormatError("history: field 'format' is missing or not a whole number.")
    if version > HISTORY_FORMAT:
        raise FormatError(f"history: format {version} is newer than this app understands "
                          f"({HISTORY_FORMAT}); update Tablemate to import this file.")
    players = tuple(_player(item, where) for item, where in _records(data, "players"))
    nights = tuple(_night(item, where) for item, where in _records(data, "nights"))
    matches = tuple(_match(item, where, games) for item, where in _records(data, "matches"))
    history = History(players, nights, matches)
    _check_unique_ids(history)
    _check_unique_names(players)
    return history


def _records(data: Mapping[str, JSON], field: str) -> list[tuple[JSON, str]]:
    items = data.get(field, [])
    if not isinstance(items, list):
        raise FormatError(f"history: field {field!r} must be a list.")
    return [(item, f"{field}[{index}]") for index, item in enumerate(items)]


def _player(item: JSON, where: str) -> Player:
    player = from_json(Player, item, where)
    if not player.id:
        raise FormatError(f"{where}: field 'id' is empty.")
    try:
        if clean_name(player.name) != player.name:
            raise FormatError(f"{where}: field 'name' {player.name!r} has extra spaces.")
    except TablemateError as error:
        raise FormatError(f"{where}: field 'name': {error}") from None
    return player


def _night(item: JSON, where: str) -> Night:
    if isinstance(item, dict):  # who played and what is derived from the matches, never read
        item = {key: value for key, value in item.items() if key in ("id", "date", "place")}
    night = from_json(Night, item, where)
    if not night.id:
        raise FormatError(f"{where}: field 'id' is empty.")
    try:
        date.fromisoformat(night.date)
    except ValueError:
        raise FormatError(f"{where}: field 'date' {night.date!r} is not a date "
                          "(YYYY-MM-DD).") from None
    return night


def _match(item: JSON, where: str, games: GameLookup) -> Match:
    match_id = item.get("id") if isinstance(item, dict) else None
    label = f"{where} (id {match_id!r})" if isinstance(match_id, str) else where
    try:
        return match_from_json(item, games)
    except TablemateError as error:
        # match_from_json speaks of "match: ..."; here the record's position says which match.
        raise FormatError(f"{label}: {str(error).removeprefix('match: ')}") from None


def _check_unique_ids(history: History) -> None:
    for field, records in (("players", history.players), ("nights", history.nights),
                           ("matches", history.matches)):
        first_at: dict[str, int] = {}
        for index, record in enumerate(records):
            if record.id in first_at:
                raise FormatError(f"{field}[{index}]: id {record.id!r} is already used by "
                                  f"{field}[{first_at[record.id]}]; ids must be unique.")
            first_at[record.id] = index


def _check_unique_names(players: Sequence[Player]) -> None:
    first_at: dict[str, int] = {}
    for index, player in enumerate(players):
        folded = player.name.casefold()
        if folded in first_at:
            raise FormatError(f"players[{index}]: name {player.name!r} is already used by "
                              f"players[{first_at[folded]}]; names must be unique.")
        first_at[folded] = index


# --- merging into a library --------------------------------------------------------------------


def _differing_fields(ours: Mapping[str, JSON], theirs: Mapping[str, JSON]) -> str:
    fields = sorted(key for key in ours.keys() | theirs.keys() if ours.get(key) != theirs.get(key))
    return ", ".join(repr(field) for field in fields)


def _conflict(where: str, record_id: str, kind: str, ours: Mapping[str, JSON],
              theirs: Mapping[str, JSON]) -> FormatError:
    return FormatError(f"{where} (id {record_id!r}): the library already has this {kind}, and "
                       f"it differs in {_differing_fields(ours, theirs)}; an import never "
                       "overwrites what the library holds.")


def _new_players(history: History, library: Library) -> list[Player]:
    present = {player.id: player for player in library.players.list(include_archived=True)}
    names = {player.name.casefold(): player for player in present.values()}
    new = []
    for index, player in enumerate(history.players):
        where = f"players[{index}]"
        if player.id in present:
            if present[player.id] != player:
                raise _conflict(where, player.id, "player", to_json(present[player.id]),
                                to_json(player))
            continue
        clash = names.get(player.name.casefold())
        if clash is not None:
            raise FormatError(f"{where} (id {player.id!r}): the library already has a player "
                              f"called {clash.name} (id {clash.id!r}).")
        new.append(player)
    return new


def _new_nights(history: History, library: Library) -> list[Night]:
    present = {night.id: _night_to_json(night) for night in library.nights.list()}
    new = []
    for index, night in enumerate(history.nights):
        if night.id not in present:
            new.append(night)
        elif present[night.id] != _night_to_json(night):
            raise _conflict(f"nights[{index}]", night.id, "game night", present[night.id],
                            _night_to_json(night))
    return new


def _new_matches(history: History, library: Library, games: GameLookup,
                 players: set[str], nights: set[str]) -> list[Match]:
    present = {summary.id for summary in library.matches.summaries()}
    new = []
    for index, match in enumerate(history.matches):
        where = f"matches[{index}] (id {match.id!r})"
        for seat, player in enumerate(match.seating.seats):
            if player not in players:
                raise FormatError(f"{where}: field 'seats': seat {seat + 1} holds player "
                                  f"{player!r}, who is not in the players list.")
        if match.night is not None and match.night not in nights:
            raise FormatError(f"{where}: field 'night': there is no game night {match.night!r} "
                              "in the file or the library.")
        if match.id not in present:
            new.append(match)
            continue
        stored = library.matches.get(match.id)
        ours = match_to_json(stored, games(stored.game))
        theirs = match_to_json(match, games(match.game))
        if ours != theirs:
            raise _conflict(f"matches[{index}]", match.id, "game", ours, theirs)
    return new


def merge_history(history: History, library: Library, games: GameLookup) -> ImportResult:
    """Add what the library lacks; check everything before writing anything (see the module)."""
    new_players = _new_players(history, library)
    new_nights = _new_nights(history, library)
    known_players = {p.id for p in library.players.list(include_archived=True)} | {
        p.id for p in history.players}
    known_nights = {n.id for n in library.nights.list()} | {n.id for n in history.nights}
    new_matches = _new_matches(history, library, games, known_players, known_nights)
    # Nights before matches: storage checks each new match's night is there.
    library.players.put_many(new_players)
    library.nights.put_many(new_nights)
    library.matches.create_many(new_matches)
    added = len(new_players) + len(new_nights) + len(new_matches)
    total = len(history.players) + len(history.nights) + len(history.matches)
    return ImportResult(len(new_players), len(new_nights), len(new_matches), total - added)


def import_json(text: str, library: Library, games: GameLookup) -> ImportResult:
    """Check a history file, then merge it; FormatError (and nothing written) if it is bad."""
    return merge_history(read_history(text, games), library, games)
