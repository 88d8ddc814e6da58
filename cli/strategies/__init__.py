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

from collections import Counter
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


class BotError(RuntimeError):
    """A strategy raised, or chose an action that is not among the legal actions (the message
    names the bot, the seat and what happened)."""


Maker = tuple[str, str]
"""What made a decision: its kind (``"strategy"``, ``"engine"``, ``"fallback"``, ``"script"``)
and its name."""


def checked_choice(strategy: Strategy, state: GameState, actions: Sequence[Action]) -> Action:
    """``strategy``'s choice among ``actions``; BotError if it raises (a plug-in's own fault,
    or an engine's with no fallback: named, never a traceback) or chooses something else."""
    seat = state.to_move
    try:
        action = strategy.choose(state, actions)
    except BotError:
        raise
    except Exception as exc:
        raise BotError(f"bot {strategy.name!r} in seat {seat} raised "
                       f"{type(exc).__name__}: {exc}") from exc
    if action not in actions:
        raise BotError(f"bot {strategy.name!r} in seat {seat} chose {action!r}, "
                       f"which is not legal here ({len(actions)} legal actions)")
    return action


def made_by(strategy: Strategy) -> Maker:
    """What made ``strategy``'s last decision: a composite strategy (an engine with a
    fallback, a script) says which of its parts did; any other is itself."""
    maker: Maker | None = getattr(strategy, "made_by", None)
    return maker if maker is not None else ("strategy", strategy.name)


class Ledger:
    """Plays ``strategy`` and keeps account: an exception it raises or an answer that is not
    one of the legal actions is a :class:`BotError`, and every decision is counted by the
    seat it was for and by what made it (:func:`made_by`).

    >>> from p2p_burgundy import GameConfig, legal_actions, new_game, resolve_chance
    >>> state = new_game(GameConfig(players=2))
    >>> while state.chance is not None:
    ...     state = resolve_chance(state, bytes(32))
    >>> ledger = Ledger(make("random", 1))
    >>> ledger.choose(state, legal_actions(state)) in legal_actions(state)
    True
    >>> ledger.played()
    [{'seat': 0, 'by': 'strategy', 'name': 'random', 'decisions': 1}]
    """

    def __init__(self, strategy: Strategy) -> None:
        self.strategy = strategy
        self.counts: Counter[tuple[int, str, str]] = Counter()

    @property
    def name(self) -> str:
        return self.strategy.name

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        action = checked_choice(self.strategy, state, actions)
        seat = state.to_move
        self.counts[(-1 if seat is None else seat, *made_by(self.strategy))] += 1
        return action

    def played(self) -> list[dict[str, object]]:
        """The decisions made, by seat and maker, in that order (for ``--json``)."""
        return [{"seat": seat, "by": by, "name": name, "decisions": n}
                for (seat, by, name), n in sorted(self.counts.items())]


__all__ = [
    "SEARCHERS",
    "STRATEGIES",
    "BotError",
    "GreedyStrategy",
    "Ledger",
    "Maker",
    "Mcts2026Strategy",
    "MctsStrategy",
    "RandomStrategy",
    "SearchFactory",
    "Strategy",
    "StrategyError",
    "StrategyFactory",
    "checked_choice",
    "is_spec",
    "made_by",
    "make",
]
