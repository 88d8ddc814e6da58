"""Suite-wide set-up.

Many tests start ``burgundy`` as a real process (bots, the terminal client in a
pseudo-terminal, bad command lines). Each start imports the whole package; where
``PYTHONDONTWRITEBYTECODE`` is set, nothing ever writes the compiled bytecode, so every one
of those processes compiled all of it from source again (about half a second of CPU each,
hundreds of times a run). Compiling it once here, before any test, lets them all load it.

The same setting stops pytest from keeping the test modules it rewrites (for its assertion
messages): each run, and each pytest-xdist worker, would rewrite all of them again, most of
the time collection takes. The suite keeps both in the ``__pycache__`` folders git ignores.

Side by side (pytest-xdist), the modules holding slow tests (``@pytest.mark.slow``: whole
games, live peers and processes, each seconds to a minute) run first, the quick ones after:
the workers' last tests are then short ones, and no worker is left alone on a long game at
the end while the others have nothing to do. A module's tests stay together, in their own
order, so that its module fixtures are set up once per worker. pytest-xdist would hand
each worker a quarter of its share at the start (hundreds of tests, kept to the end): the
slow modules, now first, would all go to one worker. Unless ``--maxschedchunk`` says
otherwise, it hands them out one at a time instead, as each worker finishes one (a message
of milliseconds).

No test may touch the user's own data folder (identity key, logs, saved games): the suite
points ``P2P_BURGUNDY_HOME`` at a folder of its own for the run, which the processes tests
start (and pytest-xdist's workers) inherit.

A shell without job control starts a background job (``pytest ... &``) with SIGINT ignored,
and every process the suite starts would inherit that: a bot or client stopped by SIGINT
(Ctrl-C) in a test would then never hear it. The suite takes SIGINT back (as in a shell's
foreground), which its processes inherit as the default.
"""

from __future__ import annotations

import compileall
import os
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import pytest

import p2p_burgundy
import p2p_burgundy.cli
import p2p_burgundy.net


def pytest_configure(config: pytest.Config) -> None:
    sys.dont_write_bytecode = False  # before any test module is collected and rewritten
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if "P2P_BURGUNDY_HOME" not in os.environ:
        home = tempfile.mkdtemp(prefix="p2p-burgundy-home-")
        os.environ["P2P_BURGUNDY_HOME"] = home
        config.add_cleanup(lambda: shutil.rmtree(home, ignore_errors=True))
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller compiled it
        return
    if config.getoption("maxschedchunk", None) is None:  # pytest-xdist's controller
        config.option.maxschedchunk = 1
    for package in (p2p_burgundy, p2p_burgundy.net, p2p_burgundy.cli):
        # compileall skips a module whose bytecode is up to date (it compares the source's
        # modification time), so only the first run after a change pays.
        compileall.compile_dir(Path(package.__file__).parent, quiet=1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not hasattr(config, "workerinput"):  # in order, one process: as collected
        return
    slow = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow)  # stable: each group as collected
