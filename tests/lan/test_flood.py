"""Property 7: a flood of garbage and bad-signature datagrams does not stall honest play or
grow memory without bound.

Two players in this process on real UDP sockets; another process sends them thousands of
datagrams a second from 64 source ports (bounded in count and time, loopback only: see
``tests/lan/flooder.py``). The game must finish, every transport queue must stay within its
bound (sampled every few milliseconds), the cheap checks must have dropped most of the flood
before any signature check, and traced memory must stay flat.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.transport import MAX_QUEUE

from .inproc import close_all, open_table, play

pytestmark = pytest.mark.slow

FLOODER = Path(__file__).with_name("flooder.py")
RATE = 4000  # datagrams per second
MAX_DATAGRAMS = 80_000
MAX_SECONDS = 25.0
MEMORY_GROWTH_LIMIT = 8 * 1024 * 1024  # bytes of traced memory the flood may add


def test_flood_does_not_stall_play_or_grow_memory(tmp_path: Path) -> None:
    result: dict[str, object] = {}

    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        session = peers[0].session
        assert session is not None
        tracemalloc.start()
        baseline = tracemalloc.get_traced_memory()[0]
        flood = await asyncio.create_subprocess_exec(
            sys.executable, str(FLOODER),
            "--targets", ",".join(f"{p.address[0]}:{p.address[1]}" for p in peers),
            "--game", session.game_id.hex(),
            "--keys", ",".join(s.key.hex() for s in session.seats),
            "--rate", str(RATE), "--seconds", str(MAX_SECONDS), "--max", str(MAX_DATAGRAMS),
            stdout=subprocess.PIPE)
        highest = [0] * len(peers)
        growth = [0]

        async def sample() -> None:
            while True:
                for i, p in enumerate(peers):
                    highest[i] = max(highest[i], p.transport.queued)
                growth[0] = max(growth[0], tracemalloc.get_traced_memory()[0] - baseline)
                await asyncio.sleep(0.003)

        sampler = asyncio.ensure_future(sample())
        try:
            await asyncio.sleep(1.0)  # the flood is on before play starts
            overs = await play(peers, timeout=120)
            result["over_while_flooding"] = flood.returncode is None
            assert len({o.state_hash for o in overs}) == 1
            result["sent"] = int((await flood.communicate())[0] or b"0")
            result["stats"] = [stats(p) for p in peers]
            result["highest"] = highest
            result["growth"] = growth[0]
        finally:
            sampler.cancel()
            if flood.returncode is None:
                flood.kill()
                await flood.wait()
            tracemalloc.stop()
            await close_all(peers)

    asyncio.run(run())
    print(result)
    assert result["over_while_flooding"], "the flood ended before the game: make it longer"
    assert result["sent"] >= 10_000, result
    for s, high in zip(result["stats"], result["highest"], strict=True):  # type: ignore[call-overload]
        assert high <= MAX_QUEUE, result
        # Most of the flood was dropped by the cheap checks, before decoding or signatures.
        assert s["dropped_shape"] + s["dropped_rate"] + s["dropped_full"] > 0, result
        assert s["errors"] > 100, result  # forged entries and the like, rejected
    assert result["growth"] < MEMORY_GROWTH_LIMIT, result  # type: ignore[operator]
    files = sorted(tmp_path.glob("p*/games/*.game"))
    assert len(files) == 2 and files[0].read_bytes() == files[1].read_bytes()


def stats(peer: Peer) -> dict[str, int]:
    t = peer.transport
    return {"received": t.stats.received, "dropped_shape": t.stats.dropped_shape,
            "dropped_rate": t.stats.dropped_rate, "dropped_full": t.dropped_full,
            "errors": peer.errors}
