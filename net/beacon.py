"""Fair randomness: hash-chain commit-reveal (DESIGN.md, "Fair randomness").

Each peer picks a secret 32-byte seed and hashes it :data:`CHAIN_LENGTH` (N) times::

    link[0] = seed
    link[i] = SHA-256(b"p2p-burgundy/v1/chain\\x00" + link[i - 1])
    commitment = link[N]

The commitment is signed when the game starts. For chance event k (0 <= k < N) every peer
reveals ``link[N - 1 - k]``, the preimage of what it revealed for event k - 1 (or of its
commitment, for k = 0). Nobody can compute a link before its owner reveals it, and nobody can
swap it after committing. The event's entropy (:func:`event_entropy`) hashes the game id, k
and every peer's reveal.

>>> chain = HashChain(bytes(32))
>>> verify_reveal(chain.commitment, 0, chain.reveal(0))
True
>>> verify_reveal(chain.commitment, 1, chain.reveal(0))
False
"""

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass

from .errors import LocalProtocolError

CHAIN_LENGTH = 64
"""Chance events one chain covers; a game has about 31 (setup, 5 phases, 25 rounds)."""

LINK_SIZE = 32
"""Bytes in a seed, a link, a commitment, a reveal and an event's entropy (SHA-256)."""

_CHAIN_LABEL = b"p2p-burgundy/v1/chain\x00"
_ENTROPY_LABEL = b"p2p-burgundy/v1/entropy\x00"


def _walk(link: bytes, steps: int) -> bytes:
    for _ in range(steps):
        link = hashlib.sha256(_CHAIN_LABEL + link).digest()
    return link


def _check_event(k: int) -> None:
    if not 0 <= k < CHAIN_LENGTH:
        raise LocalProtocolError(f"chance event {k} is outside 0..{CHAIN_LENGTH - 1}")


@dataclass(frozen=True, slots=True, repr=False)
class HashChain:
    """One peer's secret chain for one game: only the seed is kept, links are recomputed.

    >>> HashChain(bytes(32))
    <HashChain commitment=b226100501442f7e…>
    """

    seed: bytes

    def __post_init__(self) -> None:
        if len(self.seed) != LINK_SIZE:
            raise LocalProtocolError(f"a chain seed is {LINK_SIZE} bytes, not {len(self.seed)}")

    @classmethod
    def generate(cls) -> "HashChain":
        """A chain with a new secret seed from ``os.urandom``."""
        return cls(os.urandom(LINK_SIZE))

    @property
    def commitment(self) -> bytes:
        """The chain tip, ``link[N]``: published (signed) at the start of the game."""
        return _walk(self.seed, CHAIN_LENGTH)

    def reveal(self, k: int) -> bytes:
        """The link to publish for chance event ``k``: ``link[N - 1 - k]``.

        >>> chain = HashChain(bytes(32))
        >>> chain.reveal(CHAIN_LENGTH - 1) == chain.seed
        True
        """
        _check_event(k)
        return _walk(self.seed, CHAIN_LENGTH - 1 - k)

    def __repr__(self) -> str:
        # Never the seed: it would let a log reader predict every later reveal.
        return f"<HashChain commitment={self.commitment[:8].hex()}…>"


def earlier_link(link: bytes, k: int, earlier: int) -> bytes:
    """The link for chance event ``earlier`` of the chain whose link for event ``k`` is
    ``link`` (``earlier <= k``): each link hashes to the one before it, so a later reveal
    shows every earlier one (what a withheld reveal was, once its author revealed later)."""
    return _walk(link, k - earlier)


def verify_reveal(commitment: bytes, k: int, revealed: bytes,
                  known: tuple[int, bytes] | None = None) -> bool:
    """Whether ``revealed`` is the link for chance event ``k`` of the chain ``commitment``.

    True exactly when hashing ``revealed`` k + 1 times gives the commitment. This needs no
    earlier reveal, so reveals can be checked in any order of arrival; it costs at most
    :data:`CHAIN_LENGTH` hashes. ``known``: a reveal ``(j, link)`` of the same chain already
    verified, which saves the walk past it when ``j < k``: then it is the same to check that
    hashing ``revealed`` k − j times gives ``link``. Never raises for bytes arguments and an
    int ``k``.

    >>> chain = HashChain(bytes(32))
    >>> verify_reveal(chain.commitment, 5, chain.reveal(5), known=(2, chain.reveal(2)))
    True
    >>> verify_reveal(bytes(32), 0, bytes(32))
    False
    """
    if len(commitment) != LINK_SIZE or len(revealed) != LINK_SIZE:
        return False
    if not 0 <= k < CHAIN_LENGTH:
        return False
    if known is not None and known[0] < k:
        return _walk(revealed, k - known[0]) == known[1]
    return _walk(revealed, k + 1) == commitment


def event_entropy(game_id: bytes, k: int, reveals: Sequence[bytes]) -> bytes:
    """The 32 bytes of entropy for chance event ``k``, from every peer's reveal in seat order.

    SHA-256 of ``b"p2p-burgundy/v1/entropy\\x00"``, one byte giving the game id's length
    (1..255), the game id, ``k`` as 4 bytes big-endian, then each 32-byte reveal.

    >>> event_entropy(b"game-1", 0, [bytes(32), bytes([1]) * 32]).hex()[:16]
    '4186e33fa76ca2bb'
    """
    if not 1 <= len(game_id) <= 255:
        raise LocalProtocolError(f"a game id is 1 to 255 bytes, not {len(game_id)}")
    _check_event(k)
    if not reveals:
        raise LocalProtocolError("an event needs at least one reveal")
    for reveal in reveals:
        if len(reveal) != LINK_SIZE:
            raise LocalProtocolError(f"a reveal is {LINK_SIZE} bytes, not {len(reveal)}")
    return hashlib.sha256(
        _ENTROPY_LABEL + bytes([len(game_id)]) + game_id + k.to_bytes(4, "big") + b"".join(reveals)
    ).digest()
