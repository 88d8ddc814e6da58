"""Game configuration: player count, edition, each seat's estate and how the set-up goes.

>>> GameConfig(players=3)
GameConfig(players=3, edition=Edition.E2011, estates=('1', '1', '1'), start_spaces=(18, 18, 18))
>>> GameConfig(players=2, estates=("5", "5"))  # estate 5 prints no castle: players choose
GameConfig(players=2, edition=Edition.E2011, estates=('5', '5'), start_spaces=(-1, -1))
>>> GameConfig(players=2, setup=Setup.EXPERTS_SECRET).to_tree()
[2, '2011', [], [], 'experts-secret']
>>> GameConfig(2, Edition.E2019, modules=(Module.INNS, Module.EXTRA_TILES)).to_tree()
[2, '2019', ['1', '1'], [18, 18], 'standard', ['extra-tiles', 'inns']]
>>> GameConfig(players=1, edition=Edition.E2019)  # the solo game: the start castle is chosen
GameConfig(players=1, edition=Edition.E2019, estates=('1',), start_spaces=(-1,))
>>> GameConfig(players=5)
Traceback (most recent call last):
...
p2p_burgundy.errors.ConfigError: players must be 1 (the solo game), 2, 3 or 4, not 5
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Final

from .errors import ConfigError, EstateDataError
from .estate import (
    CUSTOM_FIELDS,
    PROVISIONAL_TEAM_BOARD,
    TEAM_FIELDS,
    Estate,
    all_team_boards,
    bits,
    caveat,
    edition_estates,
    estate,
    parse_estate,
    parse_team_board,
)
from .pickling import by_constructor
from .rivers import never_covered
from .tiles import Colour

MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 4
SOLO_TARGET: Final = 50
"""Where the solo game's target marker starts on the victory point track."""
SOLO_TARGETS: Final = range(45, 56)
"""The rulebook's easier (45-49) and harder (51-55) starts of the target marker."""
CHOOSE: Final = -1
"""A start space the player chooses during set-up (estates that print no start castle)."""


class Edition(Enum):
    """Rulebook edition: they differ only in knowledge tiles #6, #15 and #26."""

    E2011 = "2011"
    E2019 = "2019"

    def __repr__(self) -> str:
        return f"Edition.{self.name}"


class Module(Enum):
    """A module of the 2019 box's expansions, switched on for a whole game.

    ``EXTRA_TILES``: monasteries #27 (on top of any stack on the bridge) and #28 (buy workers),
    the crane and the geese. ``WHITE_CASTLES``: eight white castles (an action with the white
    die) and monastery #29. ``INNS``: one inn a phase beside the black depot; an area with an
    inn scores one size bigger. ``TRADE_ROUTES``: each player's route of trade route cards,
    where sold goods earn bonuses. ``SHIELDS``: 18 shields on the depots, taken on a double,
    each with an ability for its holder, a tribute at each phase end and VP at the end.
    """

    EXTRA_TILES = "extra-tiles"
    WHITE_CASTLES = "white-castles"
    INNS = "inns"
    TRADE_ROUTES = "trade-routes"
    SHIELDS = "shields"

    def __repr__(self) -> str:
        return f"Module.{self.name}"


@dataclass(frozen=True, slots=True)
class Switch:
    """A mode of play's own command-line switch, for a module no ``--with`` turns on (the team
    game's ``--teams``): the words a client offers it in and what it sets in a table's config.

    ``flag`` is the switch; ``game`` what it plays, as a message names it, and ``games``
    several of them; ``help`` is its help among a table's options (``sim``, ``host``, ``bot``,
    ``match``), ``play_help`` among those of a game against bots (``play``); ``players`` is how
    many play it; ``settings`` the fields of :class:`GameConfig` it sets, by name;
    ``own_board``, where given, says why it takes no ``--estate`` or ``--setup``.
    """

    flag: str
    game: str
    games: str
    help: str
    play_help: str
    players: int
    settings: tuple[tuple[str, object], ...]
    own_board: str = ""


MODULE_ORDER: Final = tuple(Module)
"""The canonical order of modules in a config (declaration order)."""
_BORDER_POSTS_BIT: Final = 2 << len(MODULE_ORDER)
_TEAM_BIT: Final = 2 * _BORDER_POSTS_BIT
VARIANTS: Final = 2 * _TEAM_BIT
"""How many values :attr:`GameConfig.variant` takes (it is below this)."""


