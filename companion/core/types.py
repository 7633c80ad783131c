"""Named identifier types, so signatures say which kind of id they take."""

from typing import NewType

PlayerId = NewType("PlayerId", str)
MatchId = NewType("MatchId", str)
NightId = NewType("NightId", str)
