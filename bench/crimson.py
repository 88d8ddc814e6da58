"""Random games per second: this tree's engine against Castles of Crimson's (not a test).

Castles of Crimson is an open Python engine of the same game (the base game, 2-4 players).
Its engine is loaded from the folder given on the command line, its package folder
``games/castles_of_crimson`` (``engine.py``, ``board.py``, ``tiles.py``); none of its code is
part of this project (docs/performance.md says where to get it).

One worker process imports both engines: this tree's pure Python source
(``P2P_BURGUNDY_PURE=1``), and where a compiled build is made (``tools/build_compiled.py``) a
second worker imports the compiled build; the workers take turns round by round. In each
round and for 2, 3 and 4 players, each engine of a worker plays ``--games`` whole games with
every choice uniformly random among its legal moves (Crimson's ``legal_moves`` of the player
to act, ours ``legal_actions``), the two engines in ABBA order, timed by the worker's CPU time
(which other load disturbs much less than wall time). Crimson plays as its own search plays it,
without the deep copy of the whole game it makes at every turn for its client's undo
(``game["_skip_undo"]``); ``--undo`` keeps that copy, as in a game on its server. Each figure
is the median over the rounds of Crimson's CPU time per game divided by ours, with its
quartiles: how many times Crimson's random games per second ours plays.

Run from the repository root::

    python bench/crimson.py /tmp/crimson/games/castles_of_crimson             # figures
    python bench/crimson.py /tmp/crimson/games/castles_of_crimson --rounds 3  # quicker
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import importlib.util
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from engine import ROOT, Served, check_compiled, quartiles, random_game

PLAYERS = (2, 3, 4)
WARM_UP = 5  # untimed games of each engine and size: the imports, the tables, the counts
LONGEST = 10_000  # moves: a Crimson game longer than this does not end


def load_crimson(folder: Path) -> ModuleType:
    """Crimson's ``engine`` module, imported from its package folder ``folder`` as the
    package ``castles_of_crimson`` (its modules import each other relatively)."""
    if not (folder / "engine.py").is_file() or not (folder / "__init__.py").is_file():
        raise SystemExit(f"{folder}: not Castles of Crimson's package folder (no engine.py "
                         f"and __init__.py): give its games/castles_of_crimson")
    spec = importlib.util.spec_from_file_location(
        "castles_of_crimson", folder / "__init__.py", submodule_search_locations=[str(folder)])
    assert spec is not None and spec.loader is not None
    package = importlib.util.module_from_spec(spec)
    sys.modules["castles_of_crimson"] = package
    spec.loader.exec_module(package)
    return importlib.import_module("castles_of_crimson.engine")


def crimson_game(engine: ModuleType, players: int, rng: random.Random, undo: bool) -> int:
    """One whole Crimson game with uniformly random moves, dealt and rolled by its own seeded
    generator (seeded from ``rng``); the moves it took."""
    game = engine.new_game([f"P{seat}" for seat in range(players)], seed=rng.getrandbits(64))
    if not undo:
        game["_skip_undo"] = True  # as Crimson's own search plays
    moves = 0
    while not engine.is_over(game):
        pid = game["pending_pid"] or game["turn"]  # a pending sub-decision first, as its bot
        legal = engine.legal_moves(game, pid)
        ok, error = engine.apply_move(game, pid, legal[rng.randrange(len(legal))])
        moves += 1
        if not ok or moves > LONGEST:
            raise SystemExit(f"Crimson's engine refused its own legal move ({error}) or its "
                             f"game did not end: another version than docs/performance.md's?")
    return moves


class Worker:
    """Plays the timed games of both engines in one process."""

    def __init__(self, crimson: ModuleType, undo: bool) -> None:
        import p2p_burgundy

        self.ours = p2p_burgundy
        self.crimson = crimson
        self.undo = undo

    def ours_game(self, players: int, rng: random.Random) -> int:
        """One whole game of ours with uniformly random choices; its decisions."""
        decisions = 0

        def count(state: Any, action: Any, rng: random.Random) -> None:
            nonlocal decisions
            decisions += 1

        random_game(self.ours, self.ours.GameConfig(players=players), rng, count)
        return decisions

    def warm_up(self) -> dict[str, float]:
        """Untimed games of each engine and size: the mean decisions (ours) and moves
        (Crimson's) a game."""
        rng = random.Random(-1)
        out = {}
        for players in PLAYERS:
            out[f"ours {players}p"] = statistics.mean(
                self.ours_game(players, rng) for _ in range(WARM_UP))
            out[f"crimson {players}p"] = statistics.mean(
                crimson_game(self.crimson, players, rng, self.undo) for _ in range(WARM_UP))
        return out

    def run(self, round_: int, games: int) -> dict[str, float]:
        """CPU seconds per game of each engine and size in round ``round_`` (ABBA: which
        engine plays first alternates by round)."""
        e, clock = self.ours, time.process_time
        config = {players: e.GameConfig(players=players) for players in PLAYERS}
        out = {}
        for players in PLAYERS:
            first_ours = (round_ + players) % 2 == 0
            for engine in (("ours", "crimson") if first_ours else ("crimson", "ours")):
                rng = random.Random(round_ * 10 + players)
                t0 = clock()
                for _ in range(games):
                    if engine == "ours":
                        random_game(e, config[players], rng)
                    else:
                        crimson_game(self.crimson, players, rng, self.undo)
                out[f"{engine} {players}p"] = (clock() - t0) / games
        return out


def serve(folder: str, undo: bool) -> None:
    """Worker loop: import both engines, say how long their games are, then answer ``round
    games`` lines."""
    worker = Worker(load_crimson(Path(folder)), undo)
    print(json.dumps({"lengths": worker.warm_up()}), flush=True)
    for line in sys.stdin:
        round_, games = map(int, line.split())
        print(json.dumps(worker.run(round_, games)), flush=True)


class _Process(Served):
    """A worker process of one build of ours."""

    def __init__(self, folder: Path, compiled: bool, undo: bool) -> None:
        self.build = "compiled" if compiled else "pure"
        super().__init__([__file__, str(folder), "--serve", *(["--undo"] if undo else [])],
                         ROOT, compiled)
        self.first: dict[str, Any] = json.loads(self.ready)

    def run(self, round_: int, games: int) -> dict[str, float]:
        return self.ask(f"{round_} {games}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path,
                        help="Castles of Crimson's package folder (games/castles_of_crimson)")
    parser.add_argument("--rounds", type=int, default=15, help="rounds of ABBA batches")
    parser.add_argument("--games", type=int, default=10,
                        help="games of each engine and player count per round and build")
    parser.add_argument("--undo", action="store_true",
                        help="Crimson copies the whole game at every turn, for its client's undo")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(str(args.folder), args.undo)
        return 0
    if args.rounds < 1 or args.games < 1:
        parser.error("--rounds and --games must be at least 1")
    folder = args.folder.resolve()
    load_crimson(folder)  # a wrong folder fails here, with its message
    built = next((ROOT / "p2p_burgundy").glob("compiled__mypyc.*"), None) is not None
    if built:
        check_compiled()  # not stale
    workers = [_Process(folder, compiled, args.undo) for compiled in (False, True)[:1 + built]]
    crimson_hash = hashlib.sha256((folder / "engine.py").read_bytes()).hexdigest()[:12]
    lengths = workers[0].first["lengths"]
    print(f"python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} cpus, "
          f"load average {os.getloadavg()[0]:.2f}; Crimson's engine.py sha256 {crimson_hash}"
          f"{' (with its undo copy)' if args.undo else ''}; {args.rounds} rounds of "
          f"{args.games} games of each engine, size and build "
          f"({', '.join(w.build for w in workers)}{'' if built else '; no compiled build'})")
    print("  moves a random game: " + ", ".join(
        f"{players}p ours {lengths[f'ours {players}p']:.0f}, "
        f"Crimson {lengths[f'crimson {players}p']:.0f}" for players in PLAYERS))
    times: dict[str, dict[str, list[float]]] = {w.build: {} for w in workers}
    try:
        for r in range(args.rounds):
            for worker in workers if r % 2 == 0 else workers[::-1]:
                for name, value in worker.run(r, args.games).items():
                    times[worker.build].setdefault(name, []).append(value)
    finally:
        for worker in workers:
            worker.close()
    print(f"  {'build':<9} {'players':<8} {'ours':>10} {'Crimson':>10}   "
          f"ours' games/s over Crimson's: median [quartiles]")
    for build, figures in times.items():
        for players in PLAYERS:
            ours, theirs = figures[f"ours {players}p"], figures[f"crimson {players}p"]
            low, mid, high = quartiles([t / o for o, t in zip(ours, theirs, strict=True)])
            print(f"  {build:<9} {players}p{'':<6} {statistics.median(ours) * 1e3:>7.2f} ms "
                  f"{statistics.median(theirs) * 1e3:>7.2f} ms   {mid:.2f}x [{low:.2f}-{high:.2f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
