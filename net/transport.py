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

On Linux the kernel drops most forgeries before we ever wake up: the node's seats that seal
their datagrams to us (:attr:`Node.sealing <p2p_burgundy.net.node.Node.sealing>`) are given
to :meth:`Transport.refuse_unsealed`, which attaches a classic BPF socket filter that drops a
datagram from one of those addresses unless it is sealed and carries one of the labels that
seat's next datagrams may carry (net/pairwise.py): what ``Node.arrival`` would refuse first,
or for want of such a label, moved into the kernel. Those labels move on as the seat's
datagrams are taken, and as soon as a copy of one taken got through (the filter is then
attached again, before the next datagram is read): a forger who sees the pair's traffic and
copies a label copies one that is taken, or will be as soon as we read the seat's own, and
from then on the kernel drops it too.

A failed send (no route, a refused port, an address we may not send to) is counted, logged
once per kind of error, and never stops the receiving: the protocol resends, so the game goes
on when the route returns.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import socket
import struct
import sys
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from p2p_burgundy.config import MAX_PLAYERS

from .admission import Arrival
from .pairwise import SEAL_SIZE, SEALED
from .wire import MAX_DATAGRAM

Address = tuple[str, int]
log = logging.getLogger(__name__)
MAX_QUEUE = 256  # datagrams waiting for the node in each queue; more are dropped
READ_BATCH = 512
"""Datagrams read in one wake-up at most, so that a flood cannot keep the event loop (the
players' timers and sends) waiting on its reading for long: a millisecond or two of refusals."""
READ_SIZE = MAX_DATAGRAM + 1
"""Bytes read of a datagram: a longer one than any valid comes cut to this, still too long for
the node's shape check, and no read needs a 64 KiB buffer."""
RECEIVE_BUFFER = 4 << 20
"""Bytes the kernel may hold for our socket (its default is about 200 KB): a flood's burst
that outruns the receive loop then fills it, not the players' datagrams' place in it."""
SO_ATTACH_FILTER, SO_MEMINFO = 26, 55  # Linux (asm-generic/socket.h): not in Python's socket
_MEMINFO_DROPS = 8  # SK_MEMINFO_DROPS: the index of the drops in SO_MEMINFO's array
MAX_REFUSED = MAX_PLAYERS - 1
"""Addresses :meth:`Transport.refuse_unsealed` takes at most: the node's sealing seats are the
other seats of a table, each at one address (a seat that moves leaves its old one)."""
MAX_LABELS = 245
"""Labels an address takes at most: the jump past a block whose source does not match skips
its 10 instructions besides the labels, and a classic BPF jump reaches 255 ahead at most (a
window gives 20, net/pairwise.py's ``AHEAD + BEHIND``)."""
_SOURCE_ADDRESS = (-0x100000 + 12) & 0xFFFFFFFF  # SKF_NET_OFF + 12: the IP source address
_UDP_HEADER = 8  # a UDP socket's filter sees the datagram from its UDP header on
_BPF_LOAD_WORD, _BPF_LOAD_HALF, _BPF_LOAD_BYTE = 0x20, 0x28, 0x30  # BPF_LD|size|BPF_ABS
_BPF_JUMP_EQUAL, _BPF_JUMP_GREATER, _BPF_RETURN = 0x15, 0x25, 0x06  # BPF_JMP|...|BPF_K, BPF_RET
_BPF_JUMP = 0x05  # BPF_JMP|BPF_JA: jump by k
_KEEP, _DROP = (_BPF_RETURN, 0, 0, 0xFFFFFFFF), (_BPF_RETURN, 0, 0, 0)


