"""The kernel drops what a sealing seat cannot have sent (net/transport.py's socket filter).

Once a seat seals its datagrams to us, a datagram with its address that is not sealed with
one of the labels its next datagrams carry (net/pairwise.py) is a forgery, or a copy of one
of its datagrams that we took already: the transport has the kernel drop it (a classic BPF
filter), so a flood of them never wakes our process. Real sockets on loopback; the flood with
a player's address needs root.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table, play
from p2p_burgundy.net import transport as transport_module
from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.pairwise import AHEAD, BEHIND, LABEL_SIZE, SEAL_SIZE
from p2p_burgundy.net.transport import (
    MAX_LABELS,
    MAX_REFUSED,
    READ_SIZE,
    Address,
    Transport,
    unsealed_filter,
)
from p2p_burgundy.net.wire import MAX_DATAGRAM

from .flooder import spoofed_flood, tap

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="a Linux socket filter")

SO_LOCK_FILTER = 44  # Linux (asm-generic/socket.h): no filter may be attached after it

LABEL, OTHER = b"\xc1" * LABEL_SIZE, b"\xc1" * 4 + bytes(4)  # two of the seat's
SENT = [b"", b"x", b"\x93\x03\x01", b"\xc1" * SEAL_SIZE, b"\xc1" + bytes(SEAL_SIZE),
        b"\xc1" + bytes(4) + b"\xc1" * (SEAL_SIZE - 4), b"\xc1" + LABEL + bytes(MAX_DATAGRAM),
        b"\xc1" * (SEAL_SIZE + 1), b"\xc1" + OTHER + bytes(SEAL_SIZE),
        b"\xc1" + LABEL + bytes(MAX_DATAGRAM - 1 - LABEL_SIZE)]
"""Empty, unsealed, too short to be sealed, sealed with another label (twice: its second
half, then its first, like one of the seat's), longer than any datagram, sealed with one of
the seat's labels (the shortest, the other label, and the longest)."""


def test_the_kernel_drops_unsealed_datagrams_from_the_refused_addresses_only() -> None:
    async def run() -> tuple[list[tuple[bytes, int]], int, list[bytes]]:
        transport = await Transport.open(LOOPBACK, 0)
        seat, relaxed, stranger = (socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
                                   for _ in range(3))
        read: list[tuple[bytes, int]] = []
        try:
            for s in (seat, relaxed, stranger):
                s.bind((LOOPBACK, 0))
            senders = {s.getsockname(): n for n, s in enumerate((seat, relaxed, stranger))}
            transport.arrival = lambda data, source: (
                read.append((data, senders[source])), Arrival.REFUSE)[1]
            # The seat's address (two labels), one whose window is relaxed (any label), and
            # one on another host with the seat's port.
            transport.refuse_unsealed({seat.getsockname(): (LABEL, OTHER),
                                       relaxed.getsockname(): None,
                                       ("10.9.9.9", seat.getsockname()[1]): (LABEL,)})
            for data in SENT:
                for s in (seat, relaxed, stranger):
                    s.sendto(data, transport.address)
            await asyncio.sleep(0.2)
            drops, before = transport.kernel_drops, len(read)
            transport.refuse_unsealed({})  # taken back: the seat's unsealed arrive again
            seat.sendto(b"y", transport.address)
            await asyncio.sleep(0.2)
            return read, drops, [data for data, sender in read[before:]]
        finally:
            for s in (seat, relaxed, stranger):
                s.close()
            transport.close()

    read, drops, after = asyncio.run(run())
    assert [data for data, sender in read if sender == 0] == [*SENT[-3:], b"y"]
    # Any sealed datagram no longer than any: SENT[4], SENT[5] and the seat's.
    assert [data for data, sender in read if sender == 1] == [*SENT[4:6], *SENT[-3:]]
    # A stranger's datagrams all arrive (the one too long cut, still too long to pass).
    assert [data for data, sender in read if sender == 2] == [d[:READ_SIZE] for d in SENT]
    assert drops == 7 + 5
    assert after == [b"y"]


def test_the_largest_filter_is_taken_and_a_larger_one_refused_before_the_kernel() -> None:
    """MAX_REFUSED addresses of MAX_LABELS labels each (far more than a window gives: the
    jumps reach their farthest): the kernel takes the program and keeps a datagram with the
    last label of the last address only; one more address, or one more label, is refused
    with a ValueError before any of it reaches the kernel."""
    assert MAX_REFUSED == 3 and MAX_LABELS == 245 >= AHEAD + BEHIND

    def labels(n: int) -> tuple[bytes, ...]:
        return tuple(bytes([n]) + k.to_bytes(3, "big") + bytes(4) for k in range(MAX_LABELS))

    async def run() -> tuple[dict[Address, tuple[bytes, ...] | None], list[bytes]]:
        transport = await Transport.open(LOOPBACK, 0)
        seats = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(MAX_REFUSED)]
        read: list[bytes] = []
        try:
            for s in seats:
                s.bind((LOOPBACK, 0))
            transport.arrival = lambda data, source: (read.append(data), Arrival.REFUSE)[1]
            largest = {s.getsockname(): labels(n) for n, s in enumerate(seats)}
            assert len(unsealed_filter(largest)) == MAX_REFUSED * (12 + MAX_LABELS) + 1
            with pytest.raises(ValueError, match="3 addresses at most"):
                transport.refuse_unsealed({**largest, ("10.9.9.9", 4000): None})
            with pytest.raises(ValueError, match="245 labels an address at most"):
                transport.refuse_unsealed({seats[0].getsockname(): (*labels(0), OTHER)})
            assert transport.refusing == {}
            transport.refuse_unsealed(largest)
            last = MAX_REFUSED - 1
            for data in (labels(last)[-1][:4], (MAX_LABELS + 1).to_bytes(4, "big"),
                         labels(0)[-1][:4]):
                seats[last].sendto(b"\xc1" + data + bytes(SEAL_SIZE), transport.address)
            await asyncio.sleep(0.2)
            return transport.refusing, read
        finally:
            for s in seats:
                s.close()
            transport.close()

    refusing, read = asyncio.run(run())
    assert len(refusing) == MAX_REFUSED
    assert read == [b"\xc1" + labels(MAX_REFUSED - 1)[-1][:4] + bytes(SEAL_SIZE)]


