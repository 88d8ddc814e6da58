"""Colours, hex tiles and goods: the game's vocabulary as small ints.

A hex tile is a plain ``int`` (a :class:`Tile` member) so that states copy, hash and encode
cheaply; tables indexed by tile give its colour and what it does.

>>> Tile.COW_3.colour.name
'LIGHT_GREEN'
>>> Tile.COW_3.animals, Tile.COW_3.animal.name
(3, 'COW')
>>> Tile.KNOWLEDGE_8.knowledge
8
>>> tile_name(Tile.CITY_HALL)
'city hall'
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Final


class Colour(IntEnum):
    """The six colours of hex tiles and estate spaces (a tile goes on a space of its colour)."""

    BEIGE = 0  # buildings, in cities
    LIGHT_GREEN = 1  # animals, in pastures
    BLUE = 2  # ships, on rivers
    DARK_GREEN = 3  # castles
    GREY = 4  # mines
    YELLOW = 5  # knowledge

    @property
    def letter(self) -> str:
        """One letter for the kind of tile that goes on this colour (never rely on colour alone)."""
        return COLOUR_LETTERS[self]


COLOUR_LETTERS: Final = "BASCMK"  # Building, Animal, Ship, Castle, Mine, Knowledge
COLOUR_NAMES: Final = ("beige", "light green", "blue", "dark green", "grey", "yellow")
REGION_NAMES: Final = ("city", "pasture", "river", "castle", "mine", "knowledge")


class Building(IntEnum):
    """The eight building types; each appears at most once per city."""

    WAREHOUSE = 0
    CARPENTERS_WORKSHOP = 1
    CHURCH = 2
    MARKET = 3
    BOARDING_HOUSE = 4
    BANK = 5
    CITY_HALL = 6
    WATCHTOWER = 7


class Animal(IntEnum):
    """The four animal types; same-type tiles in one pasture score again."""

    COW = 0
    SHEEP = 1
    PIG = 2
    CHICKEN = 3
    GOOSE = 4  # the geese tile (extra tiles module): a type of its own for knowledge #24


class Tile(IntEnum):
    """Every distinct hex tile. Buildings first (their value is their :class:`Building`)."""

    WAREHOUSE = 0
    CARPENTERS_WORKSHOP = 1
    CHURCH = 2
    MARKET = 3
    BOARDING_HOUSE = 4
    BANK = 5
    CITY_HALL = 6
    WATCHTOWER = 7
    COW_2 = 8
    COW_3 = 9
    COW_4 = 10
    SHEEP_2 = 11
    SHEEP_3 = 12
    SHEEP_4 = 13
    PIG_2 = 14
    PIG_3 = 15
    PIG_4 = 16
    CHICKEN_2 = 17
    CHICKEN_3 = 18
    CHICKEN_4 = 19
    SHIP = 20
    CASTLE = 21
    MINE = 22
    KNOWLEDGE_1 = 23
    KNOWLEDGE_2 = 24
    KNOWLEDGE_3 = 25
    KNOWLEDGE_4 = 26
    KNOWLEDGE_5 = 27
    KNOWLEDGE_6 = 28
    KNOWLEDGE_7 = 29
    KNOWLEDGE_8 = 30
    KNOWLEDGE_9 = 31
    KNOWLEDGE_10 = 32
    KNOWLEDGE_11 = 33
    KNOWLEDGE_12 = 34
    KNOWLEDGE_13 = 35
    KNOWLEDGE_14 = 36
    KNOWLEDGE_15 = 37
    KNOWLEDGE_16 = 38
    KNOWLEDGE_17 = 39
    KNOWLEDGE_18 = 40
    KNOWLEDGE_19 = 41
    KNOWLEDGE_20 = 42
    KNOWLEDGE_21 = 43
    KNOWLEDGE_22 = 44
    KNOWLEDGE_23 = 45
    KNOWLEDGE_24 = 46
    KNOWLEDGE_25 = 47
    KNOWLEDGE_26 = 48
    # The 2019 expansion modules' tiles (in play only when their module is switched on).
    KNOWLEDGE_27 = 49  # extra tiles: on top of any stack on the bridge
    KNOWLEDGE_28 = 50  # extra tiles: buy 2 workers for 1 silverling
    KNOWLEDGE_29 = 51  # white castles: 4 VP per white castle at the end
    CRANE = 52  # extra tiles: a building that triggers any building's effect
    GEESE = 53  # extra tiles: an animal tile that scores with every other animal type
    WHITE_CASTLE = 54  # white castles: a building that takes an action with the white die
    INN = 55  # inns: goes on any colour; its area scores one size bigger

    @property
    def colour(self) -> Colour | None:
        """The colour of space the tile goes on (None for the inn: any colour)."""
        colour = TILE_COLOUR[self]
        return None if colour == ANY_COLOUR else Colour(colour)

    @property
    def animal(self) -> Animal | None:
        """The animal type of an animal tile, else None."""
        return Animal(ANIMAL_TYPE[self]) if TILE_COLOUR[self] == Colour.LIGHT_GREEN else None

    @property
    def animals(self) -> int:
        """How many animals the tile shows (0 for non-animal tiles)."""
        return ANIMAL_COUNT[self]

    @property
    def knowledge(self) -> int:
        """The knowledge tile's number 1..26, or 0 for other tiles."""
        return KNOWLEDGE_NUMBER[self]


