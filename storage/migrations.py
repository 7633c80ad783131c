"""Schema versions of the index file and the explicit steps between them.

The index (players, nights, match summaries) carries its version in its `meta` table. Match files
hold the documented match format (companion.core.match, `format` field), versioned by the core.

Versions:
  0  the first layout, before the index carried a version: players had no `archived` flag.
  1  players carry `archived`; a night without a place stored the empty string.
  2  a night without a place stores null, so "no place" has a single spelling.
  3  (current) match summaries carry each player's figures of a finished game (statistics read
     summaries only). Older summaries are dropped: opening files every match file the index
     lacks again (MatchRepository.refile), which replays each match once.

Each step takes the index's tables as read from disk and returns them at the next version.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from storage.model import DataTooNew

Tables = dict[str, dict[str, Any]]
Migration = Callable[[Tables], Tables]

META = "meta"
META_ID = "1"


def schema_of(tables: Tables) -> int:
    meta = tables.get(META, {}).get(META_ID, {})
    return meta.get("schema", 0)


def _with_schema(tables: Tables, version: int) -> Tables:
    return {**tables, META: {META_ID: {"schema": version}}}


def _players_get_archived_flag(tables: Tables) -> Tables:
    players = {key: {"archived": False, **player} for key, player in tables.get("players", {}).items()}
    return {**tables, "players": players}


def _empty_place_becomes_null(tables: Tables) -> Tables:
    nights = {key: {**night, "place": night.get("place") or None}
              for key, night in tables.get("nights", {}).items()}
    return {**tables, "nights": nights}


def _summaries_filed_again(tables: Tables) -> Tables:
    return {name: table for name, table in tables.items() if name != "matches"}


# MIGRATIONS[n] turns version n into version n + 1.
MIGRATIONS: tuple[Migration, ...] = (
    _players_get_archived_flag,
    _empty_place_becomes_null,
    _summaries_filed_again,
)
SCHEMA_VERSION = len(MIGRATIONS)


def check_not_newer(tables: Tables) -> int:
    version = schema_of(tables)
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise DataTooNew(
            f"This data folder was written by a newer Tablemate (data version {version}); this app "
            f"reads versions up to {SCHEMA_VERSION}. Update Tablemate to open it; nothing was changed."
        )
    return version


def migrate(tables: Tables) -> Tables:
    """The index brought to SCHEMA_VERSION, one step at a time; DataTooNew if it is newer."""
    version = check_not_newer(tables)
    for step in MIGRATIONS[version:]:
        tables = step(tables)
    return _with_schema(tables, SCHEMA_VERSION)
