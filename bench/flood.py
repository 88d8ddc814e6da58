"""Forged entries in a player's name, from its own address: how much they slow a game.

Two :class:`~p2p_burgundy.net.peer.Peer` objects in this process play whole games with random
bots over real UDP on loopback, while another process (``tests/lan/flooder.py --entries
--spoof``, a raw socket: needs root) sends the host forged ENTRY datagrams in the joiner's
name that carry the joiner's source address, at 1000, 5000 and 20000 a second. Conditions
alternate within each round (no flood, then each rate), so the machine's load falls on all of
them alike; the figure is each rate's median game time against the median without a flood.
A control condition floods, at 5000 a second, a socket nobody reads: it costs the game only
the flooder's own use of the CPUs.
Reported apart: how many forged datagrams a second really reached the host during the game
(the flooder, a Python process on the same cores, may not reach its rate), what the host's
kernel dropped
(``/proc/net/udp``, the socket's drops: a full receive buffer), the CPU time of this process
(both peers) against the game without a flood (the flooder is another process, on the same
cores), and the host's counters (datagrams that failed the MAC, signature checks).

Run from the repository root, as root::

    python bench/flood.py              # 5 rounds
    python bench/flood.py --rounds 2   # quicker, noisier
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.lan.inproc import close_all, open_table, play  # noqa: E402

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


async def one_game(home: Path, rate: int, seed: int) -> dict[str, float]:
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
            sys.executable, str(FLOODER), "--entries",
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    if os.geteuid() != 0:
        print("bench/flood.py sends from another address: run it as root", file=sys.stderr)
        return 2
    results: dict[int, list[dict[str, float]]] = {rate: [] for _, rate in CONDITIONS}
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):
            for label, rate in CONDITIONS:
                home = Path(tmp) / f"r{round_}-{rate}"
                results[rate].append(asyncio.run(one_game(home, rate, seed=round_ + 1)))
                print(f"round {round_ + 1}, {label}: {results[rate][-1]}", flush=True)
    base = statistics.median(r["seconds"] for r in results[0])
    base_cpu = statistics.median(r["cpu"] for r in results[0])
    print(f"\n{platform.python_version()}, {os.cpu_count()} cores, load "
          f"{os.getloadavg()[0]:.1f}; {args.rounds} games per condition (medians)")
    for label, rate in CONDITIONS:
        runs = results[rate]
        seconds = statistics.median(r["seconds"] for r in runs)
        cpu = statistics.median(r["cpu"] for r in runs)
        print(f"{label:>16}: game {seconds:.2f} s ({(seconds / base - 1) * 100:+.0f}%), "
              f"our CPU {cpu:.2f} s ({(cpu / base_cpu - 1) * 100:+.0f}%), "
              f"forged arriving {statistics.median(r['arrived_per_s'] for r in runs):.0f}/s "
              f"(each failed the MAC), kernel drops "
              f"{statistics.median(r['kernel_drops'] for r in runs):.0f}, signature checks "
              f"for the flood {statistics.median(r['checks'] for r in runs):.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
