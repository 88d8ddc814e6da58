"""The solo game's rivers: "you can only expand to other regions via the rivers" (2019
rulebook) on a duchy whose rivers are its blue spaces, and whether a duchy can be filled under
that rule (the solo game is won by filling all 37 spaces).

Our reading (docs/engine.md, "The solo game"): a region on a river (not blue itself, with a
space next to a blue space) is begun from the water or from land no river reaches: next to a
covered blue space, or next to a covered tile of a region away from the rivers. Never from
another region on a river: between two regions on a river the way goes by the river. Blue
regions and regions away from the rivers are begun as in the base game, next to any tile.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .estate import NEIGHBOURS, SPACE_COUNT, Estate, bits
from .tiles import Colour

ALL_SPACES: Final = (1 << SPACE_COUNT) - 1


def river_reach(board: Estate, occupied: int) -> int:
    """The spaces a tile may go on as far as regions go (adjacency aside), with the tiles of
    ``occupied`` on ``board``: every space of a region already begun, of a blue region or of
    a region away from the rivers, and the spaces of a region on a river next to a covered
    blue space or to a covered tile away from the rivers.

    >>> from p2p_burgundy.estate import estate
    >>> board = estate("1")
    >>> reach = river_reach(board, 1 << 18)  # the start castle alone, on a river
    >>> [board.label(s) for s in bits(reach & NEIGHBOURS[18])]
    ['S2 (row 4, 3)', 'S5 (row 4, 5)']
    >>> reach = river_reach(board, 1 << 6)  # on the castle space 6, away from the rivers
    >>> [board.label(s).split()[0] for s in bits(reach & NEIGHBOURS[6])]
    ['C5', 'C4', 'A1', 'K5', 'B3', 'K1']
    """
    blue = board.colour_masks[Colour.BLUE]
    shore = 0
    for s in bits(blue):
        shore |= NEIGHBOURS[s]
    reach = banks = 0
    for region in board.regions:
        mask = region.mask
        if mask & shore and not mask & blue:  # a region on a river
            banks |= mask
            if mask & occupied:
                reach |= mask
        else:
            reach |= mask
    for s in bits(occupied & ~banks):
        reach |= NEIGHBOURS[s]
    return reach


@lru_cache(maxsize=64)
def never_covered(board: Estate, start: int) -> int:
    """The spaces no tile can ever cover in a solo game on ``board`` with the start castle on
    ``start``, as a mask (0: all 37 can be filled, so the game can be won). Covering a space
    never takes a way away, so covering every space that can be covered, over and over until
    none can, finds them all.

    >>> from p2p_burgundy.estate import estate
    >>> [never_covered(estate("1"), s) for s in estate("1").dark_green_spaces]
    [0, 0, 0, 0]
    """
    occupied = 1 << start
    frontier = NEIGHBOURS[start]
    while True:
        new = frontier & ~occupied & river_reach(board, occupied)
        if not new:
            return ALL_SPACES & ~occupied
        occupied |= new
        for s in bits(new):
            frontier |= NEIGHBOURS[s]
