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
from typing import Final

from .errors import EstateDataError
from .pickling import by_constructor
from .tiles import COLOUR_LETTERS, Colour

ROW_LENGTHS: Final = (4, 5, 6, 7, 6, 5, 4)
SPACE_COUNT: Final = sum(ROW_LENGTHS)  # 37
# How many spaces of each colour every estate has (rulebook: 12 buildings, 6 of animals, ships
# and knowledge, 3 mines and 3 castles plus the start castle).
COLOUR_COUNTS: Final = (12, 6, 6, 4, 3, 6)
MAX_CITIES: Final = 6
MAX_REGION: Final = 8  # region points are printed for sizes 1..8
# The die number printed on each space, the same on every estate (shared/data/components.json,
# "die_pattern_rows", seen on every transcribed layout): a layout that differs is a typo.
DIE_PATTERN: Final = (
    6, 5, 4, 3,
    2, 1, 6, 5, 4,
    5, 4, 3, 1, 2, 3,
    6, 1, 2, 6, 5, 4, 1,
    2, 5, 4, 3, 1, 2,
    6, 1, 2, 5, 6,
    3, 4, 1, 3,
)
EDITIONS: Final = ("2011", "2019")  # the values of config.Edition (config imports this module)
CONFIDENCES: Final = ("high", "medium", "low")


def _coordinates() -> tuple[tuple[int, int], ...]:
    """Axial hex coordinates (q, r) of each space, rows r = -3..3."""
    coords: list[tuple[int, int]] = []
    for row, length in enumerate(ROW_LENGTHS):
        r = row - 3
        first_q = max(-3, -3 - r)
        coords.extend((first_q + col, r) for col in range(length))
    return tuple(coords)


