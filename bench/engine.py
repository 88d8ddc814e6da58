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
- ``clone()``: the mean over a sample of phase C states of those games (likewise);
- with ``--detail``, the same replayed means by kind: ``apply`` by step and action type,
  ``legal_actions`` by step, and ``resolve_chance`` by event kind (every chance event of
  those games), each with its share of the engine's time in those games (its mean times
  how often the games called it; kinds with fewer than ``DETAIL_LEAST`` calls in the sample
  are left out): where the time goes, and what a change bought.

With ``--modules`` every game (timed and sampled) is a 2019 game with every expansion module
on; ``--solo`` plays the solo game instead (its figures keep their names: the "2p" games are
solo games, and the "4p" games half as many more).

With ``--compiled`` this tree's worker runs its compiled build (``tools/build_compiled.py``),
against the revision's pure Python source when ``--against`` is given, else against this
tree's own pure Python source (``P2P_BURGUNDY_PURE=1``); without it this tree's worker runs the
pure Python source too, even where a compiled build lies beside it.

With ``--callgrind`` nothing is timed: each engine plays ``--games`` 2p and half as many 4p
games (seeded, so the same games while the rules agree) under ``valgrind --tool=callgrind``
after a 2p and a 4p game to warm up (the imports, the variant's tables, the memos), and once
with only the warm-up; the figure is the instructions the games took, which other load does
not change: the ratio of the revision's count to this tree's (above 1: this tree executes
fewer instructions).

Run from the repository root::

    python bench/engine.py --against main      # figures in docs/performance.md
    python bench/engine.py --rounds 4          # quicker, noisier (against HEAD)
    python bench/engine.py --detail            # and the replayed calls by kind
    python bench/engine.py --against main --modules   # every module on
    python bench/engine.py --against main --callgrind --games 10   # instructions, not time
    python bench/engine.py --compiled          # the compiled build against the pure one
    python bench/engine.py --compiled --against main   # ... against main's pure Python
"""

from __future__ import annotations

import argparse
import json
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
DETAIL_LEAST = 20  # calls of a kind in the sample for its own figure


# --- the worker: runs inside a process that imported one revision's engine -------------------

def random_game(e: Any, config: Any, rng: random.Random,
                on_decision: Callable[[Any, Any, random.Random], None] | None = None,
                on_chance: Callable[[tuple[Any, bytes]], None] | None = None) -> Any:
    """One whole game of ``config`` with the engine ``e`` (the ``p2p_burgundy`` module), every
    choice uniformly random among the legal actions and every chance event's entropy from
    ``rng``; its final state. ``on_decision`` and ``on_chance`` see each decision and event."""
    apply, legal_actions, resolve_chance = e.apply, e.legal_actions, e.resolve_chance
    state = e.new_game(config)
    while True:
        if state.chance is not None:
            entropy = rng.randbytes(32)
            if on_chance is not None:
                on_chance((state, entropy))
            state = resolve_chance(state, entropy)
        elif state.is_over:
            return state
        else:
            actions = legal_actions(state)
            action = actions[rng.randrange(len(actions))]
            if on_decision is not None:
                on_decision(state, action, rng)
            state = apply(state, action)


class Worker:
    """Times batches of work with the engine ``engine`` (the ``p2p_burgundy`` module)."""

    def __init__(self, engine: Any, game: str) -> None:
        self.e = engine
        self.game = game
        self.sample: list[tuple[Any, Any]] = []
        self.mid_game: list[Any] = []
        self.chances: list[tuple[Any, bytes]] = []
        self.counts: dict[str, int] = {}  # calls of each kind in the sample's games
        self._seen = 0
        rng = random.Random(0)
        for players in (2, 4):
            for _ in range(SAMPLE_GAMES):
                self.play(players, rng, self._keep, self._keep_chance)
        # The --detail figures: the sample's calls by kind.
        self.kinds: dict[str, tuple[Callable[..., Any], list[tuple[Any, ...]]]] = {}
        for state, action in self.sample:
            legal, applied = self._names(state, action)
            self.kinds.setdefault(legal, (self.e.legal_actions, []))[1].append((state,))
            self.kinds.setdefault(applied, (self.e.apply, []))[1].append((state, action))
        for state, entropy in self.chances:
            self.kinds.setdefault(f"chance {state.chance.kind.name}",
                                  (self.e.resolve_chance, []))[1].append((state, entropy))

    def _names(self, state: Any, action: Any) -> tuple[str, str]:
        """The --detail kinds of ``legal_actions(state)`` and ``apply(state, action)``."""
        step = self.e.Step(state.pending[-1][0] if state.pending else 0).name
        return f"legal {step}", f"apply {step} {type(action).__name__}"

    def _keep_chance(self, event: tuple[Any, bytes]) -> None:
        self.chances.append(event)
        name = f"chance {event[0].chance.kind.name}"
        self.counts[name] = self.counts.get(name, 0) + 1

    def _keep(self, state: Any, action: Any, rng: random.Random) -> None:
        self._seen += 1
        for name in self._names(state, action):
            self.counts[name] = self.counts.get(name, 0) + 1
        if self._seen % SAMPLE_EVERY == 0:
            self.sample.append((state, action))
        if state.phase == MID_GAME_PHASE and rng.random() < MID_GAME_SAMPLE:
            self.mid_game.append(state)

    def play(self, players: int, rng: random.Random,
             on_decision: Callable[[Any, Any, random.Random], None] | None = None,
             on_chance: Callable[[tuple[Any, bytes]], None] | None = None) -> Any:
        """One whole game of this worker's kind with uniformly random choices."""
        e = self.e
        if self.game == "modules":
            config = e.GameConfig(players, e.Edition.E2019, modules=tuple(e.Module))
        elif self.game == "solo":
            config = e.GameConfig(1, e.Edition.E2019)
        else:
            config = e.GameConfig(players=players)
        return random_game(e, config, rng, on_decision, on_chance)

    def run(self, round_: int, games: int, detail: bool) -> dict[str, float]:
        """Seconds per unit of each figure for round ``round_`` (and, with ``detail``, of each
        kind, per call and ``total`` over the sample's games)."""
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
        if detail:
            for name, (call, calls) in self.kinds.items():
                if len(calls) < DETAIL_LEAST:
                    continue
                best = float("inf")
                for _ in range(REPLAYS):
                    t0 = clock()
                    for args in calls:
                        call(*args)
                    best = min(best, clock() - t0)
                out[name] = best / len(calls)
                out[f"total {name}"] = out[name] * self.counts[name]
        return out


def serve(tree: str, game: str) -> None:
    """Worker loop: import the engine found in ``tree``, then answer ``round games`` lines."""
    sys.path.insert(0, tree)
    import p2p_burgundy

    where = Path(p2p_burgundy.__file__).resolve().parent.parent
    if where != Path(tree).resolve():
        raise SystemExit(f"imported the engine from {where}, not {tree}")
    worker = Worker(p2p_burgundy, game)
    print(f"ready {len(worker.sample)} {len(worker.mid_game)}", flush=True)
    for line in sys.stdin:
        round_, games, detail = map(int, line.split())
        print(json.dumps(worker.run(round_, games, bool(detail))), flush=True)


def count(tree: str, game: str, games: int) -> None:
    """Play the --callgrind games with the engine found in ``tree`` (under valgrind)."""
    sys.path.insert(0, tree)
    import p2p_burgundy

    where = Path(p2p_burgundy.__file__).resolve().parent.parent
    if where != Path(tree).resolve():
        raise SystemExit(f"imported the engine from {where}, not {tree}")
    worker = Worker.__new__(Worker)  # no sample: only the games
    worker.e, worker.game = p2p_burgundy, game
    warm_up = random.Random(1)
    for players in (2, 4):
        worker.play(players, warm_up)
    rng = random.Random(0)
    for players, many in ((2, games), (4, games // 2)):
        for _ in range(many):
            worker.play(players, rng)


def instructions(tree: Path, game: str, games: int) -> int:
    """The instructions ``games`` --callgrind games take with the engine in ``tree``: a
    callgrind run with them less one with only the warm-up."""
    totals = []
    for many in (games, 0):
        with tempfile.TemporaryDirectory(prefix="bench-callgrind-") as out:
            file = Path(out) / "callgrind.out"
            subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={file}",
                            sys.executable, __file__, "--count", str(tree), "--game", game,
                            "--games", str(many)],
                           cwd=tree, check=True, capture_output=True,
                           env=dict(build_env(compiled=False), PYTHONHASHSEED="0"))
            totals.append(next(int(line.split()[1]) for line in file.read_text().splitlines()
                               if line.startswith(("summary:", "totals:"))))
    return totals[0] - totals[1]


# --- the parent: extracts the revision, alternates the workers, reports ratios ----------------

def build_env(compiled: bool) -> dict[str, str]:
    """The environment of a worker running the compiled build (where one is built) or the
    pure Python one (``P2P_BURGUNDY_PURE``: the source files even beside compiled modules)."""
    env = {key: value for key, value in os.environ.items() if key != "P2P_BURGUNDY_PURE"}
    if not compiled:
        env["P2P_BURGUNDY_PURE"] = "1"
    return env


def check_compiled() -> None:
    """Exit with a clear message when this tree has no compiled build, or one older than its
    source (which the package would leave aside: pure Python on both sides)."""
    from p2p_burgundy import build_record

    if not list((ROOT / "p2p_burgundy").glob(build_record.LIBRARY)):
        raise SystemExit("no compiled build in this tree: run tools/build_compiled.py first")
    stale = build_record.stale_build(ROOT / "p2p_burgundy")
    if stale is not None:
        raise SystemExit(f"the compiled build is stale ({stale}): run tools/build_compiled.py")


class Served:
    """A benchmark worker in a process of its own: it reads a request a line and answers each
    with a line of JSON; ``ready`` is the first line it writes."""

    def __init__(self, argv: list[str], cwd: Path, compiled: bool) -> None:
        self.proc = subprocess.Popen([sys.executable, *argv], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, cwd=cwd,
                                     env=build_env(compiled))
        self.ready = self._line()

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"benchmark worker exited with {self.proc.wait()}")
        return line

    def ask(self, request: str) -> dict[str, Any]:
        """The worker's answer to ``request`` (one line)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(request + "\n")
        self.proc.stdin.flush()
        figures: dict[str, Any] = json.loads(self._line())
        return figures

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


class _Process(Served):
    def __init__(self, tree: Path, game: str, compiled: bool = False) -> None:
        super().__init__([__file__, "--serve", str(tree), "--game", game], tree, compiled)

    def run(self, round_: int, games: int, detail: bool) -> dict[str, float]:
        return self.ask(f"{round_} {games} {int(detail)}")


def extract(rev: str, into: Path, folders: tuple[str, ...] = ("p2p_burgundy",)) -> str:
    """Extract ``folders`` of git revision ``rev`` into ``into``, with ``net/`` and ``cli/``
    (when asked for) moved inside ``p2p_burgundy/`` as the package installs them; its short
    commit id."""
    commit = subprocess.run(["git", "rev-parse", "--short", f"{rev}^{{commit}}"], cwd=ROOT,
                            check=True, capture_output=True, text=True).stdout.strip()
    archive = subprocess.run(["git", "archive", "--format=tar", commit, *folders],
                             cwd=ROOT, check=True, capture_output=True).stdout
    with tempfile.TemporaryFile() as f:
        f.write(archive)
        f.seek(0)
        with tarfile.open(fileobj=f) as tar:
            tar.extractall(into, filter="data")
    for folder in ("net", "cli"):
        if folder in folders:
            (into / folder).rename(into / "p2p_burgundy" / folder)
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
    parser.add_argument("--against", metavar="REV",
                        help="git revision to compare with (default HEAD; with --compiled, "
                             "this tree's pure Python build)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of ABBA batches")
    parser.add_argument("--games", type=int, default=40,
                        help="2-player games per batch (4-player: half)")
    parser.add_argument("--detail", action="store_true",
                        help="also time the replayed calls by kind (apply by step and action, "
                             "legal_actions by step, resolve_chance by event)")
    games = parser.add_mutually_exclusive_group()
    games.add_argument("--modules", dest="game", action="store_const", const="modules",
                       default="base", help="play 2019 games with every expansion module")
    games.add_argument("--solo", dest="game", action="store_const", const="solo",
                       help="play the solo game")
    games.add_argument("--game", choices=("base", "modules", "solo"), help=argparse.SUPPRESS)
    parser.add_argument("--compiled", action="store_true",
                        help="run this tree's compiled build (tools/build_compiled.py): "
                             "against its pure Python build, or against --against REV")
    parser.add_argument("--callgrind", action="store_true",
                        help="count instructions under valgrind instead of timing")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--count", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.game)
        return 0
    if args.count:
        count(args.count, args.game, args.games)
        return 0
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    if args.callgrind and args.compiled:
        parser.error("--callgrind counts the pure Python builds only (not with --compiled)")
    if args.compiled:
        check_compiled()
    revision = args.against or "HEAD"
    if args.callgrind:
        with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
            commit = extract(revision, Path(tmp))
            counted, base_counted = (instructions(tree, args.game, args.games)
                                     for tree in (ROOT, Path(tmp)))
        print(f"{args.game} games, {args.games} 2p + {args.games // 2} 4p, instructions "
              f"(callgrind): this tree {counted:,}, {revision} ({commit}) {base_counted:,}: "
              f"{base_counted / counted:.3f}x")
        return 0

    with tempfile.TemporaryDirectory(prefix="bench-engine-") as tmp:
        if args.compiled and args.against is None:
            against, commit = "its pure Python build", "pure"
            ours, theirs = _Process(ROOT, args.game, True), _Process(ROOT, args.game)
        else:
            commit = extract(revision, Path(tmp))
            against = f"{revision} ({commit})"
            ours = _Process(ROOT, args.game, args.compiled)
            theirs = _Process(Path(tmp), args.game)
        print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus, "
              f"load average {os.getloadavg()[0]:.2f}; {args.game} games; this tree"
              f"{' compiled' if args.compiled else ''} against {against}: {args.rounds} rounds "
              f"of {args.games} 2p + "
              f"{max(1, args.games // 2)} 4p games each way; workers: {ours.ready.strip()} / "
              f"{theirs.ready.strip()} (sample calls, mid-game states)")
        mine: dict[str, list[float]] = {}
        base: dict[str, list[float]] = {}
        try:
            for r in range(args.rounds):
                order = (ours, theirs) if r % 2 == 0 else (theirs, ours)
                for worker in order:
                    for name, value in worker.run(r, args.games, args.detail).items():
                        (mine if worker is ours else base).setdefault(name, []).append(value)
        finally:
            ours.close()
            theirs.close()
    width = max(map(len, mine)) - len("total ") if args.detail else 16
    print(f"  {'figure':<{width}} {'this tree':>12} {commit:>12}   speed-up: median [quartiles]")
    for name in FIGURES:
        _report(name, mine[name], base[name], width)
    if args.detail:  # the kinds both engines met (the same games while their rules agree)
        kinds = [n for n in mine if n not in FIGURES and not n.startswith("total ")
                 and n in base]
        engine = sum(statistics.median(mine[f"total {n}"]) for n in kinds)
        print("  by kind, the largest share of this tree's time in those games first:")
        for name in sorted(kinds, key=lambda n: -statistics.median(mine[f"total {n}"])):
            share = statistics.median(mine[f"total {name}"]) / engine
            _report(name, mine[name], base[name], width, f"  {share:5.1%}")
    return 0


def _report(name: str, mine: list[float], base: list[float], width: int, note: str = "") -> None:
    """One figure's line: both sides' medians and the median [quartiles] of their ratio."""
    low, mid, high = quartiles([b / m for m, b in zip(mine, base, strict=True)])
    unit, scale = ("ms", 1e3) if name.startswith("random") else ("us", 1e6)
    print(f"  {name:<{width}} {statistics.median(mine) * scale:>9.2f} {unit} "
          f"{statistics.median(base) * scale:>9.2f} {unit}   "
          f"{mid:.2f}x [{low:.2f}-{high:.2f}]{note}")


if __name__ == "__main__":
    sys.exit(main())
