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

With ``--alternatives N`` the fit answers another question: which of a turn's die actions is
best, the one the ``mcts`` search asks of the value. ``mcts`` self-play of N rollouts a search;
at every third start of a player's turn, each of the search's die actions
(:meth:`~p2p_burgundy.cli.strategies.mcts.MctsStrategy.die_actions`) is taken and the turn
finished by the greedy bot, and each position so reached labelled by the mean final score of
four greedy playouts to the end (the n-th playout on the same dice for every alternative).
The weights and the tile tables are then refitted, by ridge regression towards the weights
before, to the labels' differences from their decision's mean (a decision's own luck and
everything its alternatives share cancel out). Held out, it reports how much of the part of
the alternatives' spread a label owes to its position, not to its playouts' dice (estimated
from how the mean of two playouts predicts the mean of the other two), the values before and
after explain, and what choosing the alternative each rates best gains over the mean.

With ``--write`` the fitted weights replace the shipped ones of their player counts. The file
lists the ``commands`` that reproduce it, run in that order from the greedy fit of every
player count (which owes nothing to the file before it); the same commands write the same
file.

Run from the repository root::

    python tools/fit_value.py --games 400 --seed 1 --jobs 2 --write
    python tools/fit_value.py --games 400 --seed 4 --iterations 48 --players 2 --jobs 2 --write
    python tools/fit_value.py --games 100 --seed 111 --alternatives 24 --players 2 --jobs 2 --write
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from statistics import correlation, fmean

from p2p_burgundy import Action, EndTurn, GameConfig, GameState, apply, legal_actions, outcome
from p2p_burgundy.board import PHASES
from p2p_burgundy.cli.sim import bot_seed, play_game
from p2p_burgundy.cli.strategies.greedy import (
    DEFAULT_WEIGHTS,
    TUNED_WEIGHTS,
    Evaluator,
    GreedyStrategy,
)
from p2p_burgundy.cli.strategies.mcts import MctsStrategy
from p2p_burgundy.cli.strategies.value import (
    FEATURES,
    POWERS,
    TABLE_SIZE,
    WEIGHTS_FILE,
    features,
    tile_inputs,
)

OUT = Path(__file__).resolve().parent.parent / "cli" / "strategies" / WEIGHTS_FILE
PLAYER_COUNTS = (2, 3, 4)
HELD_OUT_EVERY = 5
RIDGE = 1e-3

SAMPLE_EVERY = 3  # --alternatives: a decision at every third start of a player's turn
PLAYOUTS = 4  # greedy playouts to the end labelling an alternative (two halves: their noise)
DECISIONS_A_GAME = 1000  # a decision's number: its game's times this, plus its place in it
RIDGE_ALTERNATIVES = 1000.0  # the pull towards the weights before (inputs scaled to unit RMS)

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


class _Sampler:
    """An ``mcts`` bot that notes, at every :data:`SAMPLE_EVERY`-th start of its turn with a
    choice (no die used yet), the position."""

    def __init__(self, bot: MctsStrategy, roots: list[tuple[GameState, int]]) -> None:
        self.bot = bot
        self.name = bot.name
        self.roots = roots
        self.starts = 0

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        seat = state.order[state.turn]
        if len(actions) > 1 and state.players[seat].dice_used == 0 and state.phase < PHASES:
            self.starts += 1
            if self.starts % SAMPLE_EVERY == 0:
                self.roots.append((state, seat))
        return self.bot.choose(state, actions)


def _before_end_of_turn(state: GameState, seat: int, greedy: GreedyStrategy
                        ) -> GameState | None:
    """``state`` with the rest of ``seat``'s turn played by ``greedy``, just before its end of
    turn (where the search judges a position); None if the turn ends otherwise."""
    while state.chance is None and state.phase < PHASES and state.order[state.turn] == seat:
        actions = legal_actions(state)
        action = actions[0] if len(actions) == 1 else greedy.choose(state, actions)
        if type(action) is EndTurn:
            return state
        state = apply(state, action)
    return None


Alternative = tuple[int, list[float], dict[int, float], list[float]]
"""A decision's number, an alternative's features and tile inputs, its playouts' scores."""


