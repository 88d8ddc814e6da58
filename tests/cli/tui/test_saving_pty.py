"""A local game whose saves fail (a full disk, a data folder that cannot be written) says so
on the status line from the first failed save for as long as it lasts, and the next save
that works holds every step played meanwhile."""

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

START = ("play", "--local", "--seed", "3", "--name", "Tess", "--bot-delay", "0")


def test_a_failed_save_stays_on_the_status_line_until_a_save_works(tmp_path: Path) -> None:
    blocker = tmp_path / "local"
    blocker.write_text("a file where the games folder goes: no save can work\n")
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        assert term.screen.display[0].startswith(" NOT SAVED "), term.text
        term.press("1", "w")  # a choice: saving is tried again, and fails again
        term.wait_for("(this turn) Tess took workers with a")
        assert term.screen.display[0].startswith(" NOT SAVED "), term.text
        blocker.unlink()
        term.press("2", "w")  # the next save works: the half-played turn is on disk
        assert term.wait_until(lambda: "NOT SAVED" not in term.screen.display[0]), term.text
        assert "Both dice used" in term.text
        term.press("q")
        assert term.wait_exit() == 0
        unwrapped = "".join(term.screen.display)
        found = re.search(PRINTED_PROGRAM + r" play --local --resume \S+\.local", unwrapped)
        assert found, term.text
    with running([*shlex.split(found.group(0)), "--bot-delay", "0"], tmp_path) as term:
        term.wait_for("(this turn) Tess took workers with a")  # both dice used, not ended
        assert "Use both dice" not in term.text
        term.press("q")
        assert term.wait_exit() == 0


def test_a_game_never_saved_says_so_when_the_client_closes(tmp_path: Path) -> None:
    (tmp_path / "local").write_text("in the way\n")
    with burgundy(tmp_path, *START) as term:
        term.wait_for("use die 1")
        term.press("q")
        assert term.wait_exit() == 1
        assert "the game could not be saved in" in term.text
        assert "it cannot be resumed" in "".join(term.screen.display)
