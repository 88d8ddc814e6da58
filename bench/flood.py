"""Forged entries in a player's name, from its own address: how much they slow a game.

Two :class:`~p2p_burgundy.net.peer.Peer` objects in one process play a whole 2-player game
with random bots over real UDP on loopback, while another process (``tests/lan/flooder.py
--entries --spoof``, a raw socket: needs root) sends the host forged ENTRY datagrams in the
joiner's name that carry the joiner's source address, at 1000, 5000 and 20000 a second, each
rate in four kinds (:data:`KINDS`): unsealed; behind a false seal (``--seal``: a random label,
counter and MAC); behind the label and counter of the pair's latest datagram (``--copy``:
what a forger who sees the pair's traffic can send; the worker taps the joiner's transport,
so the flooder learns each label the moment it is sent, sooner than a forger on the wire
would); and a control that floods, unsealed, a socket nobody reads: what the flooder's own
use of the machine costs the game.

Each game runs in a fresh worker process, on this tree or on the tree of a git revision
``--against`` (one or more; each extracted with ``git archive`` and laid out as it
installs); the flooder is this tree's for all. A round plays every condition on every tree,
the trees in turn, their order reversed every other round, so the machine's load falls on
all alike; a figure is the median over the rounds, with its quartiles, each round's game
against the same tree's game without a flood in that round, and against its game under the
control at the same rate. The flooder runs at ``nice --nice`` (0 by default: a niced flooder
may not reach its rates on a busy machine; the control shows what its share costs).

Reported apart, for each game: how many forged datagrams a second reached the host's
socket (the flooder may not reach its rate) and how many of them our process read (the rest
the kernel's filter dropped); the kernel's drops for a full receive buffer (``RcvbufErrors``
of ``/proc/net/snmp``: the whole machine's, less the control's unread socket's, so an upper
bound); CPU time: the worker's (both peers), the flooder's, and everyone else's on the
machine (``/proc/stat``'s busy time less those two: other jobs, and the kernel's work on
interrupts); the load average; and the host's signature checks for the flood.

Run from the repository root, as root::

    python bench/flood.py --against main               # 5 rounds
    python bench/flood.py --against main --rounds 2    # quicker, noisier
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
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

from engine import extract, quartiles

ROOT = Path(__file__).resolve().parent.parent
FLOODER = ROOT / "tests" / "lan" / "flooder.py"
RATES = (1000, 5000, 20000)
KINDS = (("unsealed", ""), ("false seal", "false"), ("copied label", "copy"),
         ("control", "control"))
"""Each kind of flood: its name and the forged entries' seal (none, a ``false`` one, or one
that ``copy``-ies the label and counter of the pair's latest datagram); the ``control`` floods,
unsealed, a socket nobody reads instead of the host: what the flooder's own use of the
machine costs the game."""
CONDITIONS = (("none", 0, ""), *((f"{rate}/s {kind}", rate, seal) for kind, seal in KINDS
                                 for rate in RATES))
"""Each condition's name, flood rate and seal."""
TICK = os.sysconf("SC_CLK_TCK")  # the unit of /proc's CPU times


def socket_drops(port: int) -> int:
    """The drops the kernel counted for our UDP socket on ``port`` (the last column of
    /proc/net/udp): a full receive buffer, or the socket's filter."""
    for line in Path("/proc/net/udp").read_text().splitlines()[1:]:
        fields = line.split()
        if int(fields[1].split(":")[1], 16) == port:
            return int(fields[-1])
    return 0


def buffer_drops() -> int:
    """Datagrams the kernel dropped for a full receive buffer, on the whole machine."""
    lines = [line.split() for line in Path("/proc/net/snmp").read_text().splitlines()
             if line.startswith("Udp:")]
    return int(lines[1][lines[0].index("RcvbufErrors")])


