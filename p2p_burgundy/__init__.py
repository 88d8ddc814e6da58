"""p2p-burgundy: The Castles of Burgundy, peer to peer on a LAN.

This package is the deterministic rules engine; ``p2p_burgundy.net`` is the protocol and
LAN layer, ``p2p_burgundy.cli`` the command line and terminal client.

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance, legal_actions, apply
>>> state = new_game(GameConfig(players=2))
>>> while state.chance:
...     state = resolve_chance(state, bytes(32))
>>> state = apply(state, legal_actions(state)[0])

The engine and the bots' value and search also come as an optional compiled build
(``tools/build_compiled.py``: the same source compiled by mypyc). Its extension modules sit
beside the source files and are imported in their place; with the environment variable
``P2P_BURGUNDY_PURE=1`` the package imports its source files only (as the tests do to compare
the two builds). So it does, saying why on stderr, when the compiled build is older than its
source (``build_record.py``). :func:`compiled_modules` says which build runs, and
:func:`stale_compiled_build` why a compiled build beside the source was left aside.
"""

import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, SOURCE_SUFFIXES, FileFinder, SourceFileLoader
from importlib.machinery import ModuleSpec as _ModuleSpec
from pathlib import Path as _Path
from types import ModuleType as _ModuleType


class _SourceOnly:
    """Finds this package's modules among source files only, ahead of the compiled ones."""

    @staticmethod
    def find_spec(name: str, path: Sequence[str] | None = None,
                  target: _ModuleType | None = None) -> _ModuleSpec | None:
        if not name.startswith(__name__ + ".") or not path:
            return None
        for folder in path:
            spec = FileFinder(folder, (SourceFileLoader, SOURCE_SUFFIXES)).find_spec(name, target)
            if spec is not None:
                return spec
        return None  # a folder mapped elsewhere (``p2p_burgundy.cli``): the install finds it


from . import build_record  # noqa: E402  (before any module the compiled build may hold)

_FOLDER = _Path(__file__).parent
_PURE_ASKED = os.environ.get("P2P_BURGUNDY_PURE") == "1"
_STALE = None if _PURE_ASKED else build_record.stale_build(_FOLDER)
if _STALE is not None:
    sys.stderr.write(build_record.warning(_STALE, _FOLDER))
if _PURE_ASKED or _STALE is not None:
    sys.meta_path.insert(0, _SourceOnly)


def stale_compiled_build() -> str | None:
    """Why the compiled build beside the source was left aside (what changed since it was
    built); None when there is none, it runs, or ``P2P_BURGUNDY_PURE=1`` asked for the source."""
    return _STALE


def compiled_modules() -> list[str]:
    """The names of this package's modules imported so far from the compiled build (none in
    the pure Python build)."""
    return sorted(name for name, module in list(sys.modules.items())
                  if name.startswith(__name__ + ".") and not name.endswith("__mypyc")
                  and str(getattr(module, "__file__", "")).endswith(tuple(EXTENSION_SUFFIXES)))


from .actions import (  # noqa: E402  (after the choice of build)
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
from .chance import ChanceEvent, ChanceKind  # noqa: E402
from .config import CHOOSE, Edition, GameConfig, Module, Setup  # noqa: E402
from .errors import ChanceError, ConfigError, EngineError, IllegalAction, RecordError  # noqa: E402
from .rules import apply, as_chooser, draw_chance, legal_actions, new_game, resolve_chance  # noqa: E402
from .scoring import Category, Outcome, outcome  # noqa: E402
from .state import GameState, PlayerState, Step, encode_state, state_hash  # noqa: E402
from .turn import Turn, ends_turn, play_turn  # noqa: E402

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
    "compiled_modules",
    "draw_chance",
    "encode_state",
    "ends_turn",
    "legal_actions",
    "new_game",
    "outcome",
    "play_turn",
    "resolve_chance",
    "stale_compiled_build",
    "state_hash",
]
