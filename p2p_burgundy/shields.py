"""The shields (2019 module ``shields``): the 18 shields, loaded and checked from
``data/shields.json``.

A shield lies on a numbered depot from set-up until someone takes it (on a double, instead of
both die actions) and puts it on a castle of their estate; from then on its ability works for
its holder, who pays it a tribute at each phase end and scores its VP at the end of the game.
A player's shields are a bit set (bit ``n`` for shield ``n``), as knowledge tiles are.

>>> Shield(17).name, SHIELD_VP[17], SHIELD_WORDS[17]
('BIGGER_AREAS', 4, 'an area you complete scores as one size bigger')
>>> SHIELDS_PER_DEPOT[3]
(1, 2, 1, 2, 1, 2)
>>> shield_numbers(1 << 4 | 1 << 16)
(4, 16)
"""

from __future__ import annotations

import itertools
import json
from enum import IntEnum
from importlib import resources
from typing import ClassVar, Final

from .actions import (
    DISCARD,
    END_TURN,
    PASS,
    Action,
    BorrowMonasteries,
    Discard,
    EndTurn,
    Pass,
    PayTribute,
    PlaceFromDepot,
    PlaceTile,
    SetDie,
    TakeGoods,
    TakeShield,
)
from .board import depot_name
from .chance import Draws
from .config import GameConfig, Module
from .errors import EngineError
from .estate import bits
from .rules import (
    _BOTH_DICE,
    _K2,
    _K8,
    COST,
    GOODS_SLOTS,
    STORAGE_SPACES,
    EngineModule,
    StepWords,
    _discard,
    _discard_choices,
    _free_choices,
    _pass,
    _place,
    _placements,
    _Turn,
    animal_points,
    discard,
    finish_phase,
    mine_count,
)
from .scoring import REGION_VP, SALE_VP, Category, knowledge_points
from .state import EMPTY, GameState, ModulePart, PlayerState, Step
from .tiles import KNOWLEDGE_NUMBER, TILE_COLOUR, TILE_COUNT, Colour, Tile
from .words import ActionWords, DrawWords, Target, Wording

SHIELD_COUNT: Final = 18
ALL_SHIELDS: Final = sum(1 << n for n in range(1, SHIELD_COUNT + 1))
"""Every shield as a bit set."""


class Shield(IntEnum):
    """Each shield by its number and what it does while its holder keeps it."""

    PASTURES = 1  # all pastures count as one when animals score (+12 VP)
    WORKERS = 2  # another player gains workers: the holder gains 1 (+12)
    TRIBUTE_WORKERS = 3  # tribute may be paid with workers too (+12)
    STORAGE = 4  # storage without limit (+12)
    GOODS = 5  # a ship also takes every goods tile of one type from all depots (+12)
    MONASTERIES = 6  # a chosen player's knowledge tiles count as the holder's (+12)
    BONUS_TILES = 7  # bonus tiles score double (+8)
    MINES = 8  # mines pay double at phase end (+8)
    SALE_SILVER = 9  # 1 silverling per goods tile sold (+8)
    MONASTERY_VP = 10  # knowledge tiles' end-game VP count twice (+8)
    CASTLE_SHIELD = 11  # a castle's extra action may take a shield (+8)
    SALE_VP = 12  # sold goods score double VP (+8)
    SHIELD_VP = 13  # shields' end-game VP count twice (+4)
    DEPOT_TILE = 14  # at phase end, place a numbered depot's tile (+4)
    BLACK_TILE = 15  # at phase end, place a black depot's tile (+4)
    ANY_DIE = 16  # once a turn, set a die to any number (+4)
    BIGGER_AREAS = 17  # a completed area scores one size bigger (+4)
    ANYWHERE = 18  # tiles go on any empty space, not only next to a tile (+4)


def _load() -> tuple[tuple[int, ...], tuple[str, ...], dict[int, tuple[int, ...]]]:
    tree = json.loads(resources.files("p2p_burgundy").joinpath(
        "data/shields.json").read_text("utf-8"))
    vp, words = [0], [""]  # index 0 unused: shields are 1..18
    for number, item in enumerate(tree["shields"], 1):
        ability = str(item["ability"]).upper().replace("-", "_")
        if item["shield"] != number or Shield(number).name != ability \
                or type(item["vp"]) is not int or not item["words"]:
            raise EngineError(f"shield data: shield {number} is malformed")
        vp.append(item["vp"])
        words.append(str(item["words"]))
    if len(vp) != SHIELD_COUNT + 1:
        raise EngineError(f"shield data: {len(vp) - 1} shields, needs {SHIELD_COUNT}")
    per_depot = {int(n): tuple(int(k) for k in counts)
                 for n, counts in tree["per_depot"].items()}
    if sorted(per_depot) != [2, 3, 4] or any(
            len(c) != 6 or sum(c) > SHIELD_COUNT for c in per_depot.values()):
        raise EngineError("shield data: per_depot needs six counts for 2, 3 and 4 players")
    return tuple(vp), tuple(words), per_depot


