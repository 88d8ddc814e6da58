"""The shields module: set-up, taking a shield on a double, the castle it goes on, the
tribute at each phase end, and every one of the 18 abilities with exact values.

Rulebook examples (shared/rules/003, "THE SHIELDS") are exact tests; where the rulebook is
silent, the tests pin the reading documented in docs/engine.md. Positions are on estate 1:
the start castle on space 18; castles also go on 1, 2 and 6.
"""

from __future__ import annotations

import itertools

import pytest

from p2p_burgundy import (
    END_TURN,
    Discard,
    GameConfig,
    Pass,
    PlaceTile,
    SellGoods,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.actions import (
    BorrowMonasteries,
    PayTribute,
    PlaceFromDepot,
    SetDie,
    TakeShield,
    action_from_tree,
)
from p2p_burgundy.chance import ChanceKind
from p2p_burgundy.config import Module
from p2p_burgundy.rules import worker_cost
from p2p_burgundy.scoring import Category, knowledge_points
from p2p_burgundy.shields import ALL_SHIELDS, SHIELD_VP, SHIELDS_PER_DEPOT, shield_points
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import Building, Tile, knowledge_tile
from tests.engine.helpers import (
    E2019,
    assert_illegal,
    empty_depots,
    mover,
    play,
    position,
    resolve_all,
    started,
    with_game,
    with_player,
)

SHIELDS = (Module.SHIELDS,)


def held(*numbers: int) -> int:
    return sum(1 << n for n in numbers)


def shielded(shields: tuple[int, ...] = (), depot_shields=None, players: int = 2,
             **fields) -> tuple:
    """A started shields game with empty depots; the mover holds ``shields`` and has the
    fields of :func:`tests.engine.helpers.position`. Returns (state, mover's seat)."""
    state = position(players, modules=SHIELDS, **fields)
    seat = state.to_move
    owned = [0] * players
    owned[seat] = held(*shields)
    on_depots = depot_shields or {}
    game = {"shields": tuple(owned),
            "depot_shields": tuple(tuple(on_depots.get(d, ())) for d in range(7))}
    free = ALL_SHIELDS & ~sum(owned) & ~sum(held(*v) for v in on_depots.values())
    return with_game(state, shield_box=free, **game), seat


def at_phase_end(phase: int = 0, shields: tuple[int, ...] = (), **fields) -> tuple:
    """The last turn of ``phase``'s last round: the mover (last in turn order) has used both
    dice and holds ``shields``; ending the turn ends the phase. Returns (state, seat)."""
    state = empty_depots(started(2, modules=SHIELDS))
    state = with_game(state, phase=phase, round=4, turn=1)
    seat = state.to_move
    defaults = {"dice_used": 3, "silver": 0, "workers": 0, "goods": {}, "storage": ()}
    defaults.update(fields)
    state = with_player(state, **defaults)
    owned = [0, 0]
    owned[seat] = held(*shields)
    return with_game(state, shields=tuple(owned),
                     shield_box=ALL_SHIELDS & ~owned[seat]), seat


# --- Set-up -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "counts"), [
    (2, (1, 1, 1, 1, 1, 1)), (3, (1, 2, 1, 2, 1, 2)), (4, (2, 2, 2, 2, 2, 2))])
def test_shields_are_placed_on_the_depots_by_player_count(players, counts):
    state = resolve_all(new_game(GameConfig(players, E2019, modules=SHIELDS)), "set-up")
    assert SHIELDS_PER_DEPOT[players] == counts
    assert state.depot_shields[0] == ()
    assert tuple(len(d) for d in state.depot_shields[1:]) == counts
    placed = [n for d in state.depot_shields for n in d]
    assert len(set(placed)) == sum(counts)
    assert state.shield_box == ALL_SHIELDS & ~held(*placed)  # the rest stay in the box
    assert state.shields == (0,) * players


def test_the_shield_draw_is_pinned_and_follows_the_other_set_up_draws():
    state = new_game(GameConfig(2, E2019, modules=SHIELDS))
    plain = new_game(GameConfig(2, E2019))
    entropy = bytes(range(32))
    drawn, base = resolve_chance(state, entropy), resolve_chance(plain, entropy)
    assert drawn.depot_shields == ((), (4,), (1,), (14,), (7,), (5,), (16,))
    assert [p.goods for p in drawn.players] == [p.goods for p in base.players]
    assert drawn.order == base.order


