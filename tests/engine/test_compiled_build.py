"""The compiled build (``tools/build_compiled.py``) plays exactly as the pure Python source,
and never runs once older than its source.

Each side plays the same seeded random games in its own process: one imports the compiled
extension modules, the other the source files only (``P2P_BURGUNDY_PURE=1``); the final state
hashes must agree game by game. A copy of the package whose source changed after the build
runs its source files and says why. The tests that need a compiled build are skipped where none
has been made.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from p2p_burgundy import build_record

ROOT = Path(__file__).resolve().parents[2]
GAMES = 1000

def _no_build() -> str | None:
    """Why the tests of the compiled build cannot run here (None: they can)."""
    if importlib.util.find_spec("p2p_burgundy.compiled__mypyc") is None:
        return "no compiled build (make it with tools/build_compiled.py)"
    stale = build_record.stale_build(ROOT / "p2p_burgundy")
    if stale is not None:  # the package leaves it aside
        return f"the compiled build is stale, {stale} (tools/build_compiled.py builds it again)"
    return None


needs_build = pytest.mark.skipif(_no_build() is not None, reason=str(_no_build()))

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


def printed(script: str, pure: bool, *args: str) -> dict[str, Any]:
    """What ``script`` prints as JSON, run in a process of one build from the repository."""
    run = subprocess.run([sys.executable, "-c", script, *args], cwd=ROOT, env=build_env(pure),
                         capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(run.stdout)
    return result


def play(pure: bool) -> dict[str, Any]:
    return printed(PLAY, pure, str(GAMES))


@pytest.mark.slow
@needs_build
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


@needs_build
def test_the_version_names_the_compiled_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # the tool imports its neighbour as a script
    from build_compiled import compiled_sources

    # the command line imports every module the build compiles
    names = sorted(path.removesuffix(".py").replace("/", ".").removeprefix("p2p_burgundy.")
                   for path in compiled_sources())
    assert {"rules", "cli.strategies.mcts"} <= set(names)
    line = " ".join(version(pure=False).split())  # argparse wraps it to the terminal's width
    assert line == f"burgundy 0.1.0 (compiled: {', '.join(names)})"


# Pickles every value that crosses to sim's and match's worker processes and back; prints the
# build's compiled modules and those that do not come back as they were.
PICKLE = """
import json
from p2p_burgundy import compiled_modules
from tests.cli.worker_values import not_round_tripped

print(json.dumps({"compiled": compiled_modules(), "failed": not_round_tripped()}))
"""


@needs_build
def test_every_value_that_crosses_to_a_worker_pickles_in_the_compiled_build() -> None:
    pickled = printed(PICKLE, pure=False)
    assert {"p2p_burgundy.config", "p2p_burgundy.state",
            "p2p_burgundy.cli.strategies.mcts"} <= set(pickled["compiled"])
    assert pickled["failed"] == []


# A team game on a team board of one's own, through its config tree (as a table's config
# travels): prints the build's compiled modules and whether the config came back the same.
ROUND_TRIP = """
import json
from p2p_burgundy import GameConfig, compiled_modules
from p2p_burgundy.config import Edition
from p2p_burgundy.estate import PROVISIONAL_TEAM_BOARD, parse_team_board, team_board

record = team_board(PROVISIONAL_TEAM_BOARD).record()
board = parse_team_board({**record, "id": "ours", "source": "box"})
config = GameConfig(4, Edition.E2019, estates=("ours",) * 4, custom=(board,),
                    teams=((0, 2), (1, 3)))
print(json.dumps({"compiled": compiled_modules(),
                  "same": GameConfig.from_tree(config.to_tree()) == config}))
"""


@needs_build
def test_a_team_board_of_ones_own_travels_in_the_compiled_builds_config() -> None:
    travelled = printed(ROUND_TRIP, pure=False)
    assert "p2p_burgundy.config" in travelled["compiled"]
    assert travelled["same"] is True


# --- a build older than its source ------------------------------------------------------------

# Imports the engine from the current folder; prints which build runs and why not the compiled.
IMPORT = """
import json, p2p_burgundy, p2p_burgundy.rules
print(json.dumps({"compiled": p2p_burgundy.compiled_modules(),
                  "stale": p2p_burgundy.stale_compiled_build()}))
"""


def copy_tree(into: Path, folders: tuple[str, ...]) -> None:
    """Copy this repository's ``folders`` (with any compiled build in them) into ``into``."""
    for folder in folders:
        shutil.copytree(ROOT / folder, into / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))


