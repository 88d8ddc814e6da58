"""The stand-in: how a seat handed over plays, by rule, so that nobody can steer it.

Nobody signs a handed-over seat's turns: every peer, and ``burgundy verify``, computes them
from the state and the entropy of the last chance event, with this documented deterministic
strategy (docs/protocol.md, "The stand-in"):

- a tie-break stream: :class:`~p2p_burgundy.chance.Draws` over
  ``SHA-256(STANDIN_LABEL || entropy || u32be(turn number))``;
- at each decision of the turn, every legal action is tried, and the one that leaves the
  seat with the most victory points is taken (EndTurn only when nothing else is legal or
  the turn holds 63 actions); among equally good actions, the one at index ``below(n)`` of
  the ``n`` best, in the engine's order of :func:`~p2p_burgundy.legal_actions`.

It is fast (every peer runs it at every such turn) and plain: it is a placeholder that
keeps the seat's score moving, not a strong player.

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance:
...     state = resolve_chance(state, bytes(32))
>>> turn = standin_turn(state, bytes(32), 0)
>>> turn[-1]
EndTurn()
>>> turn == standin_turn(state, bytes(32), 0)
True
"""

from __future__ import annotations

import hashlib
import struct

from p2p_burgundy import END_TURN, Action, GameState, apply, ends_turn, legal_actions
from p2p_burgundy.chance import Draws

STANDIN_LABEL = b"p2p-burgundy/v1/stand-in\x00"
MAX_ACTIONS = 64  # a TURN entry's limit: the stand-in's turn fits one too


def standin_turn(state: GameState, entropy: bytes, turn: int) -> tuple[Action, ...]:
    """The stand-in's whole turn number ``turn`` for the seat to move in ``state``
    (``entropy``: the last chance event's). A set-up choice is one ChooseEstate."""
    seat = state.to_move
    assert seat is not None and state.chance is None
    draws = Draws(hashlib.sha256(STANDIN_LABEL + entropy + struct.pack(">I", turn)).digest())
    actions: list[Action] = []
    while True:
        legal = legal_actions(state)
        options = [a for a in legal if a != END_TURN]
        if not options or len(actions) == MAX_ACTIONS - 1:
            options = [END_TURN]
        best: list[tuple[Action, GameState]] = []
        top = -1
        for action in options:
            after = apply(state, action)
            vp = after.players[seat].vp
            if vp > top:
                top, best = vp, []
            if vp == top:
                best.append((action, after))
        action, state = best[draws.below(len(best))] if len(best) > 1 else best[0]
        actions.append(action)
        if ends_turn(action):
            return tuple(actions)