def parse_modules(text: str) -> tuple[Module, ...]:
    """Modules from a comma-separated list of names, or ``all``; ConfigError names a bad one.

    >>> parse_modules("inns,extra-tiles")
    (Module.EXTRA_TILES, Module.INNS)
    >>> len(parse_modules("all")) == len(Module)
    True
    >>> parse_modules("inn")
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.ConfigError: unknown module 'inn'; known: extra-tiles, white-castles, \
inns, trade-routes, shields (or all)
    """
    if text.strip() == "all":
        return MODULE_ORDER
    chosen = set()
    for name in text.split(","):
        try:
            chosen.add(Module(name.strip()))
        except ValueError:
            known = ", ".join(m.value for m in Module)
            raise ConfigError(f"unknown module {name.strip()!r}; known: {known} (or all)") from None
    return tuple(m for m in MODULE_ORDER if m in chosen)


class Setup(Enum):
    """How the players get their estates and start castles.

    ``STANDARD``: each seat plays the estate the config names, its start castle on the config's
    space (default: the space the estate prints; where it prints none, the player chooses a
    dark green space after the turn order is known, openly in turn order). The experts' set-up
    (rulebook, "Those who know the game well"): after the turn order is known, each player is
    dealt a random board (chance event DEAL) and chooses its side and the dark green space of
    the start castle, ``EXPERTS_OPEN`` openly in turn order, ``EXPERTS_SECRET`` secretly at
    once (the protocol commits to the choices before anyone reveals; the engine takes them in
    turn order).
    """

    STANDARD = "standard"
    EXPERTS_OPEN = "experts-open"
    EXPERTS_SECRET = "experts-secret"

    def __repr__(self) -> str:
        return f"Setup.{self.name}"


TABLE_DEFAULTS: Final[tuple[object, object]] = (False, [])
"""The two fields of the config tree a network table signs with the config, as a table
without them writes them: whether hints from a bot are allowed (at 7) and the game clock (at
9; docs/protocol.md, START). They are the table's rules, not the game's: the engine writes
what the table layer (``net/tablerules.py``) gives it and hands back what it reads, and
never reads them itself."""


