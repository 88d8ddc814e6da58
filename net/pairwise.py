"""Pairwise keys between the seats of a game, and the MAC on every datagram between them.

Log entries are signed: the signatures are the audit. But checking one costs about 150 µs,
and a source address is only a claim, so anyone on the LAN could make a peer check (or drop,
with the seat's own budget) datagrams "from" a player. Between seats, every datagram of the
session therefore carries a 16-byte keyed BLAKE2b MAC under a key only the two seats hold:
a datagram that fails it costs one hash of at most 1200 bytes (about a microsecond), is
dropped before anything else, and gets no reply (or, without a label we take, is dropped by
the kernel before we read it).

The key of each pair comes from their identities alone, with nothing more on the wire: each
Ed25519 key has an X25519 twin (:meth:`Identity.exchange_key
<p2p_burgundy.net.identity.Identity.exchange_key>` and :func:`exchange_public`, the
conversion libsodium uses), the two seats' X25519 agreement gives a shared secret, and
:func:`pairwise_key` hashes it with both keys and the game id (so every game has its own).

A sealed datagram is ``0xC1 || label(8) || counter(8) || MAC(16) || message``: 0xC1 is a
byte msgpack never uses, so it cannot be mistaken for an unsealed message (``0x92..0x9F``).
Each direction of a pair numbers its datagrams (the counter, big-endian), and each number has
its own :func:`label`, a keyed hash of the sender and the counter: the receiver knows which
labels come next, and its kernel drops (net/transport.py's socket filter), before it is read,
a datagram from a seat's address whose label is not one of them. Someone who does not see the
pair's traffic cannot guess one; someone who does sees only labels already sent, and a label
is taken once: a copy of one taken is refused by :meth:`Window.take` without a MAC check, and
then by the kernel, once the window gave it new labels (:attr:`Window.labels`). Only copies
that arrive before we read the seat's own datagram reach us.

A :class:`Window` keeps, for one seat's datagrams to us, the counters still taken: the
:data:`AHEAD` after the highest taken so far and the :data:`BEHIND` below it not taken yet (a
datagram overtaken on the way). A seat that jumps further (more than :data:`AHEAD` of its
datagrams lost in a row, or its peer restarted: see below) is no longer heard, and a window
whose seat has been silent for :data:`~p2p_burgundy.net.node.RESYNC_AFTER` is **relaxed** by
the node: it takes
any counter above the last :data:`BEHIND` (the kernel then checks only that the datagram is
sealed, and each one costs a label hash here, and a MAC check if the label fits), until it
has followed the seat's own datagrams for :data:`~p2p_burgundy.net.node.RELAXED_FOR`, so that
a replay of an older datagram taken first cannot hold it behind the seat.

**A seat's counters never go back**, not even across a restart under the same key: a relaxed
window takes nothing below the highest it took (less :data:`BEHIND`), and must not, for the
datagrams of a seat's earlier run would then count again (a replay of any of them, whose
counters are higher than the new run's, would pull the window up above the seat again). So a
peer numbers its seals from the higher of the wall clock in microseconds and the counters it
reserved in that game (:attr:`Node.reserved <p2p_burgundy.net.node.Node.reserved>`), which its
driver saves beside the game file before it sends a datagram numbered from a new block: a
peer whose clock was set back while it was down still starts above every counter it used.
A signed proof that lets a window start again lower (a fresh counter in SEATED) would not do:
the old run's datagrams with the same counters carry the same labels and MACs, and whoever
recorded them could replay them ahead of the seat's own. What remains: a player that lost
its game file together with the reservation beside it and whose clock went back by more
than it was down is not heard until its clock passes the counters it used before.

>>> from p2p_burgundy.net.identity import Identity
>>> anna, bo = (Identity.from_private_bytes(bytes([n]) * 32) for n in (1, 2))
>>> key = pairwise_key(anna, bo.public_key, b"g" * 16)
>>> key == pairwise_key(bo, anna.public_key, b"g" * 16)
True
>>> sealed = seal(b"hello", key, anna.public_key, 7)
>>> opened(sealed, key, anna.public_key), opened(sealed[:-1] + b"?", key, anna.public_key)
(b'hello', None)
>>> window = Window(key, anna.public_key)  # Bo's, for Anna's datagrams
>>> window.take(sealed), window.take(sealed)  # a copy of a datagram taken is refused
(b'hello', None)
"""

