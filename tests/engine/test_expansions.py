"""The 2019 expansion modules: the switch in the config, the 2019 tie-break, the extra tiles
(monasteries #27 and #28, the crane, the geese), the white castles and the inns.

Rulebook examples (shared/rules/003, "EXPANSIONS") are exact tests; where the rulebook is
silent, the tests pin the reading documented in docs/engine.md.
"""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    Buy,
    ConfigError,
    GameConfig,
    Pass,
    PlaceTile,
    SellGoods,
    TakeTile,
    UseDie,
    apply,
    legal_actions,
    new_game,
    outcome,
    state_hash,
)
from p2p_burgundy.actions import BuyWorkers, UseBuilding, action_from_tree
from p2p_burgundy.border_posts import border_links
from p2p_burgundy.config import TABLE_DEFAULTS, Edition, Module, Setup, parse_modules
from p2p_burgundy.estate import estate
from p2p_burgundy.inns import INN_DEPOT
from p2p_burgundy.scoring import Category, knowledge_points
from p2p_burgundy.state import Step
from p2p_burgundy.tiles import Building, Tile
from tests.engine.helpers import (
    E2019,
    assert_illegal,
    end_turn,
    mover,
    play,
    position,
    resolve_all,
    started,
    with_game,
    with_player,
)

EXTRA = (Module.EXTRA_TILES,)
WHITE = (Module.WHITE_CASTLES,)
INNS = (Module.INNS,)
PASTURE = (0, 4, 5, 9, 10)  # estate 1's big pasture (dice 6, 2, 1, 5, 4)


# --- The module switch ------------------------------------------------------------------------

def test_modules_are_kept_in_canonical_order_and_round_trip_through_the_tree():
    config = GameConfig(3, E2019, modules=(Module.INNS, Module.EXTRA_TILES))
    assert config.modules == (Module.EXTRA_TILES, Module.INNS)
    tree = config.to_tree()
    assert tree == [3, "2019", ["1"] * 3, [18] * 3, "standard", ["extra-tiles", "inns"]]
    assert GameConfig.from_tree(tree) == config
    experts = GameConfig(2, E2019, setup=Setup.EXPERTS_OPEN, modules=INNS)
    assert experts.to_tree() == [2, "2019", [], [], "experts-open", ["inns"]]
    assert GameConfig.from_tree(experts.to_tree()) == experts


def test_the_table_s_two_fields_are_carried_in_the_tree_but_are_not_the_game_s():
    config = GameConfig(2)
    tree = config.to_tree(table=(True, [900, 10]))
    assert tree == [2, "2011", ["1", "1"], [18, 18], "standard", [], [], True, 50, [900, 10]]
    assert GameConfig.split_tree(tree) == (config, (True, [900, 10]))
    assert GameConfig.split_tree(config.to_tree()) == (config, TABLE_DEFAULTS)
    assert config.to_tree(table=TABLE_DEFAULTS) == config.to_tree()
    with pytest.raises(ConfigError, match="carries a network table's rules"):
        GameConfig.from_tree(tree)
    solo = GameConfig(1, E2019, target=55)  # a field of the game's after the table's first
    assert solo.to_tree() == [1, "2019", ["1"], [-1], "standard", [], [], False, 55]
    assert GameConfig.from_tree(solo.to_tree()) == solo


def test_a_base_game_config_encodes_as_before():
    assert GameConfig(2).to_tree() == [2, "2011", ["1", "1"], [18, 18]]
    assert GameConfig(2, setup=Setup.EXPERTS_SECRET).to_tree() == [2, "2011", [], [],
                                                                   "experts-secret"]


