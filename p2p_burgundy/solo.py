"""The solo game (the 2019 rulebook's solo rules) as an engine module: its steps, their
choices and handlers, and what follows every action (the target marker, the choice of order).

What it changes inside the base game's steps (set-up, the round's removed tile, the river
rule, the goods types, the ship, the colour bonus, monasteries, the win, no final scoring) are
its hooks (see :class:`~p2p_burgundy.rules.EngineModule`).
"""

from __future__ import annotations

from typing import ClassVar, Final

from .actions import (
    PASS,
    PAY_GOODS,
    TAKE_TILE,
    Action,
    BuyPoints,
    Pass,
    PayGoods,
    PlaceTile,
    TakeFirst,
    TakeTile,
)
from .board import PHASES
from .chance import Draws
from .config import GameConfig
from .estate import SPACE_COUNT
from .rivers import river_reach
from .rules import (
    _K1,
    EngineModule,
    StepWords,
    _check_goods,
    _check_placement,
    _check_slot,
    _pass,
    _place,
    _placements,
    _push_under_discard,
    _store,
    _take_from_depot,
    _Turn,
    _without_duplicate_buildings,
)
from .scoring import KNOWLEDGE_BUILDING_VP, Category, monastery_points
from .state import EMPTY, GameState, ModulePart, PlayerState, Step
from .tiles import FACE_DOWN, KNOWLEDGE_BUILDING_SCORED, TILE_COLOUR, Colour, Tile
from .words import ActionWords, Wording

SOLO_WORKERS: Final = 2  # the solo player's workers at the start
FULL_ESTATE: Final = (1 << SPACE_COUNT) - 1  # every space covered: the solo game is won
EXCHANGE_GOODS: Final = 5  # goods a ship may give for a black depot tile
TARGET_STEP: Final = 5  # the target marker moves down 5 at each reset ...
TARGET_FLOOR: Final = 5  # ... but never onto the start space (our reading)


class SoloPart(ModulePart):
    """The victory point counter since its last reset, the target marker, and the goods tiles
    removed from the game by type (index 1..6)."""

    name: ClassVar[str] = "solo"
    fields: ClassVar[tuple[str, ...]] = ("vp_counter", "vp_target", "goods_out")
    __slots__ = fields
    vp_counter: int
    vp_target: int
    goods_out: tuple[int, ...]

    @classmethod
    def start(cls, config: GameConfig) -> SoloPart:
        part = cls()
        part.vp_counter, part.vp_target, part.goods_out = 0, config.target, (0,) * 7
        return part


def _exchange_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The ship exchange: a black depot tile (face down) for 5 goods, or Pass."""
    if sum(p.goods) < EXCHANGE_GOODS:
        return [PASS]  # (the exchange is only offered with 5 goods)
    return [*(TAKE_TILE[0][slot] for slot, tile in enumerate(state.depots[0]) if tile != EMPTY),
            PASS]


def _pay_goods_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    return [PAY_GOODS[g] for g in range(1, 7) if p.goods[g]]


def _reward_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The colour reward: each black depot tile that can go on the duchy now, or
    (only when none can: what the actions taken since the reward came may have done) Pass."""
    return _reward_tiles(state, p) or [PASS]


def _reward_place_choices(state: GameState, p: PlayerState, storage: int) -> list[Action]:
    return [a for a in _placements(state, p, 0, 0, 1)
            if isinstance(a, PlaceTile) and a.storage == storage]


def _target_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    part = state.modules["solo"]
    needed = part.vp_target - part.vp_counter
    return [BuyPoints(needed), PASS] if p.silver >= needed else [PASS]


def _exchange(turn: _Turn, action: TakeTile, _: int) -> None:
    if sum(turn.p.goods) < EXCHANGE_GOODS:
        raise turn.fail(action, f"the exchange costs {EXCHANGE_GOODS} goods tiles; you have "
                                f"{sum(turn.p.goods)}")
    if action.depot != 0:
        raise turn.fail(action, "the exchange takes a tile of the black depot (0)")
    _check_slot(turn, action, 0, action.slot)
    _store(turn, FACE_DOWN + _take_from_depot(turn.new, 0, action.slot))
    _push_under_discard(turn, Step.PAY_GOODS, EXCHANGE_GOODS)


def _pay_goods(turn: _Turn, action: PayGoods, left: int) -> None:
    _check_goods(turn, action)
    held = list(turn.p.goods)
    held[action.goods] -= 1
    turn.p.goods = tuple(held)
    out = list(turn.new.modules["solo"].goods_out)
    out[action.goods] += 1
    turn.new.changed(SoloPart.name).goods_out = tuple(out)
    if left > 1:
        turn.push(Step.PAY_GOODS, left - 1)


