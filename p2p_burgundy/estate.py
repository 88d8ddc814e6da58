"""Estates (player boards): 37 hex spaces, their colours and dice, adjacency and regions.

Spaces are numbered 0..36 row by row from the top left (rows of 4, 5, 6, 7, 6, 5, 4 spaces).
Sets of spaces are ``int`` bit masks (bit ``i`` = space ``i``) so the rules can intersect them
in one operation. Layouts are data (``data/estates.json``), validated when loaded.

>>> e = estate("1")
>>> len(e.spaces), e.start_castle, e.label(18)
(37, 18, 'C6 (row 4, 4)')
>>> sorted(r.size for r in e.regions if r.colour == Colour.BEIGE)
[1, 3, 3, 5]
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources

from .errors import EstateDataError
from .tiles import COLOUR_LETTERS, Colour

ROW_LENGTHS = (4, 5, 6, 7, 6, 5, 4)
SPACE_COUNT = sum(ROW_LENGTHS)  # 37
# How many spaces of each colour every estate has (rulebook: 12 buildings, 6 of animals, ships
# and knowledge, 3 mines and 3 castles plus the start castle).
COLOUR_COUNTS = (12, 6, 6, 4, 3, 6)
MAX_CITIES = 6


def _coordinates() -> tuple[tuple[int, int], ...]:
    """Axial hex coordinates (q, r) of each space, rows r = -3..3."""
    coords = []
    for row, length in enumerate(ROW_LENGTHS):
        r = row - 3
        first_q = max(-3, -3 - r)
        coords.extend((first_q + col, r) for col in range(length))
    return tuple(coords)


COORDINATES = _coordinates()
_INDEX = {c: i for i, c in enumerate(COORDINATES)}
_OFFSETS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
NEIGHBOURS: tuple[int, ...] = tuple(
    sum(1 << _INDEX[(q + dq, r + dr)] for dq, dr in _OFFSETS if (q + dq, r + dr) in _INDEX)
    for q, r in COORDINATES
)
"""Bit mask of the spaces next to each space (the same on every estate)."""


def row_col(space: int) -> tuple[int, int]:
    """Row and column (both from 0) of a space.

    >>> row_col(0), row_col(18), row_col(36)
    ((0, 0), (3, 3), (6, 3))
    """
    for row, length in enumerate(ROW_LENGTHS):
        if space < length:
            return row, space
        space -= length
    raise ValueError("no such space")


def space_at(row: int, col: int) -> int:
    """The space number at ``row``, ``col`` (the inverse of :func:`row_col`)."""
    if not (0 <= row < len(ROW_LENGTHS) and 0 <= col < ROW_LENGTHS[row]):
        raise ValueError(f"no space at row {row}, column {col}")
    return sum(ROW_LENGTHS[:row]) + col


def bits(mask: int) -> list[int]:
    """The set bits of ``mask``, lowest first.

    >>> bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True, slots=True)
class Region:
    """A maximal group of connected spaces of one colour (a city, a pasture, a river...)."""

    colour: Colour
    mask: int
    size: int


@dataclass(frozen=True, slots=True, eq=False)
class Estate:
    """One side of a player board, with everything the rules need precomputed."""

    id: str
    name: str
    confidence: str
    source: str
    colours: tuple[int, ...]  # per space
    dice: tuple[int, ...]  # per space, 1..6
    start_castle: int | None  # the default start space, if the board prints one
    colour_masks: tuple[int, ...]  # per colour
    die_masks: tuple[int, ...]  # index 1..6; index 0 unused
    regions: tuple[Region, ...]
    region_of: tuple[int, ...]  # per space: index into regions

    @property
    def spaces(self) -> range:
        return range(SPACE_COUNT)

    @property
    def dark_green_spaces(self) -> list[int]:
        """Where a start castle may stand (the experts' set-up lets players choose)."""
        return bits(self.colour_masks[Colour.DARK_GREEN])

    def label(self, space: int) -> str:
        """A space as players read it: colour letter, die number, row and column (from 1).

        >>> estate("1").label(0)
        'A6 (row 1, 1)'
        """
        row, col = row_col(space)
        return f"{COLOUR_LETTERS[self.colours[space]]}{self.dice[space]} (row {row + 1}, {col + 1})"

    def __repr__(self) -> str:
        return f"estate({self.id!r})"