def alternatives(task: tuple[int, int, int, int]) -> list[Alternative]:
    """One ``mcts`` self-play game; for each sampled decision with two alternatives or more,
    a row for each alternative (see the module docstring)."""
    players, seed, game, iterations = task
    config = GameConfig(players=players)
    roots: list[tuple[GameState, int]] = []
    bots = [_Sampler(MctsStrategy(bot_seed(seed, game, 0, seat), iterations=iterations), roots)
            for seat in range(players)]
    play_game(config, bots, seed * 10 + players, game)
    greedy = GreedyStrategy(0, TUNED_WEIGHTS)
    lister = MctsStrategy(0, iterations=1)
    rows: list[Alternative] = []
    for k, (root, seat) in enumerate(roots):
        decision = game * DECISIONS_A_GAME + k
        found: list[Alternative] = []
        for _, _, after in lister.die_actions(root, seat):
            judged = _before_end_of_turn(after, seat, greedy)
            if judged is None:
                continue
            scores = [float(outcome(play_game(config, [greedy] * players, seed * 1000 + 7,
                                              decision * PLAYOUTS + n, start=judged)[0])
                            .scores[seat]) for n in range(PLAYOUTS)]
            found.append((decision, features(judged, seat), tile_inputs(judged, seat), scores))
        if len(found) > 1:
            rows += found
    return rows


def _centred(rows: Sequence[Alternative], label: Callable[[list[float]], float]
             ) -> list[tuple[int, dict[int, float], float]]:
    """Each row's inputs (features, then the tables' at ``len(FEATURES) * POWERS`` on) and
    label less their decision's means: (decision, the inputs that are not 0, the label)."""
    by_decision: dict[int, list[Alternative]] = {}
    for row in rows:
        by_decision.setdefault(row[0], []).append(row)
    n_features = len(FEATURES) * POWERS
    out: list[tuple[int, dict[int, float], float]] = []
    for decision, group in by_decision.items():
        size = len(group)
        mean_x = [sum(r[1][i] for r in group) / size for i in range(n_features)]
        mean_tiles: dict[int, float] = {}
        for r in group:
            for j, v in r[2].items():
                mean_tiles[j] = mean_tiles.get(j, 0.0) + v / size
        mean_y = sum(label(r[3]) for r in group) / size
        for _, x, tiles, scores in group:
            inputs = {i: v - m for i, (v, m) in enumerate(zip(x, mean_x, strict=True))
                      if v != m}
            for j, m in mean_tiles.items():
                d = tiles.get(j, 0.0) - m
                if abs(d) > 1e-12:
                    inputs[n_features + j] = d
            out.append((decision, inputs, label(scores) - mean_y))
    return out


def fit_alternatives(rows: Sequence[Alternative], start: list[float]) -> list[float]:
    """Weights (the features', then the tables') that rank each decision's alternatives as
    their playouts do: ridge regression of the differences from the decision's means,
    towards ``start`` (:data:`RIDGE_ALTERNATIVES`, each input scaled to unit RMS; an input
    that never differs within a decision keeps its weight)."""
    centred = _centred(rows, fmean)
    n = len(start)
    square = [0.0] * n
    for _, inputs, _ in centred:
        for j, v in inputs.items():
            square[j] += v * v
    scale = [math.sqrt(q / len(centred)) for q in square]
    kept = [j for j in range(n) if scale[j] > 1e-9]
    at = {j: k for k, j in enumerate(kept)}
    a = [[0.0] * len(kept) for _ in kept]
    b = [0.0] * len(kept)
    for _, inputs, y in centred:
        z = [(at[j], v / scale[j]) for j, v in inputs.items() if j in at]
        residual = y - sum(start[j] * v for j, v in inputs.items())
        for k, zk in z:
            b[k] += zk * residual
            row = a[k]
            for m, zm in z:
                row[m] += zk * zm
    for k in range(len(kept)):
        a[k][k] += RIDGE_ALTERNATIVES
    weights = list(start)
    for k, d in enumerate(solve(a, b)):
        weights[kept[k]] += d / scale[kept[k]]
    return weights


def judge_alternatives(rows: Sequence[Alternative], weights: list[float]
                       ) -> tuple[float, float]:
    """How ``weights`` rank the alternatives of ``rows``: the share of the labels' spread
    within a decision that is the positions' (not the playouts') which they explain, and
    the mean gain of choosing the alternative they rate best over the decision's mean."""
    half = PLAYOUTS // 2
    centred = _centred(rows, fmean)
    first = [y for _, _, y in _centred(rows, lambda s: fmean(s[:half]))]
    second = [y for _, _, y in _centred(rows, lambda s: fmean(s[half:]))]
    r = correlation(first, second)
    signal = 2 * r / (1 + r)  # the share of a label's variance that is its position's
    total = sum(y * y for _, _, y in centred) / len(centred)
    errors = 0.0
    best: dict[int, tuple[float, float]] = {}
    for decision, inputs, y in centred:
        predicted = sum(weights[j] * v for j, v in inputs.items())
        errors += (predicted - y) ** 2
        if decision not in best or predicted > best[decision][0]:
            best[decision] = (predicted, y)
    explained = (total - errors / len(centred)) / (signal * total)
    return explained, sum(y for _, y in best.values()) / len(best)


