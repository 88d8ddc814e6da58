"""What the engine's speed relies on, checked without timing: tiles are plain ints in the state,
and the choices remembered by depot row are bounded and never depend on what was asked before."""

import random

from p2p_burgundy import (
    Edition,
    GameConfig,
    GameState,
    Module,
    apply,
    legal_actions,
    new_game,
    resolve_chance,
    rules,
)
from p2p_burgundy.state import EMPTY


def _random_game(config: GameConfig, seed: int) -> list[GameState]:
    """Every decision state of one random game."""
    rng = random.Random(seed)
    state, states = new_game(config), []
    while not state.is_over:
        if state.chance is not None:
            state = resolve_chance(state, rng.randbytes(32))
        else:
            states.append(state)
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
    return states


def test_tiles_in_the_state_are_exact_ints():
    config = GameConfig(players=3, edition=Edition.E2019, modules=tuple(Module))
    for state in _random_game(config, 7)[::25]:
        tiles = [t for row in state.depots for t in row if t != EMPTY]
        tiles += [t for supply in state.supplies for t in supply]
        for p in state.players:
            tiles += [*p.storage, *(t for t in p.estate if t != EMPTY)]
        assert tiles and {type(t) for t in tiles} == {int}


def test_the_row_memos_are_bounded_and_cleared_memos_give_the_same_choices(monkeypatch):
    states = _random_game(GameConfig(players=4), 3)
    before = [legal_actions(state) for state in states]
    monkeypatch.setattr(rules, "_ROWS_KEPT", 2)  # cleared all the time
    for known in (*rules._TAKES, *(k for by_pay in rules._BUYS for k in by_pay)):
        known.clear()
    assert [legal_actions(state) for state in states] == before
    assert all(len(known) <= 2 for known in rules._TAKES)
