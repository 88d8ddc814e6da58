"""UDP transport: one unconnected socket and a bounded receive queue.

It only moves bytes: what gets decoded, and what may be sent where, is decided by the node
(net/node.py, net/admission.py). A failed send (no route, a refused port, a name that does
not resolve) is reported late by asyncio, from the socket's next receive; it is counted,
logged once per kind of error, and never stops the receiving: the protocol resends, so the
game goes on when the route returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Callable
from dataclasses import dataclass

import asyncio_dgram

Address = tuple[str, int]
log = logging.getLogger(__name__)
MAX_QUEUE = 256  # datagrams waiting for the node; more are dropped
RECEIVE_BUFFER = 1 << 20
"""Bytes the kernel may hold for our socket (its default is about 200 KB): a flood's burst
that outruns the receive loop then fills it, not the players' datagrams' place in it."""


class _DroppingQueue(asyncio.Queue[tuple[bytes | None, Address | None]]):
    """asyncio-dgram puts every datagram into an unbounded queue; this one drops when full,
    and first drops what :attr:`Transport.refuse` refuses (called as each datagram arrives,
    before any task wakes up for it: under a flood that is most of the cost saved)."""

    dropped = 0
    refuse: Callable[[bytes, Address], bool] | None = None

    def put_nowait(self, item: tuple[bytes | None, Address | None]) -> None:
        data, source = item
        if (self.refuse is not None and data is not None and source is not None
                and self.refuse(data, source)):
            return
        if self.full():
            self.dropped += 1
            return
        super().put_nowait(item)


@dataclass
class Stats:
    received: int = 0
    sent: int = 0
    send_errors: int = 0


class Transport:
    """One UDP socket for everything a peer sends and receives."""

    def __init__(self, stream: asyncio_dgram.aio.DatagramServer) -> None:
        self._stream = stream
        # Bound asyncio-dgram's receive queue (both it and its protocol hold the queue).
        queue = _DroppingQueue(maxsize=MAX_QUEUE)
        stream._recvq = queue  # type: ignore[attr-defined]  # asyncio-dgram's own, unbounded
        stream._transport.get_protocol()._recvq = queue  # type: ignore[attr-defined]  # same
        self._queue = queue
        self.stats = Stats()
        self._reported: set[int] = set()  # errno of every send error already logged
        self._loop = asyncio.get_running_loop()

    @classmethod
    async def open(cls, host: str = "0.0.0.0", port: int = 0) -> Transport:
        """Bind a socket (port 0: any free port), with a receive buffer of
        :data:`RECEIVE_BUFFER` where the system allows it."""
        stream = await asyncio_dgram.bind((host, port))
        sock = stream._transport.get_extra_info("socket")  # type: ignore[attr-defined]
        with contextlib.suppress(OSError):  # the system caps it (net.core.rmem_max)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        return cls(stream)

    @property
    def address(self) -> Address:
        host, port = self._stream.sockname[:2]
        return host, port

    @property
    def refuse(self) -> Callable[[bytes, Address], bool] | None:
        """Whether a datagram just arrived is to be dropped at once, before it is queued
        (the node's cheapest check: :meth:`~p2p_burgundy.net.node.Node.refuses`)."""
        return self._queue.refuse

    @refuse.setter
    def refuse(self, check: Callable[[bytes, Address], bool] | None) -> None:
        self._queue.refuse = check

    @property
    def queued(self) -> int:
        return self._queue.qsize()

    @property
    def dropped_full(self) -> int:
        return self._queue.dropped

    async def recv(self) -> tuple[bytes, Address]:
        """The next datagram and its source."""
        while True:
            try:
                data, addr = await self._stream.recv()
            except OSError as exc:  # a failed send, raised by asyncio-dgram from recv()
                self._send_failed(exc)
                continue
            self.stats.received += 1
            assert isinstance(addr, tuple)  # an IP socket's source is (host, port, ...)
            return data, (str(addr[0]), int(addr[1]))

    async def send(self, data: bytes, address: Address) -> None:
        """Send one datagram (UDP: best effort; the protocol repairs loss)."""
        self._take_send_errors()  # else asyncio-dgram raises an earlier one instead of sending
        try:
            await self._stream.send(data, address)
            self.stats.sent += 1
        except OSError as exc:
            self._send_failed(exc)

    def _take_send_errors(self) -> None:
        while True:
            try:
                self._stream.exception  # noqa: B018 (raises the oldest error not yet taken)
                return
            except OSError as exc:
                self._send_failed(exc)

    def _send_failed(self, exc: OSError) -> None:
        self.stats.send_errors += 1
        code = exc.errno or 0
        if code not in self._reported:
            self._reported.add(code)
            log.warning("sending failed: %s (the game resends; further errors of this kind "
                        "are only counted)", exc.strerror or exc)

    def close(self) -> None:
        self._stream.close()