def parse_estate(item: dict[str, object]) -> Estate:
    """Build and validate an :class:`Estate` from its data record; raise EstateDataError."""
    ident = str(item.get("id", "?"))

    def bad(why: str) -> EstateDataError:
        return EstateDataError(f"estate {ident}: {why}")

    rows = item.get("rows")
    if not isinstance(rows, list) or len(rows) != len(ROW_LENGTHS):
        raise bad(f"needs {len(ROW_LENGTHS)} rows")
    colours: list[int] = []
    dice: list[int] = []
    for row, (text, length) in enumerate(zip(rows, ROW_LENGTHS, strict=True)):
        cells = str(text).split()
        if len(cells) != length:
            raise bad(f"row {row + 1} has {len(cells)} spaces, needs {length}")
        for cell in cells:
            if len(cell) != 2 or cell[0] not in COLOUR_LETTERS or cell[1] not in "123456":
                raise bad(f"row {row + 1}: {cell!r} is not a colour letter and a die 1-6")
            colours.append(COLOUR_LETTERS.index(cell[0]))
            dice.append(int(cell[1]))
    for colour in Colour:
        if colours.count(colour) != COLOUR_COUNTS[colour]:
            raise bad(
                f"has {colours.count(colour)} {colour.name.lower()} spaces, "
                f"needs {COLOUR_COUNTS[colour]}"
            )
    colour_masks = tuple(
        sum(1 << s for s in range(SPACE_COUNT) if colours[s] == c) for c in Colour
    )
    regions = _regions(colours)
    cities = [r for r in regions if r.colour == Colour.BEIGE]
    if not 2 <= len(cities) <= MAX_CITIES:
        raise bad(f"has {len(cities)} cities, the rules allow 2 to {MAX_CITIES}")
    start = item.get("start_castle")
    start_space = None
    if start is not None:
        if not (isinstance(start, list) and len(start) == 2):
            raise bad("start_castle must be [row, column]")
        try:
            start_space = space_at(int(start[0]), int(start[1]))
        except ValueError as exc:
            raise bad(f"start_castle: {exc}") from None
        if colours[start_space] != Colour.DARK_GREEN:
            raise bad("the start castle must stand on a dark green space")
    region_of = [0] * SPACE_COUNT
    for index, region in enumerate(regions):
        for space in bits(region.mask):
            region_of[space] = index
    return Estate(
        id=ident,
        name=str(item.get("name", f"Estate {ident}")),
        confidence=str(item.get("confidence", "unknown")),
        source=str(item.get("source", "")),
        colours=tuple(colours),
        dice=tuple(dice),
        start_castle=start_space,
        colour_masks=colour_masks,
        die_masks=(0, *(sum(1 << s for s in range(SPACE_COUNT) if dice[s] == d) for d in range(1, 7))),
        regions=regions,
        region_of=tuple(region_of),
    )


def _regions(colours: list[int]) -> tuple[Region, ...]:
    """Connected same-colour groups, ordered by their lowest space."""
    seen = 0
    regions = []
    for start in range(SPACE_COUNT):
        if seen >> start & 1:
            continue
        mask, frontier = 0, 1 << start
        while frontier:
            mask |= frontier
            grown = 0
            for s in bits(frontier):
                grown |= NEIGHBOURS[s]
            frontier = grown & ~mask
            frontier = sum(1 << s for s in bits(frontier) if colours[s] == colours[start])
        seen |= mask
        regions.append(Region(Colour(colours[start]), mask, mask.bit_count()))
    return tuple(regions)


@cache
def all_estates() -> dict[str, Estate]:
    """Every estate shipped with the package, by id (in file order)."""
    text = resources.files("p2p_burgundy").joinpath("data/estates.json").read_text("utf-8")
    return {e.id: e for e in (parse_estate(item) for item in json.loads(text)["estates"])}


def estate(ident: str) -> Estate:
    """The shipped estate with this id ("1".."9", "2019-2").

    >>> estate("42")
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.EstateDataError: no estate '42'; known: 1, 2, 3, 4, 5, 6, 7, 8, 9, 2019-2
    """
    estates = all_estates()
    if ident not in estates:
        raise EstateDataError(f"no estate {ident!r}; known: {', '.join(estates)}")
    return estates[ident]