SHIELD_VP, SHIELD_WORDS, SHIELDS_PER_DEPOT = _load()
"""Each shield's end-game VP and its ability in a few words, by number 1..18; and how many
shields lie on each numbered depot 1..6 at set-up, by player count."""


def shield_numbers(shields: int) -> tuple[int, ...]:
    """The shield numbers of a bit set, smallest first."""
    return tuple(bits(shields))


def shields_text(shields: tuple[tuple[int, ...], ...]) -> str:
    """The shields on depots 1..6, e.g. ``1: #4; 2: #1, #8``.

    >>> shields_text(((4,), (1, 8)))
    '1: #4; 2: #1, #8'
    """
    return "; ".join(f"{d}: " + ", ".join(f"#{n}" for n in on)
                     for d, on in enumerate(shields, 1) if on)


def shield_points(shields: int, knowledge: int) -> int:
    """End-game VP a player's shields add: each held shield's VP, twice with shield #13; with
    shield #10 the ``knowledge`` tiles' end-game VP once more.

    >>> shield_points(1 << 1 | 1 << 13, 0), shield_points(1 << 10 | 1 << 13, 20)
    (32, 44)
    """
    points = sum(vp for n, vp in enumerate(SHIELD_VP) if shields >> n & 1)
    if shields >> 13 & 1:
        points *= 2
    if shields >> 10 & 1:
        points += knowledge
    return points


# --- The shields as an engine module ----------------------------------------------------------

SHIELD_TRIBUTE: Final = 1  # silverlings (or workers, with shield #3) per shield at each phase end


class ShieldsPart(ModulePart):
    """``depot_shields`` the shield numbers on each depot (index 0, the black depot, holds
    none; empty in a game without the module); ``held`` per seat the shields it holds, as a
    bit set (bit ``n``: shield ``n``; ``GameState.shields``, and the rules' ``anywhere`` and
    ``unlimited_storage`` read it); ``shield_box`` the shields out of the game (left over
    at set-up, or removed), a bit set; ``borrowed`` the seat whose knowledge tiles count for
    the holder of shield #6 (-1 until chosen); ``die_changed`` whether shield #16 set a die
    this turn; ``closing`` the seats still to play their turn of the phase end (shields #14
    and #15, tribute), the one playing first; empty otherwise."""

    name: ClassVar[str] = "shields"
    fields: ClassVar[tuple[str, ...]] = (
        "depot_shields", "held", "shield_box", "borrowed", "die_changed", "closing")
    __slots__ = fields
    depot_shields: tuple[tuple[int, ...], ...]
    held: tuple[int, ...]
    shield_box: int
    borrowed: int
    die_changed: bool
    closing: tuple[int, ...]

    @classmethod
    def start(cls, config: GameConfig) -> ShieldsPart:
        part = cls()
        part.depot_shields = ((),) * 7 if Module.SHIELDS in config.modules else ()
        part.held = (0,) * config.players
        part.shield_box = 0
        part.borrowed = -1
        part.die_changed = False
        part.closing = ()
        return part


_PART: Final = ShieldsPart.name

# Shield bits (bit n = shield #n), as GameState.shields holds them: those the rules test.
_S1: Final = 1 << 1
_S4: Final = 1 << 4
_S5: Final = 1 << 5
_S6: Final = 1 << 6
_S7: Final = 1 << 7
_S8: Final = 1 << 8
_S9: Final = 1 << 9
_S11: Final = 1 << 11
_S12: Final = 1 << 12
_S14: Final = 1 << 14
_S15: Final = 1 << 15
_S16: Final = 1 << 16
_S17: Final = 1 << 17
_S18: Final = 1 << 18
_FREE_STEP: Final = Step.FREE_ACTION
_DISCARD_STEP: Final = Step.DISCARD
_BLUE: Final = int(Colour.BLUE)
_DARK_GREEN: Final = int(Colour.DARK_GREEN)
_LIGHT_GREEN: Final = int(Colour.LIGHT_GREEN)


def _draw_shields(state: GameState, draws: Draws) -> None:
    """The shields of depots 1..6 in order, as many as ``SHIELDS_PER_DEPOT`` says, from the
    shields 1..18 left (after the trade routes' deal)."""
    pool = list(range(1, SHIELD_COUNT + 1))
    per_depot = SHIELDS_PER_DEPOT[state.config.table_players]  # solo: as for 2
    part = state.changed(_PART)
    part.depot_shields = ((), *(tuple(sorted(draws.take(pool) for _ in range(count)))
                                for count in per_depot))
    part.shield_box = sum(1 << shield for shield in pool)


_DRAWN: Final = DrawWords("shields", "shields on the depots",
                          lambda shields, _: shields_text(shields),
                          lambda shields: {str(d): list(on) for d, on in enumerate(shields, 1)})


