"""Head to head (not a test): ``mcts`` with some of its knobs changed against ``mcts`` as it
is, both on the same budget, recorded game by game.

A variant is a set of :class:`~p2p_burgundy.cli.strategies.mcts.SearchParams` fields given
as ``NAME=VALUE`` (``--params opponents=1 horizon=reply``); every other seat plays the
default search. Game ``n`` deals game ``n // P`` of ``burgundy sim``'s seed ``--seed`` (``P``
players), the variant in seat ``n % P``: every deal is played in every seating, so what a
deal's dice give cancels out of the paired margin. Both sides search ``--iterations``
rollouts (default 48), and then a game is the same on any machine, load and build: many
quick games. Or both think ``--think`` seconds a search by the process's CPU time (as
``bench/strength.py`` gives them, and for the same reason): the budget a user's bot has,
where a gain at a few rollouts a search may not hold (docs/performance.md has such a case).
A seed used here has served to choose; ``bench/strength.py`` measures on a seed kept from
that (its ``SEED``'s docstring lists the seeds used).

Each finished game appends one JSON line to ``--results`` (default
``bench/results/h2h.jsonl``): the variant, players, seed, budget (``iterations`` or
``think``), game, deal and the variant's seat, the scores by seat and the winner, the bots'
revision (as ``bench/strength.py`` names it), the tree's commit, the build and the CPU
seconds. A game already recorded for the same variant, players, seed, budget, bots' revision
and build is skipped, so the same command resumes an interrupted run. The summary of every
group recorded ends each run (or is all that ``--games 0`` prints): the variant's share of
wins (95% Wilson interval), its margin a game (its score less the mean of the other seats')
with a 95% interval over the games and over the deals (each deal's mean margin over its
seatings: the paired figure), and the mean scores of the variant and of the others.

Run from the repository root, at low priority on a shared machine::

    nice -n 10 python bench/h2h.py --params opponents=1 --seed 7 --games 300 --jobs 2
    nice -n 10 python bench/h2h.py --params opponents=1 --seed 8 --think 1 --games 200
    python bench/h2h.py --games 0                                  # the summary only
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from strength import bots_revision, git, interval, read, share

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "h2h.jsonl"
ITERATIONS = 48  # rollouts a search: the budget the variants in docs/performance.md met at


def parse_params(texts: Sequence[str]) -> dict[str, Any]:
    """``NAME=VALUE`` texts as SearchParams changes, each value of its field's type;
    ValueError naming what is wrong."""
    from p2p_burgundy.cli.strategies.mcts import DEFAULT_PARAMS, MctsStrategy, SearchParams

    kinds = {f.name: type(getattr(DEFAULT_PARAMS, f.name))
             for f in dataclasses.fields(SearchParams)}
    changes: dict[str, Any] = {}
    for text in texts:
        name, equals, value = text.partition("=")
        kind = kinds.get(name)
        if not equals or kind is None:
            raise ValueError(f"{text!r} is not NAME=VALUE with NAME one of "
                             f"{', '.join(n for n, k in kinds.items() if k in (int, float, str))}")
        if kind not in (int, float, str):
            raise ValueError(f"{name} is not a number or a word: it cannot be given here")
        try:
            changes[name] = kind(value)
        except ValueError:
            raise ValueError(f"{name} must be a {kind.__name__}, not {value!r}") from None
    MctsStrategy(params=dataclasses.replace(DEFAULT_PARAMS, **changes))  # the search's checks
    return changes


def label(changes: dict[str, Any]) -> str:
    """The variant's name in the records: its changes in SearchParams' field order."""
    from p2p_burgundy.cli.strategies.mcts import SearchParams

    order = [f.name for f in dataclasses.fields(SearchParams)]
    return " ".join(f"{name}={changes[name]}" for name in order if name in changes)


Job = tuple[dict[str, Any], int, int, int | None, float | None, int]
"""A game to play: the variant's changes, players, seed, iterations or think, game."""


def play(job: Job) -> dict[str, Any]:
    """Game ``game`` of a head to head: its record (all but the revision and build)."""
    from p2p_burgundy import GameConfig, outcome
    from p2p_burgundy.cli.sim import bot_seed, play_game
    from p2p_burgundy.cli.strategies.mcts import DEFAULT_PARAMS, MctsStrategy

    changes, players, seed, iterations, think, game = job
    deal, seat = divmod(game, players)
    variant = dataclasses.replace(DEFAULT_PARAMS, **changes)
    bots = [MctsStrategy(bot_seed(seed, deal, 0, s), think=think, iterations=iterations,
                         params=variant if s == seat else DEFAULT_PARAMS,
                         clock=time.process_time)
            for s in range(players)]
    started = time.process_time()
    state, _ = play_game(GameConfig(players=players), bots, seed, deal)
    result = outcome(state)
    return {"variant": label(changes), "players": players, "seed": seed,
            "iterations": iterations, "think": think, "game": game, "deal": deal, "seat": seat,
            "scores": list(result.scores), "winner": result.winner,
            "cpu_s": round(time.process_time() - started, 1)}


