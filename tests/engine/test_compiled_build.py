"""The compiled build (``tools/build_compiled.py``) plays exactly as the pure Python source.

Each side plays the same seeded random games in its own process: one imports the compiled
extension modules, the other the source files only (``P2P_BURGUNDY_PURE=1``); the final state
hashes must agree game by game. Skipped where no compiled build has been made.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = 1000

# Plays the games of ``tests/engine/helpers.py``'s random_game over every player count
# (1: the solo game; "team": the team game, with the modules it plays) and module set, with
# each policy and the border-post duchies; prints the build's compiled modules, then the
# hashes.
PLAY = """
import itertools, json, sys
from p2p_burgundy import Module, compiled_modules, state_hash
from p2p_burgundy.config import Edition
from tests.engine.helpers import POLICIES, random_game, solo_builder

games = int(sys.argv[1])
module_sets = [(), *((module,) for module in Module), tuple(Module)]
duchies = [f"11{x}" for x in "abcdef"]
kinds = list(itertools.product((1, 2, 3, 4, "team"), range(len(module_sets)), (False, True)))
hashes = []
for i in range(games):
    players, modules, border = kinds[i % len(kinds)]
    policy = solo_builder if players == 1 and i % 2 else POLICIES[i % len(POLICIES)]
    if players == "team":  # on the team board: no duchies, no trade routes, no shields
        played = tuple(m for m in module_sets[modules]
                       if m not in (Module.TRADE_ROUTES, Module.SHIELDS))
        state, _ = random_game(4, 70_000 + i, policy=policy, edition=Edition.E2019,
                               modules=played, teams=((0, 2), (1, 3)))
    else:
        estates = tuple(duchies[(i + seat) % 6] if border else "1" for seat in range(players))
        state, _ = random_game(players, 70_000 + i, policy=policy, edition=Edition.E2019,
                               modules=module_sets[modules], estates=estates)
    hashes.append(state_hash(state).hex())
print(json.dumps({"compiled": compiled_modules(), "hashes": hashes}))
"""


def build_env(pure: bool) -> dict[str, str]:
    """This environment, running the pure Python build or (where built) the compiled one."""
    env = {key: value for key, value in os.environ.items() if key != "P2P_BURGUNDY_PURE"}
    if pure:
        env["P2P_BURGUNDY_PURE"] = "1"
    return env


def play(pure: bool) -> dict[str, list[str]]:
    run = subprocess.run([sys.executable, "-c", PLAY, str(GAMES)], cwd=ROOT,
                         env=build_env(pure), capture_output=True, text=True, check=True)
    result: dict[str, list[str]] = json.loads(run.stdout)
    return result


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("p2p_burgundy.compiled__mypyc") is None,
                    reason="no compiled build (make it with tools/build_compiled.py)")
def test_compiled_and_pure_builds_end_every_game_in_the_same_state() -> None:
    compiled = play(pure=False)
    pure = play(pure=True)
    assert "p2p_burgundy.rules" in compiled["compiled"]
    assert "p2p_burgundy.cli.strategies.greedy" not in compiled["compiled"]  # not imported
    assert pure["compiled"] == []
    assert len(compiled["hashes"]) == GAMES
    assert compiled["hashes"] == pure["hashes"]


def version(pure: bool) -> str:
    run = subprocess.run([sys.executable, "-m", "p2p_burgundy.cli.main", "--version"],
                         cwd=ROOT, env=build_env(pure), capture_output=True, text=True,
                         check=True)
    return run.stdout


def test_the_version_says_the_pure_build_runs() -> None:
    assert version(pure=True) == "burgundy 0.1.0 (pure Python)\n"  # short: not wrapped


@pytest.mark.skipif(importlib.util.find_spec("p2p_burgundy.compiled__mypyc") is None,
                    reason="no compiled build (make it with tools/build_compiled.py)")
def test_the_version_names_the_compiled_modules() -> None:
    line = " ".join(version(pure=False).split())  # argparse wraps it to the terminal's width
    assert line == ("burgundy 0.1.0 (compiled: actions, board, chance, cli.strategies.greedy, "
                    "cli.strategies.mcts, cli.strategies.value, config, errors, estate, inns, "
                    "record, rivers, rules, scoring, shields, state, tiles, trade, turn)")
