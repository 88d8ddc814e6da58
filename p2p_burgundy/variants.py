"""Every engine module, in one registry: the solo game, the team game and the expansion
modules, each as the rows it adds to the rules (:class:`p2p_burgundy.rules.EngineModule`). A
game binds the rows of the modules its config plays, once per variant; the client and the bots
read here what each module adds (its steps and what they ask, its tiles, its scoring categories).
"""

from __future__ import annotations

from typing import Final

from .border_posts import BORDER_POSTS
from .config import GameConfig
from .extra_tiles import EXTRA_TILES
from .inns import INNS
from .rules import EngineModule
from .shields import SHIELDS
from .solo import SOLO
from .team import TEAM
from .trade_routes import TRADE_ROUTES
from .white_castles import WHITE_CASTLES

ENGINE_MODULES: Final[tuple[EngineModule, ...]] = (
    INNS, EXTRA_TILES, WHITE_CASTLES, BORDER_POSTS, TRADE_ROUTES, SOLO, SHIELDS, TEAM)
"""Every engine module, each once; a game plays those whose ``plays(config)`` holds. Their
hooks run in this order (the inns' purchases come before monastery #28's workers and the
shields' choices in the TURN step; the trade routes' deal before the shields' draw), and a
state holds their fields in it."""


def modules_of(config: GameConfig) -> tuple[EngineModule, ...]:
    """The engine modules a game of ``config`` plays."""
    return tuple(module for module in ENGINE_MODULES if module.plays(config))
