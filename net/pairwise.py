"""Pairwise keys between the seats of a game, and the MAC on every datagram between them.

Log entries are signed: the signatures are the audit. But checking one costs about 150 µs,
and a source address is only a claim, so anyone on the LAN could make a peer check (or drop,
with the seat's own budget) datagrams "from" a player. Between seats, every datagram of the
session therefore carries a 16-byte keyed BLAKE2b MAC under a key only the two seats hold:
a datagram that fails it costs one hash of at most 1200 bytes (about a microsecond), is
dropped before anything else, and gets no reply (or, without the pair's label, is dropped by
the kernel before we read it).

The key of each pair comes from their identities alone, with nothing more on the wire: each
Ed25519 key has an X25519 twin (:meth:`Identity.exchange_key
<p2p_burgundy.net.identity.Identity.exchange_key>` and :func:`exchange_public`, the
conversion libsodium uses), the two seats' X25519 agreement gives a shared secret, and
:func:`pairwise_key` hashes it with both keys and the game id (so every game has its own).

A sealed datagram is ``0xC1 || label(8) || MAC(16) || message``: 0xC1 is a byte msgpack
never uses, so it cannot be mistaken for an unsealed message (``0x92..0x9F``). The pair's
:func:`label`, the same in every datagram between them, names the key to check (one MAC,
whatever the source address) and lets the receiver's kernel drop, before it is read, a
datagram from a seat's address without it (net/transport.py's socket filter): someone who
does not see the pair's traffic cannot guess it. It proves nothing: whoever does see that
traffic can copy it, and then pays the receiver a MAC check per datagram, as any forger would
without the label.

>>> from p2p_burgundy.net.identity import Identity
>>> anna, bo = (Identity.from_private_bytes(bytes([n]) * 32) for n in (1, 2))
>>> key = pairwise_key(anna, bo.public_key, b"g" * 16)
>>> key == pairwise_key(bo, anna.public_key, b"g" * 16)
True
>>> opened(seal(b"hello", key), key), opened(seal(b"hello", key)[:-1] + b"?", key)
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
MAC_SIZE = 16
SEAL_SIZE = 1 + LABEL_SIZE + MAC_SIZE  # what sealing adds to a datagram
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


@functools.lru_cache(maxsize=64)
def label(key: bytes) -> bytes:
    """The label of the pair whose key is ``key``, in clear in each datagram they seal."""
    return hashlib.blake2b(key, digest_size=LABEL_SIZE, person=b"datagram-label").digest()


def label_of(datagram: bytes) -> bytes:
    """The label a sealed datagram carries."""
    return datagram[1:1 + LABEL_SIZE]


@functools.lru_cache(maxsize=64)
def _keyed(key: bytes) -> hashlib.blake2b:
    """A MAC's hash with ``key`` taken in (a block of work), to copy for each datagram."""
    return hashlib.blake2b(key=key, digest_size=MAC_SIZE, person=b"datagram")


def _mac(message: bytes, key: bytes) -> bytes:
    mac = _keyed(key).copy()
    mac.update(message)
    return mac.digest()


def seal(message: bytes, key: bytes) -> bytes:
    """``message`` with the pair's label and its MAC under ``key``."""
    return bytes([SEALED]) + label(key) + _mac(message, key) + message


def is_sealed(datagram: bytes) -> bool:
    return len(datagram) > SEAL_SIZE and datagram[0] == SEALED


def opened(datagram: bytes, key: bytes) -> bytes | None:
    """The message of a datagram sealed under ``key``, or None if it is not (checked in
    order of cost: the seal's byte, the pair's label, then the MAC)."""
    if len(datagram) <= SEAL_SIZE or datagram[0] != SEALED or label_of(datagram) != label(key):
        return None
    message = datagram[SEAL_SIZE:]
    proof = datagram[1 + LABEL_SIZE:SEAL_SIZE]
    return message if hmac.compare_digest(proof, _mac(message, key)) else None
