"""The library: players, game nights and matches, kept in a data folder (or in memory for tests).

Layout of a data folder:
  index.json            players, nights and one summary per match (small; TinyDB)
  matches/<id>.json     one match in the documented match format (TinyDB, one document)
  pictures/             Tableau picture sets (see storage.pictures)
  backups/<id>/         rolling automatic backups of all the above (see storage.backups)
  damaged/              damaged files moved aside, never deleted

Recording an event rewrites only its own match file, and the index only when the match's summary
changes (it is finished or abandoned), so its cost does not grow with the history.

One lock serialises every operation: a table's few phones write a handful of small files a
minute, and a single lock makes "never lose an update" plain to see.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import UTC, date, datetime
from pathlib import Path, PurePosixPath
from typing import Any

from tinydb.table import Document, Table

from companion.core.codec import JSON, from_json, to_json
from companion.core.errors import InvalidName, InvalidSetup, TablemateError
from companion.core.game import Event, Game, event_to_json
from companion.core.match import GameLookup, Match, MatchState, match_from_json, match_to_json, record, replay
from companion.core.players import Player, clean_name
from companion.core.types import MatchId, NightId, PlayerId
from storage.files import INDEX, Database, Files, FolderFiles, MemoryFiles, match_file
from storage.migrations import SCHEMA_VERSION, check_not_newer, migrate, schema_of
from storage.model import (
    Backup,
    DamagedMatch,
    MatchSummary,
    Night,
    NotFound,
    RecoveryNotice,
    summarize,
    summary_from_json,
)
from storage.pictures import PictureStore, folder_pictures, memory_pictures

DEFAULT_BACKUPS_KEPT = 10
MAX_PLACE_LENGTH = 80
MATCH_TABLE = "match"
MATCH_DOCUMENT = "match"

Clock = Callable[[], str]
IdFactory = Callable[[], str]


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def random_id() -> str:
    return uuid.uuid4().hex


class _Context:
    """What the three repositories share: the files, the lock, the game lookup, clock and ids."""

    def __init__(self, files: Files, games: GameLookup, clock: Clock, new_id: IdFactory) -> None:
        self.files = files
        self.games = games
        self.clock = clock
        self.new_id = new_id
        self.lock = threading.RLock()
        # Matches read or written in this session with their replayed state, so recording an
        # event neither reads the file back nor replays the log.
        self.loaded: dict[MatchId, tuple[Match, MatchState]] = {}
        # Every match summary, parsed once (thousands take seconds to decode) and kept in step
        # with every write of the index's match table; None until first asked for. Parsed
        # again if the index was opened anew (put back from a backup after damage).
        self.summaries: dict[MatchId, MatchSummary] | None = None
        self.summaries_of: Database | None = None

    @property
    def index(self) -> Database:
        return self.files.database(INDEX)


def _put_all(table: Table, records: dict[str, JSON]) -> None:
    """Store records (each with its own "id") under their ids, replacing older versions.

    One index write when they are all new or all known (TinyDB's upsert of a new record
    writes twice).
    """
    known = {key for key in records if table.contains(doc_id=key)}  # type: ignore[arg-type]
    if known:
        def replace_with_fresh(doc: dict[str, JSON]) -> None:
            fresh = records[doc["id"]]
            doc.clear()
            doc.update(fresh)
        table.update(replace_with_fresh, doc_ids=list(known))  # type: ignore[arg-type]
    new = [Document(doc, doc_id=key) for key, doc in records.items()  # type: ignore[arg-type]
           if key not in known]
    if new:
        table.insert_multiple(new)


class PlayerRepository:
    def __init__(self, context: _Context) -> None:
        self._context = context

    def list(self, *, include_archived: bool = False) -> tuple[Player, ...]:
        """Players by name (ignoring case); archived ones only when asked for."""
        with self._context.lock:
            players = [from_json(Player, dict(doc)) for doc in self._table().all()]
        shown = (player for player in players if include_archived or not player.archived)
        return tuple(sorted(shown, key=lambda player: player.name.casefold()))

    def get(self, player_id: PlayerId) -> Player:
        with self._context.lock:
            doc = self._table().get(doc_id=player_id)  # type: ignore[arg-type]
        if doc is None:
            raise NotFound(f"There is no player {player_id!r}.")
        return from_json(Player, dict(doc))

    def add(self, name: str) -> Player:
        """A new player; InvalidName if the name is empty, too long or taken (archived included)."""
        with self._context.lock:
            player = Player(PlayerId(self._context.new_id()), clean_name(name, self._names()))
            return self._save(player)

    def rename(self, player_id: PlayerId, name: str) -> Player:
        with self._context.lock:
            player = self.get(player_id)
            return self._save(replace(player, name=clean_name(name, self._names(), current=player.name)))

    def archive(self, player_id: PlayerId) -> Player:
        """Hide a player from the roster; his matches keep him."""
        return self._set_archived(player_id, True)

    def unarchive(self, player_id: PlayerId) -> Player:
        return self._set_archived(player_id, False)

    def _set_archived(self, player_id: PlayerId, archived: bool) -> Player:
        with self._context.lock:
            return self._save(replace(self.get(player_id), archived=archived))

    def put_many(self, players: Iterable[Player]) -> None:
        """Store players under their own ids, in one write (an import, which checked them)."""
        with self._context.lock:
            _put_all(self._table(), {player.id: to_json(player) for player in players})

    def _names(self) -> list[str]:
        return [doc["name"] for doc in self._table().all()]

    def _save(self, player: Player) -> Player:
        _put_all(self._table(), {player.id: to_json(player)})
        return player

    def _table(self):
        return self._context.index.table("players")


class NightRepository:
    def __init__(self, context: _Context, matches: MatchRepository) -> None:
        self._context = context
        self._matches = matches

    def get_or_create_for_date(self, day: date) -> Night:
        """The night of `day`, created on the fly: one night per date."""
        iso = day.isoformat()
        with self._context.lock:
            for doc in self._table().all():
                if doc["date"] == iso:
                    return self._night(doc)
            night = Night(NightId(self._context.new_id()), iso)
            self._save(night)
            return night

    def list(self) -> tuple[Night, ...]:
        """Every night, newest first, with its players and matches."""
        with self._context.lock:
            docs = self._table().all()
            summaries = self._matches.summaries()
        by_night: dict[str, list[MatchSummary]] = {}
        for summary in reversed(summaries):  # oldest first within a night
            by_night.setdefault(summary.night or "", []).append(summary)
        nights = (_with_matches(doc, by_night.get(doc["id"], [])) for doc in docs)
        return tuple(sorted(nights, key=lambda night: night.date, reverse=True))

    def get(self, night_id: NightId) -> Night:
        with self._context.lock:
            doc = self._table().get(doc_id=night_id)  # type: ignore[arg-type]
            if doc is None:
                raise NotFound(f"There is no game night {night_id!r}.")
            return self._night(doc)

    def set_place(self, night_id: NightId, place: str | None) -> Night:
        """Name where the night was held; an empty place clears it."""
        cleaned = " ".join((place or "").split()) or None
        if cleaned is not None and len(cleaned) > MAX_PLACE_LENGTH:
            raise InvalidName(f"Keep the place to {MAX_PLACE_LENGTH} characters or fewer.")
        with self._context.lock:
            night = replace(self.get(night_id), place=cleaned)
            self._save(night)
            return night

    def put_many(self, nights: Iterable[Night]) -> None:
        """Store nights under their own ids, in one write (an import, which checked them)."""
        with self._context.lock:
            _put_all(self._table(), {night.id: {"id": night.id, "date": night.date,
                                                "place": night.place} for night in nights})

    def _night(self, doc: Any) -> Night:
        return _with_matches(doc, sorted(self._matches.summaries(night=doc["id"]),
                                         key=lambda summary: summary.created_at))

    def _save(self, night: Night) -> None:
        # Players and matches are derived from the match summaries, never stored twice.
        _put_all(self._table(), {night.id: {"id": night.id, "date": night.date, "place": night.place}})

    def _table(self):
        return self._context.index.table("nights")


def _with_matches(doc: Any, summaries: list[MatchSummary]) -> Night:
    players = dict.fromkeys(player for summary in summaries for player in summary.seats)
    return Night(NightId(doc["id"]), doc["date"], doc.get("place"),
                 tuple(players), tuple(summary.id for summary in summaries))


class MatchRepository:
    def __init__(self, context: _Context) -> None:
        self._context = context

    def create(self, match: Match) -> MatchSummary:
        """Store a new match (its events, if any, must follow the rules)."""
        return self.create_many([match])[0]

    def create_many(self, matches: Iterable[Match]) -> tuple[MatchSummary, ...]:
        """Store several new matches with a single write of the index (for imports).

        All are checked before any is written: one refused match stores none of them.
        """
        context = self._context
        with context.lock:
            checked = []
            for match in matches:
                self._check_new(match, {entry[0].id for entry in checked})
                game = context.games(match.game)
                checked.append((match, game, replay(match, game)))
            # Match files go first: if a crash comes before the index is written, the next
            # open finds the files and files them in the index (refile).
            for match, game, _ in checked:
                self._write(match, game)
            summaries = [summarize(match, game, state) for match, game, state in checked]
            self._put_summaries(summaries)
            return tuple(summaries)

    def get(self, match_id: MatchId) -> Match:
        return self._load(match_id)[0]

    def state(self, match_id: MatchId) -> MatchState:
        return self._load(match_id)[1]

    def summaries(self, *, night: NightId | None = None) -> tuple[MatchSummary, ...]:
        """Match summaries, newest first; only one night's when `night` is given."""
        with self._context.lock:
            every = tuple(self._parsed_summaries().values())
        chosen = (summary for summary in every if night is None or summary.night == night)
        return tuple(sorted(chosen, key=lambda summary: summary.created_at, reverse=True))

    def _parsed_summaries(self) -> dict[MatchId, MatchSummary]:
        context = self._context
        if context.summaries is None or context.summaries_of is not context.index:
            context.summaries_of = context.index
            context.summaries = {MatchId(doc["id"]): summary_from_json(doc)
                                 for doc in self._table().all()}
        return context.summaries

    def append_event(self, match_id: MatchId, event: Event) -> tuple[Match, MatchState]:
        """Record `event`; when this returns it is on disk. InvalidEvent (and nothing written)
        if the event cannot happen now."""
        context = self._context
        with context.lock:
            match, state = self._load(match_id)
            game = context.games(match.game)
            match, state = record(match, game, event, context.clock(), state)

            def add_event(doc: dict[str, JSON]) -> None:
                # Only the new event is serialised, however long the log already is.
                doc["events"].append(event_to_json(event))
                doc["updated_at"] = match.updated_at

            self._match_table(match.id).update(add_event, doc_ids=[MATCH_DOCUMENT])  # type: ignore[list-item]
            return self._remember(match, state, game)

    def save(self, match: Match) -> MatchState:
        """Replace a stored match's whole log (after an undo or a correction, G2)."""
        context = self._context
        with context.lock:
            self._load(match.id)
            game = context.games(match.game)
            state = replay(match, game)
            self._write(match, game)
            return self._remember(match, state, game)[1]

    def delete(self, match_id: MatchId) -> None:
        """Remove a match (the automatic backups still hold it for a while)."""
        context = self._context
        with context.lock:
            name = match_file(match_id)
            if not self._table().contains(doc_id=match_id) and not context.files.exists(name):  # type: ignore[arg-type]
                raise NotFound(f"There is no game {match_id!r}.")
            # The summary goes first, so a crash in between leaves a file that open() files again
            # rather than a summary without a game.
            if self._table().contains(doc_id=match_id):  # type: ignore[arg-type]
                kept, context.summaries = context.summaries, None  # dropped if the write fails
                self._table().remove(doc_ids=[match_id])  # type: ignore[list-item]
                if kept is not None:
                    kept.pop(match_id, None)
                    context.summaries = kept
            context.loaded.pop(match_id, None)
            if context.files.exists(name):
                context.files.remove(name)

    def refile(self, *, everything: bool) -> None:
        """File match files in the index from the files themselves: those it lacks (a crash
        came between writing a new match and its summary), or all after the index was put back
        from a backup. A file that cannot be read is left where it is, with a notice."""
        context = self._context
        with context.lock:
            filed = {doc["id"] for doc in self._table().all()}
            summaries = []
            for name in context.files.match_files():
                match_id = MatchId(PurePosixPath(name).stem)
                if everything or match_id not in filed:
                    try:
                        match, state = self._load(match_id)
                    except (TablemateError, KeyError) as error:
                        context.files.notices.append(RecoveryNotice(
                            name, None, None, f"The file of game {match_id} could not be read "
                            f"({error}); it was left as it is."))
                        continue
                    summaries.append(summarize(match, context.games(match.game), state))
            self._put_summaries(summaries)

    def _remember(self, match: Match, state: MatchState, game: Game) -> tuple[Match, MatchState]:
        """Keep the stored match in memory, and its summary in the index if that changed."""
        self._context.loaded[match.id] = match, state
        summary = summarize(match, game, state)
        if to_json(summary) != self._table().get(doc_id=match.id):  # type: ignore[arg-type]
            self._put_summaries([summary])
        return match, state

    def _check_new(self, match: Match, also_taken: set[MatchId]) -> None:
        taken = self._context.files.exists(match_file(match.id)) or match.id in also_taken
        if taken or match.id in self._context.loaded:
            raise InvalidSetup(f"There is already a game with id {match.id}.")
        if match.night is not None and self._context.index.table("nights").get(
                doc_id=match.night) is None:  # type: ignore[arg-type]
            raise NotFound(f"There is no game night {match.night!r}.")

    def _write(self, match: Match, game: Game) -> None:
        self._match_table(match.id).upsert(
            Document(match_to_json(match, game), doc_id=MATCH_DOCUMENT))  # type: ignore[arg-type]

    def _match_table(self, match_id: MatchId) -> Table:
        return self._context.files.database(match_file(match_id)).table(MATCH_TABLE)

    def _load(self, match_id: MatchId) -> tuple[Match, MatchState]:
        context = self._context
        with context.lock:
            if match_id in context.loaded:
                return context.loaded[match_id]
            name = match_file(match_id)
            doc = (context.files.database(name).table(MATCH_TABLE).get(doc_id=MATCH_DOCUMENT)  # type: ignore[arg-type]
                   if context.files.exists(name) else None)
            if doc is None:
                if self._table().get(doc_id=match_id) is not None:  # type: ignore[arg-type]
                    raise DamagedMatch(f"The file of game {match_id} was damaged and no backup "
                                       "holds it; see the recovery notices.")
                raise NotFound(f"There is no game {match_id!r}.")
            match = match_from_json(dict(doc), context.games)
            loaded = context.loaded[match_id] = match, replay(match, context.games(match.game))
            return loaded

    def _put_summaries(self, summaries: list[MatchSummary]) -> None:
        context = self._context
        kept, context.summaries = context.summaries, None  # dropped if the write fails
        _put_all(self._table(), {summary.id: to_json(summary) for summary in summaries})
        if kept is not None:
            context.summaries = kept | {summary.id: summary for summary in summaries}

    def _table(self):
        return self._context.index.table("matches")