def _shields_drawn(state: GameState) -> tuple[str, tuple[tuple[int, ...], ...]]:
    return _DRAWN.field, state.modules[_PART].depot_shields[1:]


def _holder(state: GameState, shield: int) -> int:
    """The seat holding ``shield``, or -1."""
    for seat, held in enumerate(state.modules[_PART].held):
        if held >> shield & 1:
            return seat
    return -1


def _replace_options(p: PlayerState, held: int) -> list[int]:
    """Where a new shield may go: a castle without a shield (0), or instead of a held one."""
    free = [0] if held.bit_count() < p.estate.count(Tile.CASTLE) else []
    return free + list(shield_numbers(held))


def shield_cost(p: PlayerState, depot: int) -> int:
    """Workers that make both of ``p``'s dice show ``depot`` (a double takes its shield).

    >>> from types import SimpleNamespace as P
    >>> shield_cost(P(dice=(3, 5), knowledge=0), 5), shield_cost(P(dice=(1, 6), knowledge=0), 4)
    (2, 5)
    """
    cost = COST[2 if p.knowledge & _K8 else 1][0]
    return cost[p.dice[0]][depot] + cost[p.dice[1]][depot]


_MOST_FOR_DOUBLE: Final = 6  # workers: each die is at most three steps from any number
# _DOUBLES[per][die0][die1][workers]: the depots 1..6 (ascending) whose number both dice show
# with at most ``workers`` (0.._MOST_FOR_DOUBLE) workers in all, a worker moving a die by up
# to ``per`` (as rules.COST): where a double can take a shield, without a call per depot.
_DOUBLES: Final = tuple(
    tuple(
        tuple(
            tuple(tuple(d for d in range(1, 7) if COST[per][0][a][d] + COST[per][0][b][d] <= w)
                  for w in range(_MOST_FOR_DOUBLE + 1))
            for b in range(7)
        )
        for a in range(7)
    )
    for per in range(3)
)


def _shield_turn_choices(state: GameState, p: PlayerState) -> list[Action]:
    """TURN-step shield choices: a shield on a double (both dice unused), shield #16's die,
    and shield #6's choice of player."""
    seat = state.order[state.turn]
    part = state.modules[_PART]
    held = part.held[seat]
    actions: list[Action] = []
    if not p.dice_used:
        workers = p.workers if p.workers < _MOST_FOR_DOUBLE else _MOST_FOR_DOUBLE
        replaces: list[int] | None = None  # found once a shield is in reach
        for depot in _DOUBLES[2 if p.knowledge & _K8 else 1][p.dice[0]][p.dice[1]][workers]:
            lying = part.depot_shields[depot]
            if lying:
                if replaces is None:
                    replaces = _replace_options(p, held)
                actions += [TakeShield(shield, r) for shield in lying for r in replaces]
    if held & _S16 and not part.die_changed:
        actions += [SetDie(die, value) for die in (0, 1) if not p.dice_used >> die & 1
                    for value in range(1, 7) if value != p.dice[die]]
    if held & _S6 and part.borrowed < 0:
        actions += [BorrowMonasteries(other) for other in range(len(state.players))
                    if other != seat]
    return actions


def _tribute_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """Which shields to keep at 1 each, and how much of it in workers (only while keeping
    shield #3); a shield not paid for leaves the game."""
    held = shield_numbers(state.modules[_PART].held[state.order[state.turn]])
    actions: list[Action] = []
    for size in range(len(held) + 1):
        for keep in itertools.combinations(held, size):
            cost = SHIELD_TRIBUTE * size
            most = min(cost, p.workers) if Shield.TRIBUTE_WORKERS in keep else 0
            actions += [PayTribute(keep, w) for w in range(max(0, cost - p.silver), most + 1)]
    return actions


def _shield_tile_choices(state: GameState, p: PlayerState, numbered: int) -> list[Action]:
    """Shield #14 (``numbered`` 1: any numbered depot) or #15 (0: the black depot): a tile
    and a space it may go on (colour, adjacency and city rules; any die), or Pass."""
    actions: list[Action] = []
    spaces: dict[int, list[int]] = {}
    for depot in (range(1, 7) if numbered else (0,)):
        for slot, tile in enumerate(state.depots[depot]):
            if tile == EMPTY:
                continue
            if tile not in spaces:
                alone = p.copy()
                alone.storage = (tile,)
                spaces[tile] = [a.space for a in _placements(state, alone, 0, 0, 1)
                                if isinstance(a, PlaceTile)]
            actions += [PlaceFromDepot(depot, slot, space) for space in spaces[tile]]
    actions.append(PASS)
    return actions


def _shield_goods_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """Shield #5 after a ship: every goods tile of one type from all depots (a type you hold
    or have room for), or Pass."""
    room = sum(1 for g in p.goods if g) < GOODS_SLOTS
    actions: list[Action] = []
    for g in range(1, 7):
        depots = tuple(d for d in range(1, 7) if state.depot_goods[d][g])
        if depots and (room or p.goods[g]):
            actions.append(TakeGoods(depots, (g,)))
    actions.append(PASS)
    return actions


