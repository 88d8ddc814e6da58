"""The central game board: depot spaces, the black depot, rounds and phases.

>>> [len(depot_spaces(d, 2)) for d in range(1, 7)]
[2, 2, 2, 2, 2, 2]
>>> sum(len(depot_spaces(d, 3)) for d in range(1, 7)), BLACK_DEPOT_TILES[4]
(18, 8)
"""

from __future__ import annotations

from typing import Final

from .tiles import Colour

PHASES: Final = 5
ROUNDS: Final = 5
PHASE_LETTERS: Final = "ABCDE"

# Each numbered depot's four spaces: (colour, smallest player count that fills it).
# A game with N players fills the spaces printed 2..N: 12, 18 or 24 spaces.
DEPOT_SPACES: Final[tuple[tuple[tuple[Colour, int], ...], ...]] = (
    (),  # index 0 is the black depot: any tile, see BLACK_DEPOT_TILES
    ((Colour.BEIGE, 2), (Colour.BLUE, 2), (Colour.YELLOW, 3), (Colour.LIGHT_GREEN, 4)),
    ((Colour.YELLOW, 2), (Colour.DARK_GREEN, 2), (Colour.BEIGE, 3), (Colour.BEIGE, 4)),
    ((Colour.LIGHT_GREEN, 2), (Colour.BEIGE, 2), (Colour.BLUE, 3), (Colour.YELLOW, 4)),
    ((Colour.BLUE, 2), (Colour.BEIGE, 2), (Colour.LIGHT_GREEN, 3), (Colour.GREY, 4)),
    ((Colour.GREY, 2), (Colour.YELLOW, 2), (Colour.BEIGE, 3), (Colour.BEIGE, 4)),
    ((Colour.BEIGE, 2), (Colour.LIGHT_GREEN, 2), (Colour.DARK_GREEN, 3), (Colour.BLUE, 4)),
)
NUMBERED_DEPOT_SLOTS: Final = 4
BLACK_DEPOT_SLOTS: Final = 8
BLACK_DEPOT_TILES: Final = {2: 4, 3: 6, 4: 8}
# The 3-player exception: depot 6's dark green space gets a mine in phases B and D.
THREE_PLAYER_MINE_PHASES: Final = (1, 3)
NEIGHBOUR_DEPOT: Final = {d: d % 6 + 1 for d in range(1, 7)}  # the six depots form a ring: 6 ~ 1


# The order of a bridge without monastery #27: a round's order is remembered by its bridge,
# which only a ship changes (sorting a few seats by key costs several times a look-up).
# Bounded: the bridges of a few hundred games.
_ORDERS: Final[dict[tuple[tuple[int, int], ...], tuple[int, ...]]] = {}
_ORDERS_KEPT: Final = 1 << 12


def bridge_order(track: tuple[tuple[int, int], ...], on_top: int = 0) -> tuple[int, ...]:
    """The seats in turn order from the bridge (turn order track): each seat's ``(space,
    stamp)``, furthest along first; in a stack the piece placed last (highest stamp) first,
    except that the seats of ``on_top`` (a bit set: who owns monastery #27; in the team game
    both players of its team) are always on top of their stack.

    >>> bridge_order(((1, 0), (1, 5), (0, 9)))
    (1, 0, 2)
    >>> bridge_order(((1, 0), (1, 5), (0, 9)), on_top=0b1)
    (0, 1, 2)
    """
    # Sorted by (space, on top, stamp), highest first; a stable sort keeps equal pieces in seat
    # order (reverse=True keeps it too).
    if not on_top:
        order = _ORDERS.get(track)
        if order is None:
            if len(_ORDERS) >= _ORDERS_KEPT:
                _ORDERS.clear()
            _ORDERS[track] = order = tuple(
                sorted(range(len(track)), key=track.__getitem__, reverse=True))
        return order
    keys = [(space, on_top >> seat & 1, stamp) for seat, (space, stamp) in enumerate(track)]
    return tuple(sorted(range(len(keys)), key=keys.__getitem__, reverse=True))


def depot_name(depot: int) -> str:
    """A depot as a choice names it: the black depot (0) or a numbered one.

    >>> depot_name(0), depot_name(3)
    ('black depot', 'depot 3')
    """
    return "black depot" if depot == 0 else f"depot {depot}"


def depot_spaces(depot: int, players: int) -> list[tuple[int, Colour]]:
    """(slot, colour) of each space of numbered ``depot`` filled in a ``players`` game."""
    return [(slot, colour) for slot, (colour, least) in enumerate(DEPOT_SPACES[depot])
            if least <= players]


def space_colour(depot: int, slot: int, players: int, phase: int) -> Colour:
    """The colour a depot space is filled with this phase (the 3-player depot 6 rule).

    >>> space_colour(6, 2, 3, 1).name, space_colour(6, 2, 3, 2).name, space_colour(6, 2, 4, 1).name
    ('GREY', 'DARK_GREEN', 'DARK_GREEN')
    """
    colour = DEPOT_SPACES[depot][slot][0]
    if players == 3 and depot == 6 and colour == Colour.DARK_GREEN \
            and phase in THREE_PLAYER_MINE_PHASES:
        return Colour.GREY
    return colour
