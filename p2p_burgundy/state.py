"""The game state: flat, copy-on-write values with a cheap :meth:`GameState.clone`.

Every field holds an immutable value (ints, tuples, frozen objects), so a clone copies
references only, and :func:`p2p_burgundy.rules.apply` builds the next state by replacing
fields of a clone. Callers never mutate a state.

>>> from p2p_burgundy.rules import new_game
>>> state = new_game(GameConfig(players=2))
>>> state.chance
ChanceEvent(index=0, kind=<ChanceKind.SETUP: 0>, phase=0, round=0)
>>> state_hash(state).hex()[:16] == state_hash(state.clone()).hex()[:16]
True
"""

from __future__ import annotations

import hashlib
from enum import IntEnum
from typing import Any, ClassVar, Final, Generic, Self, TypeVar

import msgpack

from .board import PHASES, ROUNDS, bridge_order
from .chance import ChanceEvent
from .config import CHOOSE, TABLE_DEFAULTS, GameConfig
from .estate import Estate


class Step(IntEnum):
    """What the player to move is deciding (the top of the pending stack)."""

    TURN = 0  # use a die, buy, or end the turn
    DIE = 1  # a die is chosen: take / place / sell / workers
    FREE_ACTION = 2  # a castle's extra action, any die number
    DISCARD = 3  # storage overflowed: discard an old tile
    SHIP = 4  # take goods from a depot
    WAREHOUSE = 5  # may sell one goods type
    CARPENTER = 6  # may take a building from a numbered depot
    CHURCH = 7  # may take a mine, castle or knowledge tile
    MARKET = 8  # may take a ship or animal tile
    CITY_HALL = 9  # may place another tile, any die number
    CHOOSE_ESTATE = 10  # set-up: choose the board's side and the start castle's space
    WHITE_CASTLE = 11  # a white castle's action with the white die (white castles module)
    CRANE = 12  # may trigger any building's effect (extra tiles module)
    # The solo game:
    EXCHANGE = 13  # after a ship: may give 5 goods for a black depot tile, face down
    PAY_GOODS = 14  # pay the exchange's goods, one tile at a time (argument: how many left)
    REWARD = 15  # a colour completed: choose a black depot tile to place at once
    REWARD_PLACE = 16  # place that tile (argument: its storage space), any die number
    TARGET = 17  # may buy the victory points that reach the target marker
    TRIBUTE = 18  # phase end: pay for the shields kept (shields module)
    SHIELD_TILE = 19  # phase end: shield #14 (arg 1: numbered depots) or #15 (arg 0: black)
    SHIELD_GOODS = 20  # shield #5: after a ship, every goods tile of one type
    ORDER = 21  # the solo game: which of the pending steps comes first
    PHASE_END = 22  # shields: a turn of the phase end, its steps done (shown, never pending)
    STOW = 23  # the team game: the tile just taken goes to your storage or the team's


_V = TypeVar("_V")

EMPTY: Final = -1  # an empty estate space or depot slot

PLAYER_FIELDS: Final = (
    "silver", "workers", "goods", "sold", "storage", "estate", "occupied", "frontier",
    "knowledge", "dice", "dice_used", "bought", "bonuses", "breakdown",
)


_MASK_INDICES: Final = (PLAYER_FIELDS.index("occupied"), PLAYER_FIELDS.index("frontier"))