@dataclass(frozen=True, slots=True)
class GameConfig:
    """What every peer must agree on before the first chance event.

    ``estates`` names each seat's estate (default: everyone on estate 1) and ``start_spaces``
    the dark green space of each seat's start castle (default: the space the board prints, or
    :data:`CHOOSE` where it prints none). With an experts' ``setup`` the estates are dealt and
    chosen in the game, so both stay empty.
    """

    players: int
    edition: Edition = Edition.E2011
    estates: tuple[str, ...] = field(default=())
    start_spaces: tuple[int, ...] = field(default=())
    setup: Setup = Setup.STANDARD
    modules: tuple[Module, ...] = ()
    custom: tuple[Estate, ...] = ()  # boards of one's own that ``estates`` may name
    target: int = SOLO_TARGET
    """The solo game: where the target marker starts (45 easier ... 55 harder)."""
    teams: tuple[tuple[int, int], ...] = ()
    """The team game: the two teams' seats, team A first, each in its players' order (A1,
    A2), so round 1 is played A1, B1, A2, B2; every seat plays the one team board."""
    # Derived from ``players`` when made; fields rather than properties because the rules
    # read them on every decision.
    solo: bool = field(init=False, repr=False, compare=False)
    """Whether this is the solo game (one player, the 2019 rulebook's solo rules)."""
    table_players: int = field(init=False, repr=False, compare=False)
    """The player count the central board is set up for: the solo game uses the 2-player
    side (12 depot tiles and 4 in the black depot each phase) and the 2-player sales, trade
    routes and the like."""
    variant: int = field(init=False, repr=False, compare=False)
    """Which rules this config plays, as one small int: bit 0 the solo game, bit ``i + 1``
    module ``MODULE_ORDER[i]``, the bit above those a duchy with border posts, the next the
    team game (below :data:`VARIANTS`). The rules bind their dispatch tables once per variant
    and find them by it on every decision (an int indexes a table faster than a config
    hashes)."""

    def __post_init__(self) -> None:
        if type(self.players) is not int or not MIN_PLAYERS <= self.players <= MAX_PLAYERS:
            raise ConfigError(f"players must be 1 (the solo game), 2, 3 or 4, "
                              f"not {self.players!r}")
        object.__setattr__(self, "solo", self.players == 1)
        object.__setattr__(self, "table_players", max(self.players, 2))
        if not isinstance(self.edition, Edition):
            raise ConfigError(f"edition must be an Edition, not {self.edition!r}")
        if not isinstance(self.setup, Setup):
            raise ConfigError(f"setup must be a Setup, not {self.setup!r}")
        self._check_solo()
        self._check_modules()
        self._check_custom()
        self._check_teams()
        if self.setup is not Setup.STANDARD:
            if self.estates or self.start_spaces or self.custom:
                raise ConfigError(f"the {self.setup.value} set-up deals the estates: "
                                  "give no estates or start spaces")
            object.__setattr__(self, "estates", ())
            object.__setattr__(self, "start_spaces", ())
            return
        default = PROVISIONAL_TEAM_BOARD if self.teams else "1"
        estates = self.estates or (default,) * self.players
        if len(estates) != self.players:
            raise ConfigError(f"{len(estates)} estates for {self.players} players")
        boards = [self.board(e) for e in estates]
        self._check_team_boards(boards)
        for board in boards:
            if board not in self.custom and self.edition.value not in board.editions:
                raise ConfigError(f"estate {board.id} is not in the {self.edition.value} box: "
                                  f"play it with --edition {board.editions[-1]}")
        for board in self.custom:
            if board.id not in estates:
                raise ConfigError(f"the board of one's own {board.id!r} is not played")
        starts = self.start_spaces or tuple(CHOOSE if self.solo else _default_start(b)
                                            for b in boards)
        if len(starts) != self.players:
            raise ConfigError(f"{len(starts)} start spaces for {self.players} players")
        for seat, (board, space) in enumerate(zip(boards, starts, strict=True)):
            if space == CHOOSE and type(space) is int:
                continue
            if not (type(space) is int and 0 <= space < len(board.spaces)):
                raise ConfigError(f"seat {seat}: start space {space!r} is not "
                                  f"0..{len(board.spaces) - 1} (or {CHOOSE}: chosen during "
                                  "set-up)")
            if board.team and space not in (board.castle_choices if board.start_castle is None
                                            else [board.start_castle]):
                raise ConfigError(f"seat {seat}: a team's castle stands where its team board "
                                  f"prints it, not on {board.label(space)}")
            if board.colours[space] != Colour.DARK_GREEN:
                raise ConfigError(
                    f"seat {seat}: the start castle must go on a dark green space, "
                    f"not {board.label(space)}"
                )
        if self.solo:
            _check_solo_can_be_won(boards[0], starts[0])
        if any(starts[first] != starts[second] for first, second in self.teams):
            raise ConfigError("a team's two players share one castle: give them the same "
                              "start space")
        object.__setattr__(self, "estates", tuple(estates))
        object.__setattr__(self, "start_spaces", tuple(starts))
        if self.border_posts:
            object.__setattr__(self, "variant", self.variant | _BORDER_POSTS_BIT)

    def _check_solo(self) -> None:
        if self.players == 1:
            if self.edition is not Edition.E2019:
                raise ConfigError("the solo game is part of the 2019 edition: "
                                  "play it with edition 2019")
            if self.setup is not Setup.STANDARD:
                raise ConfigError("the solo game has no experts' set-up: you choose the "
                                  "start castle's space on the duchy you play")
        if type(self.target) is not int or self.target not in (
                SOLO_TARGETS if self.players == 1 else (SOLO_TARGET,)):
            raise ConfigError(f"the target marker starts on {SOLO_TARGETS[0]}.."
                              f"{SOLO_TARGETS[-1]}, in the solo game only; not {self.target!r}")

    def _check_custom(self) -> None:
        custom = self.custom
        if not (isinstance(custom, tuple) and all(isinstance(b, Estate) for b in custom)):
            raise ConfigError(f"custom must be a tuple of Estate, not {custom!r}")
        if len({b.id for b in custom}) != len(custom):
            raise ConfigError("two boards of one's own have the same id")

    def _check_teams(self) -> None:
        teams = self.teams
        if not teams:
            return
        if not (isinstance(teams, tuple) and len(teams) == 2
                and all(isinstance(t, tuple) and len(t) == 2 for t in teams)
                and sorted(s for t in teams for s in t) == list(range(4))):
            raise ConfigError(f"the team game has two teams of two: each of the seats 0..3 "
                              f"in one of them, as ((A1, A2), (B1, B2)); not {teams!r}")
        if self.players != 4:
            raise ConfigError(f"the team game is for 4 players, not {self.players}")
        if self.edition is not Edition.E2019:
            raise ConfigError("the team game is part of the 2019 edition: "
                              "play it with edition 2019")
        if self.setup is not Setup.STANDARD:
            raise ConfigError("the team game has no experts' set-up: each team plays its "
                              "team board")
        refused = [m.value for m in self.modules if m in TEAM_REFUSED]
        if refused:
            raise ConfigError(f"the team game is played without {' and '.join(refused)}: "
                              "the rulebook gives their cards and abilities no team reading")
        object.__setattr__(self, "variant", self.variant | _TEAM_BIT)

    def _check_team_boards(self, boards: list[Estate]) -> None:
        """A team game plays one team board at every seat; other games play duchies."""
        if self.teams:
            if not boards[0].team or len(set(boards)) != 1:
                raise ConfigError("the team game is played on one team board at every seat "
                                  "(a team board file, or the provisional board), not on "
                                  f"{', '.join(dict.fromkeys(b.id for b in boards))}")
        else:
            for board in boards:
                if board.team:
                    raise ConfigError(f"{board.id} is a team board: it is played in the team "
                                      "game (--teams), by four players")

    @property
    def team_game(self) -> bool:
        """Whether this is the team game (two teams of two on team boards)."""
        return bool(self.teams)

    def team_of(self, seat: int) -> tuple[int, int]:
        """The team (its two seats) ``seat`` plays in; the team game only."""
        return next(team for team in self.teams if seat in team)

    def partner(self, seat: int) -> int:
        """The other player of ``seat``'s team (the team game); ``seat`` itself otherwise."""
        for first, second in self.teams:
            if seat in (first, second):
                return second if seat == first else first
        return seat

    def board(self, ident: str) -> Estate:
        """The estate with this id: a board of one's own in :attr:`custom`, or a shipped one
        (a duchy, or a team board); ConfigError if there is none."""
        for board in self.custom:
            if board.id == ident:
                return board
        if ident in all_team_boards():
            return all_team_boards()[ident]
        try:
            return estate(ident)
        except EstateDataError as exc:
            raise ConfigError(str(exc)) from None

    def _check_modules(self) -> None:
        modules = self.modules
        if not (isinstance(modules, tuple) and all(isinstance(m, Module) for m in modules)):
            raise ConfigError(f"modules must be a tuple of Module, not {modules!r}")
        if len(set(modules)) != len(modules):
            raise ConfigError("a module is named twice")
        if modules and self.edition is not Edition.E2019:
            raise ConfigError("the expansion modules are part of the 2019 edition: "
                              "play them with edition 2019")
        object.__setattr__(self, "modules", tuple(m for m in MODULE_ORDER if m in modules))
        object.__setattr__(self, "variant", self.solo + sum(
            2 << i for i, module in enumerate(MODULE_ORDER) if module in modules))

    def __reduce__(self) -> tuple[type[GameConfig], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py

    def __repr__(self) -> str:
        setup = "" if self.setup is Setup.STANDARD else f", setup={self.setup!r}"
        modules = f", modules={self.modules!r}" if self.modules else ""
        custom = f", custom={self.custom!r}" if self.custom else ""
        target = f", target={self.target!r}" if self.target != SOLO_TARGET else ""
        teams = f", teams={self.teams!r}" if self.teams else ""
        return (f"GameConfig(players={self.players!r}, edition={self.edition!r}, "
                f"estates={self.estates!r}, start_spaces={self.start_spaces!r}{setup}{modules}"
                f"{custom}{target}{teams})")

    @property
    def border_posts(self) -> bool:
        """Whether some seat plays a duchy with border posts (11a-11f)."""
        return any(board.border_posts for board in self.boards)

    def has(self, module: Module) -> bool:
        """Whether ``module`` is switched on."""
        return module in self.modules

    @property
    def boards(self) -> tuple[Estate, ...]:
        """Each seat's :class:`Estate` (empty with an experts' set-up: they are dealt)."""
        return tuple(self.board(e) for e in self.estates)

    @property
    def experts(self) -> bool:
        """Whether the estates are dealt at random and chosen (the experts' set-up)."""
        return self.setup is not Setup.STANDARD

    @property
    def has_choices(self) -> bool:
        """Whether some player chooses an estate side or a start space during set-up."""
        return self.experts or CHOOSE in self.start_spaces

    def estate_pool(self) -> tuple[str, ...]:
        """The estates this game may use: those dealt from (experts) or those named."""
        if self.experts:
            return edition_estates(self.edition.value)
        return tuple(dict.fromkeys(self.estates))

    def caveats(self) -> list[str]:
        """One warning per estate of :meth:`estate_pool` whose layout is not well attested
        (see :func:`p2p_burgundy.estate.caveat`), to show players before they sit down.

        >>> GameConfig(players=2).caveats()
        []
        >>> [line[:8] for line in GameConfig(2, Edition.E2019, setup=Setup.EXPERTS_OPEN).caveats()]
        ['Estate 3', 'Estate 5', 'Estate 7', 'Estate 8', 'Estate 9']
        """
        return [line for line in (caveat(self.board(e)) for e in self.estate_pool()) if line]

    def to_tree(self, table: tuple[object, object] = TABLE_DEFAULTS) -> list[object]:
        """Canonical encodable form: ``[players, edition, [estate ids], [start spaces],
        set-up, [module names], [boards of one's own], table field 0, solo target, table
        field 1, teams]``, where trailing fields that hold their default (the standard set-up,
        no modules, no boards, the table's defaults, the target marker on 50, no teams: ``[]``,
        else ``[[a1, a2], [b1, b2]]``) are left out, so a base game encodes as it always did.
        ``table``: the two fields a network table signs with the config (see
        :data:`TABLE_DEFAULTS`), as the table layer encodes them.

        >>> GameConfig(players=1, edition=Edition.E2019, target=55).to_tree()
        [1, '2019', ['1'], [-1], 'standard', [], [], False, 55]
        >>> GameConfig(players=2).to_tree(table=(True, [900, 10]))
        [2, '2011', ['1', '1'], [18, 18], 'standard', [], [], True, 50, [900, 10]]
        """
        tree: list[object] = [self.players, self.edition.value, list(self.estates),
                              list(self.start_spaces), self.setup.value,
                              [m.value for m in self.modules],
                              [_board_tree(b) for b in self.custom], table[0], self.target,
                              table[1], [list(team) for team in self.teams]]
        while len(tree) > 4 and tree[-1] == _TREE_DEFAULTS[len(tree) - 5]:
            tree.pop()
        return tree

    @classmethod
    def from_tree(cls, tree: object) -> GameConfig:
        """Inverse of :meth:`to_tree` for a config without a table's fields (a game on one
        computer); raises ConfigError on anything malformed, or if the table's fields do not
        hold their defaults (a network table reads those: :meth:`split_tree`)."""
        config, table = cls.split_tree(tree)
        if not (table[0] is False and isinstance(table[1], list | tuple) and not table[1]):
            raise ConfigError("this config carries a network table's rules (hints, a game "
                              "clock): only a network game reads them")
        return config

    @classmethod
    def split_tree(cls, tree: object) -> tuple[GameConfig, tuple[object, object]]:
        """Inverse of :meth:`to_tree`: the config, and the table's two fields as written
        (their defaults where left out), unchecked: the table layer reads them. Raises
        ConfigError on anything malformed in the game's fields."""
        if not (isinstance(tree, list | tuple) and 4 <= len(tree) <= 4 + len(_TREE_DEFAULTS)):
            raise ConfigError("a game config is [players, edition, estates, start spaces] "
                              "(then the set-up, the modules, boards of one's own, hints, "
                              "the solo target, the clock and the teams, where not the "
                              "defaults)")
        if len(tree) > 4 and tree[-1] == _TREE_DEFAULTS[len(tree) - 5]:
            raise ConfigError("a trailing field that holds its default is written by "
                              "leaving it out")
        players, edition, estates, starts = tree[:4]
        setup = Setup.STANDARD
        if len(tree) > 4:
            try:
                setup = Setup(tree[4])
            except (ValueError, TypeError):
                raise ConfigError(f"unknown set-up {tree[4]!r}") from None
        modules: tuple[Module, ...] = ()
        if len(tree) > 5:
            names = tree[5]
            if not (isinstance(names, list | tuple) and all(isinstance(n, str) for n in names)):
                raise ConfigError("modules must be a list of module names")
            try:
                modules = tuple(Module(n) for n in names)
            except ValueError:
                raise ConfigError(f"unknown module in {list(names)!r}") from None
            if list(modules) != [m for m in MODULE_ORDER if m in modules]:
                raise ConfigError("modules must be listed once each, in their canonical order")
        custom: tuple[Estate, ...] = ()
        if len(tree) > 6:
            if not isinstance(tree[6], list | tuple):
                raise ConfigError("boards of one's own must be a list")
            custom = tuple(_board_from_tree(b) for b in tree[6])
        target = SOLO_TARGET
        if len(tree) > 8:
            if type(tree[8]) is not int:
                raise ConfigError(f"the solo target must be an integer, not {tree[8]!r}")
            target = tree[8]
        teams: tuple[tuple[int, int], ...] = ()
        if len(tree) > 10:
            if not (isinstance(tree[10], list | tuple) and all(
                    isinstance(t, list | tuple) and len(t) == 2
                    and all(type(s) is int for s in t) for t in tree[10])):
                raise ConfigError("the teams must be a list of two [seat, seat] pairs")
            teams = tuple((t[0], t[1]) for t in tree[10])
        try:
            ed = Edition(edition)
        except ValueError:
            raise ConfigError(f"unknown edition {edition!r}") from None
        if not (isinstance(estates, list | tuple) and all(isinstance(e, str) for e in estates)):
            raise ConfigError("estates must be a list of estate ids")
        if not (isinstance(starts, list | tuple) and all(type(s) is int for s in starts)):
            raise ConfigError("start spaces must be a list of space numbers")
        if type(players) is not int:
            raise ConfigError(f"players must be an integer, not {players!r}")
        table = (tree[7] if len(tree) > 7 else TABLE_DEFAULTS[0],
                 tree[9] if len(tree) > 9 else TABLE_DEFAULTS[1])
        return cls(players, ed, tuple(estates), tuple(starts), setup, modules, custom, target,
                   teams), table


_TREE_DEFAULTS: Final[tuple[object, ...]] = (
    Setup.STANDARD.value, [], [], TABLE_DEFAULTS[0], SOLO_TARGET, TABLE_DEFAULTS[1], [])
"""The values of the config tree's optional trailing fields (set-up, modules, boards of
one's own, the table's first field, the solo target, the table's second field, the teams) by
default."""

TEAM_REFUSED: Final = (Module.TRADE_ROUTES, Module.SHIELDS)
"""The modules the team game is not played with: each player's trade route cards and
shields have no reading for a team in the rulebook."""


def _lists(value: object) -> object:
    """``value`` with every tuple, at any depth, made a list."""
    if isinstance(value, list | tuple):
        return [_lists(v) for v in value]
    return value


def _board_tree(board: Estate) -> list[object]:
    """A board of one's own in the config tree: its record's fields in CUSTOM_FIELDS order
    (a team board's in TEAM_FIELDS order), None where it has none."""
    record = board.record()
    return [record.get(key) for key in (TEAM_FIELDS if board.team else CUSTOM_FIELDS)]


def _board_from_tree(tree: object) -> Estate:
    if not (isinstance(tree, list | tuple) and len(tree) in (len(CUSTOM_FIELDS),
                                                              len(TEAM_FIELDS))):
        raise ConfigError(f"a board of one's own is [{', '.join(CUSTOM_FIELDS)}], a team "
                          f"board [{', '.join(TEAM_FIELDS)}]")
    tree = _lists(tree)  # decoders may give tuples for arrays
    assert isinstance(tree, list)
    # By length, never by identity: compiled, a constant tuple is not always the same object.
    team = len(tree) == len(TEAM_FIELDS)
    fields = TEAM_FIELDS if team else CUSTOM_FIELDS
    record = {k: v for k, v in zip(fields, tree, strict=True) if v is not None}
    try:
        board = parse_team_board(record) if team else parse_estate(record, official=False)
    except EstateDataError as exc:
        raise ConfigError(str(exc)) from None
    if _board_tree(board) != tree:
        raise ConfigError(f"board {board.id!r} is not written in its canonical form")
    return board


def _check_solo_can_be_won(board: Estate, start: int) -> None:
    """ConfigError unless all 37 spaces of ``board`` can be filled in a solo game (the win)
    from the start castle on ``start``, or from every dark green space if it is chosen."""
    for space in board.dark_green_spaces if start == CHOOSE else [start]:
        left = never_covered(board, space)
        if left:
            raise ConfigError(
                f"the solo game cannot be won on estate {board.id}: with the start castle on "
                f"{board.label(space)}, no tile can ever reach "
                f"{', '.join(board.label(s).split()[0] for s in bits(left))} (spaces "
                f"{', '.join(map(str, bits(left)))}; other regions only via the rivers)")


def _default_start(board: Estate) -> int:
    """The printed start castle; where the estate prints none, the player chooses."""
    return CHOOSE if board.start_castle is None else board.start_castle