TILE_COUNT: Final = len(Tile)
BASE_TILE_COUNT: Final = Tile.KNOWLEDGE_26 + 1  # the tiles of the base game (the rest: modules)
FIRST_ANIMAL: Final = Tile.COW_2
FIRST_KNOWLEDGE: Final = Tile.KNOWLEDGE_1
ANY_COLOUR: Final = len(Colour)  # TILE_COLOUR of the inn, which goes on a space of any colour
FACE_DOWN: Final = 64
"""Added to a tile's number while it lies black side up (the solo game's ship exchange): it
goes on a space of any colour and does nothing but fill the space, and stays that tile for
the count of the box (``tile - FACE_DOWN``)."""
GEESE_VP: Final = 2  # for the geese, when placed and whenever an animal tile joins their pasture


def knowledge_tile(number: int) -> Tile:
    """The tile of knowledge number ``number`` (1..26).

    >>> knowledge_tile(26).name
    'KNOWLEDGE_26'
    """
    return Tile(FIRST_KNOWLEDGE + number - 1)


def animal_tile(animal: Animal, animals: int) -> Tile:
    """The tile showing ``animals`` (2..4) animals of type ``animal``.

    >>> animal_tile(Animal.PIG, 4).name
    'PIG_4'
    """
    return Tile(FIRST_ANIMAL + 3 * animal + animals - 2)


def _colour_of(tile: int) -> int:
    if tile < FIRST_ANIMAL or tile in (Tile.CRANE, Tile.WHITE_CASTLE):
        return Colour.BEIGE
    if tile < Tile.SHIP or tile == Tile.GEESE:
        return Colour.LIGHT_GREEN
    if FIRST_KNOWLEDGE <= tile <= Tile.KNOWLEDGE_29:
        return Colour.YELLOW
    return {Tile.SHIP: Colour.BLUE, Tile.CASTLE: Colour.DARK_GREEN, Tile.MINE: Colour.GREY,
            Tile.INN: ANY_COLOUR}[Tile(tile)]


def _animal(tile: int) -> tuple[int, int]:
    """(type, count) of an animal tile; (-1, 0) for others."""
    if tile == Tile.GEESE:
        return Animal.GOOSE, 2
    if TILE_COLOUR[tile] == Colour.LIGHT_GREEN:
        return (tile - FIRST_ANIMAL) // 3, (tile - FIRST_ANIMAL) % 3 + 2
    return -1, 0


# Lookup tables indexed by tile number (tuples: the hot paths index them millions of times),
# face-down tiles included (FACE_DOWN + tile: any colour, no animals, no knowledge).
_FACE_DOWN_PAD: Final = FACE_DOWN - TILE_COUNT  # numbers between the tiles and the face-down tiles
TILE_COLOUR: Final[tuple[int, ...]] = (tuple(int(_colour_of(t)) for t in range(TILE_COUNT))
                                + (-1,) * _FACE_DOWN_PAD + (ANY_COLOUR,) * TILE_COUNT)
ANIMAL_TYPE: Final[tuple[int, ...]] = (tuple(_animal(t)[0] for t in range(TILE_COUNT))
                                + (-1,) * (_FACE_DOWN_PAD + TILE_COUNT))
ANIMAL_COUNT: Final[tuple[int, ...]] = (tuple(_animal(t)[1] for t in range(TILE_COUNT))
                                 + (0,) * (_FACE_DOWN_PAD + TILE_COUNT))
KNOWLEDGE_NUMBER: Final[tuple[int, ...]] = tuple(
    t - FIRST_KNOWLEDGE + 1 if TILE_COLOUR[t] == Colour.YELLOW else 0
    for t in range(FACE_DOWN + TILE_COUNT)
)

