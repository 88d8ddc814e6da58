"""The rules: set-up, chance events, legal actions and their effects.

Three functions drive a game. :func:`new_game` makes the state before set-up;
:func:`resolve_chance` feeds entropy whenever ``state.chance`` is set; otherwise
:func:`legal_actions` lists the choices of ``state.to_move`` and :func:`apply` returns the
state after one of them (or raises :class:`IllegalAction` saying why, changing nothing).

>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> state.to_move, state.players[state.to_move].dice
(0, (5, 1))
>>> legal_actions(state)  # one silverling: too poor to buy; both dice still to use
[UseDie(die=0), UseDie(die=1)]
>>> state = apply(state, UseDie(0))
>>> apply(state, SellGoods(2))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
p2p_burgundy.errors.IllegalAction: SellGoods(goods=2): turning your 5 into a 2 takes 3 workers; ...
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from .actions import (
    BUY,
    DISCARD,
    END_TURN,
    PASS,
    PLACE_TILE,
    SELL_GOODS,
    TAKE_GOODS,
    TAKE_TILE,
    TAKE_WORKERS,
    USE_DIE,
    Action,
    Buy,
    ChooseEstate,
    Discard,
    EndTurn,
    Pass,
    PayGoods,
    Payment,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
)
from .board import (
    BLACK_DEPOT_SLOTS,
    BLACK_DEPOT_TILES,
    NEIGHBOUR_DEPOT,
    NUMBERED_DEPOT_SLOTS,
    PHASES,
    ROUNDS,
    bridge_order,
    depot_spaces,
    space_colour,
)
from .chance import (
    ChanceEvent,
    ChanceKind,
    DealDraw,
    Draw,
    Draws,
    PhaseDraw,
    RoundDraw,
    SetupDraw,
)
from .config import CHOOSE, VARIANTS, Edition, GameConfig, Switch
from .errors import ChanceError, IllegalAction
from .estate import DIE_PATTERN, SPACE_COUNT, Estate, bits, box_sides
from .scoring import (
    BASE_CATEGORY_COUNT,
    COLOUR_BONUS_VP,
    PHASE_BONUS,
    REGION_VP,
    SALE_VP,
    WATCHTOWER_VP,
    Category,
    Outcome,
    Side,
    end_game_points,
)
from .state import (
    EMPTY,
    CommonPart,
    GameState,
    ModulePart,
    PlayerState,
    SetupPart,
    Step,
    state_hash,
)
from .tiles import (
    ANIMAL_COUNT,
    ANIMAL_TYPE,
    ANY_COLOUR,
    BASE_TILE_COUNT,
    BLACK_SUPPLY,
    FACE_DOWN,
    GEESE_VP,
    GOODS_SUPPLY,
    KNOWLEDGE_NUMBER,
    MODULE_TILES,
    NORMAL_SUPPLY,
    TILE_COLOUR,
    TILE_COUNT,
    Animal,
    Building,
    Colour,
    Tile,
    tile_name,
)
from .words import ActionWords, DepotWords, DrawWords

STORAGE_SPACES: Final = 3
_BOTH_DICE: Final = 0b11
GOODS_SLOTS: Final = 3  # goods types a player can hold at once
START_SILVER: Final = 1
START_GOODS: Final = 3
WORKERS_TAKEN: Final = 2
BOARDING_HOUSE_WORKERS: Final = 4
BANK_SILVER: Final = 2
PURCHASE_PRICE: Final = 2
BLACK: Final = 6  # index of the black-backed supply in GameState.supplies
TRACK_STEPS: Final = 7  # turn order track spaces in use: start + one per ship (6 rivers)
ALL_SPACES: Final = (1 << SPACE_COUNT) - 1
_LAST_ROUND: Final = ROUNDS - 1

# Knowledge tile bits (bit n = tile #n) tested on hot paths.
# One name each, Final: the compiled build reads a Final name as a constant, any other global
# from the module's dict.
_K1: Final = 1 << 1
_K2: Final = 1 << 2
_K3: Final = 1 << 3
_K4: Final = 1 << 4
_K5: Final = 1 << 5
_K6: Final = 1 << 6
_K7: Final = 1 << 7
_K8: Final = 1 << 8
_K9: Final = 1 << 9
_K10: Final = 1 << 10
_K11: Final = 1 << 11
_K12: Final = 1 << 12
_K13: Final = 1 << 13
_K14: Final = 1 << 14
# Knowledge tile giving a free +/-1 when placing a tile of each colour (#9, #10, #11); none
# for the inn (any colour).
_FREE_PLACE_BIT: Final = (_K9, _K10, _K10, _K11, _K11, _K11, 0)

# Enum members read on hot paths, bound to module names once: on CPython 3.11 reading a member
# off its class (Colour.BLUE) goes through the enum metaclass's attribute hook, several times
# slower than reading a global. Those only compared with or indexing by the state's numbers
# are plain ints: CPython 3.11 specializes comparisons, arithmetic and tuple indexing for exact
# ints only (an IntEnum member takes the generic path).
_BEIGE: Final = int(Colour.BEIGE)
_LIGHT_GREEN: Final = int(Colour.LIGHT_GREEN)
_BLUE: Final = int(Colour.BLUE)
_DARK_GREEN: Final = int(Colour.DARK_GREEN)
_YELLOW: Final = int(Colour.YELLOW)
_TURN_STEP: Final = Step.TURN
_DIE_STEP: Final = Step.DIE
_FREE_STEP: Final = Step.FREE_ACTION
_DISCARD_STEP: Final = Step.DISCARD
_SHIP_STEP: Final = Step.SHIP
_SETUP_EVENT: Final = ChanceKind.SETUP
_PHASE_EVENT: Final = ChanceKind.PHASE
_ROUND_EVENT: Final = ChanceKind.ROUND
_SILVER: Final = Payment.SILVER
_WORKERS: Final = Payment.WORKERS
_SALES: Final = int(Category.SALES)
_ANIMALS: Final = int(Category.ANIMALS)
_REGIONS: Final = int(Category.REGIONS)
_PHASE_BONUSES: Final = int(Category.PHASE_BONUSES)
_COLOUR_BONUSES: Final = int(Category.COLOUR_BONUSES)
_WATCHTOWERS: Final = int(Category.WATCHTOWERS)
_GEESE: Final = int(Tile.GEESE)
_BOARDING_HOUSE: Final = int(Building.BOARDING_HOUSE)
_BANK: Final = int(Building.BANK)
_WATCHTOWER: Final = int(Building.WATCHTOWER)
_MINE: Final = int(Tile.MINE)
_GREY: Final = int(Colour.GREY)
_FIRST_EVENT: Final = ChanceEvent(0, _SETUP_EVENT, 0, 0)  # every game's

# Tiles a carpenter's workshop / church / market may take, by colour.
_EFFECT_COLOURS: Final[dict[int, frozenset[int]]] = {
    Step.CARPENTER: frozenset({Colour.BEIGE}),
    Step.CHURCH: frozenset({Colour.GREY, Colour.YELLOW, Colour.DARK_GREEN}),
    Step.MARKET: frozenset({Colour.BLUE, Colour.LIGHT_GREEN}),
}
# The same as tiles: TILE_COLOUR looked up once, not for each depot slot at every look.
_EFFECT_TILES: Final[dict[int, frozenset[int]]] = {
    step: frozenset(t for t in range(TILE_COUNT) if TILE_COLOUR[t] in colours)
    for step, colours in _EFFECT_COLOURS.items()
}
_BUILDING_STEP: Final[dict[int, Step]] = {
    Building.WAREHOUSE: Step.WAREHOUSE,
    Building.CARPENTERS_WORKSHOP: Step.CARPENTER,
    Building.CHURCH: Step.CHURCH,
    Building.MARKET: Step.MARKET,
    Building.CITY_HALL: Step.CITY_HALL,
}


def _die_distance(a: int, b: int) -> int:
    d = abs(a - b)
    return min(d, 6 - d)  # 1 and 6 are neighbours


# COST[per][free][die][target]: workers needed to turn ``die`` into ``target`` when a worker
# moves the die by up to ``per`` (2 with knowledge #8; index 0 unused) after ``free`` free
# steps (#9-#12). Die or target 0 means "none" and costs more than anyone has.
COST: Final = tuple(
    tuple(
        tuple(
            tuple(-(-max(0, _die_distance(v, t) - free) // per) if v and t and per else 99
                  for t in range(7))
            for v in range(7)
        )
        for free in range(2)
    )
    for per in range(3)
)


_MAX_COST: Final = 3  # the most workers any target costs (three steps away, one step per worker)
# _TARGETS[per][free][die][workers]: the numbers 1..6 that ``die`` (0: any number) turns into
# with at most ``workers`` (0.._MAX_COST) workers, ascending.
_TARGETS: Final = tuple(
    tuple(
        tuple(
            tuple(tuple(t for t in range(1, 7) if not v or COST[per][free][v][t] <= w)
                  for w in range(_MAX_COST + 1))
            for v in range(7)
        )
        for free in range(2)
    )
    for per in range(3)
)
# _PLACE_REACH[per][free][die][workers][colour]: the spaces showing a number that ``die``
# turns into for a tile of ``colour`` (every estate prints the same numbers,
# estate.DIE_PATTERN), where ``free`` holds the player's knowledge #9, #10 and #11 as bits 0-2
# (``knowledge >> 9 & 7``): each a free step for the colours of _FREE_PLACE_BIT.
_PLACE_REACH: Final = tuple(
    tuple(
        tuple(
            tuple(
                tuple(sum(1 << s for s, d in enumerate(DIE_PATTERN)
                          if d in _TARGETS[per][1 if free << 9 & bit else 0][v][w])
                      for bit in _FREE_PLACE_BIT)
                for w in range(_MAX_COST + 1)
            )
            for v in range(7)
        )
        for free in range(8)
    )
    for per in range(3)
)


def worker_cost(die: int, target: int, *, per_worker: int = 1, free: int = 0) -> int:
    """Workers needed to turn ``die`` into ``target`` (1 and 6 are neighbours).

    Anna turns a 2 into a 6 with two workers; with knowledge #8 (``per_worker=2``) Carla makes
    a 3 from a 6 with two workers.

    >>> worker_cost(2, 6), worker_cost(6, 3, per_worker=2), worker_cost(4, 5, free=1)
    (2, 2, 0)
    """
    return COST[per_worker][free][die][target]


# --- Set-up and chance ------------------------------------------------------------------------

def new_game(config: GameConfig) -> GameState:
    """The state before set-up: waiting for entropy for the SETUP event.

    >>> new_game(GameConfig(players=4)).chance.kind.name
    'SETUP'
    """
    n = config.players
    rules = _rules(config)
    boards = config.boards or (config.board("1"),) * n  # placeholders: the experts' deal
    state = GameState()
    state.common = common = CommonPart()
    state.config = config
    state.boards = boards
    state.phase = 0
    state.round = 0
    state.order = tuple(range(n))
    state.turn = 0
    common.track = tuple((0, 0) for _ in range(n))
    common.track_stamp = 0
    players = []
    for seat in range(n):
        p = PlayerState()
        p.silver = START_SILVER
        p.workers = 0
        p.goods = (0,) * 7
        p.sold = (0,) * 7
        p.storage = ()
        start = config.start_spaces[seat] if config.start_spaces else CHOOSE
        if start == CHOOSE:  # placed when the player chooses (ChooseEstate)
            p.estate, p.occupied, p.frontier = (EMPTY,) * len(boards[seat].spaces), 0, 0
        else:
            p.estate = _start_estate(seat, boards[seat], start)
            p.occupied = 1 << start
            p.frontier = boards[seat].neighbours[start]
        p.knowledge = 0
        p.dice = (0, 0)
        p.dice_used = 0b11
        p.bought = False
        p.bonuses = (0,) * 6
        p.breakdown = (0,) * rules.categories
        players.append(p)
    state.players = tuple(players)
    state.depots = ((EMPTY,) * BLACK_DEPOT_SLOTS,) + ((EMPTY,) * NUMBERED_DEPOT_SLOTS,) * 6
    common.depot_goods = ((0,) * 7,) * 7
    common.phase_goods = ()
    common.supplies = _supplies(n, tuple(module.value for module in config.modules))
    common.goods_pool = GOODS_SUPPLY
    common.bonus_taken = (0,) * 6
    state.pending = ()
    state.chance = _FIRST_EVENT
    common.chance_index = 0
    common.white_die = 0
    state.box = (0,) * (TILE_COUNT if config.modules else BASE_TILE_COUNT)
    state.modules = {"setup": SetupPart.start(config),
                     **{part.name: part.start(config) for part in rules.parts}}
    return state


@functools.cache  # a few kinds of game: made once each
def _supplies(players: int, modules: tuple[str, ...]) -> tuple[tuple[int, ...], ...]:
    """The face-down supplies: normal backs by colour, the black backs, then any stack a
    module brings (the inns'); each sorted, with the modules' tiles shuffled in and the start
    castles taken out. Tiles are plain ints in the state (the rules index and compare them on
    every move: see _BEIGE)."""
    supplies = [list(map(int, s)) for s in (*NORMAL_SUPPLY, BLACK_SUPPLY)]
    del supplies[Colour.DARK_GREEN][-players:]  # the start castles
    for module in modules:
        for supply, tiles in MODULE_TILES.get(module, {}).items():
            supplies += ([] for _ in range(supply + 1 - len(supplies)))  # a stack of its own
            supplies[supply] += map(int, tiles)
    return tuple(tuple(sorted(s)) for s in supplies)


def _start_castle(seat: int) -> int:
    """The castle tile that stands on ``seat``'s start space (taken from the supply at set-up)."""
    return int(NORMAL_SUPPLY[Colour.DARK_GREEN][-1 - seat])


def _start_estate(seat: int, board: Estate, space: int) -> tuple[int, ...]:
    """``seat``'s estate on ``board`` with only its start castle, on ``space``."""
    estate = [EMPTY] * len(board.spaces)
    estate[space] = _start_castle(seat)
    return tuple(estate)


def resolve_chance(state: GameState, entropy: bytes) -> GameState:
    """Apply the pending chance event with 32 bytes of entropy (see :mod:`.chance`);
    :func:`draw_chance` also says what it drew.

    Draw order: SETUP draws the start seat, then three goods per seat in seat order (with
    the trade routes module, then each seat's trade route cards in seat order, in route
    order, from the cards 1..12 left; with the shields module, then the shields of depots
    1..6 in order, as many as ``SHIELDS_PER_DEPOT`` says, from the shields 1..18 left).
    DEAL (experts' set-up only, right after SETUP) deals each seat in seat order a board: two
    different estates from the sides left of :func:`~p2p_burgundy.estate.box_sides` (side 0,
    then side 1 among the sides that are another estate).
    PHASE draws, for depots 1..6 and their filled spaces in order, a tile of the space's
    colour, then the black depot's tiles, then the phase's five goods (with the inns module,
    one inn also comes out beside the black depot: they are all alike, so no draw). ROUND
    rolls two dice per seat in seat order, then the white die. Pools are drawn from in sorted
    order.
    """
    event = state.chance
    if event is None:
        raise ChanceError("no chance event is pending")
    draws = Draws(entropy)
    new = state.clone()
    # Every event changes the common part: one copy, which the set-ups below may write.
    new.common = common = new.common.copy()
    common.chance_index = event.index + 1
    kind = event.kind
    if kind == _ROUND_EVENT:
        _round_setup(new, draws)
        new.chance = None
    elif kind == _PHASE_EVENT:
        _phase_setup(new, draws)
        new.chance = _event(common.chance_index, _ROUND_EVENT, new.phase, 0)
    elif kind == _SETUP_EVENT:
        _setup(new, draws)
        if new.config.experts:
            new.chance = ChanceEvent(new.chance_index, ChanceKind.DEAL, 0, 0)
        else:
            _next_chooser(new, 0)
    else:
        _deal(new, draws)
        _next_chooser(new, 0)
    return new


def draw_chance(state: GameState, entropy: bytes) -> tuple[GameState, Draw]:
    """:func:`resolve_chance`, and what the event drew (a :data:`~.chance.Draw`), as the
    engine drew it.

    >>> state, drew = draw_chance(new_game(GameConfig(players=2)), bytes(32))
    >>> drew
    SetupDraw(start_player=0, goods=((1, 1, 2), (2, 3, 6)), shields=(), routes=())
    >>> draw_chance(state, bytes(32))[1].goods
    (1, 3, 4, 5, 5)
    """
    new = resolve_chance(state, entropy)
    assert state.chance is not None  # resolve_chance raised otherwise
    # Everything an event draws shows in the state after it (read back here, so that
    # resolve_chance, the hot path of simulations, builds no report).
    kind = state.chance.kind
    drew: Draw
    if kind == _ROUND_EVENT:
        removed = next(((d, tile) for d in range(1, 7) for tile, after in
                        zip(state.depots[d], new.depots[d], strict=True) if tile != after),
                       None)  # the solo game's tile that left the game
        drew = RoundDraw(new.phase, new.round, tuple(p.dice for p in new.players),
                         new.white_die, new.phase_goods[new.round], new.order, removed)
    elif kind == _PHASE_EVENT:
        drew = PhaseDraw(new.phase, new.depots, new.phase_goods)
    elif kind == _SETUP_EVENT:
        drew = SetupDraw(new.order[0], tuple(
            tuple(g for g in range(1, 7) for _ in range(p.goods[g])) for p in new.players),
            **dict(setup_drew(new) for setup_drew in _rules(new.config).setup_drew))
    else:
        drew = DealDraw(new.offers)
    return new, drew


# The PHASE and ROUND events of a game's schedule (its set-up takes one event, or two with
# the experts' deal; then each phase takes six), made once: events are values, and making one
# costs more than finding it.
_EVENTS: Final = {
    (event.index, event.kind, event.phase, event.round): event
    for first in (1, 2)
    for phase in range(PHASES)
    for event in (ChanceEvent(first + 6 * phase, ChanceKind.PHASE, phase, 0),
                  *(ChanceEvent(first + 6 * phase + 1 + r, ChanceKind.ROUND, phase, r)
                    for r in range(ROUNDS)))
}


def _event(index: int, kind: ChanceKind, phase: int, round_: int) -> ChanceEvent:
    """``ChanceEvent(index, kind, phase, round_)``, the made one when the schedule has it."""
    return _EVENTS.get((index, kind, phase, round_)) or ChanceEvent(index, kind, phase, round_)


def _deal(state: GameState, draws: Draws) -> None:
    """Each seat's board, in seat order: two different estates from the board sides left in
    the edition's box (``box_sides``: an estate printed once is dealt to one player at
    most), side 0 first."""
    box = list(box_sides(state.config.edition.value))
    offers = []
    for _ in range(state.config.players):
        first = box.pop(draws.below(len(box)))
        others = [i for i, ident in enumerate(box) if ident != first]
        second = box.pop(others[draws.below(len(others))])
        offers.append((first, second))
    state.changed(SetupPart.name).offers = tuple(offers)
    state.boards = tuple(state.config.board(o[0]) for o in offers)  # placeholders until chosen


def _next_chooser(state: GameState, first: int) -> None:
    """Hand the set-up choice to the first seat in turn order from ``first`` that still has
    one; when nobody has, phase A begins (its PHASE chance event)."""
    for turn in range(first, len(state.order)):
        if state.offers[state.order[turn]]:
            state.turn = turn
            state.pending = ((Step.CHOOSE_ESTATE, 0),)
            state.chance = None
            return
    state.turn = 0
    state.pending = ()
    state.chance = ChanceEvent(state.chance_index, ChanceKind.PHASE, 0, 0)


def as_chooser(state: GameState, seat: int) -> GameState:
    """The same set-up state with ``seat`` choosing next. Set-up choices do not depend on one
    another, so this is where a player (or bot) makes a secret choice ahead of its turn; the
    engine still applies the choices in turn order. IllegalAction if ``seat`` has no choice.

    >>> from p2p_burgundy.config import Setup
    >>> state = new_game(GameConfig(players=2, setup=Setup.EXPERTS_SECRET))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> state.to_move, state.offers, as_chooser(state, 1).to_move
    (0, (('2', '1'), ('1', '6')), 1)
    >>> legal_actions(as_chooser(state, 1))[:2]
    [ChooseEstate(side=0, space=1), ChooseEstate(side=0, space=2)]
    """
    if state.chance is not None or state.step != Step.CHOOSE_ESTATE:
        raise IllegalAction(f"seat {seat} cannot choose: no set-up choice is under way")
    offers = state.offers
    if not (type(seat) is int and 0 <= seat < len(offers)) or not offers[seat]:
        raise IllegalAction(f"seat {seat} has no set-up choice left to make")
    new = state.clone()
    new.turn = state.order.index(seat)
    return new


def _setup(state: GameState, draws: Draws) -> None:
    n = state.config.players
    start = draws.below(n)
    pool = list(state.goods_pool)
    players = [p.copy() for p in state.players]
    for p in players:
        goods = [0] * 7
        for _ in range(START_GOODS):
            goods[draws.take(pool)] += 1
        p.goods = tuple(goods)
    track = [(0, 0)] * n
    for i in range(n):
        seat = (start + i) % n  # clockwise from the start player
        players[seat].workers = i + 1
        track[seat] = (0, n - 1 - i)  # the start player's piece on top
    state.players = tuple(players)
    state.track = tuple(track)
    state.track_stamp = n
    state.goods_pool = tuple(pool)
    state.order = bridge_order(state.track)
    for setup in _rules(state.config).setup:  # their draws in registry order
        setup(state, draws)


_RowGetter = Callable[[list[int]], tuple[int, ...]]


def _phase_draws(players: int, phase: int) -> tuple[tuple[int, ...], tuple[_RowGetter, ...]]:
    """What a phase draws for a table of ``players``: the supplies drawn from, in draw order
    (the numbered depots' spaces in depot and slot order, then the black depot's), and for
    each depot a getter of its row from the tiles drawn, ending with EMPTY (a space that the
    phase does not fill, or whose supply ran out, stays EMPTY)."""
    places: list[tuple[int, int, int]] = [
        (d, slot, space_colour(d, slot, players, phase))
        for d in range(1, 7) for slot, _ in depot_spaces(d, players)]
    places += [(0, slot, BLACK) for slot in range(BLACK_DEPOT_TILES[players])]
    index = {(d, slot): i for i, (d, slot, _) in enumerate(places)}
    rows = tuple(
        operator.itemgetter(*(index.get((d, slot), -1) for slot in range(slots)))
        for d, slots in enumerate((BLACK_DEPOT_SLOTS,) + (NUMBERED_DEPOT_SLOTS,) * 6))
    return tuple(colour for _, _, colour in places), rows


_PHASE_DRAWS: Final = {n: tuple(_phase_draws(n, phase) for phase in range(PHASES))
                for n in BLACK_DEPOT_TILES}


def _phase_setup(state: GameState, draws: Draws) -> None:
    box = list(state.box)
    for tile in itertools.chain.from_iterable(state.depots):
        if tile != EMPTY:
            box[tile] += 1  # tiles left on the board leave the game
    state.box = tuple(box)
    supplies = [*map(list, state.supplies)]
    goods = list(state.goods_pool)
    colours, rows = _PHASE_DRAWS[state.config.table_players][state.phase]
    pools = list(map(supplies.__getitem__, colours))
    pools += (goods,) * ROUNDS  # then the phase's goods
    drawn = draws.take_each(pools, EMPTY)
    state.common.phase_goods = tuple(drawn[len(colours):])  # a copy: see resolve_chance
    del drawn[len(colours):]
    drawn.append(EMPTY)  # for the spaces not drawn
    state.depots = tuple([row(drawn) for row in rows])
    state.common.goods_pool = tuple(goods)
    state.common.supplies = tuple(map(tuple, supplies))
    for phase_setup in _rules(state.config).phase_setup:
        phase_setup(state)


def _round_setup(state: GameState, draws: Draws) -> None:
    rolls = draws.dice(2 * len(state.players) + 1)  # two per seat in seat order, then white
    players = []
    seat = 0
    for p in state.players:
        p = p.copy()
        p.dice = (rolls[seat], rolls[seat + 1])
        p.dice_used = 0
        p.bought = False
        players.append(p)
        seat += 2
    state.players = tuple(players)
    common = state.common  # a copy: see resolve_chance
    common.white_die = white = rolls[-1]
    state.order = state.bridge_order()
    state.turn = 0
    goods = [*common.depot_goods]  # [*t], not list(t): a list display makes no call
    depot = [*goods[white]]
    depot[common.phase_goods[state.round]] += 1
    goods[white] = tuple(depot)
    common.depot_goods = tuple(goods)
    for round_setup in (_BOUND[state.config.variant] or _bind(state.config)).round_setup:
        round_setup(state)


# --- Legal actions ---------------------------------------------------------------------------

def legal_actions(state: GameState) -> list[Action]:
    """Every legal decision for ``state.to_move`` (empty while chance is pending or at the end).

    >>> state = new_game(GameConfig(players=2))
    >>> legal_actions(state)
    []
    """
    if state.chance is not None or state.phase >= PHASES:
        return []
    p = state.players[state.order[state.turn]]
    if state.pending:
        step, arg = state.pending[-1]
        if step == _DIE_STEP:  # the commonest decision after the turn's
            return _action_choices(state, p, p.dice[arg], p.workers)
        rules = _BOUND[state.config.variant] or _bind(state.config)  # _rules, inline
    else:
        rules = _BOUND[state.config.variant] or _bind(state.config)
        # A module's idle step comes only after the last round's dice (see EngineModule).
        if (idle := rules.idle_step) is None or p.dice_used != _BOTH_DICE \
                or state.round != _LAST_ROUND or not getattr(state.modules[idle[0]], idle[1]):
            actions: list[Action] = [*_DICE_LEFT[p.dice_used]]
            if not p.bought and (p.silver >= PURCHASE_PRICE or p.knowledge & _K6):
                actions += _purchases(state, p)
            for tiles, more in rules.turn_choices:
                if not tiles or p.knowledge & tiles:  # tiles: the knowledge it needs
                    actions += more(state, p)
            if p.dice_used == _BOTH_DICE:
                actions.append(END_TURN)
            return actions
        step, arg = idle[2], 0
    choices = rules.choices[step]
    return choices(state, p, arg) if choices else []


_DICE_LEFT: Final = ((USE_DIE[0], USE_DIE[1]), (USE_DIE[1],), (USE_DIE[0],), ())  # by dice_used


def _die_choices(state: GameState, p: PlayerState, die: int) -> list[Action]:
    return _action_choices(state, p, p.dice[die], p.workers)


def _free_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """A castle's extra action: the four die actions with any number."""
    return _action_choices(state, p, 0, 0)


def _action_choices(state: GameState, p: PlayerState, value: int, workers: int) -> list[Action]:
    """The four die actions with die ``value`` (0: any number, as a castle's extra action)."""
    k = p.knowledge
    per = 2 if k & _K8 else 1
    w = workers if workers < _MAX_COST else _MAX_COST
    actions: list[Action] = []
    depots = state.depots
    for d in _TARGETS[per][1 if k & _K12 else 0][value][w]:
        row = depots[d]
        takes = _TAKES[d].get(row)
        if takes is None:
            takes = _row_choices(_TAKES[d], TAKE_TILE[d], row)
        actions += takes
    if p.storage:
        actions += _placements(state, p, value, w, per)
    goods = p.goods
    for g in _TARGETS[per][0][value][w]:
        if goods[g]:
            actions.append(SELL_GOODS[g])
    actions.append(TAKE_WORKERS)
    return actions


# Per depot, the TakeTile choices of a row of its tiles, and its Buy choices paid in silver
# or (only) in workers: a depot's row changes only when a tile is taken, and listing its tiles
# anew costs several times a look-up. Bounded: the rows of a few hundred phases.
_TAKES: Final[tuple[dict[tuple[int, ...], tuple[Action, ...]], ...]] = tuple({} for _ in range(7))
_BUYS: Final[tuple[tuple[dict[tuple[int, ...], tuple[Action, ...]], ...], ...]] = tuple(
    tuple({} for _ in range(7)) for _ in Payment)
_BUY_BY_PAY: Final = tuple(tuple(tuple(by_slot[pay] for by_slot in row) for row in BUY)
                    for pay in Payment)
_ROWS_KEPT: Final = 1 << 12


def _row_choices(known: dict[tuple[int, ...], tuple[Action, ...]],
                 by_slot: tuple[Action, ...], row: tuple[int, ...]) -> tuple[Action, ...]:
    """The choices ``by_slot[slot]`` of the slots that ``row`` holds a tile in, remembered in
    ``known``."""
    # A loop, the slot counted: for a handful of slots a generator or comprehension costs twice
    # as much, and enumerate() a fifth more.
    choices: list[Action] = []
    slot = -1
    for tile in row:
        slot += 1
        if tile != EMPTY:
            choices.append(by_slot[slot])
    if len(known) >= _ROWS_KEPT:
        known.clear()
    known[row] = found = tuple(choices)
    return found


def _placements(state: GameState, p: PlayerState, value: int, workers: int,
                per: int) -> list[Action]:
    """PlaceTile choices: die ``value`` (0 = any number) adjusted with up to ``workers``
    (at most ``_MAX_COST``)."""
    actions: list[Action] = []
    seat = state.order[state.turn]
    board = state.boards[seat]
    colour_masks = board.colour_masks
    k = p.knowledge
    rules = _BOUND[state.config.variant] or _bind(state.config)
    anywhere = rules.anywhere
    if anywhere is not None and state.modules[anywhere[0]].held[seat] & anywhere[1]:
        frontier = colour_masks[ANY_COLOUR] & ~p.occupied  # any empty space
    else:
        frontier = p.frontier
    if rules.reach is not None:
        frontier &= rules.reach(board, p.occupied)
    tile_spaces = rules.tile_spaces
    reach = _PLACE_REACH[per][k >> 9 & 7][value][workers]  # by colour
    if board.halves > 1:  # a team board: each half prints the dice of a duchy
        reach = tuple(mask | mask << SPACE_COUNT for mask in reach)
    i = -1  # the storage space: counted, not enumerate()d (cheaper for a few tiles)
    for tile in p.storage:
        i += 1
        colour = TILE_COLOUR[tile]
        mask = frontier & colour_masks[colour] & reach[colour]
        if not mask:
            continue
        if colour == _BEIGE:
            if not k & _K1 and tile in p.estate:
                mask = _without_duplicate_buildings(board, p, tile, mask)
        elif tile_spaces and tile in tile_spaces:  # a module's tile (an empty dict is false)
            mask = tile_spaces[tile][0](board, p, mask)
        if i < _PLACE_ROWS:
            places = _PLACES[i].get(mask)
            if places is None:
                places = _spaces_choices(_PLACES[i], PLACE_TILE[i], mask)
            actions += places
        else:  # shield #4's storage beyond the interned rows
            actions += [PlaceTile(i, space) for space in bits(mask)]
    return actions


_PLACE_ROWS: Final = len(PLACE_TILE)
# Per storage space, the PlaceTile choices of a mask of estate spaces: listing a mask's spaces
# bit by bit costs several times a look-up. Bounded as _TAKES.
_PLACES: Final[tuple[dict[int, tuple[Action, ...]], ...]] = tuple({} for _ in range(_PLACE_ROWS))


def _spaces_choices(known: dict[int, tuple[Action, ...]], by_space: tuple[Action, ...],
                    mask: int) -> tuple[Action, ...]:
    """The choices ``by_space[space]`` of the spaces of ``mask``, lowest first, remembered in
    ``known``."""
    choices: list[Action] = []
    spaces = mask
    while spaces:  # bits(), inline (as _row_choices, a loop)
        low = spaces & -spaces
        choices.append(by_space[low.bit_length() - 1])
        spaces ^= low
    if len(known) >= _ROWS_KEPT:
        known.clear()
    known[mask] = found = tuple(choices)
    return found


def _without_duplicate_buildings(board: Estate, p: PlayerState, tile: int, mask: int) -> int:
    """The spaces of ``mask`` whose city holds no ``tile`` yet (one building of a kind per
    city)."""
    estate = p.estate
    space = -1
    for _ in range(estate.count(tile)):  # a building stands only in a city
        space = estate.index(tile, space + 1)
        mask &= ~board.regions[board.region_of[space]].mask
    return mask


def _purchases(state: GameState, p: PlayerState) -> list[Action]:
    """The purchases open to ``p`` (who has not bought this turn)."""
    silver = p.silver >= PURCHASE_PRICE
    workers = bool(p.knowledge & _K6) and _can_pay_workers(state, p)
    if not (silver or workers):
        return []
    pay = 0 if silver else 1  # Payment.SILVER or WORKERS; both when both is set
    both = silver and workers
    actions: list[Action] = []
    depots = state.depots
    for d in (range(7) if p.knowledge & _K6 else (0,)):
        row = depots[d]
        if both:
            buy = BUY[d]
            for slot, tile in enumerate(row):
                if tile != EMPTY:
                    actions += buy[slot]
            continue
        buys = _BUYS[pay][d].get(row)
        if buys is None:
            buys = _row_choices(_BUYS[pay][d], _BUY_BY_PAY[pay][d], row)
        actions += buys
    for more in (_BOUND[state.config.variant] or _bind(state.config)).purchases:  # _rules
        actions += more(state, silver, workers)
    return actions


def _can_pay_workers(state: GameState, p: PlayerState) -> bool:
    return bool(p.knowledge & _K6 and p.workers >= PURCHASE_PRICE
                and state.config.edition is Edition.E2019)


_DISCARD_OLDER: Final = DISCARD[:STORAGE_SPACES]


def _discard_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The three older tiles (never the one just stored)."""
    return [*_DISCARD_OLDER]


def _ship_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The goods a ship may take; Pass when none lie anywhere any more (the solo game: taken
    by another ship placed since, with an action the player chose to take first)."""
    return [*_goods_choices(state, p)] or [PASS]


_GOODS_BITS: Final = tuple(1 << g for g in range(7))  # a count per goods type -> a mask of types
# _KEPT[new][free]: each way to keep ``free`` of the goods types in mask ``new``, as masks, in
# the order of itertools.combinations over the types ascending.
_KEPT: Final = tuple(
    tuple(tuple(sum(kept) for kept in itertools.combinations([1 << g for g in bits(new)], free))
          for free in range(GOODS_SLOTS + 1))
    for new in range(1 << 7)
)


def _goods_choices(state: GameState, p: PlayerState) -> tuple[TakeGoods, ...]:
    """Which depots' goods a ship takes, and which goods types are kept when slots run out."""
    depot_goods = state.common.depot_goods
    goods = p.goods
    pairs = 1 if p.knowledge & _K5 else 0
    most = (_BOUND[state.config.variant] or _bind(state.config)).goods_types
    # A ship's choices are asked twice, listed and then checked by apply: the last ones are
    # kept with the rows they came from (held here, so identity cannot be a reused id).
    global _LAST_SHIP
    memo = _LAST_SHIP
    if memo[0] is depot_goods and memo[1] is goods and memo[2] == pairs and memo[3] == most:
        return memo[4]
    # Per depot, the goods types lying there as a bit mask (bit g for type g).
    offered = [*map(_GOODS_TYPES.get, depot_goods)]
    if None in offered:  # a row not met yet
        offered = [_goods_types(row) for row in depot_goods]
    held = _goods_types(goods)
    free = most - held.bit_count()
    choices = []
    for depots in _SHIP_DEPOTS[pairs]:
        first, last = offered[depots[0]], offered[depots[-1]]
        if not (first and last):
            continue
        table = TAKE_GOODS[depots]
        types = first | last
        new = types & ~held
        if new.bit_count() <= free:
            choices.append(table[types])
        else:
            old = types & held
            for kept in _KEPT[new][free]:
                choices.append(table[old | kept])
    found = tuple(choices)
    _LAST_SHIP = (depot_goods, goods, pairs, most, found)  # one store: no torn read
    return found


_LAST_SHIP: tuple[tuple[tuple[int, ...], ...], tuple[int, ...], int, int, tuple[TakeGoods, ...]] \
    = ((), (), 0, 0, ())


# A ship's depots: each numbered depot, then (knowledge #5) each with its neighbour.
_SHIP_DEPOTS: Final = (
    tuple((d,) for d in range(1, 7)),
    (*((d,) for d in range(1, 7)), *(tuple(sorted((d, NEIGHBOUR_DEPOT[d]))) for d in range(1, 7))),
)
# The goods types of a row of goods counts (a depot's, a player's), as a bit mask: remembered
# by row, as the depots' takes (summing a row's bits costs several times a look-up).
_GOODS_TYPES: Final[dict[tuple[int, ...], int]] = {}


def _goods_types(row: tuple[int, ...]) -> int:
    types = _GOODS_TYPES.get(row)
    if types is None:
        if len(_GOODS_TYPES) >= _ROWS_KEPT:
            _GOODS_TYPES.clear()
        _GOODS_TYPES[row] = types = sum(itertools.compress(_GOODS_BITS, row))
    return types


def _warehouse_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    return [*(SELL_GOODS[g] for g in range(1, 7) if p.goods[g]), PASS]


def _effect_take_choices(state: GameState, p: PlayerState, step: int) -> list[Action]:
    tiles = _EFFECT_TILES[step]
    actions: list[Action] = []
    depots = state.depots
    for d in range(1, 7):
        row = depots[d]
        if tiles.isdisjoint(row):  # in C: most rows hold none
            continue
        take = TAKE_TILE[d]
        slot = -1  # counted, as in _row_choices
        for tile in row:
            slot += 1
            if tile in tiles:  # never EMPTY
                actions.append(take[slot])
    actions.append(PASS)
    return actions


def _city_hall_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    return [*_placements(state, p, 0, 0, 1), PASS]


def _estate_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    offers = state.offers[state.order[state.turn]]
    return [ChooseEstate(side, space) for side, ident in enumerate(offers)
            for space in state.config.board(ident).castle_choices]


_CHOICES: Final[dict[int, Callable[[GameState, PlayerState, int], list[Action]]]] = {
    Step.DIE: _die_choices,
    Step.FREE_ACTION: _free_choices,
    Step.DISCARD: _discard_choices,
    Step.SHIP: _ship_choices,
    Step.WAREHOUSE: _warehouse_choices,
    Step.CARPENTER: lambda s, p, _: _effect_take_choices(s, p, Step.CARPENTER),
    Step.CHURCH: lambda s, p, _: _effect_take_choices(s, p, Step.CHURCH),
    Step.MARKET: lambda s, p, _: _effect_take_choices(s, p, Step.MARKET),
    Step.CITY_HALL: _city_hall_choices,
    Step.CHOOSE_ESTATE: _estate_choices,
}


# --- Applying actions --------------------------------------------------------------------------

class _Turn:
    """The state being built by one :func:`apply`: a clone whose mover is a fresh copy (``p``,
    changed in place) and whose answered decision has left the pending stack; ``rules`` are
    the game's bound rules (their hooks). Made by :func:`_on_turn` (without an ``__init__``: a
    call fewer on most moves)."""

    __slots__ = ("new", "old", "p", "rules", "seat")

    old: GameState
    new: GameState
    p: PlayerState
    seat: int
    rules: _Rules

    def fail(self, action: Action, why: str) -> IllegalAction:
        return IllegalAction(f"{action!r}: {why}")

    def push(self, step: Step, arg: int = 0) -> None:
        self.new.pending += ((step, arg),)


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action`` by ``state.to_move``; raises IllegalAction (naming the rule)
    if the rules forbid it. ``state`` itself never changes.

    >>> state = new_game(GameConfig(players=2))
    >>> apply(state, END_TURN)
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.IllegalAction: EndTurn(): the game is waiting for chance event 0 (SETUP)
    """
    if state.chance is not None:
        raise IllegalAction(
            f"{action!r}: the game is waiting for chance event {state.chance.index} "
            f"({state.chance.kind.name})"
        )
    if state.phase >= PHASES:
        raise IllegalAction(f"{action!r}: the game is over")
    rules = _BOUND[state.config.variant] or _bind(state.config)  # _rules, inline: a hot path
    if state.pending:
        step, arg = state.pending[-1]
    elif (idle := rules.idle_step) is None or state.round != _LAST_ROUND \
            or not getattr(state.modules[idle[0]], idle[1]):
        step, arg = _TURN_STEP, 0
    else:
        step, arg = idle[2], 0
    try:  # a subscript, not .get(): no method call (a try costs nothing until it catches)
        run = rules.apply[step][type(action)]
    except KeyError:
        raise IllegalAction(f"{action!r}: not a choice now; {rules.expected[step]}") from None
    try:
        return run(state, action, arg)
    except IllegalAction as exc:
        raise IllegalAction(f"{exc} [state {state_hash(state).hex()[:12]}]") from None


_Handler = Callable[[_Turn, Any, int], None]
_Apply = Callable[[GameState, Any, int], GameState]


def _on_turn(handler: _Handler, after: Callable[[_Turn], None] | None, rules: _Rules) -> _Apply:
    """Apply ``handler``, which changes a :class:`_Turn`, then ``after`` (the modules'
    ``after_action``), if any."""

    def run(state: GameState, action: Action, arg: int) -> GameState:
        turn = _Turn()
        turn.rules = rules
        turn.old = state
        turn.new = new = state.clone()
        turn.seat = seat = state.order[state.turn]
        players = [*state.players]
        turn.p = players[seat] = players[seat].copy()
        new.players = tuple(players)
        if state.pending:
            new.pending = state.pending[:-1]
        handler(turn, action, arg)
        if after is not None:
            after(turn)
        return turn.new

    return run


_EXPECTED: Final[dict[int, str]] = {
    Step.TURN: "use a die, buy a tile or end the turn",
    Step.DIE: "take a tile, place a tile, sell goods or take workers with the chosen die",
    Step.FREE_ACTION: "the castle's extra action: take, place, sell or take workers",
    Step.DISCARD: "storage is full: discard one of the three older tiles",
    Step.SHIP: "the ship takes goods: choose the depot (or pass if none lie anywhere)",
    Step.WAREHOUSE: "the warehouse may sell one goods type (or pass)",
    Step.CARPENTER: "the carpenter's workshop may take a building from a numbered depot (or pass)",
    Step.CHURCH: "the church may take a mine, castle or knowledge tile (or pass)",
    Step.MARKET: "the market may take a ship or animal tile (or pass)",
    Step.CITY_HALL: "the city hall may place one more tile (or pass)",
    Step.CHOOSE_ESTATE: "set-up: choose your board's side and your start castle's space",
}


def _use_die(state: GameState, action: UseDie, _: int) -> GameState:
    # The commonest decision: it only marks the die used and opens its step, so it is made
    # without a _Turn.
    die = action.die
    if type(die) is not int or die not in (0, 1):  # no floats, no bools
        raise IllegalAction(f"{action!r}: die must be 0 or 1")
    seat = state.order[state.turn]
    p = state.players[seat]
    if p.dice_used >> die & 1:
        raise IllegalAction(f"{action!r}: die {die} ({p.dice[die]}) is already used")
    p = p.copy()
    p.dice_used |= 1 << die
    new = state.clone()
    players = state.players
    mover = [*players]
    mover[seat] = p
    new.players = tuple(mover)
    new.pending = _DIE_PENDING[die]
    return new


_DIE_PENDING: Final = (((Step.DIE, 0),), ((Step.DIE, 1),))  # the pending stack once a die is chosen


def _end_turn(state: GameState, action: EndTurn, _: int) -> GameState:
    p = state.players[state.order[state.turn]]
    if p.dice_used != _BOTH_DICE:
        # A turn is exactly two actions, one per die (taking workers is always possible).
        unused = " and ".join(str(p.dice[i]) for i in (0, 1) if not p.dice_used >> i & 1)
        raise IllegalAction(f"{action!r}: use your {unused} first: a turn is one action per die")
    new = state.clone()  # the mover is unchanged; the round or phase may end below
    rules = _BOUND[state.config.variant] or _bind(state.config)  # _rules, inline: a hot path
    for turn_ended in rules.turn_ended:
        turn_ended(new)
    new.turn += 1
    if new.turn < len(new.order):
        return new
    if new.round + 1 < ROUNDS:
        new.round += 1
        new.chance = _event(new.common.chance_index, _ROUND_EVENT, new.phase, new.round)
        return new
    if rules.phase_end is None or not rules.phase_end(new):
        finish_phase(new)
    return new


def finish_phase(state: GameState) -> None:
    """The phase is over (a module's turns of the phase end, if any, are played): mines pay
    (workers too with knowledge #2); the next phase, or final scoring."""
    players: list[PlayerState] = []
    boards = state.boards
    for p in state.players:
        p = p.copy()
        mines = mine_count(boards[len(players)], p)
        p.silver += mines
        if p.knowledge & _K2:
            p.workers += mines
        players.append(p)
    rules = _rules(state.config)
    for phase_income in rules.phase_income:
        phase_income(state, players)
    state.players = tuple(players)
    if state.phase + 1 < PHASES:
        state.phase += 1
        state.round = 0
        state.chance = _event(state.chance_index, _PHASE_EVENT, state.phase, 0)
        return
    state.phase = PHASES
    if not rules.final_scoring:
        return
    for seat in rules.end_scorers(state.config) if rules.end_scorers else range(len(players)):
        p = players[seat]
        for category, points in end_game_points(p, state.config.edition).items():
            p.add_vp(category, points)
        for final_points in rules.final_points:
            final_points(state, seat, p)


def mine_count(board: Estate, p: PlayerState) -> int:
    """The mines on ``p``'s estate. A mine lies only on a grey space (colours match), so only
    the grey spaces built on are looked at: a few, where estate.count() compares all 37."""
    estate = p.estate
    mines = 0
    grey = p.occupied & board.colour_masks[_GREY]
    while grey:
        low = grey & -grey
        if estate[low.bit_length() - 1] == _MINE:
            mines += 1
        grey ^= low
    return mines


def _buy(turn: _Turn, action: Buy, _: int) -> None:
    p = turn.p
    if p.bought:
        raise turn.fail(action, "you already bought a tile this turn")
    if action.depot != 0 and not p.knowledge & _K6:
        raise turn.fail(action, "only the black depot (0) sells tiles without knowledge #6")
    if not (isinstance(action.depot, int) and 0 <= action.depot <= 6):
        raise turn.fail(action, "depot must be 0 (black) or 1..6")
    _check_slot(turn, action, action.depot, action.slot)
    pay_purchase(turn, action)
    _store(turn, _take_from_depot(turn.new, action.depot, action.slot))


def pay_purchase(turn: _Turn, action: Buy) -> None:
    """Pay for a purchase, in silverlings or (knowledge #6, 2019) workers."""
    p = turn.p
    if action.payment == _SILVER:
        if p.silver < PURCHASE_PRICE:
            raise turn.fail(action, f"a purchase costs 2 silverlings; you have {p.silver}")
        p.silver -= PURCHASE_PRICE
    elif action.payment == _WORKERS:
        if not _can_pay_workers(turn.old, p):
            raise turn.fail(action, "paying with 2 workers needs knowledge #6 (2019 edition) "
                                    f"and 2 workers; you have {p.workers}")
        p.workers -= PURCHASE_PRICE
    else:
        raise turn.fail(action, "unknown payment")
    p.bought = True


def _check_slot(turn: _Turn, action: Action, depot: int, slot: int) -> None:
    """A tile lies in ``slot`` of ``depot`` (a depot 0..6, which the caller checked: each
    allows its own depots)."""
    tiles = turn.old.depots[depot]
    if not (isinstance(slot, int) and 0 <= slot < len(tiles)) or tiles[slot] == EMPTY:
        raise turn.fail(action, f"depot {depot} has no tile in slot {slot}")


def _take_from_depot(state: GameState, depot: int, slot: int) -> int:
    """Remove and return the tile in ``slot`` of ``depot`` (a state being built)."""
    depots = [*state.depots]
    row = [*depots[depot]]
    tile = row[slot]
    row[slot] = EMPTY
    depots[depot] = tuple(row)
    state.depots = tuple(depots)
    return tile


def _store(turn: _Turn, tile: int) -> None:
    if turn.rules.store is not None:
        turn.rules.store(turn, tile)
        return
    p = turn.p
    p.storage = storage = p.storage + (tile,)  # noqa: RUF005 (cheaper than unpacking)
    if len(storage) > STORAGE_SPACES:
        unlimited = turn.rules.unlimited_storage
        if unlimited is None or not turn.new.modules[unlimited[0]].held[turn.seat] & unlimited[1]:
            turn.push(_DISCARD_STEP)


def _gain_workers(turn: _Turn, workers: int) -> None:
    """The mover gains workers (and the modules hear of it: shield #2's holder gains too)."""
    turn.p.workers += workers
    for workers_gained in turn.rules.workers_gained:
        workers_gained(turn)


def _pay_workers(turn: _Turn, action: Action, value: int, target: int, free: int) -> None:
    """Pay the fewest workers that turn ``value``, the number an action uses (0: any number,
    as a castle's extra action), into ``target``."""
    if not value:
        return
    p = turn.p
    cost = COST[2 if p.knowledge & _K8 else 1][free][value][target]
    if cost > p.workers:
        raise turn.fail(action, f"turning your {value} into a {target} takes {cost} "
                                f"worker{'s' if cost != 1 else ''}; you have {p.workers}")
    p.workers -= cost


_Number = Callable[[GameState, PlayerState, int], int]


def _make_action_handler(number: _Number | None) -> dict[type[Action], _Handler]:
    """Handlers for the four die actions with the number ``number(state, player, arg)`` of a
    step (0: any number; None: the chosen die, ``arg``, written out: the hot path); workers
    change it."""

    def take(turn: _Turn, action: TakeTile, arg: int) -> None:
        depot, slot = action.depot, action.slot
        if not (isinstance(depot, int) and 1 <= depot <= 6):
            raise turn.fail(action, "a die takes from numbered depots 1..6 only")
        _check_slot(turn, action, depot, slot)
        value = turn.p.dice[arg] if number is None else number(turn.old, turn.p, arg)
        _pay_workers(turn, action, value, depot, 1 if turn.p.knowledge & _K12 else 0)
        _store(turn, _take_from_depot(turn.new, depot, slot))

    def place(turn: _Turn, action: PlaceTile, arg: int) -> None:
        tile = _check_placement(turn, action)
        board = turn.old.boards[turn.seat]
        free = 1 if turn.p.knowledge & _FREE_PLACE_BIT[TILE_COLOUR[tile]] else 0
        value = turn.p.dice[arg] if number is None else number(turn.old, turn.p, arg)
        _pay_workers(turn, action, value, board.dice[action.space], free)
        _place(turn, action.storage, action.space)

    def sell(turn: _Turn, action: SellGoods, arg: int) -> None:
        _check_goods(turn, action)
        value = turn.p.dice[arg] if number is None else number(turn.old, turn.p, arg)
        _pay_workers(turn, action, value, action.goods, 0)
        _sell(turn, action.goods)

    def workers(turn: _Turn, action: TakeWorkers, arg: int) -> None:
        p = turn.p
        _gain_workers(turn, 2 * WORKERS_TAKEN if p.knowledge & _K14 else WORKERS_TAKEN)
        if p.knowledge & _K13:
            p.silver += 1

    return {TakeTile: take, PlaceTile: place, SellGoods: sell, TakeWorkers: workers}


def _check_goods(turn: _Turn, action: SellGoods | PayGoods) -> None:
    if not (isinstance(action.goods, int) and 1 <= action.goods <= 6):
        raise turn.fail(action, "goods types are 1..6")
    if not turn.p.goods[action.goods]:
        raise turn.fail(action, f"you have no goods of type {action.goods} to sell")


def _check_placement(turn: _Turn, action: PlaceTile) -> int:
    """Colour, adjacency and the one-building-per-city rule; returns the tile."""
    p = turn.p
    if not (isinstance(action.storage, int) and 0 <= action.storage < len(p.storage)):
        raise turn.fail(action, f"storage space {action.storage} is empty")
    board = turn.old.boards[turn.seat]
    if not (isinstance(action.space, int) and 0 <= action.space < len(board.colours)):
        raise turn.fail(action, f"estate spaces are 0..{len(board.colours) - 1}")
    tile = p.storage[action.storage]
    space = action.space
    if p.occupied >> space & 1:
        raise turn.fail(action, f"space {board.label(space)} is already covered")
    colour = TILE_COLOUR[tile]
    if colour != board.colours[space] and colour != ANY_COLOUR:
        raise turn.fail(action, f"a {Colour(colour).name.lower()} tile ({tile_name(tile)}) "
                                f"cannot go on {board.label(space)}: colours must match")
    rules = turn.rules
    anywhere = rules.anywhere
    if not p.frontier >> space & 1 and (
            anywhere is None or not turn.old.modules[anywhere[0]].held[turn.seat] & anywhere[1]):
        raise turn.fail(action, f"space {board.label(space)} is not next to a placed tile")
    if rules.reach is not None and not rules.reach(board, p.occupied) >> space & 1:
        raise turn.fail(action, f"space {board.label(space)} {rules.unreachable}")
    if colour == _BEIGE and not p.knowledge & _K1 \
            and not _without_duplicate_buildings(board, p, tile, 1 << space):
        raise turn.fail(action, f"that city already has a {tile_name(tile)} "
                                "(knowledge #1 lifts this)")
    if rules.tile_spaces and tile in rules.tile_spaces:
        spaces, why = rules.tile_spaces[tile]
        if not spaces(board, p, 1 << space):
            raise turn.fail(action, f"the area of {board.label(space)} {why}")
    return tile


def _place(turn: _Turn, storage: int, space: int) -> None:
    """Put a stored tile on the estate, score what it completes and trigger its effect."""
    p = turn.p
    new = turn.new
    board = new.boards[turn.seat]
    tile = p.storage[storage]
    before = p.occupied
    rest = [*p.storage]
    del rest[storage]  # cheaper than joining two slices
    p.storage = tuple(rest)
    estate = [*p.estate]
    estate[space] = tile
    p.estate = tuple(estate)
    p.occupied = occupied = before | 1 << space
    empty = ~occupied  # once: the masks are two-digit ints, each operation a new one
    p.frontier = (p.frontier | board.neighbours[space]) & empty
    colour = TILE_COLOUR[tile]
    region = board.regions[board.region_of[space]]
    rules = turn.rules
    if colour == _LIGHT_GREEN:
        p.add_vp(_ANIMALS, animal_points(p, tile, region.mask))
    elif colour == ANY_COLOUR:  # an inn (or a face-down tile) takes the colour of its space
        colour = board.colours[space]
    if not region.mask & empty:
        size = region.size if rules.area_size is None else rules.area_size(board, p, space)
        p.add_vp(_REGIONS, REGION_VP[size])
        p.add_vp(_PHASE_BONUSES, PHASE_BONUS[new.phase])
    if not board.colour_masks[colour] & empty:
        _claim_colour_bonus(turn, colour)
    for tile_placed in rules.tile_placed:
        tile_placed(turn, tile, space, before)
    if tile < FACE_DOWN:  # a face-down tile only fills its space
        tile_effect(turn, tile)


def animal_points(p: PlayerState, tile: int, pasture: int) -> int:
    """What an animal tile placed in ``pasture`` (a mask of spaces) scores: its animals, plus
    every same-type tile already in the pasture again (each tile +1 with knowledge #7); geese
    in the pasture score 2 more. The geese themselves score 2 plus the type of animal that
    scores most in their pasture."""
    extra = 1 if p.knowledge & _K7 else 0
    kind = ANIMAL_TYPE[tile]
    if kind == Animal.GOOSE:
        by_kind = [0] * Animal.GOOSE
        for s in bits(pasture & p.occupied):
            t = p.estate[s]
            if t != tile and ANIMAL_COUNT[t]:  # not a face-down tile
                by_kind[ANIMAL_TYPE[t]] += ANIMAL_COUNT[t] + extra
        return GEESE_VP + extra + max(by_kind)
    points = 0
    for s in bits(pasture & p.occupied):
        t = p.estate[s]
        if ANIMAL_TYPE[t] == kind:
            points += ANIMAL_COUNT[t] + extra
        elif t == _GEESE:
            points += GEESE_VP + extra
    return points


def _claim_colour_bonus(turn: _Turn, colour: int) -> None:
    taken = turn.new.bonus_taken[colour]
    if taken >= 2:
        return
    rank = taken + 1
    bonus = [*turn.new.bonus_taken]
    bonus[colour] = rank
    turn.new.bonus_taken = tuple(bonus)
    mine = [*turn.p.bonuses]
    mine[colour] = rank
    turn.p.bonuses = tuple(mine)
    reward = turn.rules.colour_bonus
    if reward is not None:  # instead of the VP
        reward(turn)
        return
    points = COLOUR_BONUS_VP[(turn.new.config.players, rank)]
    turn.p.add_vp(_COLOUR_BONUSES, points)
    for colour_bonus_scored in turn.rules.colour_bonus_scored:
        colour_bonus_scored(turn, points)


def tile_effect(turn: _Turn, tile: int) -> None:
    """The effect of a tile placed (or of a building the crane copies): a module's
    ``tile_effect`` first, which may do it instead."""
    p = turn.p
    effects = turn.rules.tile_effects
    if effects:  # a module's effect of this tile, if any (an empty dict is false)
        for module_effect in effects.get(tile, ()):
            if module_effect(turn, tile):
                return
    colour = TILE_COLOUR[tile]
    if colour == _BLUE:
        _advance_on_track(turn)
        if any(map(any, turn.new.depot_goods)):
            turn.push(_SHIP_STEP)  # a module's after_ship comes with the ship's goods
        else:
            for after_ship in turn.rules.after_ship:
                after_ship(turn)
    elif colour == _DARK_GREEN:
        turn.push(_FREE_STEP)
    elif colour == _YELLOW:
        number = KNOWLEDGE_NUMBER[tile]
        p.knowledge |= 1 << number
        for knowledge_placed in turn.rules.knowledge_placed:
            knowledge_placed(turn, number)
    elif colour == _BEIGE:
        step = _BUILDING_STEP.get(tile)
        if step is not None:
            # An advantage that cannot be used is lost (only "pass" would be left).
            if len(_CHOICES[step](turn.new, p, step)) > 1:
                turn.push(step)
        elif tile == _BOARDING_HOUSE:
            _gain_workers(turn, BOARDING_HOUSE_WORKERS)
        elif tile == _BANK:
            p.silver += BANK_SILVER
        elif tile == _WATCHTOWER:
            p.add_vp(_WATCHTOWERS, WATCHTOWER_VP)


def _advance_on_track(turn: _Turn) -> None:
    new = turn.new
    common = new.common = new.common.copy()  # the track and its stamp
    track = [*common.track]
    space = min(track[turn.seat][0] + 1, TRACK_STEPS - 1)
    track[turn.seat] = (space, common.track_stamp)  # on top of any stack there
    common.track = tuple(track)
    common.track_stamp += 1


def _sell(turn: _Turn, goods: int) -> None:
    p = turn.p
    count = p.goods[goods]
    held = [*p.goods]
    held[goods] = 0
    p.goods = tuple(held)
    sold = [*p.sold]
    sold[goods] += count
    p.sold = tuple(sold)
    p.silver += 2 if p.knowledge & _K3 else 1
    if p.knowledge & _K4:
        _gain_workers(turn, 1)
    p.add_vp(_SALES, SALE_VP[turn.new.config.table_players] * count)
    for goods_sold in turn.rules.goods_sold:
        goods_sold(turn, goods, count)


def _discard(turn: _Turn, action: Discard, _: int) -> None:
    if not (isinstance(action.storage, int) and 0 <= action.storage < STORAGE_SPACES):
        raise turn.fail(action, "discard one of the three older tiles (storage 0..2), "
                                "never the new one")
    discard(turn, action.storage)


def discard(turn: _Turn, storage: int) -> None:
    """The tile in ``storage`` leaves the game."""
    p = turn.p
    tile = p.storage[storage]
    rest = [*p.storage]
    del rest[storage]  # as in _place
    p.storage = tuple(rest)
    box = [*turn.new.box]
    box[tile % FACE_DOWN] += 1  # a face-down tile leaves the game as the tile it is
    turn.new.box = tuple(box)


def _take_goods(turn: _Turn, action: TakeGoods, _: int) -> None:
    choices = _goods_choices(turn.old, turn.p)
    # The choices are interned: the action itself first (`in` calls a dataclass's __eq__, a
    # Python call, for each choice before an equal one).
    if id(action) not in map(id, choices) and action not in choices:
        raise turn.fail(action, _goods_reason(turn, action))
    goods = [*turn.new.depot_goods]
    held = [*turn.p.goods]
    for d in action.depots:
        row = [*goods[d]]
        for g in action.keep:
            held[g] += row[g]
            row[g] = 0
        goods[d] = tuple(row)  # goods not kept stay on the depot
    turn.new.depot_goods = tuple(goods)
    turn.p.goods = tuple(held)
    for after_ship in turn.rules.after_ship:
        after_ship(turn)


def _ship_takes_nothing(turn: _Turn, action: Pass, _: int) -> None:
    if _goods_choices(turn.old, turn.p):
        raise turn.fail(action, "goods lie on the depots: the ship takes goods")
    for after_ship in turn.rules.after_ship:
        after_ship(turn)


def _push_under_discard(turn: _Turn, step: Step, arg: int = 0) -> None:
    """Push ``step``, but under a discard of an overflowing storage (that comes first)."""
    pending = turn.new.pending
    if pending and pending[-1][0] == Step.DISCARD:
        turn.new.pending = (*pending[:-1], (step, arg), pending[-1])
    else:
        turn.push(step, arg)


def _goods_reason(turn: _Turn, action: TakeGoods) -> str:
    depots = action.depots
    if not (isinstance(depots, tuple) and isinstance(action.keep, tuple)):
        return "depots and keep must be tuples of numbers"
    if not all(isinstance(d, int) and 1 <= d <= 6 for d in depots) or not 1 <= len(depots) <= 2:
        return "a ship takes goods from one numbered depot (two neighbours with knowledge #5)"
    if len(depots) == 2:
        if not turn.p.knowledge & _K5:
            return "taking from two depots needs knowledge #5"
        if depots[1] != NEIGHBOUR_DEPOT[depots[0]] and depots[0] != NEIGHBOUR_DEPOT[depots[1]]:
            return f"depots {depots[0]} and {depots[1]} are not neighbours"
    if not any(any(turn.old.depot_goods[d]) for d in depots):
        return "no goods lie there"
    keeps = [c.keep for c in _goods_choices(turn.old, turn.p) if c.depots == depots]
    return ("keep every goods type you can store (at most three types at once); "
            f"choose from {keeps}")


def _effect_take(turn: _Turn, action: TakeTile, arg: int) -> None:
    step = Step(turn.old.pending[-1][0])
    colours = _EFFECT_COLOURS[step]
    if not (isinstance(action.depot, int) and 1 <= action.depot <= 6):
        raise turn.fail(action, "only numbered depots 1..6 (not the black depot)")
    _check_slot(turn, action, action.depot, action.slot)
    tile = turn.old.depots[action.depot][action.slot]
    if TILE_COLOUR[tile] not in colours:
        allowed = " or ".join(sorted(Colour(c).name.lower() for c in colours))
        raise turn.fail(action, f"this building takes {allowed} tiles, not "
                                f"{Tile(tile).name.lower()}")
    _store(turn, _take_from_depot(turn.new, action.depot, action.slot))


def _warehouse_sell(turn: _Turn, action: SellGoods, _: int) -> None:
    _check_goods(turn, action)
    _sell(turn, action.goods)


def _city_hall_place(turn: _Turn, action: PlaceTile, _: int) -> None:
    _check_placement(turn, action)
    _place(turn, action.storage, action.space)


def _pass(turn: _Turn, action: Pass, _: int) -> None:
    """Decline an optional building advantage."""


def _choose_estate(turn: _Turn, action: ChooseEstate, _: int) -> None:
    offers = turn.old.offers[turn.seat]
    sides = " or ".join(f"{i} (estate {e})" for i, e in enumerate(offers))
    if not (type(action.side) is int and 0 <= action.side < len(offers)):
        raise turn.fail(action, f"side must be {sides}")
    board = turn.old.config.board(offers[action.side])
    space = action.space
    allowed = board.castle_choices
    if not (type(space) is int and space in allowed):
        where = board.label(space) if type(space) is int and space in board.spaces else space
        spaces = ", ".join(f"{s} ({board.label(s)})" for s in allowed)
        raise turn.fail(action, f"the start castle goes on a dark green space of estate "
                                f"{board.id}: {spaces}; not {where}")
    p = turn.p
    p.estate = _start_estate(turn.seat, board, space)
    p.occupied = 1 << space
    p.frontier = board.neighbours[space]
    new = turn.new
    boards = list(new.boards)
    boards[turn.seat] = board
    new.boards = tuple(boards)
    chosen = list(new.offers)
    chosen[turn.seat] = ()
    new.changed(SetupPart.name).offers = tuple(chosen)
    _next_chooser(new, turn.old.turn + 1)


_HANDLERS: Final[dict[tuple[int, type[Action]], _Handler]] = {
    (Step.TURN, Buy): _buy,
    (Step.DISCARD, Discard): _discard,
    (Step.SHIP, TakeGoods): _take_goods,
    (Step.SHIP, Pass): _ship_takes_nothing,
    (Step.WAREHOUSE, SellGoods): _warehouse_sell,
    (Step.WAREHOUSE, Pass): _pass,
    (Step.CITY_HALL, PlaceTile): _city_hall_place,
    (Step.CITY_HALL, Pass): _pass,
    (Step.CHOOSE_ESTATE, ChooseEstate): _choose_estate,
}


def _any_number(state: GameState, p: PlayerState, arg: int) -> int:
    """A castle's extra action: any number, so no worker is needed."""
    return 0


for _step, _number in ((Step.DIE, None), (Step.FREE_ACTION, _any_number)):
    for _cls, _handler in _make_action_handler(_number).items():
        _HANDLERS[(_step, _cls)] = _handler
for _step in (Step.CARPENTER, Step.CHURCH, Step.MARKET):
    _HANDLERS[(_step, TakeTile)] = _effect_take
    _HANDLERS[(_step, Pass)] = _pass


# --- Engine modules and the rules of each variant ----------------------------------------------

_Choices = Callable[[GameState, PlayerState, int], list[Action]]
_Spaces = Callable[[Estate, PlayerState, int], int]


@dataclass(frozen=True)
class StepWords:
    """A step a module adds, and the words a client shows for it (the base game's steps are
    the client's own).

    ``asks`` is what the step asks, as an illegal action's error says it (and a client's
    prompt when ``prompt`` is empty). The others are a client's, each a format string of the
    step's fields: ``arg`` (its argument), ``white_die``, and what ``fields(state)`` adds (a
    field ``tile`` is a tile: ``{tile}`` its code and name, ``{tile:code}`` its code).
    ``prompt`` is the menu's question, ``brief`` the same in fewer words for a narrow pane;
    ``name`` the advantage as the log names it ("Ann let the crane go unused"), ``actor``
    what acts in it ("Ann's crane worked as a church"; default: ``name``), ``pending`` how a
    choice of which step comes first names it (default: "the " and ``name``); ``how`` ends
    the sentence of a tile taken or placed, goods sold or workers taken in it; ``passing``
    labels its ``Pass``, and ``passed`` says in the log what passing did, after the
    player's name (default: "let the ``name`` go unused"); ``reminder`` is its rule in a
    line of the help page.
    ``holds_taken_tile``: the tile just taken waits, off the storage, for this step to say
    where it goes.
    """

    step: Step
    asks: str
    prompt: str = ""
    brief: str = ""
    fields: Callable[[GameState], dict[str, int]] | None = None
    name: str = ""
    actor: str = ""
    pending: str = ""
    how: str = ""
    passing: str = "pass (use nothing)"
    passed: str = ""
    reminder: str = ""
    holds_taken_tile: bool = False


@dataclass(frozen=True)
class EngineModule:
    """The solo game or an expansion module, as what it adds to the base game's rules: python-
    chess's variants are the model (a class per variant plugging into the board's hooks).

    ``plays(config)`` says whether a game of that config plays the module; ``summary`` says
    what it adds in a line of a table's set-up (a module a config switches on). ``steps`` are
    the steps it adds, each with what it asks of the player and the words a client shows for
    it (:class:`StepWords`), and ``actions`` the words for its own action types
    (:class:`~p2p_burgundy.words.ActionWords`), ``depots`` the places to buy from it adds
    beside the depots (:class:`~p2p_burgundy.words.DepotWords`: the inns'); ``choices`` and
    ``handlers`` are its rows in
    the dispatch tables of :func:`legal_actions` and :func:`apply` (a handler changes the
    ``_Turn`` being built, as the base game's do); ``after_action`` runs after every action a
    handler applies (not after a die chosen or a turn ended, which build their states
    directly).
    A mode of play no ``--with`` turns on may have a command-line switch of its own
    (``switch``: :class:`~p2p_burgundy.config.Switch`, the team game's ``--teams``).
    ``notes(config)``: what a game's log says first (the team game: its board's caveat);
    ``step_reminders``: the rule of a base game's step where the module changes it, in a line
    of the help page (the solo game's ship); ``result(state)``: how a finished game it decides
    its own way ended, in a sentence (the solo game); ``sides(config, outcome)``: the sides of
    a game it plays by sides (the team game's teams), the leading side first, which a result
    line names with their points.
    A mode of play says what it changes for a client's help page (``help_page``, lines of
    at most 72 columns: the team game) and, where it scores its own way, the rule of the end
    (``scores_reminder``, a line of the help page on the final scores).
    ``tiles`` and ``categories`` are the tiles and scoring categories it brings (each
    category with its name on a score sheet), and
    ``crane_buildings`` those of its buildings whose effect the crane may trigger; ``part`` its
    part of the game state (a :class:`~p2p_burgundy.state.ModulePart`), and ``visible(state)``
    and ``seat_visible(state, seat)`` what a program sees of it (of the game, of a seat), as
    JSON values by name (docs/bots.md, "The visible state"). A module
    may replace a base game's row (the shields' DISCARD and FREE_ACTION rows call the base
    game's and add their own; the inns' Buy).

    The hooks change what the base game's own steps do, each where the base game calls it.
    Set-up and the rounds: ``setup`` in the set-up (its draws after the base game's, in registry
    order), ``setup_drew(state)`` what it drew there, as a field of
    :class:`~p2p_burgundy.chance.SetupDraw` and its value, and ``drawn`` that field's words
    (:class:`~p2p_burgundy.words.DrawWords`); ``phase_setup`` after a phase's
    draws, ``round_setup`` after a round's dice and goods. The turn: ``turn_choices(state,
    player)`` more choices of the TURN step (before EndTurn), called on every TURN decision
    unless ``turn_choices_knowledge`` names knowledge tiles (bit n: tile #n) without which it
    offers nothing: then only for a player holding one of them (no call on the others'
    decisions); ``purchases(state, silver, workers)`` more purchases after the depots' (the
    inns'), called only when the player may buy and can pay in silverlings or (``workers``)
    in workers; ``idle_step``: (part, field, step) the step a player faces with nothing
    pending while that field of the module's part is not empty: a turn after the phase's last
    round, every die used (TURN otherwise: the shields' turn of the phase end; a test written
    out, no call, and tested only in the last round);
    ``turn_ended(state)`` on the state after EndTurn; ``won(player)`` ends the game at the end
    of a turn. The phase end: ``phase_end(state)`` when the last round is over, True if the
    module gives turns of the phase end (it then calls :func:`finish_phase` after the last);
    ``phase_income(state, players)`` after the mines paid (the players are fresh copies);
    ``final_scoring`` False for no end-game scoring, ``final_points(state, seat, player)`` after
    the base game's. Placing: ``anywhere``, bits of what a seat holds of the module (its part's
    ``held``: per seat a bit set) with any of which the seat places a tile on any empty space,
    not only one next to a tile (data, tested inline: no call); ``reach(board, occupied)`` the
    spaces a tile may go on at all (besides colour and adjacency), and ``unreachable`` why
    another space is refused (after its label); ``tile_spaces``: (tile, spaces(board, player,
    mask), why) for a tile of its own that goes on fewer spaces (why: after "the area of
    <space>"); ``area_size(board, player, space)`` the size a completed area scores as;
    ``tile_placed(turn, tile, space, occupied_before)`` after a tile scored its area and
    colour, before its effect;
    ``colour_bonus`` (a colour completed, or all border posts joined) instead of its VP;
    ``colour_bonus_scored(turn, points)`` after its VP; ``tile_effects``: (tile, effect(turn,
    tile)) before that tile's effect, True if it did the effect instead. Goods and workers:
    ``goods_types`` how many goods types a player may hold; ``unlimited_storage``, bits of
    ``held`` (as ``anywhere``) with any of which a seat stores more than three tiles;
    ``after_ship`` once a ship's goods are taken
    (or none lay anywhere); ``knowledge_placed`` after a knowledge tile's number is recorded;
    ``goods_sold(turn, goods, count)`` after a sale is scored; ``workers_gained(turn)`` after
    the mover gains workers; ``store(turn, tile)`` instead of putting a tile taken into the
    mover's storage. The final scoring: ``end_scorers(config)`` the seats it scores (instead
    of every seat). A hook that replaces a rule (``idle_step``, ``phase_end``, ``anywhere``,
    ``reach``, ``area_size``, ``unlimited_storage``, ``won``, ``colour_bonus``, ``store``,
    ``end_scorers``) comes from one module of a game at most; the others run in registry
    order.

    Every module is listed once, in :data:`p2p_burgundy.variants.ENGINE_MODULES`, where the
    client and the bots learn what each adds.
    """

    name: str
    description: str
    plays: Callable[[GameConfig], bool]
    summary: str = ""
    steps: tuple[StepWords, ...] = ()
    actions: tuple[ActionWords, ...] = ()
    depots: tuple[DepotWords, ...] = ()
    help_page: tuple[str, ...] = ()
    step_reminders: tuple[tuple[Step, str], ...] = ()
    result: Callable[[GameState], str] | None = None
    sides: Callable[[GameConfig, Outcome], tuple[Side, ...]] | None = None
    notes: Callable[[GameConfig], list[str]] | None = None
    switch: Switch | None = None
    scores_reminder: str = ""
    choices: tuple[tuple[Step, _Choices], ...] = ()
    handlers: tuple[tuple[Step, type[Action], _Handler], ...] = ()
    after_action: Callable[[_Turn], None] | None = None
    tiles: tuple[int, ...] = ()
    categories: tuple[tuple[Category, str], ...] = ()
    crane_buildings: tuple[int, ...] = ()
    part: type[ModulePart] | None = None
    visible: Callable[[GameState], dict[str, object]] | None = None
    seat_visible: Callable[[GameState, int], dict[str, object]] | None = None
    setup: Callable[[GameState, Draws], None] | None = None
    setup_drew: Callable[[GameState], tuple[str, Any]] | None = None
    drawn: DrawWords | None = None
    phase_setup: Callable[[GameState], None] | None = None
    round_setup: Callable[[GameState], None] | None = None
    turn_choices: Callable[[GameState, PlayerState], list[Action]] | None = None
    turn_choices_knowledge: int = 0
    purchases: Callable[[GameState, bool, bool], tuple[Action, ...]] | None = None
    idle_step: tuple[str, str, Step] | None = None
    turn_ended: Callable[[GameState], None] | None = None
    won: Callable[[PlayerState], bool] | None = None
    phase_end: Callable[[GameState], bool] | None = None
    phase_income: Callable[[GameState, list[PlayerState]], None] | None = None
    final_scoring: bool = True
    final_points: Callable[[GameState, int, PlayerState], None] | None = None
    anywhere: int = 0
    reach: Callable[[Estate, int], int] | None = None
    unreachable: str = ""
    tile_spaces: tuple[tuple[int, _Spaces, str], ...] = ()
    area_size: Callable[[Estate, PlayerState, int], int] | None = None
    tile_placed: Callable[[_Turn, int, int, int], None] | None = None
    colour_bonus: Callable[[_Turn], None] | None = None
    colour_bonus_scored: Callable[[_Turn, int], None] | None = None
    tile_effects: tuple[tuple[int, Callable[[_Turn, int], bool]], ...] = ()
    goods_types: int = GOODS_SLOTS
    unlimited_storage: int = 0
    after_ship: Callable[[_Turn], None] | None = None
    knowledge_placed: Callable[[_Turn, int], None] | None = None
    goods_sold: Callable[[_Turn, int, int], None] | None = None
    workers_gained: Callable[[_Turn], None] | None = None
    store: Callable[[_Turn, int], None] | None = None
    end_scorers: Callable[[GameConfig], tuple[int, ...]] | None = None


class _Rules:
    """The dispatch tables of one variant (see :attr:`GameConfig.variant`), bound once: the
    base game's rows and those of the modules it plays. ``choices`` and ``apply`` are indexed
    by step (``apply`` then by action type); ``expected`` says what each step asks; the
    hooks are those of :class:`EngineModule`, each as a tuple of the modules' (in registry
    order), or the one module's where a hook replaces a rule."""

    __slots__ = ("after_ship", "anywhere", "apply", "area_size", "categories", "choices",
                 "colour_bonus", "colour_bonus_scored", "crane_buildings", "end_scorers",
                 "expected", "final_points", "final_scoring", "goods_sold", "goods_types",
                 "idle_step", "knowledge_placed", "parts", "phase_end", "phase_income",
                 "phase_setup", "purchases", "reach", "round_setup", "setup", "setup_drew",
                 "store", "tile_effects", "tile_placed", "tile_spaces", "turn_choices",
                 "turn_ended", "unlimited_storage", "unreachable", "won", "workers_gained")

    def __init__(self, modules: tuple[EngineModule, ...]) -> None:
        self.setup = tuple(m.setup for m in modules if m.setup)
        self.setup_drew = tuple(m.setup_drew for m in modules if m.setup_drew)
        self.phase_setup = tuple(m.phase_setup for m in modules if m.phase_setup)
        self.round_setup = tuple(m.round_setup for m in modules if m.round_setup)
        self.turn_choices = tuple((m.turn_choices_knowledge, m.turn_choices) for m in modules
                                  if m.turn_choices)
        self.purchases = tuple(m.purchases for m in modules if m.purchases)
        self.idle_step = _one(m.idle_step for m in modules)
        self.turn_ended = tuple(m.turn_ended for m in modules if m.turn_ended)
        self.won = _one(m.won for m in modules)
        self.phase_end = _one(m.phase_end for m in modules)
        self.phase_income = tuple(m.phase_income for m in modules if m.phase_income)
        self.final_scoring = all(m.final_scoring for m in modules)
        self.final_points = tuple(m.final_points for m in modules if m.final_points)
        self.anywhere = _one(_held(m, m.anywhere) for m in modules)
        self.reach = _one(m.reach for m in modules)
        self.unreachable = next((m.unreachable for m in modules if m.reach), "")
        self.tile_spaces = {tile: (spaces, why) for m in modules
                            for tile, spaces, why in m.tile_spaces}
        self.area_size = _one(m.area_size for m in modules)
        self.tile_placed = tuple(m.tile_placed for m in modules if m.tile_placed)
        self.colour_bonus = _one(m.colour_bonus for m in modules)
        self.colour_bonus_scored = tuple(
            m.colour_bonus_scored for m in modules if m.colour_bonus_scored)
        tile_effects: dict[int, tuple[Callable[[_Turn, int], bool], ...]] = {}
        for m in modules:
            for tile, effect in m.tile_effects:
                tile_effects[tile] = (*tile_effects.get(tile, ()), effect)
        self.tile_effects = tile_effects
        self.goods_types = max((m.goods_types for m in modules), default=GOODS_SLOTS)
        self.unlimited_storage = _one(_held(m, m.unlimited_storage) for m in modules)
        self.store = _one(m.store for m in modules)
        self.end_scorers = _one(m.end_scorers for m in modules)
        self.after_ship = tuple(m.after_ship for m in modules if m.after_ship)
        self.knowledge_placed = tuple(m.knowledge_placed for m in modules if m.knowledge_placed)
        self.goods_sold = tuple(m.goods_sold for m in modules if m.goods_sold)
        self.workers_gained = tuple(m.workers_gained for m in modules if m.workers_gained)
        self.crane_buildings = (*Building, *(b for m in modules for b in m.crane_buildings))
        self.categories = max((c + 1 for m in modules for c, _ in m.categories),
                              default=BASE_CATEGORY_COUNT)
        self.parts = tuple(m.part for m in modules if m.part)
        choices: dict[int, _Choices] = dict(_CHOICES)
        handlers = dict(_HANDLERS)
        expected: dict[int, str] = dict(_EXPECTED)
        hooks = [module.after_action for module in modules if module.after_action]
        after = None if not hooks else hooks[0] if len(hooks) == 1 else _each(hooks)
        for module in modules:
            expected.update((words.step, words.asks) for words in module.steps)
            choices.update(module.choices)
            handlers.update(((step, cls), handler) for step, cls, handler in module.handlers)
        steps = range(max(Step) + 1)
        self.choices = tuple(choices.get(step) for step in steps)
        self.expected = tuple(expected.get(step, f"{Step(step).name} is no step of this game")
                              for step in steps)
        self.apply: tuple[dict[type[Action], _Apply], ...] = tuple(
            {cls: _on_turn(handler, after, self) for (s, cls), handler in handlers.items()
             if s == step}
            for step in steps)
        self.apply[Step.TURN][UseDie] = _use_die
        self.apply[Step.TURN][EndTurn] = _end_turn if self.won is None else _ending(self.won)


def _ending(won: Callable[[PlayerState], bool]) -> _Apply:
    """EndTurn, but a turn after which ``won(player)`` holds ends the game (a base game's
    EndTurn tests nothing of the kind)."""

    def end_turn(state: GameState, action: EndTurn, arg: int) -> GameState:
        p = state.players[state.order[state.turn]]
        if p.dice_used != _BOTH_DICE or not won(p):
            return _end_turn(state, action, arg)
        new = state.clone()
        for turn_ended in _rules(state.config).turn_ended:
            turn_ended(new)
        new.phase = PHASES
        return new

    return end_turn


_T = TypeVar("_T")


def _held(module: EngineModule, bits: int) -> tuple[str, int] | None:
    """``bits`` of what a seat holds of ``module`` (its part's ``held``), as the rules test
    them: (the part's name, the bits); None without any."""
    if not bits:
        return None
    if module.part is None or "held" not in module.part.fields:
        raise ValueError(f"engine module {module.name}: a part with 'held' gives abilities")
    return module.part.name, bits


def _one(hooks: Iterable[_T | None]) -> _T | None:
    """The one module's hook that replaces a rule, or None."""
    given = [hook for hook in hooks if hook is not None]
    if len(given) > 1:
        raise ValueError("two engine modules of one game replace the same rule")
    return given[0] if given else None


def _each(hooks: list[Callable[[_Turn], None]]) -> Callable[[_Turn], None]:
    """Every hook of ``hooks``, in order, as one."""

    def run(turn: _Turn) -> None:
        for hook in hooks:
            hook(turn)

    return run


_BOUND: Final[list[_Rules | None]] = [None] * VARIANTS  # by GameConfig.variant


def _bind(config: GameConfig) -> _Rules:
    """The rules of ``config``'s variant, bound on its first decision."""
    # Imported here: the modules build on this file's helpers, so they import it.
    from .variants import modules_of

    rules = _BOUND[config.variant] = _Rules(modules_of(config))
    return rules


def asks(state: GameState) -> str:
    """What the step of the player to move asks, as its module (or the base game) words it:
    the words of an illegal action's error, and a client's prompt for a step it has none of
    its own for.

    >>> asks(new_game(GameConfig(players=2)))
    'use a die, buy a tile or end the turn'
    """
    return _rules(state.config).expected[state.step]


def idle_step(state: GameState) -> int:
    """The step the player to move faces with nothing pending: TURN, unless a module of the
    game plays a step of its own then (see :attr:`EngineModule.idle_step`)."""
    idle = (_BOUND[state.config.variant] or _bind(state.config)).idle_step
    if idle is None or state.round != _LAST_ROUND or not getattr(state.modules[idle[0]], idle[1]):
        return _TURN_STEP
    return idle[2]


def _rules(config: GameConfig) -> _Rules:
    """The rules bound for ``config``'s variant (written out inline on hot paths)."""
    return _BOUND[config.variant] or _bind(config)
