"""The 26 knowledge (yellow) tiles, in both editions (rulebook pages 10-11; 2019 changes)."""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    END_TURN,
    Buy,
    Payment,
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
from p2p_burgundy.scoring import Category
from p2p_burgundy.tiles import Building, Tile, knowledge_tile
from tests.engine.helpers import (
    E2011,
    E2019,
    assert_illegal,
    mover,
    play,
    position,
    started,
    with_game,
    with_player,
)


def of_type(actions, cls):
    return [a for a in actions if isinstance(a, cls)]


@pytest.mark.parametrize("number", range(1, 27))
def test_placing_knowledge_tile_n_gives_its_owner_knowledge_n(number):
    state = position(dice=(1, 1), storage=(knowledge_tile(number),), knowledge=[])
    after = play(state, UseDie(0), PlaceTile(0, 12))  # K1 next to the start castle
    assert mover(after).knowledge == 1 << number
    assert mover(after).has_knowledge(number)
    assert mover(after).vp == 0  # end-game tiles score only at the end
    assert after.step == Step.TURN


def test_1_allows_any_number_of_the_same_building_in_a_city():
    state = position(dice=(1, 1), storage=(Tile.BANK,), estate={25: Tile.BANK}, knowledge=[1],
                     silver=0)
    state = apply(state, UseDie(0))
    assert of_type(legal_actions(state), PlaceTile) == [PlaceTile(0, 26)]
    after = apply(state, PlaceTile(0, 26))
    assert mover(after).estate[26] == Tile.BANK
    assert mover(after).silver == 2


def end_of_phase(**fields):
    state = with_game(started(2, seed="k-phase"), round=4, turn=1)
    return with_player(state, dice_used=0b11, **fields)


def test_2_pays_a_worker_per_mine_at_the_end_of_each_phase():
    state = end_of_phase(estate={24: Tile.MINE, 29: Tile.MINE, 33: Tile.MINE}, knowledge=[2],
                         silver=0, workers=1)
    seat = state.to_move
    after = apply(state, END_TURN)
    assert (after.players[seat].silver, after.players[seat].workers) == (3, 4)


@pytest.mark.parametrize(("knowledge", "silver", "workers"), [
    ([], 1, 0), ([3], 2, 0), ([4], 1, 1), ([3, 4], 2, 1)])
def test_3_and_4_add_a_silverling_and_a_worker_to_every_sale(knowledge, silver, workers):
    by_die = play(position(dice=(4, 4), goods={4: 1}, knowledge=knowledge), UseDie(0),
                  SellGoods(4))
    assert (mover(by_die).silver, mover(by_die).workers) == (silver, workers)
    warehouse = position(dice=(3, 3), storage=(Tile.WAREHOUSE,), goods={4: 1},
                         knowledge=knowledge)
    warehouse = play(warehouse, UseDie(0), PlaceTile(0, 25), SellGoods(4))
    assert (mover(warehouse).silver, mover(warehouse).workers) == (silver, workers)


def ship(knowledge, depot_goods, **fields):
    state = position(dice=(2, 2), storage=(Tile.SHIP,), knowledge=knowledge,
                     depot_goods=depot_goods, **fields)
    return play(state, UseDie(0), PlaceTile(0, 17))


def test_5_takes_goods_from_two_neighbouring_depots_and_6_neighbours_1():
    goods = {6: {1: 1}, 1: {2: 1}, 3: {3: 1}}
    state = ship([5], goods)
    assert legal_actions(state) == [
        TakeGoods((1,), (2,)), TakeGoods((3,), (3,)), TakeGoods((6,), (1,)),
        TakeGoods((1, 6), (1, 2)),
    ]
    after = apply(state, TakeGoods((1, 6), (1, 2)))
    assert mover(after).goods == (0, 1, 1, 0, 0, 0, 0)
    assert after.depot_goods[1] == after.depot_goods[6] == (0,) * 7
    assert_illegal(state, TakeGoods((1, 3), (2, 3)), "depots 1 and 3 are not neighbours")
    without = ship([], goods)
    assert_illegal(without, TakeGoods((1, 6), (1, 2)), "taking from two depots needs knowledge #5")


def test_5_keeps_at_most_three_types_from_both_depots():
    state = ship([5], {2: {1: 1, 2: 1}, 3: {3: 1, 4: 1}}, goods={6: 1})
    pair = [a for a in legal_actions(state) if a.depots == (2, 3)]
    assert pair == [TakeGoods((2, 3), keep) for keep in
                    [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]]


def test_6_buys_from_every_depot_once_per_turn_with_silver_in_2011():
    state = position(silver=4, workers=4, knowledge=[6],
                     depots={0: (Tile.BANK,), 3: (Tile.SHIP,)})
    assert of_type(legal_actions(state), Buy) == [Buy(0, 0), Buy(3, 0)]
    after = apply(state, Buy(3, 0))
    assert (mover(after).silver, mover(after).storage) == (2, (Tile.SHIP,))
    assert of_type(legal_actions(after), Buy) == []
    assert_illegal(after, Buy(0, 0), "already bought a tile this turn")
    assert_illegal(state, Buy(3, 0, Payment.WORKERS), "2019 edition")


