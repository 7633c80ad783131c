"""The home screen's repair notices come from Services.notices: data files and picture sets."""

from __future__ import annotations

from companion.games.registry import game_for
from companion.ui.services import Services
from storage import open_library


def test_a_damaged_list_of_picture_sets_is_said_on_the_home_screen(tmp_path):
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "index.json").write_bytes(b"{not json")
    with open_library(tmp_path, game_for) as library:
        notices = Services(storage=library, data_dir=tmp_path).notices
    assert len(notices) == 1
    assert "pictures/damaged-index.json" in notices[0]


def test_an_intact_data_folder_has_no_notices(tmp_path):
    with open_library(tmp_path, game_for) as library:
        assert Services(storage=library, data_dir=tmp_path).notices == ()
