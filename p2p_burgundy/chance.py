"""Chance events: how entropy bytes become dice and draws, by one documented function.

The engine never draws randomness itself. When it needs chance it says so
(:attr:`GameState.chance <p2p_burgundy.state.GameState.chance>`), and the caller supplies 32
entropy bytes for that event (from the peers' commit-reveal beacon, or from a seed locally).

From the entropy the engine reads a byte stream: block ``i`` (from 0) is
``SHA-256(b"p2p-burgundy/draws/v1" || entropy || i as 4 bytes big-endian)``, and the blocks
are concatenated. A uniform integer in ``[0, n)`` takes the next 4 bytes as a big-endian
unsigned ``x``; if ``x >= 2**32 - 2**32 % n`` it is rejected and the next 4 bytes are read
(rejection sampling: no modulo bias); otherwise the result is ``x % n``.

>>> draws = Draws(bytes(32))
>>> [draws.die() for _ in range(8)]
[5, 1, 3, 2, 6, 6, 5, 2]
>>> Draws(b"short")
Traceback (most recent call last):
...
p2p_burgundy.errors.ChanceError: entropy must be 32 bytes, not 5
"""

from __future__ import annotations

import hashlib
import struct
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from .errors import ChanceError
from .pickling import by_constructor

ENTROPY_SIZE: Final = 32
DRAWS_LABEL: Final = b"p2p-burgundy/draws/v1"
_WORD: Final = 4
_SPAN: Final = 1 << (8 * _WORD)
_BLOCK_WORDS: Final = 32 // _WORD  # a SHA-256 block holds eight words
_BLOCK: Final = struct.Struct(f">{_BLOCK_WORDS}I").unpack
_DIE_LIMIT: Final = _SPAN - _SPAN % 6
_BYTES: Final = (bytes, bytearray)
_COUNTED: Final = 64  # blocks whose counter bytes are made once (an event reads a few)
_COUNTERS: Final = tuple(block.to_bytes(4, "big") for block in range(_COUNTED))


class ChanceKind(IntEnum):
    """What a chance event decides."""

    SETUP = 0  # start player and everyone's three goods
    PHASE = 1  # the phase's depot tiles, black depot tiles and five goods
    ROUND = 2  # every player's two dice and the white die
    DEAL = 3  # the experts' set-up: each player's board (two estates), after SETUP


@dataclass(frozen=True, slots=True)
class ChanceEvent:
    """The engine's request for entropy: event ``index`` counts from 0 over the whole game."""

    index: int
    kind: ChanceKind
    phase: int  # 0..4 for A..E
    round: int  # 0..4

    def __reduce__(self) -> tuple[type[ChanceEvent], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py


@dataclass(frozen=True, slots=True)
class SetupDraw:
    """What the SETUP event drew: the start player and each seat's three goods (sorted);
    with the shields module, the shields on depots 1..6 (``shields[d - 1]``, sorted); with
    the trade routes module, each seat's route cards in the order dealt."""

    start_player: int
    goods: tuple[tuple[int, ...], ...]
    shields: tuple[tuple[int, ...], ...] = ()
    routes: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class DealDraw:
    """What the DEAL event of the experts' set-up dealt: each seat's two estates (side 0,
    side 1) to choose from."""

    offers: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class PhaseDraw:
    """What a PHASE event drew: the tiles of every depot (index 0 the black depot, 1..6 the
    numbered ones; -1 an empty slot) and the phase's five goods in round order."""

    phase: int
    depots: tuple[tuple[int, ...], ...]
    goods: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundDraw:
    """What a ROUND event rolled: two dice per seat and the white die (which puts the
    round's goods ``goods`` on depot ``white_die``), and the round's turn order."""

    phase: int
    round: int
    dice: tuple[tuple[int, int], ...]
    white_die: int
    goods: int
    order: tuple[int, ...]
    removed: tuple[int, int] | None = None
    """The solo game: the depot and the tile that left the game (None: every depot empty)."""


Draw = SetupDraw | DealDraw | PhaseDraw | RoundDraw
"""What one chance event drew, as :func:`~p2p_burgundy.rules.draw_chance` states it."""


class Draws:
    """The deterministic stream of uniform draws derived from one event's entropy."""

    __slots__ = ("_block", "_entropy", "_next", "_words")

    def __init__(self, entropy: bytes) -> None:
        if not isinstance(entropy, _BYTES) or len(entropy) != ENTROPY_SIZE:
            size = len(entropy) if isinstance(entropy, _BYTES) else type(entropy)
            raise ChanceError(f"entropy must be {ENTROPY_SIZE} bytes, not {size}")
        self._entropy = DRAWS_LABEL + entropy
        self._block = 0
        self._words: tuple[int, ...] = ()
        self._next = _BLOCK_WORDS

    def _block_words(self) -> tuple[int, ...]:
        """The next block's eight words (the stream is read a block at a time)."""
        block = self._block
        counter = _COUNTERS[block] if block < _COUNTED else block.to_bytes(4, "big")
        words = _BLOCK(hashlib.sha256(self._entropy + counter).digest())
        self._block = block + 1
        return words

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``.

        >>> d = Draws(bytes(range(32)))
        >>> [d.below(3) for _ in range(6)]
        [2, 1, 1, 1, 2, 2]
        """
        if n < 1 or n > _SPAN:
            raise ValueError(f"cannot draw below {n}")
        limit = _SPAN - _SPAN % n
        while True:
            if self._next == _BLOCK_WORDS:
                self._words = self._block_words()
                self._next = 0
            x = self._words[self._next]
            self._next += 1
            if x < limit:
                return x % n

    def die(self) -> int:
        """A die roll, 1..6."""
        return self.below(6) + 1

    def dice(self, count: int) -> list[int]:
        """``count`` die rolls: the same as calling :meth:`die` ``count`` times, faster.

        >>> Draws(bytes(32)).dice(8)
        [5, 1, 3, 2, 6, 6, 5, 2]
        """
        rolls: list[int] = []
        words, i = self._words, self._next
        while count > 0:
            if i == _BLOCK_WORDS:
                words, i = self._block_words(), 0
            x = words[i]
            i += 1
            if x < _DIE_LIMIT:
                rolls.append(x % 6 + 1)
                count -= 1
        self._words, self._next = words, i
        return rolls

    def take(self, pool: list[int]) -> int:
        """Remove and return a uniformly chosen element of ``pool`` (kept sorted by callers):
        the same as ``pool.pop(self.below(len(pool)))``, with the first word read here (the
        hot path of every phase's tiles)."""
        n = len(pool)
        if n and self._next < _BLOCK_WORDS:
            x = self._words[self._next]
            self._next += 1
            if x < _SPAN - _SPAN % n:
                return pool.pop(x % n)
        return pool.pop(self.below(n))  # a new block, a rejected word, or an empty pool

    def take_each(self, pools: list[list[int]], empty: int) -> list[int]:
        """One element from each of ``pools`` in turn, as :meth:`take` would, except that an
        empty pool gives ``empty`` and draws nothing (a pool may be listed more than once).

        >>> Draws(bytes(32)).take_each([[10, 11, 12], [], [20, 21], [10, 11, 12]], -1)
        [11, -1, 20, 12]
        """
        out = []
        words, i = self._words, self._next
        for pool in pools:
            n = len(pool)
            if not n:
                out.append(empty)
                continue
            limit = _SPAN - _SPAN % n
            while True:
                if i == _BLOCK_WORDS:
                    words, i = self._block_words(), 0
                x = words[i]
                i += 1
                if x < limit:
                    break
            out.append(pool.pop(x % n))
        self._words, self._next = words, i
        return out
