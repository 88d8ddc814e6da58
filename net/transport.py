"""UDP transport: one unconnected non-blocking socket and two bounded receive queues.

It only moves bytes: what gets decoded, and what may be sent where, is decided by the node
(net/node.py, net/admission.py). Each time the socket becomes readable the transport drains
it, up to :data:`READ_BATCH` datagrams: under a flood one wake-up of the event loop then
serves every datagram that came meanwhile instead of one (asyncio's own datagram transport
reads one per wake-up). Resting a millisecond after a burst, so that wake-ups would read
more at a time, cost more than it saved (docs/performance.md). Each datagram meets
:attr:`Transport.arrival` as it is read, before it is queued or any task wakes up for it: it
is refused there, or queued with the players' datagrams, which are received first, or with
everyone else's. Each queue holds :data:`MAX_QUEUE` datagrams; more are dropped, so a flood
of strangers' datagrams never takes a player's place.

A failed send (no route, a refused port, an address we may not send to) is counted, logged
once per kind of error, and never stops the receiving: the protocol resends, so the game goes
on when the route returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from .admission import Arrival

Address = tuple[str, int]
log = logging.getLogger(__name__)
MAX_QUEUE = 256  # datagrams waiting for the node in each queue; more are dropped
READ_BATCH = 512
"""Datagrams read in one wake-up at most, so that a flood cannot keep the event loop (the
players' timers and sends) waiting on its reading for long: a millisecond or two of refusals."""
READ_SIZE = 65536  # any UDP datagram whole: the node's shape check drops the oversized
RECEIVE_BUFFER = 4 << 20
"""Bytes the kernel may hold for our socket (its default is about 200 KB): a flood's burst
that outruns the receive loop then fills it, not the players' datagrams' place in it."""


@dataclass
class Stats:
    received: int = 0
    sent: int = 0
    send_errors: int = 0


class Transport:
    """One UDP socket for everything a peer sends and receives."""

    def __init__(self, sock: socket.socket) -> None:
        """Take over ``sock``, a bound UDP socket (made non-blocking here)."""
        sock.setblocking(False)
        self._sock = sock
        self._loop = asyncio.get_running_loop()
        self._first: deque[tuple[bytes, Address]] = deque()  # the players' datagrams
        self._rest: deque[tuple[bytes, Address]] = deque()
        self._waiter: asyncio.Future[None] | None = None
        self.arrival: Callable[[bytes, Address], Arrival] = lambda data, source: Arrival.QUEUE
        """What to do with a datagram just read, before it is queued (the node's cheapest
        checks: :meth:`~p2p_burgundy.net.node.Node.arrival`)."""
        self.dropped_full = 0  # datagrams dropped because their queue was full
        self.stats = Stats()
        self._reported: set[int] = set()  # errno of every send error already logged
        self._loop.add_reader(sock.fileno(), self._read_ready)

    @classmethod
    async def open(cls, host: str = "0.0.0.0", port: int = 0) -> Transport:
        """Bind a socket (port 0: any free port), with a receive buffer of
        :data:`RECEIVE_BUFFER` where the system allows it."""
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.bind((host, port))
        except OSError:
            sock.close()
            raise
        with contextlib.suppress(OSError):  # the system caps it (net.core.rmem_max)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
        return cls(sock)

    @property
    def address(self) -> Address:
        host, port = self._sock.getsockname()[:2]
        return host, port

    @property
    def queued(self) -> int:
        return len(self._first) + len(self._rest)

    async def recv(self) -> tuple[bytes, Address]:
        """The next datagram and its source: the players' first."""
        while not (self._first or self._rest):
            self._waiter = self._loop.create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return (self._first or self._rest).popleft()

    def send(self, data: bytes, address: Address) -> None:
        """Send one datagram (UDP: best effort; the protocol repairs loss, so a datagram the
        kernel has no room for is dropped like one lost on the way)."""
        try:
            self._sock.sendto(data, address)
            self.stats.sent += 1
        except OSError as exc:
            self._send_failed(exc)

    def close(self) -> None:
        if self._sock.fileno() >= 0:
            self._loop.remove_reader(self._sock.fileno())
            self._sock.close()

    def _read_ready(self) -> None:
        """The socket is readable: read every datagram waiting, up to :data:`READ_BATCH`."""
        recvfrom, arrival = self._sock.recvfrom, self.arrival
        read = 0
        while read < READ_BATCH:
            try:
                data, source = recvfrom(READ_SIZE)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as exc:  # an error the kernel queued for an earlier send
                self._send_failed(exc)
                continue
            read += 1
            verdict = arrival(data, source)
            if verdict is Arrival.REFUSE:
                continue
            queue = self._first if verdict is Arrival.FIRST else self._rest
            if len(queue) >= MAX_QUEUE:
                self.dropped_full += 1
                continue
            queue.append((data, source))
        self.stats.received += read
        if self.queued and self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    def _send_failed(self, exc: OSError) -> None:
        self.stats.send_errors += 1
        code = exc.errno or 0
        if code not in self._reported:
            self._reported.add(code)
            log.warning("sending failed: %s (the game resends; further errors of this kind "
                        "are only counted)", exc.strerror or exc)