class Library:
    """A data folder (or memory) opened: players, nights and matches, backups, recovery notices."""

    def __init__(self, files: Files, games: GameLookup, clock: Clock, new_id: IdFactory,
                 pictures: PictureStore) -> None:
        self._context = _Context(files, games, clock, new_id)
        self.matches = MatchRepository(self._context)
        self.players = PlayerRepository(self._context)
        self.nights = NightRepository(self._context, self.matches)
        self.pictures = pictures  # Tableau picture sets (issue 7), beside the data, not in it

    @property
    def notices(self) -> tuple[RecoveryNotice, ...]:
        """What was repaired since opening (damaged files moved aside, backups put back)."""
        return tuple(self._context.files.notices)

    def list_backups(self) -> tuple[Backup, ...]:
        """Automatic backups, newest first."""
        with self._context.lock:
            return self._context.files.backups()

    def backup_now(self) -> str | None:
        with self._context.lock, self.pictures.held():
            return self._context.files.backup()

    def restore_backup(self, backup_id: str) -> str:
        """Put the whole data folder back as backup `backup_id` holds it, picture sets included.
        Returns the id of a backup of the data as it was just before, so the restore can be
        undone the same way."""
        with self._context.lock, self.pictures.held():
            before = self._context.files.restore(backup_id)
            self._context.loaded.clear()
            self._settle(refile_all=True)
            self.pictures.reload()
            return before

    def close(self) -> None:
        with self._context.lock:
            self._context.files.close()

    def _settle(self, *, refile_all: bool) -> None:
        """Bring the index to the current schema and file every match file in it."""
        index = self._context.index
        self._context.summaries = None  # the index may have been put back or migrated
        tables = index.storage.read() or {}
        if schema_of(tables) != SCHEMA_VERSION:
            index.storage.write(migrate(tables))
        self.matches.refile(everything=refile_all)

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def open_library(folder: Path, games: GameLookup, *, clock: Clock = utc_now,
                 new_id: IdFactory = random_id, keep_backups: int = DEFAULT_BACKUPS_KEPT) -> Library:
    """Open (or create) the data folder `folder`.

    Damaged files are moved aside and their newest good backup put back (see `notices`); data
    of an older schema is migrated after a backup of it is taken; data newer than this app
    raises DataTooNew and is left untouched.
    """
    files = FolderFiles(folder, keep_backups)
    index = files.database(INDEX)
    try:
        check_not_newer(index.storage.read() or {})
    except Exception:
        files.close()
        raise
    files.verify_changed()
    # The pictures are checked (and repaired) before the backup, as the library's files are.
    pictures = folder_pictures(folder, new_id, files.backup_store)
    files.backup()
    library = Library(files, games, clock, new_id, pictures)
    index_repaired = any(notice.file == INDEX for notice in files.notices)
    library._settle(refile_all=index_repaired)
    return library


def memory_library(games: GameLookup, *, clock: Clock = utc_now,
                   new_id: IdFactory = random_id) -> Library:
    """The same library kept in memory, for tests: nothing touches the disk, and no backups."""
    library = Library(MemoryFiles(), games, clock, new_id, memory_pictures(new_id))
    library._settle(refile_all=False)
    return library
