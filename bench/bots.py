"""Bot benchmark (not a test): the time each bot takes per decision in whole games.

Plays ``--games`` games of ``burgundy sim`` (same seeds, bot seeds and budgets, one process)
and times every ``choose`` call. A search bot follows the line it chose without searching
again, so besides the mean over all decisions it reports the decisions that searched (those
that took over a millisecond) separately: their count, mean, 95th percentile and maximum.

Run from the repository root::

    python bench/bots.py --bots mcts,greedy --iterations 48 --games 2
    python bench/bots.py --bots mcts,greedy --think 1 --games 1
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence

from p2p_burgundy import Action, GameState, outcome
from p2p_burgundy.cli.sim import SimConfig, bot_seed, play_game, seatings
from p2p_burgundy.cli.strategies import Strategy, make

SEARCHED_S = 0.001  # a decision slower than this searched (faster ones followed a plan)


class Timed:
    """A bot whose ``choose`` calls are timed (and, for a search bot, the rollouts of each
    decision that searched)."""

    def __init__(self, bot: Strategy) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds: list[float] = []
        self.rollouts: list[int] = []

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        started = time.perf_counter()
        action = self.bot.choose(state, actions)
        seconds = time.perf_counter() - started
        self.seconds.append(seconds)
        if seconds > SEARCHED_S and hasattr(self.bot, "last_rollouts"):
            self.rollouts.append(self.bot.last_rollouts)
        return action


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="mcts,greedy", help="one strategy per seat")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--rotate", action="store_true")
    args = parser.parse_args(argv)
    names = tuple(args.bots.split(","))
    config = SimConfig(players=len(names), games=args.games, seed=args.seed, bots=names,
                       rotate=args.rotate, think=args.think, iterations=args.iterations)
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average "
          f"{os.getloadavg()[0]:.2f}; bots {args.bots}, {args.games} games, seed {args.seed}, "
          f"think {args.think}, iterations {args.iterations}")
    times: dict[str, list[float]] = {label: [] for label in config.labels}
    rollouts: dict[str, list[int]] = {label: [] for label in config.labels}
    for game in range(config.games):
        for rotation, entrants in enumerate(seatings(config)):
            bots = [Timed(make(names[e], bot_seed(config.seed, game, rotation, seat),
                               think=config.think, iterations=config.iterations))
                    for seat, e in enumerate(entrants)]
            state, _ = play_game(config.game_config, bots, config.seed, game)
            scores = outcome(state).scores
            print(f"game {game + 1} seating {rotation + 1}: " + ", ".join(
                f"{config.labels[e]} {scores[seat]}" for seat, e in enumerate(entrants)))
            for seat, e in enumerate(entrants):
                times[config.labels[e]] += bots[seat].seconds
                rollouts[config.labels[e]] += bots[seat].rollouts
    for label, seconds in times.items():
        searched = sorted(s for s in seconds if s > SEARCHED_S)
        line = (f"  {label:<10} {len(seconds):>5} decisions, mean {statistics.fmean(seconds):.3f} s"
                f"; {len(searched):>5} searched")
        if searched:
            p95 = searched[min(len(searched) - 1, int(0.95 * len(searched)))]
            line += (f": mean {statistics.fmean(searched):.3f} s, p95 {p95:.3f} s, "
                     f"max {searched[-1]:.3f} s")
        if rollouts[label]:
            line += f"; rollouts per search: median {statistics.median(rollouts[label]):g}"
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