def import_copy(tree: Path) -> tuple[dict[str, object], str]:
    """Import the engine of the copy ``tree`` (the current folder comes first on the path; the
    client still comes from this repository's install): what it says, and its stderr."""
    run = subprocess.run([sys.executable, "-c", IMPORT], cwd=tree, env=build_env(pure=False),
                         capture_output=True, text=True, check=True)
    said: dict[str, object] = json.loads(run.stdout)
    return said, run.stderr


def copy_version(tree: Path) -> str:
    run = subprocess.run([sys.executable, "-m", "p2p_burgundy.cli.main", "--version"],
                         cwd=tree, env=build_env(pure=False), capture_output=True, text=True,
                         check=True)
    return " ".join(run.stdout.split())


def test_a_build_older_than_its_source_is_left_aside(tmp_path: Path) -> None:
    # A record as the build writes it, of two of the copy's sources; the shared library stands
    # in for a build (nothing imports it: no compiled module lies beside the copy's sources).
    copy_tree(tmp_path, ("p2p_burgundy",))
    package = tmp_path / "p2p_burgundy"
    for built in package.glob("*" + sysconfig.get_config_var("EXT_SUFFIX")):
        built.unlink()
    (package / build_record.RECORD).unlink(missing_ok=True)
    (package / ("compiled__mypyc" + sysconfig.get_config_var("EXT_SUFFIX"))).write_bytes(b"")
    build_record.write(package, [(f"p2p_burgundy/{name}", package / name)
                                 for name in ("rules.py", "state.py")])
    assert import_copy(tmp_path) == ({"compiled": [], "stale": None}, "")

    state = package / "state.py"
    os.utime(state, ns=(0, 0))  # the same bytes at another time: still the build's source
    assert import_copy(tmp_path) == ({"compiled": [], "stale": None}, "")

    state.write_text(state.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    why = "p2p_burgundy/state.py changed since it was built"
    said, stderr = import_copy(tmp_path)
    assert said == {"compiled": [], "stale": why}
    assert stderr == (f"p2p_burgundy: the compiled build is stale ({why}): running the pure "
                      f"Python source; rebuild it with: {sys.executable} "
                      f"{tmp_path / 'tools' / 'build_compiled.py'}\n")
    assert copy_version(tmp_path) == (
        f"burgundy 0.1.0 (pure Python; the compiled build is stale: {why})")

    (package / build_record.RECORD).unlink()
    said, stderr = import_copy(tmp_path)
    assert said["stale"] == "it has no readable record of its sources, compiled_sources.json"
    assert stderr.startswith("p2p_burgundy: the compiled build is stale (it has no readable")


def test_the_record_holds_every_module_the_compiled_ones_import(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch
                                                                  ) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "tools"))  # the tool imports its neighbour as a script
    from build_compiled import compiled_from

    files = {
        "a/__init__.py": "from .b import B\n",
        "a/b.py": "from typing import TYPE_CHECKING\nfrom . import c\nfrom .d import D\n"
                  "if TYPE_CHECKING:\n    import a.e\n",
        "a/c.py": "import os\n",
        "a/d.py": "",
        "a/e.py": "",
        "a/unused.py": "",
        "a/sub/__init__.py": "",
        "a/sub/g.py": "from .. import c\nfrom a.sub import h\n",
        "a/sub/h.py": "from ..sub.i import I\n",
        "a/sub/i.py": "",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert compiled_from(tmp_path, ["a/sub/g.py"]) == [
        "a/__init__.py", "a/b.py", "a/c.py", "a/d.py", "a/e.py", "a/sub/__init__.py",
        "a/sub/g.py", "a/sub/h.py", "a/sub/i.py"]


@needs_build
def test_the_compiled_build_runs_until_its_source_changes(tmp_path: Path) -> None:
    copy_tree(tmp_path, ("p2p_burgundy", "cli"))  # the record names the bots' sources too
    recorded = json.loads((tmp_path / "p2p_burgundy" / build_record.RECORD).read_text())
    assert {"p2p_burgundy/rules.py", "p2p_burgundy/state.py", "p2p_burgundy/__init__.py",
            "cli/strategies/mcts.py"} <= set(recorded["sources"])
    said, stderr = import_copy(tmp_path)
    assert "p2p_burgundy.rules" in said["compiled"] and said["stale"] is None
    assert stderr == ""

    rules = tmp_path / "p2p_burgundy" / "rules.py"
    rules.write_text(rules.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    said, stderr = import_copy(tmp_path)
    assert said == {"compiled": [], "stale": "p2p_burgundy/rules.py changed since it was built"}
    assert stderr.startswith("p2p_burgundy: the compiled build is stale (p2p_burgundy/rules.py")
