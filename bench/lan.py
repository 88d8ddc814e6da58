"""LAN benchmark (not a test): discovery time, turn propagation, whole games over real UDP.

Everything runs on loopback (127.0.0.1), mDNS included (restricted to that interface):

1. **discovery**: a table is announced with :class:`~p2p_burgundy.net.discovery.Announcer`
   while a :class:`~p2p_burgundy.net.discovery.Browser` is already listening; the time from
   the start of the announcement to the browser seeing the table (a player with the list of
   tables open). Also the time for a browser started after the announcement to see it (a
   player who runs ``burgundy tables`` later).
2. **turn propagation**: 4 :class:`~p2p_burgundy.net.peer.Peer` objects in this process, each
   on its own UDP socket, play whole games with random bots; for each turn, the time from
   ``Peer.submit_turn`` (sign, fsync to the game file, send) until the last of the three
   other peers applied it (received, verified, replayed with the engine).
3. **whole games**: the wall time of those in-process games, and of a game between 4
   ``burgundy bot`` processes that find each other by mDNS (from starting the processes until
   all have exited; this includes the interpreters' start, discovery and the 2 s each bot
   lingers after the game to serve late fetches).

Run from the repository root::

    python bench/lan.py                 # the figures in docs/performance.md
    python bench/lan.py --quick         # fewer rounds, noisier
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

from p2p_burgundy import Action
from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table, play
from p2p_burgundy.net.discovery import Announcer, Browser, TableInfo, instance_name
from p2p_burgundy.net.events import TurnApplied
from p2p_burgundy.net.identity import Identity, fingerprint
from p2p_burgundy.net.peer import Peer


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float], unit: float = 1000.0) -> str:
    """``median / p95 / max`` in milliseconds (``unit`` 1000) or seconds (``unit`` 1)."""
    suffix = " ms" if unit == 1000.0 else " s"
    return (f"median {statistics.median(values) * unit:.2f}{suffix}, "
            f"p95 {percentile(values, 0.95) * unit:.2f}{suffix}, "
            f"max {max(values) * unit:.2f}{suffix} (n={len(values)})")


# --- 1. discovery ------------------------------------------------------------------------------


async def discovery_once(n: int, browse_first: bool) -> float:
    identity = Identity.from_private_bytes(os.urandom(32))
    fp = fingerprint(identity.public_key)
    table_id = os.urandom(16)
    info = TableInfo(instance_name(f"bench{n}", fp, table_id), f"bench{n}", fp, table_id, 1, 4,
                     "2011", (LOOPBACK, 40000 + n))
    seen = asyncio.Event()

    def changed(tables: dict[str, TableInfo]) -> None:
        if any(t.fingerprint == fp for t in tables.values()):
            seen.set()

    announcer = Announcer(info, [LOOPBACK])
    browser: Browser | None = None
    try:
        if browse_first:
            browser = Browser([LOOPBACK], changed)
            await browser.start()
            await asyncio.sleep(0.5)  # the browser's own first queries are out of the way
            started = time.perf_counter()
            await announcer.start()
        else:
            await announcer.start()
            await asyncio.sleep(0.5)
            started = time.perf_counter()
            # Made only now: a Zeroconf that already listened would have the table cached.
            browser = Browser([LOOPBACK], changed)
            await browser.start()
        await asyncio.wait_for(seen.wait(), 20)
        return time.perf_counter() - started
    finally:
        if browser is not None:
            await browser.close()
        await announcer.close()


def bench_discovery(rounds: int) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"announce, browser listening": [],
                                   "browse, table announced": []}
    for n in range(rounds):
        out["announce, browser listening"].append(asyncio.run(discovery_once(n, True)))
        out["browse, table announced"].append(asyncio.run(discovery_once(n, False)))
    return out


# --- 2 and 3. turns and games in process -------------------------------------------------------


async def game_in_process(home: Path, seed: int) -> tuple[list[float], float]:
    """One 4-player game between 4 in-process peers; (turn propagation times, game time)."""
    peers, _ = await open_table(home, 4)
    submitted: dict[int, float] = {}
    applied: dict[int, list[float]] = {}

    for peer in peers:
        original_submit = peer.submit_turn
        original_record = peer._record

        async def submit(actions: Sequence[Action], peer: Peer = peer,
                         original: Callable[[Sequence[Action]], Awaitable[None]] = original_submit
                         ) -> None:
            assert peer.session is not None
            submitted[peer.session.turn_number] = time.perf_counter()
            await original(actions)

        def record(event: object, original: Callable[[Any], None] = original_record) -> None:
            if isinstance(event, TurnApplied):
                applied.setdefault(event.turn, []).append(time.perf_counter())
            original(event)

        # Wrapped to time them, each calling the peer's own method as before.
        peer.submit_turn = submit  # type: ignore[method-assign]
        peer._record = record  # type: ignore[method-assign]
    try:
        started = time.perf_counter()
        await play(peers, timeout=300, seed=seed)
        game_time = time.perf_counter() - started
    finally:
        await close_all(peers)
    # Each turn is applied by its author first (inside submit_turn), then by the 3 others.
    times = [max(applied[t]) - submitted[t] for t in submitted if len(applied.get(t, ())) == 4]
    return times, game_time


def bench_games(games: int, home: Path) -> tuple[list[float], list[float]]:
    turns: list[float] = []
    game_times = []
    for g in range(games):
        t, seconds = asyncio.run(game_in_process(home / f"game{g}", g + 1))
        turns += t
        game_times.append(seconds)
    return turns, game_times


def bench_processes(home: Path) -> float:
    """4 ``burgundy bot`` processes, found by mDNS on loopback; seconds until all exited."""
    command = [sys.executable, "-m", "p2p_burgundy.cli.main", "bot", "--strategy", "random",
               "--interface", LOOPBACK, "--timeout", "300"]
    started = time.perf_counter()
    host = subprocess.Popen([*command, "--host", "--players", "4", "--home", str(home / "h"),
                             "--seed", "1"], stdout=subprocess.PIPE, text=True)
    assert host.stdout is not None
    line = host.stdout.readline()  # "hosting at ADDRESS [FINGERPRINT]"
    if "[" not in line:
        host.kill()
        raise SystemExit(f"the host bot did not start (exit {host.wait()}): {line!r}")
    fp = line.rsplit("[", 1)[1].rstrip("]\n")
    bots = [subprocess.Popen([*command, fp, "--home", str(home / f"j{i}"), "--seed", str(i + 2)],
                             stdout=subprocess.DEVNULL) for i in range(3)]
    codes = [p.wait(300) for p in bots] + [host.wait(300)]
    host.stdout.close()
    assert codes == [0, 0, 0, 0], codes
    return time.perf_counter() - started


def fsync_ms(directory: Path) -> float:
    """Mean time of a small append + fsync in ``directory`` (what the game file pays)."""
    path = directory / "fsync-probe"
    with open(path, "ab") as f:
        started = time.perf_counter()
        for _ in range(50):
            f.write(b"x" * 200)
            f.flush()
            os.fsync(f.fileno())
        elapsed = time.perf_counter() - started
    path.unlink()
    return elapsed / 50 * 1000


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"nproc {os.cpu_count()}, {cpu}, {platform.system()} {platform.release()}, "
            f"{platform.python_implementation()} {platform.python_version()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds")
    parser.add_argument("--discovery-rounds", type=int, default=None)
    parser.add_argument("--games", type=int, default=None)
    parser.add_argument("--data-dir", type=Path, action="append", default=None,
                        help="where the peers' game files go (repeat to compare disks; "
                             "default: the temporary directory, then /dev/shm if present)")
    args = parser.parse_args(argv)
    rounds = args.discovery_rounds or (3 if args.quick else 10)
    games = args.games or (1 if args.quick else 5)
    print(machine())
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    for name, values in bench_discovery(rounds).items():
        print(f"discovery ({name}): {summary(values, 1.0)}")
    places = args.data_dir or [Path(tempfile.gettempdir())] + (
        [Path("/dev/shm")] if Path("/dev/shm").is_dir() else [])
    for place in places:
        with tempfile.TemporaryDirectory(prefix="bench-lan-", dir=place) as tmp:
            print(f"game files in {place} (fsync: {fsync_ms(Path(tmp)):.2f} ms)")
            turns, game_times = bench_games(games, Path(tmp))
            print(f"  turn propagation, 4 peers in process: {summary(turns)}")
            print(f"  whole 4-player game in process: {summary(game_times, 1.0)}")
            print(f"  whole 4-player game, 4 bot processes found by mDNS: "
                  f"{bench_processes(Path(tmp) / 'processes'):.2f} s")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
