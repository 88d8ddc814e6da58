"""Bot strength benchmark (not a test): whole games of ``mcts`` at the user's default budget,
by condition, recorded game by game so that a long measurement can run in parts.

Conditions (each game's dice from ``burgundy sim``'s entropy of seed :data:`SEED`, a seed no
tuning or fitting used; game ``n`` of a condition is that seed's game ``n``):

- ``2p``, ``3p``, ``4p``: ``mcts`` self-play with 2, 3 and 4 players; the figure is the mean
  score per seat (each game's mean over its seats, then over the games).
- ``vs-REV`` (``--against REV``, default ``11277eb``): 2 players, this tree's ``mcts`` against
  revision REV's, whose engine and bots run their pure Python source in a worker process of
  their own (extracted with ``git archive``; it replays every move and checks the state hash
  before it decides). Game ``n`` deals game ``n // 2`` of the seed, this tree's bot in seat
  ``n % 2``: every deal is played in both seatings. The figure is this tree's share of wins.

Every bot thinks ``--think`` seconds (default 1, the user's default) by its process's CPU
time, not wall time: on a shared machine one wall second is only 0.2-0.3 s of CPU, which would
make the bots weaker than on a user's quiet machine. This tree's bots run its compiled build
when one is built and up to date (``tools/build_compiled.py``), else its pure Python source;
each record says which.

Each finished game appends one JSON line to ``--results`` (default
``bench/results/strength.jsonl``): the condition, the game's number and seed, the scores by
seat, which seats this tree's bots played, the bots' revision (the last commit of
``cli/strategies/`` or ``p2p_burgundy/``: at a fixed think time the engine's speed counts too;
with ``+`` and a digest of uncommitted changes if any), the tree's commit, the build, the think
time, the median rollouts per search by seat and the CPU seconds of this process. A game
already recorded for the same condition, bots' revision, build, think time and seed is
skipped, so the same command resumes an interrupted run (stop it any time: only the game under
way is lost). The summary of every group recorded (or, with ``--games 0``, only that) ends each run:
games, mean, 95% interval (normal approximation over the games; Wilson's for the share of wins)
and the target.

Run from the repository root, at low priority on a shared machine::

    nice -n 10 python bench/strength.py --condition 2p --games 100
    nice -n 10 python bench/strength.py --condition vs --games 100   # against 11277eb
    nice -n 10 python bench/strength.py --condition vs --part 1/2 &  # two runs side by side
    nice -n 10 python bench/strength.py --condition vs --part 0/2
    python bench/strength.py --games 0                                # the summary only
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# this folder is the path when a benchmark runs as a script
from engine import Served, extract

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "strength.jsonl"
SEED = 29_300
"""The sim seed of every condition's games. Tuning and fitting used seeds 1-7, 12-14, 21, 41,
43, 45, 51, 53, 55, 61-66, 71-76, 81, 101, 111-115 and 5701-5703; the games of 29000 chose among
variants of the search, those of 29100 between two fits of the 2-player leaf value, and the
first 50 games of the ``vs`` condition of 29200 (25 deals) among six variants (the tile
tables of ``ce16a16`` adopted), so the bots since are measured on this one."""
AGAINST = "11277eb"
BOTS_SOURCE = ("cli/strategies", "p2p_burgundy")  # the bots and the engine they search
PLAYERS = {"2p": 2, "3p": 3, "4p": 4}
TARGETS = {"2p": 195.0, "3p": 205.0, "4p": 218.0, "vs": 0.65}


def git(*args: str) -> str:
    """What ``git ARGS`` prints in this tree."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True,
                          text=True).stdout


def bots_revision() -> str:
    """The last commit of the bots' and the engine's source (at a fixed think time the engine's
    speed counts too), with a digest of its uncommitted changes if any."""
    commit = git("log", "-1", "--format=%h", "--", *BOTS_SOURCE).strip()
    changes = git("diff", "HEAD", "--", *BOTS_SOURCE)
    if changes:
        commit += "+" + hashlib.sha256(changes.encode()).hexdigest()[:8]
    return commit


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation; none for one
    value)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.nan, math.nan
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def share(wins: Sequence[float]) -> tuple[float, float, float]:
    """The share of wins (each 1 or 0) and its 95% Wilson interval (within 0 and 1 even for a
    few games, unlike the normal approximation)."""
    n, z2 = len(wins), 1.96 ** 2
    p = sum(wins) / n
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = 1.96 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, centre - half, centre + half


# --- the games ---------------------------------------------------------------------------------

class Local:
    """This process's bot: its decisions go into ``moves`` (every decision of the game so far,
    as its action's place among the legal actions: what a worker replays to follow the game),
    and the rollouts of those that searched are counted."""

    def __init__(self, bot: Any, moves: list[int]) -> None:
        self.bot, self.name, self.moves = bot, bot.name, moves
        self.rollouts: list[int] = []

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        self.bot.last_rollouts = 0
        action = self.bot.choose(state, actions)
        if self.bot.last_rollouts:  # it searched (else it followed its plan)
            self.rollouts.append(self.bot.last_rollouts)
        self.moves.append(list(actions).index(action))
        return action