@pytest.mark.parametrize(("tree", "phrase"), [
    ([2, "2019", [], [], "standard", []], "leaving it out"),
    ([2, "2019", [], [], "standard", ["inns", "extra-tiles"]], "canonical order"),
    ([2, "2019", [], [], "standard", ["inns", "inns"]], "canonical order"),
    ([2, "2019", [], [], "standard", ["shields!"]], "unknown module"),
    ([2, "2019", [], [], "standard", "inns"], "list of module names"),
    ([2, "2011", [], [], "standard", ["inns"]], "2019 edition"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [60, 0], [[0, 2], [1, 3]], 7],
     "a game config is"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [], 7], "teams must be a list"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, [60, 0], []], "leaving it out"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 50, []], "leaving it out"),
    ([2, "2019", [], [], "standard", ["inns"], [], True, 7], "in the solo game only"),
    ([2, "2019", [], [], "standard", ["inns"], [], False], "leaving it out"),
    ([2, "2019", [], [], "standard", ["inns"], [], True], "carries a network table's rules"),
    ([2, "2019", [], [], "standard", ["inns"], 7], "boards of one.s own must be a list"),
])
def test_a_bad_modules_field_is_refused_with_the_reason(tree, phrase):
    with pytest.raises(ConfigError, match=phrase):
        GameConfig.from_tree(tree)


def test_modules_from_the_command_line_text():
    assert parse_modules("all") == tuple(Module)
    assert parse_modules(" inns , white-castles") == (Module.WHITE_CASTLES, Module.INNS)
    with pytest.raises(ConfigError, match="unknown module 'crane'"):
        parse_modules("inns,crane")
    with pytest.raises(ConfigError, match="2019 edition"):
        GameConfig(2, Edition.E2011, modules=INNS)


def test_a_module_adds_its_tiles_to_the_supplies_and_nothing_else():
    base = new_game(GameConfig(2, E2019)).supplies
    extra = new_game(GameConfig(2, E2019, modules=EXTRA)).supplies
    white = new_game(GameConfig(2, E2019, modules=WHITE)).supplies
    inns = new_game(GameConfig(2, E2019, modules=INNS)).supplies
    assert extra[5] == (*base[5], Tile.KNOWLEDGE_27, Tile.KNOWLEDGE_28)
    assert extra[6] == (*base[6], Tile.CRANE, Tile.GEESE)
    assert white[0] == (*base[0], *[Tile.WHITE_CASTLE] * 6)
    assert white[5] == (*base[5], Tile.KNOWLEDGE_29)
    assert white[6] == (*base[6], Tile.WHITE_CASTLE, Tile.WHITE_CASTLE)
    assert inns[:7] == base and inns[7] == (Tile.INN,) * 5
    assert len(new_game(GameConfig(2, E2019)).box) == Tile.KNOWLEDGE_26 + 1


# --- The 2019 tie-break -----------------------------------------------------------------------

def _tied(edition, track, order, **mover_fields):
    state = started(3, edition=edition, seed="tie")
    for seat in range(3):
        state = with_player(state, seat=seat, breakdown=[50] + [0] * 9,
                            **(mover_fields if seat == 0 else {}))
    return with_game(state, phase=5, track=track, order=order, turn=3)


def test_2019_full_tie_goes_to_the_player_furthest_behind_on_the_bridge():
    # seat 1 is last on the bridge, though seat 2 moved last in the final round
    track = ((3, 4), (1, 9), (3, 8))
    result = outcome(_tied(E2019, track, (0, 1, 2)))
    assert result.ranking == (1, 0, 2)
    assert result.decided_by == "further behind on the bridge"
    assert outcome(_tied(Edition.E2011, track, (0, 1, 2))).ranking == (2, 1, 0)


def test_monastery_27_keeps_its_owner_on_top_for_the_tie_break_too():
    track = ((3, 4), (1, 9), (3, 8))  # seats 0 and 2 share a space; seat 2 arrived last
    assert _tied(E2019, track, (0, 1, 2)).bridge_order() == (2, 0, 1)
    state = _tied(E2019, track, (0, 1, 2), knowledge=[27])
    assert state.bridge_order() == (0, 2, 1)
    assert outcome(state).ranking == (1, 2, 0)


# --- Extra tiles ------------------------------------------------------------------------------

