"""Property 7: a flood of garbage and bad-signature datagrams does not stall honest play or
grow memory without bound.

Two players in this process on real UDP sockets; another process sends them thousands of
datagrams a second from 64 source ports (bounded in count and time, loopback only: see
``tests/lan/flooder.py``). The game must finish, the transport's queues must stay within
their bounds (sampled every few milliseconds), the cheap checks must have dropped most of the flood
before any signature check, and traced memory must stay flat (traced after the game, under
the same flood: tracing every allocation would triple the cost of each datagram it measures).
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table, play
from p2p_burgundy.net import wire
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.transport import MAX_QUEUE, Transport

from . import flooder

FLOODER = Path(__file__).with_name("flooder.py")
RATE = 3000  # datagrams per second, from 64 source ports
MAX_DATAGRAMS = 300_000  # bounds: the flooder stops at either (the test stops it sooner)
MAX_SECONDS = 90.0
MIN_FLOOD_SECONDS = 8.0  # of flood, the game included, before the cheap checks are counted
MEMORY_SECONDS = 5.0  # of flood after that, memory traced
MEMORY_GROWTH_LIMIT = 8 * 1024 * 1024  # bytes of traced memory the flood may add


@pytest.mark.slow
def test_flood_does_not_stall_play_or_grow_memory(tmp_path: Path) -> None:
    result: dict[str, object] = {}

    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        session = peers[0].session
        assert session is not None
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
                if tracemalloc.is_tracing():
                    growth[0] = max(growth[0], tracemalloc.get_traced_memory()[0])
                await asyncio.sleep(0.003)

        sampler = asyncio.ensure_future(sample())
        loop = asyncio.get_running_loop()
        flooded = loop.time()
        try:
            await asyncio.sleep(1.0)  # the flood is on before play starts
            started = loop.time()
            overs = await play(peers, timeout=MAX_SECONDS - 5)
            result["game_seconds"] = loop.time() - started
            assert len({o.state_hash for o in overs}) == 1
            # What the cheap checks did with seconds of flood, not just one quick game's.
            await asyncio.sleep(max(0.0, MIN_FLOOD_SECONDS - (loop.time() - flooded)))
            result["stats"] = [stats(p) for p in peers]
            # Then memory, under fire for a while longer: it must stay flat. Not traced
            # before: tracing every allocation triples what each datagram costs, and the
            # play it slows is what we measure.
            tracemalloc.start()
            await asyncio.sleep(MEMORY_SECONDS)
            result["over_while_flooding"] = flood.returncode is None
            flood.terminate()
            result["sent"] = int((await flood.communicate())[0] or b"0")
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
    assert result["over_while_flooding"], "the flood ended before the game: make it longer"
    assert result["sent"] >= 2 * RATE, result  # seconds of flood: thousands of datagrams
    for s, high in zip(result["stats"], result["highest"], strict=True):  # type: ignore[call-overload]
        assert high <= 2 * MAX_QUEUE, result  # the players' queue and everyone else's
        # Most of the flood was dropped by the cheap checks, before decoding or signatures:
        # garbage by its shape, the rest beyond the budget all strangers share, or by the
        # kernel when a loaded machine reads slower than the flood comes (the cheapest drop).
        cheap = s["dropped_strangers"] + s["dropped_full"] + s["kernel_drops"]
        assert s["dropped_shape"] > 0 and cheap > s["received"], result
        assert s["errors"] > 100, result  # forged entries and the like, rejected
    assert result["growth"] < MEMORY_GROWTH_LIMIT, result  # type: ignore[operator]
    files = sorted(tmp_path.glob("p*/games/*.game"))
    assert len(files) == 2 and files[0].read_bytes() == files[1].read_bytes()


def stats(peer: Peer) -> dict[str, int]:
    checks = peer.node.admission.stats
    return {"received": checks.received, "dropped_shape": checks.dropped_shape,
            "dropped_rate": checks.dropped_rate, "dropped_full": peer.transport.dropped_full,
            "dropped_strangers": checks.dropped_strangers, "errors": peer.errors,
            "kernel_drops": peer.transport.kernel_drops}


def test_transport_queue_drops_beyond_its_bound() -> None:
    """The receive queue holds at most MAX_QUEUE datagrams while nobody reads (the rest are
    counted as dropped, not stored)."""

    async def run() -> tuple[int, int]:
        transport = await Transport.open(LOOPBACK, 0)
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sender.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 1 << 20)
        message = wire.encode_message(2, [b"g" * 16, [1], [b"h" * 32]])
        try:
            for _ in range(MAX_QUEUE + 300):
                sender.sendto(message, transport.address)
                await asyncio.sleep(0)  # let the loop read (nobody consumes)
            await asyncio.sleep(0.2)
            return transport.queued, transport.dropped_full
        finally:
            sender.close()
            transport.close()

    queued, dropped = asyncio.run(run())
    assert queued == MAX_QUEUE
    assert dropped >= 250  # the kernel may drop a few of the 300 itself


@pytest.mark.parametrize(("options", "error"), [
    (["--copy"], "--copy needs --entries and --seal: it copies a label onto their seals"),
    (["--entries", "--copy"],
     "--copy needs --entries and --seal: it copies a label onto their seals"),
    (["--seal", "--copy"], "--seal needs --entries: it seals the forged entries"),
])
def test_the_flooder_refuses_options_that_would_send_nothing_they_name(
        options: list[str], error: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        flooder.main(["--targets", "127.0.0.1:9", "--game", "00", "--keys", "00", *options])
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"flooder.py: error: {error}"
