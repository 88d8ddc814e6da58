"""Fit the learned position value (``cli/strategies/value_weights.json``) from self-play.

Plays ``--games`` games per player count (``--players``, default 2, 3 and 4) on deals derived
from ``--seed`` (as ``burgundy sim`` derives them), records the
:func:`~p2p_burgundy.cli.strategies.value.features` of the player whose turn it is just
before each of its ends of turn (where the ``mcts`` search judges its rollouts), and fits
the final scores by least squares (normal equations, a tiny ridge), in plain Python. The
players are greedy bots (with the tuned weights the ``mcts`` bot plays with), or, with
``--iterations N``, ``mcts`` bots of N rollouts a search judging with the shipped weights: the
new weights then predict what the search itself makes of a position, one step of policy
iteration. Games whose number is a multiple of 5 are held out: the script reports, on them,
the root mean square error as predictors of the final score of the fitted weights, of the
shipped ones and of the greedy bot's hand-set value (as it is, and with an offset and scale
fitted by time left).

With ``--write`` the fitted weights replace the shipped ones of their player counts. The file
lists the ``commands`` that reproduce it, run in that order from the greedy fit of every
player count (which owes nothing to the file before it); the same commands write the same
file.

Run from the repository root::

    python tools/fit_value.py --games 400 --seed 1 --jobs 2 --write
    python tools/fit_value.py --games 400 --seed 4 --iterations 48 --players 2 --jobs 2 --write
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections.abc import Sequence
from pathlib import Path

from p2p_burgundy import Action, EndTurn, GameConfig, GameState, outcome
from p2p_burgundy.cli.sim import bot_seed, play_game
from p2p_burgundy.cli.strategies.greedy import (
    DEFAULT_WEIGHTS,
    TUNED_WEIGHTS,
    Evaluator,
    GreedyStrategy,
)
from p2p_burgundy.cli.strategies.mcts import MctsStrategy
from p2p_burgundy.cli.strategies.value import FEATURES, POWERS, WEIGHTS_FILE, features

OUT = Path(__file__).resolve().parent.parent / "cli" / "strategies" / WEIGHTS_FILE
PLAYER_COUNTS = (2, 3, 4)
HELD_OUT_EVERY = 5
RIDGE = 1e-3

TODAY = Evaluator(DEFAULT_WEIGHTS)  # the hand-set value the learned one is compared with
Row = tuple[list[float], float, float]  # features, the hand-set value, the final score


class _Recorder:
    """A bot (greedy, or ``mcts`` of ``iterations`` rollouts a search) that notes its own
    features (and the hand-set value) before each of its ends of turn: only there, because
    that is the one point where a search judges a position (a player who has just played its
    dice and one still to play them in the same round are worth different amounts, and the
    value is never asked about the latter)."""

    def __init__(self, seed: int, iterations: int,
                 rows: list[tuple[int, list[float], float]]) -> None:
        self.bot: GreedyStrategy | MctsStrategy = (
            MctsStrategy(seed, iterations=iterations) if iterations
            else GreedyStrategy(seed, TUNED_WEIGHTS))
        self.name = self.bot.name
        self.rows = rows

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        action = self.bot.choose(state, actions)
        if type(action) is EndTurn:
            seat = state.order[state.turn]
            self.rows.append((seat, features(state, seat), TODAY.value(state, seat)))
        return action


def play(task: tuple[int, int, int, int]) -> list[Row]:
    """One self-play game (greedy, or ``mcts`` with a budget of rollouts): a row for every
    recorded position."""
    players, seed, game, iterations = task
    rows: list[tuple[int, list[float], float]] = []
    bots = [_Recorder(bot_seed(seed, game, 0, seat), iterations, rows)
            for seat in range(players)]
    state, _ = play_game(GameConfig(players=players), bots, seed * 10 + players, game)
    scores = outcome(state).scores
    return [(x, today, float(scores[seat])) for seat, x, today in rows]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``x`` with ``a x = b`` (Gaussian elimination with partial pivoting).

    >>> [round(v, 9) for v in solve([[2.0, 1.0], [1.0, 3.0]], [3.0, 5.0])]
    [0.8, 1.4]
    """
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(rows: list[tuple[list[float], float]]) -> list[float]:
    """Least-squares weights for ``rows`` (each feature scaled to unit size while solving)."""
    n = len(rows[0][0])
    scale = [max(1e-9, max(abs(x[i]) for x, _ in rows)) for i in range(n)]
    xtx = [[0.0] * n for _ in range(n)]
    xty = [0.0] * n
    for x, y in rows:
        z = [v / s for v, s in zip(x, scale, strict=True)]
        for i, zi in enumerate(z):
            if zi:
                xty[i] += zi * y
                row = xtx[i]
                for j in range(i, n):
                    row[j] += zi * z[j]
    for i in range(n):
        for j in range(i):
            xtx[i][j] = xtx[j][i]
        xtx[i][i] += RIDGE
    return [w / s for w, s in zip(solve(xtx, xty), scale, strict=True)]


