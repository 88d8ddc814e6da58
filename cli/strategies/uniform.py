"""The ``random`` strategy: a uniform choice among the legal actions.

>>> from p2p_burgundy import GameConfig, legal_actions, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> actions = legal_actions(state)
>>> RandomStrategy(7).choose(state, actions) == RandomStrategy(7).choose(state, actions)
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from p2p_burgundy import Action, GameState


class RandomStrategy:
    """Picks uniformly among the legal actions with its own ``random.Random(seed)``."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        """One of ``actions``, uniformly at random."""
        return actions[self._rng.randrange(len(actions))]

    def __repr__(self) -> str:
        return "RandomStrategy(...)"