def _free_choices_with_shield(state: GameState, p: PlayerState,
                              castle_shield: int) -> list[Action]:
    """A castle's extra action (``castle_shield`` 1: placed with shield #11, which may take
    any shield instead)."""
    actions = _free_choices(state, p, castle_shield)
    if castle_shield:
        replaces = _replace_options(p, state.modules[_PART].held[state.order[state.turn]])
        actions += [TakeShield(shield, r) for depot in state.modules[_PART].depot_shields
                    for shield in depot for r in replaces]
    return actions


def _discard_any_choices(state: GameState, p: PlayerState, any_tile: int) -> list[Action]:
    """The three older tiles; any tile (``any_tile`` 1) when shield #4 left with more than
    three tiles stored."""
    if not any_tile:
        return _discard_choices(state, p, any_tile)
    return [DISCARD[i] if i < len(DISCARD) else Discard(i) for i in range(len(p.storage))]


def _discard_any(turn: _Turn, action: Discard, any_tile: int) -> None:
    if not any_tile:
        _discard(turn, action, any_tile)
        return
    p = turn.p
    if not (isinstance(action.storage, int) and 0 <= action.storage < len(p.storage)):
        raise turn.fail(action, f"shield #4 is gone: discard one of your {len(p.storage)} "
                                f"stored tiles (storage 0..{len(p.storage) - 1})")
    discard(turn, action.storage)


def _phase_end_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    return [END_TURN]  # a turn of the phase end: its steps are done


def _end_phase(state: GameState) -> bool:
    """Every player has played the phase's last round: the shield holders play a turn of the
    phase end each first, in this round's turn order."""
    held = state.modules[_PART].held
    state.changed(_PART).closing = tuple(seat for seat in state.order if held[seat])
    _next_closer(state)
    return bool(state.modules[_PART].closing)


def _end_phase_turn(turn: _Turn, action: EndTurn, _: int) -> None:
    """A turn of the phase end is over: the next holder's, or the phase ends."""
    new = turn.new
    _turn_ended(new)
    new.changed(_PART).closing = new.modules[_PART].closing[1:]
    _next_closer(new)
    if not new.modules[_PART].closing:
        finish_phase(new)


def _next_closer(state: GameState) -> None:
    """Give the phase end's turn to the first of ``state.closing`` with a decision: shield
    #14's and #15's tiles, then the tribute. A tribute with only one choice (nothing to pay
    it with) is paid at once, without a turn."""
    while state.modules[_PART].closing:
        seat = state.modules[_PART].closing[0]
        held = state.modules[_PART].held[seat]
        p = state.players[seat]
        state.turn = state.order.index(seat)
        steps: list[tuple[int, int]] = [(Step.TRIBUTE, 0)]
        if held & _S15 and len(_shield_tile_choices(state, p, 0)) > 1:
            steps.append((Step.SHIELD_TILE, 0))
        if held & _S14 and len(_shield_tile_choices(state, p, 1)) > 1:
            steps.append((Step.SHIELD_TILE, 1))
        if len(steps) == 1 and len(_tribute_choices(state, p, 0)) == 1:
            p = p.copy()
            discards = _drop_shields(state, seat, p, held)
            players = list(state.players)
            players[seat] = p
            state.players = tuple(players)
            if not discards:
                state.changed(_PART).closing = state.modules[_PART].closing[1:]
                continue
            steps = [(_DISCARD_STEP, 1)] * discards
        state.pending = tuple(steps)
        return


def _drop_shields(state: GameState, seat: int, p: PlayerState, lost: int) -> int:
    """Shields ``lost`` leave ``seat`` (``p``, a fresh copy) and the game. Returns how many
    tiles the player must discard (shield #4 gone with more than three stored)."""
    part = state.changed(_PART)
    shields = list(part.held)
    shields[seat] &= ~lost
    part.held = tuple(shields)
    part.shield_box |= lost
    if lost & _S6:
        part.borrowed = -1
        p.knowledge = _own_knowledge(p.estate)
    if lost & _S4:
        return max(0, len(p.storage) - STORAGE_SPACES)
    return 0


def _own_knowledge(estate: tuple[int, ...]) -> int:
    """The knowledge bits of the tiles in ``estate``."""
    bits_ = 0
    for tile in estate:
        if tile >= 0 and KNOWLEDGE_NUMBER[tile]:
            bits_ |= 1 << KNOWLEDGE_NUMBER[tile]
    return bits_


def _turn_ended(state: GameState) -> None:
    if state.modules[_PART].die_changed:  # a write copies the module fields: only when one changes
        state.changed(_PART).die_changed = False