def test_6_in_2019_may_pay_with_two_workers_instead():
    state = position(edition=E2019, silver=2, workers=2, knowledge=[6],
                     depots={0: (Tile.BANK,), 3: (Tile.SHIP,)})
    assert of_type(legal_actions(state), Buy) == [
        Buy(0, 0, Payment.SILVER), Buy(0, 0, Payment.WORKERS),
        Buy(3, 0, Payment.SILVER), Buy(3, 0, Payment.WORKERS),
    ]
    after = apply(state, Buy(3, 0, Payment.WORKERS))
    assert (mover(after).silver, mover(after).workers) == (2, 0)
    poor = with_player(state, silver=0)
    assert of_type(legal_actions(poor), Buy) == [Buy(0, 0, Payment.WORKERS),
                                                 Buy(3, 0, Payment.WORKERS)]
    # without #6, the 2019 edition still sells the black depot for silver only
    plain = with_player(state, knowledge=[])
    assert of_type(legal_actions(plain), Buy) == [Buy(0, 0, Payment.SILVER)]
    assert_illegal(plain, Buy(0, 0, Payment.WORKERS), "needs knowledge #6")
    one_worker = with_player(state, workers=1, silver=0)
    assert of_type(legal_actions(one_worker), Buy) == []


def test_7_adds_a_point_per_scoring_animal_tile():
    state = position(dice=(2, 2), storage=(Tile.COW_2,), knowledge=[7],
                     estate={10: Tile.COW_3, 9: Tile.PIG_4, 17: Tile.SHIP})
    after = play(state, UseDie(0), PlaceTile(0, 4))
    assert mover(after).breakdown[Category.ANIMALS] == (2 + 1) + (3 + 1)


@pytest.mark.parametrize(("die", "depot", "workers_left"), [
    (1, 3, 2), (1, 4, 1), (1, 5, 2), (6, 3, 1), (2, 5, 1), (3, 6, 1)])
def test_8_moves_a_die_by_up_to_two_per_worker(die, depot, workers_left):
    state = position(dice=(die, die), workers=3, knowledge=[8], depots={depot: (Tile.BANK,)})
    after = play(state, UseDie(0), TakeTile(depot, 0))
    assert mover(after).workers == workers_left


@pytest.mark.parametrize(("number", "tile", "die", "space"), [
    (9, Tile.BANK, 2, 25), (9, Tile.BANK, 4, 25),
    (10, Tile.SHIP, 3, 17), (10, Tile.SHIP, 1, 17), (10, Tile.PIG_3, 5, 10),
    (11, Tile.MINE, 3, 24), (11, Tile.MINE, 5, 24), (11, Tile.KNOWLEDGE_3, 2, 12),
    (11, Tile.CASTLE, 1, 6),
])
def test_9_10_11_place_their_colours_one_off_the_die_for_free(number, tile, die, space):
    fields = {"estate": {11: Tile.WAREHOUSE}} if space in (6, 10) else {}
    base = position(dice=(die, die), storage=(tile,), knowledge=[number], **fields)
    state = apply(base, UseDie(0))
    assert PlaceTile(0, space) in legal_actions(state)
    after = apply(state, PlaceTile(0, space))
    assert mover(after).estate[space] == tile
    assert mover(after).workers == 0
    without = apply(with_player(base, knowledge=[]), UseDie(1))
    assert PlaceTile(0, space) not in legal_actions(without)


@pytest.mark.parametrize(("number", "tile", "die", "space"), [
    (9, Tile.SHIP, 3, 17), (10, Tile.BANK, 2, 25), (11, Tile.SHIP, 3, 17),
    (12, Tile.BANK, 2, 25), (9, Tile.BANK, 5, 25),
])
def test_9_10_11_12_do_not_help_other_colours_or_further_than_one(number, tile, die, space):
    state = position(dice=(die, die), storage=(tile,), knowledge=[number])
    state = apply(state, UseDie(0))
    assert PlaceTile(0, space) not in legal_actions(state)
    assert_illegal(state, PlaceTile(0, space), "takes 1 worker; you have 0")


def test_12_takes_tiles_one_off_the_die_for_free():
    depots = {d: (Tile.BANK,) for d in range(1, 7)}
    state = apply(position(dice=(3, 3), knowledge=[12], depots=depots), UseDie(0))
    assert of_type(legal_actions(state), TakeTile) == [TakeTile(2, 0), TakeTile(3, 0),
                                                       TakeTile(4, 0)]
    assert mover(apply(state, TakeTile(4, 0))).workers == 0
    rich = apply(position(dice=(3, 3), knowledge=[12], workers=1, depots=depots), UseDie(0))
    assert of_type(legal_actions(rich), TakeTile) == [TakeTile(d, 0) for d in (1, 2, 3, 4, 5)]
    assert mover(apply(rich, TakeTile(5, 0))).workers == 0