class PlayerState:
    """One player's supplies and estate.

    ``goods`` and ``sold`` count goods tiles by type (index 1..6; index 0 unused).
    ``estate`` holds a tile per space or EMPTY; ``occupied`` and ``frontier`` (empty spaces
    next to a tile) are the same as bit masks. ``knowledge`` has bit ``n`` set for each
    knowledge tile #n placed. ``bonuses`` per colour: 0 none, 1 first (large), 2 second.
    ``breakdown`` holds VP per :class:`~p2p_burgundy.scoring.Category`.
    """

    __slots__ = PLAYER_FIELDS

    silver: int
    workers: int
    goods: tuple[int, ...]
    sold: tuple[int, ...]
    storage: tuple[int, ...]
    estate: tuple[int, ...]
    occupied: int
    frontier: int
    knowledge: int
    dice: tuple[int, int]
    dice_used: int
    bought: bool
    bonuses: tuple[int, ...]
    breakdown: tuple[int, ...]

    @property
    def vp(self) -> int:
        """Victory points: always the sum of :attr:`breakdown`."""
        return sum(self.breakdown)

    def copy(self) -> PlayerState:
        # Field by field: several times faster than a loop over PLAYER_FIELDS (a hot path).
        # PlayerState() (no __init__) is made faster than by PlayerState.__new__(PlayerState).
        new = PlayerState()
        new.silver = self.silver
        new.workers = self.workers
        new.goods = self.goods
        new.sold = self.sold
        new.storage = self.storage
        new.estate = self.estate
        new.occupied = self.occupied
        new.frontier = self.frontier
        new.knowledge = self.knowledge
        new.dice = self.dice
        new.dice_used = self.dice_used
        new.bought = self.bought
        new.bonuses = self.bonuses
        new.breakdown = self.breakdown
        return new

    def add_vp(self, category: int, points: int) -> None:
        """Score ``points`` in ``category`` (a :class:`~p2p_burgundy.scoring.Category`; only on
        a fresh copy; points are never negative)."""
        breakdown = [*self.breakdown]
        breakdown[category] += points
        self.breakdown = tuple(breakdown)

    def has_knowledge(self, number: int) -> bool:
        return bool(self.knowledge >> number & 1)

    def to_tree(self, wide: bool = False) -> list[object]:
        """Fields are ints, bools and tuples of ints: msgpack packs them as they are; but on a
        team board (``wide``: 74 spaces) ``occupied`` and ``frontier`` exceed msgpack's 64-bit
        ints, and are packed as 10 bytes, big-endian."""
        tree: list[object] = [getattr(self, name) for name in PLAYER_FIELDS]
        if wide:
            for index in _MASK_INDICES:
                tree[index] = self.__getattribute__(PLAYER_FIELDS[index]).to_bytes(10, "big")
        return tree

    def __repr__(self) -> str:
        return f"<PlayerState vp={self.vp} silver={self.silver} workers={self.workers}>"


GAME_FIELDS: Final = (
    "config", "boards", "phase", "round", "order", "turn", "track", "track_stamp", "players",
    "depots", "depot_goods", "phase_goods", "supplies", "goods_pool", "bonus_taken",
    "pending", "chance", "chance_index", "white_die", "box",
)
"""The state's fields in the order of its encoding (:meth:`GameState.to_tree`)."""
COMMON_FIELDS: Final = (
    "track", "track_stamp", "depot_goods", "phase_goods", "supplies", "goods_pool",
    "bonus_taken", "chance_index", "white_die",
)
"""The fields of :class:`CommonPart`: those of :data:`GAME_FIELDS` that a move seldom changes."""


class CommonPart:
    """The fields of a state that change at most a few times a round: the bridge (``track``,
    ``track_stamp``), the goods on the depots and the phase's, the face-down supplies and the
    goods pool, the bonus tiles taken, the chance events' count and the white die.

    One record that a clone shares, so that a move which changes none of them (nearly every
    move: a ship, a colour bonus and a chance event do) copies one reference for the nine. It
    is never changed in place: writing one of these fields of a state
    (``state.track = ...``) gives the state a changed copy; a rule that writes several at once
    copies the record itself (``new.common = new.common.copy()``) and writes that copy.
    """

    __slots__ = COMMON_FIELDS

    track: tuple[tuple[int, int], ...]
    track_stamp: int
    depot_goods: tuple[tuple[int, ...], ...]
    phase_goods: tuple[int, ...]
    supplies: tuple[tuple[int, ...], ...]
    goods_pool: tuple[int, ...]
    bonus_taken: tuple[int, ...]
    chance_index: int
    white_die: int

    def copy(self) -> CommonPart:
        new = CommonPart()  # field by field, as GameState.clone
        new.track = self.track
        new.track_stamp = self.track_stamp
        new.depot_goods = self.depot_goods
        new.phase_goods = self.phase_goods
        new.supplies = self.supplies
        new.goods_pool = self.goods_pool
        new.bonus_taken = self.bonus_taken
        new.chance_index = self.chance_index
        new.white_die = self.white_die
        return new