def test_the_module_is_hashed_only_when_on_and_scores_have_a_shields_category():
    plain = started(2, modules=(Module.INNS,))
    assert len(plain.players[0].breakdown) == len(Category) - 1
    assert len(started(2, modules=SHIELDS).players[0].breakdown) == len(Category)
    assert GameConfig(2, E2019, modules=SHIELDS).to_tree()[5] == ["shields"]
    assert "shields" not in plain.modules  # nothing of the module to hash
    state = started(2, modules=SHIELDS)
    assert state_hash(with_game(state, shield_box=5)) != state_hash(state)


def test_shield_actions_round_trip_on_the_wire():
    for action in (TakeShield(7, 0), TakeShield(3, 12), PayTribute((3, 8), 1), PayTribute(()),
                   BorrowMonasteries(2), SetDie(1, 6), PlaceFromDepot(0, 3, 17)):
        assert action_from_tree(action.to_tree()) == action


# --- Taking a shield --------------------------------------------------------------------------

def test_a_double_takes_a_shield_of_its_depot_instead_of_both_actions():
    state, seat = shielded(dice=(4, 4), depot_shields={4: (7, 9), 2: (1,)})
    choices = [a for a in legal_actions(state) if isinstance(a, TakeShield)]
    assert choices == [TakeShield(7, 0), TakeShield(9, 0)]  # depot 4 only
    state = apply(state, TakeShield(9, 0))
    assert state.shields[seat] == held(9) and state.depot_shields[4] == (7,)
    assert mover(state).dice_used == 0b11
    assert legal_actions(state)[-1] == END_TURN and UseDie(0) not in legal_actions(state)


def test_two_workers_turn_a_3_into_a_5_for_a_double_5():
    # rulebook: "you can pay 2 workers to change a 3 into a 5 to get two 5s"
    state, seat = shielded(dice=(3, 5), workers=2, depot_shields={5: (12,)})
    state = apply(state, TakeShield(12, 0))
    assert mover(state).workers == 0 and state.shields[seat] == held(12)
    poorer, _ = shielded(dice=(3, 5), workers=1, depot_shields={5: (12,)})
    assert TakeShield(12, 0) not in legal_actions(poorer)
    assert_illegal(poorer, TakeShield(12, 0), "making a double 5 of your 3 and 5 takes 2 "
                                              "workers; you have 1")


@pytest.mark.parametrize("knowledge", [0, 1 << 8])  # knowledge #8: a worker moves a die by 2
def test_a_double_is_offered_from_every_depot_the_workers_reach_and_no_other(knowledge):
    every_depot = {depot: (depot,) for depot in range(1, 7)}  # shield #d lies on depot d
    per = 2 if knowledge else 1
    for dice in itertools.product(range(1, 7), repeat=2):
        for workers in range(8):
            state, _ = shielded(dice=dice, workers=workers, knowledge=knowledge,
                                depot_shields=every_depot)
            offered = [a.shield for a in legal_actions(state) if isinstance(a, TakeShield)]
            assert offered == [d for d in range(1, 7) if sum(
                worker_cost(die, d, per_worker=per) for die in dice) <= workers], (dice, workers)


def test_a_shield_is_taken_before_either_die_is_used():
    state, _ = shielded(dice=(2, 2), depot_shields={2: (4,)})
    state = play(state, UseDie(0), TakeWorkers())
    assert_illegal(state, TakeShield(4, 0), "before using either")


def test_a_shield_goes_on_a_free_castle_or_replaces_a_shield_which_leaves_the_game():
    # one castle (the start castle), already holding shield 7
    state, seat = shielded(shields=(7,), dice=(1, 1), depot_shields={1: (15,)})
    assert [a for a in legal_actions(state) if isinstance(a, TakeShield)] == [TakeShield(15, 7)]
    assert_illegal(state, TakeShield(15, 0), "each of your castles already holds a shield")
    assert_illegal(state, TakeShield(15, 8), "you hold no shield 8 to replace (yours: 7)")
    assert_illegal(state, TakeShield(16, 7), "shield 16 lies on no depot (shields left: "
                                             "#15 on depot 1)")
    after = apply(state, TakeShield(15, 7))
    assert after.shields[seat] == held(15) and after.shield_box & held(7)
    # a second castle makes room for a second shield
    two, _ = shielded(shields=(7,), dice=(1, 1), depot_shields={1: (15,)},
                      estate={6: Tile.CASTLE})
    assert {a for a in legal_actions(two) if isinstance(a, TakeShield)} == {
        TakeShield(15, 0), TakeShield(15, 7)}


