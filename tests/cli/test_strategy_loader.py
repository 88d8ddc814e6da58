"""Strategies of one's own, ``package.module:Name``: loaded from the Python path by ``bot``,
``sim`` and ``play --bots``, with one clear error for each way a spec can be wrong."""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import pytest

from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.sim import SimConfig, run_sim
from p2p_burgundy.cli.strategies import StrategyError, make

MODULE = """
    import random

    class First:
        name = "first"

        def __init__(self, seed):
            self.seed = seed

        def choose(self, state, actions):
            return actions[0]

    class Broken:
        def __init__(self, seed):
            raise RuntimeError("no licence key")

    class Nameless:
        def __init__(self, seed):
            pass

        def choose(self, state, actions):
            return actions[0]

    class Chooseless:
        name = "chooseless"

        def __init__(self, seed):
            pass

    class Illegal(First):
        name = "illegal"

        def choose(self, state, actions):
            return "pass"

    NOT_CALLABLE = 3
"""


@pytest.fixture
def botdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "mybots.py").write_text(textwrap.dedent(MODULE))
    (tmp_path / "failing.py").write_text("raise ImportError('needs numpy')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_spec_makes_the_strategy_with_the_seed(botdir: Path) -> None:
    bot = make("mybots:First", seed=42)
    assert (type(bot).__name__, bot.name, bot.seed) == ("First", "first", 42)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("spec", "message"), [
    ("mybots", "unknown strategy 'mybots'"),
    ("mybots:", "'mybots:' is not a strategy spec: expected package.module:Name"),
    ("my bots:First", "'my bots:First' is not a strategy spec"),
    ("nowhere:Bot", "cannot load strategy 'nowhere:Bot': no module named 'nowhere' on the "
                    "Python path"),
    ("failing:Bot", "cannot load strategy 'failing:Bot': importing failing raised "
                    "ImportError: needs numpy"),
    ("mybots:Second", "module mybots has no attribute 'Second'"),
    ("mybots:NOT_CALLABLE", "NOT_CALLABLE is a int, not a class or function"),
    ("mybots:Broken", "strategy 'mybots:Broken' failed to start: RuntimeError: no licence key"),
    ("mybots:Nameless", "made a Nameless, which has no name (a str)"),
    ("mybots:Chooseless", "made a Chooseless, which has no choose(state, actions) method"),
])
def test_each_bad_spec_has_its_own_error(botdir: Path, spec: str, message: str) -> None:
    with pytest.raises(StrategyError) as info:
        make(spec, seed=1)
    assert message in str(info.value)


def test_sim_plays_a_loaded_strategy(botdir: Path) -> None:
    out = io.StringIO()
    summary = run_sim(SimConfig(players=2, games=1, seed=3, bots=("mybots:First", "random"),
                                quiet=True), out)
    assert [e.label for e in summary.entrants] == ["mybots:First", "random"]
    assert summary.results == 1


def test_sim_names_a_strategy_that_chose_an_illegal_action(
        botdir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["sim", "--bots", "mybots:Illegal,greedy", "--seed", "1", "--jobs", "1"])
    assert code == 1
    assert "bot 'illegal' in seat 0 chose 'pass', which is not legal here" in \
        capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["sim", "--bots", "greedy,nowhere:Bot"],
    ["bot", "--strategy", "nowhere:Bot"],
    ["play", "--bots", "1", "--strategy", "nowhere:Bot"],
])
def test_every_command_refuses_a_spec_that_does_not_load(
        botdir: Path, argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "no module named 'nowhere'" in err


def test_play_and_bot_accept_a_spec(botdir: Path) -> None:
    assert cli.parse(["play", "--bots", "2", "--strategy", "mybots:First"]).strategy == \
        "mybots:First"
    assert cli.parse(["bot", "--strategy", "mybots:First"]).strategy == "mybots:First"
