"""The UDP transport over real sockets on loopback: a failed send never stops the receiving."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from p2p_burgundy.net.transport import Transport
from p2p_burgundy.net.wire import PROTOCOL_VERSION

MESSAGE = bytes([0x93, PROTOCOL_VERSION, 1, 2])
# Sending to the broadcast address without SO_BROADCAST fails at once (EACCES): a send error
# that asyncio reports late, from the socket's next receive, like "network unreachable".
UNSENDABLE = ("255.255.255.255", 9)


async def _receive_after_failed_sends(sends: int) -> tuple[bytes, Transport]:
    transport = await Transport.open("127.0.0.1", 0)
    try:
        for _ in range(sends):
            await transport.send(MESSAGE, UNSENDABLE)
        await asyncio.sleep(0.01)  # let asyncio record the errors before the datagram comes
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
