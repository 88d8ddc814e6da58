"""`burgundy sim` through `main([...])`: output shape, reproducibility and one-line errors with
exit code 2."""

from __future__ import annotations

import hashlib
import re

import pytest

from p2p_burgundy import Category
from p2p_burgundy.cli.main import COMMANDS, main
from p2p_burgundy.cli.sim import (
    CATEGORY_HEADERS,
    SimConfig,
    bot_seed,
    chance_entropy,
    run_sim,
    seatings,
    wilson_interval,
)

SIM_2P = ["sim", "--players", "2", "--games", "2", "--seed", "7", "--bots", "greedy,random"]


def _without_speed(text: str) -> str:
    """Everything but the wall-clock line (the only output that depends on the machine)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("speed:"))


def test_sim_prints_each_game_by_category_then_a_summary(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    assert main(SIM_2P) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    headers = [line for line in lines if line.startswith("game ")]
    assert headers == ["game 1/2, seed 7: 2 players, edition 2011",
                       "game 2/2, seed 7: 2 players, edition 2011"]
    table_heads = [line for line in lines if line.lstrip().startswith("seat ")]
    assert len(table_heads) == 2
    for category, head in CATEGORY_HEADERS.items():  # shields only with that module
        assert (head in table_heads[0].split()) == (category != Category.SHIELDS)
    rows = [line.split() for line in lines if re.match(r"\s+[01]\s+(greedy|random)\s", line)]
    assert len(rows) == 4
    for row in rows:
        *categories, total, _empty = (int(x) for x in row[2:])
        assert sum(categories) == total  # the breakdown always sums to the score
    winners = [line for line in lines if line.strip().startswith("winner: seat ")]
    assert len(winners) == 2
    assert all("decided by " in line for line in winners)
    assert any(line.startswith("summary: 2 games, 2 players") for line in lines)
    assert re.search(r"^\s+greedy\s+2\s+\d+\s", out, re.M)
    assert re.search(r"^\s+random\s+2\s+\d+\s", out, re.M)
    assert re.search(r"^speed: 2 games in [\d.]+ s \([\d.]+ games/s\)$", out, re.M)


def test_same_seed_gives_identical_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(SIM_2P) == 0
    first = capsys.readouterr().out
    assert main(SIM_2P) == 0
    second = capsys.readouterr().out
    assert _without_speed(first) == _without_speed(second)
    assert main([*SIM_2P[:-4], "--seed", "8", "--bots", "greedy,random"]) == 0
    assert _without_speed(capsys.readouterr().out) != _without_speed(first)


def test_quiet_prints_only_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "1", "--bots", "random,random", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("summary: 1 games, 2 players, edition 2011, seed 0")
    assert len(lines) == 5  # summary, column heads, random#1, random#2, speed


def test_default_bots_are_greedy_in_every_seat(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--players", "3", "--quiet", "--edition", "2019"]) == 0
    out = capsys.readouterr().out
    assert "edition 2019" in out
    assert "bots greedy,greedy,greedy" in out
    assert {"greedy#1", "greedy#2", "greedy#3"} <= set(out.split())


def test_rotate_plays_every_seating_of_the_same_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "1", "--bots", "greedy,random", "--rotate"]) == 0
    out = capsys.readouterr().out
    assert "game 1/1, seating 1/2" in out and "game 1/1, seating 2/2" in out
    assert re.search(r"^\s+greedy\s+2\s", out, re.M)  # one game in each seat
    assert seatings(SimConfig(players=2, bots=("greedy", "random"), rotate=True)) == [
        (0, 1), (1, 0)]


def test_run_sim_returns_totals_per_bot() -> None:
    summary = run_sim(SimConfig(players=2, games=2, seed=3, bots=("random", "random"),
                                quiet=True), _Sink())
    assert [e.label for e in summary.entrants] == ["random#1", "random#2"]
    assert [e.games for e in summary.entrants] == [2, 2]
    assert sum(e.wins for e in summary.entrants) == 2


@pytest.mark.parametrize(("argv", "message"), [
    (["sim", "--players", "5"], "argument --players: must be 1 (the solo game), 2, 3 or 4, "
                                "not 5"),
    (["sim", "--players", "0"], "argument --players: must be 1 (the solo game), 2, 3 or 4, "
                                "not 0"),
    (["sim", "--players", "two"], "argument --players: expected a whole number, not 'two'"),
    (["sim", "--games", "0"], "argument --games: must be at least 1, not 0"),
    (["sim", "--seed", "-3"], "argument --seed: must be 0 to 2**64-1, not -3"),
    (["sim", "--bots", "greedy,clever"],
     "argument --bots: unknown strategy 'clever'; known: greedy, mcts, mcts-2026, random"),
    (["sim", "--players", "3", "--bots", "greedy,random"],
     "argument --bots: 2 bots for 3 players (name one strategy per seat)"),
    (["sim", "--edition", "2015"], "argument --edition: must be one of 2011, 2019, not '2015'"),
    (["sim", "--frobnicate"], "unrecognized arguments: --frobnicate"),
    (["teleport"], "argument command: invalid choice: 'teleport'"),
    ([], "the following arguments are required: command"),
])
def test_bad_command_line_is_one_line_and_exit_code_2(
        argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1
    assert re.match(r"burgundy( sim)?: error: ", lines[0])
    assert message in lines[0]


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--help"]) == 0
    assert "--players" in capsys.readouterr().out


def test_commands_are_a_table() -> None:
    assert "sim" in COMMANDS


def test_entropy_and_bot_seeds_are_pinned() -> None:
    # `--seed` must replay the same games on every machine and Python version.
    assert chance_entropy(7, 0, 0) == hashlib.sha256(
        b"p2p-burgundy/sim/chance" + (7).to_bytes(8, "big") + bytes(8)).digest()
    assert chance_entropy(7, 0, 0).hex()[:16] == "bb757de0e36c215e"
    assert chance_entropy(7, 0, 0) != chance_entropy(7, 0, 1) != chance_entropy(7, 1, 0)
    assert bot_seed(7, 0, 0, 0) == int.from_bytes(
        hashlib.sha256(b"p2p-burgundy/sim/bot" + (7).to_bytes(8, "big") + bytes(6)).digest()[:8],
        "big")


def test_wilson_interval_brackets_the_rate() -> None:
    lo, hi = wilson_interval(190, 200)
    assert lo < 0.95 < hi
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0)


class _Sink:
    """A text stream that drops what it is given."""

    def write(self, text: str) -> int:
        return len(text)


def test_sim_plays_the_team_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--teams", "--games", "1", "--seed", "3", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "provisional: not the printed board" in lines.pop(0)
    assert lines[0] == "game 1/1, seed 3: 4 players, edition 2019, the team game"
    assert lines[1] == ("  team game on team-provisional: seats 0 and 2 (team A) against 1 and "
                        "3 (team B)")
    rows = {int(row[0]): int(row[-2]) for row in (line.split() for line in lines[3:7])}
    teams = [line.strip() for line in lines if line.startswith("  team ") and "seats" in line
             and "VP" in line]
    totals = {"A": rows[0] + rows[2], "B": rows[1] + rows[3]}
    assert len(teams) == 2 and "winner, decided by" in teams[0]
    for line in teams:  # "team A (seats 0 and 2): 445 VP..."
        assert int(line.split(": ")[1].split()[0]) == totals[line[5]]
    won = next(line[5] for line in teams if "winner" in line)
    summary = {line.split()[0]: int(line.split()[2]) for line in lines
               if line.startswith("  greedy#")}
    assert summary == {f"greedy#{seat + 1}": int("AB"[seat % 2] == won) for seat in range(4)}


@pytest.mark.parametrize(("args", "phrase"), [
    (["--teams", "--players", "3"], "the team game is for 4 players, not 3"),
    (["--teams", "--estate", "2"], "argument --teams: the team game is played on a team board"),
    (["--teams", "--with", "shields"], "the team game is played without shields"),
])
def test_a_team_game_that_cannot_be_played_is_one_line(
        args: list[str], phrase: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", *args]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and len(captured.err.splitlines()) == 1
    assert phrase in captured.err
