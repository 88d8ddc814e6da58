"""The kernel drops what a sealing seat cannot have sent (net/transport.py's socket filter).

Once a seat seals its datagrams to us, a datagram with its address that is not sealed with
the pair's label (net/pairwise.py) is a forgery: the transport has the kernel drop it (a
classic BPF filter), so a flood of them never wakes our process. Real sockets on loopback;
the flood with a player's address needs root.
"""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table, play
from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.pairwise import LABEL_SIZE, SEAL_SIZE
from p2p_burgundy.net.transport import READ_SIZE, Transport
from p2p_burgundy.net.wire import MAX_DATAGRAM

from .test_flood import FLOODER

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a Linux socket filter")

LABEL = b"\xc1" * LABEL_SIZE  # the seat's
SENT = [b"", b"x", b"\x93\x03\x01", b"\xc1" * SEAL_SIZE, b"\xc1" + bytes(SEAL_SIZE),
        b"\xc1" + LABEL + bytes(MAX_DATAGRAM), b"\xc1" * (SEAL_SIZE + 1),
        b"\xc1" + LABEL + bytes(MAX_DATAGRAM - 1 - LABEL_SIZE)]
"""Empty, unsealed, too short to be sealed, sealed with another label, longer than any
datagram, sealed with the seat's label (the shortest, and the longest)."""


def test_the_kernel_drops_unsealed_datagrams_from_the_refused_addresses_only() -> None:
    async def run() -> tuple[list[tuple[bytes, int]], int, list[bytes]]:
        transport = await Transport.open(LOOPBACK, 0)
        seat, stranger = (socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2))
        read: list[tuple[bytes, int]] = []
        try:
            for s in (seat, stranger):
                s.bind((LOOPBACK, 0))
            senders = {seat.getsockname(): 0, stranger.getsockname(): 1}
            transport.arrival = lambda data, source: (
                read.append((data, senders[source])), Arrival.REFUSE)[1]
            # The seat's address, and one on another host with the seat's port.
            transport.refuse_unsealed({seat.getsockname(): LABEL,
                                       ("10.9.9.9", seat.getsockname()[1]): LABEL})
            for data in SENT:
                seat.sendto(data, transport.address)
                stranger.sendto(data, transport.address)
            await asyncio.sleep(0.2)
            drops = transport.kernel_drops
            transport.refuse_unsealed({})  # taken back: the seat's unsealed arrive again
            seat.sendto(b"y", transport.address)
            await asyncio.sleep(0.2)
            return read, drops, [data for data, sender in read[len(SENT) + 2:]]
        finally:
            seat.close()
            stranger.close()
            transport.close()

    read, drops, after = asyncio.run(run())
    assert [data for data, sender in read if sender == 0] == [*SENT[-2:], b"y"]
    # A stranger's datagrams all arrive (the one too long cut, still too long to pass).
    assert [data for data, sender in read if sender == 1] == [d[:READ_SIZE] for d in SENT]
    assert drops == len(SENT) - 2
    assert after == [b"y"]


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="sending from another address needs root")
@pytest.mark.parametrize("seal", [[], ["--seal"]], ids=["unsealed", "false seal"])
def test_forged_entries_with_a_seats_address_and_without_its_label_never_reach_the_peer(
        tmp_path: Path, seal: list[str]) -> None:
    result: dict[str, object] = {}

    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        host, joiner = peers
        session = host.session
        assert session is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5.0
        while not host.transport.refusing and loop.time() < deadline:
            await asyncio.sleep(0.05)  # until the joiner's first sealed datagram
        result["refusing"] = list(host.transport.refusing) == [joiner.address]
        stats = host.node.admission.stats
        read, drops = stats.unsealed, host.transport.kernel_drops
        flood = await asyncio.create_subprocess_exec(
            sys.executable, str(FLOODER), "--entries", *seal,
            "--targets", f"{host.address[0]}:{host.address[1]}",
            "--spoof", f"{joiner.address[0]}:{joiner.address[1]}",
            "--game", session.game_id.hex(), "--keys", joiner.identity.public_key.hex(),
            "--rate", "20000", "--seconds", "60", "--max", str(10**7), stdout=subprocess.PIPE)
        try:
            while host.transport.kernel_drops - drops < 1000 and loop.time() < deadline + 5:
                await asyncio.sleep(0.01)  # the flood is on
            overs = await play(peers, timeout=50)
            assert len({o.state_hash for o in overs}) == 1
            result["over_while_flooding"] = flood.returncode is None
            result["dropped"] = host.transport.kernel_drops - drops
            result["read"] = stats.unsealed - read
            result["checks"] = stats.forged + stats.by_author + stats.dropped_checks
            flood.terminate()
            await flood.communicate()
        finally:
            if flood.returncode is None:
                flood.kill()
                await flood.wait()
            await close_all(peers)

    asyncio.run(run())
    assert result["refusing"], result  # the joiner's address, and only it
    assert result["over_while_flooding"], result
    # Thousands dropped by the kernel, none read by the host: no MAC check, no signature.
    assert result["dropped"] >= 1000, result  # type: ignore[operator]
    assert result["read"] == 0 and result["checks"] == 0, result