def _pass_reward(turn: _Turn, action: Pass, _: int) -> None:
    if _reward_tiles(turn.old, turn.p):
        raise turn.fail(action, "a black depot tile can go on your duchy: the colour reward "
                                "is not optional")


def _take_reward(turn: _Turn, action: TakeTile, _: int) -> None:
    if action not in _reward_tiles(turn.old, turn.p):
        raise turn.fail(action, "choose a tile of the black depot (0) that can go on your "
                                "duchy now")
    tile = _take_from_depot(turn.new, 0, action.slot)
    turn.p.storage = (*turn.p.storage, tile)  # in hand for a moment: placed next
    turn.push(Step.REWARD_PLACE, len(turn.p.storage) - 1)


def _place_reward(turn: _Turn, action: PlaceTile, storage: int) -> None:
    if action.storage != storage:
        raise turn.fail(action, f"place the black depot tile you chose (storage {storage})")
    _check_placement(turn, action)
    _place(turn, action.storage, action.space)


def _buy_points(turn: _Turn, action: BuyPoints, _: int) -> None:
    part = turn.old.modules["solo"]
    needed = part.vp_target - part.vp_counter
    if action.points != needed:
        raise turn.fail(action, f"buy exactly the {needed} VP that reach the target marker "
                                f"({part.vp_target})")
    if turn.p.silver < needed:
        raise turn.fail(action, f"{needed} VP cost {needed} silverlings; you have "
                                f"{turn.p.silver}")
    turn.p.silver -= needed  # the bought points only move the counter: they score nothing
    _reach_target(turn)


def _move_counter(turn: _Turn, gained: int) -> None:
    """After an action that gained points: they move the counter, and reaching the
    target marker resets it; short of it, if the player's silver reaches the target, buying
    the missing points is offered."""
    new = turn.new
    part = new.modules["solo"]
    counter = part.vp_counter + gained
    if counter >= part.vp_target:
        _reach_target(turn)
    else:
        new.changed(SoloPart.name).vp_counter = counter
        if turn.p.silver >= part.vp_target - counter:
            _push_under_discard(turn, Step.TARGET)


def _reach_target(turn: _Turn) -> None:
    """The counter reached the target marker: back to the start (points beyond are lost), the
    marker 5 down, and an action of any number, as a castle gives."""
    new = turn.new
    part = new.changed(SoloPart.name)
    part.vp_counter = 0
    part.vp_target = max(TARGET_FLOOR, part.vp_target - TARGET_STEP)
    _push_under_discard(turn, Step.FREE_ACTION)


# The steps an action sets off whose order the player chooses ("You choose the order in which
# you take any (partial) game actions"). A discard comes first (the storage has no room), and
# the ship's exchange and its payment, a colour reward's placement and shield #5's goods
# belong to the step before them.
_ORDER_STEP: Final = Step.ORDER  # read after every action: a member off its class is slow (rules)
_ORDERED_STEPS: Final = frozenset((
    Step.FREE_ACTION, Step.SHIP, Step.WAREHOUSE, Step.CARPENTER, Step.CHURCH, Step.MARKET,
    Step.CITY_HALL, Step.WHITE_CASTLE, Step.CRANE, Step.REWARD, Step.TARGET))


def _order_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The ORDER step: each distinct pending step that may come first, the top
    one first."""
    choices: list[Action] = []
    for step, arg in reversed(state.pending[:-1]):
        if step in _ORDERED_STEPS:
            choice = TakeFirst(Step(step), arg)
            if choice not in choices:
                choices.append(choice)
    return choices


def _offer_order(new: GameState) -> None:
    """After an action that left one of the ordered steps on top of another: when two
    different steps it (or an earlier one) set off are pending, the player chooses which
    comes first."""
    pending = new.pending
    new.pending = (*pending, (_ORDER_STEP, 0))
    if len(_order_choices(new, new.players[0], 0)) < 2:
        new.pending = pending


def _take_first(turn: _Turn, action: TakeFirst, _: int) -> None:
    choices = _order_choices(turn.old, turn.p, 0)
    if action not in choices:
        steps = (Step(step).name for step, _ in reversed(turn.old.pending[:-1])
                 if step in _ORDERED_STEPS)
        raise turn.fail(action, "choose one of the pending steps: "
                                f"{', '.join(dict.fromkeys(steps))}")
    pending = list(turn.new.pending)
    for i in range(len(pending) - 1, -1, -1):
        if pending[i] == (action.step, action.arg):
            pending.append(pending.pop(i))
            break
    turn.new.pending = tuple(pending)


def _remove_depot_tile(state: GameState) -> None:
    """Each round: a tile leaves the game from the depot the white die shows
    (its first tile in slot order), or else from the next depot round the ring, and so on."""
    for step in range(6):
        d = (state.white_die - 1 + step) % 6 + 1
        for slot, tile in enumerate(state.depots[d]):
            if tile != EMPTY:
                _take_from_depot(state, d, slot)
                box = list(state.box)
                box[tile] += 1
                state.box = tuple(box)
                return




def _reward_tiles(state: GameState, p: PlayerState) -> list[Action]:
    board = state.boards[0]
    frontier = p.frontier & river_reach(board, p.occupied)
    actions: list[Action] = []
    for slot, tile in enumerate(state.depots[0]):
        if tile == EMPTY:
            continue
        mask = frontier & board.colour_masks[TILE_COLOUR[tile]]
        if mask and TILE_COLOUR[tile] == Colour.BEIGE and not p.knowledge & _K1:
            mask = _without_duplicate_buildings(board, p, tile, mask)
        if mask:
            actions.append(TAKE_TILE[0][slot])
    return actions




def _offer_exchange(turn: _Turn) -> None:
    """After a ship's goods: 5 goods may buy a black depot tile, face down."""
    if sum(turn.p.goods) >= EXCHANGE_GOODS and any(t != EMPTY for t in turn.new.depots[0]):
        turn.push(Step.EXCHANGE)


