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
['greedy', 'random']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from p2p_burgundy import Action, GameState

from .greedy import GreedyStrategy
from .uniform import RandomStrategy


@runtime_checkable
class Strategy(Protocol):
    """A bot: ``choose`` returns one of ``actions`` (the legal actions of ``state``).

    ``choose`` is only called when ``state.to_move`` is the bot's seat, with
    ``actions == legal_actions(state)`` (never empty).
    """

    name: str

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action: ...


StrategyFactory = Callable[[int], Strategy]

STRATEGIES: dict[str, StrategyFactory] = {
    RandomStrategy.name: RandomStrategy,
    GreedyStrategy.name: GreedyStrategy,
}
"""Every known strategy by name: a factory taking the bot's seed."""


def make(name: str, seed: int = 0) -> Strategy:
    """A new bot playing strategy ``name``, deterministic for ``seed``.

    >>> make("random", seed=3).name
    'random'
    >>> make("clever")
    Traceback (most recent call last):
    ...
    ValueError: unknown strategy 'clever'; known: greedy, random
    """
    factory = STRATEGIES.get(name)
    if factory is None:
        raise ValueError(f"unknown strategy {name!r}; known: {', '.join(sorted(STRATEGIES))}")
    return factory(seed)


__all__ = ["STRATEGIES", "GreedyStrategy", "RandomStrategy", "Strategy", "StrategyFactory", "make"]
