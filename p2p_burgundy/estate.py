"""Estates (player boards): 37 hex spaces, their colours and dice, adjacency and regions.

Spaces are numbered 0..36 row by row from the top left (rows of 4, 5, 6, 7, 6, 5, 4 spaces).
Sets of spaces are ``int`` bit masks (bit ``i`` = space ``i``) so the rules can intersect them
in one operation. Layouts are data (``data/estates.json``), validated when loaded.

>>> e = estate("1")
>>> len(e.spaces), e.start_castle, e.label(18)
(37, 18, 'C6 (row 4, 4)')
>>> sorted(r.size for r in e.regions if r.colour == Colour.BEIGE)
[1, 3, 3, 5]
>>> edition_estates("2019")
('1', '2', '3', '4', '5', '6', '7', '8', '9', '2019-2')
>>> estate("2").number("2019"), by_number("2019", "2").id
('10', '2019-2')
>>> caveat(estate("1")), caveat(estate("7"))[:60]
('', 'Estate 7 is medium confidence: our layout comes from a few s')
"""

from __future__ import annotations

import json
from collections.abc import Callable
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
MAX_REGION = 8  # region points are printed for sizes 1..8
# The die number printed on each space, the same on every estate (shared/data/components.json,
# "die_pattern_rows", seen on every transcribed layout): a layout that differs is a typo.
DIE_PATTERN = (
    6, 5, 4, 3,
    2, 1, 6, 5, 4,
    5, 4, 3, 1, 2, 3,
    6, 1, 2, 6, 5, 4, 1,
    2, 5, 4, 3, 1, 2,
    6, 1, 2, 5, 6,
    3, 4, 1, 3,
)
EDITIONS = ("2011", "2019")  # the values of config.Edition (config imports this module)
CONFIDENCES = ("high", "medium", "low")


def _coordinates() -> tuple[tuple[int, int], ...]:
    """Axial hex coordinates (q, r) of each space, rows r = -3..3."""
    coords: list[tuple[int, int]] = []
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


@dataclass(frozen=True, slots=True)
class Estate:
    """One side of a player board, with everything the rules need precomputed."""

    id: str
    name: str
    editions: tuple[str, ...]  # the rulebook editions whose box holds it ("2011", "2019")
    numbers: tuple[str, ...]  # the number printed on it in each of those editions' boxes
    copies: tuple[int, ...]  # how many of each of those boxes' player boards show it
    confidence: str  # "high", "medium" or "low": how well our layout is attested
    source: str
    note: str  # a further caveat for players ("" if none)
    colours: tuple[int, ...]  # per space
    dice: tuple[int, ...]  # per space, 1..6
    start_castle: int | None  # the default start space, if the board prints one
    colour_masks: tuple[int, ...]  # per colour, then all spaces (tiles.ANY_COLOUR)
    die_masks: tuple[int, ...]  # index 1..6; index 0 unused
    regions: tuple[Region, ...]
    region_of: tuple[int, ...]  # per space: index into regions
    border_posts: tuple[int, ...]  # duchies 11a-11f: per post, the mask of its rim spaces

    def record(self) -> dict[str, object]:
        """The board as a record :func:`parse_estate` reads back (``official=False`` for a
        board of one's own): id, name, rows, start castle and border posts (where it has
        them), and source."""
        rows = []
        for row, length in enumerate(ROW_LENGTHS):
            first = sum(ROW_LENGTHS[:row])
            rows.append(" ".join(f"{COLOUR_LETTERS[self.colours[s]]}{self.dice[s]}"
                                 for s in range(first, first + length)))
        out: dict[str, object] = {"id": self.id, "name": self.name, "rows": rows}
        if self.start_castle is not None:
            out["start_castle"] = list(row_col(self.start_castle))
        if self.border_posts:
            out["border_posts"] = [[list(row_col(s)) for s in bits(p)] for p in self.border_posts]
        out["source"] = self.source
        return out

    def number(self, edition: str) -> str:
        """The number printed on this estate in ``edition``'s box ("" if not in it)."""
        if edition not in self.editions:
            return ""
        return self.numbers[self.editions.index(edition)]

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


def post_spaces(board: Estate) -> int:
    """The rim spaces the board's border posts touch, as a mask (0 without posts): where
    drawings mark the posts, each on the outer edge by its spaces.

    >>> board = estate("11a")
    >>> [board.label(s).split()[0] for s in bits(post_spaces(board))]
    ['K2', 'K4', 'S5', 'A3', 'S4', 'A1']
    """
    mask = 0
    for post in board.border_posts:
        mask |= post
    return mask


CUSTOM_FIELDS = ("id", "name", "rows", "start_castle", "border_posts", "source")
"""The fields of a board of one's own (``official=False``): see docs/engine.md."""
CUSTOM = "custom"  # the confidence of a board of one's own: not an official board
MAX_ID = 32


