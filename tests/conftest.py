"""Suite-wide set-up.

Many tests start ``burgundy`` as a real process (bots, the terminal client in a
pseudo-terminal, bad command lines). Each start imports the whole package; where
``PYTHONDONTWRITEBYTECODE`` is set, nothing ever writes the compiled bytecode, so every one
of those processes compiled all of it from source again (about half a second of CPU each,
hundreds of times a run). Compiling it once here, before any test, lets them all load it.

The same setting stops pytest from keeping the test modules it rewrites (for its assertion
messages): each run, and each pytest-xdist worker, would rewrite all of them again, most of
the time collection takes. The suite keeps both in the ``__pycache__`` folders git ignores.

No test may touch the user's own data folder (identity key, logs, saved games): the suite
points ``P2P_BURGUNDY_HOME`` at a folder of its own for the run, which the processes tests
start (and pytest-xdist's workers) inherit.
"""

from __future__ import annotations

import compileall
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

import p2p_burgundy
import p2p_burgundy.cli
import p2p_burgundy.net


def pytest_configure(config: pytest.Config) -> None:
    sys.dont_write_bytecode = False  # before any test module is collected and rewritten
    if "P2P_BURGUNDY_HOME" not in os.environ:
        home = tempfile.mkdtemp(prefix="p2p-burgundy-home-")
        os.environ["P2P_BURGUNDY_HOME"] = home
        config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller compiled it
        return
    for package in (p2p_burgundy, p2p_burgundy.net, p2p_burgundy.cli):
        # compileall skips a module whose bytecode is up to date (it compares the source's
        # modification time), so only the first run after a change pays.
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)
