"""The solo game (2019 rulebook): every rule that differs from the game of several players.

Positions are on estate 1 with the start castle on the centre space (18, C6); its blue
neighbours are 17 (S2) and 19 (S5). Our reading of "expand to other regions only via the
rivers" on an ordinary duchy (``p2p_burgundy.rivers``): a region on a river (not blue, with a
space next to a blue space) is begun next to a covered blue space or next to a covered tile of
a region away from the rivers, never from another region on a river; blue regions and regions
away from the rivers are begun as in the base game. On estate 1 the castle region 1-2-6 and
the knowledge region 30-34-35 are away from the rivers.
"""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    END_TURN,
    BuyPoints,
    ChanceEvent,
    ChanceKind,
    ChooseEstate,
    ConfigError,
    Discard,
    GameConfig,
    Pass,
    PayGoods,
    PlaceTile,
    SellGoods,
    TakeFirst,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    apply,
    draw_chance,
    legal_actions,
    new_game,
    outcome,
    resolve_chance,
)
from p2p_burgundy.config import Edition, Setup
from p2p_burgundy.estate import SPACE_COUNT, all_estates, bits, estate, parse_estate
from p2p_burgundy.rivers import never_covered, river_reach
from p2p_burgundy.scoring import Category
from p2p_burgundy.state import EMPTY, Step
from p2p_burgundy.tiles import FACE_DOWN, TILE_COLOUR, Building, Colour, Tile, knowledge_tile
from tests.engine.helpers import (
    E2019,
    assert_illegal,
    end_turn,
    entropy,
    mover,
    play,
    position,
    resolve_all,
    started,
    with_game,
    with_player,
)

CASTLE = 18


def solo(**fields):
    """A solo position on estate 1 (castle on 18), empty depots, the mover's fields set."""
    return position(1, edition=E2019, start_space=CASTLE, **fields)


# --- Configuration and set-up -------------------------------------------------------------------

def test_the_solo_game_is_one_player_of_the_2019_edition_with_a_chosen_start_castle():
    config = GameConfig(1, Edition.E2019)
    assert config.solo and config.table_players == 2
    assert config.start_spaces == (-1,)  # any dark green space, even where a castle is printed
    assert config.to_tree() == [1, "2019", ["1"], [-1]]
    harder = GameConfig(1, Edition.E2019, target=55)
    assert harder.to_tree() == [1, "2019", ["1"], [-1], "standard", [], [], False, 55]
    assert GameConfig.from_tree(harder.to_tree()) == harder
    assert GameConfig(2).to_tree() == [2, "2011", ["1", "1"], [18, 18]]  # others as before


@pytest.mark.parametrize(("kwargs", "phrase"), [
    ({"players": 1}, "the solo game is part of the 2019 edition"),
    ({"players": 1, "edition": Edition.E2019, "setup": Setup.EXPERTS_OPEN}, "no experts"),
    ({"players": 1, "edition": Edition.E2019, "target": 44}, "starts on 45..55"),
    ({"players": 2, "edition": Edition.E2019, "target": 45}, "in the solo game only"),
    ({"players": True, "edition": Edition.E2019}, "players must be 1 (the solo game), 2, 3"),
    ({"players": 0}, "players must be 1 (the solo game), 2, 3 or 4, not 0"),
])
def test_a_bad_solo_config_is_refused_with_the_reason(kwargs, phrase):
    with pytest.raises(ConfigError, match=phrase.replace("(", r"\(").replace(")", r"\)")):
        GameConfig(**kwargs)


