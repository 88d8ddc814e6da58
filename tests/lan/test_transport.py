"""The UDP transport over real sockets on loopback: a failed send never stops the receiving;
what the node refuses as it arrives is never queued, and the players' datagrams come first."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.transport import MAX_QUEUE, Transport
from p2p_burgundy.net.wire import PROTOCOL_VERSION

MESSAGE = bytes([0x93, PROTOCOL_VERSION, 1, 2])
# Sending to the broadcast address without SO_BROADCAST fails at once (EACCES), like "network
# unreachable".
UNSENDABLE = ("255.255.255.255", 9)


async def _receive_after_failed_sends(sends: int) -> tuple[bytes, Transport]:
    transport = await Transport.open("127.0.0.1", 0)
    try:
        for _ in range(sends):
            transport.send(MESSAGE, UNSENDABLE)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as other:
            other.sendto(MESSAGE, transport.address)
            data, _ = await asyncio.wait_for(transport.recv(), 5)
        return data, transport
    finally:
        transport.close()


def test_a_failed_send_is_counted_and_the_next_datagram_still_arrives() -> None:
    data, transport = asyncio.run(_receive_after_failed_sends(1))
    assert data == MESSAGE
    assert transport.stats.send_errors == 1


def test_a_kind_of_send_error_is_logged_once_however_often_it_happens(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="p2p_burgundy.net.transport"):
        _, transport = asyncio.run(_receive_after_failed_sends(3))
    assert transport.stats.send_errors == 3
    assert [r.getMessage() for r in caplog.records] == [
        "sending failed: Permission denied (the game resends; further errors of this kind "
        "are only counted)"
    ]


def test_refused_datagrams_are_never_queued_and_a_players_come_first() -> None:
    """A burst from a stranger fills only its own queue (the rest dropped), what the check
    refuses takes no place at all, and a player's datagrams, sent last, are received first."""

    async def run() -> tuple[list[bytes], int, int, int]:
        transport = await Transport.open("127.0.0.1", 0)
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as stranger, \
                socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as player:
            player.bind(("127.0.0.1", 0))
            transport.arrival = lambda data, source: (
                Arrival.FIRST if source == player.getsockname()
                else Arrival.REFUSE if data.startswith(b"x") else Arrival.QUEUE)
            try:
                for n in range(MAX_QUEUE + 100):
                    stranger.sendto(b"x" if n % 2 else b"s", transport.address)
                    stranger.sendto(b"s", transport.address)
                for n in range(3):
                    player.sendto(b"p%d" % n, transport.address)
                await asyncio.sleep(0.2)
                queued = transport.queued
                first = [(await transport.recv())[0] for _ in range(4)]
                return first, queued, transport.dropped_full, transport.stats.received
            finally:
                transport.close()

    first, queued, dropped, received = asyncio.run(run())
    assert first == [b"p0", b"p1", b"p2", b"s"]
    assert queued == MAX_QUEUE + 3
    sent = 2 * (MAX_QUEUE + 100) + 3
    assert received == sent  # every one read (none dropped by the kernel)
    assert dropped == (MAX_QUEUE + 100) * 3 // 2 - MAX_QUEUE