def refit_to_alternatives(players: int, seed: int, games: int, iterations: int, jobs: int,
                          weights: dict[str, list[float]], tables: dict[str, list[float]],
                          report: dict[str, dict[str, object]]) -> None:
    """``--alternatives``: refit ``players``' weights and tile table in place, and say how
    they rank the held-out games' alternatives before and after."""
    key = str(players)
    tasks = [(players, seed, g, iterations) for g in range(games)]
    with multiprocessing.Pool(jobs) as pool:
        found = [r for rows in pool.map(alternatives, tasks, chunksize=1) for r in rows]
    train = [r for r in found if r[0] // DECISIONS_A_GAME % HELD_OUT_EVERY]
    test = [r for r in found if not r[0] // DECISIONS_A_GAME % HELD_OUT_EVERY]
    before = weights[key] + tables.get(key, [0.0] * TABLE_SIZE)
    after = fit_alternatives(train, before)
    explained_before, gain_before = judge_alternatives(test, before)
    explained, gain = judge_alternatives(test, after)
    n_features = len(FEATURES) * POWERS
    weights[key], tables[key] = after[:n_features], after[n_features:]
    report[key] = {**report[key], "alternatives": {
        "decisions to fit": len({r[0] for r in train}), "positions to fit": len(train),
        "held-out decisions": len({r[0] for r in test}), "held-out positions": len(test),
        "explained before": round(explained_before, 3), "explained": round(explained, 3),
        "choice gain before": round(gain_before, 2), "choice gain": round(gain, 2)}}
    print(f"{players} players: {len(train)} alternatives to fit, {len(test)} held out; of "
          f"their spread within a decision that is the positions', the weights before explain "
          f"{explained_before:.1%}, the refit {explained:.1%}; choosing the best rated gains "
          f"{gain_before:.2f} VP before, {gain:.2f} VP refitted", flush=True)


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
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--iterations", type=int, default=0,
                        help="self-play of mcts of this many rollouts a search, judging with "
                             "the shipped weights (default: greedy self-play)")
    budget.add_argument("--alternatives", type=int, default=0, metavar="ITERATIONS",
                        help="refit the shipped weights, with tile tables, to how a turn's "
                             "die actions rank, in self-play of mcts of this many rollouts")
    parser.add_argument("--players", type=int, nargs="+", default=list(PLAYER_COUNTS),
                        choices=PLAYER_COUNTS,
                        help="the player counts to fit (the others keep their weights)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = parser.parse_args(argv)
    for name in ("iterations", "alternatives"):
        if getattr(args, name) < 0:
            parser.error(f"--{name} must be at least 0, not {getattr(args, name)}")
    counts = sorted(set(args.players))
    every_count = counts == list(PLAYER_COUNTS)
    shipped = json.loads(OUT.read_text())
    weights: dict[str, list[float]] = dict(shipped["weights"])
    tables: dict[str, list[float]] = dict(shipped.get("tables", {}))
    report = dict(shipped["held-out"])
    for players in counts:
        if args.alternatives:
            refit_to_alternatives(players, args.seed, args.games, args.alternatives, args.jobs,
                                  weights, tables, report)
            continue
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
        tables.pop(str(players), None)  # fitted to final scores: no tables
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
                   + (f" --alternatives {args.alternatives}" if args.alternatives else "")
                   + ("" if every_count else " --players " + " ".join(map(str, counts))))
        # Greedy self-play of every player count owes nothing to the shipped file; any
        # other fit builds on it (its bots judge with it, or it keeps some of its weights).
        fresh = not args.iterations and not args.alternatives and every_count
        data = {"commands": [command] if fresh else [*shipped["commands"], command],
                "features": list(FEATURES), "powers": POWERS,
                "held-out": {n: report[n] for n in sorted(report)},
                "weights": {n: weights[n] for n in sorted(weights)},
                "tables": {n: tables[n] for n in sorted(tables)}}
        OUT.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
