"""p2p-burgundy: The Castles of Burgundy, peer to peer on a LAN.

This package is the deterministic rules engine; ``p2p_burgundy.net`` is the protocol and
LAN layer, ``p2p_burgundy.cli`` the command line and terminal client.

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance, legal_actions, apply
>>> state = new_game(GameConfig(players=2))
>>> while state.chance:
...     state = resolve_chance(state, bytes(32))
>>> state = apply(state, legal_actions(state)[0])
"""

from .actions import (
    END_TURN,
    Action,
    BorrowMonasteries,
    Buy,
    BuyPoints,
    BuyWorkers,
    ChooseEstate,
    Discard,
    EndTurn,
    Pass,
    PayGoods,
    Payment,
    PayTribute,
    PlaceFromDepot,
    PlaceTile,
    SellGoods,
    SetDie,
    TakeFirst,
    TakeGoods,
    TakeShield,
    TakeTile,
    TakeWorkers,
    UseBuilding,
    UseDie,
    action_from_tree,
)
from .chance import ChanceEvent, ChanceKind
from .config import CHOOSE, Edition, GameConfig, Module, Setup
from .errors import ChanceError, ConfigError, EngineError, IllegalAction, RecordError
from .rules import apply, as_chooser, draw_chance, legal_actions, new_game, resolve_chance
from .scoring import Category, Outcome, outcome
from .state import GameState, PlayerState, Step, encode_state, state_hash
from .turn import Turn, ends_turn, play_turn

__all__ = [
    "CHOOSE",
    "END_TURN",
    "Action",
    "BorrowMonasteries",
    "Buy",
    "BuyPoints",
    "BuyWorkers",
    "Category",
    "ChanceError",
    "ChanceEvent",
    "ChanceKind",
    "ChooseEstate",
    "ConfigError",
    "Discard",
    "Edition",
    "EndTurn",
    "EngineError",
    "GameConfig",
    "GameState",
    "IllegalAction",
    "Module",
    "Outcome",
    "Pass",
    "PayGoods",
    "PayTribute",
    "Payment",
    "PlaceFromDepot",
    "PlaceTile",
    "PlayerState",
    "RecordError",
    "SellGoods",
    "SetDie",
    "Setup",
    "Step",
    "TakeFirst",
    "TakeGoods",
    "TakeShield",
    "TakeTile",
    "TakeWorkers",
    "Turn",
    "UseBuilding",
    "UseDie",
    "action_from_tree",
    "apply",
    "as_chooser",
    "draw_chance",
    "encode_state",
    "ends_turn",
    "legal_actions",
    "new_game",
    "outcome",
    "play_turn",
    "resolve_chance",
    "state_hash",
]