def _phase_income(state: GameState, players: list[PlayerState]) -> None:
    """Mines pay double with shield #8; the holder of shield #2 gains 1 worker for each
    other player whose mines gave workers (knowledge #2)."""
    echo = _holder(state, Shield.WORKERS)
    echoes = 0
    for seat, p in enumerate(players):
        mines = mine_count(state.boards[seat], p)
        if state.modules[_PART].held[seat] & _S8:
            p.silver += mines
        if p.knowledge & _K2 and mines and echo >= 0 and seat != echo:
            echoes += 1
    if echoes:
        players[echo].workers += echoes


def _final_points(state: GameState, seat: int, p: PlayerState) -> None:
    p.add_vp(Category.SHIELDS, shield_points(
        state.modules[_PART].held[seat], knowledge_points(p, state.config.edition)))


def _tile_placed(turn: _Turn, tile: int, space: int, before: int) -> None:
    """Shield #1: all pastures are one when animals score; #17: a completed area scores as
    one size bigger."""
    held = turn.new.modules[_PART].held[turn.seat]
    if not held & (_S1 | _S17):
        return
    p = turn.p
    board = turn.new.boards[turn.seat]
    region = board.regions[board.region_of[space]]
    if held & _S1 and TILE_COLOUR[tile] == _LIGHT_GREEN:
        p.add_vp(Category.ANIMALS, animal_points(p, tile, board.colour_masks[_LIGHT_GREEN])
                 - animal_points(p, tile, region.mask))
    if held & _S17 and not region.mask & ~p.occupied:
        area_size = turn.rules.area_size
        size = region.size if area_size is None else area_size(board, p, space)
        p.add_vp(Category.SHIELDS, REGION_VP[size + 1] - REGION_VP[size])


def _colour_bonus_scored(turn: _Turn, points: int) -> None:
    if turn.new.modules[_PART].held[turn.seat] & _S7:  # bonus tiles score double
        turn.p.add_vp(Category.SHIELDS, points)


def _tile_effect(turn: _Turn, tile: int) -> bool:
    """Shield #5: a ship also takes every goods tile of one type (after its goods); #11: a
    castle's extra action may take a shield."""
    colour = TILE_COLOUR[tile]
    held = turn.new.modules[_PART].held[turn.seat]
    if colour == _BLUE:
        if held & _S5 and any(map(any, turn.new.depot_goods)):
            turn.push(Step.SHIELD_GOODS)  # the base game's SHIP comes on top of it
    elif colour == _DARK_GREEN and held & _S11:
        turn.push(_FREE_STEP, 1)
        return True
    return False


def _knowledge_placed(turn: _Turn, number: int) -> None:
    if turn.new.modules[_PART].borrowed == turn.seat:  # shield #6: it counts for its holder too
        _lend_knowledge(turn.new, 1 << number)


def _goods_sold(turn: _Turn, goods: int, count: int) -> None:
    """Shield #9: a silverling per goods tile sold (not 1 a sale); #12: sold goods score
    double."""
    held = turn.new.modules[_PART].held[turn.seat]
    if held & _S9:
        turn.p.silver += count - 1
    if held & _S12:
        turn.p.add_vp(Category.SHIELDS, SALE_VP[turn.new.config.table_players] * count)


def _workers_gained(turn: _Turn) -> None:
    """Shield #2: another player gains workers, its holder gains 1."""
    echo = _holder(turn.new, Shield.WORKERS)
    if echo >= 0 and echo != turn.seat:
        players = list(turn.new.players)
        other = players[echo].copy()
        other.workers += 1
        players[echo] = other
        turn.new.players = tuple(players)


def _check_shield(turn: _Turn, action: TakeShield) -> int:
    """The depot holding ``action.shield``, once the shield and its castle are valid."""
    shield, replace = action.shield, action.replace
    depot = next((d for d, on in enumerate(turn.old.modules[_PART].depot_shields)
                  if type(shield) is int and shield in on), 0)
    if not depot:
        lying = ", ".join(f"#{n} on depot {d}"
                          for d, on in enumerate(turn.old.modules[_PART].depot_shields)
                          for n in on) or "none"
        raise turn.fail(action, f"shield {shield} lies on no depot (shields left: {lying})")
    held = turn.old.modules[_PART].held[turn.seat]
    if type(replace) is not int or replace not in _replace_options(turn.p, held):
        if replace == 0:
            raise turn.fail(action, "each of your castles already holds a shield: replace "
                                    "one (replace = its number)")
        mine = ", ".join(map(str, shield_numbers(held))) or "none"
        raise turn.fail(action, f"you hold no shield {replace} to replace (yours: {mine})")
    return depot


def _put_shield(turn: _Turn, action: TakeShield, depot: int) -> None:
    """Move the shield from its depot onto a castle of the mover's (the replaced one leaves
    the game)."""
    new = turn.new
    part = new.changed(_PART)
    on_depots = list(part.depot_shields)
    on_depots[depot] = tuple(n for n in on_depots[depot] if n != action.shield)
    part.depot_shields = tuple(on_depots)
    shields = list(part.held)
    shields[turn.seat] |= 1 << action.shield
    part.held = tuple(shields)
    if action.replace:
        for _ in range(_drop_shields(new, turn.seat, turn.p, 1 << action.replace)):
            turn.push(_DISCARD_STEP, 1)


