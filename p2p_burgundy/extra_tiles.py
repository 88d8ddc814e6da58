"""The extra tiles module as an engine module: the crane's step (CRANE: trigger the effect of
any building, or pass), buying workers with monastery #28 (in the TURN step), and its tiles
(monasteries #27 and #28, the crane, the geese), whose other effects are the base game's
rules for tiles of their kinds."""

from __future__ import annotations

from typing import Final

from .actions import BUY_WORKERS, PASS, USE_BUILDING, Action, BuyWorkers, Pass, UseBuilding
from .config import GameConfig, Module
from .rules import (
    _BUILDING_STEP,
    _CHOICES,
    EngineModule,
    StepWords,
    _gain_workers,
    _pass,
    _rules,
    _Turn,
    tile_effect,
)
from .state import GameState, PlayerState, Step
from .tiles import Tile, tile_name
from .words import ActionWords, Wording

WORKERS_BOUGHT: Final = 2  # knowledge #28: 2 workers for 1 silverling
_K28: Final = 1 << 28
_CRANE: Final = int(Tile.CRANE)


def _crane_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    """The buildings whose effect the crane can trigger now (an effect with nothing to choose
    from is not offered), and Pass."""
    actions: list[Action] = []
    for building in _rules(state.config).crane_buildings:
        step = _BUILDING_STEP.get(building)
        if step is None or len(_CHOICES[step](state, p, step)) > 1:
            actions.append(USE_BUILDING[building])
    actions.append(PASS)
    return actions


def _use_building(turn: _Turn, action: UseBuilding, _: int) -> None:
    if action not in _crane_choices(turn.old, turn.p, 0):
        usable = ", ".join(str(a.building) for a in _crane_choices(turn.old, turn.p, 0)
                           if isinstance(a, UseBuilding))
        raise turn.fail(action, f"the crane can trigger the effect of buildings {usable} "
                                "now (by tile number)")
    tile_effect(turn, action.building)


def _crane_placed(turn: _Turn, tile: int) -> bool:
    """The crane, placed: it may trigger the effect of any building."""
    if tile != _CRANE:
        return False
    turn.push(Step.CRANE)
    return True


def _buy_workers_choice(state: GameState, p: PlayerState) -> list[Action]:
    return [BUY_WORKERS] if p.knowledge & _K28 and p.silver else []


def _buy_workers(turn: _Turn, action: BuyWorkers, _: int) -> None:
    p = turn.p
    if not p.knowledge & _K28:
        raise turn.fail(action, "buying workers needs knowledge #28")
    if not p.silver:
        raise turn.fail(action, "2 workers cost 1 silverling; you have none")
    p.silver -= 1
    _gain_workers(turn, WORKERS_BOUGHT)


def _plays(config: GameConfig) -> bool:
    return Module.EXTRA_TILES in config.modules


_BUY_WORKERS_WORDS: Final = ActionWords(
    BuyWorkers, label=lambda _s, _a, _w: "buy 2 workers for 1 silverling (#28)",
    sentence=lambda _s, _a, _w: "bought 2 workers for 1 silverling", key="w", gains=True)


def _as_building(_: GameState, action: UseBuilding, _w: Wording) -> str:
    return f"as a {tile_name(action.building)}"


def _worked_as(_: GameState, action: UseBuilding, _w: Wording) -> str:
    return f"worked as a {tile_name(action.building)}"


_USE_BUILDING_WORDS: Final = ActionWords(UseBuilding, label=_as_building, sentence=_worked_as,
                                         gains=True, tile=lambda _, action: action.building)


EXTRA_TILES: Final = EngineModule(
    name=Module.EXTRA_TILES.value,
    description="monasteries #27 (on top of any stack on the bridge) and #28 (buy 2 workers "
                "for 1 silverling), the crane and the geese",
    plays=_plays,
    summary="monasteries #27 #28, the crane, the geese",
    steps=(StepWords(Step.CRANE, "the crane may trigger the effect of any building (or pass)",
                     prompt="Crane: trigger the effect of any building", name="crane"),),
    actions=(_BUY_WORKERS_WORDS, _USE_BUILDING_WORDS),
    choices=((Step.CRANE, _crane_choices),),
    handlers=(
        (Step.CRANE, UseBuilding, _use_building),
        (Step.CRANE, Pass, _pass),
        (Step.TURN, BuyWorkers, _buy_workers),
    ),
    tiles=(Tile.KNOWLEDGE_27, Tile.KNOWLEDGE_28, Tile.CRANE, Tile.GEESE),
    turn_choices=_buy_workers_choice,
    turn_choices_knowledge=_K28,
    tile_effects=((_CRANE, _crane_placed),),
)