def test_set_up_gives_1_silverling_2_workers_3_goods_then_the_castle_on_any_dark_green():
    state = resolve_all(new_game(GameConfig(1, Edition.E2019)))
    p = state.players[0]
    assert (p.silver, p.workers, sum(p.goods), p.occupied) == (1, 2, 3, 0)
    assert state.step == Step.CHOOSE_ESTATE
    # "place it on any dark green castle space in your duchy"
    assert legal_actions(state) == [ChooseEstate(0, 1), ChooseEstate(0, 2), ChooseEstate(0, 6),
                                    ChooseEstate(0, 18)]
    assert_illegal(state, ChooseEstate(0, 5), "the start castle goes on a dark green space of "
                   "estate 1: 1 (C5 (row 1, 2)), 2 (C4 (row 1, 3)), 6 (C6 (row 2, 3)), "
                   "18 (C6 (row 4, 4)); not A1 (row 2, 2)")
    state = apply(state, ChooseEstate(0, 18))
    assert state.chance.kind == ChanceKind.PHASE
    after_phase = resolve_chance(state, entropy(0, state.chance.index))
    # the 2-player side of the board: 12 tiles on the numbered depots, 4 in the black one
    assert sum(t != EMPTY for d in after_phase.depots[1:] for t in d) == 12
    assert sum(t != EMPTY for t in after_phase.depots[0]) == 4
    assert (after_phase.vp_counter, after_phase.vp_target) == (0, 50)


@pytest.mark.parametrize("ident", list(all_estates()))
def test_every_shipped_duchy_can_be_won_solo_from_every_dark_green_space(ident):
    board = estate(ident)
    assert [never_covered(board, s) for s in board.dark_green_spaces] == [0, 0, 0, 0]
    config = GameConfig(1, Edition.E2019, estates=(ident,))
    state = resolve_all(new_game(config))
    assert legal_actions(state) == [ChooseEstate(0, s) for s in board.dark_green_spaces]


# A board of one's own whose blue space 34 (S4, row 7) lies in a corner between regions on a
# river: no tile can ever begin them, so 29, 30, 33, 34 and 35 stay empty.
DRY_CORNER = ["K6 B5 S4 B3", "B2 A1 S6 B5 B4", "B5 A4 C3 C1 B2 K3", "A6 B1 M2 M6 S5 B4 K1",
              "S2 K5 K4 K3 A1 C2", "A6 B1 A2 B5 S6", "C3 S4 M1 B3"]


def test_a_board_of_ones_own_that_cannot_be_filled_is_refused_for_the_solo_game():
    board = parse_estate({"id": "corner", "name": "A dry corner", "rows": DRY_CORNER,
                          "source": "a test"}, official=False)
    assert bits(never_covered(board, 11)) == [29, 30, 33, 34, 35]
    with pytest.raises(ConfigError) as refused:
        GameConfig(1, Edition.E2019, estates=("corner",), custom=(board,))
    assert str(refused.value) == (
        "the solo game cannot be won on estate corner: with the start castle on C3 (row 3, 3), "
        "no tile can ever reach B1, A2, C3, S4, M1 (spaces 29, 30, 33, 34, 35; other regions "
        "only via the rivers)")
    with pytest.raises(ConfigError, match="start castle on C2 \\(row 5, 6\\)"):
        GameConfig(1, Edition.E2019, estates=("corner",), custom=(board,), start_spaces=(27,))
    assert GameConfig(2, Edition.E2019, estates=("corner",) * 2, custom=(board,))  # not solo


# --- Each round: the white die's goods and a tile leaving the game ------------------------------

def _round_event(state):
    """``state`` waiting for round 2's dice, with every phase tile where it lies."""
    return with_game(state, chance=ChanceEvent(state.chance_index, ChanceKind.ROUND, 0, 1),
                     round=1)


def test_each_round_a_tile_leaves_the_white_dies_depot_first_slot_first():
    state = _round_event(started(1, edition=E2019, start_space=CASTLE))
    after = resolve_chance(state, entropy("round", 0))
    white = after.white_die
    before_row, after_row = state.depots[white], after.depots[white]
    first = next(slot for slot, t in enumerate(before_row) if t != EMPTY)
    assert after_row == (*before_row[:first], EMPTY, *before_row[first + 1:])
    assert after.box[before_row[first]] == state.box[before_row[first]] + 1
    assert draw_chance(state, entropy("round", 0))[1].removed == (white, before_row[first])
    goods = state.phase_goods[1]
    assert after.depot_goods[white][goods] == state.depot_goods[white][goods] + 1
    assert all(after.depots[d] == state.depots[d] for d in range(7) if d != white)


