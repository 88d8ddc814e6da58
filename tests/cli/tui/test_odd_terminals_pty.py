"""Odd terminals and environments: a C locale, a terminal type this system does not know,
one curses cannot drive, none at all, a window too small. The client draws or says why, and
never leaves a traceback."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import burgundy

START = ("play", "--local", "--seed", "3", "--bot-delay", "0")


@pytest.mark.parametrize("env", [{"LANG": "C", "LC_ALL": "C"}, {"TERM": "nosuchterm"},
                                 {"TERM": "vt100"}], ids=["C locale", "unknown TERM", "vt100"])
def test_the_game_draws_and_quits(tmp_path: Path, env: dict[str, str]) -> None:
    with burgundy(tmp_path, *START, env=env) as term:
        term.wait_for("use die 1", 15)
        term.press("q")
        assert term.wait_exit() == 0
        assert "Traceback" not in term.text


@pytest.mark.parametrize("term_name", ["dumb", ""])
def test_a_terminal_curses_cannot_drive_is_named(tmp_path: Path, term_name: str) -> None:
    with burgundy(tmp_path, *START, env={"TERM": term_name}) as term:
        assert term.wait_exit(15) == 2
        assert "TERM is not set to a terminal that curses can drive" in term.text
        assert "Traceback" not in term.text


def test_a_window_too_small_says_so_and_q_still_quits(tmp_path: Path) -> None:
    with burgundy(tmp_path, *START, cols=30, rows=6) as term:
        term.wait_for("Terminal too small: 30x6.", 15)
        term.press("q")
        assert term.wait_exit() == 0