@pytest.mark.parametrize(("knowledge", "workers", "silver"), [
    ([], 2, 0), ([13], 2, 1), ([14], 4, 0), ([13, 14], 4, 1)])
def test_13_and_14_improve_the_take_workers_action(knowledge, workers, silver):
    after = play(position(knowledge=knowledge), UseDie(0), TakeWorkers())
    assert (mover(after).workers, mover(after).silver) == (workers, silver)


def test_13_gives_nothing_extra_for_a_boarding_house():
    state = position(dice=(3, 3), storage=(Tile.BOARDING_HOUSE,), knowledge=[13, 14])
    after = play(state, UseDie(0), PlaceTile(0, 25))
    assert (mover(after).workers, mover(after).silver) == (4, 0)


# --- End-game knowledge tiles ----------------------------------------------------------------

def final_breakdown(edition=E2011, **fields):
    """The last player's score breakdown after the last turn of the game."""
    state = with_game(started(2, edition=edition, seed="final"), phase=4, round=4, turn=1)
    defaults = {"silver": 0, "workers": 0, "goods": {}, "knowledge": [], "dice_used": 0b11}
    defaults.update(fields)
    state = with_player(state, **defaults)
    seat = state.to_move
    after = apply(state, END_TURN)
    assert after.is_over
    return after.players[seat].breakdown


DARIO_SOLD = {4: 4, 2: 3, 3: 3, 6: 1}  # 4 red, 3 violet, 3 pink, 1 orange


@pytest.mark.parametrize(("edition", "points"), [(E2011, 12), (E2019, 8)])
def test_15_scores_per_goods_type_sold_3_in_2011_and_2_in_2019(edition, points):
    breakdown = final_breakdown(edition, knowledge=[15], sold=DARIO_SOLD, goods={5: 2})
    assert breakdown[Category.KNOWLEDGE] == points
    assert breakdown[Category.GOODS_LEFT] == 2  # unsold goods count only as goods


@pytest.mark.parametrize(("number", "building"), [
    (16, Building.MARKET), (17, Building.WATCHTOWER), (18, Building.CARPENTERS_WORKSHOP),
    (19, Building.CHURCH), (20, Building.WAREHOUSE), (21, Building.BOARDING_HOUSE),
    (22, Building.BANK), (23, Building.CITY_HALL),
])
def test_16_to_23_score_4_per_building_of_their_type(number, building):
    other = Building.BANK if building != Building.BANK else Building.CHURCH
    estate = {11: building, 25: building, 26: other, 8: building}
    assert final_breakdown(knowledge=[number], estate=estate)[Category.KNOWLEDGE] == 12
    assert final_breakdown(knowledge=[number], estate={26: other})[Category.KNOWLEDGE] == 0


def test_24_scores_4_per_animal_type_in_the_estate():
    estate = {10: Tile.COW_2, 9: Tile.SHEEP_3, 4: Tile.SHEEP_2, 27: Tile.SHEEP_4}
    assert final_breakdown(knowledge=[24], estate=estate)[Category.KNOWLEDGE] == 8


def test_25_scores_1_per_goods_tile_sold():
    assert final_breakdown(knowledge=[25], sold=DARIO_SOLD)[Category.KNOWLEDGE] == 11


@pytest.mark.parametrize(("edition", "per_tile"), [(E2011, 2), (E2019, 3)])
def test_26_scores_per_bonus_tile_large_or_small_2_in_2011_and_3_in_2019(edition, per_tile):
    bonuses = (1, 0, 2, 0, 2, 0)
    breakdown = final_breakdown(edition, knowledge=[26], bonuses=bonuses)
    assert breakdown[Category.KNOWLEDGE] == 3 * per_tile


def test_end_game_knowledge_tiles_add_up():
    breakdown = final_breakdown(
        knowledge=[15, 17, 22, 24, 25, 26], sold=DARIO_SOLD, bonuses=(1, 2, 0, 0, 0, 0),
        estate={11: Tile.WATCHTOWER, 25: Tile.BANK, 10: Tile.COW_2},
    )
    assert breakdown[Category.KNOWLEDGE] == 12 + 4 + 4 + 4 + 11 + 4


@pytest.mark.parametrize("number", [n for n in range(1, 15)])
def test_knowledge_tiles_1_to_14_score_nothing_at_the_end(number):
    breakdown = final_breakdown(knowledge=[number], sold=DARIO_SOLD, bonuses=(1, 1, 1, 1, 1, 1),
                                estate={11: Tile.WATCHTOWER, 10: Tile.COW_2})
    assert breakdown[Category.KNOWLEDGE] == 0
