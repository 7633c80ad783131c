"""Players on the roster, and the rules for their names."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from companion.core.errors import InvalidName
from companion.core.types import PlayerId

MAX_NAME_LENGTH = 40


@dataclass(frozen=True)
class Player:
    id: PlayerId
    name: str
    archived: bool = False


def clean_name(raw: str, taken: Iterable[str] = (), *, current: str | None = None) -> str:
    """The trimmed name, or InvalidName saying why it is refused.

    Names are non-empty, at most 40 characters, and unique ignoring case among `taken`
    (a player keeping his own name on rename, `current`, is not a clash).
    """
    name = " ".join(raw.split())
    if not name:
        raise InvalidName("Enter a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise InvalidName(f"Keep the name to {MAX_NAME_LENGTH} characters or fewer.")
    folded = name.casefold()
    own = current.casefold() if current is not None else None
    if any(other.casefold() == folded and other.casefold() != own for other in taken):
        raise InvalidName(f"There is already a player called {name}.")
    return name
