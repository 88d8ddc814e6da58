"""Forged entries in a player's name, from its own address: how much they slow a game.

Two :class:`~p2p_burgundy.net.peer.Peer` objects in one process play a whole 2-player game
with random bots over real UDP on loopback, while another process (``tests/lan/flooder.py
--entries --spoof``, a raw socket: needs root) sends the host forged ENTRY datagrams in the
joiner's name that carry the joiner's source address, at 1000, 5000 and 20000 a second. A
control condition floods, at 5000 a second, a socket nobody reads: it costs the game only the
flooder's own use of the CPUs.

Each game runs in a fresh worker process, on this tree or on the tree of the git revision
``--against`` (extracted with ``git archive`` and laid out as it installs); the flooder is
this tree's for both. A round plays every condition on both trees, the trees in turn (ABBA
over the rounds), so the machine's load falls on all alike; a figure is the median over the
rounds, each round's game against the same tree's game without a flood in that round. The
flooder runs at ``nice --nice`` (0 by default: a niced flooder may not reach its rates on a
busy machine; the control condition shows what its share of the CPUs costs the game).
Reported apart: how many forged datagrams a second really reached the host during the game
(the flooder, a Python process, may not reach its rate), what the host's kernel dropped
(``/proc/net/udp``, the socket's drops: a full receive buffer), the worker's CPU time (both
peers), and the host's signature checks for the flood.

Run from the repository root, as root::

    python bench/flood.py --against 400c5f2              # 5 rounds
    python bench/flood.py --against 400c5f2 --rounds 2   # quicker, noisier
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine import extract

ROOT = Path(__file__).resolve().parent.parent
FLOODER = ROOT / "tests" / "lan" / "flooder.py"
CONDITIONS = (("none", 0), ("1000/s", 1000), ("5000/s", 5000), ("20000/s", 20000),
              ("5000/s elsewhere", -5000))
"""Each condition's label and flood rate; a negative rate floods a socket nobody reads
instead of the host (the control: what the flooder's own CPU use costs the game)."""


def kernel_drops(port: int) -> int:
    """The drops the kernel counted for our UDP socket on ``port`` (last column)."""
    for line in Path("/proc/net/udp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port:
            return int(fields[-1])
    return 0


# --- the worker: one game on one tree, its figures as a JSON line ----------------------------

async def one_game(home: Path, rate: int, seed: int, nice: int) -> dict[str, float]:
    try:
        from p2p_burgundy.cli.loopback import close_all, open_table, play
    except ImportError:  # a revision from before the table left the tests for the package
        from tests.lan.inproc import close_all, open_table, play  # type: ignore[no-redef]

    peers, _ = await open_table(home, players=2)
    host, joiner = peers
    session = host.session
    assert session is not None
    flood = None
    elsewhere = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    elsewhere.bind((host.address[0], 0))  # never read: the kernel drops what overflows
    target = host.address if rate > 0 else elsewhere.getsockname()
    if rate:
        flood = await asyncio.create_subprocess_exec(
            "nice", "-n", str(nice), sys.executable, str(FLOODER), "--entries",
            "--targets", f"{target[0]}:{target[1]}",
            "--spoof", f"{joiner.address[0]}:{joiner.address[1]}",
            "--game", session.game_id.hex(), "--keys", joiner.identity.public_key.hex(),
            "--rate", str(abs(rate)), "--seconds", "600", "--max", str(10**8),
            stdout=subprocess.PIPE)
        stats = host.node.admission.stats
        deadline = time.monotonic() + 10
        while (stats.unsealed < 100 if rate > 0 else kernel_drops(target[1]) < 100) \
                and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the flood is on before the game goes on
    drops = kernel_drops(host.address[1])
    unsealed = host.node.admission.stats.unsealed
    started, cpu = time.monotonic(), time.process_time()
    try:
        await play(peers, timeout=300, seed=seed)
        seconds = time.monotonic() - started
        cpu = time.process_time() - cpu
        stats = host.node.admission.stats
        arrived = stats.unsealed - unsealed  # forged datagrams that reached the host meanwhile
        if flood is not None:
            flood.terminate()
            await flood.communicate()
        return {"seconds": seconds, "cpu": cpu, "arrived_per_s": arrived / seconds,
                "kernel_drops": kernel_drops(host.address[1]) - drops,
                "checks": stats.forged + stats.by_author + stats.dropped_checks}
    finally:
        elsewhere.close()
        if flood is not None and flood.returncode is None:
            flood.kill()
            await flood.wait()
        await close_all(peers)


def work(tree: str, home: str, rate: int, seed: int, nice: int) -> None:
    """Play one game on the package found in ``tree`` and print its figures."""
    sys.path.insert(0, tree)
    import p2p_burgundy.net

    where = Path(p2p_burgundy.net.__file__).resolve().parent
    if not where.is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported the network code from {where}, not from {tree}")
    print(json.dumps(asyncio.run(one_game(Path(home), rate, seed, nice))), flush=True)


# --- the parent: extracts the revision, alternates the trees, reports -------------------------

def run_worker(tree: Path, home: Path, rate: int, seed: int, nice: int) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--work", str(tree), "--home", str(home), "--rate",
         str(rate), "--seed", str(seed), "--nice", str(nice)],
        cwd=tree, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"the worker on {tree} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def report(runs: list[dict[str, float]], calm: list[dict[str, float]]) -> str:
    """One condition's line, against the same tree's games without a flood (``calm``), round
    by round: the median of each round's ratio, the rounds' range in brackets (the machine's
    load moves single games by tens of percent), and the medians of the figures."""
    slower = sorted(r["seconds"] / c["seconds"] - 1 for r, c in zip(runs, calm, strict=True))
    costlier = sorted(r["cpu"] / c["cpu"] - 1 for r, c in zip(runs, calm, strict=True))
    each = [(r["cpu"] - c["cpu"]) / (r["arrived_per_s"] * r["seconds"])
            for r, c in zip(runs, calm, strict=True) if r["arrived_per_s"]]
    return (f"game {statistics.median(slower) * 100:+.0f}% [{slower[0] * 100:+.0f}%.."
            f"{slower[-1] * 100:+.0f}%] ({statistics.median(r['seconds'] for r in runs):.2f} s), "
            f"CPU {statistics.median(costlier) * 100:+.0f}% "
            f"({statistics.median(r['cpu'] for r in runs):.2f} s"
            + (f", {statistics.median(each) * 1e6:.1f} us a forged datagram" if each else "")
            + f"), arriving {statistics.median(r['arrived_per_s'] for r in runs):.0f}/s, "
            f"kernel drops {statistics.median(r['kernel_drops'] for r in runs):.0f}, "
            f"signature checks {statistics.median(r['checks'] for r in runs):.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="HEAD", metavar="REV",
                        help="git revision to compare with (default HEAD)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--nice", type=int, default=0, help="the flooder's niceness")
    parser.add_argument("--work", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--home", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:
        work(args.work, args.home, args.rate, args.seed, args.nice)
        return 0
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if os.geteuid() != 0:
        print("bench/flood.py sends from another address: run it as root", file=sys.stderr)
        return 2
    results: dict[tuple[str, int], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-flood-") as tmp:
        theirs = Path(tmp) / "tree"
        # tests: where an older revision keeps the in-process table
        commit = extract(args.against, theirs, ("p2p_burgundy", "net", "cli", "tests"))
        print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average "
              f"{os.getloadavg()[0]:.2f}; this tree against {args.against} ({commit}); "
              f"flooder at nice {args.nice}; {args.rounds} rounds", flush=True)
        for round_ in range(args.rounds):
            trees = (("this tree", ROOT), (commit, theirs))
            for label, rate in CONDITIONS:
                for name, tree in trees if round_ % 2 == 0 else trees[::-1]:
                    home = Path(tmp) / f"r{round_}-{rate}-{name.replace(' ', '-')}"
                    figures = run_worker(tree, home, rate, round_ + 1, args.nice)
                    results.setdefault((name, rate), []).append(figures)
                    print(f"round {round_ + 1}, {name}, {label}: "
                          f"{json.dumps({k: round(v, 3) for k, v in figures.items()})}",
                          flush=True)
    print(f"\nload average {os.getloadavg()[0]:.2f}; {args.rounds} games each; percentages: "
          "each round's game against the same tree's game without a flood in that round, "
          "median [range]")
    for name in ("this tree", commit):
        print(f"{name}:")
        for label, rate in CONDITIONS:
            print(f"  {label:>16}: {report(results[(name, rate)], results[(name, 0)])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
