"""Engine protocol benchmark (not a test): what a decision costs when a program makes it.

Plays ``--games`` games of the tiny engine (``tests/cli/tiny_engine.py``: stdlib Python, it
parses every message) against the ``random`` bot, and times each of the engine's decisions:
encoding the visible state and the actions as JSON, the pipe both ways, the engine's own
parsing, and reading its answer. The engine's start-up (a Python interpreter) and hello are
timed apart. (An in-process strategy's call costs microseconds: the figures are the
protocol's cost.)

Run from the repository root::

    python bench/engine_protocol.py --games 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from bots import Timed  # this folder is the path when a benchmark runs as a script

from p2p_burgundy import GameConfig
from p2p_burgundy.cli.engine import EngineStrategy
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies import make

TINY = Path(__file__).resolve().parents[1] / "tests" / "cli" / "tiny_engine.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    first: list[float] = []
    rest: list[float] = []
    for game in range(args.games):
        engine = Timed(EngineStrategy(f"{sys.executable} {TINY}", 0, timeout=10))
        play_game(GameConfig(players=2), [engine, make("random", 2)], seed=game)
        engine.bot.close()
        first.append(engine.seconds[0])
        rest.extend(engine.seconds[1:])
    print(f"{args.games} games, {len(rest) + len(first)} engine decisions")
    print("first decision (start-up, hello, decision): "
          f"median {statistics.median(first) * 1e3:.1f} ms")
    print(f"every other decision: median {statistics.median(rest) * 1e3:.2f} ms, "
          f"95th percentile {statistics.quantiles(rest, n=20)[-1] * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