def test_carla_places_the_geese_by_2_and_3_cows_for_7_then_a_4_pig_for_6():
    # rulebook example: 2 + 2 + 3 = 7, later 4 + 2 = 6
    state = position(dice=(1, 2), storage=(Tile.GEESE, Tile.PIG_4), modules=EXTRA,
                     estate={9: Tile.COW_2, 10: Tile.COW_3})
    state = play(state, UseDie(0), PlaceTile(0, 5))
    assert mover(state).breakdown[Category.ANIMALS] == 7
    state = play(state, UseDie(1), PlaceTile(0, 4))
    assert mover(state).breakdown[Category.ANIMALS] == 7 + 6


def test_geese_score_with_the_best_other_type_and_with_knowledge_7_every_tile_counts():
    state = position(dice=(1, 2), storage=(Tile.GEESE,), modules=EXTRA, knowledge=[7],
                     estate={9: Tile.COW_2, 10: Tile.SHEEP_4, 0: Tile.COW_3})
    state = play(state, UseDie(0), PlaceTile(0, 5))
    # geese (2+1) and the cows (2+1)+(3+1) beat the sheep (4+1)
    assert mover(state).breakdown[Category.ANIMALS] == 3 + 7


def test_geese_are_an_animal_type_of_their_own_for_knowledge_24():
    p = mover(with_player(position(modules=EXTRA), knowledge=[24],
                          estate={5: Tile.GEESE, 9: Tile.COW_2}))
    assert knowledge_points(p, E2019) == 2 * 4


def test_monastery_27_puts_its_owner_on_top_of_a_stack_from_the_next_round():
    state = started(2, modules=EXTRA, seed="bridge")
    first, second = state.order
    state = with_player(state, seat=second, knowledge=[27])
    state = end_turn(end_turn(state))
    state = resolve_all(state, "bridge")
    assert state.order == (second, first)  # both still on the start space


def test_monastery_28_buys_2_workers_for_1_silverling_as_often_as_paid():
    state = position(modules=EXTRA, knowledge=[28], silver=2, workers=0)
    assert BuyWorkers() in legal_actions(state)
    state = play(state, BuyWorkers(), BuyWorkers())
    assert (mover(state).silver, mover(state).workers) == (0, 4)
    assert BuyWorkers() not in legal_actions(state)
    assert_illegal(state, BuyWorkers(), "you have none")
    assert_illegal(position(modules=EXTRA, silver=3), BuyWorkers(), "needs knowledge #28")


def _crane(**fields):
    """The mover places the crane on estate 1's space 13 (die 2) and faces its choice."""
    state = position(dice=(2, 2), storage=(Tile.CRANE,), modules=EXTRA,
                     estate={12: Tile.KNOWLEDGE_1, 7: Tile.KNOWLEDGE_2, 6: Tile.CASTLE,
                             1: Tile.CASTLE, 2: Tile.CASTLE}, **fields)
    state = play(state, UseDie(0), PlaceTile(0, 13))
    assert state.step == Step.CRANE
    return state


def test_the_crane_offers_every_building_whose_effect_can_be_used():
    state = _crane(depots={1: (Tile.WAREHOUSE, Tile.SHIP)})
    offered = {a.building for a in legal_actions(state) if isinstance(a, UseBuilding)}
    # warehouse: no goods; church: no castle, mine or knowledge tile; city hall: empty storage
    assert offered == {Building.CARPENTERS_WORKSHOP, Building.MARKET, Building.BOARDING_HOUSE,
                       Building.BANK, Building.WATCHTOWER}
    assert Pass() in legal_actions(state)
    assert_illegal(state, UseBuilding(Building.CHURCH), "the crane can trigger")


def test_the_crane_triggers_a_bank_a_watchtower_or_a_market():
    bank = apply(_crane(), UseBuilding(Building.BANK))
    assert mover(bank).silver == 2 and bank.step == Step.TURN
    tower = apply(_crane(), UseBuilding(Building.WATCHTOWER))
    assert mover(tower).breakdown[Category.WATCHTOWERS] == 4
    market = apply(_crane(depots={1: (Tile.WAREHOUSE, Tile.SHIP)}),
                   UseBuilding(Building.MARKET))
    assert market.step == Step.MARKET
    market = apply(market, TakeTile(1, 1))
    assert mover(market).storage == (Tile.SHIP,)


