"""The four die actions, the purchase, worker tiles and the dice (rulebook pages 4-5, 8-9)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_burgundy import (
    END_TURN,
    Buy,
    Discard,
    EndTurn,
    Payment,
    PlaceTile,
    SellGoods,
    Step,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
)
from p2p_burgundy.rules import worker_cost
from p2p_burgundy.scoring import Category
from p2p_burgundy.state import EMPTY
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import (
    CASTLE_SPACE,
    assert_illegal,
    frontier_of,
    mover,
    play,
    position,
)


def of_type(actions, cls):
    return [a for a in actions if isinstance(a, cls)]


# --- Choosing dice ---------------------------------------------------------------------------

def test_turn_starts_with_both_dice_a_purchase_or_ending_the_turn():
    state = position(dice=(3, 5), silver=2, depots={0: (Tile.BANK,)})
    assert state.step == Step.TURN
    assert legal_actions(state) == [UseDie(0), UseDie(1), Buy(0, 0, Payment.SILVER)]


def test_using_a_die_marks_it_used_and_offers_the_four_actions_with_its_number():
    state = position(dice=(3, 5), storage=(Tile.BANK,), goods={3: 1, 5: 2},
                     depots={3: (Tile.SHIP,), 4: (Tile.MINE,), 5: (Tile.COW_2,)})
    after = apply(state, UseDie(0))
    assert mover(after).dice_used == 0b01
    assert after.step == Step.DIE
    assert after.pending == ((Step.DIE, 0),)
    assert legal_actions(after) == [
        TakeTile(3, 0), PlaceTile(0, 11), PlaceTile(0, 25), SellGoods(3), TakeWorkers()]
    assert legal_actions(play(state, UseDie(1))) == [TakeTile(5, 0), SellGoods(5), TakeWorkers()]


def test_second_die_is_offered_after_the_first_and_then_only_the_end_of_the_turn():
    state = position(dice=(3, 5))
    state = play(state, UseDie(1), TakeWorkers())
    assert legal_actions(state) == [UseDie(0)]
    state = play(state, UseDie(0), TakeWorkers())
    assert legal_actions(state) == [END_TURN]
    assert mover(state).workers == 4
    assert_illegal(state, UseDie(0), "die 0 (3) is already used")


def test_end_turn_needs_both_dice_used_then_passes_the_turn():
    state = position(dice=(3, 5))
    seat = state.to_move
    assert END_TURN not in legal_actions(state)
    assert_illegal(state, END_TURN, "use your 3 and 5 first: a turn is one action per die")
    half = play(state, UseDie(0), TakeWorkers())
    assert END_TURN not in legal_actions(half)
    assert_illegal(half, END_TURN, "use your 5 first")
    done = play(half, UseDie(1), TakeWorkers())
    after = apply(done, END_TURN)
    assert after.to_move != seat
    assert after.turn == 1
    assert after.players[seat].to_tree() == done.players[seat].to_tree()


# --- Take a tile -----------------------------------------------------------------------------

def test_take_tile_takes_from_the_depot_of_the_die_number_into_storage():
    state = position(dice=(3, 5), depots={3: (Tile.SHIP, Tile.BANK), 4: (Tile.COW_2,)})
    state = apply(state, UseDie(0))
    assert of_type(legal_actions(state), TakeTile) == [TakeTile(3, 0), TakeTile(3, 1)]
    after = apply(state, TakeTile(3, 1))
    assert mover(after).storage == (Tile.BANK,)
    assert after.depots[3] == (Tile.SHIP, EMPTY, EMPTY, EMPTY)
    assert after.step == Step.TURN
    assert_illegal(state, TakeTile(4, 0), "turning your 3 into a 4 takes 1 worker; you have 0")


def test_full_storage_takes_the_new_tile_then_discards_an_old_one_never_the_new():
    old = (Tile.BANK, Tile.SHIP, Tile.MINE)
    state = position(dice=(3, 5), storage=old, depots={3: (Tile.COW_2,)})
    after = play(state, UseDie(0), TakeTile(3, 0))
    assert mover(after).storage == (*old, Tile.COW_2)
    assert after.step == Step.DISCARD
    assert legal_actions(after) == [Discard(0), Discard(1), Discard(2)]
    assert_illegal(after, Discard(3), "never the new one")
    assert_illegal(after, END_TURN, "storage is full: discard one of the three older tiles")
    done = apply(after, Discard(1))
    assert mover(done).storage == (Tile.BANK, Tile.MINE, Tile.COW_2)
    assert done.box[Tile.SHIP] == after.box[Tile.SHIP] + 1
    assert sum(done.box) == sum(after.box) + 1
    assert done.step == Step.TURN


# --- Place a tile ----------------------------------------------------------------------------

@pytest.mark.parametrize(("die", "space"), [(2, 17), (5, 19)])
def test_place_tile_goes_on_an_empty_space_of_the_die_number_and_colour(die, space):
    state = play(position(dice=(die, 6), storage=(Tile.SHIP,)), UseDie(0))
    assert of_type(legal_actions(state), PlaceTile) == [PlaceTile(0, space)]
    after = apply(state, PlaceTile(0, space))
    p = mover(after)
    assert p.estate[space] == Tile.SHIP
    assert p.storage == ()
    assert p.occupied == 1 << CASTLE_SPACE | 1 << space
    assert p.frontier == frontier_of(p.occupied)


def test_first_tile_must_touch_the_start_castle():
    # die 1 shows two river spaces (16 and 21) but neither touches the castle
    state = play(position(dice=(1, 1), storage=(Tile.SHIP,)), UseDie(0))
    assert of_type(legal_actions(state), PlaceTile) == []
    assert_illegal(state, PlaceTile(0, 16), "S1 (row 4, 2) is not next to a placed tile")
    # once S2 (space 17) is covered, S1 next to it is fine
    later = play(position(dice=(1, 1), storage=(Tile.SHIP,), estate={17: Tile.SHIP}),
                 UseDie(0))
    assert of_type(legal_actions(later), PlaceTile) == [PlaceTile(0, 16)]


def test_place_tile_rejects_a_space_of_another_colour():
    state = play(position(dice=(3, 3), storage=(Tile.MINE,)), UseDie(0))
    assert of_type(legal_actions(state), PlaceTile) == []
    assert_illegal(state, PlaceTile(0, 25), "a grey tile (mine) cannot go on B3 (row 5, 4)",
                   "colours must match")


def test_place_tile_rejects_a_covered_space():
    state = play(position(dice=(3, 3), storage=(Tile.BANK,), estate={11: Tile.CHURCH}),
                 UseDie(0))
    assert_illegal(state, PlaceTile(0, 11), "B3 (row 3, 3) is already covered")


def test_city_takes_each_building_type_once_but_another_city_may_have_it_too():
    state = play(position(dice=(3, 1), storage=(Tile.BANK,), estate={25: Tile.BANK}),
                 UseDie(0))
    # die 3: B3 at 11 (its own city) is fine
    assert of_type(legal_actions(state), PlaceTile) == [PlaceTile(0, 11)]
    other_die = play(position(dice=(3, 1), storage=(Tile.BANK,), estate={25: Tile.BANK}),
                     UseDie(1))
    # die 1: B1 at 26 is in the city that already has a bank
    assert of_type(legal_actions(other_die), PlaceTile) == []
    assert_illegal(other_die, PlaceTile(0, 26), "that city already has a bank",
                   "knowledge #1")
    # a different building on the same space is fine
    fine = play(position(dice=(1, 1), storage=(Tile.MARKET,), estate={25: Tile.BANK}),
                UseDie(0))
    assert of_type(legal_actions(fine), PlaceTile) == [PlaceTile(0, 26)]


# --- Sell goods ------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "per_tile"), [(2, 2), (3, 3), (4, 4)])
def test_sell_goods_sells_every_tile_of_the_die_type_for_one_silverling(players, per_tile):
    state = position(players, dice=(4, 6), goods={4: 3, 2: 1}, silver=1)
    after = play(state, UseDie(0), SellGoods(4))
    p = mover(after)
    assert p.goods == (0, 0, 1, 0, 0, 0, 0)
    assert p.sold == (0, 0, 0, 0, 3, 0, 0)
    assert p.silver == 2
    assert p.breakdown[Category.SALES] == 3 * per_tile
    assert p.vp == 3 * per_tile


def test_sell_goods_needs_goods_of_the_die_type():
    state = play(position(dice=(4, 6), goods={2: 1}), UseDie(0))
    assert of_type(legal_actions(state), SellGoods) == []
    assert_illegal(state, SellGoods(4), "you have no goods of type 4 to sell")
    assert_illegal(state, SellGoods(2), "turning your 4 into a 2 takes 2 workers; you have 0")


# --- Take workers ----------------------------------------------------------------------------

@pytest.mark.parametrize("die", [1, 6])
def test_take_workers_gives_two_workers_with_any_die(die):
    state = position(dice=(die, die), workers=1)
    after = play(state, UseDie(1), TakeWorkers())
    assert mover(after).workers == 3
    assert mover(after).silver == 0
    assert after.step == Step.TURN


# --- Worker tiles change a die ---------------------------------------------------------------

def test_anna_turns_a_2_into_a_6_with_two_workers_and_takes_from_depot_6():
    state = position(dice=(2, 2), workers=2, depots={6: (Tile.CITY_HALL,)})
    state = apply(state, UseDie(0))
    assert TakeTile(6, 0) in legal_actions(state)
    after = apply(state, TakeTile(6, 0))
    assert mover(after).workers == 0
    assert mover(after).storage == (Tile.CITY_HALL,)
    poorer = apply(position(dice=(2, 2), workers=1, depots={6: (Tile.CITY_HALL,)}), UseDie(0))
    assert TakeTile(6, 0) not in legal_actions(poorer)
    assert_illegal(poorer, TakeTile(6, 0), "turning your 2 into a 6 takes 2 workers; you have 1")


@pytest.mark.parametrize(("die", "depot", "cost"), [
    (1, 6, 1), (6, 1, 1), (1, 2, 1), (3, 3, 0), (1, 4, 3), (2, 5, 3), (5, 2, 3), (6, 3, 3),
])
def test_each_worker_moves_a_die_by_one_and_1_and_6_are_neighbours(die, depot, cost):
    assert worker_cost(die, depot) == cost
    state = position(dice=(die, die), workers=3, depots={depot: (Tile.BANK,)})
    after = play(state, UseDie(0), TakeTile(depot, 0))
    assert mover(after).workers == 3 - cost


def test_workers_also_change_the_die_for_placing_and_selling():
    state = position(dice=(1, 1), workers=1, storage=(Tile.SHIP,), goods={2: 2})
    state = apply(state, UseDie(0))
    acts = legal_actions(state)
    assert PlaceTile(0, 17) in acts and SellGoods(2) in acts
    assert mover(apply(state, PlaceTile(0, 17))).workers == 0
    assert mover(apply(state, SellGoods(2))).workers == 0


def test_the_white_die_is_never_a_players_die():
    state = position(dice=(1, 1), depots={3: (Tile.BANK,)})
    state = state.clone()
    state.white_die = 3
    assert_illegal(state, UseDie(2), "die must be 0 or 1")
    chosen = apply(state, UseDie(0))
    assert of_type(legal_actions(chosen), TakeTile) == []
    assert_illegal(chosen, TakeTile(3, 0), "turning your 1 into a 3 takes 2 workers")


# --- Buying from the black depot ---------------------------------------------------------

def test_buy_takes_a_black_depot_tile_for_two_silverlings_once_per_turn():
    state = position(silver=5, depots={0: (Tile.BANK, Tile.SHIP), 1: (Tile.MINE,)})
    acts = legal_actions(state)
    assert of_type(acts, Buy) == [Buy(0, 0), Buy(0, 1)]  # never the numbered depots
    after = apply(state, Buy(0, 1))
    p = mover(after)
    assert (p.silver, p.storage, p.bought) == (3, (Tile.SHIP,), True)
    assert after.depots[0][:2] == (Tile.BANK, EMPTY)
    assert of_type(legal_actions(after), Buy) == []
    assert_illegal(after, Buy(0, 0), "you already bought a tile this turn")


def test_buy_is_possible_before_between_and_after_the_dice():
    state = position(silver=6, dice=(3, 3), depots={0: (Tile.BANK, Tile.SHIP, Tile.MINE)})
    between = play(state, UseDie(0), TakeWorkers())
    assert Buy(0, 0) in legal_actions(between)
    after = play(between, UseDie(1), TakeWorkers())
    assert legal_actions(after) == [Buy(0, 0), Buy(0, 1), Buy(0, 2), END_TURN]
    bought = apply(after, Buy(0, 2))
    assert mover(bought).storage == (Tile.MINE,)
    assert legal_actions(bought) == [END_TURN]


def test_buy_needs_two_silverlings_and_a_black_depot_tile():
    poor = position(silver=1, depots={0: (Tile.BANK,), 2: (Tile.SHIP,)})
    assert of_type(legal_actions(poor), Buy) == []
    assert_illegal(poor, Buy(0, 0), "a purchase costs 2 silverlings; you have 1")
    rich = position(silver=2, depots={0: (Tile.BANK,), 2: (Tile.SHIP,)})
    assert_illegal(rich, Buy(2, 0), "only the black depot (0) sells tiles without knowledge #6")
    assert_illegal(rich, Buy(0, 1), "depot 0 has no tile in slot 1")
    assert_illegal(rich, Buy(0, 0, Payment.WORKERS), "needs knowledge #6 (2019 edition)")


def test_buy_into_full_storage_asks_for_a_discard_then_the_turn_goes_on():
    state = position(silver=2, storage=(Tile.BANK, Tile.SHIP, Tile.MINE),
                     depots={0: (Tile.CASTLE,)})
    after = apply(state, Buy(0, 0))
    assert after.step == Step.DISCARD
    done = apply(after, Discard(0))
    assert mover(done).storage == (Tile.SHIP, Tile.MINE, Tile.CASTLE)
    assert legal_actions(done) == [UseDie(0), UseDie(1)]


def test_end_turn_is_always_available_between_decisions_only():
    state = position()
    chosen = apply(state, UseDie(0))
    assert EndTurn() not in legal_actions(chosen)
    assert_illegal(chosen, END_TURN, "not a choice now",
                   "take a tile, place a tile, sell goods or take workers")


def _ring_distance(a: int, b: int) -> int:
    return min(abs(a - b), 6 - abs(a - b))


@settings(max_examples=150, deadline=None)
@given(die=st.integers(1, 6), target=st.integers(1, 6), per_worker=st.sampled_from([1, 2]),
       free=st.sampled_from([0, 1]))
def test_worker_cost_is_the_ring_distance_less_free_steps_per_worker_step(die, target,
                                                                          per_worker, free):
    steps = max(0, _ring_distance(die, target) - free)
    expected = -(-steps // per_worker)  # whole workers, rounded up
    assert worker_cost(die, target, per_worker=per_worker, free=free) == expected
    assert worker_cost(target, die, per_worker=per_worker, free=free) == expected
    assert expected <= 3
