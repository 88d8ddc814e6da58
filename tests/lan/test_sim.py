"""The seeded in-process LAN's helpers."""

from __future__ import annotations

import random

from p2p_burgundy import ChooseEstate, GameConfig, Setup, new_game
from tests.engine.helpers import resolve_all

from .sim import random_turn


def test_a_random_turn_at_an_experts_set_up_choice_is_that_choice_alone():
    state = resolve_all(new_game(GameConfig(2, setup=Setup.EXPERTS_OPEN)), seed=4)
    turn = random_turn(state, random.Random(0))
    assert len(turn) == 1 and isinstance(turn[0], ChooseEstate)
