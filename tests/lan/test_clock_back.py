"""A player whose clock went back while its peer was down is heard again as soon as it
resumes, and the game finishes: two live peers on loopback, the joiner's clock set back an
hour when it restarts (its seals' counters start from what it reserved, net/node.py)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from p2p_burgundy.cli.lan import play_headless
from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.node import COUNTER_BLOCK
from p2p_burgundy.net.peer import Peer, counter_path

TIMEOUT = 120.0
HOUR = 3600 * 10**9  # nanoseconds
HEARD_WITHIN = 2.0  # seconds from resuming until the host hears it (HEADS every 0.5 s)


async def until(condition: object, timeout: float) -> float:
    """Seconds until ``condition()`` holds, polled; AssertionError after ``timeout``."""
    assert callable(condition)
    loop = asyncio.get_running_loop()
    began = loop.time()
    while not condition():
        assert loop.time() < began + timeout, f"not within {timeout} s"
        await asyncio.sleep(0.02)
    return loop.time() - began


@pytest.mark.slow
def test_a_peer_resumed_with_its_clock_an_hour_back_is_heard_at_once(tmp_path: Path) -> None:
    async def run() -> None:
        peers, _ = await open_table(tmp_path, 2)
        host, joiner = peers
        try:
            hosting = asyncio.create_task(play_headless(host, make("random", 10), TIMEOUT))
            playing = asyncio.create_task(play_headless(joiner, make("random", 11), TIMEOUT))
            await until(lambda: joiner.session is not None and joiner.session.turn_number >= 10,
                        TIMEOUT)
            playing.cancel()
            session, port = joiner.session, joiner.address[1]
            assert session is not None and joiner.game_file is not None
            path, saved = joiner.game_file.path, joiner.node.reserved
            await joiner.close()
            assert int(counter_path(tmp_path / "p1", session.game_id).read_bytes()) == saved
            # Shown missing: the host's window on its seals has been relaxed since.
            await until(lambda: 1 in host.missing(), TIMEOUT)
            peers[1] = back = await Peer.open(
                identity(1), tmp_path / "p1", host=LOOPBACK, port=port, announce=False,
                wall_clock=lambda: time.time_ns() - HOUR)
            await back.resume(path)
            # Its first seals are numbered from what it reserved, not the clock's hour-old
            # microseconds, and reserve the next block before they are sent.
            assert back.node.reserved == saved + COUNTER_BLOCK
            assert int(counter_path(tmp_path / "p1", session.game_id).read_bytes()) == \
                saved + COUNTER_BLOCK
            await until(lambda: host.missing() == [], HEARD_WITHIN)
            overs = await asyncio.gather(hosting,
                                         play_headless(back, make("random", 12), TIMEOUT))
            assert overs[0].state_hash == overs[1].state_hash
        finally:
            await close_all(peers)

    asyncio.run(run())