class ModulePart:
    """A module's own part of the game state, defined in the module's file (a subclass with
    its ``name``, its ``fields``, also its ``__slots__``, holding immutable values, and
    :meth:`start`), and the base game's set-up choices (:class:`SetupPart`).
    ``GameState.modules`` holds the parts of the game's modules by name, in registry order; a
    clone shares them (one reference for all: the base game pays nothing for them), so a part
    is never changed in place: :meth:`GameState.changed` gives a changed copy. Only a played
    module's part is in the state and its encoding (its fields' values, after the base game's
    fields), so a game without the module encodes, and hashes, as before it existed.
    """

    __slots__ = ()
    # Class attributes, not class keywords: a class compiled by mypyc passes none to
    # __init_subclass__, and reads no __slots__.
    name: ClassVar[str]
    fields: ClassVar[tuple[str, ...]] = ()
    kinds: ClassVar[dict[str, type[ModulePart]]] = {}
    """Every part by name (each registers itself when its module is imported)."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        ModulePart.kinds[cls.name] = cls

    @classmethod
    def start(cls, config: GameConfig) -> ModulePart:
        """The part at the start of a game of ``config``."""
        raise NotImplementedError

    def copy(self) -> Self:
        new = type(self)()
        for name in self.fields:  # only on a write
            setattr(new, name, getattr(self, name))
        return new

    def to_tree(self, config: GameConfig) -> list[object]:
        """What the part adds to the state's encoding: its fields, in order."""
        return [getattr(self, name) for name in self.fields]

    def values(self) -> tuple[object, ...]:
        """Every field, in order (parts have no ``__eq__``)."""
        return tuple(getattr(self, name) for name in self.fields)


class SetupPart(ModulePart):
    """The set-up's choices: per seat, the estate ids it still chooses from (its board's two
    sides in the experts' set-up, side 0 first; its one estate when only the start space is
    chosen); empty once chosen. Encoded only when the config has set-up choices."""

    name: ClassVar[str] = "setup"
    fields: ClassVar[tuple[str, ...]] = ("offers",)
    __slots__ = fields
    offers: tuple[tuple[str, ...], ...]

    @classmethod
    def start(cls, config: GameConfig) -> SetupPart:
        part = cls()
        part.offers = tuple(
            (config.estates[s],) if config.start_spaces and config.start_spaces[s] == CHOOSE
            else () for s in range(config.players))
        return part

    def to_tree(self, config: GameConfig) -> list[object]:
        return [[list(o) for o in self.offers]] if config.has_choices else []


class PartField(Generic[_V]):
    """``GameState.<name>``, the field ``name`` of the module part ``part``, for readers
    outside the engine (a game without the module reads the field's start value). Read
    only: a write goes to ``state.changed(part)``."""

    __slots__ = ("name", "part")

    def __init__(self, part: str, name: str) -> None:
        self.part = part
        self.name = name

    def __get__(self, state: GameState, owner: type[GameState]) -> _V:
        held = state.modules.get(self.part)
        if held is None:
            held = ModulePart.kinds[self.part].start(state.config)
        value: _V = getattr(held, self.name)
        return value


