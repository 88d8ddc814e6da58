"""clone() and copy() are written field by field for speed: each must copy every field."""

from p2p_burgundy import Edition, GameConfig, GameState, Module, new_game
from p2p_burgundy.state import COMMON_FIELDS, GAME_FIELDS, PLAYER_FIELDS, CommonPart


def test_clone_copies_every_game_field():
    state = new_game(GameConfig(players=3))
    clone = state.clone()
    assert clone is not state
    for name in (*GAME_FIELDS, "common", "modules"):
        assert getattr(clone, name) is getattr(state, name), name
    assert set(GameState.__slots__) == {*GAME_FIELDS, "common", "modules"} - {*COMMON_FIELDS}
    assert set(COMMON_FIELDS) < set(GAME_FIELDS)


def test_copy_copies_every_common_field():
    common = new_game(GameConfig(players=2)).common
    copy = common.copy()
    assert copy is not common
    for name in COMMON_FIELDS:
        assert getattr(copy, name) is getattr(common, name), name
    assert CommonPart.__slots__ == COMMON_FIELDS


def test_a_common_field_written_on_a_clone_leaves_the_original_alone():
    state = new_game(GameConfig(players=2))
    clone = state.clone()
    clone.white_die = 4
    clone.track_stamp += 1
    assert (state.white_die, state.track_stamp) == (0, 0)
    assert (clone.white_die, clone.track_stamp) == (4, 1)
    assert clone.common is not state.common
    assert clone.track is state.track  # the rest still shared


def test_copy_copies_every_player_field():
    player = new_game(GameConfig(players=2)).players[0]
    copy = player.copy()
    assert copy is not player
    for name in PLAYER_FIELDS:
        assert getattr(copy, name) is getattr(player, name), name


def test_a_module_part_written_on_a_clone_leaves_the_original_alone():
    state = new_game(GameConfig(players=2, edition=Edition.E2019, modules=tuple(Module)))
    assert list(state.modules) == ["setup", "inns", "trade-routes", "shields"]
    clone = state.clone()
    clone.changed("inns").inns = 3
    assert (state.inns, clone.inns) == (0, 3)
    assert state.modules is not clone.modules
    for name, part in state.modules.items():
        assert (clone.modules[name] is part) == (name != "inns"), name


def test_a_game_without_a_module_has_no_part_of_it_and_reads_its_start():
    state = new_game(GameConfig(players=2))
    assert list(state.modules) == ["setup"]
    assert (state.inns, state.depot_shields, state.closing, state.routes) == (0, (), (), ((), ()))
