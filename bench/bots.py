"""Bot benchmark (not a test): the time each bot takes per decision in whole games, or the
``mcts`` search's speed against a named git revision's.

By default it plays ``--games`` games of ``burgundy sim`` (same seeds, bot seeds and budgets,
one process) and times every ``choose`` call. A search bot follows the line it chose without
searching again, so besides the mean over all decisions it reports the decisions that
searched (those that took over a millisecond) separately: their count, mean, 95th percentile
and maximum.

With ``--against REV`` it measures the ``mcts`` search of this tree and of git revision
``REV`` side by side. Load from other processes on a shared machine moves absolute timings a
lot between runs, so the figures are ratios measured in one run: ``REV``'s engine and bots are
extracted with ``git archive`` into a temporary folder, one worker process imports this
tree's and another that revision's, and the workers take turns on the same batches (ABBA
order within each round, so a drift in load hits both alike). Each worker takes the same
``--positions`` positions from greedy self-play (2, 3 and 4 players in turn, seeded; the
start of a turn in phases B to D, where ``mcts`` searches) and in each batch makes one fresh
``mcts`` decision on each of them: with ``--think`` seconds (default 1, the user's default),
counting rollouts per CPU second of the searches, and with ``--iterations`` rollouts (default
24), timing the decisions by CPU time. Each figure is the median over the rounds of this
tree's rate divided by the revision's (above 1: this tree is faster), with its quartiles.
Whether both sides made the same fixed-budget decisions is reported too (the same position
values give the same decisions), and ``--games`` whole games of ``mcts`` self-play with
``--iterations`` rollouts per search (2 players, 3 players and the solo game in turn) are
played on both sides after the rounds: the same final state or not. This tree's worker runs
its pure Python source (``P2P_BURGUNDY_PURE=1``), even where a compiled build lies beside it.
With ``--compiled`` this tree's worker runs its compiled build (``tools/build_compiled.py``):
against ``REV``'s pure Python build, or without ``--against`` against this tree's own.

Run from the repository root::

    python bench/bots.py --bots mcts,greedy --iterations 48 --games 2
    python bench/bots.py --bots mcts,greedy --think 1 --games 1
    python bench/bots.py --against ef22910 --games 3    # figures in docs/performance.md
    python bench/bots.py --against HEAD --rounds 2 --positions 3 --games 0   # quicker
    python bench/bots.py --compiled --games 3   # the compiled build against the pure one
    python bench/bots.py --compiled --against main --games 0   # ... against main's pure one
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

# this folder is the path when a benchmark runs as a script
from engine import Served, check_compiled, extract, quartiles

if TYPE_CHECKING:  # imported where used: a worker first puts its tree on the path
    from p2p_burgundy import Action, GameState
    from p2p_burgundy.cli.strategies import Strategy

ROOT = Path(__file__).resolve().parent.parent
SEARCHED_S = 0.001  # a decision slower than this searched (faster ones followed a plan)
FIRST_PHASE, LAST_PHASE = 1, 3  # positions are taken in phases B to D


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
    parser.add_argument("--games", type=int, default=2,
                        help="games to play (with --against: whole games to compare)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think", type=float, default=None)
    parser.add_argument("--iterations", type=int, default=None)
    parser.add_argument("--rotate", action="store_true")
    parser.add_argument("--against", metavar="REV",
                        help="compare the mcts search with git revision REV's instead")
    parser.add_argument("--compiled", action="store_true",
                        help="run the mcts search of this tree's compiled build "
                             "(tools/build_compiled.py): against its pure Python build, or "
                             "against --against REV's")
    parser.add_argument("--rounds", type=int, default=6, help="with --against: ABBA rounds")
    parser.add_argument("--positions", type=int, default=6,
                        help="with --against: positions searched per batch")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.positions, args.seed)
        return 0
    if args.against or args.compiled:
        if args.rounds < 1 or args.positions < 1 or args.games < 0:
            parser.error("--rounds and --positions must be at least 1, --games at least 0")
        think = 1.0 if args.think is None else args.think
        iterations = 24 if args.iterations is None else args.iterations
        if think <= 0 or iterations < 1:
            parser.error("--think must be above 0 and --iterations at least 1")
        return compare(args.against, args.compiled, args.rounds, args.positions, args.seed,
                       think, iterations, args.games)
    return games(args)


def games(args: argparse.Namespace) -> int:
    """The default mode: time every decision of whole games."""
    from p2p_burgundy import outcome
    from p2p_burgundy.cli.sim import SimConfig, bot_seed, play_game, seatings
    from p2p_burgundy.cli.strategies import make

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



# --- --against: a worker imports one tree's engine and bots and searches positions ----------

def positions(count: int, seed: int) -> list[Any]:
    """``count`` positions where ``mcts`` searches: the start of a turn (both dice unused) in
    phases B to D of greedy self-play, 2, 3 and 4 players in turn, one position a game."""
    from p2p_burgundy import GameConfig, legal_actions
    from p2p_burgundy.cli.sim import play_game
    from p2p_burgundy.cli.strategies import make

    class Picker:
        """Greedy, and the ``n[0]``-th position of the kind wanted is kept (``n``: one
        countdown the bots of a game share)."""

        def __init__(self, bot: Any, n: list[int], kept: list[Any]) -> None:
            self.bot, self.name, self.n, self.kept = bot, bot.name, n, kept

        def choose(self, state: Any, actions: Sequence[Any]) -> Any:
            p = state.players[state.to_move]
            if (FIRST_PHASE <= state.phase <= LAST_PHASE and not state.pending
                    and not p.dice_used and len(legal_actions(state)) > 1):
                self.n[0] -= 1
                if self.n[0] == 0:
                    self.kept.append(state)
            return self.bot.choose(state, actions)

    out: list[Any] = []
    for game in range(count):
        players = 2 + game % 3
        wanted = [1 + (seed * 7 + game * 13) % 40]  # somewhere in phases B to D
        bots = [Picker(make("greedy", seat), wanted, out) for seat in range(players)]
        play_game(GameConfig(players=players), bots, seed, game)
    return out


def whole_game(game: int, seed: int, iterations: int) -> dict[str, Any]:
    """Game ``game`` of ``mcts`` self-play with ``iterations`` rollouts per search (2 players,
    3 players and the solo game in turn): its final state hash and scores."""
    from p2p_burgundy import Edition, GameConfig, outcome, state_hash
    from p2p_burgundy.cli.sim import bot_seed, play_game
    from p2p_burgundy.cli.strategies.mcts import MctsStrategy

    players = (2, 3, 1)[game % 3]
    config = GameConfig(players=players, edition=Edition.E2019 if players == 1 else
                        Edition.E2011)
    bots = [MctsStrategy(bot_seed(seed, game, 0, seat), iterations=iterations)
            for seat in range(players)]
    state, _ = play_game(config, bots, seed, game)
    return {"hash": state_hash(state).hex(), "scores": list(outcome(state).scores)}


def serve(tree: str, count: int, seed: int) -> None:
    """Worker loop: import the engine and bots found in ``tree``, then answer requests (JSON
    lines): a batch of searches (``think``, ``iterations``) with its figures, or a whole game
    (``game``, ``iterations``) with how it ended."""
    sys.path.insert(0, tree)
    import p2p_burgundy
    from p2p_burgundy import legal_actions, state_hash
    from p2p_burgundy.cli.strategies.mcts import MctsStrategy

    where = Path(p2p_burgundy.__file__).resolve().parent.parent
    if where != Path(tree).resolve():
        raise SystemExit(f"imported the engine from {where}, not {tree}")
    states = positions(count, seed)
    digest = hashlib.sha256(b"".join(state_hash(s) for s in states)).hexdigest()[:12]
    print(f"ready {len(states)} {digest}", flush=True)
    clock = time.process_time
    for line in sys.stdin:
        request = json.loads(line)
        iterations = request["iterations"]
        if "game" in request:
            print(json.dumps(whole_game(request["game"], seed, iterations)), flush=True)
            continue
        think = request["think"]
        rollouts = 0
        searching = fixed = 0.0
        chosen = []
        for i, state in enumerate(states):
            bot = MctsStrategy(seed=i, think=think)
            t0 = clock()
            bot.choose(state, legal_actions(state))
            searching += clock() - t0
            rollouts += bot.last_rollouts
            bot = MctsStrategy(seed=i, iterations=iterations)
            t0 = clock()
            chosen.append(repr(bot.choose(state, legal_actions(state))))
            fixed += clock() - t0
        print(json.dumps({"rollouts": rollouts, "rollouts/s": rollouts / searching,
                          "decision s": fixed / len(states), "chosen": chosen}), flush=True)


# --- --against: the parent extracts the revision and alternates the workers -----------------

class _Worker(Served):
    def __init__(self, tree: Path, count: int, seed: int, compiled: bool = False) -> None:
        super().__init__([__file__, "--serve", str(tree), "--positions", str(count),
                          "--seed", str(seed)], tree, compiled)
        self.fields = self.ready.split()

    def run(self, **request: float) -> dict[str, Any]:
        return self.ask(json.dumps(request))


def compare(rev: str | None, compiled: bool, rounds: int, count: int, seed: int, think: float,
            iterations: int, whole: int) -> int:
    """The ``--against`` mode: both trees' ``mcts`` on the same positions, side by side; with
    ``compiled`` this tree's compiled build runs, against ``rev``'s pure Python build or, with
    ``rev`` None, against its own."""
    if compiled:
        check_compiled()
    with tempfile.TemporaryDirectory(prefix="bench-bots-") as tmp:
        if rev is None:
            commit, against = "pure", "this tree compiled against its pure Python build"
            ours, theirs = _Worker(ROOT, count, seed, True), _Worker(ROOT, count, seed)
        else:
            commit = extract(rev, Path(tmp), ("p2p_burgundy", "cli", "net"))
            against = f"this tree{' compiled' if compiled else ''} against {rev} ({commit})"
            ours, theirs = _Worker(ROOT, count, seed, compiled), _Worker(Path(tmp), count, seed)
        same = "the same" if ours.fields == theirs.fields else "DIFFERENT"
        print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} "
              f"cpus, load average {os.getloadavg()[0]:.2f}; {against}: {rounds} rounds, "
              f"{ours.fields[1]} positions ({same} on both sides), "
              f"mcts with --think {think:g} and with --iterations {iterations} on each")
        mine: list[dict[str, Any]] = []
        base: list[dict[str, Any]] = []
        try:
            for r in range(rounds):
                for worker in (ours, theirs) if r % 2 == 0 else (theirs, ours):
                    (mine if worker is ours else base).append(
                        worker.run(think=think, iterations=iterations))
            games = [(ours.run(game=g, iterations=iterations),
                      theirs.run(game=g, iterations=iterations)) for g in range(whole)]
        finally:
            ours.close()
            theirs.close()
    print(f"  {'figure':<40} {'this tree':>10} {commit:>10}   speed-up: median [quartiles]")
    searches = int(ours.fields[1])
    _report(f"rollouts per CPU second, --think {think:g}",
            [m["rollouts/s"] for m in mine], [b["rollouts/s"] for b in base], "{:.1f}", False)
    _report(f"CPU s per decision, --iterations {iterations}",
            [m["decision s"] for m in mine], [b["decision s"] for b in base], "{:.3f}", True)
    _report(f"rollouts per search, --think {think:g}", [m["rollouts"] / searches for m in mine],
            [b["rollouts"] / searches for b in base], "{:.1f}", False)
    agree = sum(m["chosen"] == b["chosen"] for m, b in zip(mine, base, strict=True))
    print(f"  --iterations {iterations} decisions the same on both sides: {agree} of {rounds} "
          f"batches of {searches}")
    for g, (m, b) in enumerate(games):
        verdict = "the same game" if m == b else f"DIFFERENT ({commit}: {b['scores']})"
        print(f"  whole game {g + 1}, mcts self-play, {len(m['scores'])} player(s), "
              f"--iterations {iterations}: scores {m['scores']}, {verdict} on both sides")
    return 0


def _report(name: str, mine: list[float], base: list[float], form: str, time: bool) -> None:
    """A figure's line: both sides' medians and the median [quartiles] of this tree's speed-up
    (the ratio of the rates; of the revision's time to this tree's for a ``time``)."""
    ratios = [(b / m if time else m / b) for m, b in zip(mine, base, strict=True)]
    low, mid, high = quartiles(ratios)
    print(f"  {name:<40} {form.format(statistics.median(mine)):>10} "
          f"{form.format(statistics.median(base)):>10}   {mid:.2f}x [{low:.2f}-{high:.2f}]")


if __name__ == "__main__":
    sys.exit(main())
