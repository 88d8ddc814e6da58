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

A player count may also have *tile tables*: a price for each kind of tile the player holds in
storage and for each kind placed on its estate (each price plus ``t`` times another; the
inputs are :func:`tile_inputs`). The counts of :data:`FEATURES` treat a castle and a church
in storage alike; what tells one die action from another is often which tile it took. These
tables and the weights beside them are refitted to how a turn's alternatives rank (``tools/
fit_value.py --alternatives``), starting from the weights fitted to final scores.

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
from p2p_burgundy.tiles import BASE_TILE_COUNT

from .greedy import _MINE, TOTAL_ROUNDS, TUNED_WEIGHTS, Evaluator, rounds_left

FEATURES: Final = ("one", "greedy", "vp", "silver", "workers", "goods", "stored", "filled",
            "regions", "colours", "mines", "abilities", "access")
POWERS: Final = 3  # each feature times t ** 0, t ** 1, t ** 2
WEIGHTS_FILE: Final = "value_weights.json"
TILE_KINDS: Final = int(BASE_TILE_COUNT)  # the tables price the base game's tiles only
TABLE_SIZE: Final = 4 * TILE_KINDS  # stored, stored times t, placed, placed times t
_ABILITY_BITS: Final = sum(1 << n for n in range(1, 15))
_EVALUATOR: Final = Evaluator(TUNED_WEIGHTS)


def features(state: GameState, seat: int) -> list[float]:
    """The model's inputs for ``seat`` in ``state`` (a game not yet over): every feature
    of :data:`FEATURES` times ``t ** k`` for k < :data:`POWERS`, feature by feature."""
    base, t = _base(state, seat)
    t2 = t * t
    out: list[float] = []
    for f in base:
        out += (f, f * t, f * t2)
    return out


def _base(state: GameState, seat: int) -> tuple[list[float], float]:
    """The features of :data:`FEATURES` for ``seat`` in ``state``, and ``t``."""
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
    base = [1.0, _EVALUATOR.value(state, seat), float(sum(p.breakdown)), float(p.silver),
            float(p.workers), float(sum(p.goods) * SALE_VP[players]), float(len(p.storage)),
            float(occ.bit_count()), regions, colours, float(p.estate.count(_MINE)),
            float((p.knowledge & _ABILITY_BITS).bit_count()), float(access)]
    return base, rounds_left(state) / TOTAL_ROUNDS


def tile_inputs(state: GameState, seat: int) -> dict[int, float]:
    """The inputs of the tile tables for ``seat``, by their place in a table: the count of
    each kind of tile in storage (at its kind), and times ``t``; the same for the estate.

    >>> from p2p_burgundy import GameConfig, new_game
    >>> tile_inputs(new_game(GameConfig(players=2)), 0)  # the start castle; t = 1
    {119: 1.0, 168: 1.0}
    >>> from p2p_burgundy.tiles import Tile
    >>> 2 * TILE_KINDS + Tile.CASTLE, 3 * TILE_KINDS + Tile.CASTLE
    (119, 168)
    """
    p = state.players[seat]
    t = rounds_left(state) / TOTAL_ROUNDS
    out: dict[int, float] = {}
    for base, tiles in ((0, p.storage), (2 * TILE_KINDS, p.estate)):
        for tile in tiles:
            if 0 <= tile < TILE_KINDS:
                out[base + tile] = out.get(base + tile, 0.0) + 1.0
                out[base + TILE_KINDS + tile] = out.get(base + TILE_KINDS + tile, 0.0) + t
    return out


class LearnedValue:
    """Predicted final score by player count: ``weights[players]`` dotted with
    :func:`features`, plus the player count's ``tables`` dotted with :func:`tile_inputs`
    where it has them (the exact score once the game is over)."""

    __slots__ = ("_by_power", "tables", "weights")

    def __init__(self, weights: dict[int, Sequence[float]],
                 tables: dict[int, Sequence[float]] | None = None) -> None:
        for players, w in weights.items():
            if len(w) != len(FEATURES) * POWERS:
                raise ValueError(f"{players} players: {len(w)} weights, expected "
                                 f"{len(FEATURES) * POWERS}")
        for players, table in (tables or {}).items():
            if len(table) != TABLE_SIZE:
                raise ValueError(f"{players} players: a tile table of {len(table)} prices, "
                                 f"expected {TABLE_SIZE}")
        self.weights = {players: tuple(w) for players, w in weights.items()}
        # the weights of the features times t ** 0, t ** 1 and t ** 2, in three rows
        self._by_power = {players: (w[0::3], w[1::3], w[2::3])
                          for players, w in self.weights.items()}
        self.tables = {players: tuple(table) for players, table in (tables or {}).items()}

    @classmethod
    def load(cls) -> LearnedValue:
        """The weights shipped with the package."""
        text = resources.files(__package__).joinpath(WEIGHTS_FILE).read_text()
        data = json.loads(text)
        if tuple(data["features"]) != FEATURES or data["powers"] != POWERS:
            raise ValueError(f"{WEIGHTS_FILE} was fitted for other features")
        return cls({int(n): w for n, w in data["weights"].items()},
                   {int(n): table for n, table in data.get("tables", {}).items()})

    def value(self, state: GameState, seat: int) -> float:
        """``seat``'s predicted final score in ``state``."""
        if state.config.solo or state.config.teams:  # no self-play fit: the hand-made value
            return _EVALUATOR.value(state, seat)
        if state.phase >= PHASES:
            return float(sum(state.players[seat].breakdown))
        players = state.config.players
        base, t = _base(state, seat)
        # features(state, seat) dotted with the weights without building it: the same
        # products added in the same order (a loop: compiled, sum() is a generic call)
        t2 = t * t
        total = 0.0
        w0s, w1s, w2s = self._by_power[players]
        for f, w0, w1, w2 in zip(base, w0s, w1s, w2s, strict=True):
            total += w0 * f
            total += w1 * (f * t)
            total += w2 * (f * t2)
        table = self.tables.get(players)
        if table is not None:  # tile_inputs' terms, summed without building them
            p = state.players[seat]
            for tile in p.storage:
                if 0 <= tile < TILE_KINDS:
                    total += table[tile] + t * table[TILE_KINDS + tile]
            for tile in p.estate:
                if 0 <= tile < TILE_KINDS:
                    total += table[2 * TILE_KINDS + tile] + t * table[3 * TILE_KINDS + tile]
        return total


__all__ = ["FEATURES", "POWERS", "TABLE_SIZE", "TILE_KINDS", "WEIGHTS_FILE", "LearnedValue",
           "features", "tile_inputs"]