def parse_estate(item: object, official: bool = True) -> Estate:
    """Build and validate an :class:`Estate` from its data record; raise EstateDataError
    naming the estate and the problem. A board of one's own (``official=False``, from a file
    a player gives) has only :data:`CUSTOM_FIELDS` (``id``, ``name`` and ``rows`` required)
    and an id that no shipped estate has.

    >>> parse_estate({"id": "x", "name": "X", "source": "me", "numbers": {"2011": "x"},
    ...               "confidence": "low", "rows": ["A6 C5 C4 K3"]})
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.EstateDataError: estate x: needs 7 rows, has 1
    """
    if not isinstance(item, dict):
        raise EstateDataError(f"an estate record is an object, not {type(item).__name__}")
    ident = item.get("id")

    def bad(why: str) -> EstateDataError:
        return EstateDataError(f"estate {ident if isinstance(ident, str) else '?'}: {why}")

    if not isinstance(ident, str) or not ident or len(ident) > MAX_ID:
        raise bad(f"id must be a string of 1 to {MAX_ID} characters, not {ident!r}")
    if official:
        editions, numbers, copies, confidence = _official_fields(item, bad)
    else:
        unknown = [key for key in item if key not in CUSTOM_FIELDS]
        if unknown:
            raise bad(f"unknown field {unknown[0]!r}; a board has {', '.join(CUSTOM_FIELDS)}")
        if ident in all_estates():
            raise bad("that is the id of a shipped estate: give your board another id")
        item = {"source": "a layout given by a player", **item}
        editions, numbers, copies, confidence = (), (), (), CUSTOM
    for key in ("name", "source"):
        if not isinstance(item.get(key), str) or not item[key]:
            raise bad(f"{key} must be a non-empty string")
    if not isinstance(item.get("note", ""), str):
        raise bad("note must be a string")
    rows = item.get("rows")
    if not isinstance(rows, list) or len(rows) != len(ROW_LENGTHS):
        have = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise bad(f"needs {len(ROW_LENGTHS)} rows, has {have}")
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
                f"has {colours.count(colour)} {colour.name.lower().replace('_', ' ')} spaces, "
                f"needs {COLOUR_COUNTS[colour]}"
            )
    for space, (die, printed) in enumerate(zip(dice, DIE_PATTERN, strict=True)):
        if die != printed:
            row, col = row_col(space)
            raise bad(f"row {row + 1}, space {col + 1} shows die {die}; every estate prints "
                      f"{printed} there")
    colour_masks = (  # by colour, and last every space (where an inn, any colour, may go)
        *(sum(1 << s for s in range(SPACE_COUNT) if colours[s] == c) for c in Colour),
        (1 << SPACE_COUNT) - 1,
    )
    regions = _regions(colours)
    cities = [r for r in regions if r.colour == Colour.BEIGE]
    if not 2 <= len(cities) <= MAX_CITIES:
        raise bad(f"has {len(cities)} cities, the rules allow 2 to {MAX_CITIES}")
    for region in regions:
        if region.size > MAX_REGION:
            raise bad(f"a {region.colour.name.lower().replace('_', ' ')} region has "
                      f"{region.size} spaces; region points stop at {MAX_REGION}")
    start = item.get("start_castle")
    start_space = None
    if start is not None:
        if not (isinstance(start, list) and len(start) == 2
                and all(type(x) is int for x in start)):
            raise bad("start_castle must be [row, column]")
        try:
            start_space = space_at(start[0], start[1])
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
        name=item["name"],
        editions=editions,
        numbers=numbers,
        copies=copies,
        confidence=confidence,
        source=item["source"],
        note=item.get("note", ""),
        colours=tuple(colours),
        dice=tuple(dice),
        start_castle=start_space,
        colour_masks=colour_masks,
        die_masks=(0, *(sum(1 << s for s in range(SPACE_COUNT) if dice[s] == d)
                        for d in range(1, 7))),
        regions=regions,
        region_of=tuple(region_of),
        border_posts=_border_posts(item.get("border_posts", []), bad),
    )


def _official_fields(item: dict[str, object], bad: Callable[[str], EstateDataError]
                     ) -> tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...], str]:
    """Editions, numbers, copies and confidence of a shipped estate's record."""
    numbers = item.get("numbers")
    if not (isinstance(numbers, dict) and numbers and all(e in EDITIONS for e in numbers)
            and all(isinstance(n, str) and n for n in numbers.values())):
        raise bad(f"numbers must map some of {', '.join(EDITIONS)} to the number printed "
                  f"on the board, not {numbers!r}")
    editions = tuple(e for e in EDITIONS if e in numbers)  # EDITIONS' order, not the file's
    copies = item.get("copies", {})
    if not (isinstance(copies, dict) and all(e in numbers for e in copies)
            and all(type(n) is int and n >= 1 for n in copies.values())):
        raise bad(f"copies must map editions of numbers to a count of boards, not {copies!r}")
    confidence = item.get("confidence")
    if not isinstance(confidence, str) or confidence not in CONFIDENCES:
        raise bad(f"confidence must be one of {', '.join(CONFIDENCES)}, not {confidence!r}")
    return (editions, tuple(numbers[e] for e in editions),
            tuple(copies.get(e, 1) for e in editions), confidence)