def _reward(turn: _Turn) -> None:
    """A colour completed (or all border posts joined): instead of VP, a black depot tile
    placed at once, if one can be."""
    if _reward_tiles(turn.new, turn.p):
        turn.push(Step.REWARD)


def _setup(state: GameState, draws: Draws) -> None:
    players = [p.copy() for p in state.players]
    players[0].workers = SOLO_WORKERS
    state.players = tuple(players)


def _won(p: PlayerState) -> bool:
    return p.occupied == FULL_ESTATE


def _after_ship(turn: _Turn) -> None:
    """Every goods tile left on the board leaves the game; then the exchange may be offered."""
    goods = turn.new.depot_goods
    if any(map(any, goods)):
        out = list(turn.new.modules["solo"].goods_out)
        for d in range(1, 7):
            for g in range(1, 7):
                out[g] += goods[d][g]
        turn.new.changed(SoloPart.name).goods_out = tuple(out)
        turn.new.depot_goods = ((0,) * 7,) * 7
    _offer_exchange(turn)


def _score_monastery(turn: _Turn, number: int) -> None:
    """A monastery scores when placed (there is no final scoring)."""
    p = turn.p
    points = monastery_points(p, number, turn.new.config.edition)
    if number in KNOWLEDGE_BUILDING_SCORED and Tile.CRANE in p.estate:
        points += KNOWLEDGE_BUILDING_VP
    p.add_vp(Category.KNOWLEDGE, points)


def _after_action(turn: _Turn) -> None:
    """After every action: the points gained move the counter; when two different steps it
    (or an earlier one) set off are pending, the player chooses which comes first. (It runs
    after every action of a solo game: what most actions leave as it was is tested here,
    without a call.)"""
    new = turn.new
    if new.phase >= PHASES:  # the game is over
        return
    gained = turn.p.vp - turn.old.players[0].vp
    if gained:
        _move_counter(turn, gained)
    pending = new.pending
    if len(pending) >= 2 and pending[-1][0] in _ORDERED_STEPS:
        before = turn.old.pending
        if not before or before[-1][0] != _ORDER_STEP:
            _offer_order(new)


def _plays(config: GameConfig) -> bool:
    return config.solo


def _reward_tile(state: GameState) -> dict[str, int]:
    """The colour reward's tile, waiting in the storage space the step's argument names."""
    return {"tile": state.players[0].storage[state.pending[-1][1]]}


def _points_to_target(state: GameState) -> dict[str, int]:
    """The victory points the counter lacks to reach the target marker."""
    part = state.modules["solo"]
    return {"points": part.vp_target - part.vp_counter}


def _visible(state: GameState) -> dict[str, object]:
    part = state.modules["solo"]
    return {"solo": {"vp_counter": part.vp_counter, "vp_target": part.vp_target,
                     "goods_out": list(part.goods_out), "round": state.game_round}}


def _pay_label(state: GameState, action: PayGoods, w: Wording) -> str:
    have = state.players[state.to_move or 0].goods[action.goods]
    return f"pay 1 x {w.goods(action.goods)} (of {have})"


def _bought_points(_: GameState, action: BuyPoints, w: Wording) -> str:
    return (f"bought {action.points} VP for {w.plural(action.points, 'silverling')}: the "
            "counter reaches the target marker")