class GameState:
    """Everything about a game at one moment.

    - ``phase`` 0..4 (A..E; 5 once the game is over), ``round`` 0..4.
    - ``order``: the seats in this round's turn order; ``turn`` indexes it.
    - ``track``: per seat ``(space, stamp)`` on the turn order track; a higher stamp is higher
      in a stack. ``track_stamp`` is the next stamp.
    - ``depots``: index 0 the black depot (8 slots), 1..6 the numbered depots (4 slots);
      EMPTY where no tile lies. ``depot_goods``: goods counts by type per depot.
    - ``phase_goods``: the five goods of this phase; round ``r`` placed the ``r``-th.
    - ``supplies``: the face-down tiles left, normal backs by colour (0..5) then black (6),
      each sorted. ``goods_pool``: goods tiles not yet drawn, sorted. ``box``: how many of
      each tile left the game (discarded or cleared off the board).
    - ``pending``: stack of ``(Step, argument)`` decisions still to make in this turn.
    - ``chance``: the chance event waiting for entropy, or None.
    - ``common``: the :class:`CommonPart`, which holds ``track``, ``track_stamp``,
      ``depot_goods``, ``phase_goods``, ``supplies``, ``goods_pool``, ``bonus_taken``,
      ``chance_index`` and ``white_die``: read and written as the state's own fields.
    - ``modules``: the :class:`ModulePart` of the set-up's choices and of each module the game
      plays, by name; the fields below, from ``inns`` on, and ``offers`` are theirs, read
      here as attributes of the state too (:class:`PartField`).
    - ``inns`` (inns module): how many inns lie stacked beside the black depot.
    - ``border_ranks`` (border-post duchies): per seat, 1 or 2 once it was the first or
      second to join all its border posts, else 0.
    - ``routes`` and ``route_goods`` (trade routes module): per seat, the trade route cards in
      route order, and the goods types laid on the route's spaces so far, left to right.
    - ``vp_counter``, ``vp_target`` and ``goods_out`` (the solo game): the victory point
      counter since its last reset, the target marker, and the goods tiles removed from the
      game by type (index 1..6).
    - shields module: ``depot_shields`` the shield numbers on each depot (index 0, the black
      depot, holds none); ``shields`` per seat the shields it holds, as a bit set (bit ``n``:
      shield ``n``); ``shield_box`` the shields out of the game (left over at set-up, or
      removed), a bit set; ``borrowed`` the seat whose knowledge tiles count for the holder
      of shield #6 (-1 until chosen); ``die_changed`` whether shield #16 set a die this turn;
      ``closing`` the seats still to play their turn of the phase end (shields #14 and #15,
      tribute), the one playing first; empty otherwise. ``depot_shields`` is empty without
      the module.
    - ``offers``: per seat, the estate ids it still chooses from during set-up (its board's
      two sides in the experts' set-up, side 0 first; its one estate when only the start space
      is chosen); empty once chosen. Until a seat has chosen, ``boards[seat]`` is a
      placeholder (its side 0 once dealt, estate 1 before).
    """

    __slots__ = (*(name for name in GAME_FIELDS if name not in COMMON_FIELDS), "common",
                 "modules")

    config: GameConfig
    boards: tuple[Estate, ...]
    phase: int
    round: int
    order: tuple[int, ...]
    turn: int
    players: tuple[PlayerState, ...]
    depots: tuple[tuple[int, ...], ...]
    pending: tuple[tuple[int, int], ...]
    chance: ChanceEvent | None
    box: tuple[int, ...]
    common: CommonPart
    modules: dict[str, Any]
    # The fields of the module parts, as the client, the bots and the tests read them (the
    # engine's modules read their parts). Class attributes: mypyc makes an annotated
    # attribute of the class body an instance attribute.
    offers: ClassVar[PartField[tuple[tuple[str, ...], ...]]] = PartField("setup", "offers")
    inns: ClassVar[PartField[int]] = PartField("inns", "inns")
    border_ranks: ClassVar[PartField[tuple[int, ...]]] = PartField("border-posts", "border_ranks")
    routes: ClassVar[PartField[tuple[tuple[int, ...], ...]]] = PartField("trade-routes", "routes")
    route_goods: ClassVar[PartField[tuple[tuple[int, ...], ...]]] = PartField(
        "trade-routes", "route_goods")
    vp_counter: ClassVar[PartField[int]] = PartField("solo", "vp_counter")
    vp_target: ClassVar[PartField[int]] = PartField("solo", "vp_target")
    goods_out: ClassVar[PartField[tuple[int, ...]]] = PartField("solo", "goods_out")
    depot_shields: ClassVar[PartField[tuple[tuple[int, ...], ...]]] = PartField(
        "shields", "depot_shields")
    shields: ClassVar[PartField[tuple[int, ...]]] = PartField("shields", "held")
    shield_box: ClassVar[PartField[int]] = PartField("shields", "shield_box")
    borrowed: ClassVar[PartField[int]] = PartField("shields", "borrowed")
    die_changed: ClassVar[PartField[bool]] = PartField("shields", "die_changed")
    closing: ClassVar[PartField[tuple[int, ...]]] = PartField("shields", "closing")
    private: ClassVar[PartField[tuple[int, ...]]] = PartField("team", "private")

    # The fields of the common part (CommonPart), read and written as the state's own: a write
    # gives this state a changed copy of the part (the hot paths of the rules read and copy
    # the part themselves).
    @property
    def track(self) -> tuple[tuple[int, int], ...]:
        return self.common.track

    @track.setter
    def track(self, value: tuple[tuple[int, int], ...]) -> None:
        self.common = common = self.common.copy()
        common.track = value

    @property
    def track_stamp(self) -> int:
        return self.common.track_stamp

    @track_stamp.setter
    def track_stamp(self, value: int) -> None:
        self.common = common = self.common.copy()
        common.track_stamp = value

    @property
    def depot_goods(self) -> tuple[tuple[int, ...], ...]:
        return self.common.depot_goods

    @depot_goods.setter
    def depot_goods(self, value: tuple[tuple[int, ...], ...]) -> None:
        self.common = common = self.common.copy()
        common.depot_goods = value

    @property
    def phase_goods(self) -> tuple[int, ...]:
        return self.common.phase_goods

    @phase_goods.setter
    def phase_goods(self, value: tuple[int, ...]) -> None:
        self.common = common = self.common.copy()
        common.phase_goods = value

    @property
    def supplies(self) -> tuple[tuple[int, ...], ...]:
        return self.common.supplies

    @supplies.setter
    def supplies(self, value: tuple[tuple[int, ...], ...]) -> None:
        self.common = common = self.common.copy()
        common.supplies = value

    @property
    def goods_pool(self) -> tuple[int, ...]:
        return self.common.goods_pool

    @goods_pool.setter
    def goods_pool(self, value: tuple[int, ...]) -> None:
        self.common = common = self.common.copy()
        common.goods_pool = value

    @property
    def bonus_taken(self) -> tuple[int, ...]:
        return self.common.bonus_taken

    @bonus_taken.setter
    def bonus_taken(self, value: tuple[int, ...]) -> None:
        self.common = common = self.common.copy()
        common.bonus_taken = value

    @property
    def chance_index(self) -> int:
        return self.common.chance_index

    @chance_index.setter
    def chance_index(self, value: int) -> None:
        self.common = common = self.common.copy()
        common.chance_index = value

    @property
    def white_die(self) -> int:
        return self.common.white_die

    @white_die.setter
    def white_die(self, value: int) -> None:
        self.common = common = self.common.copy()
        common.white_die = value

    def changed(self, part: str) -> Any:
        """The module part ``part`` of this state (one being built), replaced by a copy to
        change: the state's clones keep the part they shared."""
        new = self.modules[part].copy()
        self.modules = {**self.modules, part: new}
        return new

    def module_values(self) -> tuple[tuple[object, ...], ...]:
        """Each module part's name and fields, in the state's order (for comparisons)."""
        return tuple((name, *part.values()) for name, part in self.modules.items())

    def clone(self) -> GameState:
        """A copy sharing all (immutable) field values: cheap enough for search."""
        # Field by field: several times faster than a loop over GAME_FIELDS (a hot path).
        # GameState() (no __init__) is made faster than by GameState.__new__(GameState).
        new = GameState()
        new.config = self.config
        new.boards = self.boards
        new.phase = self.phase
        new.round = self.round
        new.order = self.order
        new.turn = self.turn
        new.players = self.players
        new.depots = self.depots
        new.pending = self.pending
        new.chance = self.chance
        new.box = self.box
        new.common = self.common  # one reference for the fields a move seldom changes
        new.modules = self.modules  # one reference for every module part
        return new

    @property
    def is_over(self) -> bool:
        """True once phase E has ended and final scoring is done."""
        return self.phase >= 5

    @property
    def to_move(self) -> int | None:
        """The seat that decides next, or None while waiting for chance or after the end."""
        if self.chance is not None or self.phase >= 5:
            return None
        return self.order[self.turn]

    @property
    def step(self) -> Step:
        """What the player to move is deciding: the top of the pending stack; with nothing
        pending TURN, or the step a module plays then (the shields' PHASE_END)."""
        if self.pending:
            return Step(self.pending[-1][0])
        from .rules import idle_step  # the rules build on this module

        return Step(idle_step(self))

    @property
    def game_round(self) -> int:
        """The round of the game, 1..25; once it is over, the last round played (the solo
        game may be won before the 25th).

        >>> from p2p_burgundy.rules import new_game
        >>> new_game(GameConfig(players=2)).game_round
        1
        """
        if self.phase < PHASES:
            return self.phase * ROUNDS + self.round + 1
        events = self.chance_index - (2 if self.config.experts else 1)  # after the set-up
        return (events - 1) // 6 * ROUNDS + (events - 1) % 6  # 6 events a phase

    def bridge_order(self) -> tuple[int, ...]:
        """The seats as they stand on the bridge now, furthest along first (the next
        round's turn order); the owner of monastery #27 is on top of any stack (in the team
        game, both players of its team: the duchy's tiles are the team's)."""
        top = 0
        seat = 1  # a bit per seat, counted (cheaper than enumerate())
        for p in self.players:
            if p.knowledge >> 27 & 1:
                top |= seat
            seat <<= 1
        return bridge_order(self.common.track, top)

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def to_tree(self, table: tuple[object, object] = TABLE_DEFAULTS) -> list[object]:
        """Canonical encodable form of the whole state (fields in declaration order; then
        what each part of ``modules`` adds, in its order: the set-up's ``offers`` when the
        config has set-up choices, then each played module's fields: ``inns`` with the inns
        module, ``border_ranks`` with border-post duchies, ``routes`` and ``route_goods`` with
        the trade routes module, ``vp_counter``, ``vp_target`` and ``goods_out`` in the solo
        game, the shield fields with the shields module, ``private`` in the team game).
        ``table``: the table's fields of the config's tree (:meth:`GameConfig.to_tree`),
        only to read a hash written when states still carried them."""
        out: list[object] = []
        for name in GAME_FIELDS:
            value = getattr(self, name)
            if name == "config":
                out.append(self.config.to_tree(table))
            elif name == "boards":
                out.append([b.id for b in self.boards])
            elif name == "players":
                wide = bool(self.config.teams)
                out.append([p.to_tree(wide) for p in self.players])
            elif name == "chance":
                c = self.chance
                out.append(None if c is None else [c.index, int(c.kind), c.phase, c.round])
            else:
                out.append(value)
        for part in self.modules.values():
            out += part.to_tree(self.config)
        return out

    def __repr__(self) -> str:
        if self.is_over:
            where = "game over"
        else:
            where = f"phase {'ABCDE'[self.phase]} round {self.round + 1}"
        return f"<GameState {where} hash={state_hash(self).hex()[:12]}>"


def encode_state(state: GameState, table: tuple[object, object] = TABLE_DEFAULTS) -> bytes:
    """The canonical bytes of a state (msgpack of :meth:`GameState.to_tree`)."""
    data: bytes = msgpack.packb(state.to_tree(table), use_bin_type=True)
    return data


def state_hash(state: GameState, table: tuple[object, object] = TABLE_DEFAULTS) -> bytes:
    """SHA-256 of :func:`encode_state`: equal on every peer that applied the same history.

    ``table``: the two fields of a network table's rules in the config's tree. A state's
    encoding carried them until they left the engine's config (hints, a game clock), so a
    position file exported before then records the hash of the state with them; every state
    since is hashed with their defaults."""
    return hashlib.sha256(encode_state(state, table)).digest()
