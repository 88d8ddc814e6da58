"""What refusing forged datagrams costs the transport alone, without a game around it.

A :class:`~p2p_burgundy.net.transport.Transport` on 127.0.0.1 whose arrival check refuses
every unsealed datagram from one address (as :meth:`Node.arrival
<p2p_burgundy.net.node.Node.arrival>` refuses a sealing seat's), while ``tests/lan/flooder.py
--entries --spoof`` (a raw socket: needs root) sends it forged entries from that address at
5000 and 20000 a second. For each rate, in turn over the rounds: the CPU time this process
spent during ``--seconds`` of flood, divided by the datagrams refused meanwhile (an idle
transport spends none). Together with ``bench/flood.py`` (the game's wall time under the same
flood) it tells the transport's own cost from the rest.

Run from the repository root, as root::

    python bench/refusals.py              # 5 rounds of 3 s per rate
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.pairwise import is_sealed
from p2p_burgundy.net.transport import Address, Transport

FLOODER = Path(__file__).resolve().parent.parent / "tests" / "lan" / "flooder.py"
RATES = (5000, 20000)
SPOOFED: Address = ("127.0.0.1", 45999)  # the seat whose address the forger sends with


async def flooded(rate: int, seconds: float) -> tuple[float, float]:
    """Datagrams refused a second, and the CPU seconds each cost, during a flood."""
    transport = await Transport.open("127.0.0.1", 0)
    refused = [0]

    def arrival(data: bytes, source: Address) -> Arrival:
        if source == SPOOFED and not is_sealed(data):
            refused[0] += 1
            return Arrival.REFUSE
        return Arrival.QUEUE

    transport.arrival = arrival
    flood = subprocess.Popen(
        [sys.executable, str(FLOODER), "--entries", "--targets",
         f"{transport.address[0]}:{transport.address[1]}", "--spoof",
         f"{SPOOFED[0]}:{SPOOFED[1]}", "--game", "00" * 16, "--keys", "ab" * 32, "--rate",
         str(rate), "--seconds", "600", "--max", str(10**8)], stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while refused[0] < 100 and time.monotonic() < deadline:
            await asyncio.sleep(0.01)  # the flood is on
        before, cpu, started = refused[0], time.process_time(), time.monotonic()
        await asyncio.sleep(seconds)
        cpu = time.process_time() - cpu
        count = refused[0] - before
        return count / (time.monotonic() - started), cpu / max(1, count)
    finally:
        flood.terminate()
        flood.wait()
        transport.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="of flood per measure")
    args = parser.parse_args(argv)
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be at least 1 and --seconds positive")
    if os.geteuid() != 0:
        print("bench/refusals.py sends from another address: run it as root", file=sys.stderr)
        return 2
    results: dict[int, list[tuple[float, float]]] = {rate: [] for rate in RATES}
    print(f"python {platform.python_version()}, {os.cpu_count()} cpus, load average "
          f"{os.getloadavg()[0]:.2f}; {args.rounds} rounds of {args.seconds} s per rate")
    for round_ in range(args.rounds):
        for rate in RATES if round_ % 2 == 0 else RATES[::-1]:
            results[rate].append(asyncio.run(flooded(rate, args.seconds)))
    for rate in RATES:
        each = sorted(cost for _, cost in results[rate])
        arrived = statistics.median(count for count, _ in results[rate])
        print(f"{rate:>6}/s asked: {arrived:.0f}/s refused, {statistics.median(each) * 1e6:.2f} "
              f"us of CPU each [{each[0] * 1e6:.2f}..{each[-1] * 1e6:.2f}]")
    print(f"load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
