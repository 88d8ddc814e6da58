"""What placed tiles do: the eight buildings, ships, animals, castles and mines (pages 5-8)."""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    Discard,
    PlaceTile,
    SellGoods,
    Step,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.actions import PASS
from p2p_burgundy.scoring import Category
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import assert_illegal, mover, play, position

CITY_1 = 11  # B3: a one-space city next to the start castle (completes on placement)
CITY_5 = 25  # B3: in the five-space city next to the start castle


def build(tile, space=CITY_1, **fields):
    """Place building ``tile`` with die 3 (both dice show 3) from storage slot 0."""
    fields.setdefault("dice", (3, 3))
    storage = (tile, *fields.pop("storage", ()))
    state = position(storage=storage, **fields)
    return play(state, UseDie(0), PlaceTile(0, space))


# --- Buildings -------------------------------------------------------------------------------

def test_warehouse_sells_one_goods_type_of_choice_without_a_die():
    state = build(Tile.WAREHOUSE, CITY_5, goods={2: 2, 5: 1}, silver=0)
    assert state.step == Step.WAREHOUSE
    assert legal_actions(state) == [SellGoods(2), SellGoods(5), PASS]
    after = apply(state, SellGoods(5))
    p = mover(after)
    assert p.goods == (0, 0, 2, 0, 0, 0, 0)
    assert p.sold == (0, 0, 0, 0, 0, 1, 0)
    assert (p.silver, p.workers, p.breakdown[Category.SALES]) == (1, 0, 2)
    assert p.dice_used == 0b01  # the sale used no die
    assert after.step == Step.TURN
    passed = apply(state, PASS)
    assert mover(passed).goods == (0, 0, 2, 0, 0, 1, 0)
    assert passed.step == Step.TURN


def test_warehouse_without_goods_has_no_advantage_to_use():
    state = build(Tile.WAREHOUSE, CITY_5)
    assert state.step == Step.TURN
    assert mover(state).estate[CITY_5] == Tile.WAREHOUSE


@pytest.mark.parametrize(("building", "offered"), [
    (Tile.CARPENTERS_WORKSHOP, [TakeTile(1, 0), TakeTile(4, 0)]),
    (Tile.CHURCH, [TakeTile(2, 0), TakeTile(2, 1), TakeTile(5, 1)]),
    (Tile.MARKET, [TakeTile(1, 1), TakeTile(3, 0), TakeTile(6, 0)]),
])
def test_carpenter_church_and_market_take_their_colours_from_numbered_depots_only(
        building, offered):
    depots = {
        0: (Tile.BANK, Tile.MINE, Tile.SHIP, Tile.COW_3),  # the black depot: never offered
        1: (Tile.CHURCH, Tile.SHIP),
        2: (Tile.KNOWLEDGE_3, Tile.CASTLE),
        3: (Tile.PIG_2,),
        4: (Tile.WATCHTOWER,),
        5: (EMPTY, Tile.MINE),
        6: (Tile.SHIP,),
    }
    state = build(building, CITY_5, depots=depots)
    assert legal_actions(state) == [*offered, PASS]
    depot, slot = offered[-1].depot, offered[-1].slot
    after = apply(state, offered[-1])
    assert mover(after).storage == (depots[depot][slot],)
    assert after.depots[depot][slot] == EMPTY
    assert after.step == Step.TURN
    assert_illegal(state, TakeTile(0, 0), "only numbered depots 1..6 (not the black depot)")
    wrong = {Tile.CARPENTERS_WORKSHOP: TakeTile(1, 1), Tile.CHURCH: TakeTile(3, 0),
             Tile.MARKET: TakeTile(4, 0)}[building]
    assert_illegal(state, wrong, "this building takes")


@pytest.mark.parametrize("building", [Tile.CARPENTERS_WORKSHOP, Tile.CHURCH, Tile.MARKET])
def test_building_whose_tiles_are_missing_is_still_placed_and_its_advantage_lost(building):
    state = build(building, CITY_5, depots={0: (Tile.BANK, Tile.SHIP, Tile.MINE, Tile.COW_2)})
    assert state.step == Step.TURN
    assert mover(state).estate[CITY_5] == building


def test_carpenter_into_full_storage_asks_for_a_discard():
    storage = (Tile.SHIP, Tile.MINE, Tile.COW_2)
    state = build(Tile.CARPENTERS_WORKSHOP, CITY_5, storage=storage,
                  depots={2: (EMPTY, EMPTY, Tile.BANK)})
    after = apply(state, TakeTile(2, 2))
    assert mover(after).storage == (*storage, Tile.BANK)
    assert after.step == Step.DISCARD
    assert mover(apply(after, Discard(2))).storage == (Tile.SHIP, Tile.MINE, Tile.BANK)