def test_an_empty_depot_passes_the_removal_on_round_the_ring():
    state = _round_event(started(1, edition=E2019, start_space=CASTLE))
    white = resolve_chance(state, entropy("round", 0)).white_die
    after_white, next_but_one = white % 6 + 1, (white + 1) % 6 + 1
    state = with_game(state, depots={white: (), after_white: (),
                                     next_but_one: (Tile.MINE, Tile.SHIP)})
    after = resolve_chance(state, entropy("round", 0))
    assert after.white_die == white
    assert after.depots[next_but_one][:2] == (EMPTY, Tile.SHIP)
    assert after.box[Tile.MINE] == state.box[Tile.MINE] + 1


# --- Goods and ships ----------------------------------------------------------------------------

def _ship_position(goods, black=(Tile.MINE, Tile.CASTLE)):
    return solo(storage=(Tile.SHIP,), dice=(2, 2), goods=goods,
                depot_goods={3: {4: 1, 5: 1}, 5: {6: 2}}, depots={0: black})


def test_a_ship_takes_one_depots_goods_of_any_types_and_the_rest_leave_the_game():
    state = play(_ship_position({1: 2, 2: 2, 3: 1}), UseDie(0), PlaceTile(0, 17))
    assert state.step == Step.SHIP
    # no limit of goods types: three held, two more kept
    assert legal_actions(state) == [TakeGoods((3,), (4, 5)), TakeGoods((5,), (6,))]
    state = apply(state, TakeGoods((3,), (4, 5)))
    assert mover(state).goods == (0, 2, 2, 1, 1, 1, 0)
    assert state.depot_goods == ((0,) * 7,) * 7
    assert state.goods_out == (0, 0, 0, 0, 0, 0, 2)  # depot 5's two goods


def test_after_a_ship_five_goods_buy_a_black_depot_tile_face_down():
    state = play(_ship_position({1: 2, 2: 2}), UseDie(0), PlaceTile(0, 17),
                 TakeGoods((3,), (4, 5)))
    assert state.step == Step.EXCHANGE
    assert legal_actions(state) == [TakeTile(0, 0), TakeTile(0, 1), Pass()]
    state = apply(state, TakeTile(0, 1))
    assert mover(state).storage == (FACE_DOWN + Tile.CASTLE,)
    assert state.depots[0][:2] == (Tile.MINE, EMPTY)
    assert state.pending[-1] == (Step.PAY_GOODS, 5)
    assert legal_actions(state) == [PayGoods(1), PayGoods(2), PayGoods(4), PayGoods(5)]
    assert_illegal(state, PayGoods(3), "no goods of type 3")
    state = play(state, PayGoods(1), PayGoods(1), PayGoods(2), PayGoods(4), PayGoods(5))
    assert mover(state).goods == (0, 0, 1, 0, 0, 0, 0)
    assert state.goods_out == (0, 2, 1, 0, 1, 1, 2)
    assert state.step == Step.TURN


def test_a_full_storage_discards_before_the_exchange_is_paid():
    state = with_player(play(_ship_position({1: 2, 2: 2}), UseDie(0), PlaceTile(0, 17),
                             TakeGoods((3,), (4, 5))),
                        storage=(Tile.MINE, Tile.MINE, Tile.MINE))
    state = apply(state, TakeTile(0, 1))
    assert state.pending[-2:] == ((Step.PAY_GOODS, 5), (Step.DISCARD, 0))
    state = apply(state, Discard(0))
    assert state.step == Step.PAY_GOODS and len(mover(state).storage) == 3


def test_the_exchange_is_offered_only_with_five_goods_and_may_be_passed():
    state = play(_ship_position({1: 2}), UseDie(0), PlaceTile(0, 17), TakeGoods((3,), (4, 5)))
    assert state.step == Step.TURN  # 4 goods
    state = play(_ship_position({1: 3}), UseDie(0), PlaceTile(0, 17), TakeGoods((3,), (4, 5)))
    state = apply(state, Pass())
    assert state.step == Step.TURN and mover(state).goods == (0, 3, 0, 0, 1, 1, 0)


