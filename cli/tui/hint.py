"""Hints: what the strongest bot would do now, as the choices a player would make.

The bot (:mod:`~p2p_burgundy.cli.strategies`, ``mcts`` with a fixed number of rollouts, so a
hint is the same for the same position) plays the rest of one *die action* on a copy of the
turn: the die, what to do with it, where, and anything that action sets off (a castle's extra
action, a ship's goods, a building's advantage). Each of its actions is then found in the
menus the player sees, so the hint reads as keys to press.

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> hint = suggest(state, make("mcts", seed=1, iterations=40))
>>> for key, label in hint.steps:
...     print(key, label)
1 use die 1: a 5
t take a tile from a depot
3 depot 5: Min (mine)
>>> hint.keys, hint.vp_now, round(hint.worth, 1)
('1 t 3', 0, 1.9)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from p2p_burgundy import Action, GameState, apply, ends_turn, legal_actions
from p2p_burgundy.state import Step

from ..engine import EngineStrategy
from ..strategies import Strategy, make
from ..strategies.greedy import position_value
from .describe import gains
from .menu import Option, build_menu

HINT_ITERATIONS = 100
"""Rollouts the bot spends on a hint (about half a second; the same hint every time)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The bot's next die action: ``steps`` as (key, label) of each choice in turn, what it
    earns at once (``now``, ``vp_now``) and the bot's estimate of its worth by the end of the
    game (``worth``, VP, against keeping the position as it is)."""

    steps: tuple[tuple[str, str], ...]
    actions: tuple[Action, ...]
    now: str
    vp_now: int
    worth: float
    says: str | None = None  # what a hint engine said of its first choice (its info text)

    @property
    def keys(self) -> str:
        """The keys to press, e.g. ``2 t 1``."""
        return " ".join(key for key, _ in self.steps)


def bot(seat: int = 0, engine: str | None = None) -> Strategy:
    """The strongest bot, with the fixed budget of a hint; or with ``engine`` (``--hint-engine``)
    that program, asked for ``seat`` (docs/bots.md; close it after the hint)."""
    if engine is not None:
        return EngineStrategy(engine, seat)
    return make("mcts", seed=0, iterations=HINT_ITERATIONS)


def suggest(state: GameState, strategy: Strategy) -> Hint:
    """What ``strategy`` would do with the next die (or at the step the turn is at)."""
    seat = state.to_move
    assert seat is not None, "nobody to move"
    line: list[Action] = []
    says = None
    s = state
    while True:
        action = strategy.choose(s, legal_actions(s))
        if isinstance(strategy, EngineStrategy) and strategy.info is not None and says is None:
            says = strategy.info.text
        line.append(action)
        s = apply(s, action)
        if ends_turn(action) or s.step == Step.TURN \
                or s.to_move != seat:
            break
    steps = menu_steps(state, line)
    vp_now = s.players[seat].vp - state.players[seat].vp
    worth = position_value(s, seat) - position_value(state, seat)
    return Hint(tuple(steps), tuple(line), gains(state, s, seat), vp_now, worth, says)


def menu_steps(state: GameState, actions: Sequence[Action]) -> list[tuple[str, str]]:
    """(key, label) of every choice a player makes in the menus to play ``actions`` from
    ``state`` (an action no menu offers is left out)."""
    steps: list[tuple[str, str]] = []
    for action in actions:
        steps += _path(build_menu(state)[1], action)
        state = apply(state, action)
    return steps


def _path(options: Sequence[Option], action: Action) -> list[tuple[str, str]]:
    """(key, label) of the choices that lead to ``action`` in a menu (empty if none)."""
    for option in options:
        if option.action == action:
            return [(option.key, option.label)]
        below = _path(option.children, action)
        if below:
            return [(option.key, option.label), *below]
    return []


__all__ = ["HINT_ITERATIONS", "Hint", "bot", "menu_steps", "suggest"]
