"""``bench/strength.py``'s bookkeeping, with budgets so small that a game takes a second: a
game is recorded once per bots' revision, build, think time and seed, a run resumes where the last
stopped, and the summary's figures come from what is recorded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .scripts import load

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "bench" / "strength.py"

strength: Any = load("strength")

pytestmark = pytest.mark.slow


def _run(results: Path, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, str(SCRIPT), "--think", "0.001", "--results",
                           str(results), *args], cwd=ROOT, check=True, capture_output=True,
                          text=True)
    return done.stdout.splitlines()


def _records(results: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in results.read_text().splitlines()]


def test_a_run_resumes_and_skips_the_games_recorded(tmp_path: Path) -> None:
    results = tmp_path / "results" / "strength.jsonl"
    out = _run(results, "--condition", "2p", "--games", "1")
    assert out[0].startswith("2p: bots ") and "0 games recorded, 1 to play" in out[0]
    first = _records(results)
    assert [(r["condition"], r["game"], r["ours"], len(r["scores"])) for r in first] == [
        ("2p", 0, [0, 1], 2)]
    assert first[0]["bots"] == strength.bots_revision()

    out = _run(results, "--condition", "2p", "--games", "2")
    assert "1 games recorded, 1 to play" in out[0]
    assert _records(results)[:1] == first
    assert [r["game"] for r in _records(results)] == [0, 1]

    # A record of other bots, or of another seed, does not count for these: their game 2 is
    # played all the same.
    with results.open("a") as f:
        f.write(json.dumps({**first[0], "game": 2, "bots": "0000000"}) + "\n")
        f.write(json.dumps({**first[0], "game": 2, "seed": 1}) + "\n")
    assert "2 games recorded, 1 to play" in _run(results, "--condition", "2p", "--games", "3")[0]
    seed = strength.SEED
    assert [(r["game"], r["bots"] == first[0]["bots"], r["seed"]) for r in _records(results)
            ] == [(0, True, seed), (1, True, seed), (2, False, seed), (2, True, 1),
                  (2, True, seed)]


def test_a_part_plays_only_its_games_and_a_bad_part_is_a_usage_error(tmp_path: Path) -> None:
    results = tmp_path / "strength.jsonl"
    out = _run(results, "--condition", "2p", "--games", "3", "--part", "1/2")
    assert "0 games recorded, 1 to play" in out[0]
    assert [r["game"] for r in _records(results)] == [1]
    for bad in ("2/2", "1", "a/2", "1/0"):
        done = subprocess.run([sys.executable, str(SCRIPT), "--part", bad], cwd=ROOT,
                              capture_output=True, text=True)
        assert done.returncode == 2
        assert f"--part must be K/N with 0 <= K < N, not {bad!r}" in done.stderr


def test_the_other_revision_plays_the_other_seat_of_each_deal(tmp_path: Path) -> None:
    results = tmp_path / "strength.jsonl"
    _run(results, "--condition", "vs", "--against", "HEAD", "--games", "2")
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    records = _records(results)
    assert [(r["condition"], r["game"], r["deal"], r["ours"]) for r in records] == [
        (f"vs-{head}", 0, 0, [0]), (f"vs-{head}", 1, 0, [1])]
    # the worker followed both games (it checks the state hash before each decision) and
    # both sides searched
    assert all(len(r["scores"]) == 2 and min(r["rollouts"]) >= 1 for r in records)


def test_the_summary_has_each_groups_mean_and_interval() -> None:
    def record(condition: str, scores: list[int], bots: str = "abc1234", winner: int = 0,
               ours: tuple[int, ...] = (0, 1), seed: int = 29000) -> dict[str, object]:
        return {"condition": condition, "scores": scores, "bots": bots, "build": "compiled",
                "think": 1.0, "winner": winner, "ours": list(ours), "seed": seed}

    records = [record("2p", [190, 200]), record("2p", [200, 210]), record("2p", [180, 190]),
               record("2p", [100, 100], bots="def5678"), record("2p", [150, 150], seed=7),
               *(record("vs-11277eb", [150, 140], winner=w, ours=(o,))
                 for w, o in ((0, 0), (0, 1), (1, 1), (1, 1)))]
    # games' means 195, 205, 185: sd 10, so 195 -+ 1.96 * 10 / sqrt(3); wins 3 of 4: Wilson
    # (a game of another seed is another group)
    assert strength.summary(records) == [
        "2p          bots abc1234 compiled think 1 seed 7:   1 games, mean score per seat "
        "150.000 (nan-nan), target 195",
        "2p          bots abc1234 compiled think 1 seed 29000:   3 games, mean score per seat "
        "195.000 (183.684-206.316), target 195",
        "2p          bots def5678 compiled think 1 seed 29000:   1 games, mean score per seat "
        "100.000 (nan-nan), target 195",
        "vs-11277eb  bots abc1234 compiled think 1 seed 29000:   4 games, wins 0.750 "
        "(0.301-0.954), target 0.65",
    ]