def test_where_the_kernel_refuses_a_filter_arrival_refuses_what_it_would_have(
        caplog: pytest.LogCaptureFixture) -> None:
    """A socket whose filter is locked (SO_LOCK_FILTER: the kernel refuses to attach one,
    EPERM): the transport says so once, never tries again, and every datagram of a sealing
    seat's address is read and meets the node's arrival check instead."""
    async def run() -> tuple[dict[Address, tuple[bytes, ...] | None], list[bytes], int]:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.bind((LOOPBACK, 0))
        sock.setsockopt(socket.SOL_SOCKET, SO_LOCK_FILTER, 1)
        transport = Transport(sock)
        seat = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        read: list[bytes] = []
        try:
            seat.bind((LOOPBACK, 0))
            transport.arrival = lambda data, source: (read.append(data), Arrival.REFUSE)[1]
            transport.refuse_unsealed({seat.getsockname(): (LABEL,)})
            transport.refuse_unsealed({seat.getsockname(): (OTHER,)})
            for data in SENT[:3]:
                seat.sendto(data, transport.address)
            await asyncio.sleep(0.2)
            return transport.refusing, read, transport.kernel_drops
        finally:
            seat.close()
            transport.close()

    with caplog.at_level(logging.WARNING, logger="p2p_burgundy.net.transport"):
        refusing, read, drops = asyncio.run(run())
    assert [r.getMessage() for r in caplog.records] == [
        "no socket filter (Operation not permitted): forged datagrams are refused as they "
        "are read instead"]
    assert refusing == {} and read == SENT[:3] and drops == 0