COORDINATES: Final = _coordinates()
_INDEX: Final = {c: i for i, c in enumerate(COORDINATES)}
_OFFSETS: Final = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
NEIGHBOURS: Final[tuple[int, ...]] = tuple(
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


def half_row_col(space: int) -> tuple[int, int, int]:
    """Half (0 or 1: a team board's; a duchy is all half 0), row and column of a space.

    >>> half_row_col(18), half_row_col(37 + 18)
    ((0, 3, 3), (1, 3, 3))
    """
    return (space // SPACE_COUNT, *row_col(space % SPACE_COUNT))


def _rows_text(colours: tuple[int, ...], dice: tuple[int, ...]) -> list[str]:
    """A duchy's (or a team board half's) 37 spaces as the rows of its record."""
    rows = []
    for row, length in enumerate(ROW_LENGTHS):
        first = sum(ROW_LENGTHS[:row])
        rows.append(" ".join(f"{COLOUR_LETTERS[colours[s]]}{dice[s]}"
                             for s in range(first, first + length)))
    return rows


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

    def __reduce__(self) -> tuple[type[Region], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py


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
    # Per space, the mask of the spaces next to it: NEIGHBOURS on a duchy; on a team board
    # each half's, and across the seam where its joins say.
    neighbours: tuple[int, ...] = NEIGHBOURS
    halves: int = 1  # 2 on a team board: spaces 0..36 its first half, 37..73 its second
    joins: tuple[tuple[int, int], ...] = ()  # a team board: pairs of spaces across the seam
    shared_storage: int = 0  # a team board: the team's storage spaces
    private_storage: int = 0  # a team board: each player's own storage spaces
    start_choices: tuple[int, ...] = ()  # a team board printing a choice (12b): its spaces

    def __reduce__(self) -> tuple[type[Estate], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py

    def record(self) -> dict[str, object]:
        """The board as a record :func:`parse_estate` reads back (``official=False`` for a
        board of one's own; a team board's as :func:`parse_team_board` reads it): id, name,
        rows (a team board: its halves and their joins), start castle and border posts (where
        it has them), storage (a team board), and source."""
        halves = [_rows_text(self.colours[h * SPACE_COUNT:(h + 1) * SPACE_COUNT],
                             self.dice[h * SPACE_COUNT:(h + 1) * SPACE_COUNT])
                  for h in range(self.halves)]
        if self.halves > 1:
            return {"id": self.id, "name": self.name, "halves": halves,
                    "joins": [[list(half_row_col(a)), list(half_row_col(b))]
                              for a, b in self.joins],
                    "start_castle": list(half_row_col(self.start_castle))
                    if self.start_castle is not None
                    else [list(half_row_col(s)) for s in self.start_choices],
                    "shared_storage": self.shared_storage,
                    "private_storage": self.private_storage, "source": self.source}
        out: dict[str, object] = {"id": self.id, "name": self.name, "rows": halves[0]}
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
        return range(len(self.colours))

    @property
    def team(self) -> bool:
        """Whether this is a team board (two halves, shared and private storage)."""
        return self.halves > 1

    @property
    def dark_green_spaces(self) -> list[int]:
        """Where a start castle may stand (the experts' set-up lets players choose)."""
        return bits(self.colour_masks[Colour.DARK_GREEN])

    @property
    def castle_choices(self) -> list[int]:
        """Where a player choosing the start castle's space may put it: any dark green space,
        or on a team board that prints a choice (12b), one of its spaces."""
        return list(self.start_choices) if self.start_choices else self.dark_green_spaces

    def label(self, space: int) -> str:
        """A space as players read it: colour letter, die number, row and column (from 1).

        >>> estate("1").label(0)
        'A6 (row 1, 1)'
        """
        half, row, col = half_row_col(space)
        where = f"half {half + 1}, " if self.halves > 1 else ""
        return (f"{COLOUR_LETTERS[self.colours[space]]}{self.dice[space]} "
                f"({where}row {row + 1}, {col + 1})")

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


CUSTOM_FIELDS: Final = ("id", "name", "rows", "start_castle", "border_posts", "source")
"""The fields of a board of one's own (``official=False``): see docs/engine.md."""
TEAM_FIELDS: Final = ("id", "name", "halves", "joins", "start_castle", "shared_storage",
               "private_storage", "source")
"""The fields of a team board (a file's, or the shipped provisional one's, which adds
``confidence``): see docs/engine.md."""
CUSTOM: Final = "custom"  # the confidence of a board of one's own: not an official board
PROVISIONAL: Final = "provisional"  # the confidence of the shipped team board: not the printed one
MAX_STORAGE: Final = 3  # a team board's storage spaces of either kind (the rulebook's boards: 2)
MAX_ID: Final = 32


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
    ident, bad = _identified(item, "estate")
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
    colours, dice = _parse_rows(item.get("rows"), bad)
    regions = _regions(colours, NEIGHBOURS)
    _check_regions(regions, bad)
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
        colour_masks=_colour_masks(colours),
        die_masks=_die_masks(dice),
        regions=regions,
        region_of=_region_of(regions, len(colours)),
        border_posts=_border_posts(item.get("border_posts", []), bad),
    )


def _parse_rows(rows: object, bad: Callable[[str], EstateDataError]
                ) -> tuple[list[int], list[int]]:
    """The colours and dice of a duchy's (or a team board half's) rows, checked: 7 rows of 4
    to 7 spaces, each a colour letter and the die every board prints there, and a duchy's
    count of each colour."""
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
    return colours, dice


def _check_regions(regions: tuple[Region, ...], bad: Callable[[str], EstateDataError],
                   cities: bool = True) -> None:
    """2 to 6 cities (unless ``cities`` is False) and no region over 8 spaces."""
    count = sum(1 for r in regions if r.colour == Colour.BEIGE)
    if cities and not 2 <= count <= MAX_CITIES:
        raise bad(f"has {count} cities, the rules allow 2 to {MAX_CITIES}")
    for region in regions:
        if region.size > MAX_REGION:
            raise bad(f"a {region.colour.name.lower().replace('_', ' ')} region has "
                      f"{region.size} spaces; region points stop at {MAX_REGION}")


def _colour_masks(colours: list[int]) -> tuple[int, ...]:
    """By colour, and last every space (where an inn, any colour, may go)."""
    spaces = range(len(colours))
    return (*(sum(1 << s for s in spaces if colours[s] == c) for c in Colour),
            (1 << len(colours)) - 1)


def _die_masks(dice: list[int]) -> tuple[int, ...]:
    """By die number 1..6 (index 0 unused)."""
    return (0, *(sum(1 << s for s in range(len(dice)) if dice[s] == d) for d in range(1, 7)))


def _region_of(regions: tuple[Region, ...], size: int) -> tuple[int, ...]:
    region_of = [0] * size
    for index, region in enumerate(regions):
        for space in bits(region.mask):
            region_of[space] = index
    return tuple(region_of)


def _identified(item: dict[str, object], kind: str
                ) -> tuple[str, Callable[[str], EstateDataError]]:
    """The record's id (checked) and how to make an error that names ``kind`` and it."""
    ident = item.get("id")

    def bad(why: str) -> EstateDataError:
        return EstateDataError(f"{kind} {ident if isinstance(ident, str) else '?'}: {why}")

    if not isinstance(ident, str) or not ident or len(ident) > MAX_ID:
        raise bad(f"id must be a string of 1 to {MAX_ID} characters, not {ident!r}")
    return ident, bad


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


def parse_team_board(item: object, official: bool = False) -> Estate:
    """Build and validate a team board (the team game's: two halves, the team's shared
    storage and each player's private storage) from its record; EstateDataError names the
    board and the problem. Each half is written as a duchy's rows and checked as a duchy is
    (the colour counts, the printed dice, 2 to 6 cities); ``joins`` lists the pairs of
    spaces, one on each half, that touch across the seam, and no area of the joined board may
    have more than 8 spaces. Spaces are given as [half, row, column], from 0; ``start_castle``
    is one space, or a list of the spaces each team chooses from (12b: "either the 1 or the
    6 dark green hex space"). The shipped provisional board (``official``) has
    ``confidence`` "provisional" besides.

    >>> board = team_board("team-provisional")
    >>> len(board.spaces), board.label(board.start_castle), board.shared_storage
    (74, 'C1 (half 1, row 4, 7)', 2)
    >>> parse_team_board({**board.record(), "id": "ours", "joins": []})
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.EstateDataError: team board ours: joins must list the pairs of \
spaces that touch across the seam, each [[0, row, column], [1, row, column]]
    """
    if not isinstance(item, dict):
        raise EstateDataError(f"a team board is an object, not {type(item).__name__}")
    ident, bad = _identified(item, "team board")
    fields = (*TEAM_FIELDS, "confidence") if official else TEAM_FIELDS
    unknown = [key for key in item if key not in fields]
    if unknown:
        raise bad(f"unknown field {unknown[0]!r}; a team board has {', '.join(TEAM_FIELDS)}")
    if not official and (ident in all_estates() or ident in all_team_boards()):
        raise bad("that is the id of a shipped board: give your board another id")
    item = {"source": "a layout given by a player", **item}
    for key in ("name", "source"):
        if not isinstance(item.get(key), str) or not item[key]:
            raise bad(f"{key} must be a non-empty string")
    halves = item.get("halves")
    if not (isinstance(halves, list) and len(halves) == 2):
        raise bad("halves must be a list of two halves, each a duchy's 7 rows")
    colours: list[int] = []
    dice: list[int] = []
    for half, rows in enumerate(halves):
        def bad_half(why: str, half: int = half) -> EstateDataError:
            return bad(f"half {half + 1}: {why}")
        half_colours, half_dice = _parse_rows(rows, bad_half)
        _check_regions(_regions(half_colours, NEIGHBOURS), bad_half)
        colours += half_colours
        dice += half_dice
    neighbours = [*NEIGHBOURS, *(mask << SPACE_COUNT for mask in NEIGHBOURS)]
    joins = []
    given = item.get("joins")
    if not (isinstance(given, list) and given
            and all(isinstance(j, list) and len(j) == 2 for j in given)):
        raise bad("joins must list the pairs of spaces that touch across the seam, each "
                  "[[0, row, column], [1, row, column]]")
    for first, second in given:
        a, b = _team_space(first, bad), _team_space(second, bad)
        if a >= SPACE_COUNT or b < SPACE_COUNT:
            raise bad(f"join {[first, second]}: the first space is on half 0, the second on "
                      "half 1")
        if (a, b) in joins:
            raise bad(f"join {[first, second]} is given twice")
        joins.append((a, b))
        neighbours[a] |= 1 << b
        neighbours[b] |= 1 << a
    regions = _regions(colours, tuple(neighbours))
    _check_regions(regions, bad, cities=False)
    given = item.get("start_castle")
    several = isinstance(given, list) and bool(given) and all(isinstance(s, list) for s in given)
    starts = [_team_space(s, bad) for s in (given if several else [given])]  # type: ignore[union-attr]
    if several and (len(starts) < 2 or len(set(starts)) != len(starts)):
        raise bad("start_castle is one space, or the two or more spaces a team chooses from")
    if any(colours[s] != Colour.DARK_GREEN for s in starts):
        raise bad("the start castle must stand on a dark green space")
    storage = [item.get(key) for key in ("shared_storage", "private_storage")]
    shared, private = (n if type(n) is int and 1 <= n <= MAX_STORAGE else 0 for n in storage)
    if not (shared and private):
        raise bad(f"shared_storage and private_storage are the storage spaces of the team and "
                  f"of each player: 1 to {MAX_STORAGE} each, not {storage!r}")
    confidence = item.get("confidence") if official else CUSTOM
    if confidence not in (PROVISIONAL, CUSTOM):
        raise bad(f"confidence must be {PROVISIONAL!r}, not {confidence!r}")
    return Estate(
        id=ident, name=item["name"], editions=("2019",), numbers=("",), copies=(1,),
        confidence=str(confidence), source=item["source"], note="",
        colours=tuple(colours), dice=tuple(dice),
        start_castle=None if several else starts[0],
        colour_masks=_colour_masks(colours), die_masks=_die_masks(dice), regions=regions,
        region_of=_region_of(regions, len(colours)), border_posts=(),
        neighbours=tuple(neighbours), halves=2, joins=tuple(joins),
        shared_storage=shared, private_storage=private,
        start_choices=tuple(starts) if several else (),
    )


def _team_space(value: object, bad: Callable[[str], EstateDataError]) -> int:
    """A team board's space from [half, row, column]."""
    if not (isinstance(value, list) and len(value) == 3 and all(type(x) is int for x in value)
            and value[0] in (0, 1)):
        raise bad(f"a space on a team board is [half 0 or 1, row, column], not {value!r}")
    half, row, col = value
    try:
        return int(half) * SPACE_COUNT + space_at(row, col)
    except ValueError as exc:
        raise bad(f"half {value[0]}: {exc}") from None


@cache
def all_team_boards() -> dict[str, Estate]:
    """The team boards shipped with the package, by id: the provisional one (no source
    describes the printed team boards 12a and 12b)."""
    text = resources.files("p2p_burgundy").joinpath("data/team_boards.json").read_text("utf-8")
    items = json.loads(text)["team_boards"]
    return {board.id: board for board in (parse_team_board(i, official=True) for i in items)}


PROVISIONAL_TEAM_BOARD: Final = "team-provisional"
"""The id of the shipped team board a team game plays unless a team board file is given."""


def team_board(ident: str) -> Estate:
    """The shipped team board with this id."""
    boards = all_team_boards()
    if ident not in boards:
        raise EstateDataError(f"no team board {ident!r}; known: {', '.join(boards)}")
    return boards[ident]


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


def _regions(colours: list[int], neighbours: tuple[int, ...]) -> tuple[Region, ...]:
    """Connected same-colour groups, ordered by their lowest space."""
    seen = 0
    regions = []
    for start in range(len(colours)):
        if seen >> start & 1:
            continue
        mask, frontier = 0, 1 << start
        while frontier:
            mask |= frontier
            grown = 0
            for s in bits(frontier):
                grown |= neighbours[s]
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


_CONFIDENCE_WORDS: Final = {
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
        kind = "Team board" if board.team else "Estate"
        return (f"{kind} {board.id} ({board.name}) is not an official board: a layout given "
                f"by a player, which every peer at the table plays as given")
    if board.confidence == PROVISIONAL:
        return (f"Team board {board.id} is provisional: not the printed board (no source "
                f"describes 12a or 12b; enter yours with --estate-file)")
    if board.confidence == "high" and not board.note:
        return ""
    note = f"; also, {board.note}" if board.note else ""
    return (f"Estate {board.id} is {board.confidence} confidence: "
            f"{_CONFIDENCE_WORDS[board.confidence]}; it may differ from yours{note} "
            f"(source: {board.source})")
