"""Big-screen benchmark (not a test): how fast a turn reaches the page with 1 and with 50
viewers, and what a view costs to build.

4-player games are played turn by turn with the sans-I/O sessions of the in-memory table
(``net/inmemory.py``), and the snapshot after each turn is kept. A
:class:`~p2p_burgundy.cli.web.server.WebServer` serves a
:class:`~p2p_burgundy.cli.web.feed.LiveFeed` on loopback, and viewers hold its event stream
open (aiohttp clients in a second process, as browsers would be elsewhere). For each turn
the next snapshot is "published" (the reference the feed reads is replaced, as ``Peer``
does) and the time until the last viewer has the new view is measured (``time.monotonic``,
one clock for both processes). Batches with 1 and with 50 viewers alternate in
one run, so both see the same machine load.

Also: the time to build one view from a snapshot and encode it (``snapshot_view`` and
``encode``), and the size of a view.

Run from the repository root::

    python bench/web.py            # the figures in docs/performance.md
    python bench/web.py --quick    # fewer turns, noisier
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import platform
import statistics
import sys
import time
from multiprocessing.connection import Connection

import aiohttp

from p2p_burgundy.cli.web.feed import LiveFeed, encode
from p2p_burgundy.cli.web.server import WebServer
from p2p_burgundy.cli.web.view import snapshot_view
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.snapshot import Snapshot, Snapshots


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> str:
    return (f"median {statistics.median(values) * 1000:.1f} ms, p95 "
            f"{percentile(values, 0.95) * 1000:.1f} ms, max {max(values) * 1000:.1f} ms "
            f"(n={len(values)})")


def snapshots_of_games(count: int) -> list[Snapshot]:
    """``count`` snapshots, each after one more turn (of as many 4-player games as it takes:
    a game has about 100 turns)."""
    taken: list[Snapshot] = []
    seed = 7
    while len(taken) < count:
        table = Table(4, seed=seed)
        snapshots = Snapshots(table.sessions[0])
        table.pump()
        taken.append(snapshots.take(missing=[]))
        while not table.sessions[0].over and len(taken) < count:
            table.play(turns=1)
            taken.append(snapshots.take(missing=[]))
        seed += 1
    return taken


async def _viewers(url: str, viewers: int, turns: int, report: Connection) -> None:
    """In the viewers' process: hold ``viewers`` streams open; once every one has its first
    view say so, then, for each of ``turns`` new views, send the time the last of them got
    it (``time.monotonic``: one clock for both processes)."""
    got = [0] * viewers
    arrived: list[list[float]] = [[] for _ in range(turns + 1)]
    done = [asyncio.Event() for _ in range(turns + 1)]

    async def viewer(i: int, session: aiohttp.ClientSession) -> None:
        async with session.get(url + "events",
                               timeout=aiohttp.ClientTimeout(total=None)) as stream:
            async for line in stream.content:
                if line.startswith(b"data: ") and got[i] <= turns:
                    arrived[got[i]].append(time.monotonic())
                    if len(arrived[got[i]]) == viewers:
                        done[got[i]].set()
                    got[i] += 1

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        tasks = [asyncio.ensure_future(viewer(i, session)) for i in range(viewers)]
        for k in range(turns + 1):
            await done[k].wait()
            report.send(max(arrived[k]))
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def viewers_process(url: str, viewers: int, turns: int, report: Connection) -> None:
    asyncio.run(_viewers(url, viewers, turns, report))


async def batch(server: WebServer, source: list[Snapshot], snapshots: list[Snapshot],
                viewers: int) -> list[float]:
    """Publish each of ``snapshots`` in turn with ``viewers`` streams open (in a process of
    their own); the time from each publication until the last viewer has it."""
    loop = asyncio.get_running_loop()
    ours, theirs = multiprocessing.get_context("spawn").Pipe()
    process = multiprocessing.get_context("spawn").Process(
        target=viewers_process, args=(server.url, viewers, len(snapshots), theirs))
    process.start()
    await asyncio.wait_for(loop.run_in_executor(None, ours.recv), 60)  # all have a view
    latencies = []
    for snapshot in snapshots:
        published = time.monotonic()
        source[0] = snapshot
        last = await asyncio.wait_for(loop.run_in_executor(None, ours.recv), 10)
        latencies.append(last - published)
    await loop.run_in_executor(None, process.join, 10)
    return latencies


async def run(turns: int, rounds: int) -> None:
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, {turns} turns a batch, "
          f"{rounds} batches of each")
    taken = snapshots_of_games(turns * rounds * 2 + 1)
    builds, sizes = [], []
    for snapshot in taken:
        start = time.perf_counter()
        body = encode(snapshot_view(snapshot))
        builds.append(time.perf_counter() - start)
        sizes.append(len(body))
    print(f"build and encode one view: {summary(builds)}; a view is {min(sizes)} to "
          f"{max(sizes)} bytes")
    source = [taken[0]]
    server = WebServer(LiveFeed(lambda: source[0]), "127.0.0.1", 0)
    await server.start()
    results: dict[int, list[float]] = {1: [], 50: []}
    try:
        rest = taken[1:]
        for r in range(rounds):
            for viewers in (1, 50):
                chunk, rest = rest[:turns], rest[turns:]
                results[viewers] += await batch(server, source, chunk, viewers)
            print(f"  batch {r + 1}/{rounds} done", file=sys.stderr)
    finally:
        await server.close()
    for viewers, latencies in results.items():
        print(f"turn to the last of {viewers:>2} viewer{'s' if viewers > 1 else ' '}: "
              f"{summary(latencies)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer turns, noisier")
    args = parser.parse_args()
    asyncio.run(run(turns=10 if args.quick else 20, rounds=2 if args.quick else 4))


if __name__ == "__main__":
    main()
