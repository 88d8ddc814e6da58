"""The commands the client prints run as printed: from the script a fresh clone's set-up
installs (``.venv/bin/burgundy``), whether or not that folder is on the ``PATH``, and
``burgundy`` alone when it is."""

from __future__ import annotations

import os
import re
import shlex
import sys
from pathlib import Path

import pytest

if sys.platform == "win32":
    pytest.skip("needs a POSIX pty", allow_module_level=True)
pytest.importorskip("pyte", reason="pyte is in the test extras: pip install -e '.[test]'")

from .pty_terminal import running

SCRIPT = Path(sys.executable).with_name("burgundy")
"""The script ``pip install -e .`` put beside the interpreter (the README's set-up)."""
START = ("play", "--local", "--seed", "3", "--name", "Tess", "--bot-delay", "0")


@pytest.mark.parametrize("on_path", [False, True], ids=["not on PATH", "on PATH"])
def test_the_resume_command_printed_on_leaving_runs_as_printed(
        tmp_path: Path, on_path: bool) -> None:
    if not SCRIPT.exists():
        pytest.skip("burgundy is not installed as a script beside this interpreter")
    folders = [f for f in os.environ.get("PATH", "").split(os.pathsep)
               if f and Path(f).resolve() != SCRIPT.parent.resolve()]
    path = os.pathsep.join([str(SCRIPT.parent)] * on_path + folders)
    env = {"PATH": path}
    with running([str(SCRIPT), *START], tmp_path, env=env) as term:
        term.wait_for("use die 1")
        term.press("1", "w")
        term.wait_for("(this turn) Tess took workers with a")
        term.press("q")
        assert term.wait_exit() == 0
        unwrapped = "".join(term.screen.display)
        found = re.search(r"(\S*burgundy) (play --local --resume \S+\.local)", unwrapped)
        assert found, term.text
    assert found.group(1) == ("burgundy" if on_path else str(SCRIPT.absolute()))
    # As a shell would run it: the first word looked up on the same PATH.
    argv = shlex.split(f"{found.group(1)} {found.group(2)}")
    if on_path:
        argv[0] = next(str(Path(f) / argv[0]) for f in path.split(os.pathsep)
                       if (Path(f) / argv[0]).is_file())
    with running(argv, tmp_path, env=env) as term:
        term.wait_for("(this turn) Tess took workers with a")
        term.press("q")
        assert term.wait_exit() == 0