def test_without_the_module_nothing_is_a_shield():
    state = position(dice=(2, 2))
    assert not any(isinstance(a, TakeShield) for a in legal_actions(state))
    assert_illegal(state, TakeShield(1, 0), "not a choice now; use a die, buy a tile or end "
                                            "the turn")


# --- The tribute at each phase end ------------------------------------------------------------

def test_the_tribute_costs_1_a_shield_and_unpaid_shields_leave_the_game():
    state, seat = at_phase_end(shields=(7, 12), silver=1, estate={6: Tile.CASTLE})
    state = apply(state, END_TURN)
    assert state.to_move == seat and state.step == Step.TRIBUTE and state.closing == (seat,)
    assert legal_actions(state) == [PayTribute(()), PayTribute((7,)), PayTribute((12,))]
    assert_illegal(state, PayTribute((7, 12)), "keep some of your shields (7, 12) at 1 each")
    state = apply(state, PayTribute((12,)))
    assert state.shields[seat] == held(12) and state.shield_box & held(7)
    assert legal_actions(state) == [END_TURN]
    state = apply(state, END_TURN)
    assert state.chance.kind == ChanceKind.PHASE and state.phase == 1
    assert state.players[seat].silver == 0


def test_the_tribute_comes_before_the_mines_pay():
    # no silverling to pay with until the mine pays: the shield is lost, without a turn
    state, seat = at_phase_end(shields=(7,), silver=0, estate={24: Tile.MINE})
    state = apply(state, END_TURN)
    assert state.chance.kind == ChanceKind.PHASE and state.shields[seat] == 0
    assert state.players[seat].silver == 1


def test_every_shield_holder_plays_a_turn_of_the_phase_end_in_turn_order():
    state, seat = at_phase_end(shields=(7,), silver=1)
    other = 1 - seat
    state = with_game(state, shields=tuple(held(8) if s == other else held(7) for s in (0, 1)),
                      shield_box=ALL_SHIELDS & ~held(7, 8))
    state = with_player(state, seat=other, silver=2)
    state = apply(state, END_TURN)
    assert state.closing == (other, seat) and state.to_move == other  # first in turn order
    assert_illegal(state, END_TURN, "not a choice now")
    state = play(state, PayTribute((8,)), END_TURN)
    assert state.to_move == seat
    state = play(state, PayTribute(()), END_TURN)
    assert state.closing == () and state.shields == tuple(
        held(8) if s == other else 0 for s in (0, 1))


def test_shield_3_pays_the_tribute_with_workers_in_any_mix():
    state, _ = at_phase_end(shields=(3, 12), silver=1, workers=2, estate={6: Tile.CASTLE})
    state = apply(state, END_TURN)
    choices = legal_actions(state)
    assert PayTribute((3, 12), 2) in choices and PayTribute((3, 12), 1) in choices
    assert PayTribute((12,), 1) not in choices  # workers only while keeping #3
    assert PayTribute((3, 12), 0) not in choices  # 1 silverling is not enough
    state = apply(state, PayTribute((3, 12), 1))
    assert (mover(state).silver, mover(state).workers) == (0, 1)


# --- The abilities ----------------------------------------------------------------------------

def test_shield_1_joins_every_pasture_when_animals_score():
    fields = {"dice": (4, 4), "storage": (Tile.COW_2,),
              "estate": {27: Tile.COW_3, 11: Building.WAREHOUSE}}
    for shields, points in (((), 2), ((1,), 2 + 3)):
        state, _ = shielded(shields=shields, **fields)
        state = play(state, UseDie(0), PlaceTile(0, 10))  # the big pasture; the 3 cows on 27
        assert mover(state).breakdown[Category.ANIMALS] == points
    assert SHIELD_VP[1] == 12