def _take_shield(turn: _Turn, action: TakeShield, _: int) -> None:
    """On a double (workers may make one), a shield instead of both die actions."""
    depot = _check_shield(turn, action)
    p = turn.p
    if p.dice_used:
        raise turn.fail(action, "a shield takes both dice: take it before using either")
    cost = shield_cost(p, depot)
    if cost > p.workers:
        raise turn.fail(action, f"shield {action.shield} lies on depot {depot}: making a "
                                f"double {depot} of your {p.dice[0]} and {p.dice[1]} takes "
                                f"{cost} workers; you have {p.workers}")
    p.workers -= cost
    p.dice_used = _BOTH_DICE
    _put_shield(turn, action, depot)


def _castle_shield(turn: _Turn, action: TakeShield, castle_shield: int) -> None:
    """Shield #11: a castle's extra action takes any shield."""
    if not castle_shield:
        raise turn.fail(action, "only a castle placed while you hold shield #11 takes a shield "
                                "with its extra action")
    _put_shield(turn, action, _check_shield(turn, action))


def _pay_tribute(turn: _Turn, action: PayTribute, _: int) -> None:
    if action not in _tribute_choices(turn.old, turn.p, 0):
        held = ", ".join(map(str, shield_numbers(turn.old.modules[_PART].held[turn.seat])))
        raise turn.fail(action, f"keep some of your shields ({held}) at 1 each, paid in "
                                f"silverlings (you have {turn.p.silver}) or, while you keep "
                                f"shield #3, workers (you have {turn.p.workers})")
    p = turn.p
    p.workers -= action.workers
    p.silver -= SHIELD_TRIBUTE * len(action.keep) - action.workers
    kept = sum(1 << n for n in action.keep)
    dropped = turn.old.modules[_PART].held[turn.seat] & ~kept
    for _ in range(_drop_shields(turn.new, turn.seat, p, dropped)):
        turn.push(_DISCARD_STEP, 1)


def _borrow(turn: _Turn, action: BorrowMonasteries, _: int) -> None:
    if not turn.old.modules[_PART].held[turn.seat] & _S6:
        raise turn.fail(action, "only the holder of shield #6 chooses, on its turn")
    if turn.old.modules[_PART].borrowed >= 0:
        raise turn.fail(action, f"you chose seat {turn.old.modules[_PART].borrowed} already")
    seat = action.seat
    if not (type(seat) is int and 0 <= seat < len(turn.old.players)) or seat == turn.seat:
        raise turn.fail(action, "choose another player's seat")
    turn.new.changed(_PART).borrowed = seat
    turn.p.knowledge |= _own_knowledge(turn.old.players[seat].estate) & _LENT


_LENT: Final = ~(1 << 27)
"""Knowledge that counts for shield #6's holder: all but #27 (two pieces cannot both be on
top of one stack on the bridge)."""


def _lend_knowledge(state: GameState, knowledge: int) -> None:
    """Shield #6: a knowledge tile the chosen player placed counts for the holder too."""
    holder = _holder(state, Shield.MONASTERIES)
    players = list(state.players)
    p = players[holder].copy()
    p.knowledge |= knowledge & _LENT
    players[holder] = p
    state.players = tuple(players)


def _set_die(turn: _Turn, action: SetDie, _: int) -> None:
    p = turn.p
    if not turn.old.modules[_PART].held[turn.seat] & _S16:
        raise turn.fail(action, "setting a die needs shield #16")
    if turn.old.modules[_PART].die_changed:
        raise turn.fail(action, "shield #16 sets one die a turn; you set one already")
    if type(action.die) is not int or action.die not in (0, 1) or p.dice_used >> action.die & 1:
        raise turn.fail(action, "set one of your unused dice (0 or 1)")
    if type(action.value) is not int or not 1 <= action.value <= 6:
        raise turn.fail(action, "a die shows 1..6")
    if p.dice[action.die] == action.value:
        raise turn.fail(action, f"die {action.die} shows {action.value} already")
    dice = list(p.dice)
    dice[action.die] = action.value
    p.dice = (dice[0], dice[1])
    turn.new.changed(_PART).die_changed = True


def _place_from_depot(turn: _Turn, action: PlaceFromDepot, numbered: int) -> None:
    """Shields #14 and #15: a depot's tile straight onto the estate, its effect as placed."""
    if action not in _shield_tile_choices(turn.old, turn.p, numbered):
        where = "a numbered depot (1..6)" if numbered else "the black depot (0)"
        raise turn.fail(action, f"your shield places a tile of {where} on a space it may go "
                                "on (colour, next to your tiles, one building of a kind a "
                                "city), or passes")
    depots = list(turn.new.depots)
    row = list(depots[action.depot])
    tile = row[action.slot]
    row[action.slot] = EMPTY
    depots[action.depot] = tuple(row)
    turn.new.depots = tuple(depots)
    turn.p.storage = (*turn.p.storage, tile)
    _place(turn, len(turn.p.storage) - 1, action.space)


