"""Engine benchmark (not a test): this tree's engine against a named git revision's.

Load from other processes on a shared machine moves absolute timings by a factor of two
between runs minutes apart, so the figures are ratios measured side by side in one run. The
revision ``--against`` (default ``HEAD``) is extracted with ``git archive`` into a temporary
folder; one worker process imports this tree's engine and another that revision's, each
from its own folder. The workers take turns on the same batches of work (ABBA order within
each round, so a drift in load hits both alike), timed by each worker's CPU time (which other
load disturbs much less than wall time), and each figure is the median over the rounds of the
revision's time divided by this tree's (above 1: this tree is faster), with its quartiles.
Per round, each worker measures:

- random games: ``--games`` whole 2-player games and half as many 4-player games, uniform
  random choices among the legal actions, entropy and choices from one ``random.Random``
  seeded by the round (the same games for both engines, as long as their rules agree);
- ``legal_actions`` and ``apply``: the mean over every 20th decision of 20 seeded random
  games of each size, replayed in a tight loop (the fastest of 5 passes);
- ``clone()``: the mean over a sample of phase C states of those games (likewise).

Run from the repository root::

    python bench/engine.py --against main      # figures in docs/performance.md
    python bench/engine.py --rounds 4          # quicker, noisier (against HEAD)
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MID_GAME_PHASE = 2  # phase C
MID_GAME_SAMPLE = 0.01  # share of phase C decision states kept for the clone figure
CLONES_PER_STATE = 200
SAMPLE_EVERY = 20  # every n-th decision is kept for the replayed figures
REPLAYS = 5  # passes over the sample per round (the fastest counts)
SAMPLE_GAMES = 20  # 2-player and 4-player games each, for the replayed figures
FIGURES = ("random 2p games", "random 4p games", "legal_actions", "apply", "clone()")


# --- the worker: runs inside a process that imported one revision's engine -------------------

class Worker:
    """Times batches of work with the engine ``engine`` (the ``p2p_burgundy`` module)."""

    def __init__(self, engine: Any) -> None:
        self.e = engine
        self.sample: list[tuple[Any, Any]] = []
        self.mid_game: list[Any] = []
        self._seen = 0
        rng = random.Random(0)
        for players in (2, 4):
            for _ in range(SAMPLE_GAMES):
                self.play(players, rng, self._keep)

    def _keep(self, state: Any, action: Any, rng: random.Random) -> None:
        self._seen += 1
        if self._seen % SAMPLE_EVERY == 0:
            self.sample.append((state, action))
        if state.phase == MID_GAME_PHASE and rng.random() < MID_GAME_SAMPLE:
            self.mid_game.append(state)

    def play(self, players: int, rng: random.Random,
             on_decision: Callable[[Any, Any, random.Random], None] | None = None) -> Any:
        """One whole game with uniformly random choices."""
        e = self.e
        apply, legal_actions, resolve_chance = e.apply, e.legal_actions, e.resolve_chance
        state = e.new_game(e.GameConfig(players=players))
        while True:
            if state.chance is not None:
                state = resolve_chance(state, rng.randbytes(32))
            elif state.is_over:
                return state
            else:
                actions = legal_actions(state)
                action = actions[rng.randrange(len(actions))]
                if on_decision is not None:
                    on_decision(state, action, rng)
                state = apply(state, action)

    def run(self, round_: int, games: int) -> dict[str, float]:
        """Seconds per unit of each figure for round ``round_``."""
        clock = time.process_time  # CPU time: disturbed less than wall time by other load
        out = {}
        for players, n in ((2, games), (4, max(1, games // 2))):
            rng = random.Random(round_)
            t0 = clock()
            for _ in range(n):
                self.play(players, rng)
            out[f"random {players}p games"] = (clock() - t0) / n
        legal_actions, apply = self.e.legal_actions, self.e.apply
        legal = applied = cloned = float("inf")
        for _ in range(REPLAYS):  # the fastest pass: the least disturbed by other load
            t0 = clock()
            for state, _ in self.sample:
                legal_actions(state)
            t1 = clock()
            for state, action in self.sample:
                apply(state, action)
            t2 = clock()
            for state in self.mid_game:
                for _ in range(CLONES_PER_STATE):
                    state.clone()
            t3 = clock()
            legal, applied = min(legal, t1 - t0), min(applied, t2 - t1)
            cloned = min(cloned, t3 - t2)
        out["legal_actions"] = legal / len(self.sample)
        out["apply"] = applied / len(self.sample)
        out["clone()"] = cloned / (len(self.mid_game) * CLONES_PER_STATE)
        return out


def serve(tree: str) -> None:
    """Worker loop: import the engine found in ``tree``, then answer ``round games`` lines."""
    sys.path.insert(0, tree)
    import p2p_burgundy

    where = Path(p2p_burgundy.__file__).resolve().parent.parent
    if where != Path(tree).resolve():
        raise SystemExit(f"imported the engine from {where}, not {tree}")
    worker = Worker(p2p_burgundy)
    print(f"ready {len(worker.sample)} {len(worker.mid_game)}", flush=True)
    for line in sys.stdin:
        round_, games = map(int, line.split())
        figures = worker.run(round_, games)
        print(" ".join(f"{figures[name]!r}" for name in FIGURES), flush=True)


# --- the parent: extracts the revision, alternates the workers, reports ratios ----------------

class _Process:
    def __init__(self, tree: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(tree)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, cwd=tree)
        self.ready = self._line()

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"benchmark worker exited with {self.proc.wait()}")
        return line

    def run(self, round_: int, games: int) -> dict[str, float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{round_} {games}\n")
        self.proc.stdin.flush()
        return dict(zip(FIGURES, map(float, self._line().split()), strict=True))

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def extract(rev: str, into: Path) -> str:
    """Extract the engine of git revision ``rev`` into ``into``; its commit id."""
    commit = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", commit, "p2p_burgundy"],
                             cwd=ROOT, check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as f:
        f.write(archive)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            tar.extractall(into, filter="data")
    return commit


def quartiles(values: list[float]) -> tuple[float, float, float]:
    """Lower quartile, median and upper quartile of ``values``.

    >>> quartiles([1.0, 2.0, 3.0, 4.0, 5.0])
    (1.5, 3.0, 4.5)
    """
    if len(values) == 1:
        return values[0], values[0], values[0]
    q1, q2, q3 = statistics.quantiles(values, n=4)
    return q1, q2, q3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", metavar="REV",
                        help="git revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of ABBA batches")
    parser.add_argument("--games", type=int, default=40,
                        help="2-player games per batch (4-player: half)")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve)
        return 0
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")

    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        commit = extract(args.against, Path(tmp))
        ours, theirs = _Process(ROOT), _Process(Path(tmp))
        print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus, "
              f"load average {os.getloadavg()[0]:.2f}; this tree against {args.against} "
              f"({commit}): {args.rounds} rounds of {args.games} 2p + "
              f"{max(1, args.games // 2)} 4p games each way; workers: {ours.ready.strip()} / "
              f"{theirs.ready.strip()} (sample calls, mid-game states)")
        mine: dict[str, list[float]] = {name: [] for name in FIGURES}
        base: dict[str, list[float]] = {name: [] for name in FIGURES}
        try:
            for r in range(args.rounds):
                order = (ours, theirs) if r % 2 == 0 else (theirs, ours)
                for worker in order:
                    figures = worker.run(r, args.games)
                    for name in FIGURES:
                        (mine if worker is ours else base)[name].append(figures[name])
        finally:
            ours.close()
            theirs.close()
    print(f"  {'figure':<16} {'this tree':>12} {commit:>12}   speed-up: median [quartiles]")
    for name in FIGURES:
        ratios = [b / m for m, b in zip(mine[name], base[name], strict=True)]
        low, mid, high = quartiles(ratios)
        unit, scale = ("ms", 1e3) if name.startswith("random") else ("us", 1e6)
        print(f"  {name:<16} {statistics.median(mine[name]) * scale:>9.2f} {unit} "
              f"{statistics.median(base[name]) * scale:>9.2f} {unit}   "
              f"{mid:.2f}x [{low:.2f}-{high:.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
