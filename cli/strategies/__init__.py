"""Bots: strategies that pick one of the legal actions, as a player would.

A strategy sees only what its player sees (the engine state and the legal actions) and is
deterministic for a given seed: any randomness comes from its own ``random.Random(seed)``,
never from the engine. Make one by name with :func:`make`:

>>> from p2p_burgundy import GameConfig, apply, legal_actions, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> bot = make("greedy", seed=1)
>>> action = bot.choose(state, legal_actions(state))
>>> action in legal_actions(state)
True
>>> sorted(STRATEGIES)
['greedy', 'mcts', 'mcts-2026', 'random']

Search strategies (:data:`SEARCHERS`) also take a budget per decision: ``think`` seconds, or
``iterations`` (reproducible for a seed, whatever the machine's speed):

>>> make("mcts", seed=1, iterations=50)
MctsStrategy(iterations=50)

A strategy of your own is named ``package.module:Name`` (:mod:`.external`, ``docs/bots.md``):

>>> make("p2p_burgundy.cli.strategies.uniform:RandomStrategy", seed=1).name
'random'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from p2p_burgundy import Action, GameState

from .external import StrategyError, is_spec, make_external
from .greedy import GreedyStrategy
from .mcts import Mcts2026Strategy, MctsStrategy
from .uniform import RandomStrategy


@runtime_checkable
class Strategy(Protocol):
    """A bot: ``choose`` returns one of ``actions`` (the legal actions of ``state``); the
    interface as bot writers see it is in docs/bots.md.

    ``choose`` is only called when ``state.to_move`` is the bot's seat, with
    ``actions == legal_actions(state)`` (never empty).
    """

    @property
    def name(self) -> str:
        """What the bot is called in results and on screen."""

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action: ...


StrategyFactory = Callable[[int], Strategy]
SearchFactory = Callable[[int, float | None, int | None], Strategy]

STRATEGIES: dict[str, StrategyFactory] = {
    RandomStrategy.name: RandomStrategy,
    GreedyStrategy.name: GreedyStrategy,
    MctsStrategy.name: MctsStrategy,
    Mcts2026Strategy.name: Mcts2026Strategy,
}
"""Every known strategy by name: a factory taking the bot's seed."""

SEARCHERS: dict[str, SearchFactory] = {
    MctsStrategy.name: MctsStrategy,
    Mcts2026Strategy.name: Mcts2026Strategy,
}
"""Strategies with a budget per decision: a factory taking the seed, ``think`` (seconds) and
``iterations`` (None for the strategy's default)."""


def make(name: str, seed: int = 0, think: float | None = None,
         iterations: int | None = None) -> Strategy:
    """A new bot playing strategy ``name`` (a built-in one, or ``package.module:Name``),
    deterministic for ``seed`` (and, for a search strategy, ``iterations``). ``think`` and
    ``iterations`` only matter to search strategies; ``iterations`` wins over ``think``.
    StrategyError (a ValueError) for an unknown name or a spec that cannot be loaded.

    >>> make("random", seed=3).name
    'random'
    >>> make("mcts", seed=3, think=0.5)
    MctsStrategy(think=0.5)
    >>> make("clever")
    Traceback (most recent call last):
    ...
    p2p_burgundy.cli.strategies.external.StrategyError: unknown strategy 'clever'; known: ...
    """
    if is_spec(name):
        strategy: Strategy = make_external(name, seed)
        return strategy
    factory = STRATEGIES.get(name)
    if factory is None:
        raise StrategyError(f"unknown strategy {name!r}; known: {', '.join(sorted(STRATEGIES))}")
    searcher = SEARCHERS.get(name)
    if searcher is not None:
        return searcher(seed, think, iterations)
    return factory(seed)


__all__ = ["SEARCHERS", "STRATEGIES", "GreedyStrategy", "Mcts2026Strategy", "MctsStrategy",
           "RandomStrategy", "SearchFactory", "Strategy", "StrategyError", "StrategyFactory",
           "is_spec", "make"]