class Remote:
    """A seat played by the other revision's worker: before each of its decisions the worker
    replays the moves it has not seen."""

    def __init__(self, worker: Served, moves: list[int]) -> None:
        self.worker, self.moves = worker, moves
        self.name = "mcts"
        self.rollouts: list[int] = []

    def choose(self, state: Any, actions: Sequence[Any]) -> Any:
        from p2p_burgundy import state_hash

        answer = self.worker.ask(json.dumps({"moves": self.moves,
                                             "hash": state_hash(state).hex()}))
        action = actions[answer["action"]]
        if repr(action) != answer["repr"]:
            raise SystemExit(f"the worker chose {answer['repr']}, here {action!r}")
        if answer["rollouts"]:
            self.rollouts.append(answer["rollouts"])
        self.moves.append(answer["action"])
        return action


class CpuClock:
    """Stands for the ``time`` module in the other revision's search: its ``perf_counter``
    is the process's CPU time."""

    perf_counter = staticmethod(time.process_time)


def serve(tree: str, think: float) -> None:
    """Worker loop: import the engine and bots in ``tree`` and play its seats of each game
    (JSON lines: ``new`` starts a game, then each request has the moves so far and the state
    hash, and is answered with the bot's action and its rollouts)."""
    sys.path.insert(0, tree)
    import p2p_burgundy
    from p2p_burgundy import (
        GameConfig,
        apply,
        legal_actions,
        new_game,
        resolve_chance,
        state_hash,
    )
    from p2p_burgundy.cli.sim import chance_entropy
    from p2p_burgundy.cli.strategies import mcts

    where = Path(p2p_burgundy.__file__).resolve().parent.parent
    if where != Path(tree).resolve():
        raise SystemExit(f"imported the engine from {where}, not {tree}")
    # The process's CPU time, as this tree's bots get: a revision's search takes it as its
    # clock, or (before it took one) reads it as its module's ``time.perf_counter``.
    clock: dict[str, Any] = {}
    if "clock" in inspect.signature(mcts.MctsStrategy).parameters:
        clock["clock"] = time.process_time
    else:
        vars(mcts)["time"] = CpuClock
    print("ready", flush=True)
    state: Any = None
    bots: dict[int, Any] = {}
    seed = game = done = 0
    for line in sys.stdin:
        request = json.loads(line)
        if "new" in request:
            players, seed, game, seeds = request["new"]
            state, done = new_game(GameConfig(players=players)), 0
            bots = {int(seat): mcts.MctsStrategy(s, think=think, **clock)
                    for seat, s in seeds.items()}
            print("{}", flush=True)
            continue
        moves = request["moves"]
        while True:
            while state.chance is not None:
                state = resolve_chance(state, chance_entropy(seed, game, state.chance.index))
            if done == len(moves):
                break
            state = apply(state, legal_actions(state)[moves[done]])
            done += 1
        if state_hash(state).hex() != request["hash"]:
            raise SystemExit("the worker's state is not the game's")
        actions = legal_actions(state)
        bot = bots[state.order[state.turn]]
        bot.last_rollouts = 0
        action = bot.choose(state, actions)
        print(json.dumps({"action": actions.index(action), "repr": repr(action),
                          "rollouts": bot.last_rollouts}), flush=True)


def play(condition: str, game: int, think: float, worker: Served | None) -> dict[str, Any]:
    """Game ``game`` of ``condition``: its record (all but the revision and build)."""
    from p2p_burgundy import GameConfig, outcome
    from p2p_burgundy.cli.sim import bot_seed, play_game
    from p2p_burgundy.cli.strategies.mcts import MctsStrategy

    moves: list[int] = []
    if worker is None:
        players, deal, ours = PLAYERS[condition], game, list(range(PLAYERS[condition]))
    else:
        players, deal, ours = 2, game // 2, [game % 2]
    seeds = [bot_seed(SEED, deal, 0, seat) for seat in range(players)]
    bots: list[Local | Remote] = []
    for seat in range(players):
        if seat in ours:
            bots.append(Local(MctsStrategy(seeds[seat], think=think, clock=time.process_time),
                              moves))
        else:
            assert worker is not None
            bots.append(Remote(worker, moves))
    if worker is not None:
        theirs = {seat: seeds[seat] for seat in range(players) if seat not in ours}
        worker.ask(json.dumps({"new": [players, SEED, deal, theirs]}))
    started = time.process_time()
    state, _ = play_game(GameConfig(players=players), bots, SEED, deal)
    result = outcome(state)
    return {"condition": condition, "game": game, "seed": SEED, "deal": deal,
            "scores": list(result.scores), "winner": result.winner, "ours": ours,
            "think": think, "rollouts": [statistics.median(b.rollouts) if b.rollouts else 0
                                         for b in bots],
            "cpu_s": round(time.process_time() - started, 1)}