def test_boarding_house_gives_four_workers():
    state = build(Tile.BOARDING_HOUSE, CITY_5, workers=1)
    assert mover(state).workers == 5
    assert state.step == Step.TURN


def test_bank_gives_two_silverlings():
    state = build(Tile.BANK, CITY_5, silver=1)
    assert mover(state).silver == 3


def test_watchtower_scores_four_victory_points():
    state = build(Tile.WATCHTOWER, CITY_5)
    p = mover(state)
    assert p.breakdown[Category.WATCHTOWERS] == 4
    assert p.vp == 4


def test_city_hall_places_another_tile_on_any_die_number_keeping_colour_and_adjacency():
    state = build(Tile.CITY_HALL, CITY_1, storage=(Tile.SHIP, Tile.MINE))
    assert state.step == Step.CITY_HALL
    assert legal_actions(state) == [PlaceTile(0, 17), PlaceTile(0, 19), PlaceTile(1, 24), PASS]
    after = apply(state, PlaceTile(1, 24))  # a 4 space with dice 3 and 3, no workers
    p = mover(after)
    assert p.estate[24] == Tile.MINE
    assert p.storage == (Tile.SHIP,)
    assert (p.workers, p.dice_used) == (0, 0b01)
    assert after.step == Step.TURN
    assert_illegal(state, PlaceTile(1, 25), "colours must match")
    assert_illegal(state, PlaceTile(0, 16), "not next to a placed tile")
    assert_illegal(state, PlaceTile(2, 17), "storage space 2 is empty")


def test_city_hall_placement_triggers_the_placed_tiles_effect():
    state = build(Tile.CITY_HALL, CITY_1, storage=(Tile.WATCHTOWER,))
    after = apply(state, PlaceTile(0, CITY_5))
    assert mover(after).breakdown[Category.WATCHTOWERS] == 4
    chained = build(Tile.CITY_HALL, CITY_1, storage=(Tile.CITY_HALL, Tile.BANK))
    chained = apply(chained, PlaceTile(0, CITY_5))
    assert chained.step == Step.CITY_HALL  # the second city hall places again
    assert legal_actions(chained) == [PlaceTile(0, 26), PlaceTile(0, 31), PASS]


def test_city_hall_with_nothing_placeable_has_no_advantage_to_use():
    state = build(Tile.CITY_HALL, CITY_5, storage=(Tile.COW_2,))  # no pasture in reach
    assert state.step == Step.TURN


# --- Ships -----------------------------------------------------------------------------------

def ship(**fields):
    """Place a ship on S2 (space 17) with a die of 2."""
    fields.setdefault("dice", (2, 2))
    return play(position(storage=(Tile.SHIP,), **fields), UseDie(0), PlaceTile(0, 17))


def test_ship_takes_all_goods_of_any_depot_whatever_the_die():
    state = ship(depot_goods={5: {3: 2, 1: 1}, 1: {6: 1}})
    assert state.step == Step.SHIP
    assert legal_actions(state) == [TakeGoods((1,), (6,)), TakeGoods((5,), (1, 3))]
    after = apply(state, TakeGoods((5,), (1, 3)))
    assert mover(after).goods == (0, 1, 0, 2, 0, 0, 0)
    assert after.depot_goods[5] == (0,) * 7
    assert after.depot_goods[1] == (0, 0, 0, 0, 0, 0, 1)
    assert after.step == Step.TURN
    assert after.track[after.to_move][0] == 1


def test_ship_keeps_at_most_three_goods_types_and_the_player_chooses_which():
    state = ship(goods={1: 1, 2: 1}, depot_goods={4: {2: 1, 3: 1, 4: 2}})
    assert legal_actions(state) == [TakeGoods((4,), (2, 3)), TakeGoods((4,), (2, 4))]
    after = apply(state, TakeGoods((4,), (2, 4)))
    assert mover(after).goods == (0, 1, 2, 0, 2, 0, 0)
    assert after.depot_goods[4] == (0, 0, 0, 1, 0, 0, 0)  # what was left behind stays
    assert_illegal(state, TakeGoods((4,), (2, 3, 4)), "at most three types at once")
    assert_illegal(state, TakeGoods((4,), (2,)), "keep every goods type you can store")