def machine_busy() -> float:
    """CPU seconds the machine's CPUs spent busy since boot (all but idle and I/O wait)."""
    fields = [int(f) for f in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    return (sum(fields[:8]) - fields[3] - fields[4]) / TICK  # user..steal, less idle, iowait


def process_cpu(pid: int) -> float:
    """CPU seconds process ``pid`` used so far (user and system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


# --- the worker: one game on one tree, its figures as a JSON line ----------------------------

def seal_options(seal: str) -> list[str]:
    """The flooder's options for ``seal`` (see :data:`KINDS`): to copy, where the tree's
    seals carry a label."""
    if seal in ("", "control"):
        return []
    try:
        from p2p_burgundy.net import pairwise
    except ImportError:  # no seals: a false one costs the same
        return ["--seal"]
    if not hasattr(pairwise, "LABEL_SIZE"):  # seals without a label: nothing to copy
        return ["--seal"]
    return ["--seal", "--copy"] if seal == "copy" else ["--seal"]


async def one_game(home: Path, rate: int, seal: str, seed: int, nice: int
                   ) -> dict[str, float]:
    spec = importlib.util.spec_from_file_location("flooder", FLOODER)  # this tree's
    assert spec is not None and spec.loader is not None
    flooder_script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(flooder_script)
    try:
        from p2p_burgundy.cli.loopback import close_all, open_table, play
    except ImportError:  # a revision from before the table left the tests for the package
        # (gone from this tree, so mypy finds no such module: only the older tree has it)
        from tests.lan.inproc import close_all, open_table, play  # type: ignore[no-redef, import-not-found]

    peers, _ = await open_table(home, players=2)
    host, joiner = peers
    session = host.session
    assert session is not None
    flood = None
    elsewhere = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    elsewhere.bind((host.address[0], 0))  # never read: the kernel drops what overflows
    target = host.address if seal != "control" else elsewhere.getsockname()
    copies = None
    stats = host.node.admission.stats

    def arrived() -> int:  # forged datagrams at the target's socket: read, or dropped there
        return stats.unsealed * (target == host.address) + socket_drops(target[1])

    if rate:
        flood = await asyncio.create_subprocess_exec(
            "nice", "-n", str(nice), sys.executable, str(FLOODER), "--entries",
            *seal_options(seal),
            "--targets", f"{target[0]}:{target[1]}",
            "--spoof", f"{joiner.address[0]}:{joiner.address[1]}",
            "--game", session.game_id.hex(), "--keys", joiner.identity.public_key.hex(),
            "--rate", str(rate), "--seconds", "600", "--max", str(10**8),
            stdout=subprocess.PIPE)
        if "--copy" in seal_options(seal):  # it learns each datagram the joiner sends the host
            assert flood.stdout is not None
            copies = flooder_script.tap(joiner.transport, host.address,
                                        int(await flood.stdout.readline()))
        deadline = time.monotonic() + 10
        while arrived() < 100 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the flood is on before the game goes on
    before = (arrived(), stats.unsealed, socket_drops(host.address[1]),
              buffer_drops() - socket_drops(elsewhere.getsockname()[1]),
              0.0 if flood is None else process_cpu(flood.pid), machine_busy())
    started, cpu, load = time.monotonic(), time.process_time(), os.getloadavg()[0]
    try:
        await play(peers, timeout=300, seed=seed)
        seconds = time.monotonic() - started
        cpu = time.process_time() - cpu
        flooder_cpu = 0.0 if flood is None else process_cpu(flood.pid) - before[4]
        busy = machine_busy() - before[5]
        buffer = buffer_drops() - socket_drops(elsewhere.getsockname()[1]) - before[3]
        figures = {
            "seconds": seconds, "cpu": cpu, "flooder_cpu": flooder_cpu,
            "others_cpu": max(0.0, busy - cpu - flooder_cpu), "load": load,
            "arrived_per_s": (arrived() - before[0]) / seconds if target == host.address
            else 0.0,
            "read_per_s": (stats.unsealed - before[1]) / seconds,
            "buffer_drops": buffer,
            "filtered": max(0, socket_drops(host.address[1]) - before[2] - buffer),
            "checks": stats.forged + stats.by_author + stats.dropped_checks}
        if flood is not None:
            flood.terminate()
            await flood.communicate()
        return figures
    finally:
        elsewhere.close()
        if flood is not None and flood.returncode is None:
            flood.kill()
            await flood.wait()
        await close_all(peers)
        if copies is not None:
            copies.close()


def work(tree: str, home: str, rate: int, seal: str, seed: int, nice: int) -> None:
    """Play one game on the package found in ``tree`` and print its figures."""
    sys.path.insert(0, tree)
    import p2p_burgundy.net

    where = Path(p2p_burgundy.net.__file__).resolve().parent
    if not where.is_relative_to(Path(tree).resolve()):
        raise SystemExit(f"imported the network code from {where}, not from {tree}")
    print(json.dumps(asyncio.run(one_game(Path(home), rate, seal, seed, nice))), flush=True)


# --- the parent: extracts the revisions, alternates the trees, reports ------------------------

def run_worker(tree: Path, home: Path, rate: int, seal: str, seed: int, nice: int
               ) -> dict[str, float]:
    done = subprocess.run(
        [sys.executable, __file__, "--work", str(tree), "--home", str(home), "--rate",
         str(rate), "--seal", seal, "--seed", str(seed), "--nice", str(nice)],
        cwd=tree, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(f"the worker on {tree} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.splitlines()[-1])
    return figures


def spread(values: list[float], scale: float = 1.0, form: str = "{:.2f}") -> str:
    """The median of ``values`` times ``scale``, its quartiles in brackets."""
    low, median, high = (form.format(v * scale) for v in quartiles(values))
    return f"{median} [{low}..{high}]"


def report(runs: list[dict[str, float]], calm: list[dict[str, float]],
           control: list[dict[str, float]] | None) -> str:
    """One condition's line, against the same tree's games without a flood (``calm``), round
    by round: the median of each round's ratio, its quartiles in brackets (the machine's load
    moves single games by tens of percent), then against its games under the ``control``
    flood at the same rate (what is left once the flooder's share of the machine is paid),
    and the medians of the figures."""
    pairs = list(zip(runs, calm, strict=True))
    slower = [r["seconds"] / c["seconds"] - 1 for r, c in pairs]
    than_control = ("" if control is None else " against the control " + spread(
        [r["seconds"] / c["seconds"] - 1 for r, c in zip(runs, control, strict=True)], 100,
        "{:+.0f}%"))
    costlier = [r["cpu"] / c["cpu"] - 1 for r, c in pairs]
    each = [(r["cpu"] - c["cpu"]) / (r["arrived_per_s"] * r["seconds"])
            for r, c in pairs if r["arrived_per_s"]]
    median = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    return (f"game {spread(slower, 100, '{:+.0f}%')}{than_control} "
            f"({median['seconds']:.2f} s); "
            f"CPU {spread(costlier, 100, '{:+.0f}%')} ({median['cpu']:.2f} s"
            + (f", {spread(each, 1e6, '{:.1f}')} us a forged datagram" if each else "")
            + f"); flooder {median['flooder_cpu']:.2f} s, others "
            f"{median['others_cpu']:.2f} s; arriving {median['arrived_per_s']:.0f}/s, read "
            f"{median['read_per_s']:.0f}/s, filtered {median['filtered']:.0f}, buffer drops "
            f"{median['buffer_drops']:.0f}, signature checks {median['checks']:.0f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", action="append", metavar="REV",
                        help="git revision to compare with (repeat for more; default HEAD)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--nice", type=int, default=0, help="the flooder's niceness")
    parser.add_argument("--work", metavar="TREE", help=argparse.SUPPRESS)
    parser.add_argument("--home", help=argparse.SUPPRESS)
    parser.add_argument("--rate", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seal", default="", help=argparse.SUPPRESS)
    parser.add_argument("--seed", type=int, default=1, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.work:
        work(args.work, args.home, args.rate, args.seal, args.seed, args.nice)
        return 0
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if os.geteuid() != 0:
        print("bench/flood.py sends from another address: run it as root", file=sys.stderr)
        return 2
    results: dict[tuple[str, int, str], list[dict[str, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="bench-flood-") as tmp:
        trees = [("this tree", ROOT)]
        for n, rev in enumerate(args.against or ["HEAD"]):
            tree = Path(tmp) / f"tree{n}"
            # tests: where an older revision keeps the in-process table
            trees.append((extract(rev, tree, ("p2p_burgundy", "net", "cli", "tests")), tree))
        print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average "
              f"{os.getloadavg()[0]:.2f}; this tree against "
              f"{', '.join(name for name, _ in trees[1:])}; flooder at nice {args.nice}; "
              f"{args.rounds} rounds", flush=True)
        for round_ in range(args.rounds):
            for label, rate, seal in CONDITIONS:
                for name, tree in trees if round_ % 2 == 0 else trees[::-1]:
                    home = Path(tmp) / f"r{round_}-{rate}-{seal}-{name.replace(' ', '-')}"
                    figures = run_worker(tree, home, rate, seal, round_ + 1, args.nice)
                    results.setdefault((name, rate, seal), []).append(figures)
                    print(f"round {round_ + 1}, {name}, {label}: "
                          f"{json.dumps({k: round(v, 3) for k, v in figures.items()})}",
                          flush=True)
    loads = [r["load"] for runs in results.values() for r in runs]
    print(f"\nload average {os.getloadavg()[0]:.2f} (during the games: "
          f"{spread(loads)}); {args.rounds} games each; percentages: each round's game "
          "against the same tree's game without a flood in that round (and under the "
          "control flood at that rate), median [quartiles]; CPU seconds a game, median")
    for name, _ in trees:
        print(f"{name}:")
        for label, rate, seal in CONDITIONS:
            control = None if seal in ("", "control") else results[(name, rate, "control")]
            line = report(results[(name, rate, seal)], results[(name, 0, "")], control)
            print(f"  {label:>21}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