def test_shield_2_gains_a_worker_whenever_another_player_gains_workers():
    state, seat = shielded(dice=(1, 2), workers=0)
    other = 1 - seat
    state = with_game(state, shields=tuple(held(2) if s == other else 0 for s in (0, 1)))
    before = state.players[other].workers
    state = play(state, UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers())
    assert mover(state).workers == 4 and state.players[other].workers == before + 2
    # the holder's own workers bring nobody anything more
    mine, me = shielded(shields=(2,), dice=(1, 2), workers=0)
    others = mine.players[1 - me].workers
    mine = play(mine, UseDie(0), TakeWorkers())
    assert mine.players[me].workers == 2 and mine.players[1 - me].workers == others


def test_shield_4_stores_any_number_of_tiles_and_leaving_asks_for_discards():
    state, seat = shielded(shields=(4,), dice=(3, 3),
                           storage=(Tile.MINE, Tile.SHIP, Tile.CASTLE),
                           depots={3: (Tile.CHURCH, Building.BANK)})
    state = play(state, UseDie(0), TakeTile(3, 0), UseDie(1), TakeTile(3, 1))
    assert len(mover(state).storage) == 5 and state.step == Step.TURN  # no discard
    again = apply(with_player(state, seat=seat, dice_used=0), UseDie(0))
    assert PlaceTile(4, 11) in legal_actions(again)  # the bank, fifth in storage, on B3
    # at the phase end the shield is not paid for: two tiles go
    end, _ = at_phase_end(shields=(4,), silver=1, storage=mover(state).storage)
    end = play(end, END_TURN, PayTribute(()))
    assert end.pending == ((Step.DISCARD, 1), (Step.DISCARD, 1))
    assert [a.storage for a in legal_actions(end)] == [0, 1, 2, 3, 4]
    end = play(end, Discard(4), Discard(0))
    assert mover(end).storage == (Tile.SHIP, Tile.CASTLE, Tile.CHURCH)


def test_shield_5_takes_every_goods_tile_of_one_type_after_a_ship():
    state, _ = shielded(shields=(5,), dice=(2, 2), storage=(Tile.SHIP,),
                        depot_goods={1: {2: 1}, 3: {2: 2, 4: 1}, 5: {6: 1}})
    state = play(state, UseDie(0), PlaceTile(0, 17))
    assert state.step == Step.SHIP
    state = apply(state, TakeGoods((5,), (6,)))
    assert state.step == Step.SHIELD_GOODS
    assert legal_actions(state) == [TakeGoods((1, 3), (2,)), TakeGoods((3,), (4,)), Pass()]
    state = apply(state, TakeGoods((1, 3), (2,)))
    assert mover(state).goods[2] == 3 and mover(state).goods[6] == 1
    assert state.depot_goods[3][4] == 1 and state.depot_goods[1][2] == 0


def test_shield_6_lends_another_players_knowledge_tiles_but_27():
    state, seat = shielded(shields=(6,), dice=(1, 2), workers=1,
                           depots={3: (Building.BANK,)})
    other = 1 - seat
    state = with_player(state, seat=other, estate={12: knowledge_tile(8),
                                                   7: Tile.KNOWLEDGE_27})
    assert legal_actions(state).count(BorrowMonasteries(other)) == 1
    assert_illegal(state, BorrowMonasteries(seat), "choose another player's seat")
    state = apply(state, BorrowMonasteries(other))
    assert mover(state).knowledge == held(8)  # #27 stays its owner's
    assert BorrowMonasteries(other) not in legal_actions(state)
    # #8: a worker moves a die by 2: a 1 becomes a 3 for one worker
    state = play(state, UseDie(0), TakeTile(3, 0))
    assert mover(state).workers == 0
    # a knowledge tile the chosen player places later counts too
    later = with_game(state, turn=state.order.index(other))  # the other player's turn
    later = with_player(later, seat=other, storage=(knowledge_tile(16),), dice=(3, 3),
                        dice_used=0)
    later = play(later, UseDie(0), PlaceTile(0, 3))
    assert later.players[seat].knowledge == held(8, 16)


