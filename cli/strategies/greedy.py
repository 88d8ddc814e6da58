"""The ``greedy`` strategy: one die action of lookahead and a hand-tuned position value.

At each decision the bot searches the rest of the current die action (every pending
sub-decision: the die's action, a castle's extra action, a ship's goods, a building's
advantage, a discard) until the turn is back at the "use a die, buy or end" step, and scores
each resulting state with :func:`position_value` for itself. The best line is remembered, so
the sub-decisions that follow cost nothing to choose.

The value is the player's VP plus credit for what is likely to become VP: partly filled
regions (by size and by the phase bonus still on offer), progress towards colour bonuses,
goods (worth a sale), silverlings, workers, mines' future income, knowledge tiles, shields
(their end-game VP less the tributes to come, and their abilities), the tiles in storage
(more if they can be placed soon) and the dice still to use this turn.

>>> from p2p_burgundy import GameConfig, legal_actions, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> bot = GreedyStrategy(seed=0)
>>> bot.choose(state, legal_actions(state))
UseDie(die=0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import ClassVar, Final, TypeVar

from p2p_burgundy import (
    Action,
    Discard,
    Edition,
    GameState,
    SetDie,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.board import PHASES, ROUNDS
from p2p_burgundy.estate import Estate
from p2p_burgundy.pickling import by_constructor
from p2p_burgundy.rivers import river_reach
from p2p_burgundy.rules import COST
from p2p_burgundy.scoring import (
    COLOUR_BONUS_VP,
    PHASE_BONUS,
    REGION_VP,
    SALE_VP,
    knowledge_points,
)
from p2p_burgundy.shields import ShieldsPart, shield_points
from p2p_burgundy.state import GAME_FIELDS, PLAYER_FIELDS, PlayerState, Step
from p2p_burgundy.tiles import (
    ANIMAL_COUNT,
    ANIMAL_TYPE,
    KNOWLEDGE_NUMBER,
    TILE_COLOUR,
    Colour,
    Tile,
)

TOTAL_ROUNDS: Final = PHASES * ROUNDS
SOLO_SPACE: Final = 10.0  # the solo game: a covered space, in VP-equivalents
# Knowledge tiles that only score at the end (their VP is counted by knowledge_points).
_END_KNOWLEDGE: Final = frozenset({15, *range(16, 27)})
_ABILITY_BITS: Final = sum(1 << n for n in range(1, 15))
_END_BITS: Final = sum(1 << n for n in _END_KNOWLEDGE)
_K1: Final = 1 << 1
_K7: Final = 1 << 7
_K8: Final = 1 << 8
_MINE: Final = int(Tile.MINE)  # a plain int compares faster
# by tile: whether its storage credit reads the estate's tiles (a building: a city holds one
# of each; an animal: its pasture's animals of its kind)
_READS_ESTATE: Final = tuple(TILE_COLOUR[tile] in (Colour.BEIGE, Colour.LIGHT_GREEN)
                             for tile in range(len(TILE_COLOUR)))
_EXTRA_ACTIONS: Final = (int(Step.FREE_ACTION), int(Step.CITY_HALL))  # a castle's, a city hall's
_SHIELDS: Final = ShieldsPart.name  # a constant: the class attribute is a look-up each time
# by colour; none for the inn (any colour, inns module)
_FREE_PLACE_BIT: Final = (1 << 9, 1 << 10, 1 << 10, 1 << 11, 1 << 11, 1 << 11, 0)


@dataclass(frozen=True, slots=True)
class Weights:
    """The knobs of :func:`position_value` (VP-equivalents unless said otherwise)."""

    region: float = 0.7  # share of a region's value credited in proportion to its progress
    rounds_per_tile: float = 1.5  # rounds a missing tile takes, to judge if a region can finish
    colour: float = 0.4  # share of a colour bonus credited by (progress ** 2)
    goods: float = 0.6  # share of a goods tile's sale VP credited while held
    silver: float = 1.1
    workers: float = 0.55
    die: float = 3.0  # a die still to use this turn
    pending: float = 2.5  # an extra action still to take (castle, city hall)
    knowledge: float = 3.0  # an ability knowledge tile, early (scaled by time left)
    store_now: float = 0.85  # a stored tile a die left this turn can place
    store_soon: float = 0.6  # a stored tile with a space of its colour free next to the estate
    store_later: float = 0.1  # a stored tile whose colour still has empty spaces
    future_action: float = 0.0  # what a later turn's die spent placing a stored tile is worth
    defer_completion: float = 0.0  # share of a completion credited to a tile placed later
    access: float = 0.8  # per colour with an empty space next to the estate
    castle: float = 3.0
    ship: float = 2.5
    animal: float = 1.0  # per VP an animal tile would score where it can go
    building: float = 2.0
    discard: float = 1.5  # penalty per tile discarded
    take_workers: float = 0.5  # penalty for taking workers instead of acting
    shield: float = 3.0  # a held shield's ability, early (scaled by time left)

    def __reduce__(self) -> tuple[type[Weights], tuple[object, ...]]:
        return by_constructor(self)  # the compiled build: see pickling.py


DEFAULT_WEIGHTS: Final = Weights()

TUNED_WEIGHTS: Final = Weights(rounds_per_tile=3.375, colour=0.36, goods=0.36, die=1.8,
                        defer_completion=0.5, ship=1.5, discard=2.25, take_workers=0.3)
"""Weights tuned by self-play (``python tools/tune_weights.py --games 40 --seed 1 --sweeps
2``): greedy bots using them in every seat average about 170 VP in 2-player games, against
160 with :data:`DEFAULT_WEIGHTS`. The ``mcts`` bot plays with them."""


MEMO_LIMIT: Final = 1 << 14
"""Entries a memo table of :class:`Evaluator` holds before it is emptied: several searches'
worth (one ``mcts`` search at ``--think 1`` adds a few thousand), at most about 10 MB."""

K = TypeVar("K")
V = TypeVar("V")


def _remember(memo: dict[K, V], key: K, value: V) -> V:
    """Store ``value`` under ``key`` in ``memo`` (emptied first when full) and return it.

    >>> memo: dict[int, int] = {}
    >>> for n in range(MEMO_LIMIT + 1):
    ...     _ = _remember(memo, n, n * n)
    >>> memo
    {16384: 268435456}
    """
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


class _Numbers:
    """Small numbers standing for a player's estate (37 spaces) in memo keys, where hashing and
    comparing the whole tuple on every look-up was most of the cost: found by the estate's
    identity first (a search's states share every field that did not change), by its content
    when the object is new. A number is never given twice, so a key never takes one estate for
    another (an estate forgotten when the tables are emptied gets a new number)."""

    __slots__ = ("_by_id", "_by_value", "_last", "_last_number", "_next")

    def __init__(self) -> None:
        # id -> (the estate, kept so that no other object can take its id, its number)
        self._by_id: dict[int, tuple[tuple[int, ...], int]] = {}
        self._by_value: dict[tuple[int, ...], int] = {}
        self._next = 0
        # the estate asked for last, and its number (asked for again most of the time)
        self._last: tuple[int, ...] | None = None
        self._last_number = -1

    def number(self, estate: tuple[int, ...]) -> int:
        """``estate``'s number (the same for equal estates while they are remembered).

        >>> numbers = _Numbers()
        >>> a, b = (1, 2), (3, 4)
        >>> numbers.number(a), numbers.number(b), numbers.number(tuple([1, 2])), numbers.number(a)
        (0, 1, 0, 0)
        """
        if estate is self._last:
            return self._last_number
        seen = self._by_id.get(id(estate))
        if seen is not None and seen[0] is estate:
            number = seen[1]
        else:
            number = self._by_value.get(estate, -1)
            if number < 0:
                number = _remember(self._by_value, estate, self._next)
                self._next += 1
            _remember(self._by_id, id(estate), (estate, number))
        self._last, self._last_number = estate, number
        return number


class _BoardInfo:
    """Per-estate tables the value function reads (built once per estate), and what it has
    worked out on this estate before: each memo table is keyed by every input of what it
    holds (the search meets the same partial positions again and again)."""

    __slots__ = ("colour_masks", "die_masks", "grey", "last_progress", "last_terms", "progress",
                 "reach", "region_of", "regions", "rooms", "storage")

    def __init__(self, board: Estate) -> None:
        self.colour_masks = board.colour_masks
        self.grey = board.colour_masks[Colour.GREY]
        self.die_masks = board.die_masks
        self.regions = tuple((r.mask, r.size) for r in board.regions)
        self.region_of = board.region_of
        # (occupied, rounds left, bonuses, bonuses taken, players) -> progress terms
        self.progress: dict[_ProgressKey, tuple[float, ...]] = {}
        # the key and terms of the progress asked for last: asked for again most of the time,
        # and its tuples are the very same objects then (a state's copies share them), so
        # comparing it costs less than hashing a key
        self.last_progress: _ProgressKey = (-1, -1, (), (), -1)
        self.last_terms: tuple[float, ...] = ()
        self.reach: dict[int, int] = {}  # occupied -> river_reach (the solo game)
        self.rooms: dict[int, int] = {}  # room to grow -> colours with a space in it
        self.storage: dict[_StorageKey, float] = {}  # see Evaluator._storage_value


_ProgressKey = tuple[int, int, tuple[int, ...], tuple[int, ...], int]
"""Every input of the regions' and colour bonuses' terms: occupied, rounds left (which give
the phase), bonuses, bonuses taken and players."""
_KnowledgeKey = tuple[int, tuple[int, ...], tuple[int, ...], int]
_StorageKey = tuple[tuple[int, ...], int, int, int, int, tuple[int, ...], int, int]
"""Every input of the stored tiles' credit: storage, occupied, room to grow, knowledge,
workers, dice left, rounds left (which give the phase) and the estate's number (-1 when no
stored tile reads the estate)."""


def rounds_left(state: GameState) -> int:
    """Rounds still to play including the current one (0 once the game is over).

    >>> from p2p_burgundy import GameConfig, new_game
    >>> rounds_left(new_game(GameConfig(players=2)))
    25
    """
    if state.phase >= PHASES:
        return 0
    return (PHASES - 1 - state.phase) * ROUNDS + ROUNDS - state.round


class Evaluator:
    """:func:`position_value` with its per-estate tables and what it worked out cached."""

    __slots__ = ("_boards", "_estates", "_gains", "_knowledge", "_last_knowledge",
                 "_last_points", "weights")

    def __init__(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self._boards: dict[str, _BoardInfo] = {}
        # (filled, size, rounds left, phase) -> _space_gains (a few thousand at most)
        self._gains: dict[tuple[int, int, int, int], tuple[float, float]] = {}
        # by edition (2011, 2019; an enum's hash is slow): (knowledge, sold, bonuses, estate's
        # number) -> knowledge_points
        self._knowledge: tuple[dict[_KnowledgeKey, int], dict[_KnowledgeKey, int]] = ({}, {})
        self._estates = _Numbers()
        # the inputs (edition, knowledge, sold, bonuses, estate) and points of the knowledge VP
        # asked for last (as the progress terms: compared before a key is hashed)
        self._last_knowledge: tuple[Edition | None, int, tuple[int, ...], tuple[int, ...],
                                    tuple[int, ...]] = (None, -1, (), (), ())
        self._last_points = 0

    def _board(self, board: Estate) -> _BoardInfo:
        info = self._boards.get(board.id)
        if info is None:
            info = self._boards[board.id] = _BoardInfo(board)
        return info

    def value(self, state: GameState, seat: int) -> float:
        """How good ``state`` is for ``seat``, in VP-equivalents (exact VP once over). In the
        team game the partner's points count as the seat's own (the team's fields, the same
        at both seats, count once)."""
        p = state.players[seat]
        config = state.config
        vp = 0
        for points in p.breakdown:  # a loop: compiled, sum() is a generic call
            vp += points
        partner = config.partner(seat)
        if partner != seat:
            for points in state.players[partner].breakdown:
                vp += points
        value = float(vp)
        if config.solo:  # the solo game is won by filling the duchy: spaces first
            value += SOLO_SPACE * p.occupied.bit_count()
        if state.phase >= PHASES:
            return value
        w = self.weights
        info = self._board(state.boards[seat])
        players = config.table_players
        phase = state.phase
        left = rounds_left(state)
        time = left / TOTAL_ROUNDS
        occ = p.occupied

        # Regions under way and colour bonuses still on offer (added one by one, in the same
        # order as ever: a sum in another order can differ in the last bit).
        bonuses, taken = p.bonuses, state.bonus_taken
        last = info.last_progress
        if (last[0] == occ and last[1] == left and last[2] is bonuses and last[3] is taken
                and last[4] == players):
            terms = info.last_terms
        else:
            key = (occ, left, bonuses, taken, players)
            found = info.progress.get(key)
            if found is None:
                found = _remember(info.progress, key, self._progress(
                    info, occ, phase, left, bonuses, taken, players))
            info.last_progress, info.last_terms = key, found
            terms = found
        for term in terms:
            value += term

        # Room to grow: colours with a free space next to the estate (the solo game: that
        # a tile may go on, other regions only via the rivers).
        front = p.frontier
        if config.solo:
            reach = info.reach.get(occ)
            if reach is None:
                reach = _remember(info.reach, occ, river_reach(state.boards[seat], occ))
            front &= reach
        rooms = info.rooms.get(front)
        if rooms is None:
            rooms = _remember(info.rooms, front,
                              sum(1 for mask in info.colour_masks[:6] if front & mask))
        access = w.access * time
        for _ in range(rooms):
            value += access

        # Goods, silverlings, workers, mines' income, knowledge.
        held = sum(p.goods)
        if held:
            sale = SALE_VP[players] * w.goods * min(1.0, left / 3)
            value += held * max(1.0, sale)
        value += w.silver * p.silver + w.workers * p.workers
        mines = 0  # only mines (and inns) go on grey spaces: fewer to look at than the estate
        m = occ & info.grey
        while m:
            low = m & -m
            m ^= low
            if p.estate[low.bit_length() - 1] == _MINE:
                mines += 1
        if mines:
            value += mines * (PHASES - phase) * w.silver * 0.9  # a silverling per phase end
        k = p.knowledge
        if k & _END_BITS:
            value += self._knowledge_points(p, config.edition)
        if k & _ABILITY_BITS:
            value += (k & _ABILITY_BITS).bit_count() * w.knowledge * time
        # the part itself: a game without the module has none (state.shields would make one)
        shields = state.modules.get(_SHIELDS)
        if shields is not None and shields.depot_shields and shields.held[seat]:
            value += self._shield_value(state, p, shields.held[seat], bool(shields.closing),
                                        time)

        # Dice and extra actions still to use this turn.
        mine_to_move = state.chance is None and state.order[state.turn] == seat
        dice: tuple[int, ...] = ()
        if mine_to_move:
            used = p.dice_used
            dice = p.dice if not used else (p.dice[1],) if used == 1 else \
                (p.dice[0],) if used == 2 else ()
            value += w.die * len(dice)
            for step, _ in state.pending:
                if step in _EXTRA_ACTIONS:
                    value += w.pending
                    dice += (0,)

        # Stored tiles, by how soon they can be placed.
        if p.storage:
            # the estate's tiles count only for a building or an animal
            reads = any(_READS_ESTATE[tile] for tile in p.storage)
            skey = (p.storage, occ, front, k, p.workers, dice, left,
                    self._estates.number(p.estate) if reads else -1)
            stored = info.storage.get(skey)
            if stored is None:
                stored = _remember(info.storage, skey, self._storage_value(
                    info, p.storage, occ, front, k, p.workers, dice, left, phase,
                    p.estate if reads else ()))
            value += stored
        return value

    def _progress(self, info: _BoardInfo, occ: int, phase: int, left: int,
                  bonuses: tuple[int, ...], taken: tuple[int, ...], players: int
                  ) -> tuple[float, ...]:
        """What :meth:`value` adds for regions under way (credit by progress, while they can
        still be finished) and for colour bonuses still on offer, term by term."""
        w = self.weights
        terms: list[float] = []
        pot_bonus = PHASE_BONUS[min(phase + 1, PHASES - 1)]
        for mask, size in info.regions:
            k = (mask & occ).bit_count()
            if k and k != size:
                terms.append(self._region_credit(k, size, left, pot_bonus))
        for colour in range(6):
            if bonuses[colour] or taken[colour] >= 2:
                continue
            cmask = info.colour_masks[colour]
            share = (cmask & occ).bit_count() / cmask.bit_count()
            terms.append(w.colour * share * share * COLOUR_BONUS_VP[(players, taken[colour] + 1)])
        return tuple(terms)

    def _knowledge_points(self, p: PlayerState, edition: Edition) -> int:
        """:func:`~p2p_burgundy.scoring.knowledge_points`, remembered."""
        last = self._last_knowledge
        if (last[0] is edition and last[1] == p.knowledge and last[2] is p.sold
                and last[3] is p.bonuses and last[4] is p.estate):
            return self._last_points
        memo = self._knowledge[edition is Edition.E2019]
        key = (p.knowledge, p.sold, p.bonuses, self._estates.number(p.estate))
        points = memo.get(key)
        if points is None:
            points = _remember(memo, key, knowledge_points(p, edition))
        self._last_knowledge = (edition, p.knowledge, p.sold, p.bonuses, p.estate)
        self._last_points = points
        return points

    def _shield_value(self, state: GameState, p: PlayerState, held: int, closing: bool,
                      time: float) -> float:
        """Held shields (shields module): the VP they score at the end (twice with #13, and
        #10's second knowledge score), less the tributes still to pay (``closing``: at a
        phase end's turn), plus their abilities while time is left."""
        w = self.weights
        count = held.bit_count()
        knowledge = self._knowledge_points(p, state.config.edition) if held >> 10 & 1 else 0
        # at a phase end's turn the tribute of this phase is paid (or being decided)
        tributes = PHASES - state.phase - (1 if closing else 0)
        return (shield_points(held, knowledge) - count * tributes * w.silver
                + count * w.shield * time)

    def _region_credit(self, filled: int, size: int, left: int, bonus: int) -> float:
        """Partial credit for a region with ``filled`` of ``size`` spaces covered."""
        w = self.weights
        feasible = left / (w.rounds_per_tile * (size - filled))
        if feasible > 1.0:
            feasible = 1.0
        return w.region * filled / size * (REGION_VP[size] + bonus) * feasible

    def _storage_value(self, info: _BoardInfo, storage: tuple[int, ...], occ: int,
                       frontier: int, k: int, workers: int, dice: tuple[int, ...], left: int,
                       phase: int, estate: tuple[int, ...]) -> float:
        """Credit for the ``storage`` tiles of a player with knowledge ``k``, ``dice`` left
        this turn (0: any number) and room to grow ``frontier``: each tile is matched with its
        own free space next to the estate (best first), and at most one tile per die left
        this turn counts as placeable now."""
        w = self.weights
        total = 0.0
        per = 2 if k & _K8 else 1
        later = w.store_later * min(1.0, (left - 1) / 4)
        ranked: list[tuple[float, float, list[tuple[float, float, int, bool]]]] = []
        for tile in storage:
            colour = TILE_COLOUR[tile]
            open_mask = info.colour_masks[colour] & ~occ
            if not open_mask:
                continue
            base = self._tile_bonus(tile, phase, left)
            front = open_mask & frontier
            if colour == Colour.BEIGE and front and not k & _K1:
                front = _without_duplicates(occ, estate, info, tile, front)
            if not front:
                total += later * (base + 1.0)
                continue
            reach = 0
            if dice:
                free = 1 if k & _FREE_PLACE_BIT[colour] else 0
                for value in dice:
                    if not value:
                        reach = front
                        break
                    cost = COST[per][free][value]
                    for target in range(1, 7):
                        if cost[target] <= workers:
                            reach |= info.die_masks[target]
            spaces: list[tuple[float, float, int, bool]] = []
            m = front
            while m:
                low = m & -m
                m ^= low
                rmask, size = info.regions[info.region_of[low.bit_length() - 1]]
                key = ((rmask & occ).bit_count(), size, left, phase)
                gains = self._gains.get(key)
                if gains is None:
                    gains = self._gains[key] = self._space_gains(*key)
                gain, later_gain = gains
                if colour == Colour.LIGHT_GREEN:
                    points = w.animal * _animal_points(k, occ, estate, info, tile,
                                                       low.bit_length() - 1)
                    gain += points
                    later_gain += points
                spaces.append((gain, later_gain, low, bool(low & reach)))
            spaces.sort(reverse=True)
            ranked.append((base + spaces[0][0], base, spaces))
        ranked.sort(reverse=True)
        claimed = 0
        now_left = len(dice)
        soon = w.store_soon * min(1.0, (left - 1) / 2)  # no later turn in the last round
        for _, base, spaces in ranked:
            best, best_bit, best_now = later * (base + 1.0), 0, False
            for gain, later_gain, bit, now in spaces:
                if bit & claimed:
                    continue
                if now and now_left:
                    credit = w.store_now * (base + gain)
                else:
                    credit = soon * max(0.0, base + later_gain - w.future_action)
                if credit > best:
                    best, best_bit, best_now = credit, bit, now and now_left > 0
            total += best
            claimed |= best_bit
            if best_now:
                now_left -= 1
        return total

    def _space_gains(self, filled: int, size: int, left: int, phase: int
                     ) -> tuple[float, float]:
        """What covering one more space of a region of ``size`` with ``filled`` covered
        adds to :meth:`_region_credit`, done now and done on a later turn."""
        w = self.weights
        bonus = PHASE_BONUS[min(phase + 1, PHASES - 1)]
        before = self._region_credit(filled, size, left, bonus) if filled else 0.0
        if filled + 1 == size:
            gain = REGION_VP[size] + PHASE_BONUS[phase] - before
            # Completing is only worth its full value when done now; put off, a share of it
            # (else the bot keeps putting it off).
            progress = w.region * (REGION_VP[size] + bonus) / size
            return gain, progress + w.defer_completion * (gain - progress)
        gain = self._region_credit(filled + 1, size, left, bonus) - before
        return gain, gain

    def _tile_bonus(self, tile: int, phase: int, left: int) -> float:
        """What placing ``tile`` brings besides region progress."""
        w = self.weights
        colour = TILE_COLOUR[tile]
        if colour == Colour.DARK_GREEN:
            return w.castle
        if colour == Colour.GREY:
            return (PHASES - phase) * w.silver * 0.9
        if colour == Colour.BLUE:
            return w.ship
        if colour == Colour.LIGHT_GREEN:
            return 0.0  # its VP depend on the pasture: see _animal_points
        if colour == Colour.YELLOW:
            number = KNOWLEDGE_NUMBER[tile]
            if number in _END_KNOWLEDGE:
                return 3.0
            return w.knowledge * left / TOTAL_ROUNDS
        if tile == Tile.WATCHTOWER:
            return 4.0
        if tile == Tile.BOARDING_HOUSE:
            return 4 * w.workers
        if tile == Tile.BANK:
            return 2 * w.silver
        return w.building


def _without_duplicates(occ: int, estate: tuple[int, ...], info: _BoardInfo, tile: int,
                        mask: int) -> int:
    """``mask`` without the spaces of cities that already hold building ``tile``."""
    out = mask
    m = mask
    while m:
        low = m & -m
        m ^= low
        rmask = info.regions[info.region_of[low.bit_length() - 1]][0] & occ
        while rmask:
            bit = rmask & -rmask
            rmask ^= bit
            if estate[bit.bit_length() - 1] == tile:
                out &= ~low
                break
    return out


def _animal_points(k: int, occ: int, estate: tuple[int, ...], info: _BoardInfo, tile: int,
                   space: int) -> int:
    """VP for placing animal ``tile`` on ``space`` (knowledge ``k``): its animals plus every
    same-type tile already in that pasture, again (knowledge #7: one more per tile)."""
    kind = ANIMAL_TYPE[tile]
    extra = 1 if k & _K7 else 0
    points = ANIMAL_COUNT[tile] + extra
    m = info.regions[info.region_of[space]][0] & occ
    while m:
        low = m & -m
        m ^= low
        other = estate[low.bit_length() - 1]
        if ANIMAL_TYPE[other] == kind:
            points += ANIMAL_COUNT[other] + extra
    return points


def position_value(state: GameState, seat: int, weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The greedy bot's estimate of ``state`` for ``seat`` (VP plus likely future VP).

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> position_value(state, 0) > 0
    True
    """
    return Evaluator(weights).value(state, seat)


_Line = list[tuple[Action, GameState, int]]
"""A line of the greedy bot's search: each action, the state it leads to and the number of
legal actions there (0 where the line ends: not looked at)."""


def _fingerprint(state: GameState) -> tuple[object, ...]:
    """Every field of a state, as comparable values (states have no ``__eq__``)."""
    players = tuple(tuple(getattr(p, f) for f in PLAYER_FIELDS) for p in state.players)
    fields = (getattr(state, f) for f in GAME_FIELDS if f != "players")
    return (*fields, state.module_values(), players)


class GreedyStrategy:
    """Searches the current die action to its end and keeps the best line by
    :func:`position_value`.

    ``budget`` caps the positions expanded per decision (the rest are judged without looking
    further); ``value`` judges where a line ends (``value(state, seat)``; by default
    :func:`position_value` with ``weights``, whose penalties for discards and workers apply
    either way); ties between equal lines go to the first legal action, so the bot is
    deterministic and ``seed`` (taken for the common interface) changes nothing.
    """

    name: ClassVar[str] = "greedy"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT_WEIGHTS,
                 budget: int = 1500,
                 value: Callable[[GameState, int], float] | None = None) -> None:
        self.seed = seed
        self._eval = Evaluator(weights)
        self._value = self._eval.value if value is None else value
        self._budget = budget
        self._spent = 0
        self._plan: list[tuple[tuple[object, ...], Action]] = []

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """The first action of the best line through the rest of this die action."""
        if self._plan:
            expected, action = self._plan[0]
            del self._plan[0]
            if action in actions and expected == _fingerprint(state):
                return action
            self._plan.clear()
        if len(actions) == 1:
            return actions[0]
        line = self._line(state, actions)
        # each later action of the line, with the state it is planned from
        self._plan = [(_fingerprint(before), action)
                      for (_, before, _), (action, _, _) in pairwise(line)]
        return line[0][0]

    def follow(self, state: GameState, actions: Sequence[Action]
               ) -> list[tuple[Action, GameState]]:
        """The moves :meth:`choose` makes from ``state`` (``actions``: its legal actions, more
        than one) until it searches again, for a caller who asks it only where there is a
        choice (a search's rollouts): each action and the state it leads to, so that the
        caller need not apply them, list the legal actions or have the plan checked. Such a
        caller plays a forced move without asking, so the plan's next step no longer matches
        and :meth:`choose` searches again: the moves end there."""
        line = self._line(state, actions)
        end = len(line)
        for i, (_, _, choices) in enumerate(line[:-1]):
            if choices == 1:
                end = i + 2
                break
        return [(action, after) for action, after, _ in line[:end]]

    def _line(self, state: GameState, actions: Sequence[Action]) -> _Line:
        """The best line through the rest of this die action from ``state``."""
        self._spent = 0
        return self._best(state, state.order[state.turn], actions)[1]

    def _best(self, state: GameState, seat: int, actions: Sequence[Action]
              ) -> tuple[float, _Line]:
        """The best value reachable before the turn is back at its top step, and the line."""
        w = self._eval.weights
        best_value = float("-inf")
        best_line: _Line = []
        seen_dice: set[int] = set()
        for action in actions:
            if isinstance(action, UseDie):
                number = state.players[seat].dice[action.die]
                if number in seen_dice:
                    continue  # both dice show the same number: one is enough
                seen_dice.add(number)
            child = apply(state, action)
            self._spent += 1
            penalty = 0.0
            if isinstance(action, Discard):
                penalty = w.discard
            elif isinstance(action, TakeWorkers):
                penalty = w.take_workers
            # a die set by shield #16 is only worth what the die then does
            if ((child.pending or isinstance(action, SetDie)) and child.chance is None
                    and child.phase < PHASES and self._spent < self._budget):
                choices = legal_actions(child)
                value, line = self._best(child, seat, choices)
                line = [(action, child, len(choices)), *line]
            else:
                value = self._value(child, seat)
                line = [(action, child, 0)]
            value -= penalty
            if value > best_value:
                best_value, best_line = value, line
        return best_value, best_line

    def __repr__(self) -> str:
        return f"GreedyStrategy(budget={self._budget})"


__all__ = ["DEFAULT_WEIGHTS", "TUNED_WEIGHTS", "Evaluator", "GreedyStrategy", "Weights",
           "position_value", "rounds_left"]

