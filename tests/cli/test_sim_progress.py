"""``sim`` shows its progress on stderr when that is a terminal, and nothing otherwise."""

from __future__ import annotations

import io

import pytest

from p2p_burgundy.cli import main as cli
from p2p_burgundy.cli.sim import Progress, SimConfig, run_sim


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_terminal_sees_games_done_rate_and_time_left() -> None:
    terminal = Terminal()
    meter = Progress(terminal, 4, hz=1e9)  # redraw on every game
    for _ in range(3):
        meter.advance()
    meter.close()
    lines = terminal.getvalue().split("\r")
    assert [line.split(" games")[0] for line in lines[1:4]] == \
        ["sim: 1/4", "sim: 2/4", "sim: 3/4"]
    assert "games/s, " in lines[3] and lines[3].endswith(" left\x1b[K")
    assert lines[-1] == "\x1b[K"  # the line is erased at the end


def test_a_run_draws_progress_on_a_terminal() -> None:
    terminal, out = Terminal(), io.StringIO()
    run_sim(SimConfig(players=2, games=2, seed=1, bots=("random", "random"), quiet=True), out,
            progress=terminal)
    assert terminal.getvalue().endswith("\r\x1b[K")
    assert "sim:" not in out.getvalue()


def test_nothing_goes_to_stderr_that_is_not_a_terminal(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["sim", "--games", "2", "--seed", "1", "--bots", "random,random",
                     "--jobs", "1", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err == "" and captured.out.startswith("summary: 2 games")