def test_a_ship_with_no_goods_anywhere_still_offers_the_exchange():
    state = solo(storage=(Tile.SHIP,), dice=(2, 2), goods={1: 5}, depots={0: (Tile.MINE,)})
    state = play(state, UseDie(0), PlaceTile(0, 17))
    assert state.step == Step.EXCHANGE


def test_a_ship_whose_goods_another_ship_took_first_takes_nothing_and_offers_the_exchange():
    # the target marker's action, taken first, placed a second ship that took every goods tile
    state = solo(goods={1: 5}, depots={0: (Tile.MINE,)}, pending=((Step.SHIP, 0),))
    assert legal_actions(state) == [Pass()]
    state = apply(state, Pass())
    assert state.step == Step.EXCHANGE and mover(state).goods[1] == 5
    goods_left = solo(goods={1: 5}, depot_goods={3: {4: 1}}, pending=((Step.SHIP, 0),))
    assert_illegal(goods_left, Pass(), "goods lie on the depots: the ship takes goods")


def test_a_face_down_tile_goes_on_any_colour_fills_its_region_and_does_nothing_else():
    # the beige space 11 (B3, an area of 1) is next to the covered river space 17
    state = solo(estate={17: Tile.SHIP}, storage=(FACE_DOWN + Tile.MINE, FACE_DOWN + Tile.SHIP),
                 dice=(3, 1), depot_goods={2: {3: 1}})
    assert PlaceTile(0, 11) in legal_actions(apply(state, UseDie(0)))
    state = play(state, UseDie(0), PlaceTile(0, 11))
    p = mover(state)
    assert p.estate[11] == FACE_DOWN + Tile.MINE
    assert p.breakdown[Category.REGIONS] == 1 and p.breakdown[Category.PHASE_BONUSES] == 10
    assert p.estate.count(Tile.MINE) == 0  # no silverling at the phase's end
    state = play(state, UseDie(1), PlaceTile(0, 16))  # a face-down ship: no goods, no move
    assert state.step == Step.TURN and state.track[0][0] == 0


# --- Where tiles may go: other regions only via the rivers --------------------------------------

def test_from_one_region_on_a_river_to_another_the_way_goes_by_the_river():
    state = solo(storage=(Tile.MINE, Tile.SHIP), dice=(4, 2), workers=0)
    # the mine space 24 (on the river 17) touches the castle (on the rivers 17 and 19), but
    # not a covered river space
    assert PlaceTile(0, 24) not in legal_actions(apply(state, UseDie(0)))
    assert_illegal(apply(state, UseDie(0)), PlaceTile(0, 24),
                   "space M4 (row 5, 3) begins a region on a river from land (solo: from one "
                   "region on a river to another only by the river)")
    assert PlaceTile(1, 17) in legal_actions(apply(state, UseDie(1)))
    state = play(state, UseDie(1), PlaceTile(1, 17))
    assert PlaceTile(0, 24) in legal_actions(apply(state, UseDie(0)))  # now next to the river


def test_estate_1_with_34_spaces_filled_takes_a_castle_on_space_6():
    # the castle region 1-2-6 touches no river: it is begun from any neighbour
    tiles = _colour_tiles()
    for space in (1, 2, 6):
        tiles[space] = None
    state = solo(estate=tiles, storage=(Tile.CASTLE,), dice=(6, 1))
    assert bin(mover(state).occupied).count("1") == 34
    state = apply(state, UseDie(0))
    assert PlaceTile(0, 6) in legal_actions(state)
    state = apply(state, PlaceTile(0, 6))
    assert mover(state).estate[6] == Tile.CASTLE and state.step == Step.FREE_ACTION