def _border_posts(posts: object, bad: Callable[[str], EstateDataError]) -> tuple[int, ...]:
    """Each border post as the mask of the rim spaces it touches (none, or two posts or more,
    each of one or two spaces given as [row, column])."""
    if not isinstance(posts, list) or len(posts) == 1:
        raise bad("border_posts must list two posts or more, each a list of [row, column]")
    masks = []
    for post in posts:
        if not (isinstance(post, list) and 1 <= len(post) <= 2 and all(
                isinstance(c, list) and len(c) == 2 and all(type(x) is int for x in c)
                for c in post)):
            raise bad(f"border post {post!r} is not one or two [row, column] spaces")
        mask = 0
        for row, col in post:
            try:
                mask |= 1 << space_at(row, col)
            except ValueError as exc:
                raise bad(f"border post: {exc}") from None
        masks.append(mask)
    return tuple(masks)


def load_estates(text: str) -> dict[str, Estate]:
    """Parse and validate a whole estate file (the format of ``data/estates.json``).

    >>> load_estates('{"estates": []}')
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.EstateDataError: estate data: "estates" must be a non-empty list
    """
    try:
        tree = json.loads(text)
    except ValueError as exc:
        raise EstateDataError(f"estate data: not JSON ({exc})") from None
    items = tree.get("estates") if isinstance(tree, dict) else None
    if not isinstance(items, list) or not items:
        raise EstateDataError('estate data: "estates" must be a non-empty list')
    out: dict[str, Estate] = {}
    for item in items:
        board = parse_estate(item)
        if board.id in out:
            raise EstateDataError(f"estate {board.id}: the id appears twice")
        out[board.id] = board
    if not any(b.start_castle is not None for b in out.values()):
        raise EstateDataError("estate data: no estate prints a start castle")
    return out


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
    return load_estates(text)


def estate(ident: str) -> Estate:
    """The shipped estate with this id ("1".."9", "2019-2").

    >>> estate("42")
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.EstateDataError: no estate '42'; known: 1, 2, 3, 4, 5, 6, 7, 8, 9, \
2019-2, 11a, 11b, 11c, 11d, 11e, 11f
    """
    estates = all_estates()
    if ident not in estates:
        raise EstateDataError(f"no estate {ident!r}; known: {', '.join(estates)}")
    return estates[ident]


def edition_estates(edition: str) -> tuple[str, ...]:
    """The ids of the shipped estates in ``edition``'s box that the experts' set-up deals
    from, in file order (the border-post duchies 11a-11f are only played with their rules).

    >>> edition_estates("2011")
    ('1', '2', '3', '4', '5', '6', '7', '8', '9')
    """
    if edition not in EDITIONS:
        raise EstateDataError(f"no edition {edition!r}; known: {', '.join(EDITIONS)}")
    return tuple(e.id for e in all_estates().values()
                 if edition in e.editions and not e.border_posts)


def box_sides(edition: str) -> tuple[str, ...]:
    """Every board side of ``edition``'s box that the experts' set-up deals from, an estate
    once per board showing it (estate 1 four times; in 2019 duchy 2 too), in file order.

    >>> box_sides("2019").count("1"), box_sides("2019").count("2019-2"), len(box_sides("2019"))
    (4, 4, 16)
    """
    return tuple(ident for ident in edition_estates(edition)
                 for _ in range(estate(ident).copies[estate(ident).editions.index(edition)]))


def by_number(edition: str, number: str) -> Estate:
    """The shipped estate printed ``number`` in ``edition``'s box; EstateDataError if none.

    >>> by_number("2019", "10").id, by_number("2011", "2").id
    ('2', '2')
    """
    for board in all_estates().values():
        if board.number(edition) == number:
            return board
    known = ", ".join(b.number(edition) for b in all_estates().values() if b.number(edition))
    raise EstateDataError(f"no estate {number!r} in the {edition} box; known: {known}")


_CONFIDENCE_WORDS = {
    "high": "our layout is confirmed by independent sources",
    "medium": "our layout comes from a few sources that agree, not from a printed board",
    "low": "our layout rests on a single transcription, not checked against a printed board",
}


def caveat(board: Estate) -> str:
    """A warning for players about how well ``board``'s layout is attested: empty when the
    confidence is high, else the confidence, what it means and the source, in one line.

    >>> print(caveat(estate("8")))  # doctest: +ELLIPSIS
    Estate 8 is medium confidence: our layout comes from a few sources that agree, not from \
a printed board; it may differ from yours (source: forry4 hand transcription ...)
    """
    if board.confidence == CUSTOM:
        return (f"Estate {board.id} ({board.name}) is not an official board: a layout given "
                f"by a player, which every peer at the table plays as given")
    if board.confidence == "high" and not board.note:
        return ""
    note = f"; also, {board.note}" if board.note else ""
    return (f"Estate {board.id} is {board.confidence} confidence: "
            f"{_CONFIDENCE_WORDS[board.confidence]}; it may differ from yours{note} "
            f"(source: {board.source})")
