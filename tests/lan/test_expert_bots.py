"""``burgundy bot --host --estate N`` and ``--setup experts-open|experts-secret``: two bot
processes on loopback play the whole game (choices included) and write identical game files
that ``burgundy verify`` accepts."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from p2p_burgundy.net.log import Kind, decode_entry

from .procs import LOOPBACK, bots, burgundy

pytestmark = pytest.mark.slow

GAME_SECONDS = 120


@pytest.mark.parametrize(("options", "choice_kinds"), [
    (["--setup", "experts-secret"], {Kind.CHOICE_COMMIT: 2, Kind.CHOICE_REVEAL: 2}),
    (["--setup", "experts-open", "--edition", "2019"], {}),
    (["--estate", "5"], {}),  # prints no start castle: both choose one, in turn order
], ids=["experts-secret", "experts-open", "estate-5"])
def test_two_bots_play_a_table_with_estate_options_to_the_end(tmp_path: Path, options,
                                                              choice_kinds) -> None:
    local = ["--interface", LOOPBACK, "--no-mdns"]
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "2", *options, *local])
        _, port, _ = host.hosting()
        group.add(tmp_path / "guest", [f"{LOOPBACK}:{port}", *local])
        group.assert_all_ok(GAME_SECONDS)
        files = {b.game_bytes() for b in group.bots}
        assert len(files) == 1
        for b in group.bots:
            assert "game over" in b.stdout
            assert "note: Estate" in b.stdout  # the low-confidence layouts are flagged
        records = group.bots[0].records()
        kinds = [decode_entry(r).kind for r in records]
        assert {k: kinds.count(k) for k in choice_kinds} == choice_kinds
        if not choice_kinds:
            assert Kind.CHOICE_COMMIT not in kinds
        result = subprocess.run(burgundy("verify", str(host.game_files()[0])),
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


def test_four_bots_finish_a_game_with_every_module_on_duchy_11a_and_it_verifies(
        tmp_path: Path) -> None:
    local = ["--interface", LOOPBACK, "--no-mdns"]
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "4", "--with", "all",
                                             "--estate", "11a", *local])
        _, port, _ = host.hosting()
        for guest in range(3):
            group.add(tmp_path / f"guest{guest}", [f"{LOOPBACK}:{port}", *local])
        group.assert_all_ok(GAME_SECONDS)
        assert len({b.game_bytes() for b in group.bots}) == 1
        result = subprocess.run(burgundy("verify", str(host.game_files()[0])),
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        for words in ("shields on the depots:", "trade route cards dealt:"):
            assert words in result.stdout
