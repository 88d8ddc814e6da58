"""UDP transport: one unconnected socket, a bounded receive queue, the edge's cheap checks.

Before any message is decoded, :class:`~p2p_burgundy.net.admission.Admission` decides whether
it gets any work (its shape, the strangers' budget, a budget per address, and for entries a
budget a spoofed address cannot spend); before any datagram is sent,
:class:`~p2p_burgundy.net.admission.Replies` decides whether its address may get it (no more
than a small multiple of what an unproven address sent us). Whatever fails is counted, never
decoded or sent.

A failed send (no route, a refused port, a name that does not resolve) is reported late by
asyncio, from the socket's next receive; it is counted, logged once per kind of error, and
never stops the receiving: the protocol resends, so the game goes on when the route returns.
"""

from __future__ import annotations

import asyncio
import logging
import os
from dataclasses import dataclass

import asyncio_dgram

from .admission import (
    BURST,
    RATE,
    Address,
    Admission,
    Replies,
    Verdict,
)

log = logging.getLogger(__name__)
MAX_QUEUE = 256  # datagrams waiting for the session; more are dropped
__all__ = ["BURST", "MAX_QUEUE", "RATE", "Address", "Transport"]


class _DroppingQueue(asyncio.Queue[tuple[bytes | None, Address | None]]):
    """asyncio-dgram puts every datagram into an unbounded queue; this one drops when full."""

    dropped = 0

    def put_nowait(self, item: tuple[bytes | None, Address | None]) -> None:
        if self.full():
            self.dropped += 1
            return
        super().put_nowait(item)


@dataclass
class Stats:
    received: int = 0
    dropped_shape: int = 0
    dropped_rate: int = 0
    dropped_strangers: int = 0
    sent: int = 0
    withheld: int = 0  # not sent: an unproven address had no credit left
    send_errors: int = 0


class Transport:
    """One UDP socket for everything a peer sends and receives."""

    def __init__(self, stream: asyncio_dgram.aio.DatagramServer) -> None:
        self._stream = stream
        # Bound asyncio-dgram's receive queue (both it and its protocol hold the queue).
        queue = _DroppingQueue(maxsize=MAX_QUEUE)
        stream._recvq = queue
        stream._transport.get_protocol()._recvq = queue
        self._queue = queue
        # Addresses of the players we know (the Peer keeps them up to date): everyone else
        # shares one budget, so a flood from many ports costs little more than a drop each
        # and the players' own datagrams are never crowded out of the socket buffer.
        self.admission = Admission()
        self.replies = Replies(os.urandom(16))
        self.stats = Stats()
        self._reported: set[int] = set()  # errno of every send error already logged
        self._loop = asyncio.get_running_loop()

    @classmethod
    async def open(cls, host: str = "0.0.0.0", port: int = 0) -> Transport:
        """Bind a socket (port 0: any free port)."""
        return cls(await asyncio_dgram.bind((host, port)))

    @property
    def address(self) -> Address:
        host, port = self._stream.sockname[:2]
        return host, port

    @property
    def queued(self) -> int:
        return self._queue.qsize()

    @property
    def dropped_full(self) -> int:
        return self._queue.dropped

    @property
    def known(self) -> set[Address]:
        """The players' addresses: exempt from the strangers' budget, proven for replies."""
        return self.admission.known

    @known.setter
    def known(self, addresses: set[Address]) -> None:
        self.admission.known = self.replies.known = addresses

    async def recv(self) -> tuple[bytes, Address, bool]:
        """The next datagram that passes the cheap checks, its source, and whether it counts
        only if its verified author's budget allows it (see :meth:`Admission.vouch`)."""
        while True:
            try:
                data, addr = await self._stream.recv()
            except OSError as exc:  # a failed send, raised by asyncio-dgram from recv()
                self._send_failed(exc)
                continue
            source = (str(addr[0]), int(addr[1]))
            verdict = self.admission.admit(data, source, self._loop.time())
            if verdict is Verdict.DROP_SHAPE:
                self.stats.dropped_shape += 1
            elif verdict is Verdict.DROP_STRANGERS:
                self.stats.dropped_strangers += 1
            elif verdict is Verdict.DROP_RATE:
                self.stats.dropped_rate += 1
            else:
                self.stats.received += 1
                self.replies.received(source, len(data))
                return data, source, verdict is Verdict.BY_AUTHOR

    async def send(self, data: bytes, address: Address) -> None:
        """Send one datagram (UDP: best effort; the protocol repairs loss), unless the
        address is unproven and out of credit: then it gets a CHALLENGE instead, if due."""
        if not self.replies.allow(address, len(data)):
            self.stats.withheld += 1
            challenge = self.replies.challenge(address, self._loop.time())
            if challenge is None or not self.replies.allow(address, len(challenge)):
                return
            data = challenge
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
