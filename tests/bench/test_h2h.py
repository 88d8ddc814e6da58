"""``bench/h2h.py``: a variant of the search plays every seat of each deal against the
default search, a run resumes where the last stopped, a variant that is not one is a usage
error, and the summary's figures come from what is recorded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "bench" / "h2h.py"

h2h: Any = load("h2h")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True,
                          text=True)


def _records(results: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in results.read_text().splitlines()]


@pytest.mark.slow
def test_the_variant_plays_each_seat_of_a_deal_and_a_run_resumes(tmp_path: Path) -> None:
    results = tmp_path / "h2h.jsonl"
    args = ("--params", "opponents=1", "horizon=reply", "--players", "3", "--seed", "5",
            "--iterations", "2", "--results", str(results))
    out = _run(*args, "--games", "2").stdout.splitlines()
    assert "opponents=1.0 horizon=reply against the default search, 3 players, seed 5" in out[0]
    assert out[0].endswith("0 games recorded, 2 to play")
    first = _records(results)
    assert [(r["variant"], r["game"], r["deal"], r["seat"], len(r["scores"])) for r in first
            ] == [("opponents=1.0 horizon=reply", 0, 0, 0, 3),
                  ("opponents=1.0 horizon=reply", 1, 0, 1, 3)]

    out = _run(*args, "--games", "4", "--jobs", "2").stdout.splitlines()
    assert out[0].endswith("2 games recorded, 2 to play")
    records = _records(results)
    assert records[:2] == first
    assert sorted((r["game"], r["deal"], r["seat"]) for r in records) == [
        (0, 0, 0), (1, 0, 1), (2, 0, 2), (3, 1, 0)]
    assert out[-2].startswith("opponents=1.0 horizon=reply (3p, seed 5, 2 rollouts, bots ")
    assert ": 4 games, wins " in out[-2] and "by 2 deals" in out[-1]
    # --games 0 plays nothing and needs no variant: the summary only
    assert _run("--games", "0", "--results", str(results)).stdout.splitlines() == out[-2:]
    assert _records(results) == records


@pytest.mark.slow
def test_on_a_think_budget_the_games_are_a_group_of_their_own(tmp_path: Path) -> None:
    results = tmp_path / "h2h.jsonl"
    args = ("--params", "opponents=1", "--seed", "5", "--results", str(results))
    _run(*args, "--iterations", "2", "--games", "1")
    out = _run(*args, "--think", "0.01", "--games", "1").stdout.splitlines()
    assert "2 players, seed 5, think 0.01 CPU s a search: bots " in out[0]
    assert out[0].endswith("0 games recorded, 1 to play")  # the game of 2 rollouts is another
    records = _records(results)
    assert [(r["iterations"], r["think"], r["game"]) for r in records] == [
        (2, None, 0), (None, 0.01, 0)]
    assert [line.split(": ")[0].split(", bots")[0] for line in out if not line.startswith(" ")
            and "games, wins" in line] == ["opponents=1.0 (2p, seed 5, 2 rollouts",
                                           "opponents=1.0 (2p, seed 5, think 0.01 CPU s"]


@pytest.mark.parametrize(("args", "error"), [
    (("--params", "explore"), "'explore' is not NAME=VALUE with NAME one of explore, "
                              "widen_base, widen_rate, prune, unit_budget, future_budget, "
                              "opponents, horizon, value"),
    (("--params", "depth=3"), "'depth=3' is not NAME=VALUE"),
    (("--params", "widen_base=1.5"), "widen_base must be a int, not '1.5'"),
    (("--params", "horizon=far"), "horizon must be one of reply, turn"),
    (("--params", "weights=x"), "weights is not a number or a word: it cannot be given here"),
    ((), "--params: name the variant (NAME=VALUE ...)"),
    (("--params", "opponents=1", "--jobs", "0"), "--iterations and --jobs at least 1"),
    (("--params", "opponents=1", "--think", "0"), "--think must be above 0"),
    (("--params", "opponents=1", "--think", "1", "--iterations", "5"),
     "argument --iterations: not allowed with argument --think"),
])
def test_a_variant_that_is_not_one_is_a_usage_error(tmp_path: Path, args: tuple[str, ...],
                                                    error: str) -> None:
    results = tmp_path / "h2h.jsonl"
    done = _run(*args, "--results", str(results))
    assert done.returncode == 2
    assert error in done.stderr
    assert not results.exists()


def test_the_summary_pairs_the_seatings_of_each_deal() -> None:
    def record(deal: int, seat: int, scores: list[int], winner: int,
               bots: str = "abc1234") -> dict[str, object]:
        return {"variant": "opponents=1.0", "players": 2, "seed": 7, "iterations": 48,
                "think": None, "deal": deal, "seat": seat, "scores": scores, "winner": winner,
                "bots": bots, "build": "compiled"}

    records = [record(0, 0, [190, 180], 0), record(0, 1, [185, 185], 0),
               record(1, 0, [170, 176], 1), record(1, 1, [160, 180], 1),
               record(0, 0, [100, 200], 1, bots="def5678")]
    # margins +10, 0, -6, +20: mean 6, sd 11.43, so 6 -+ 1.96 * 11.43 / 2; by deal +5 and
    # +7: 6 -+ 1.96; the variant won 2 of 4 (the tie of deal 0 went to seat 0): Wilson
    assert h2h.summary(records) == [
        "opponents=1.0 (2p, seed 7, 48 rollouts, bots abc1234 compiled): 4 games, wins 0.500 "
        "(0.150-0.850)",
        "    margin +6.00 (-5.20 to +17.20), by 2 deals (+4.04 to +7.96); mean scores 181.2 "
        "against 175.2",
        "opponents=1.0 (2p, seed 7, 48 rollouts, bots def5678 compiled): 1 games, wins 0.000 "
        "(0.000-0.793)",
        "    margin -100.00 (+nan to +nan), by 1 deals (+nan to +nan); mean scores 100.0 "
        "against 200.0",
    ]