def test_ship_with_three_types_held_still_takes_more_of_those_types():
    state = ship(goods={1: 1, 2: 1, 3: 1}, depot_goods={4: {3: 2, 5: 1}, 6: {6: 1}})
    assert legal_actions(state) == [TakeGoods((4,), (3,)), TakeGoods((6,), ())]
    after = apply(state, TakeGoods((4,), (3,)))
    assert mover(after).goods == (0, 1, 1, 3, 0, 0, 0)
    assert after.depot_goods[4] == (0, 0, 0, 0, 0, 1, 0)


def test_ship_choices_follow_knowledge_5_over_the_same_goods():
    # The choices are remembered with the goods they came from: the same rows (the same
    # objects) with knowledge #5 learnt must still add the pair of neighbouring depots.
    state = ship(depot_goods={1: {6: 1}, 2: {3: 1}})
    assert legal_actions(state) == [TakeGoods((1,), (6,)), TakeGoods((2,), (3,))]
    learnt = state.clone()
    players = [*state.players]
    players[state.to_move] = p = players[state.to_move].copy()
    p.knowledge |= 1 << 5
    learnt.players = tuple(players)
    assert learnt.depot_goods is state.depot_goods and p.goods is mover(state).goods
    assert legal_actions(learnt) == [TakeGoods((1,), (6,)), TakeGoods((2,), (3,)),
                                     TakeGoods((1, 2), (3, 6))]
    assert legal_actions(state) == [TakeGoods((1,), (6,)), TakeGoods((2,), (3,))]


def test_ship_with_no_goods_on_any_depot_only_moves_on_the_track():
    state = ship()
    assert state.step == Step.TURN
    assert state.track[state.to_move][0] == 1
    assert mover(state).goods == (0,) * 7


# --- Animals ---------------------------------------------------------------------------------

def test_animal_scores_its_animals_plus_same_type_tiles_in_that_pasture_only():
    # big pasture: spaces 0, 4, 5, 9, 10; space 27 is a pasture of its own
    state = position(dice=(2, 2), storage=(Tile.COW_2,),
                     estate={10: Tile.COW_3, 9: Tile.PIG_4, 27: Tile.COW_4, 17: Tile.SHIP})
    after = play(state, UseDie(0), PlaceTile(0, 4))
    assert mover(after).breakdown[Category.ANIMALS] == 2 + 3
    assert mover(after).vp == 5


def test_animal_in_an_empty_pasture_scores_its_own_animals():
    state = position(dice=(4, 4), storage=(Tile.SHEEP_4,), estate={11: Tile.BANK})
    after = play(state, UseDie(0), PlaceTile(0, 10))
    assert mover(after).breakdown[Category.ANIMALS] == 4


# --- Castles ---------------------------------------------------------------------------------

def test_castle_gives_an_extra_action_with_any_die_number():
    state = position(dice=(6, 1), storage=(Tile.CASTLE, Tile.SHIP, Tile.MINE), goods={3: 1},
                     depots={1: (Tile.BANK,), 4: (Tile.COW_2,)}, estate={11: Tile.WAREHOUSE})
    state = play(state, UseDie(0), PlaceTile(0, 6))
    assert state.step == Step.FREE_ACTION
    assert legal_actions(state) == [
        TakeTile(1, 0), TakeTile(4, 0), PlaceTile(0, 17), PlaceTile(0, 19), PlaceTile(1, 24),
        SellGoods(3), TakeWorkers(),
    ]
    after = apply(state, PlaceTile(1, 24))  # a 4 with dice 6 and 1 and no workers
    assert mover(after).estate[24] == Tile.MINE
    assert after.step == Step.TURN
    assert legal_actions(after) == [UseDie(1)]
    took = apply(state, TakeTile(4, 0))
    assert mover(took).storage == (Tile.SHIP, Tile.MINE, Tile.COW_2)
    assert mover(apply(state, SellGoods(3))).sold[3] == 1
    assert mover(apply(state, TakeWorkers())).workers == 2
    assert_illegal(state, TakeTile(0, 0), "a die takes from numbered depots 1..6 only")


# --- Mines -----------------------------------------------------------------------------------

def test_mine_has_no_immediate_effect():
    state = position(dice=(4, 4), storage=(Tile.MINE,), silver=1)
    after = play(state, UseDie(0), PlaceTile(0, 24))
    p = mover(after)
    assert p.estate[24] == Tile.MINE
    assert (p.silver, p.workers, p.vp) == (1, 0, 0)
    assert after.step == Step.TURN
