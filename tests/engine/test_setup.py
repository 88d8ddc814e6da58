"""Game set-up and phase set-up (rulebook pages 2-3)."""

from __future__ import annotations

from collections import Counter

import pytest

from p2p_burgundy import (
    ChanceError,
    ChanceKind,
    GameConfig,
    legal_actions,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.board import DEPOT_SPACES
from p2p_burgundy.chance import ChanceEvent, Draws
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import (
    BLACK_SUPPLY,
    GOODS_SUPPLY,
    NORMAL_SUPPLY,
    TILE_COLOUR,
    Colour,
    Tile,
)
from tests.engine.helpers import CASTLE_SPACE, TOTAL_TILES, end_turn, entropy, tile_census

PLAYERS = (2, 3, 4)


def setup_state(players: int, seed: object = "setup"):
    return resolve_chance(new_game(GameConfig(players=players)), entropy(seed, 0))


def test_component_counts_match_the_rulebook():
    by_colour = Counter(TILE_COLOUR[t] for t in TOTAL_TILES.elements())
    assert sum(TOTAL_TILES.values()) == 164
    assert by_colour == {Colour.BEIGE: 56, Colour.LIGHT_GREEN: 28, Colour.YELLOW: 26,
                         Colour.DARK_GREEN: 16, Colour.GREY: 12, Colour.BLUE: 26}
    black = Counter(TILE_COLOUR[t] for t in BLACK_SUPPLY)
    assert black == {Colour.BEIGE: 16, Colour.LIGHT_GREEN: 8, Colour.YELLOW: 6,
                     Colour.DARK_GREEN: 2, Colour.GREY: 2, Colour.BLUE: 6}
    # 7 of each building, 7 of each animal type, 26 different knowledge tiles
    assert all(TOTAL_TILES[b] == 7 for b in range(8))
    knowledge = [t for t in TOTAL_TILES.elements() if TILE_COLOUR[t] == Colour.YELLOW]
    assert sorted(knowledge) == list(range(Tile.KNOWLEDGE_1, Tile.KNOWLEDGE_26 + 1))
    assert len(GOODS_SUPPLY) == 42 and Counter(GOODS_SUPPLY) == {g: 7 for g in range(1, 7)}
    # every supply holds tiles of its own colour only
    for colour, supply in enumerate(NORMAL_SUPPLY):
        assert {TILE_COLOUR[t] for t in supply} == {colour}


def test_new_game_waits_for_the_setup_chance_event_with_no_choices():
    state = new_game(GameConfig(players=3))
    assert state.chance == ChanceEvent(0, ChanceKind.SETUP, 0, 0)
    assert state.to_move is None
    assert legal_actions(state) == []
    assert not state.is_over


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", range(4))
def test_setup_start_player_from_entropy_and_workers_one_to_four_clockwise(players, seed):
    e = entropy(("start", seed), 0)
    state = resolve_chance(new_game(GameConfig(players=players)), e)
    start = Draws(e).below(players)  # the first draw of the SETUP event
    assert [state.players[(start + i) % players].workers for i in range(players)] == list(
        range(1, players + 1)
    )
    # the turn-order track: everyone on the first space, the start player on top
    assert state.order == tuple((start + i) % players for i in range(players))
    assert {space for space, _ in state.track} == {0}
    stamps = [state.track[(start + i) % players][1] for i in range(players)]
    assert stamps == sorted(stamps, reverse=True)
    for p in state.players:
        assert p.silver == 1
        assert sum(p.goods) == 3
        assert p.storage == ()
        assert p.vp == 0
    assert state.chance == ChanceEvent(1, ChanceKind.PHASE, 0, 0)


def test_every_start_seat_occurs_for_some_entropy():
    for players in PLAYERS:
        starts = {setup_state(players, ("any", i)).order[0] for i in range(40)}
        assert starts == set(range(players))


@pytest.mark.parametrize("players", PLAYERS)
def test_setup_goods_follow_the_documented_draw_order(players):
    e = entropy("goods", 0)
    state = resolve_chance(new_game(GameConfig(players=players)), e)
    draws = Draws(e)
    draws.below(players)  # the start seat
    pool = list(GOODS_SUPPLY)
    for seat in range(players):
        goods = [0] * 7
        for _ in range(3):
            goods[draws.take(pool)] += 1
        assert state.players[seat].goods == tuple(goods)
    assert state.goods_pool == tuple(pool)
    assert len(state.goods_pool) == 42 - 3 * players


@pytest.mark.parametrize("players", PLAYERS)
def test_start_castle_stands_on_the_centre_space_of_estate_1(players):
    state = new_game(GameConfig(players=players))
    for p in state.players:
        assert p.estate[CASTLE_SPACE] == Tile.CASTLE
        assert [s for s, t in enumerate(p.estate) if t != EMPTY] == [CASTLE_SPACE]
        assert p.occupied == 1 << CASTLE_SPACE
        # the first tile goes on one of the six spaces around the castle
        assert sorted(s for s in range(37) if p.frontier >> s & 1) == [11, 12, 17, 19, 24, 25]
    # the start castles come out of the castle supply
    assert len(state.supplies[Colour.DARK_GREEN]) == 14 - players
    assert tile_census(state) == TOTAL_TILES


B, A, S, C, M, K = (Colour.BEIGE, Colour.LIGHT_GREEN, Colour.BLUE, Colour.DARK_GREEN,
                    Colour.GREY, Colour.YELLOW)
# The printed depot spaces: (colour, the smallest player count that fills it), from the board
# (shared/data/components.json), written out here independently of the engine's table.
PRINTED_DEPOTS = {
    1: [(B, 2), (S, 2), (K, 3), (A, 4)],
    2: [(K, 2), (C, 2), (B, 3), (B, 4)],
    3: [(A, 2), (B, 2), (S, 3), (K, 4)],
    4: [(S, 2), (B, 2), (A, 3), (M, 4)],
    5: [(M, 2), (K, 2), (B, 3), (B, 4)],
    6: [(B, 2), (A, 2), (C, 3), (S, 4)],
}


def test_engine_depot_table_matches_the_printed_board():
    for depot, spaces in PRINTED_DEPOTS.items():
        assert sorted(DEPOT_SPACES[depot]) == sorted(spaces)


@pytest.mark.parametrize(("players", "filled", "black"), [(2, 12, 4), (3, 18, 6), (4, 24, 8)])
def test_phase_setup_fills_the_printed_depot_spaces_with_tiles_of_their_colour(
        players, filled, black):
    state = resolve_chance(setup_state(players), entropy("phase", 1))
    assert state.chance == ChanceEvent(2, ChanceKind.ROUND, 0, 0)
    numbered = 0
    for d in range(1, 7):
        tiles = [t for t in state.depots[d] if t != EMPTY]
        expected = sorted(colour for colour, least in PRINTED_DEPOTS[d] if least <= players)
        assert sorted(TILE_COLOUR[t] for t in tiles) == expected, d
        numbered += len(tiles)
    assert numbered == filled
    assert sum(t != EMPTY for t in state.depots[0]) == black
    assert all(t == EMPTY for t in state.depots[0][black:])
    assert all(t in BLACK_SUPPLY for t in state.depots[0] if t != EMPTY)
    assert len(state.phase_goods) == 5
    assert len(state.goods_pool) == 42 - 3 * players - 5
    assert tile_census(state) == TOTAL_TILES


@pytest.mark.parametrize("players", PLAYERS)
def test_phase_setup_follows_the_documented_draw_order(players):
    before = setup_state(players)
    e = entropy("phase-order", 1)
    state = resolve_chance(before, e)
    draws = Draws(e)
    supplies = [list(s) for s in before.supplies]
    for d in range(1, 7):
        for slot, (colour, least) in enumerate(DEPOT_SPACES[d]):
            if least <= players:
                assert state.depots[d][slot] == draws.take(supplies[colour])
    for slot in range((0, 0, 4, 6, 8)[players]):
        assert state.depots[0][slot] == draws.take(supplies[6])
    pool = list(before.goods_pool)
    assert state.phase_goods == tuple(draws.take(pool) for _ in range(5))
    assert state.supplies == tuple(tuple(s) for s in supplies)


def pass_game(players: int, seed: object = "pass"):
    """Everyone ends every turn at once; yields the state after each PHASE event."""
    state = new_game(GameConfig(players=players))
    while not state.is_over:
        if state.chance is not None:
            kind = state.chance.kind
            before = state
            state = resolve_chance(state, entropy(seed, state.chance.index))
            if kind == ChanceKind.PHASE:
                yield before, state
        else:
            state = end_turn(state)


def test_three_players_get_a_mine_on_depot_6_in_phases_b_and_d_and_a_castle_otherwise():
    seen = [after.depots[6][2] for _, after in pass_game(3)]
    assert seen == [Tile.CASTLE, Tile.MINE, Tile.CASTLE, Tile.MINE, Tile.CASTLE]


@pytest.mark.parametrize(("players", "expected"), [(2, EMPTY), (4, Tile.CASTLE)])
def test_depot_6_third_space_is_never_a_mine_outside_three_player_games(players, expected):
    assert [after.depots[6][2] for _, after in pass_game(players)] == [expected] * 5


@pytest.mark.parametrize("players", PLAYERS)
def test_next_phase_boxes_the_tiles_left_on_the_board_but_keeps_the_goods(players):
    phases = list(pass_game(players))
    assert [after.phase for _, after in phases] == [0, 1, 2, 3, 4]
    for before, after in phases[1:]:
        left = Counter(t for depot in before.depots for t in depot if t != EMPTY)
        boxed = Counter({t: after.box[t] - before.box[t] for t in range(len(after.box))})
        assert +boxed == left
        assert after.depot_goods == before.depot_goods
        assert sum(map(sum, after.depot_goods)) == 5 * before.phase  # five per phase so far
        assert tile_census(after) == TOTAL_TILES


def test_four_player_game_uses_every_face_down_tile_by_phase_e():
    _, last = list(pass_game(4))[-1]
    assert all(len(supply) == 0 for supply in last.supplies)
    assert sum(t != EMPTY for depot in last.depots for t in depot) == 24 + 8


def test_resolve_chance_rejects_bad_entropy_and_a_missing_event_and_changes_nothing():
    state = new_game(GameConfig(players=2))
    digest = state_hash(state)
    with pytest.raises(ChanceError, match="entropy must be 32 bytes, not 31"):
        resolve_chance(state, bytes(31))
    with pytest.raises(ChanceError, match="32 bytes"):
        resolve_chance(state, "x" * 32)  # type: ignore[arg-type]
    assert state_hash(state) == digest
    assert state.chance is not None and state.chance.kind == ChanceKind.SETUP
    playing = resolve_chance(resolve_chance(resolve_chance(state, bytes(32)), bytes(32)),
                             bytes(32))
    with pytest.raises(ChanceError, match="no chance event is pending"):
        resolve_chance(playing, bytes(32))


def test_same_entropy_gives_the_same_setup_and_different_entropy_differs():
    a = setup_state(4, "same")
    b = setup_state(4, "same")
    c = setup_state(4, "other")
    assert state_hash(a) == state_hash(b)
    assert state_hash(a) != state_hash(c)