# Knowledge tiles #16..#23 (and #29, white castles module) score 4 VP per building of one
# type at the end.
KNOWLEDGE_BUILDING_SCORED: Final[dict[int, int]] = {
    16: Building.MARKET,
    17: Building.WATCHTOWER,
    18: Building.CARPENTERS_WORKSHOP,
    19: Building.CHURCH,
    20: Building.WAREHOUSE,
    21: Building.BOARDING_HOUSE,
    22: Building.BANK,
    23: Building.CITY_HALL,
    29: Tile.WHITE_CASTLE,
}


ANIMAL_PLURALS: Final = ("cows", "sheep", "pigs", "chickens", "geese")  # by Animal


def tile_name(tile: int) -> str:
    """A short human name for a tile.

    >>> tile_name(Tile.SHEEP_4), tile_name(Tile.KNOWLEDGE_12), tile_name(Tile.SHIP)
    ('4 sheep', 'knowledge #12', 'ship')
    >>> tile_name(Tile.GEESE), tile_name(Tile.WHITE_CASTLE), tile_name(Tile.INN)
    ('2 geese', 'white castle', 'inn')
    >>> tile_name(FACE_DOWN + Tile.MINE)
    'face-down mine'
    """
    if tile >= FACE_DOWN:
        return f"face-down {tile_name(tile - FACE_DOWN)}"
    colour = TILE_COLOUR[tile]
    if colour == Colour.BEIGE and tile < FIRST_ANIMAL:
        return Building(tile).name.lower().replace("_", " ").replace("carpenters", "carpenter's")
    if colour == Colour.LIGHT_GREEN:
        return f"{ANIMAL_COUNT[tile]} {ANIMAL_PLURALS[ANIMAL_TYPE[tile]]}"
    if colour == Colour.YELLOW:
        return f"knowledge #{KNOWLEDGE_NUMBER[tile]}"
    return Tile(tile).name.lower().replace("_", " ")


# --- The face-down supplies (2011 and 2019 base game: 164 hex tiles) -------------------------
# Normal backs by colour, and the black-backed supply for the central depot.

def _supply(entries: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    return tuple(sorted(t for t, n in entries for _ in range(n)))


_BUILDINGS: Final = list(Building)
_ANIMAL_KINDS: Final = [a for a in Animal if a != Animal.GOOSE]

NORMAL_SUPPLY: Final[tuple[tuple[int, ...], ...]] = (
    _supply([(b, 5) for b in _BUILDINGS]),  # beige: 40
    _supply(
        [(animal_tile(a, n), k) for a in _ANIMAL_KINDS for n, k in ((2, 2), (3, 2), (4, 1))]
    ),  # light green: 20
    _supply([(Tile.SHIP, 20)]),  # blue: 20
    _supply([(Tile.CASTLE, 14)]),  # dark green: 14 (the start castles come from these)
    _supply([(Tile.MINE, 10)]),  # grey: 10
    _supply([(knowledge_tile(n), 1) for n in range(1, 27) if n not in (7, 12, 14, 15, 24, 25)]),
)
BLACK_SUPPLY: Final[tuple[int, ...]] = _supply(
    [(b, 2) for b in _BUILDINGS]
    + [(animal_tile(a, n), 1) for a in _ANIMAL_KINDS for n in (3, 4)]
    + [(Tile.SHIP, 6), (Tile.CASTLE, 2), (Tile.MINE, 2)]
    + [(knowledge_tile(n), 1) for n in (7, 12, 14, 15, 24, 25)]
)

# The expansion modules' tiles, by the supply they are shuffled into: 0..5 the normal backs by
# colour, 6 the black backs, 7 the inns' own stack (one comes out beside the black depot at
# the start of each phase). Keyed by the module's name (config.Module's value).
MODULE_TILES: Final[dict[str, dict[int, tuple[int, ...]]]] = {
    "extra-tiles": {Colour.YELLOW: (Tile.KNOWLEDGE_27, Tile.KNOWLEDGE_28),
                    6: (Tile.CRANE, Tile.GEESE)},
    "white-castles": {Colour.BEIGE: (Tile.WHITE_CASTLE,) * 6, Colour.YELLOW: (Tile.KNOWLEDGE_29,),
                      6: (Tile.WHITE_CASTLE,) * 2},
    "inns": {7: (Tile.INN,) * 5},
}

# --- Goods ------------------------------------------------------------------------------------
# A goods type is the die number printed on it (1..6); the colours are only for display.
GOODS_TYPES: Final = (1, 2, 3, 4, 5, 6)
GOODS_NAMES: Final = ("", "turquoise", "violet", "pink", "red", "brown", "orange")
GOODS_PER_TYPE: Final = 7
GOODS_SUPPLY: Final[tuple[int, ...]] = tuple(g for g in GOODS_TYPES for _ in range(GOODS_PER_TYPE))
