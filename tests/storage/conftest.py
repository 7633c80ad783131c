from __future__ import annotations

import pytest

from storage import Library, memory_library, open_library
from tests.storage.helpers import counter_ids, games


@pytest.fixture(params=["memory", "folder"])
def library(request, tmp_path) -> Library:
    """The same contract, run against the in-memory library and a real data folder."""
    if request.param == "memory":
        opened = memory_library(games, new_id=counter_ids())
    else:
        opened = open_library(tmp_path / "data", games, new_id=counter_ids())
    yield opened
    opened.close()