from __future__ import annotations

import functools
import hashlib
import hmac
from collections.abc import Sequence

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PublicKey

from .identity import Identity

SEALED = 0xC1
"""The first byte of a sealed datagram (a byte no msgpack value starts with)."""
LABEL_SIZE = 8
COUNTER_SIZE = 8
MAC_SIZE = 16
SEAL_SIZE = 1 + LABEL_SIZE + COUNTER_SIZE + MAC_SIZE  # what sealing adds to a datagram
_MAC_AT = 1 + LABEL_SIZE + COUNTER_SIZE
AHEAD = 16
"""Counters above the highest taken that a window takes: more of a seat's datagrams lost in
a row, and the window waits to be relaxed."""
BEHIND = 4
"""Counters up to the highest taken that a window still takes once (datagrams overtaken)."""
_P = 2**255 - 19


def exchange_public(ed25519_public: bytes) -> bytes:
    """The X25519 public key of an Ed25519 public key: the Montgomery u = (1 + y) / (1 - y)
    of its Edwards y (ValueError if there is none)."""
    y = int.from_bytes(ed25519_public, "little") & ((1 << 255) - 1)
    if y >= _P or (1 - y) % _P == 0:
        raise ValueError("not an Ed25519 public key")
    return ((1 + y) * pow(1 - y, _P - 2, _P) % _P).to_bytes(32, "little")


def pairwise_key(identity: Identity, other: bytes, game_id: bytes) -> bytes:
    """The key ``identity`` shares with the seat whose Ed25519 key is ``other`` in one game
    (the same on both sides); ValueError if ``other`` is no usable key."""
    shared = identity.exchange_key().exchange(
        X25519PublicKey.from_public_bytes(exchange_public(other)))
    low, high = sorted((identity.public_key, other))
    return hashlib.blake2b(shared + low + high + game_id, digest_size=32,
                           person=b"pairwise-key").digest()


def seat_keys(identity: Identity, seats: Sequence[bytes], game_id: bytes) -> dict[int, bytes]:
    """Our pairwise key with every other seat (by seat number) whose key allows one."""
    keys = {}
    for seat, key in enumerate(seats):
        if key != identity.public_key:
            try:
                keys[seat] = pairwise_key(identity, key, game_id)
            except ValueError:  # a key with no X25519 twin, or a low-order one
                continue
    return keys


@functools.lru_cache(maxsize=128)
def _keyed(key: bytes, size: int, person: bytes) -> hashlib.blake2b:
    """A hash keyed with ``key`` (a block of work), to copy for each use."""
    return hashlib.blake2b(key=key, digest_size=size, person=person)


def label(key: bytes, sender: bytes, counter: int) -> bytes:
    """The label of datagram number ``counter`` that the seat whose Ed25519 key is ``sender``
    seals under the pair's ``key``."""
    keyed = _keyed(key, LABEL_SIZE, b"datagram-label").copy()
    keyed.update(sender + counter.to_bytes(COUNTER_SIZE, "big"))
    return keyed.digest()


def label_of(datagram: bytes) -> bytes:
    """The label a sealed datagram carries."""
    return datagram[1:1 + LABEL_SIZE]


def counter_of(datagram: bytes) -> int:
    """The counter a sealed datagram carries."""
    return int.from_bytes(datagram[1 + LABEL_SIZE:_MAC_AT], "big")


def _mac(head: bytes, message: bytes, key: bytes) -> bytes:
    mac = _keyed(key, MAC_SIZE, b"datagram").copy()
    mac.update(head)
    mac.update(message)
    return mac.digest()


def seal(message: bytes, key: bytes, sender: bytes, counter: int) -> bytes:
    """``message`` as datagram number ``counter`` of ``sender`` under the pair's ``key``."""
    head = label(key, sender, counter) + counter.to_bytes(COUNTER_SIZE, "big")
    return bytes([SEALED]) + head + _mac(head, message, key) + message


def is_sealed(datagram: bytes) -> bool:
    return len(datagram) > SEAL_SIZE and datagram[0] == SEALED


def _proven(datagram: bytes, key: bytes) -> bytes | None:
    """The message of a sealed datagram if its MAC holds under ``key``."""
    message = datagram[SEAL_SIZE:]
    proof = _mac(datagram[1:_MAC_AT], message, key)
    return message if hmac.compare_digest(datagram[_MAC_AT:SEAL_SIZE], proof) else None