def _rescaled(x: list[float], today: float) -> list[float]:
    """The inputs of the rescaled hand-set value: t ** k and ``today`` * t ** k."""
    return [*x[:POWERS], *(today * t for t in x[:POWERS])]


def _dot(w: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(w, x, strict=True))


def rmse(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per player count")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=0,
                        help="self-play of mcts of this many rollouts a search, judging with "
                             "the shipped weights (default: greedy self-play)")
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYER_COUNTS),
                        choices=PLAYER_COUNTS,
                        help="the player counts to fit (the others keep their weights)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = parser.parse_args(argv)
    if args.iterations < 0:
        parser.error(f"--iterations must be at least 0, not {args.iterations}")
    counts = sorted(set(args.players))
    every_count = counts == list(PLAYER_COUNTS)
    shipped = json.loads(OUT.read_text())
    weights: dict[str, list[float]] = dict(shipped["weights"])
    report = dict(shipped["held-out"])
    for players in counts:
        tasks = [(players, args.seed, g, args.iterations) for g in range(args.games)]
        with multiprocessing.Pool(args.jobs) as pool:
            games = pool.map(play, tasks, chunksize=4)
        train = [r for g, rows in enumerate(games) if g % HELD_OUT_EVERY for r in rows]
        test = [r for g, rows in enumerate(games) if not g % HELD_OUT_EVERY for r in rows]
        w = fit([(x, y) for x, _, y in train])
        learned = rmse([_dot(w, x) - y for x, _, y in test])
        before = rmse([_dot(weights[str(players)], x) - y for x, _, y in test])
        greedy = rmse([today - y for _, today, y in test])
        # The hand-set value at its best: plus an offset and a scale fitted by time left.
        base = fit([(_rescaled(x, today), y) for x, today, y in train])
        scaled = rmse([_dot(base, _rescaled(x, today)) - y for x, today, y in test])
        weights[str(players)] = w
        report[str(players)] = {"train positions": len(train), "held-out positions": len(test),
                                "learned rmse": round(learned, 2),
                                "greedy rmse": round(greedy, 2),
                                "greedy rescaled rmse": round(scaled, 2)}
        print(f"{players} players: {len(train)} positions to fit, {len(test)} held out; "
              f"RMS error of the final score: learned {learned:.2f} VP, the shipped weights "
              f"{before:.2f} VP, greedy value {greedy:.2f} VP ({scaled:.2f} VP rescaled by "
              f"time left)", flush=True)
    if args.write:
        command = (f"python tools/fit_value.py --games {args.games} --seed {args.seed}"
                   + (f" --iterations {args.iterations}" if args.iterations else "")
                   + ("" if every_count else " --players " + " ".join(map(str, counts))))
        # Greedy self-play of every player count owes nothing to the shipped file; any
        # other fit builds on it (its bots judge with it, or it keeps some of its weights).
        fresh = not args.iterations and every_count
        data = {"commands": [command] if fresh else [*shipped["commands"], command],
                "features": list(FEATURES), "powers": POWERS,
                "held-out": {n: report[n] for n in sorted(report)},
                "weights": {n: weights[n] for n in sorted(weights)}}
        OUT.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