def test_the_crane_counts_as_a_building_of_the_best_type_for_the_scoring_monasteries():
    p = mover(with_player(position(modules=EXTRA), knowledge=[17],
                          estate={13: Tile.CRANE, 14: Tile.WATCHTOWER}))
    assert knowledge_points(p, E2019) == 4 + 4
    p = mover(with_player(position(modules=EXTRA), estate={13: Tile.CRANE}))
    assert knowledge_points(p, E2019) == 0  # no scoring monastery: the crane scores nothing


# --- White castles ----------------------------------------------------------------------------

def _white_castle(white_die, **fields):
    state = position(dice=(2, 2), storage=(Tile.WHITE_CASTLE,), modules=WHITE,
                     estate={12: Tile.KNOWLEDGE_1}, **fields)
    state = with_game(state, white_die=white_die)
    state = play(state, UseDie(0), PlaceTile(0, 13))
    assert state.step == Step.WHITE_CASTLE
    return state


def test_a_white_castle_takes_an_action_with_the_white_die():
    state = _white_castle(3, depots={3: (Tile.SHIP,), 4: (Tile.MINE,)})
    actions = legal_actions(state)
    assert TakeTile(3, 0) in actions and TakeTile(4, 0) not in actions  # no workers
    state = apply(state, TakeTile(3, 0))
    assert mover(state).storage == (Tile.SHIP,) and state.white_die == 3


def test_workers_change_the_white_castles_number_but_not_the_white_die():
    state = _white_castle(3, workers=1, depots={4: (Tile.MINE,)}, goods={5: 2})
    assert SellGoods(5) not in legal_actions(state)  # 3 to 5 takes 2 workers
    state = apply(state, TakeTile(4, 0))
    assert mover(state).workers == 0 and state.white_die == 3
    state = _white_castle(3, workers=1)
    assert_illegal(state, SellGoods(5), "you have no goods")


def test_monastery_29_scores_4_per_white_castle():
    p = mover(with_player(position(modules=WHITE), knowledge=[29],
                          estate={13: Tile.WHITE_CASTLE, 22: Tile.WHITE_CASTLE}))
    assert knowledge_points(p, E2019) == 8


# --- Inns -------------------------------------------------------------------------------------

def test_one_inn_a_phase_comes_out_beside_the_black_depot_and_stays():
    state = started(2, modules=INNS, seed="inns")
    assert state.inns == 1 and state.supplies[7] == (Tile.INN,) * 4
    for _ in range(5):  # the rest of phase A
        while state.chance is None:
            state = end_turn(state)
        state = resolve_all(state, "inns")
    assert state.phase == 1 and state.inns == 2


def test_an_inn_is_bought_like_a_black_depot_tile():
    state = with_game(position(modules=INNS, silver=2), inns=2)
    assert Buy(INN_DEPOT, 0) in legal_actions(state)
    state = apply(state, Buy(INN_DEPOT, 0))
    assert mover(state).storage == (Tile.INN,) and state.inns == 1 and mover(state).silver == 0
    assert_illegal(state, Buy(INN_DEPOT, 0), "already bought")
    empty = with_game(position(modules=INNS, silver=2), inns=0)
    assert_illegal(empty, Buy(INN_DEPOT, 0), "no inn lies beside the black depot")