Group = tuple[str, int, int, str, str, str]


def group(record: dict[str, Any]) -> Group:
    """What a record's game is comparable with: variant, players, seed, budget, bots' revision
    and build."""
    return (record["variant"], record["players"], record["seed"],
            budget(record["iterations"], record["think"]), record["bots"], record["build"])


def budget(iterations: int | None, think: float | None) -> str:
    """A search's budget in words."""
    return f"{iterations} rollouts" if think is None else f"think {think:g} CPU s"


def margin(record: dict[str, Any]) -> float:
    """The variant's score less the mean of the other seats'."""
    scores: list[int] = record["scores"]
    seat: int = record["seat"]
    return scores[seat] - statistics.fmean(s for i, s in enumerate(scores) if i != seat)


def summary(records: list[dict[str, Any]]) -> list[str]:
    """Two lines per group of comparable records: wins, margins and means."""
    groups: dict[Group, list[dict[str, Any]]] = {}
    for record in records:
        groups.setdefault(group(record), []).append(record)
    lines = []
    for (variant, players, seed, spent, bots, build), games in sorted(groups.items()):
        wins = share([1.0 if r["winner"] == r["seat"] else 0.0 for r in games])
        each = interval([margin(r) for r in games])
        deals: dict[int, list[float]] = {}
        for r in games:
            deals.setdefault(r["deal"], []).append(margin(r))
        paired = interval([statistics.fmean(m) for m in deals.values()])
        ours = statistics.fmean(r["scores"][r["seat"]] for r in games)
        others = statistics.fmean(s for r in games for i, s in enumerate(r["scores"])
                                  if i != r["seat"])
        lines.append(f"{variant} ({players}p, seed {seed}, {spent}, bots "
                     f"{bots} {build}): {len(games)} games, wins {wins[0]:.3f} "
                     f"({wins[1]:.3f}-{wins[2]:.3f})")
        lines.append(f"    margin {each[0]:+.2f} ({each[1]:+.2f} to {each[2]:+.2f}), by "
                     f"{len(deals)} deals ({paired[1]:+.2f} to {paired[2]:+.2f}); mean "
                     f"scores {ours:.1f} against {others:.1f}")
    return lines


def run(changes: dict[str, Any], players: int, seed: int, iterations: int | None,
        think: float | None, games: int, jobs: int, results: Path) -> None:
    """Play the games numbered below ``games`` not yet recorded, ``jobs`` at a time."""
    import p2p_burgundy

    build = "compiled" if p2p_burgundy.compiled_modules() else "pure"
    bots = bots_revision()
    tree = git("rev-parse", "--short", "HEAD").strip()
    key = (label(changes), players, seed, budget(iterations, think), bots, build)
    done = {r["game"] for r in read(results) if group(r) == key}
    todo: list[Job] = [(changes, players, seed, iterations, think, g) for g in range(games)
                       if g not in done]
    print(f"{key[0]} against the default search, {players} players, seed {seed}, "
          f"{key[3]} a search: bots {bots}, {build} build; {len(done)} games recorded, "
          f"{len(todo)} to play", flush=True)
    with multiprocessing.Pool(jobs) as pool:
        for played in pool.imap_unordered(play, todo):
            record = {**played, "bots": bots, "commit": tree, "build": build}
            results.parent.mkdir(parents=True, exist_ok=True)
            with results.open("a") as f:
                f.write(json.dumps(record) + "\n")
            print(f"game {record['game']}: scores {record['scores']} (the variant in seat "
                  f"{record['seat']}), {record['cpu_s']} CPU s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--params", nargs="+", default=[], metavar="NAME=VALUE",
                        help="the variant: SearchParams fields changed")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--seed", type=int, default=0, help="burgundy sim's seed of the deals")
    budgets = parser.add_mutually_exclusive_group()
    budgets.add_argument("--iterations", type=int, default=ITERATIONS,
                         help=f"rollouts a search, both sides (default {ITERATIONS})")
    budgets.add_argument("--think", type=float,
                         help="CPU seconds a search, both sides (instead of --iterations)")
    parser.add_argument("--games", type=int, default=100,
                        help="games to have recorded (numbers 0 to GAMES-1)")
    parser.add_argument("--jobs", type=int, default=1, help="games played side by side")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    if args.games < 0 or args.iterations < 1 or args.jobs < 1:
        parser.error("--games must be at least 0, --iterations and --jobs at least 1")
    if args.think is not None and args.think <= 0:
        parser.error("--think must be above 0")
    if args.games:
        if not args.params:
            parser.error("--params: name the variant (NAME=VALUE ...)")
        try:
            changes = parse_params(args.params)
        except ValueError as exc:
            parser.error(f"--params: {exc}")
        iterations = None if args.think is not None else args.iterations
        run(changes, args.players, args.seed, iterations, args.think, args.games, args.jobs,
            args.results)
    for line in summary(read(args.results)):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