def test_the_same_labels_again_cost_no_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The node hands the same mapping while its labels stay (its read loop asks after every
    datagram from a refused address): no program is built for it, nor for an equal one."""
    built: list[int] = []

    def counted(labels: Mapping[Address, Sequence[bytes] | None]
                ) -> list[tuple[int, int, int, int]]:
        built.append(len(labels))
        return unsealed_filter(labels)

    monkeypatch.setattr(transport_module, "unsealed_filter", counted)

    async def run() -> dict[Address, tuple[bytes, ...] | None]:
        transport = await Transport.open(LOOPBACK, 0)
        try:
            labels: dict[Address, tuple[bytes, ...] | None] = {("127.0.0.2", 4000): (LABEL,)}
            for given in (labels, labels, dict(labels), {}, {}):
                transport.refuse_unsealed(given)
            return transport.refusing
        finally:
            transport.close()

    assert asyncio.run(run()) == {} and built == [1, 0]


def flooded_game(tmp_path: Path, seal: list[str]) -> dict[str, object]:
    """A 2-player game on loopback while the flooder sends the host 20,000 forged entries a
    second with the joiner's address (``seal``: its options), from before the game to its end:
    what the host's kernel dropped of them, what the host read, and its signature checks."""
    result: dict[str, object] = {}

    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        host, joiner = peers
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 5.0
        while not host.transport.refusing and loop.time() < deadline:
            await asyncio.sleep(0.05)  # until the joiner's first sealed datagram
        result["refusing"] = list(host.transport.refusing) == [joiner.address]
        stats = host.node.admission.stats
        read, drops = stats.unsealed, host.transport.kernel_drops
        copies = None
        try:
            async with spoofed_flood(host, joiner, 20000, 60.0, ["--entries", *seal]) as flood:
                if "--copy" in seal:  # the flooder learns each datagram the joiner sends
                    assert flood.process.stdout is not None
                    port = int(await flood.process.stdout.readline())
                    copies = tap(joiner.transport, host.address, port)
                while host.transport.kernel_drops - drops < 1000 and loop.time() < deadline + 5:
                    await asyncio.sleep(0.01)  # the flood is on
                overs = await play(peers, timeout=50)
                assert len({o.state_hash for o in overs}) == 1
                result["over_while_flooding"] = flood.running
                result["dropped"] = host.transport.kernel_drops - drops
                result["read"] = stats.unsealed - read
                result["checks"] = stats.forged + stats.by_author + stats.dropped_checks
                await flood.stop()
        finally:
            await close_all(peers)
            if copies is not None:
                copies.close()

    asyncio.run(run())
    return result


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="sending from another address needs root")
@pytest.mark.parametrize("seal", [[], ["--seal"]], ids=["unsealed", "false seal"])
def test_forged_entries_with_a_seats_address_and_without_its_label_never_reach_the_peer(
        tmp_path: Path, seal: list[str]) -> None:
    result = flooded_game(tmp_path, seal)
    assert result["refusing"], result  # the joiner's address, and only it
    assert result["over_while_flooding"], result
    # Thousands dropped by the kernel, none read by the host: no MAC check, no signature.
    assert result["dropped"] >= 1000, result  # type: ignore[operator]
    assert result["read"] == 0 and result["checks"] == 0, result


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="sending from another address needs root")
def test_copies_of_the_label_of_a_seats_latest_datagram_are_dropped_once_it_was_read(
        tmp_path: Path) -> None:
    """The flooder copies the label and counter of each datagram the joiner sends the host,
    the moment it is sent (with a false MAC): the kernel drops the copies from the moment
    the host read the joiner's own datagram and its filter moved on; those that came before
    reach the host (how many depends on how soon it reads: one in five or six in
    bench/flood.py's games), which refuses each for a lookup, with no signature check."""
    result = flooded_game(tmp_path, ["--seal", "--copy"])
    assert result["refusing"] and result["over_while_flooding"], result
    assert result["dropped"] >= 1000 and result["checks"] == 0, result  # type: ignore[operator]