def test_from_a_region_away_from_the_rivers_any_neighbouring_region_is_begun():
    # the start castle on 6 (away from the rivers): the knowledge space 7 (K5, region 3-7-12
    # on the river 19) is begun from it; from 7, the city 8-13-14 (on the river 19) is not
    state = position(1, edition=E2019, start_space=6, storage=(knowledge_tile(1), Building.BANK),
                     dice=(5, 4))
    assert PlaceTile(0, 7) in legal_actions(apply(state, UseDie(0)))
    state = play(state, UseDie(0), PlaceTile(0, 7))
    assert_illegal(apply(state, UseDie(1)), PlaceTile(0, 8), "begins a region on a river from "
                   "land")
    assert river_reach(estate("1"), 1 << 6 | 1 << 7) & (1 << 8 | 1 << 13) == 0


def test_a_region_already_begun_grows_from_any_neighbour():
    board = estate("1")
    occupied = 1 << CASTLE | 1 << 25  # a building in the city 25-26-31-32-36
    reach = river_reach(board, occupied)
    assert reach >> 26 & 1 and reach >> 31 & 1  # the city's spaces
    assert not reach >> 24 & 1  # the mines 24-29-33: a new region on a river
    assert reach >> 30 & 1  # the monasteries 30-34-35: a new region away from the rivers


# --- Completing a colour: a black depot tile placed at once -------------------------------------

def test_completing_a_colour_scores_no_bonus_but_places_a_black_depot_tile():
    state = solo(estate={17: Tile.SHIP, 24: Tile.MINE, 29: Tile.MINE}, storage=(Tile.MINE,),
                 dice=(3, 1), depots={0: (Tile.CASTLE, Tile.SHIP, knowledge_tile(7))})
    state = play(state, UseDie(0), PlaceTile(0, 33))  # the last grey space
    p = mover(state)
    assert p.bonuses[Colour.GREY] == 1 and state.bonus_taken[Colour.GREY] == 1
    assert p.breakdown[Category.COLOUR_BONUSES] == 0
    assert p.breakdown[Category.REGIONS] == 6 and p.breakdown[Category.PHASE_BONUSES] == 10
    assert state.step == Step.REWARD
    # the ship (next to the river 17) and the monastery (30, away from the rivers, next to
    # the mines) have a space they may go on; the castle has none
    assert legal_actions(state) == [TakeTile(0, 1), TakeTile(0, 2)]
    state = apply(state, TakeTile(0, 1))
    assert state.step == Step.REWARD_PLACE
    assert legal_actions(state) == [PlaceTile(0, 16), PlaceTile(0, 19)]  # any die number
    state = apply(state, PlaceTile(0, 19))
    assert mover(state).estate[19] == Tile.SHIP and state.track[0][0] == 1  # its effect
    assert state.step == Step.TURN


def test_a_colour_reward_whose_tiles_no_longer_fit_when_its_turn_comes_may_be_passed():
    # a castle's action (taken first) may have filled the space the reward's tile needed
    state = solo(estate={17: Tile.SHIP}, storage=(), dice=(3, 1),
                 depots={0: (Tile.CASTLE,)}, pending=((Step.REWARD, 0),))
    assert legal_actions(state) == [Pass()]
    assert apply(state, Pass()).step == Step.TURN
    fits = solo(estate={17: Tile.SHIP}, storage=(), dice=(3, 1),
                depots={0: (Tile.SHIP,)}, pending=((Step.REWARD, 0),))
    assert legal_actions(fits) == [TakeTile(0, 0)]
    assert_illegal(fits, Pass(), "the colour reward is not optional")


def test_a_colour_reward_that_cannot_be_placed_is_lost():
    state = solo(estate={17: Tile.SHIP, 24: Tile.MINE, 29: Tile.MINE}, storage=(Tile.MINE,),
                 dice=(3, 1), depots={0: (Tile.CASTLE,)})
    state = play(state, UseDie(0), PlaceTile(0, 33))
    assert state.step == Step.TURN


# --- Monasteries score at once ------------------------------------------------------------------

def test_monastery_26_scores_at_once_3_per_colour_completed_so_far():
    state = solo(estate={19: Tile.SHIP}, storage=(knowledge_tile(26),), dice=(1, 1),
                 bonuses=(0, 0, 0, 0, 1, 1))
    state = play(state, UseDie(0), PlaceTile(0, 12))
    assert mover(state).breakdown[Category.KNOWLEDGE] == 6


