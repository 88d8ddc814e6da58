"""Every worked example of the 2011 rulebook (shared/rules/000), played on the engine."""

from __future__ import annotations

from p2p_burgundy import (
    END_TURN,
    PlaceTile,
    TakeGoods,
    TakeTile,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.estate import estate
from p2p_burgundy.rules import worker_cost
from p2p_burgundy.scoring import Category
from p2p_burgundy.tiles import Colour, Tile
from tests.engine.helpers import mover, play, position, started, with_game, with_player


def test_benno_adds_a_4_cow_to_a_3_cow_for_7_then_another_4_cow_for_11():
    # the big pasture (spaces 0, 4, 5, 9, 10) holds a 3-cow tile on space 9
    state = position(dice=(4, 1), storage=(Tile.COW_4, Tile.COW_4), estate={9: Tile.COW_3})
    state = play(state, UseDie(0), PlaceTile(0, 10))
    assert mover(state).breakdown[Category.ANIMALS] == 4 + 3
    state = play(state, UseDie(1), PlaceTile(0, 5))
    assert mover(state).breakdown[Category.ANIMALS] == 7 + (4 + 4 + 3)


def test_benno_with_tile_7_scores_9_for_3_sheep_next_to_4_sheep_and_then_3_for_2_pigs():
    state = position(dice=(4, 1), storage=(Tile.SHEEP_3, Tile.PIG_2), estate={9: Tile.SHEEP_4},
                     knowledge=[7])
    state = play(state, UseDie(0), PlaceTile(0, 10))
    assert mover(state).breakdown[Category.ANIMALS] == (3 + 1) + (4 + 1)
    state = play(state, UseDie(1), PlaceTile(0, 5))
    assert mover(state).breakdown[Category.ANIMALS] == 9 + (2 + 1)


def test_anna_turns_a_2_into_a_6_with_2_workers_and_takes_from_depot_6():
    assert worker_cost(2, 6) == 2
    state = position(dice=(2, 5), workers=2, depots={6: (Tile.CASTLE,)})
    state = play(state, UseDie(0), TakeTile(6, 0))
    assert mover(state).workers == 0
    assert mover(state).storage == (Tile.CASTLE,)


def test_carla_with_tile_8_makes_a_3_from_a_6_with_2_workers():
    assert worker_cost(6, 3, per_worker=2) == 2
    assert worker_cost(6, 3) == 3
    state = position(dice=(6, 6), workers=2, knowledge=[8], depots={3: (Tile.SHIP,)})
    state = play(state, UseDie(0), TakeTile(3, 0))
    assert mover(state).workers == 0
    without = apply(position(dice=(6, 6), workers=2, depots={3: (Tile.SHIP,)}), UseDie(0))
    assert TakeTile(3, 0) not in legal_actions(without)


def test_carla_ship_adds_turquoise_to_her_turquoise_and_chooses_pink_or_brown():
    state = position(dice=(2, 2), storage=(Tile.SHIP,), goods={1: 1, 4: 1},
                     depot_goods={3: {1: 1, 3: 1, 5: 1}})
    state = play(state, UseDie(0), PlaceTile(0, 17))
    assert legal_actions(state) == [TakeGoods((3,), (1, 3)), TakeGoods((3,), (1, 5))]
    after = apply(state, TakeGoods((3,), (1, 5)))
    assert mover(after).goods == (0, 2, 0, 0, 1, 1, 0)
    assert after.depot_goods[3] == (0, 0, 0, 1, 0, 0, 0)


def final(**fields):
    state = with_game(started(2, seed="examples"), phase=4, round=4, turn=1)
    defaults = {"silver": 0, "workers": 0, "goods": {}, "dice_used": 0b11}
    defaults.update(fields)
    state = with_player(state, **defaults)
    seat = state.to_move
    return apply(state, END_TURN).players[seat].breakdown


def test_dario_sold_4_types_for_12_with_tile_15_and_11_tiles_for_11_with_tile_25():
    sold = {4: 4, 2: 3, 3: 3, 6: 1}
    assert final(knowledge=[15], sold=sold)[Category.KNOWLEDGE] == 12
    assert final(knowledge=[25], sold=sold)[Category.KNOWLEDGE] == 11
    assert final(knowledge=[15, 25], sold=sold)[Category.KNOWLEDGE] == 23


def test_benno_with_tiles_17_and_22_two_watchtowers_and_four_banks_scores_24():
    estate_tiles = {
        8: Tile.BANK, 13: Tile.WATCHTOWER,  # city of 3: 8, 13, 14
        11: Tile.BANK,  # city of 1
        22: Tile.BANK,  # city of 3: 22, 23, 28
        25: Tile.BANK, 26: Tile.WATCHTOWER,  # city of 5
        12: Tile.KNOWLEDGE_17, 7: Tile.KNOWLEDGE_22,
    }
    breakdown = final(knowledge=[17, 22], estate=estate_tiles)
    assert breakdown[Category.KNOWLEDGE] == 2 * 4 + 4 * 4


def test_anna_with_tile_24_and_a_cow_a_chicken_and_3_sheep_scores_12():
    estate_tiles = {10: Tile.COW_2, 9: Tile.CHICKEN_3, 4: Tile.SHEEP_2, 5: Tile.SHEEP_3,
                    27: Tile.SHEEP_4, 30: Tile.KNOWLEDGE_24}
    assert final(knowledge=[24], estate=estate_tiles)[Category.KNOWLEDGE] == 12


def test_estate_1_has_four_cities_of_sizes_1_5_3_3():
    cities = sorted(r.size for r in estate("1").regions if r.colour == Colour.BEIGE)
    assert cities == [1, 3, 3, 5]
