"""The white castles module as an engine module: the WHITE_CASTLE step (a white castle's
action with the white die's number, workers allowed), its tiles, and the white castle among
the buildings the crane may copy."""

from __future__ import annotations

from .actions import Action
from .config import GameConfig, Module
from .rules import EngineModule, StepWords, _action_choices, _make_action_handler, _Turn
from .state import GameState, PlayerState, Step
from .tiles import Tile

_WHITE_CASTLE = int(Tile.WHITE_CASTLE)


def _white_castle_choices(state: GameState, p: PlayerState, _: int) -> list[Action]:
    return _action_choices(state, p, state.white_die, p.workers)


def _white_die(state: GameState, p: PlayerState, _: int) -> int:
    return state.white_die


def _white_castle_placed(turn: _Turn, tile: int) -> bool:
    """A white castle, placed (or copied by the crane): an action with the white die."""
    if tile != _WHITE_CASTLE:
        return False
    turn.push(Step.WHITE_CASTLE)
    return True


def _plays(config: GameConfig) -> bool:
    return Module.WHITE_CASTLES in config.modules


WHITE_CASTLES = EngineModule(
    name=Module.WHITE_CASTLES.value,
    description="eight white castles: placed, a white castle gives an action with the white "
                "die's number (workers allowed); and monastery #29",
    plays=_plays,
    summary="8 white castles: an action with the white die",
    steps=(StepWords(Step.WHITE_CASTLE, "the white castle's action with the white die: take, "
                                        "place, sell or take workers",
                     prompt="White castle: one action with the white die's {white_die}",
                     brief="White castle: an action with a {white_die}",
                     pending="the white castle's action",
                     how=" with the white castle (the white die's {white_die})"),),
    choices=((Step.WHITE_CASTLE, _white_castle_choices),),
    handlers=tuple((Step.WHITE_CASTLE, cls, handler)
                   for cls, handler in _make_action_handler(_white_die).items()),
    tiles=(Tile.WHITE_CASTLE, Tile.KNOWLEDGE_29),
    crane_buildings=(Tile.WHITE_CASTLE,),
    tile_effects=((_WHITE_CASTLE, _white_castle_placed),),
)
