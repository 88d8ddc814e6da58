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

from p2p_burgundy import (
    Action,
    GameState,
    PlaceTile,
    SellGoods,
    TakeTile,
    TakeWorkers,
    apply,
    ends_turn,
    legal_actions,
)
from p2p_burgundy.scoring import Category
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import COLOUR_NAMES, TILE_COLOUR

from ..engine import EngineStrategy
from ..strategies import Strategy, make
from ..strategies.greedy import position_value
from .describe import gains
from .menu import Option, Target, build_menu
from .texts import info_for_tile, tile_label

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
    why: str = ""
    """Why, in the game's words: what the action does for the player."""
    targets: tuple[Target, ...] = ()
    """What it picks on the screen (a die, a depot's tile, a space of the estate), to mark."""
    says: str | None = None
    """What a hint engine said of its first choice (its info text)."""

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
    chosen = menu_options(state, line)
    vp_now = s.players[seat].vp - state.players[seat].vp
    worth = position_value(s, seat) - position_value(state, seat)
    return Hint(tuple((o.key, o.label) for o in chosen), tuple(line), gains(state, s, seat),
                vp_now, worth, reason(state, line, seat),
                tuple(o.target for o in chosen if o.target is not None), says)


def reason(state: GameState, actions: Sequence[Action], seat: int) -> str:
    """Why ``actions`` are worth playing, in the game's words: the region they complete,
    the animals or goods they score, or what the tile taken does.

    >>> from p2p_burgundy import GameConfig, new_game, resolve_chance, UseDie, TakeWorkers
    >>> s = new_game(GameConfig(players=2))
    >>> while s.chance is not None:
    ...     s = resolve_chance(s, bytes(32))
    >>> reason(s, [UseDie(0), TakeWorkers()], 0)
    'takes 2 workers: each changes a die by 1 later'
    """
    before = state
    said: list[str] = []
    for action in actions:
        after = apply(state, action)
        old, new = state.players[seat], after.players[seat]
        gained = {c: new.breakdown[c] - old.breakdown[c] for c in Category
                  if c < len(new.breakdown) and new.breakdown[c] != old.breakdown[c]}
        if isinstance(action, PlaceTile):
            tile = old.storage[action.storage]
            colour = COLOUR_NAMES[TILE_COLOUR[tile]]
            if Category.REGIONS in gained:
                points = gained[Category.REGIONS] + gained.get(Category.PHASE_BONUSES, 0)
                said.append(f"completes your {colour} region: +{points} VP now"
                            + (", with the phase bonus" if Category.PHASE_BONUSES in gained
                               else ""))
            if Category.COLOUR_BONUSES in gained:
                said.append(f"covers every {colour} space: a colour bonus")
            if Category.ANIMALS in gained:
                said.append(f"scores its animals: +{gained[Category.ANIMALS]} VP")
            if not gained:
                said.append(f"places {tile_label(tile)}" + _what_it_does(tile))
        elif isinstance(action, TakeTile):
            taken = [t for t in new.storage if t not in old.storage]
            if taken:
                said.append(f"takes {tile_label(taken[0])} to place later"
                            + _what_it_does(taken[0]))
        elif isinstance(action, SellGoods):
            said.append(f"sells goods {action.goods}: +{new.vp - old.vp} VP and a silverling")
        elif isinstance(action, TakeWorkers):
            said.append(f"takes {new.workers - old.workers} workers: each changes a die by 1 "
                        "later")
        state = after
    if not said:
        return gains(before, state, seat)
    return "; ".join(said)


def _what_it_does(tile: int) -> str:
    """``: `` and the tile guide's first sentence about ``tile`` that says what it does
    (lower case), or nothing where the guide has none."""
    try:
        text = " ".join(info_for_tile(tile).lines)
    except ValueError:
        return ""
    sentences = [s.strip() for s in text.split(". ") if s.strip()]
    useful = next((s for s in sentences if not s.startswith("No effect")), "")
    return ": " + useful[0].lower() + useful[1:].rstrip(".") if useful else ""


def menu_steps(state: GameState, actions: Sequence[Action]) -> list[tuple[str, str]]:
    """(key, label) of every choice a player makes in the menus to play ``actions`` from
    ``state`` (an action no menu offers is left out)."""
    return [(o.key, o.label) for o in menu_options(state, actions)]


def menu_options(state: GameState, actions: Sequence[Action]) -> list[Option]:
    """Every option a player chooses in the menus to play ``actions`` from ``state``."""
    chosen: list[Option] = []
    for action in actions:
        chosen += _path(build_menu(state)[1], action)
        state = apply(state, action)
    return chosen


def _path(options: Sequence[Option], action: Action) -> list[Option]:
    """The options that lead to ``action`` in a menu (empty if none)."""
    for option in options:
        if option.action == action:
            return [option]
        below = _path(option.children, action)
        if below:
            return [option, *below]
    return []


__all__ = ["HINT_ITERATIONS", "Hint", "bot", "menu_options", "menu_steps", "reason", "suggest"]
