"""Persistence: players, game nights and matches in a data folder (TinyDB), or in memory."""

from storage.library import (
    Library,
    MatchRepository,
    NightRepository,
    PlayerRepository,
    memory_library,
    open_library,
)
from storage.model import (
    Backup,
    DamagedMatch,
    DataTooNew,
    MatchSummary,
    Night,
    NotFound,
    RecoveryNotice,
)

__all__ = [
    "Backup",
    "DamagedMatch",
    "DataTooNew",
    "Library",
    "MatchRepository",
    "MatchSummary",
    "Night",
    "NightRepository",
    "NotFound",
    "PlayerRepository",
    "RecoveryNotice",
    "memory_library",
    "open_library",
]
