"""Who gets any work, and how much we may send whom: the cheap checks at the network edge.

Sans-I/O, like the session: datagrams, addresses and ``now`` go in, verdicts come out.
:class:`Admission` decides, before anything is decoded, whether a datagram is worth decoding;
:class:`Replies` decides whether we may send a datagram to an address, so that nobody can
use us to flood an address that never asked (reflection, amplification).

**Admission.** A datagram must look like one of our messages; a source that is not a known
player shares one budget with every other such *stranger*; then each source address has
its own token bucket. A source address is only a claim (a LAN attacker can send with a
player's address), so a budget keyed by address alone would let a spoofer spend a player's
budget and starve its seat. An ENTRY its address's budget refused therefore gets a second
way in, by **authorship**: if it is a new entry of a seat and its signature verifies, it is
charged to a bucket keyed by that seat's key, which nobody but the seat can spend. The
signature checks this path costs are bounded by one budget for everyone (:data:`CHECK_RATE`).

>>> gate = Admission()
>>> gate.known = {("10.0.0.2", 4000)}
>>> heads = bytes([0x94, 2, 2, 0xc0])
>>> gate.admit(heads, ("10.0.0.2", 4000), now=0.0)
<Verdict.PASS: 1>
>>> gate.admit(b"GET / HTTP/1.0", ("10.0.0.2", 4000), now=0.0)
<Verdict.DROP_SHAPE: 3>

**Replies.** An address that has not proven it can receive what we send it (a known player's
address, or one that echoed our address token: CHALLENGE/RESPONSE below) gets at most
:data:`AMPLIFICATION` times the bytes it sent us, in total. A reply that does not fit is
withheld, and the address is sent a CHALLENGE instead (at most once a second): a 16-byte token,
a keyed hash of the address, which only someone receiving at that address can echo back in a
RESPONSE. Honest peers at a new address (a player back on another port, a spectator) answer
it within a round trip and get full service from then on; a spoofed address never answers.

>>> replies = Replies(secret=bytes(16))
>>> replies.received(("10.0.0.9", 5000), 40)
>>> replies.allow(("10.0.0.9", 5000), 100), replies.allow(("10.0.0.9", 5000), 100)
(True, False)
>>> replies.prove(("10.0.0.9", 5000), replies.token(("10.0.0.9", 5000)))
True
>>> replies.allow(("10.0.0.9", 5000), 1200)
True
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum
from typing import TypeVar

from .errors import ProtocolError
from .log import decode_entry, parse_entry
from .messages import TOKEN_SIZE, Challenge, EntryMessage, Tag, parse
from .wire import MAX_DATAGRAM, PROTOCOL_VERSION

Address = tuple[str, int]
RATE = 400.0  # datagrams per second per address (a catch-up burst is ~50)
BURST = 200
MAX_SOURCES = 1024  # addresses the rate limiter (and the reply allowance) remembers
STRANGER_RATE = 300.0  # datagrams per second from every address not known as a peer, together
STRANGER_BURST = 300.0
CHECK_RATE = 500.0  # signature checks per second (~8% of a core) for entries a budget refused
CHECK_BURST = 100.0
AMPLIFICATION = 3.0
"""Bytes we send an unproven address, at most, for each byte it sent us."""
CHALLENGE_EVERY = 1.0  # seconds between two CHALLENGEs to one address


class Verdict(Enum):
    PASS = 1  # decode and handle it
    BY_AUTHOR = 2  # an ENTRY a budget refused: it counts only by its verified author
    DROP_SHAPE = 3
    DROP_STRANGERS = 4
    DROP_RATE = 5


class Arrival(Enum):
    """What the transport does with a datagram as it arrives, before anything else
    (:meth:`Node.arrival <p2p_burgundy.net.node.Node.arrival>`)."""

    REFUSE = 0  # drop it: it failed the cheapest check (a seat's address, not its MAC)
    FIRST = 1  # a player's: queued ahead of everyone else's
    QUEUE = 2  # anyone else's (a spectator, a stranger): the admission's budgets decide


class RateLimiter:
    """A token bucket per source, for at most ``max_sources`` sources (least recent forgotten).

    >>> limiter = RateLimiter(rate=10, burst=2)
    >>> [limiter.allow("a", now=0.0) for _ in range(3)], limiter.allow("a", now=0.1)
    ([True, True, False], True)
    """

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


def is_session_message(data: bytes) -> bool:
    """Whether ``data`` is shaped like one of the session's messages (ENTRY to RESPONSE: a
    tag below HELLO), undecoded; between seats these carry a MAC (net/pairwise.py)."""
    return len(data) >= 3 and 0x92 <= data[0] <= 0x9F and data[2] < Tag.HELLO


def is_entry_message(data: bytes) -> bool:
    """Whether ``data`` is shaped like an ENTRY message (three items, tag 1), undecoded."""
    return data[0] == 0x93 and data[2] == Tag.ENTRY


@dataclass
class AdmissionStats:
    """What the cheap checks let through and dropped, by reason (none was ever decoded)."""

    received: int = 0  # passed (by their address's budget or by their author)
    dropped_shape: int = 0  # not one of our messages
    dropped_strangers: int = 0  # the budget every stranger shares was spent
    dropped_rate: int = 0  # its address's budget was spent (and it was no entry of a seat)
    by_author: int = 0  # entries a budget refused that counted by their verified author
    dropped_checks: int = 0  # refused: the shared budget of signature checks was spent
    forged: int = 0  # refused: the signature did not verify (or it was not an entry)
    withheld: int = 0  # not sent: an unproven address had no credit left
    unsealed: int = 0  # a seat's session message without its MAC (one hash each, no reply)


class Admission:
    """Which datagrams get decoded; see the module's docstring."""

    def __init__(self) -> None:
        self.known: set[Address] = set()  # the players' addresses (the Peer keeps it)
        self.addresses = RateLimiter()
        self.strangers = RateLimiter(STRANGER_RATE, STRANGER_BURST, max_sources=1)
        self.checks = RateLimiter(CHECK_RATE, CHECK_BURST, max_sources=1)
        self.authors = RateLimiter()  # keyed by a seat's public key
        # Datagrams a seat's MAC proved: a budget of their own, which no spoofer can spend.
        self.sealed = RateLimiter()
        self.stats = AdmissionStats()

    def admit(self, data: bytes, source: Address, now: float, *, sealed: bool = False
              ) -> Verdict:
        """What to do with a datagram that just arrived (cheap: no decoding); drops are
        counted in :attr:`stats`. ``sealed``: a seat's MAC proved it (net/pairwise.py),
        so it is no stranger's, wherever it comes from."""
        verdict = self._verdict(data, source, now, sealed)
        if verdict is Verdict.DROP_SHAPE:
            self.stats.dropped_shape += 1
        elif verdict is Verdict.DROP_STRANGERS:
            self.stats.dropped_strangers += 1
        elif verdict is Verdict.DROP_RATE:
            self.stats.dropped_rate += 1
        elif verdict is Verdict.PASS:
            self.stats.received += 1
        return verdict

    def _verdict(self, data: bytes, source: Address, now: float, sealed: bool) -> Verdict:
        if not looks_like_message(data):
            return Verdict.DROP_SHAPE
        if sealed:
            return Verdict.PASS if self.sealed.allow(source, now) else Verdict.DROP_RATE
        if source not in self.known and not self.strangers.allow(None, now):
            return Verdict.DROP_STRANGERS  # a flood from many ports: a drop each, no more
        if self.addresses.allow(source, now):
            return Verdict.PASS
        return Verdict.BY_AUTHOR if is_entry_message(data) else Verdict.DROP_RATE

    def vouch(self, data: bytes, seats: dict[bytes, int], held: list[int], game_id: bytes,
              now: float) -> bool:
        """For a :attr:`Verdict.BY_AUTHOR` datagram: whether it carries a new entry of a
        seat (``seats``: key to seat, ``held``: entries held per seat) whose signature
        verifies, within that seat's own budget. Duplicates and other games cost no check."""
        try:
            message = parse(data)
            if not isinstance(message, EntryMessage):
                raise ProtocolError("not an ENTRY")
            raw = message.raw
            entry = decode_entry(raw)
        except ProtocolError:
            self.stats.forged += 1
            return False
        seat = seats.get(entry.author)
        if entry.game_id != game_id or seat is None or entry.seq < held[seat]:
            return False  # nothing to do: a duplicate, another game, no seat
        if not self.checks.allow(None, now):
            self.stats.dropped_checks += 1
            return False
        try:
            parse_entry(raw)
        except ProtocolError:
            self.stats.forged += 1
            return False
        if not self.authors.allow(entry.author, now):
            return False
        self.stats.by_author += 1
        self.stats.received += 1
        return True