# --- the records -------------------------------------------------------------------------------

def read(results: Path) -> list[dict[str, Any]]:
    """Every record in ``results`` (none if there is no file yet)."""
    if not results.exists():
        return []
    return [json.loads(line) for line in results.read_text().splitlines() if line.strip()]


def group(record: dict[str, Any]) -> tuple[str, str, str, float, int]:
    """What a record's game is comparable with: condition, bots' revision, build, think time
    and seed."""
    return record["condition"], record["bots"], record["build"], record["think"], record["seed"]


def figure(record: dict[str, Any]) -> float:
    """A game's figure: mean score per seat (self-play), or 1 if this tree's bot won."""
    if record["condition"].startswith("vs-"):
        return 1.0 if record["winner"] in record["ours"] else 0.0
    return statistics.fmean(record["scores"])


def summary(records: list[dict[str, Any]]) -> list[str]:
    """One line per group of comparable records: games, mean, 95% interval, target."""
    groups: dict[tuple[str, str, str, float, int], list[float]] = {}
    for record in records:
        groups.setdefault(group(record), []).append(figure(record))
    lines = []
    for (condition, bots, build, think, seed), values in sorted(groups.items()):
        kind = "vs" if condition.startswith("vs-") else condition
        mean, low, high = share(values) if kind == "vs" else interval(values)
        what = "wins" if kind == "vs" else "mean score per seat"
        lines.append(f"{condition:<11} bots {bots} {build:<8} think {think:g} seed {seed}: "
                     f"{len(values):>3} games, {what} {mean:.3f} ({low:.3f}-{high:.3f}), "
                     f"target {TARGETS[kind]:g}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--condition", choices=(*PLAYERS, "vs"), default="2p")
    parser.add_argument("--games", type=int, default=100,
                        help="games of the condition to have recorded (numbers 0 to GAMES-1)")
    parser.add_argument("--think", type=float, default=1.0, help="CPU seconds per search")
    parser.add_argument("--against", default=AGAINST, metavar="REV",
                        help="the revision of the vs condition")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--part", default="0/1", metavar="K/N",
                        help="play only the games whose number is K modulo N, so that N "
                             "runs side by side share a condition (default 0/1: all)")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.think)
        return 0
    if args.games < 0 or args.think <= 0:
        parser.error("--games must be at least 0 and --think above 0")
    part, parts = parse_part(args.part, parser)
    if args.games:
        run(args.condition, range(part, args.games, parts), args.think, args.against,
            args.results)
    for line in summary(read(args.results)):
        print(line)
    return 0


def parse_part(text: str, parser: argparse.ArgumentParser) -> tuple[int, int]:
    """``K/N`` of ``--part`` as (K, N), or a usage error."""
    k, _, n = text.partition("/")
    if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
        parser.error(f"--part must be K/N with 0 <= K < N, not {text!r}")
    return int(k), int(n)


def run(condition: str, games: Sequence[int], think: float, against: str,
        results: Path) -> None:
    """Play the games of ``condition`` numbered in ``games`` not yet recorded."""
    import p2p_burgundy

    build = "compiled" if p2p_burgundy.compiled_modules() else "pure"
    bots = bots_revision()
    tree = git("rev-parse", "--short", "HEAD").strip()
    with tempfile.TemporaryDirectory(prefix="bench-strength-") as tmp:
        worker = None
        if condition == "vs":
            commit = extract(against, Path(tmp), ("p2p_burgundy", "cli", "net"))
            condition = f"vs-{commit}"
            worker = Served([__file__, "--serve", tmp, "--think", str(think)], Path(tmp),
                            compiled=False)
        done = {r["game"] for r in read(results)
                if group(r) == (condition, bots, build, think, SEED)}
        todo = [g for g in games if g not in done]
        print(f"{condition}: bots {bots}, {build} build, think {think:g} CPU s; "
              f"{len(done)} games recorded, {len(todo)} to play; load average "
              f"{os.getloadavg()[0]:.1f}", flush=True)
        try:
            for game in todo:
                record = {**play(condition, game, think, worker), "bots": bots,
                          "commit": tree, "build": build}
                results.parent.mkdir(parents=True, exist_ok=True)
                with results.open("a") as f:
                    f.write(json.dumps(record) + "\n")
                print(f"game {game}: scores {record['scores']}, rollouts per search "
                      f"{record['rollouts']}, {record['cpu_s']} CPU s", flush=True)
        finally:
            if worker is not None:
                worker.close()


if __name__ == "__main__":
    sys.exit(main())
