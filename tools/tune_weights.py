"""Tune the position value's hand-set weights by self-play (coordinate search).

Each candidate :class:`~p2p_burgundy.cli.strategies.greedy.Weights` is judged by the mean
score of greedy bots using it in every seat, over ``--games`` fixed 2-player deals derived
from ``--seed`` (the same deals for every candidate, so differences are not luck of the
dice). Starting from the current weights, each field in turn is scaled by 0.6 and by 1.5 (a
zero field is set to 0.5); a change is kept when it raises the mean by more than
``--margin`` VP. At the end the result is checked on as many other deals. Deterministic: the
same command prints the same weights.

Run from the repository root::

    python tools/tune_weights.py --games 40 --seed 1 --sweeps 1 --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing
import statistics
import sys

from p2p_burgundy import GameConfig, outcome
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies.greedy import DEFAULT_WEIGHTS, GreedyStrategy, Weights


def play(task: tuple[Weights, int, int]) -> float:
    """Mean score of one 2-player game of greedy bots with ``weights``."""
    weights, seed, game = task
    bots = [GreedyStrategy(0, weights), GreedyStrategy(0, weights)]
    state, _ = play_game(GameConfig(players=2), bots, seed, game)
    return statistics.fmean(outcome(state).scores)


def score(pool: multiprocessing.pool.Pool, weights: Weights, seed: int, games: int) -> float:
    return statistics.fmean(pool.map(play, [(weights, seed, g) for g in range(games)]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sweeps", type=int, default=1)
    parser.add_argument("--margin", type=float, default=0.5)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    with multiprocessing.Pool(args.jobs) as pool:
        best = DEFAULT_WEIGHTS
        best_score = start = score(pool, best, args.seed, args.games)
        print(f"start: {best_score:.2f}", flush=True)
        for sweep in range(args.sweeps):
            for f in dataclasses.fields(Weights):
                value = getattr(best, f.name)
                for new in ((value * 0.6, value * 1.5) if value else (0.5,)):
                    candidate = dataclasses.replace(best, **{f.name: round(new, 3)})
                    s = score(pool, candidate, args.seed, args.games)
                    kept = s > best_score + args.margin
                    print(f"sweep {sweep + 1} {f.name} {value} -> {new:.3f}: {s:.2f}"
                          f"{' kept' if kept else ''}", flush=True)
                    if kept:
                        best, best_score = candidate, s
                        break
        other = args.seed + 1000
        check = (score(pool, DEFAULT_WEIGHTS, other, args.games),
                 score(pool, best, other, args.games))
    print(f"tuned: {best_score:.2f} (from {start:.2f}); on other deals: "
          f"{check[1]:.2f} (default weights {check[0]:.2f})")
    print(repr(best))
    return 0


if __name__ == "__main__":
    sys.exit(main())