class Replies:
    """How much we may send each address; see the module's docstring."""

    def __init__(self, secret: bytes, factor: float = AMPLIFICATION,
                 max_sources: int = MAX_SOURCES) -> None:
        """``secret``: fresh random bytes that key the address tokens."""
        self.known: set[Address] = set()  # the players' addresses: proven by the lobby
        self.factor = factor
        self.max_sources = max_sources
        self._secret = secret
        self._proven: OrderedDict[Address, None] = OrderedDict()
        self._credit: OrderedDict[Address, float] = OrderedDict()
        self._challenged: OrderedDict[Address, float] = OrderedDict()

    def proven(self, address: Address) -> bool:
        return address in self.known or address in self._proven

    def received(self, source: Address, size: int) -> None:
        """``source`` sent us ``size`` bytes: it may get ``factor`` times that back."""
        if self.proven(source):
            return
        credit = self._credit.pop(source, 0.0) + self.factor * size
        self._credit[source] = min(credit, self.factor * MAX_DATAGRAM)
        _bound(self._credit, self.max_sources)

    def allow(self, destination: Address, size: int) -> bool:
        """Whether ``size`` bytes may go to ``destination`` now (spending its credit)."""
        if self.proven(destination):
            return True
        credit = self._credit.get(destination, 0.0)
        if credit < size:
            return False
        self._credit[destination] = credit - size
        return True

    def token(self, address: Address) -> bytes:
        """What only someone receiving at ``address`` can echo: a keyed hash of it."""
        host, port = address
        return hashlib.blake2b(f"{host}\x00{port}".encode(), key=self._secret,
                               digest_size=TOKEN_SIZE, person=b"address-token").digest()

    def challenge(self, address: Address, now: float) -> bytes | None:
        """A CHALLENGE for an unproven ``address``, unless it had one less than
        :data:`CHALLENGE_EVERY` seconds ago."""
        if self.proven(address) or now - self._challenged.get(address, -CHALLENGE_EVERY) \
                < CHALLENGE_EVERY:
            return None
        self._challenged.pop(address, None)
        self._challenged[address] = now
        _bound(self._challenged, self.max_sources)
        return Challenge(self.token(address)).encode()

    def prove(self, source: Address, token: bytes) -> bool:
        """A RESPONSE from ``source``: it is proven if it echoed its own token."""
        if token != self.token(source):
            return False
        self._proven.pop(source, None)
        self._proven[source] = None
        _bound(self._proven, self.max_sources)
        self._credit.pop(source, None)
        return True


_V = TypeVar("_V")


def _bound(table: OrderedDict[Address, _V], size: int) -> None:
    while len(table) > size:
        table.popitem(last=False)
