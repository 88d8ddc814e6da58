"""UDP transport: one unconnected socket, a bounded receive queue, per-address rate limits.

Cheap checks run here, before any message is decoded or a signature checked: the datagram's
size, its first two bytes (a msgpack array holding our protocol version), one token bucket
shared by every source that is not a known player (:attr:`Transport.known`), and a token
bucket per source address. Whatever fails is dropped and counted, never decoded.

A failed send (no route, a refused port, a name that does not resolve) is reported late by
asyncio, from the socket's next receive; it is counted, logged once per kind of error, and
never stops the receiving: the protocol resends, so the game goes on when the route returns.

>>> limiter = RateLimiter(rate=10, burst=2)
>>> [limiter.allow("a", now=0.0) for _ in range(3)], limiter.allow("a", now=0.1)
([True, True, False], True)
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass

import asyncio_dgram

from .wire import MAX_DATAGRAM, PROTOCOL_VERSION

log = logging.getLogger(__name__)
Address = tuple[str, int]
MAX_QUEUE = 256  # datagrams waiting for the session; more are dropped
RATE = 400.0  # datagrams per second per address (a catch-up burst is ~50)
BURST = 200
MAX_SOURCES = 1024  # addresses the rate limiter remembers
STRANGER_RATE = 300.0  # datagrams per second from every address not known as a peer, together
STRANGER_BURST = 300.0


class RateLimiter:
    """A token bucket per source, for at most ``max_sources`` sources (least recent forgotten)."""

    def __init__(self, rate: float = RATE, burst: float = BURST,
                 max_sources: int = MAX_SOURCES) -> None:
        self.rate = rate
        self.burst = burst
        self.max_sources = max_sources
        self._buckets: OrderedDict[object, tuple[float, float]] = OrderedDict()

    def allow(self, source: object, now: float) -> bool:
        tokens, last = self._buckets.pop(source, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        allowed = tokens >= 1
        self._buckets[source] = (tokens - 1 if allowed else tokens, now)
        if len(self._buckets) > self.max_sources:
            self._buckets.popitem(last=False)
        return allowed


def looks_like_message(data: bytes) -> bool:
    """The cheapest check: our messages are msgpack arrays of 2..15 items, a version first.
    Older versions pass too, so that the decoder can tell the user which one came.

    >>> looks_like_message(bytes([0x93, 2, 2, 3])), looks_like_message(b"GET /")
    (True, False)
    """
    return (len(data) <= MAX_DATAGRAM and len(data) >= 3 and 0x92 <= data[0] <= 0x9F
            and 1 <= data[1] <= PROTOCOL_VERSION)


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
        self.limiter = RateLimiter()
        # Addresses of the players we know (the Peer keeps this up to date). Everyone else
        # shares one budget, so a flood from many ports costs little more than a drop each
        # and the players' own datagrams are never crowded out of the socket buffer.
        self.known: set[Address] = set()
        self.strangers = RateLimiter(STRANGER_RATE, STRANGER_BURST, max_sources=1)
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

    async def recv(self) -> tuple[bytes, Address]:
        """The next datagram that passes the cheap checks."""
        while True:
            try:
                data, addr = await self._stream.recv()
            except OSError as exc:  # a failed send, raised by asyncio-dgram from recv()
                self._send_failed(exc)
                continue
            now = self._loop.time()
            if not looks_like_message(data):
                self.stats.dropped_shape += 1
                continue
            source = (addr[0], addr[1])
            if source not in self.known and not self.strangers.allow(None, now):
                self.stats.dropped_strangers += 1
                continue
            if not self.limiter.allow(source, now):
                self.stats.dropped_rate += 1
                continue
            self.stats.received += 1
            return data, source

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