def _shield_goods(turn: _Turn, action: TakeGoods, _: int) -> None:
    if action not in _shield_goods_choices(turn.old, turn.p, 0):
        raise turn.fail(action, "shield #5 takes one goods type from every depot that has "
                                "it, a type you hold or have room for")
    (g,) = action.keep
    goods = list(turn.new.depot_goods)
    held = list(turn.p.goods)
    for d in action.depots:
        row = list(goods[d])
        held[g] += row[g]
        row[g] = 0
        goods[d] = tuple(row)
    turn.new.depot_goods = tuple(goods)
    turn.p.goods = tuple(held)


def _plays(config: GameConfig) -> bool:
    return Module.SHIELDS in config.modules


_PHASE_END_RULE: Final = "The phase is over: your shields act (tiles, tribute) before mines pay."
SHIELD_RULE: Final = "A shield works while it stands on one of your castles (i: what each does)."
"""The rule of a shield's choice, in a line of a client's help page."""


def _tile_shield(state: GameState) -> dict[str, int]:
    """Which shield places a tile at the phase end: #14 (argument 1: from a numbered depot) or
    #15 (argument 0: from the black depot)."""
    return {"shield": 14 if state.pending[-1][1] else 15}


def _visible(state: GameState) -> dict[str, object]:
    part = state.modules[_PART]
    return {"shields": {"depots": [list(on) for on in part.depot_shields],
                        "box": list(shield_numbers(part.shield_box)),
                        "borrowed": part.borrowed, "die_changed": part.die_changed,
                        "closing": list(part.closing)}}


def _seat_visible(state: GameState, seat: int) -> dict[str, object]:
    return {"shields": list(shield_numbers(state.modules[_PART].held[seat]))}


def _depot_of(state: GameState, shield: int) -> int:
    """The depot a shield lies on."""
    return next(d for d, on in enumerate(state.modules[_PART].depot_shields) if shield in on)


def _shield_label(state: GameState, action: TakeShield, _: Wording) -> str:
    instead = f" (instead of #{action.replace})" if action.replace else ""
    return (f"#{action.shield} from depot {_depot_of(state, action.shield)}: "
            f"{SHIELD_WORDS[action.shield]}{instead}")


def _shield_brief(state: GameState, action: TakeShield, _: Wording) -> str:
    instead = f" for #{action.replace}" if action.replace else ""
    return f"#{action.shield} depot {_depot_of(state, action.shield)}{instead}"


def _took_shield(state: GameState, action: TakeShield, w: Wording) -> str:
    instead = f", instead of #{action.replace}" if action.replace else ""
    return (f"took shield #{action.shield} ({SHIELD_WORDS[action.shield]}) from depot "
            f"{_depot_of(state, action.shield)}{w.how or ' with a double'}{instead}")


def _shield_group(state: GameState) -> tuple[str, str, str]:
    label = ("take a shield instead of both dice" if state.step == Step.TURN
             else "take a shield (shield #11)")
    return "h", label, "Put which shield on a castle?"


def _die_set(state: GameState, action: SetDie, _: Wording) -> str:
    die = state.players[state.to_move or 0].dice[action.die]
    return f"die {action.die + 1}: the {die} becomes a {action.value}"


def _turned_die(state: GameState, action: SetDie, _: Wording) -> str:
    die = state.players[state.to_move or 0].dice[action.die]
    return f"turned the {die} into a {action.value} with shield #16"


def _borrowed(state: GameState, action: BorrowMonasteries, w: Wording) -> str:
    return (f"chose {w.name(action.seat)}: their knowledge tiles count for "
            f"{w.name(state.to_move or 0)} too (shield #6)")


def tribute_words(_: GameState, action: PayTribute, w: Wording) -> str:
    """What a tribute keeps and costs: ``keep #3, #12 for 1 silverling and 1 worker``, or
    ``keep no shield (all leave the game)``."""
    if not action.keep:
        return "keep no shield (all leave the game)"
    silver = len(action.keep) - action.workers
    paid = " and ".join(w.plural(n, word) for n, word in ((silver, "silverling"),
                                                           (action.workers, "worker")) if n)
    return f"keep {', '.join(f'#{n}' for n in action.keep)} for {paid}"


def _depot_tile(state: GameState, action: PlaceFromDepot) -> tuple[str, int, Target]:
    return (depot_name(action.depot), state.depots[action.depot][action.slot],
            ("depot", action.depot, action.slot))


def _placed_from_depot(state: GameState, action: PlaceFromDepot, w: Wording) -> str:
    tile = state.depots[action.depot][action.slot]
    space = state.boards[state.to_move or 0].label(action.space)
    return f"placed {w.tile(tile)} from depot {action.depot} on {space}"