_ACTION_WORDS: Final = (
    ActionWords(PayGoods, label=_pay_label,
                sentence=lambda _, action, w: f"paid 1 x {w.goods(action.goods)} for the black "
                                              "depot tile",
                target=lambda _, action: ("goods", action.goods, 0)),
    ActionWords(BuyPoints, label=lambda _, action, _w: f"buy {action.points} VP for "
                                                       f"{action.points} silver",
                sentence=_bought_points, key="y"),
    ActionWords(TakeFirst, label=lambda _, action, w: w.pending(action.step),
                sentence=lambda _, action, w: f"took {w.pending(action.step)} first"),
)
"""The words for the solo game's own choices: paying goods, buying points, which first."""


def _result(state: GameState) -> str:
    """How a finished solo game ended, in a sentence."""
    empty = state.players[0].estate.count(EMPTY)
    if not empty:
        return f"The duchy is full in round {state.game_round} of 25: you win!"
    return (f"25 rounds are over with {empty} space{'' if empty == 1 else 's'} empty: the "
            "duchy is not full.")


SOLO: Final = EngineModule(
    name="solo",
    description="the solo game: one player against the target marker, on the 2-player side "
                "of the board; won by filling all 37 spaces of the duchy",
    plays=_plays,
    steps=(
        StepWords(Step.EXCHANGE, "after your ship you may give 5 goods for a black depot tile "
                                 "(or pass)",
                  prompt="Ship: give 5 goods for a black depot tile, face down?",
                  how=", face down, for 5 goods", passing="pass",
                  passed="did not trade 5 goods for a black depot tile",
                  reminder="Solo: after a ship, 5 goods buy a black depot tile, laid face down."),
        StepWords(Step.PAY_GOODS, "pay the exchange's goods, one tile at a time",
                  prompt="Pay the goods: {arg} more",
                  reminder="Solo: choose the goods that pay for the face-down tile, one at a "
                           "time."),
        StepWords(Step.REWARD, "a colour is complete: choose a black depot tile to place at "
                               "once",
                  prompt="Colour complete: a black depot tile to place now",
                  pending="the colour reward", how=" for the colour completed", passing="pass",
                  passed="took no black depot tile for the colour completed: none can go on "
                         "the duchy",
                  reminder="Solo: a colour completed gives a black depot tile, placed at once."),
        StepWords(Step.REWARD_PLACE, "place the black depot tile you chose, any die number",
                  prompt="Place {tile} on which space? (any number)", fields=_reward_tile,
                  reminder="Solo: place it on a free space of its colour, with any number."),
        StepWords(Step.TARGET, "you may buy the victory points that reach the target marker "
                               "(or pass)",
                  prompt="Buy {points} VP for {points} silver to reach the target?",
                  fields=_points_to_target, pending="buying points", passing="pass",
                  passed="did not buy the {points} VP that reach the target marker",
                  reminder="Solo: 1 silverling a VP; at the target you get an action of any "
                           "number."),
        StepWords(Step.ORDER, "choose which of the pending steps you take first",
                  prompt="Which comes first?",
                  reminder="Solo: you choose the order of what your action set off."),
    ),
    actions=_ACTION_WORDS,
    scores_reminder="Solo: fill all 37 spaces within 25 rounds to win; VP only move you on.",
    step_reminders=((Step.SHIP, "Solo: one depot's goods, any types; the rest leave the game."),),
    result=_result,
    choices=(
        (Step.EXCHANGE, _exchange_choices),
        (Step.PAY_GOODS, _pay_goods_choices),
        (Step.REWARD, _reward_choices),
        (Step.REWARD_PLACE, _reward_place_choices),
        (Step.TARGET, _target_choices),
        (Step.ORDER, _order_choices),
    ),
    handlers=(
        (Step.EXCHANGE, TakeTile, _exchange),
        (Step.EXCHANGE, Pass, _pass),
        (Step.PAY_GOODS, PayGoods, _pay_goods),
        (Step.REWARD, TakeTile, _take_reward),
        (Step.REWARD, Pass, _pass_reward),
        (Step.REWARD_PLACE, PlaceTile, _place_reward),
        (Step.TARGET, BuyPoints, _buy_points),
        (Step.TARGET, Pass, _pass),
        (Step.ORDER, TakeFirst, _take_first),
    ),
    after_action=_after_action,
    part=SoloPart,
    visible=_visible,
    setup=_setup,
    round_setup=_remove_depot_tile,
    reach=river_reach,
    unreachable="begins a region on a river from land (solo: from one region on a river to "
                "another only by the river)",
    goods_types=6,  # no limit of types
    won=_won,
    final_scoring=False,  # won or lost by the spaces filled
    colour_bonus=_reward,
    after_ship=_after_ship,
    knowledge_placed=_score_monastery,
)