def test_an_inn_goes_on_any_colour_once_per_area_and_the_area_scores_one_size_bigger():
    # rulebook example: an inn in an area of 4 makes it 5, scoring 15 instead of 10
    # estate 2: the pasture 4, 9, 10, 11 (dice 2, 5, 4, 3); the start castle on 21
    state = position(estate_id="2", start_space=21, dice=(4, 3), modules=INNS,
                     storage=(Tile.INN, Tile.INN), estate={4: Tile.COW_2, 9: Tile.SHEEP_2})
    spaces = {a.space for a in legal_actions(apply(state, UseDie(0)))
              if isinstance(a, PlaceTile) and a.storage == 0}
    assert spaces == {10, 20}  # die 4, next to a tile, any colour (light green, yellow)
    state = play(state, UseDie(0), PlaceTile(0, 10))
    assert mover(state).breakdown[Category.REGIONS] == 0  # space 11 is still empty
    state = apply(state, UseDie(1))
    assert PlaceTile(0, 11) not in legal_actions(state)  # one inn per area
    assert_illegal(state, PlaceTile(0, 11), "already has an inn")


def test_an_inn_completing_a_4_area_scores_15_and_an_8_area_scores_45():
    state = position(estate_id="2", start_space=21, dice=(4, 5), modules=INNS,
                     storage=(Tile.INN, Tile.INN),
                     estate={4: Tile.COW_2, 9: Tile.SHEEP_2, 11: Tile.PIG_2,
                             1: 0, 6: 1, 12: 2, 15: 3, 16: 4, 17: 5, 18: 6})
    state = play(state, UseDie(0), PlaceTile(0, 10))
    assert mover(state).breakdown[Category.REGIONS] == 15
    assert mover(state).breakdown[Category.PHASE_BONUSES] == 10
    state = play(state, UseDie(1), PlaceTile(0, 19))
    assert mover(state).breakdown[Category.REGIONS] == 15 + 45


def test_an_inn_covers_its_space_for_the_colour_bonus():
    # estate 1's three grey spaces: two mines placed, the inn covers the third
    state = position(dice=(3, 3), modules=INNS, storage=(Tile.INN,),
                     estate={24: Tile.MINE, 29: Tile.MINE})
    state = play(state, UseDie(0), PlaceTile(0, 33))
    assert mover(state).bonuses[4] == 1
    assert mover(state).breakdown[Category.COLOUR_BONUSES] == 5
    assert mover(state).breakdown[Category.REGIONS] == 10  # an area of 3 scored as 4


def test_a_game_with_modules_hashes_its_inns_and_a_base_game_does_not():
    base = started(2, edition=E2019, seed="h")
    inns = started(2, modules=INNS, seed="h")
    assert len(inns.to_tree()) == len(base.to_tree()) + 1
    assert state_hash(with_game(inns, inns=3)) != state_hash(inns)


def test_new_actions_round_trip_on_the_wire():
    for action in (BuyWorkers(), UseBuilding(Building.BANK), UseBuilding(Tile.WHITE_CASTLE),
                   Buy(INN_DEPOT, 0)):
        assert action_from_tree(action.to_tree()) == action


# --- Border posts (duchies 11a-11f) -----------------------------------------------------------

_BY_COLOUR = (Building.BANK, Tile.COW_2, Tile.SHIP, Tile.CASTLE, Tile.MINE, Tile.KNOWLEDGE_1)


def test_joining_two_border_posts_scores_the_phase_bonus():
    # 11a: posts at spaces 4/9, 8/14 and 34/35; the start castle on 0, a row of tiles to 3
    state = position(estate_id="11a", edition=E2019, start_space=0, dice=(4, 4),
                     storage=(Tile.KNOWLEDGE_2,),
                     estate={4: Tile.KNOWLEDGE_3, 1: Building.BANK, 2: Building.MARKET,
                             3: Tile.CASTLE})
    state = play(state, UseDie(0), PlaceTile(0, 8))
    assert mover(state).breakdown[Category.PHASE_BONUSES] == 10  # phase A
    assert state.border_ranks == (0, 0)