_ACTION_WORDS: Final = (
    ActionWords(TakeShield, label=_shield_label, brief=_shield_brief, sentence=_took_shield,
                gains=True, group=_shield_group,
                target=lambda state, action: ("shield", _depot_of(state, action.shield),
                                              action.shield)),
    ActionWords(SetDie, label=_die_set, sentence=_turned_die,
                group=lambda _: ("d", "set a die to any number (shield #16)", "Set which die?")),
    ActionWords(BorrowMonasteries, label=lambda _, action, _w: f"the player in seat "
                                                               f"{action.seat + 1}",
                sentence=_borrowed,
                group=lambda _: ("m", "choose whose knowledge tiles count as yours (#6)",
                                 "Whose knowledge tiles count for you?")),
    ActionWords(PayTribute, label=tribute_words,
                sentence=lambda state, action, w: "paid the shields' tribute: "
                                                  + tribute_words(state, action, w)),
    ActionWords(PlaceFromDepot,
                label=lambda state, action, _: state.boards[state.to_move or 0].label(
                    action.space),
                sentence=_placed_from_depot, gains=True,
                tile=lambda state, action: state.depots[action.depot][action.slot],
                target=lambda _, action: ("space", action.space, 0), place=_depot_tile),
)
"""The words for the shields' own choices (a shield taken, a die set, whose monasteries, the
tribute, a depot's tile placed by shield #14 or #15)."""


SHIELDS: Final = EngineModule(
    name=Module.SHIELDS.value,
    description="18 shields on the depots, taken on a double: each gives its holder an "
                "ability, costs a tribute at each phase end and scores at the end",
    plays=_plays,
    summary="18 shields: taken on a double, an ability each",
    steps=(
        StepWords(Step.TRIBUTE, "the phase ends: pay 1 for each shield you keep",
                  prompt="Phase end: pay 1 for each shield you keep",
                  reminder="Each shield you keep costs 1 silverling now; the others leave the "
                           "game."),
        StepWords(Step.SHIELD_TILE, "the phase ends: your shield places a depot's tile on your "
                                    "estate (or pass)",
                  prompt="Phase end, shield #{shield}: place a tile now", fields=_tile_shield,
                  name="shield's tile", actor="shield", passing="pass (place none)",
                  reminder=_PHASE_END_RULE),
        StepWords(Step.SHIELD_GOODS, "your shield takes every goods tile of one type from the "
                                     "depots (or pass)",
                  prompt="Shield #5: every goods tile of one type", name="shield's goods",
                  actor="shield #5", passing="pass (take none)",
                  reminder=SHIELD_RULE),
        StepWords(Step.PHASE_END, "your turn of the phase end is done: end it",
                  prompt="The phase is over: end your turn", reminder=_PHASE_END_RULE),
    ),
    actions=_ACTION_WORDS,
    choices=(
        (Step.FREE_ACTION, _free_choices_with_shield),
        (Step.DISCARD, _discard_any_choices),
        (Step.TRIBUTE, _tribute_choices),
        (Step.SHIELD_TILE, _shield_tile_choices),
        (Step.SHIELD_GOODS, _shield_goods_choices),
        (Step.PHASE_END, _phase_end_choices),
    ),
    handlers=(
        (Step.TURN, TakeShield, _take_shield),
        (Step.TURN, SetDie, _set_die),
        (Step.TURN, BorrowMonasteries, _borrow),
        (Step.FREE_ACTION, TakeShield, _castle_shield),
        (Step.DISCARD, Discard, _discard_any),
        (Step.TRIBUTE, PayTribute, _pay_tribute),
        (Step.SHIELD_TILE, PlaceFromDepot, _place_from_depot),
        (Step.SHIELD_TILE, Pass, _pass),
        (Step.SHIELD_GOODS, TakeGoods, _shield_goods),
        (Step.SHIELD_GOODS, Pass, _pass),
        (Step.PHASE_END, EndTurn, _end_phase_turn),
    ),
    categories=((Category.SHIELDS, "shields"),),
    part=ShieldsPart,
    visible=_visible,
    seat_visible=_seat_visible,
    setup=_draw_shields,
    setup_drew=_shields_drawn,
    drawn=_DRAWN,
    turn_choices=_shield_turn_choices,
    idle_step=(_PART, "closing", Step.PHASE_END),  # a turn of the phase end: no TURN
    turn_ended=_turn_ended,
    phase_end=_end_phase,
    phase_income=_phase_income,
    final_points=_final_points,
    anywhere=_S18,
    tile_placed=_tile_placed,
    colour_bonus_scored=_colour_bonus_scored,
    tile_effects=tuple((tile, _tile_effect) for tile in range(TILE_COUNT)
                       if TILE_COLOUR[tile] in (_BLUE, _DARK_GREEN)),
    unlimited_storage=_S4,
    knowledge_placed=_knowledge_placed,
    goods_sold=_goods_sold,
    workers_gained=_workers_gained,
)
