"""clone() and copy() are written field by field for speed: each must copy every field."""

from p2p_burgundy import GameConfig, GameState, new_game
from p2p_burgundy.state import _GAME_FIELDS, _MODULE_FIELDS, _PLAYER_FIELDS


def test_clone_copies_every_game_field():
    state = new_game(GameConfig(players=3))
    clone = state.clone()
    assert clone is not state
    for name in (*_GAME_FIELDS, "modules"):
        assert getattr(clone, name) is getattr(state, name), name
    assert set(GameState.__slots__) == {*_GAME_FIELDS, "modules"}


def test_copy_copies_every_player_field():
    player = new_game(GameConfig(players=2)).players[0]
    copy = player.copy()
    assert copy is not player
    for name in _PLAYER_FIELDS:
        assert getattr(copy, name) is getattr(player, name), name


def test_a_module_field_written_on_a_clone_leaves_the_original_alone():
    state = new_game(GameConfig(players=2))
    clone = state.clone()
    clone.inns = 3
    assert (state.inns, clone.inns) == (0, 3)
    assert state.modules is not clone.modules
    for name in _MODULE_FIELDS:
        if name != "inns":
            assert getattr(clone, name) is getattr(state, name), name
