"""Engine protocol benchmark (not a test): what a decision costs when a program makes it.

Plays ``--games`` games of the tiny engine (``tests/cli/tiny_engine.py``: stdlib Python, it
parses every message) against the ``random`` bot, and times each of the engine's decisions:
encoding the visible state and the actions as JSON, the pipe both ways, the engine's own
parsing, and reading its answer. The engine's start-up (a Python interpreter) and hello are
timed apart. (An in-process strategy's call costs microseconds: the figures are the
protocol's cost.)

``--throughput BATCHES`` measures games per second instead: the same games played by a
version 1 engine (a new process for every game) and by a version 2 engine (one process for
all, ``new_game`` between games), in alternating batches of ``--games`` games, in one run.

Run from the repository root::

    python bench/engine_protocol.py --games 5
    python bench/engine_protocol.py --games 10 --throughput 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from bots import Timed  # this folder is the path when a benchmark runs as a script

from p2p_burgundy import GameConfig, outcome
from p2p_burgundy.cli.engine import EnginePool, EngineStrategy
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies import make

TINY = Path(__file__).resolve().parents[1] / "tests" / "cli" / "tiny_engine.py"


def games_per_second(games: int, protocol: int) -> float:
    """``games`` games of the tiny engine speaking ``protocol`` against random, each started
    afresh (version 1) or all in one process (version 2)."""
    command = f"{sys.executable} {TINY} --protocol {protocol}"
    pool = EnginePool()
    started = time.perf_counter()
    for game in range(games):
        engine = EngineStrategy(command, 0, pool=pool)
        state, _ = play_game(GameConfig(players=2), [engine, make("random", 2)], seed=game)
        engine.game_over(state, outcome(state))
        engine.close()
    pool.close()
    return games / (time.perf_counter() - started)


def throughput(games: int, batches: int) -> None:
    rates: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(batches):
        for protocol in (1, 2):
            rates[protocol].append(games_per_second(games, protocol))
    for protocol, measured in rates.items():
        print(f"protocol {protocol}: " + ", ".join(f"{r:.1f}" for r in measured)
              + f" games/s (median {statistics.median(measured):.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--throughput", type=int, default=0, metavar="BATCHES")
    args = parser.parse_args()
    if args.throughput:
        throughput(args.games, args.throughput)
        return
    first: list[float] = []
    rest: list[float] = []
    for game in range(args.games):
        strategy = EngineStrategy(f"{sys.executable} {TINY}", 0, timeout=10)
        engine = Timed(strategy)
        play_game(GameConfig(players=2), [engine, make("random", 2)], seed=game)
        strategy.close()
        first.append(engine.seconds[0])
        rest.extend(engine.seconds[1:])
    print(f"{args.games} games, {len(rest) + len(first)} engine decisions")
    print("first decision (start-up, hello, decision): "
          f"median {statistics.median(first) * 1e3:.1f} ms")
    print(f"every other decision: median {statistics.median(rest) * 1e3:.2f} ms, "
          f"95th percentile {statistics.quantiles(rest, n=20)[-1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
