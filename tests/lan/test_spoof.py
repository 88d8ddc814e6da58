"""A spoofed source address cannot starve a seat (property 13).

Two players in this process on real UDP sockets; another process sends the host 1000 datagrams
a second that carry the *joiner's* source address (written as whole IP packets on a raw socket,
so the test needs root): garbage, forged entries in the joiner's name, HEADS claiming more,
HELLOs, forged entries behind a false seal. None of its session messages carries the
joiner's MAC (net/pairwise.py): once the joiner seals, the kernel drops every one without a
label the joiner's window takes (the transport's socket filter), and before that each costs
the host one hash; none is decoded (no signature check) or gets a reply, so the joiner's own
datagrams keep their budget, and the game finishes while the flood goes on.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from p2p_burgundy.cli.loopback import close_all, open_table, play

from .flooder import spoofed_flood

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="sending from another address needs root"),
]

RATE = 1000  # datagrams per second, all with the joiner's address
FLOOD_SECONDS = 60.0  # longer than the game may take: it must finish during the flood
REFUSED_BEFORE_PLAY = 200  # datagrams of the flood refused before play (kernel or MAC)


def test_a_spoofed_flood_from_a_players_address_does_not_starve_its_seat(tmp_path: Path) -> None:
    result: dict[str, object] = {}

    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        host, victim = peers
        stats = host.node.admission.stats
        try:
            async with spoofed_flood(host, victim, RATE, FLOOD_SECONDS) as flood:
                loop = asyncio.get_running_loop()
                deadline = loop.time() + 10.0
                while (stats.unsealed + host.transport.kernel_drops < REFUSED_BEFORE_PLAY
                       and loop.time() < deadline):
                    await asyncio.sleep(0.05)  # until the flood is on
                result["refused_before_play"] = stats.unsealed + host.transport.kernel_drops
                started = loop.time()
                overs = await play(peers, timeout=FLOOD_SECONDS - 10)
                result["game_seconds"] = loop.time() - started
                assert len({o.state_hash for o in overs}) == 1
                result["over_while_flooding"] = flood.running
                result["sent"] = await flood.stop()
                result["admission"] = stats
                result["kernel_drops"] = host.transport.kernel_drops
        finally:
            await close_all(peers)

    asyncio.run(run())
    # The flood was on before the game began and went on after it.
    assert result["refused_before_play"] >= REFUSED_BEFORE_PLAY, result  # type: ignore[operator]
    assert result["over_while_flooding"], result
    admission = result["admission"]
    # Its session messages were dropped by the kernel (without a label it takes) or failed
    # the MAC (before the filter was on): none reached a signature check.
    assert result["kernel_drops"] > REFUSED_BEFORE_PLAY, result  # type: ignore[operator]
    assert admission.forged == admission.dropped_checks == 0, result  # type: ignore[attr-defined]
    files = sorted(tmp_path.glob("p*/games/*.game"))
    assert len(files) == 2 and files[0].read_bytes() == files[1].read_bytes()
