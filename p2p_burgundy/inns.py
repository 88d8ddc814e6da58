"""The inns module as an engine module: an inn comes out beside the black depot each phase,
bought there as a tile of the black depot is (``Buy(INN_DEPOT, 0)``); it goes on a space of
any colour, one inn an area, and an area with an inn scores as one size bigger.
"""

from __future__ import annotations

from typing import ClassVar, Final

from .actions import BUY, Action, Buy
from .config import GameConfig, Module
from .estate import Estate, bits
from .rules import (
    EngineModule,
    _buy,
    _store,
    _Turn,
    pay_purchase,
)
from .state import GameState, ModulePart, PlayerState, Step
from .tiles import MODULE_TILES, Tile
from .words import DepotWords

INN_DEPOT: Final = 7  # Buy(7, 0) buys the top inn beside the black depot
INN_SUPPLY: Final = max(MODULE_TILES[Module.INNS.value])  # the inns' stack in GameState.supplies
_INN: Final = int(Tile.INN)


class InnsPart(ModulePart):
    """How many inns lie stacked beside the black depot."""

    name: ClassVar[str] = "inns"
    fields: ClassVar[tuple[str, ...]] = ("inns",)
    __slots__ = fields
    inns: int

    @classmethod
    def start(cls, config: GameConfig) -> InnsPart:
        part = cls()
        part.inns = 0
        return part


def _inn_comes_out(state: GameState) -> None:
    """Each phase, one inn from the stack beside the black depot (they are all alike: no
    draw)."""
    if state.supplies[INN_SUPPLY]:
        supplies = list(state.supplies)
        supplies[INN_SUPPLY] = supplies[INN_SUPPLY][:-1]
        state.supplies = tuple(supplies)
        state.changed(InnsPart.name).inns += 1


def _inn_purchases(state: GameState, silver: bool, workers: bool) -> tuple[Action, ...]:
    """The top inn, paid as a depot's tile is (after the depots' purchases)."""
    if not state.modules["inns"].inns:
        return ()
    buy = BUY[INN_DEPOT][0]  # paid in silverlings, in workers
    if silver and workers:
        return buy
    return (buy[0],) if silver else (buy[1],)


def _buy_inn(turn: _Turn, action: Buy, arg: int) -> None:
    """A purchase: the top inn (depot 7), or a depot's tile as in the base game."""
    if action.depot != INN_DEPOT:
        _buy(turn, action, arg)
        return
    if turn.p.bought:
        raise turn.fail(action, "you already bought a tile this turn")
    if not turn.old.modules["inns"].inns or action.slot != 0:
        raise turn.fail(action, "no inn lies beside the black depot (Buy(7, 0) buys the top "
                                "inn)")
    pay_purchase(turn, action)
    turn.new.changed(InnsPart.name).inns -= 1
    _store(turn, _INN)


def _without_inn_areas(board: Estate, p: PlayerState, mask: int) -> int:
    """The spaces of ``mask`` whose area holds no inn yet (at most one inn per area)."""
    estate = p.estate
    if _INN not in estate:
        return mask
    for s in bits(p.occupied):
        if estate[s] == _INN:
            mask &= ~board.regions[board.region_of[s]].mask
    return mask


def _area_size(board: Estate, p: PlayerState, space: int) -> int:
    """The size ``space``'s area scores as: its spaces, one more with an inn in it."""
    region = board.regions[board.region_of[space]]
    if any(p.estate[s] == _INN for s in bits(region.mask)):
        return region.size + 1
    return region.size


def _plays(config: GameConfig) -> bool:
    return Module.INNS in config.modules


def _visible(state: GameState) -> dict[str, object]:
    return {"inns": state.modules["inns"].inns}


INNS: Final = EngineModule(
    name=Module.INNS.value,
    description="an inn a phase beside the black depot, bought as its tiles are: it goes on "
                "any colour, one an area, and its area scores as one size bigger",
    plays=_plays,
    summary="an inn a phase: its area scores one size bigger",
    handlers=((Step.TURN, Buy, _buy_inn),),
    depots=(DepotWords(INN_DEPOT, "beside the black depot", _INN),),
    tiles=(Tile.INN,),
    part=InnsPart,
    visible=_visible,
    phase_setup=_inn_comes_out,
    purchases=_inn_purchases,
    tile_spaces=((_INN, _without_inn_areas, "already has an inn (one inn per area)"),),
    area_size=_area_size,
)
