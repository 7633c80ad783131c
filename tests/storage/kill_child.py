"""Child process of the kill test: appends events to one match and acknowledges each one.

`python -m tests.storage.kill_child FOLDER MATCH_ID` prints "ack N" once event N is stored
(append_event has returned), and runs until it is killed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from companion.core.types import MatchId
from storage import open_library
from tests.storage.helpers import games, new_match, scored

MOST_EVENTS = 5_000


def main(folder: str, match_id: str) -> None:
    library = open_library(Path(folder), games)
    library.matches.create(new_match(match_id))
    print("created", flush=True)
    for n in range(MOST_EVENTS):
        library.matches.append_event(MatchId(match_id), scored(n))
        print(f"ack {n}", flush=True)


if __name__ == "__main__":
    main(*sys.argv[1:])