def test_shield_7_doubles_the_bonus_tiles_taken():
    # covering the last grey space: first bonus, 5 VP with 2 players, and 5 more
    state, _ = shielded(shields=(7,), dice=(3, 3), storage=(Tile.MINE,),
                        estate={24: Tile.MINE, 29: Tile.MINE})
    state = play(state, UseDie(0), PlaceTile(0, 33))
    p = mover(state)
    assert p.breakdown[Category.COLOUR_BONUSES] == 5 and p.breakdown[Category.SHIELDS] == 5
    assert p.breakdown[Category.REGIONS] == 6


def test_shield_8_doubles_what_mines_pay():
    for shields, keep, silver in (((8,), (8,), 0 + 4), ((8,), (), 1 + 2)):
        state, seat = at_phase_end(shields=shields, silver=1,
                                   estate={24: Tile.MINE, 29: Tile.MINE})
        state = play(state, END_TURN, PayTribute(keep), END_TURN)
        assert state.players[seat].silver == silver


def test_shield_9_pays_a_silverling_per_goods_tile_sold():
    for knowledge, silver in (((), 3), ((3,), 4)):
        state, _ = shielded(shields=(9,), dice=(4, 1), goods={4: 3}, knowledge=knowledge)
        state = play(state, UseDie(0), SellGoods(4))
        assert mover(state).silver == silver


def test_shield_10_counts_the_knowledge_tiles_end_game_vp_twice():
    state, seat = at_phase_end(phase=4, shields=(10,), silver=1, sold={1: 4, 2: 2},
                               knowledge=[25], estate={12: knowledge_tile(25)})
    state = play(state, END_TURN, PayTribute((10,)), END_TURN)
    p = state.players[seat]
    assert state.is_over
    assert p.breakdown[Category.KNOWLEDGE] == 6  # #25: 1 VP per goods tile sold
    assert p.breakdown[Category.SHIELDS] == SHIELD_VP[10] + 6 == 14


def test_shield_11_lets_a_castles_extra_action_take_any_shield():
    state, seat = shielded(shields=(11,), dice=(6, 1), storage=(Tile.CASTLE,),
                           depot_shields={3: (14,)}, estate={11: Building.WAREHOUSE})
    state = play(state, UseDie(0), PlaceTile(0, 6))
    assert state.step == Step.FREE_ACTION and TakeShield(14, 0) in legal_actions(state)
    state = apply(state, TakeShield(14, 0))
    assert state.shields[seat] == held(11, 14)
    # without #11 the castle's action takes tiles, goods or workers only
    plain, _ = shielded(dice=(6, 1), storage=(Tile.CASTLE,), depot_shields={3: (14,)},
                        estate={11: Building.WAREHOUSE})
    plain = play(plain, UseDie(0), PlaceTile(0, 6))
    assert_illegal(plain, TakeShield(14, 0), "only a castle placed while you hold shield #11")


def test_shield_12_doubles_the_vp_of_goods_sold():
    state, _ = shielded(shields=(12,), dice=(4, 1), goods={4: 3})
    state = play(state, UseDie(0), SellGoods(4))
    p = mover(state)
    assert p.breakdown[Category.SALES] == 6 and p.breakdown[Category.SHIELDS] == 6


def test_shield_13_doubles_every_kept_shields_vp_at_the_end():
    assert shield_points(held(1, 13), 0) == (12 + 4) * 2
    state, seat = at_phase_end(phase=4, shields=(1, 13), silver=2, estate={6: Tile.CASTLE})
    state = play(state, END_TURN, PayTribute((1, 13)), END_TURN)
    assert state.players[seat].breakdown[Category.SHIELDS] == 32
    state, seat = at_phase_end(phase=4, shields=(1, 13), silver=2, estate={6: Tile.CASTLE})
    state = play(state, END_TURN, PayTribute((1,)), END_TURN)
    assert state.players[seat].breakdown[Category.SHIELDS] == 12