def unsealed_filter(labels: Mapping[Address, Sequence[bytes] | None]
                    ) -> list[tuple[int, int, int, int]]:
    """The classic BPF program (``(code, jump if true, jump if false, k)`` instructions) that
    drops a UDP datagram from one of the IPv4 addresses of ``labels`` unless it is sealed
    (:func:`~p2p_burgundy.net.pairwise.is_sealed`), no longer than any datagram
    (:data:`~p2p_burgundy.net.wire.MAX_DATAGRAM`) and carries one of that address's labels
    (any, for None), and keeps every other datagram. It compares a label's first 4 bytes
    only: the node compares all 8, and a forger who does not see the pair's traffic has one
    chance in 2**32 a label to get one through to it. An address takes 12 instructions and
    one a label: attaching the filter costs the kernel about 20 µs and 2 µs an instruction.

    >>> [code for code, *_ in unsealed_filter({})]
    [6]
    >>> len(unsealed_filter({("127.0.0.1", 4000): [bytes(8)] * 2, ("10.0.0.2", 4001): None}))
    27
    """
    if len(labels) > MAX_REFUSED:
        raise ValueError(f"a socket filter takes {MAX_REFUSED} addresses at most")
    program = []
    for (host, port), expected in sorted(labels.items()):
        checks = [] if expected is None else [int.from_bytes(label[:4], "big")
                                              for label in expected]
        if len(checks) > MAX_LABELS:
            raise ValueError(f"a socket filter takes {MAX_LABELS} labels an address at most")
        drop = 10 + len(checks)  # the block's own drop, then its keep
        program += [
            (_BPF_LOAD_WORD, 0, 0, _SOURCE_ADDRESS),
            (_BPF_JUMP_EQUAL, 0, drop + 2 - 2, int.from_bytes(socket.inet_aton(host), "big")),
            (_BPF_LOAD_HALF, 0, 0, 0),  # the source port
            (_BPF_JUMP_EQUAL, 0, drop + 2 - 4, port),
            (_BPF_LOAD_HALF, 0, 0, 4),  # the UDP length: its header and the datagram
            (_BPF_JUMP_GREATER, 0, drop - 6, _UDP_HEADER + SEAL_SIZE),
            (_BPF_JUMP_GREATER, drop - 7, 0, _UDP_HEADER + MAX_DATAGRAM),
            (_BPF_LOAD_BYTE, 0, 0, _UDP_HEADER),  # the datagram's first byte
            (_BPF_JUMP_EQUAL, 0, drop - 9, SEALED),
            # The label's first word (any label: straight to the keep, past the drop).
            (_BPF_LOAD_WORD, 0, 0, _UDP_HEADER + 1) if checks else (_BPF_JUMP, 0, 0, 1),
            *((_BPF_JUMP_EQUAL, len(checks) - n, 0, word) for n, word in enumerate(checks)),
            _DROP, _KEEP]
    return [*program, _KEEP]


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
        self.refusing: dict[Address, tuple[bytes, ...] | None] = {}
        """The addresses whose datagrams the kernel drops unless sealed with one of their
        labels (:meth:`refuse_unsealed`)."""
        self._given: Mapping[Address, tuple[bytes, ...] | None] | None = None
        """The last mapping :meth:`refuse_unsealed` was given (the same object: nothing new)."""
        self.sealing: Callable[[], Mapping[Address, tuple[bytes, ...] | None]] | None = None
        """Where those labels come from (the node's :attr:`~p2p_burgundy.net.node.Node.sealing`):
        asked again as soon as :attr:`arrival` checked a datagram from one of those
        addresses, so that the kernel drops copies of one taken from then on, not from the
        next flush (the same mapping while they have not changed: no work)."""
        self._can_filter = sys.platform == "linux"  # until the kernel refuses a filter
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
    def kernel_drops(self) -> int:
        """Datagrams the kernel dropped for our socket: its receive buffer was full, or our
        filter refused them (:meth:`refuse_unsealed`). Linux; 0 elsewhere."""
        if sys.platform != "linux":
            return 0
        info = self._sock.getsockopt(socket.SOL_SOCKET, SO_MEMINFO, 4 * (_MEMINFO_DROPS + 1))
        return int(struct.unpack_from("I", info, 4 * _MEMINFO_DROPS)[0])

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

    def refuse_unsealed(self, labels: Mapping[Address, tuple[bytes, ...] | None]) -> None:
        """Have the kernel drop every datagram from an address of ``labels`` that is not
        sealed with one of that address's labels (any, for None; :func:`unsealed_filter`),
        and keep everyone else's, replacing the previous such list: a flood of them then
        never wakes us. Linux only (elsewhere, and if the system refuses the filter, which is
        logged, the node's arrival check refuses them as they are read, as it does anyway).
        A mapping is not changed once given (new labels come in a new one: the node's
        :attr:`~p2p_burgundy.net.node.Node.sealing`), so the same one again costs nothing."""
        if labels is self._given or not self._can_filter:
            return
        if labels != self.refusing:
            try:
                program = b"".join(struct.pack("HBBI", *instruction)
                                   for instruction in unsealed_filter(labels))
                buffer = ctypes.create_string_buffer(program, len(program))
                # struct sock_fprog: the number of instructions, a pointer to them
                self._sock.setsockopt(socket.SOL_SOCKET, SO_ATTACH_FILTER, struct.pack(
                    "HP", len(program) // 8, ctypes.addressof(buffer)))
            except OSError as exc:
                self._can_filter = False
                log.warning("no socket filter (%s): forged datagrams are refused as they are "
                            "read instead", exc.strerror or exc)
                return
            self.refusing = dict(labels)
        self._given = labels

    def close(self) -> None:
        if self._sock.fileno() >= 0:
            self._loop.remove_reader(self._sock.fileno())
            self._sock.close()

    def _read_ready(self) -> None:
        """The socket is readable: read every datagram waiting, up to :data:`READ_BATCH`."""
        recvfrom, arrival = self._sock.recvfrom, self.arrival
        refuse, first = Arrival.REFUSE, Arrival.FIRST
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
            if source in self.refusing and self.sealing is not None:
                self.refuse_unsealed(self.sealing())  # that seat's labels may have moved on
            if verdict is refuse:
                continue
            queue = self._first if verdict is first else self._rest
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
