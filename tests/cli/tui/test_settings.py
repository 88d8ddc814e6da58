"""The player's settings (the hint level, the palette): kept in the data folder, read back
whatever the file holds, and overridden by the environment where it says so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from p2p_burgundy.cli.tui.app import TILE_COLOURS
from p2p_burgundy.cli.tui.settings import (
    PALETTES,
    SETTINGS_FILE,
    HintLevel,
    Settings,
    load,
    save,
    with_environment,
)


def test_settings_saved_come_back_and_no_file_means_the_defaults(tmp_path: Path) -> None:
    assert load(tmp_path) == Settings(HintLevel.ALL, "standard")
    chosen = Settings().next_hints().next_palette().next_palette()
    assert chosen == Settings(HintLevel.TARGETS, "high-contrast")
    assert save(tmp_path / "new", chosen) is None  # the folder is made
    assert load(tmp_path / "new") == chosen
    assert (tmp_path / "new" / SETTINGS_FILE).read_text() == \
        '{\n "hints": "targets",\n "palette": "high-contrast"\n}\n'
    assert Settings(HintLevel.NONE).next_hints().hints == HintLevel.ALL
    assert Settings(palette="high-contrast").next_palette().palette == "standard"


@pytest.mark.parametrize("content", [b"", b"\x00\xff", b"[1, 2]", b"[" * 100_000,
                                     b'{"hints": 3, "palette": "mauve"}'])
def test_a_damaged_settings_file_gives_the_defaults(tmp_path: Path, content: bytes) -> None:
    (tmp_path / SETTINGS_FILE).write_bytes(content)
    assert load(tmp_path) == Settings()


def test_a_settings_file_that_is_a_folder_a_pipe_or_huge_is_not_read(tmp_path: Path) -> None:
    (tmp_path / SETTINGS_FILE).mkdir()
    assert load(tmp_path) == Settings()
    assert save(tmp_path, Settings(HintLevel.NONE)) is not None  # said, not raised
    other = tmp_path / "other"
    other.mkdir()
    with open(other / SETTINGS_FILE, "wb") as out:
        out.truncate(1 << 30)  # sparse: a gigabyte of zeros
    assert load(other) == Settings()
    pipe = tmp_path / "pipe"
    pipe.mkdir()
    os.mkfifo(pipe / SETTINGS_FILE)  # nobody writes to it: reading must not wait
    assert load(pipe) == Settings()


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_a_read_only_data_folder_says_why_the_settings_are_not_kept(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        assert save(tmp_path, Settings(HintLevel.NONE)) == "Permission denied"
    finally:
        tmp_path.chmod(0o700)


def test_the_environment_wins_where_it_names_a_setting() -> None:
    saved = Settings(HintLevel.NONE, "colour-blind")
    assert with_environment(saved, {}) == saved
    assert with_environment(saved, {"BURGUNDY_HINTS": "targets"}) == \
        Settings(HintLevel.TARGETS, "colour-blind")
    assert with_environment(saved, {"BURGUNDY_HINTS": "lots", "BURGUNDY_PALETTE": "mauve"}) \
        == saved


def test_every_palette_named_has_its_colours() -> None:
    assert tuple(TILE_COLOURS) == PALETTES
