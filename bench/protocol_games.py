"""Protocol benchmark (not a test): whole in-process network games, this tree against a named
git revision's.

A game here is the in-memory table's (``net/inmemory.py``): every peer a real ``Session``,
joined by an in-memory link, played to the end by seeded random bots (the same games on both
trees, as long as their rules agree). It is what the network tests spend their time on:
every entry signed, sent to each peer, decoded, verified, filed, and the game advanced by
each peer.

Load from other processes moves absolute timings by a factor of two on a shared machine, so
the figure is a ratio measured side by side in one run. This tree's ``p2p_burgundy``,
``net``, ``cli`` and ``tests`` are copied, and the revision's extracted with ``git archive``,
each into a temporary folder laid out as the package installs (``net`` as
``p2p_burgundy/net``). Each batch runs in a fresh ``python -S`` process that imports only
from its folder (and the installed dependencies), and reports the CPU time its games took;
the two trees take turns, in ABBA order within each round. The ratio of a round is the
revision's time over this tree's (above 1: this tree is faster); the report gives the median
over the rounds and its quartiles, and each tree's median CPU time per game.

Run from the repository root::

    python bench/protocol_games.py --against 19251fa      # figures in docs/performance.md
    python bench/protocol_games.py --rounds 3             # quicker, noisier (against HEAD)
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

from engine import extract

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("p2p_burgundy", "net", "cli", "tests")  # tests: an older revision's table is there
INSTALLED_AS = {"net": "p2p_burgundy/net", "cli": "p2p_burgundy/cli"}


def serve(tree: str, site: str, players: int, seeds: list[int]) -> None:
    """Worker: play one whole game per seed with ``players`` peers from ``tree``'s code;
    print the CPU seconds they took. ``site``: the installed dependencies' folder (added
    without its .pth hooks, which would import this tree's package)."""
    sys.path.insert(0, tree)
    sys.path.append(site)
    import p2p_burgundy.net.session

    try:
        from p2p_burgundy.net.inmemory import Table
    except ImportError:  # a revision from before the table left the tests for the package
        # (gone from this tree, so mypy finds no such module: only the older tree has it)
        from tests.net.harness import Table  # type: ignore[no-redef, import-not-found]

    where = Path(p2p_burgundy.net.session.__file__).resolve()
    if not where.is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported the session from {where}, not from {tree}")
    start = time.process_time()
    for seed in seeds:
        Table(players, seed=seed).play()
    print(json.dumps(time.process_time() - start))


def lay_out(tree: Path) -> None:
    """Make ``tree`` (holding FOLDERS) importable as the package installs."""
    for folder, installed in INSTALLED_AS.items():
        (tree / installed).symlink_to(tree / folder, target_is_directory=True)


def copy_this_tree(into: Path) -> None:
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, into / folder,
                        ignore=shutil.ignore_patterns("__pycache__"))
    lay_out(into)


def batch(tree: Path, players: int, seeds: list[int]) -> float:
    run = subprocess.run(
        [sys.executable, "-S", __file__, "--serve", str(tree), "--players", str(players),
         "--seeds", ",".join(map(str, seeds)), "--site", sysconfig.get_paths()["purelib"]],
        cwd=tree, check=True, capture_output=True, text=True)
    seconds: float = json.loads(run.stdout)
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="HEAD", metavar="REV",
                        help="git revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of ABBA batches")
    parser.add_argument("--games", type=int, default=3,
                        help="games per batch and player count (2 and 4 players)")
    parser.add_argument("--serve", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--players", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--seeds", help=argparse.SUPPRESS)
    parser.add_argument("--site", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        serve(args.serve, args.site, args.players, [int(s) for s in args.seeds.split(",")])
        return 0
    print(f"python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or platform.platform()}")
    with tempfile.TemporaryDirectory(prefix="bench-protocol-") as tmp:
        mine, theirs = Path(tmp) / "this", Path(tmp) / "rev"
        copy_this_tree(mine)
        commit = extract(args.against, theirs, FOLDERS)
        print(f"this tree against {commit}: {args.rounds} rounds, {args.games} games of 2 and "
              f"of 4 players per batch, CPU time")
        for players in (2, 4):
            ratios: list[float] = []
            times: dict[Path, list[float]] = {mine: [], theirs: []}
            for round_ in range(args.rounds):
                seeds = [round_ * args.games + i for i in range(args.games)]
                order = (mine, theirs, theirs, mine) if round_ % 2 else (theirs, mine, mine,
                                                                         theirs)
                took = {mine: 0.0, theirs: 0.0}
                for tree in order:
                    took[tree] += batch(tree, players, seeds) / 2
                ratios.append(took[theirs] / took[mine])
                for tree in took:
                    times[tree].append(took[tree] / args.games)
            q1, q2, q3 = statistics.quantiles(ratios, n=4) if len(ratios) > 1 else ratios * 3
            print(f"{players} players: {commit} / this tree = {q2:.2f} (quartiles {q1:.2f}-"
                  f"{q3:.2f}); per game {statistics.median(times[theirs]):.2f} s against "
                  f"{statistics.median(times[mine]):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