def test_a_building_monastery_scores_at_once_and_the_crane_counts_as_one_of_its_buildings():
    fields = {"estate": {19: Tile.SHIP, 8: Tile.WATCHTOWER, 25: Tile.WATCHTOWER},
              "storage": (knowledge_tile(17),), "dice": (1, 1)}
    state = play(solo(**fields), UseDie(0), PlaceTile(0, 12))
    assert mover(state).breakdown[Category.KNOWLEDGE] == 8  # Ben's two watchtowers
    fields["estate"][26] = Tile.CRANE
    state = play(solo(**fields), UseDie(0), PlaceTile(0, 12))
    assert mover(state).breakdown[Category.KNOWLEDGE] == 12


# --- The victory point counter and the target marker --------------------------------------------

def test_reaching_the_target_resets_the_counter_moves_the_marker_and_gives_an_action():
    state = with_game(solo(goods={3: 2}, dice=(3, 1)), vp_counter=48, vp_target=50)
    state = play(state, UseDie(0), SellGoods(3))  # 2 tiles x 2 VP
    assert mover(state).breakdown[Category.SALES] == 4
    assert (state.vp_counter, state.vp_target) == (0, 45)  # the 2 points beyond are lost
    assert state.step == Step.FREE_ACTION
    state = play(state, TakeWorkers())
    state = with_game(state, vp_counter=44)
    state = play(with_player(state, goods={6: 1}), UseDie(1), SellGoods(6))
    assert (state.vp_counter, state.vp_target) == (0, 40)  # "from 50 to 45, next time to 40"


def test_the_ships_goods_may_be_taken_first_and_sold_with_the_target_markers_action():
    # "You choose the order in which you take any (partial) game actions": the ship completes
    # the river 15-16-17 (6 + 10 VP), which reaches the target; its goods come first
    state = with_game(solo(estate={15: Tile.SHIP, 16: Tile.SHIP}, storage=(Tile.SHIP,),
                           dice=(2, 1), depot_goods={3: {4: 2}}), vp_counter=40, vp_target=50)
    state = play(state, UseDie(0), PlaceTile(0, 17))
    assert (state.vp_counter, state.vp_target) == (0, 45)
    assert state.step == Step.ORDER
    assert legal_actions(state) == [TakeFirst(Step.FREE_ACTION), TakeFirst(Step.SHIP)]
    state = play(state, TakeFirst(Step.SHIP), TakeGoods((3,), (4,)))
    assert mover(state).goods[4] == 2 and state.step == Step.FREE_ACTION
    state = play(state, SellGoods(4))  # any number: the marker's action is a castle's
    assert mover(state).breakdown[Category.SALES] == 4 and state.step == Step.TURN
    # the other order: the action first, then the ship
    other = play(with_game(solo(estate={15: Tile.SHIP, 16: Tile.SHIP}, storage=(Tile.SHIP,),
                                dice=(2, 1), depot_goods={3: {4: 2}}), vp_counter=40),
                 UseDie(0), PlaceTile(0, 17), TakeFirst(Step.FREE_ACTION), TakeWorkers())
    assert other.step == Step.SHIP and legal_actions(other) == [TakeGoods((3,), (4,))]
    assert_illegal(play(with_game(solo(estate={15: Tile.SHIP, 16: Tile.SHIP},
                                       storage=(Tile.SHIP,), dice=(2, 1),
                                       depot_goods={3: {4: 2}}), vp_counter=40),
                        UseDie(0), PlaceTile(0, 17)),
                   TakeFirst(Step.CHURCH), "choose one of the pending steps: FREE_ACTION, SHIP")


