"""The turn: a player's actions from the state the turn starts in up to its end, with the
state after each action. The one place that says what ends a turn: ``EndTurn()``, or a set-up
choice (``ChooseEstate``), which is a turn by itself.

>>> from p2p_burgundy import END_TURN, GameConfig, TakeWorkers, UseDie, new_game
>>> from p2p_burgundy import resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> turn = play_turn(state, [UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN])
>>> turn.over, len(turn.states), turn.after.players[turn.seat].workers
(True, 5, 5)
>>> turn.then(UseDie(0))
Traceback (most recent call last):
...
p2p_burgundy.errors.IllegalAction: UseDie(die=0): the turn is over (it ended with EndTurn())
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .actions import Action, ChooseEstate, EndTurn
from .errors import IllegalAction
from .rules import apply
from .state import GameState


def ends_turn(action: Action) -> bool:
    """Whether ``action`` ends its turn: ``EndTurn()``, or a set-up choice (a turn by
    itself)."""
    return isinstance(action, EndTurn | ChooseEstate)


@dataclass(frozen=True, slots=True)
class Turn:
    """A turn, whole or under way: the state ``before`` it, its ``actions`` and the state
    after each (``states[i]`` after ``actions[i]``), so nobody applies them again."""

    before: GameState
    actions: tuple[Action, ...] = ()
    states: tuple[GameState, ...] = ()

    @property
    def after(self) -> GameState:
        """The state after the last action (``before`` if there is none)."""
        return self.states[-1] if self.states else self.before

    @property
    def seat(self) -> int | None:
        """Who plays the turn."""
        return self.before.to_move

    @property
    def over(self) -> bool:
        """Whether the turn has ended (its last action ends it)."""
        return bool(self.actions) and ends_turn(self.actions[-1])

    def then(self, action: Action) -> Turn:
        """The turn with ``action`` added; IllegalAction (and nothing changed) if the rules
        forbid it or the turn is over."""
        if self.over:
            raise IllegalAction(f"{action!r}: the turn is over "
                                f"(it ended with {self.actions[-1]!r})")
        return Turn(self.before, (*self.actions, action), (*self.states, apply(self.after,
                                                                               action)))

    def undone(self) -> Turn:
        """The turn without its last action (the same turn if it has none)."""
        if not self.actions:
            return self
        return Turn(self.before, self.actions[:-1], self.states[:-1])

    @classmethod
    def of(cls, state: GameState, actions: Iterable[Action]) -> Turn:
        """The turn (whole or under way) of ``actions`` played from ``state``."""
        turn = cls(state)
        for action in actions:
            turn = turn.then(action)
        return turn


def play_turn(state: GameState, actions: Iterable[Action]) -> Turn:
    """A whole turn played from ``state``: IllegalAction unless each action is legal and the
    last, only the last, ends the turn."""
    turn = Turn.of(state, actions)
    if not turn.over:
        raise IllegalAction("a turn is a list of actions ending with its only EndTurn() (or "
                            "one ChooseEstate, a turn by itself)")
    return turn
