"""Finding our game to resume: damaged or foreign files are skipped, none is a clear error."""

from pathlib import Path

import pytest

from p2p_burgundy.cli.lan import LanError, latest_game, unfinished_games
from p2p_burgundy.net.log import FILE_MAGIC


def test_a_game_file_without_a_start_entry_is_skipped(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "empty.game").write_bytes(FILE_MAGIC)  # cut off before its first record
    (games / "junk.game").write_bytes(b"not a game file")
    assert unfinished_games(tmp_path, bytes(32)) == []


def test_no_game_of_ours_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(LanError, match="no game of ours in"):
        latest_game(tmp_path, bytes(32))