def test_one_pending_step_needs_no_order_and_games_of_several_players_never_ask():
    state = with_game(solo(goods={3: 2}, dice=(3, 1)), vp_counter=48)
    assert play(state, UseDie(0), SellGoods(3)).step == Step.FREE_ACTION
    several = position(2, edition=E2019, estate={15: Tile.SHIP, 16: Tile.SHIP},
                       storage=(Tile.SHIP,), dice=(2, 1), depot_goods={3: {4: 2}})
    assert play(several, UseDie(0), PlaceTile(0, 17)).step == Step.SHIP


def test_silver_may_buy_the_points_missing_to_the_target():
    state = with_game(solo(goods={3: 1}, dice=(3, 1), silver=6), vp_counter=40, vp_target=45)
    state = play(state, UseDie(0), SellGoods(3))  # +2 VP, +1 silverling
    assert state.vp_counter == 42 and state.step == Step.TARGET
    assert legal_actions(state) == [BuyPoints(3), Pass()]
    assert_illegal(state, BuyPoints(2), "buy exactly the 3 VP")
    bought = apply(state, BuyPoints(3))
    assert mover(bought).silver == 4 and mover(bought).vp == 2  # bought points score nothing
    assert (bought.vp_counter, bought.vp_target) == (0, 40)
    assert bought.step == Step.FREE_ACTION
    passed = apply(state, Pass())
    assert (passed.vp_counter, passed.vp_target, passed.step) == (42, 45, Step.TURN)


def test_buying_is_not_offered_when_the_silver_does_not_reach_the_target():
    state = with_game(solo(goods={3: 1}, dice=(3, 1), silver=1), vp_counter=40, vp_target=45)
    state = play(state, UseDie(0), SellGoods(3))
    assert state.step == Step.TURN


def test_the_target_marker_stops_at_5():
    state = with_game(solo(goods={3: 3}, dice=(3, 1)), vp_counter=0, vp_target=5)
    state = play(state, UseDie(0), SellGoods(3))
    assert (state.vp_counter, state.vp_target) == (0, 5)


# --- The end ------------------------------------------------------------------------------------

def _colour_tiles():
    """A tile for each space of estate 1 (each city's buildings different)."""
    buildings = iter([*Building, *Building, *Building])
    by_colour = {Colour.LIGHT_GREEN: Tile.COW_2, Colour.BLUE: Tile.SHIP,
                 Colour.DARK_GREEN: Tile.CASTLE, Colour.GREY: Tile.MINE,
                 Colour.YELLOW: knowledge_tile(13)}
    board = estate("1")
    return {s: next(buildings) if board.colours[s] == Colour.BEIGE else by_colour[board.colours[s]]
            for s in range(SPACE_COUNT)}


def test_filling_the_last_space_wins_at_the_end_of_that_turn():
    tiles = _colour_tiles()
    last = 27  # A2: a pasture of one space
    tiles[last] = None
    state = solo(estate=tiles, storage=(Tile.COW_2,), dice=(2, 1))
    state = play(state, UseDie(0), PlaceTile(0, last), UseDie(1), TakeWorkers())
    assert not state.is_over
    state = apply(state, END_TURN)
    assert state.is_over
    result = outcome(state)
    assert result.won and result.decided_by == "every space filled"
    assert result.empty_spaces == (0,) and state.game_round == 1


def test_twenty_five_rounds_without_a_full_duchy_lose_and_nothing_is_scored_at_the_end():
    state = started(1, edition=E2019, start_space=CASTLE)
    rounds = 1
    while not state.is_over:
        state = resolve_all(end_turn(state), "lose")
        rounds += state.chance is None and not state.is_over
    assert rounds == 25 and state.game_round == 25
    result = outcome(state)
    p = state.players[0]
    assert not result.won and result.decided_by == "spaces left empty"
    assert p.workers == 2 + 25 * 4 and p.silver == 1
    assert p.vp == 0  # no points for silver, workers or goods left


def test_the_solo_game_sells_for_2_vp_a_tile_as_with_two_players():
    state = play(solo(goods={3: 3}, dice=(3, 1)), UseDie(0), SellGoods(3))
    assert mover(state).breakdown[Category.SALES] == 6
    assert TILE_COLOUR[FACE_DOWN + Tile.SHIP] != Colour.BLUE
