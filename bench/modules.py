"""Expansion modules benchmark (not a test): random games per second with every module on,
against the base game, and both against a named git revision of the engine.

Each batch plays ``--games`` whole games with a uniform random policy (choices and entropy
from one seeded ``random.Random``; the same games in every batch of a variant) in a fresh
process on one core, and reports games per second by that process's CPU time. Batches of
the three variants alternate, round after round, so that load on a shared machine falls on
all of them alike; the figure of a variant is its median batch (best in brackets):

- ``REV, base``: the base game on the engine at ``--against`` (exported with ``git archive``);
- ``this, base``: the base game on the engine in this checkout;
- ``REV, all modules`` and ``this, all modules``: the same player count with ``--with all``
  (2019 edition).

With ``--players 1`` the "base game" is the solo game without modules (2019 edition).

Run from the repository root::

    python bench/modules.py --against a3e2d7f           # the figures in docs/performance.md
    python bench/modules.py --against main --rounds 3   # quicker, noisier
    python bench/modules.py --against 877c99e --players 1 2 4
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in the child process, with PYTHONPATH set to the engine under test.
WORKER = """
import random, sys, time
import p2p_burgundy as e
players, games, seed, modules = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if modules:
    config = e.GameConfig(players, e.Edition.E2019, modules=tuple(e.Module))
else:  # the solo game is a 2019 game
    config = e.GameConfig(players, e.Edition.E2019 if players == 1 else e.Edition.E2011)
rng = random.Random(seed)
start = time.process_time()
for _ in range(games):
    state = e.new_game(config)
    while not state.is_over:
        if state.chance is not None:
            state = e.resolve_chance(state, rng.randbytes(32))
        else:
            actions = e.legal_actions(state)
            state = e.apply(state, actions[rng.randrange(len(actions))])
print(games / (time.process_time() - start))
"""


def export(revision: str, into: Path) -> Path:
    """The engine package at ``revision``, unpacked under ``into``."""
    data = subprocess.run(["git", "archive", revision, "p2p_burgundy"], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def batch(engine: Path, players: int, games: int, seed: int, modules: bool) -> float:
    """Games per second (CPU time) of one batch in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(engine)}
    out = subprocess.run([sys.executable, "-c", WORKER, str(players), str(games), str(seed),
                          "all" if modules else ""], env=env, check=True, capture_output=True,
                         text=True, cwd=engine).stdout
    return float(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, metavar="REV",
                        help="git revision whose engine plays the base game for comparison")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--games", type=int, default=40, help="games per batch")
    parser.add_argument("--rounds", type=int, default=5, help="batches of each variant")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        old = export(args.against, Path(tmp))
        variants = ((f"{args.against}, base", old, False), ("this, base", ROOT, False),
                    (f"{args.against}, all modules", old, True),
                    ("this, all modules", ROOT, True))
        print(f"Python {sys.version.split()[0]}, {args.games} games a batch, "
              f"{args.rounds} rounds, seed {args.seed}; games/s by CPU time, median [best]")
        for players in args.players:
            rates: dict[str, list[float]] = {name: [] for name, _, _ in variants}
            for _ in range(args.rounds):
                for name, engine, modules in variants:
                    rates[name].append(batch(engine, players, args.games, args.seed, modules))
            base = statistics.median(rates[variants[1][0]])
            for name, _, _ in variants:
                median = statistics.median(rates[name])
                print(f"{players}p  {name:<24} {median:7.1f} [{max(rates[name]):6.1f}]"
                      f"  x{median / base:.3f} of this base")
            for kind, (old_name, this_name) in (("base", (variants[0][0], variants[1][0])),
                                                ("all modules", (variants[2][0], variants[3][0]))):
                ratios = [t / o for t, o in zip(rates[this_name], rates[old_name], strict=True)]
                print(f"{players}p  this against {args.against}, {kind}: "
                      f"x{statistics.median(ratios):.3f} [{min(ratios):.3f}-{max(ratios):.3f}]"
                      " (median of the rounds' ratios [range])")
    return 0


if __name__ == "__main__":
    sys.exit(main())