@pytest.mark.parametrize(("ranks", "rank", "vp"), [((0, 0), 1, 5), ((1, 0), 2, 2)])
def test_the_first_and_second_to_join_all_three_posts_score_the_colour_bonus(ranks, rank, vp):
    board = estate("11a")
    tiles = {s: _BY_COLOUR[board.colours[s]] for s in range(37) if s not in (0, 26, 34, 35)}
    state = position(estate_id="11a", edition=E2019, start_space=0, dice=(1, 1),
                     storage=(Tile.COW_3,), estate=tiles)
    seat = state.to_move
    state = with_game(state, border_ranks=tuple(ranks) if seat == 1 else tuple(reversed(ranks)))
    before = mover(state).breakdown
    state = play(state, UseDie(0), PlaceTile(0, 35))
    after = mover(state).breakdown
    assert state.border_ranks[seat] == rank
    assert after[Category.COLOUR_BONUSES] - before[Category.COLOUR_BONUSES] == vp
    assert after[Category.PHASE_BONUSES] - before[Category.PHASE_BONUSES] >= 10  # third post


def test_border_links_count_posts_joined_by_each_group_of_tiles():
    posts = estate("11a").border_posts
    assert border_links(posts, 1 << 4 | 1 << 9) == (0, False)  # one post, both spaces
    path = sum(1 << s for s in (4, 0, 1, 2, 3, 8))
    assert border_links(posts, path) == (1, False)
    assert border_links(posts, path | 1 << 34) == (1, False)  # the third post, apart


# --- Trade routes -----------------------------------------------------------------------------

ROUTES = (Module.TRADE_ROUTES,)


@pytest.mark.parametrize(("players", "cards"), [(2, 5), (3, 4), (4, 3)])
def test_trade_route_cards_are_dealt_by_player_count_each_once(players, cards):
    state = started(players, modules=ROUTES, seed="routes")
    assert [len(r) for r in state.routes] == [cards] * players
    dealt = [c for r in state.routes for c in r]
    assert len(set(dealt)) == len(dealt) and set(dealt) <= set(range(1, 13))
    assert state.route_goods == ((),) * players


def _route(laid=(), **fields):
    """The mover's route is cards 1 then 2: spaces (2 building) (4 church-like)
    (1 +4 workers) (1 market-like) (2 +2 silver) (5 place)."""
    state = position(modules=ROUTES, dice=(1, 2), **fields)
    seat = state.to_move
    routes = [(3, 4, 5, 6, 7)] * 2
    routes[seat] = (1, 2, 8, 9, 10)
    route_goods = [()] * 2
    route_goods[seat] = tuple(laid)
    return with_game(state, routes=tuple(routes), route_goods=tuple(route_goods))


def test_sold_goods_go_on_the_route_one_by_one_and_matching_spaces_give_their_bonus():
    state = _route(goods={2: 3}, depots={1: (Building.BANK,)})
    state = play(state, UseDie(1), SellGoods(2))
    assert state.route_goods[state.to_move] == (2, 2, 2)
    assert state.step == Step.CARPENTER  # space 1: goods 2, take a building
    state = apply(state, TakeTile(1, 0))
    assert mover(state).storage == (Building.BANK,)


def test_a_route_space_gives_workers_silver_or_vp_at_once():
    state = play(_route(laid=(3, 3), goods={1: 1}), UseDie(0), SellGoods(1))
    assert mover(state).workers == 4  # space 3: goods 1, +4 workers
    state = play(_route(laid=(3, 3, 3, 3), goods={2: 1}, workers=1), UseDie(0), SellGoods(2))
    assert mover(state).silver == 1 + 2  # the sale's silverling and space 5's 2
    state = play(_route(laid=(3,) * 6, goods={2: 1}, workers=1), UseDie(0), SellGoods(2))
    # card 8's first space is goods 4: no bonus for a 2
    assert mover(state).breakdown[Category.WATCHTOWERS] == 0


def test_a_full_route_takes_no_more_goods_and_a_warehouse_sale_lays_goods_too():
    state = play(_route(laid=(3,) * 15, goods={1: 2}), UseDie(0), SellGoods(1))
    assert len(state.route_goods[state.to_move]) == 15 and mover(state).sold[1] == 2
    state = _route(laid=(3, 3), goods={1: 2}, pending=[(Step.WAREHOUSE, 0)])
    state = apply(state, SellGoods(1))
    assert state.route_goods[state.to_move] == (3, 3, 1, 1)
    assert mover(state).workers == 4