def test_shield_14_places_a_numbered_depots_tile_at_the_phase_end():
    state, seat = at_phase_end(shields=(14,), silver=1, estate={24: Tile.MINE})
    state = with_game(state, depots={2: (Tile.MINE, Tile.SHIP), 0: (Tile.MINE,)})
    state = apply(state, END_TURN)
    assert state.pending == ((Step.TRIBUTE, 0), (Step.SHIELD_TILE, 1))
    assert set(legal_actions(state)) == {PlaceFromDepot(2, 0, 29), PlaceFromDepot(2, 1, 17),
                                         PlaceFromDepot(2, 1, 19), Pass()}
    state = play(state, PlaceFromDepot(2, 0, 29), PayTribute((14,)), END_TURN)
    p = state.players[seat]
    assert p.estate[29] == Tile.MINE and state.depots[2][0] == -1  # cleared at next PHASE
    assert p.silver == 2  # both mines pay, after the tribute


def test_shield_15_places_a_black_depots_tile_at_the_phase_end():
    state, seat = at_phase_end(shields=(15,), silver=1)
    state = with_game(state, depots={0: (Tile.SHIP,), 2: (Tile.MINE,)})
    state = apply(state, END_TURN)
    assert set(legal_actions(state)) == {PlaceFromDepot(0, 0, 17), PlaceFromDepot(0, 0, 19),
                                         Pass()}
    track = state.track[seat][0]
    state = apply(state, PlaceFromDepot(0, 0, 19))
    assert state.players[seat].estate[19] == Tile.SHIP and state.track[seat][0] == track + 1


def test_shield_16_sets_one_die_a_turn_to_any_number():
    state, _ = shielded(shields=(16,), dice=(2, 5), depots={6: (Building.BANK,)})
    assert SetDie(0, 6) in legal_actions(state) and SetDie(0, 2) not in legal_actions(state)
    state = apply(state, SetDie(0, 6))
    assert mover(state).dice == (6, 5)
    assert not any(isinstance(a, SetDie) for a in legal_actions(state))
    assert_illegal(state, SetDie(1, 1), "you set one already")
    state = play(state, UseDie(0), TakeTile(6, 0))
    assert mover(state).workers == 0  # no worker paid
    # a set die makes a double for a shield too
    double, seat = shielded(shields=(16,), dice=(2, 5), depot_shields={5: (3,)},
                            estate={6: Tile.CASTLE})
    double = play(double, SetDie(0, 5), TakeShield(3, 0))
    assert double.shields[seat] == held(3, 16)


def test_shield_17_scores_a_completed_size_3_area_as_size_4():
    # rulebook: "a size 3 area (6 victory points) scores as 4-size area (10 victory points)"
    state, _ = shielded(shields=(17,), dice=(1, 1), storage=(knowledge_tile(5),),
                        estate={3: knowledge_tile(1), 7: knowledge_tile(2)})
    state = play(state, UseDie(0), PlaceTile(0, 12))
    p = mover(state)
    assert p.breakdown[Category.REGIONS] + p.breakdown[Category.SHIELDS] == 10
    assert p.breakdown[Category.PHASE_BONUSES] == 10


def test_shield_18_places_tiles_on_any_empty_space():
    state, _ = shielded(shields=(18,), dice=(6, 6), storage=(Tile.SHIP,))
    state = apply(state, UseDie(0))
    assert PlaceTile(0, 15) in legal_actions(state)  # far from every tile
    state = apply(state, PlaceTile(0, 15))
    assert mover(state).estate[15] == Tile.SHIP
    plain, _ = shielded(dice=(6, 6), storage=(Tile.SHIP,))
    assert_illegal(apply(plain, UseDie(0)), PlaceTile(0, 15), "not next to a placed tile")


def test_each_shield_scores_its_vp_at_the_end_if_still_held():
    assert SHIELD_VP[1:] == (12,) * 6 + (8,) * 6 + (4,) * 6
    state, seat = at_phase_end(phase=4, shields=(2, 9), silver=2, estate={6: Tile.CASTLE})
    state = play(state, END_TURN, PayTribute((2, 9)), END_TURN)
    assert state.players[seat].breakdown[Category.SHIELDS] == 12 + 8
    assert knowledge_points(state.players[seat], E2019) == 0


def test_the_set_up_report_names_the_shields_it_placed():
    from p2p_burgundy.rules import draw_chance

    state, drew = draw_chance(new_game(GameConfig(3, E2019, modules=SHIELDS)), bytes(32))
    assert drew.shields == state.depot_shields[1:]
    assert [len(on) for on in drew.shields] == [1, 2, 1, 2, 1, 2]
