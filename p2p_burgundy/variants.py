"""Every engine module, in one registry: the solo game, the team game and the expansion
modules, each as the rows it adds to the rules (:class:`p2p_burgundy.rules.EngineModule`). A
game binds the rows of the modules its config plays, once per variant; the client and the bots
read here what each module adds (its steps and its own action types and the words for them, its
tiles, its scoring categories and their names, its summary, the sides of a game it plays by
sides), so they name no module's step, nor its action types for their words, nor the sides of
its outcome, themselves.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any, Final

from .actions import Action, Buy
from .border_posts import BORDER_POSTS
from .chance import SetupDraw
from .config import GameConfig
from .extra_tiles import EXTRA_TILES
from .inns import INNS
from .rules import EngineModule, StepWords
from .scoring import Category, Outcome, Side
from .shields import SHIELDS
from .solo import SOLO
from .state import GameState
from .team import TEAM
from .trade_routes import TRADE_ROUTES
from .white_castles import WHITE_CASTLES
from .words import ActionWords, DepotWords, DrawWords

ENGINE_MODULES: Final[tuple[EngineModule, ...]] = (
    INNS, EXTRA_TILES, WHITE_CASTLES, BORDER_POSTS, TRADE_ROUTES, SOLO, SHIELDS, TEAM)
"""Every engine module, each once; a game plays those whose ``plays(config)`` holds. Their
hooks run in this order (the inns' purchases come before monastery #28's workers and the
shields' choices in the TURN step; the trade routes' deal before the shields' draw), and a
state holds their fields in it."""


def modules_of(config: GameConfig) -> tuple[EngineModule, ...]:
    """The engine modules a game of ``config`` plays."""
    return tuple(module for module in ENGINE_MODULES if module.plays(config))


MODULES_BY_NAME: dict[str, EngineModule] = {module.name: module for module in ENGINE_MODULES}
"""Each engine module by its name (a :class:`~p2p_burgundy.config.Module`'s value for a module
a config switches on)."""

STEP_WORDS: dict[int, StepWords] = {
    words.step: words for module in ENGINE_MODULES for words in module.steps}
"""The words for each step a module adds, by step (the base game's steps have none here)."""

CATEGORY_NAMES: dict[Category, str] = {
    category: words for module in ENGINE_MODULES for category, words in module.categories}
"""The name on a score sheet of each scoring category a module brings."""

ACTION_WORDS: dict[type[Action], ActionWords] = {
    words.action: words for module in ENGINE_MODULES for words in module.actions}
"""The words for each action type only a module's rows take, by type, in registry order (the
base game's action types have none here)."""

DEPOTS: dict[int, DepotWords] = {
    depot.depot: depot for module in ENGINE_MODULES for depot in module.depots}
"""Each place to buy from that a module adds beside the depots, by its number in a ``Buy``."""

DRAW_WORDS: dict[str, DrawWords] = {
    module.drawn.field: module.drawn for module in ENGINE_MODULES if module.drawn}
"""The words for what each module draws at set-up, by its field of
:class:`~p2p_burgundy.chance.SetupDraw`."""


def drawn_at_setup(draw: SetupDraw) -> list[tuple[DrawWords, Any]]:
    """What the modules drew at set-up, each with its words, in the order of ``draw``'s
    fields (the shields before the trade route cards); a module the game does not play drew
    nothing.

    >>> from p2p_burgundy.chance import SetupDraw
    >>> [(words.what, value) for words, value in drawn_at_setup(SetupDraw(0, (), (), ((7, 3),)))]
    [('trade route cards dealt', ((7, 3),))]
    """
    return [(DRAW_WORDS[field.name], getattr(draw, field.name)) for field in fields(draw)
            if field.name in DRAW_WORDS and getattr(draw, field.name)]


def bought_tile(state: GameState, action: Buy) -> int:
    """The tile ``action`` would buy: a depot's tile, or the tile of a place a module adds
    (an inn from beside the black depot).

    >>> from p2p_burgundy import GameConfig, new_game
    >>> from p2p_burgundy.inns import INN_DEPOT
    >>> from p2p_burgundy.tiles import Tile
    >>> bought_tile(new_game(GameConfig(players=2)), Buy(INN_DEPOT, 0)) == Tile.INN
    True
    """
    depot = DEPOTS.get(action.depot)
    return depot.tile if depot is not None else state.depots[action.depot][action.slot]


def sides(config: GameConfig, result: Outcome) -> tuple[Side, ...]:
    """The sides of a game of ``config`` that a module plays by sides (the team game's teams),
    the leading side first, as ``result`` ranks them; none in any other game."""
    return next((module.sides(config, result) for module in modules_of(config) if module.sides),
                ())