def opened(datagram: bytes, key: bytes, sender: bytes) -> bytes | None:
    """The message of a datagram that ``sender`` sealed under ``key``, or None if it is not
    (checked in order of cost: the seal's byte, the label of its counter, then the MAC)."""
    if (not is_sealed(datagram)
            or label_of(datagram) != label(key, sender, counter_of(datagram))):
        return None
    return _proven(datagram, key)


class Window:
    """The counters still taken of one seat's datagrams to us, and their labels (see the
    module's docstring): each counter once, the :data:`AHEAD` after the highest taken and the
    :data:`BEHIND` below it not taken yet, or, while :attr:`relaxed`, any above those."""

    def __init__(self, key: bytes, sender: bytes) -> None:
        """For the datagrams that the seat whose Ed25519 key is ``sender`` seals under the
        pair's ``key``; relaxed until it took one (nothing tells where the seat's counter is)."""
        self._key, self._sender = key, sender
        self.top: int | None = None  # the highest counter taken
        self.relaxed = True
        self.followed = False  # a datagram was taken since the window was last relaxed
        self._taken: set[int] = set()  # the counters taken (or given up) above top - BEHIND
        self._expected: dict[int, bytes] = {}  # counter -> label, while not relaxed
        self.labels: tuple[bytes, ...] | None = None
        """The labels for the kernel's filter, lowest first; None while relaxed (any).
        Attaching a filter costs the kernel tens of microseconds, so they are renewed only
        when the seat has used half of those ahead, or when a datagram got through with one
        that is no longer taken (a copy, or a replay): the kernel drops the next ones; and,
        once that happened, with every datagram taken (someone copies the seat's labels)."""
        self._published: frozenset[bytes] = frozenset()  # :attr:`labels`, to look up
        self._published_at = 0  # the top when they were renewed
        self._copied = False  # a copy got through since the window was last relaxed

    def take(self, datagram: bytes) -> bytes | None:
        """The message of ``datagram`` if it is sealed by the seat with a counter still
        taken (its label and then its MAC checked); the counter is then taken, for good.
        A counter whose label came with a MAC that fails is given up (its label was copied
        from the seat's datagram, lost or on its way: that costs one MAC check, not one a
        copy)."""
        if not is_sealed(datagram):
            return None
        counter = counter_of(datagram)
        if self.relaxed:
            if (counter in self._taken or (self.top is not None and counter <= self.top - BEHIND)
                    or label_of(datagram) != label(self._key, self._sender, counter)):
                return None
        elif self._expected.get(counter) != label_of(datagram):  # no hash: a lookup
            if counter not in self._expected and label_of(datagram) in self._published:
                self._copied = True
                self._publish()  # the kernel still takes it: no longer
            return None
        message = _proven(datagram, self._key)
        if message is not None:
            self._take(counter)
        elif not self.relaxed:
            self._taken.add(counter)
            self._expect()
            self._publish()
        return message

    def start(self, counter: int) -> None:
        """Take only the counters around ``counter``, taken already: the seat's first
        datagram in a game new to us (there is no older one that a replay could hold the
        window back to)."""
        self.relaxed = False
        self._take(counter)
        self._publish()

    def relax(self) -> None:
        """Take any counter above the last :data:`BEHIND` (the seat's own may have jumped)."""
        self.relaxed, self.followed, self.labels, self._copied = True, False, None, False
        self._expected, self._published = {}, frozenset()

    def tighten(self) -> None:
        """Take only the counters around the highest taken (once one was)."""
        if self.top is not None:
            self.relaxed = False
            self._expect()
            self._publish()

    def _take(self, counter: int) -> None:
        self.followed = True
        self._taken.add(counter)
        if self.top is None or counter > self.top:
            self.top = counter
            self._taken = {c for c in self._taken if c > counter - BEHIND}
        if not self.relaxed:
            self._expect()
            if self._copied or self.top - self._published_at >= AHEAD // 2:
                self._publish()

    def _expect(self) -> None:
        assert self.top is not None
        known, top = self._expected, self.top
        self._expected = {c: known.get(c) or label(self._key, self._sender, c)
                          for c in range(max(0, top - BEHIND + 1), top + AHEAD + 1)
                          if c not in self._taken}

    def _publish(self) -> None:
        assert self.top is not None
        self.labels = tuple(self._expected.values())
        self._published = frozenset(self.labels)
        self._published_at = self.top
