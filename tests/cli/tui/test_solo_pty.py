"""``burgundy solo`` in a pseudo-terminal, read back through pyte (80x24): the solo game with
no network, what a solo player needs on the screen, and the seed that replays it."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import PRINTED_PROGRAM, burgundy, running

SOLO = ("solo", "--seed", "5", "--name", "Sol")


def test_a_solo_game_shows_its_round_of_25_the_target_and_the_white_die(tmp_path: Path):
    with burgundy(tmp_path, *SOLO) as term:
        term.wait_for("Set-up: your estate and start castle")
        assert "Solo game: seed 5" in term.text  # in the log, from the first screen on
        term.press("1")  # the start castle on the only space by a river
        screen = term.wait_for("use die 1")
        status = term.screen.display[0]
        assert "Round 1/25" in status and "VP 0/50" in status
        assert "Round 1/25 (phase A)" in screen
        assert "Target 50: counter 0 (50 to go)" in screen
        assert re.search(r"White die (\d): goods on \1, tile out", screen)
        term.press(*"1w2we")
        term.wait_for("Round 2/25")
        term.press("l")
        term.wait_for("leaves the game from depot")
        term.press("esc", "q")
        assert term.wait_exit() == 0
        assert "Seed 5: " in term.text and " solo --seed 5 replays it" in term.text


def test_the_same_seed_deals_the_same_solo_game(tmp_path: Path):
    screens = []
    for run in ("a", "b"):
        with burgundy(tmp_path / run, *SOLO) as term:
            term.wait_for("Set-up: your estate and start castle")
            term.press("1")
            term.wait_for("use die 1")
            screens.append(term.screen.display[1:12])
            term.press("q")
            assert term.wait_exit() == 0
    assert screens[0] == screens[1]


def test_a_solo_game_played_to_the_end_says_how_it_ended_and_its_seed(tmp_path: Path):
    with burgundy(tmp_path, *SOLO, "--autoplay") as term:
        screen = term.wait_for("Final scores", 120)
        assert re.search(r"25 rounds are over with \d+ spaces? empty|The duchy is full", screen)
        assert "Seed 5: burgundy solo --seed 5 replays this game." in screen
        term.press("?")
        term.wait_for("Rule: Solo: fill all 37 spaces within 25 rounds to win")
        term.press("esc", "q")
        assert term.wait_exit() == 0


def test_a_solo_game_left_with_q_comes_back_where_it_stopped_with_the_printed_command(
        tmp_path: Path):
    with burgundy(tmp_path, *SOLO) as term:
        term.wait_for("Set-up: your estate and start castle")
        term.press("1")
        term.wait_for("use die 1")
        term.press(*"1w2we")
        term.wait_for("Round 2/25")
        term.press("l")
        term.wait_for("leaves the game from depot")
        log = term.screen.display[:22]  # the log overlay (not the message line)
        term.press("esc", "1", "w")  # half a turn: die 1 takes workers
        turn = term.wait_for("(this turn) Sol took workers with a 1")
        assert ">2 use die 2: a 3" in turn and "use die 1" not in turn
        before = term.screen.display[1:20]
        term.press("q")
        assert term.wait_exit() == 0
        unwrapped = "".join(term.screen.display)  # the long path wraps at 80 columns
        found = re.search(r"This game is saved\. To go back to it: +(" + PRINTED_PROGRAM
                          + r" solo --resume \S+\.local)", unwrapped)
        assert found, term.text
    command = shlex.split(found.group(1))
    saved = Path(command[-1])
    assert saved.parent == tmp_path / "local"
    with running(command, tmp_path) as term:
        term.wait_for("(this turn) Sol took workers with a 1")  # the half-played turn
        assert term.screen.display[1:20] == before  # the board, counter, depots and turn
        term.press("u", "u", "l")  # undone, the log is the log before the turn
        term.wait_for("leaves the game from depot")
        assert term.screen.display[:22] == log
        term.press("esc", *"1w2we")
        term.wait_for("Round 3/25")
        term.press("q")
        assert term.wait_exit() == 0
        assert "Left in round 3 of 25. Seed 5: " in term.text
        assert f" solo --resume {saved}" in "".join(term.screen.display)
    with burgundy(tmp_path, "solo", "--resume") as term:  # the latest: the same game
        term.wait_for("Round 3/25")
        term.press("q")
        assert term.wait_exit() == 0
