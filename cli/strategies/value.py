"""A position value learned from play: a player's predicted final score.

:func:`features` describes a position for one seat with a few numbers (the greedy value
with :data:`~p2p_burgundy.cli.strategies.greedy.TUNED_WEIGHTS` among them); each is also
multiplied by the share of the game still to play ``t`` and by ``t ** 2``, so a silverling or
a half-built region can be worth more early than late. :class:`LearnedValue` predicts the
final score as a weighted sum of those terms, with one set of weights per player count, fitted
by least squares to the final scores of self-play games of greedy bots with those weights,
on positions just before a player's own end of turn (where the ``mcts`` search asks for
it; ``tools/fit_value.py``, which wrote ``value_weights.json`` next to this module; the file
lists the commands that reproduce it).

>>> from p2p_burgundy import GameConfig, new_game, resolve_chance
>>> state = new_game(GameConfig(players=2))
>>> while state.chance is not None:
...     state = resolve_chance(state, bytes(32))
>>> len(features(state, 0)) == len(FEATURES) * POWERS
True
>>> 100 < LearnedValue.load().value(state, 0) < 250
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources
from typing import Final

from p2p_burgundy import GameState
from p2p_burgundy.board import PHASES
from p2p_burgundy.scoring import COLOUR_BONUS_VP, REGION_VP, SALE_VP
from p2p_burgundy.tiles import Tile

from .greedy import TOTAL_ROUNDS, TUNED_WEIGHTS, Evaluator, rounds_left

FEATURES: Final = ("one", "greedy", "vp", "silver", "workers", "goods", "stored", "filled",
            "regions", "colours", "mines", "abilities", "access")
POWERS: Final = 3  # each feature times t ** 0, t ** 1, t ** 2
WEIGHTS_FILE: Final = "value_weights.json"
_ABILITY_BITS: Final = sum(1 << n for n in range(1, 15))
_EVALUATOR: Final = Evaluator(TUNED_WEIGHTS)


def features(state: GameState, seat: int) -> list[float]:
    """The model's inputs for ``seat`` in ``state`` (a game not yet over): every feature
    of :data:`FEATURES` times ``t ** k`` for k < :data:`POWERS`, feature by feature."""
    p = state.players[seat]
    info = _EVALUATOR._board(state.boards[seat])
    occ = p.occupied
    regions = 0.0
    for mask, size in info.regions:
        k = (mask & occ).bit_count()
        if k and k != size:
            regions += k / size * REGION_VP[size]
    colours = 0.0
    players = state.config.players
    taken = state.bonus_taken
    access = 0
    for colour in range(6):
        cmask = info.colour_masks[colour]
        if p.frontier & cmask:
            access += 1
        if p.bonuses[colour] or taken[colour] >= 2:
            continue
        share = (cmask & occ).bit_count() / cmask.bit_count()
        colours += share * share * COLOUR_BONUS_VP[(players, taken[colour] + 1)]
    base = (1.0, _EVALUATOR.value(state, seat), float(sum(p.breakdown)), float(p.silver),
            float(p.workers), float(sum(p.goods) * SALE_VP[players]), float(len(p.storage)),
            float(occ.bit_count()), regions, colours, float(p.estate.count(Tile.MINE)),
            float((p.knowledge & _ABILITY_BITS).bit_count()), float(access))
    t = rounds_left(state) / TOTAL_ROUNDS
    t2 = t * t
    out: list[float] = []
    for f in base:
        out += (f, f * t, f * t2)
    return out


class LearnedValue:
    """Predicted final score by player count: ``weights[players]`` dotted with
    :func:`features` (the exact score once the game is over)."""

    __slots__ = ("weights",)

    def __init__(self, weights: dict[int, Sequence[float]]) -> None:
        for players, w in weights.items():
            if len(w) != len(FEATURES) * POWERS:
                raise ValueError(f"{players} players: {len(w)} weights, expected "
                                 f"{len(FEATURES) * POWERS}")
        self.weights = {players: tuple(w) for players, w in weights.items()}

    @classmethod
    def load(cls) -> LearnedValue:
        """The weights shipped with the package."""
        text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text()
        data = json.loads(text)
        if tuple(data["features"]) != FEATURES or data["powers"] != POWERS:
            raise ValueError(f"{WEIGHTS_FILE} was fitted for other features")
        return cls({int(n): w for n, w in data["weights"].items()})

    def value(self, state: GameState, seat: int) -> float:
        """``seat``'s predicted final score in ``state``."""
        if state.config.solo or state.config.teams:  # no self-play fit: the hand-made value
            return _EVALUATOR.value(state, seat)
        if state.phase >= PHASES:
            return float(sum(state.players[seat].breakdown))
        w = self.weights[state.config.players]
        return sum(a * b for a, b in zip(w, features(state, seat), strict=True))


__all__ = ["FEATURES", "POWERS", "WEIGHTS_FILE", "LearnedValue", "features"]
