"""Checks every game's property tests make on a played match: undo and the JSON round trip."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from companion.core.game import Game
from companion.core.match import Match, match_from_json, match_to_json, replay, undo

NOW = "2026-11-21T20:00:00+00:00"


def assert_undo_restores_previous_state(match: Match, game: Game, position: int) -> None:
    """Undoing the event at `position` (the last of the log cut there) gives exactly the state
    of the log before it (G2)."""
    through = replace(match, events=match.events[:position + 1])
    before = replace(match, events=match.events[:position])
    assert undo(through, game, NOW)[1] == replay(before, game)


def assert_json_round_trip(match: Match, game: Game) -> None:
    """The documented match format gives back the same match, replaying to the same state."""
    text = json.dumps(match_to_json(match, game), sort_keys=True)
    again = match_from_json(json.loads(text), lambda key: {game.key: game}[key])
    assert again == match
    assert replay(again, game) == replay(match, game)


def documented_example(doc: str) -> dict:
    """The JSON match under the "## Example" heading of docs/match-format/<doc>."""
    text = (Path(__file__).parents[2] / "docs" / "match-format" / doc).read_text()
    section = text.split("## Example", 1)[1]
    return json.loads(section.split("```json", 1)[1].split("```", 1)[0])
