"""The bots' position values, pinned on recorded games.

``tests/data/bot_values.json`` holds, for a few fixed games (every player count, the solo game,
the 2019 edition's modules, the experts' set-up), the greedy value
(:class:`~p2p_burgundy.cli.strategies.greedy.Evaluator`, with the default and the tuned
weights) and the learned value of every seat at every third decision of the game. The values must
come out exactly (to the last bit): the search compares them, so any change in the last bit
can change a decision. Regenerate after an intended change of a value with::

    BURGUNDY_REGEN_VALUES=1 python -m pytest tests/cli/test_greedy_value.py
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

import pytest

from p2p_burgundy import Action, Edition, GameConfig, GameState, Module, Setup
from p2p_burgundy.cli.sim import play_game
from p2p_burgundy.cli.strategies import Strategy, make
from p2p_burgundy.cli.strategies.greedy import DEFAULT_WEIGHTS, TUNED_WEIGHTS, Evaluator
from p2p_burgundy.cli.strategies.value import LearnedValue

PINNED = Path(__file__).resolve().parents[1] / "data" / "bot_values.json"
GAMES: dict[str, tuple[GameConfig, str, int]] = {
    "solo": (GameConfig(players=1, edition=Edition.E2019), "greedy", 1),
    "solo, inns": (GameConfig(players=1, edition=Edition.E2019, modules=(Module.INNS,)),
                   "greedy", 8),
    "2 players": (GameConfig(players=2), "greedy", 2),
    "3 players, experts": (GameConfig(players=3, setup=Setup.EXPERTS_OPEN), "greedy", 3),
    "4 players, 2019": (GameConfig(players=4, edition=Edition.E2019), "greedy", 4),
    "2 players, every module": (GameConfig(players=2, edition=Edition.E2019,
                                           modules=tuple(Module)), "greedy", 5),
    "4 players, shields and inns": (GameConfig(players=4, edition=Edition.E2019,
                                               modules=(Module.SHIELDS, Module.INNS)),
                                    "greedy", 6),
    "3 players, every module, random": (GameConfig(players=3, edition=Edition.E2019,
                                                   modules=tuple(Module)), "random", 7),
}
_VALUES = {"greedy default": Evaluator(DEFAULT_WEIGHTS).value,
           "greedy tuned": Evaluator(TUNED_WEIGHTS).value,
           "learned": LearnedValue.load().value}


class _Recorder:
    """Plays ``bot`` and records every value of every seat at every third decision of the
    game (counted in ``decisions``, shared by the seats)."""

    def __init__(self, bot: Strategy, values: dict[str, list[float]], decisions: list[int]
                 ) -> None:
        self.bot = bot
        self.name = bot.name
        self.values = values
        self.decisions = decisions

    def choose(self, state: GameState, actions: Sequence[Action]) -> Action:
        if self.decisions[0] % 3 == 0:
            for label, value in _VALUES.items():
                self.values[label] += [value(state, seat) for seat in range(state.config.players)]
        self.decisions[0] += 1
        return self.bot.choose(state, actions)


def record(name: str) -> dict[str, list[float]]:
    """The values recorded in game ``name`` of :data:`GAMES`, by value."""
    config, bot, seed = GAMES[name]
    values: dict[str, list[float]] = {label: [] for label in _VALUES}
    decisions = [0]
    bots = [_Recorder(make(bot, seed + seat), values, decisions) for seat in range(config.players)]
    play_game(config, bots, seed)
    return values


@pytest.fixture(scope="module")
def pinned() -> dict[str, dict[str, list[float]]]:
    if os.environ.get("BURGUNDY_REGEN_VALUES"):
        PINNED.write_text(json.dumps({name: record(name) for name in GAMES}) + "\n")
    data: dict[str, dict[str, list[float]]] = json.loads(PINNED.read_text())
    return data


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
def test_values_are_exactly_the_pinned_ones(name: str,
                                            pinned: dict[str, dict[str, list[float]]]) -> None:
    expected = pinned[name]
    got = record(name)
    for label, values in expected.items():
        assert len(values) > 40
        mismatch = next((i for i, (a, b) in enumerate(zip(got[label], values, strict=True))
                         if a != b), None)
        assert mismatch is None, (f"{label}, value {mismatch}: {got[label][mismatch]!r}, "
                                  f"pinned {values[mismatch]!r}")
