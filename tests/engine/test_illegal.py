"""Illegal actions: each raises IllegalAction naming the reason and changes nothing."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_burgundy import (
    END_TURN,
    Buy,
    ChooseEstate,
    Discard,
    EndTurn,
    GameConfig,
    IllegalAction,
    Pass,
    Payment,
    PlaceTile,
    SellGoods,
    Step,
    TakeGoods,
    TakeTile,
    TakeWorkers,
    UseDie,
    action_from_tree,
    apply,
    new_game,
    resolve_chance,
    state_hash,
)
from p2p_burgundy.actions import ACTION_TYPES, Action
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import (
    E2019,
    assert_illegal,
    end_turn,
    play,
    position,
    started,
    with_game,
)


def turn():
    """A turn with something to do: dice 3 and 5, a bank and a ship stored, goods of type 2,
    a tile on depots 0, 3 and 5, two silverlings, one worker."""
    return position(dice=(3, 5), storage=(Tile.BANK, Tile.SHIP), goods={2: 1}, silver=2,
                    workers=1, depots={0: (Tile.MINE,), 3: (Tile.COW_2,), 5: (Tile.CHURCH,)})


def die():
    return apply(turn(), UseDie(0))  # a 3 chosen


def discard():
    state = position(dice=(3, 3), storage=(Tile.BANK, Tile.SHIP, Tile.MINE),
                     depots={3: (Tile.COW_2,)})
    return play(state, UseDie(0), TakeTile(3, 0))


def ship():
    state = position(dice=(2, 2), storage=(Tile.SHIP,), goods={1: 1, 2: 1},
                     depot_goods={4: {2: 1, 3: 1, 4: 1}, 6: {5: 1}})
    return play(state, UseDie(0), PlaceTile(0, 17))


def building(step):
    return position(storage=(Tile.SHIP,), goods={4: 1}, pending=[(step, 0)],
                    depots={0: (Tile.BANK,), 1: (Tile.SHIP, Tile.BANK), 2: (Tile.CASTLE,)})


def free_action():
    return position(dice=(1, 1), pending=[(Step.FREE_ACTION, 0)], depots={0: (Tile.BANK,)})


def game_over():
    return with_game(started(2), phase=5)


def waiting_for_dice():
    return end_turn(end_turn(started(2)))


CASES = [
    # the game is not waiting for this player
    ("setup pending", lambda: new_game(GameConfig(players=2)), END_TURN,
     "waiting for chance event 0 (SETUP)"),
    ("round pending", waiting_for_dice, UseDie(0), "waiting for chance event 3 (ROUND)"),
    ("game over", game_over, END_TURN, "the game is over"),
    ("game over take", game_over, TakeTile(1, 0), "the game is over"),
    # wrong step
    ("end turn with both dice unused", turn, END_TURN,
     "use your 3 and 5 first: a turn is one action per die"),
    ("end turn with one die unused", lambda: play(turn(), UseDie(0), TakeWorkers()), END_TURN,
     "use your 5 first"),
    ("end turn with a die chosen", die, END_TURN, "not a choice now"),
    ("second die while one is chosen", die, UseDie(1), "not a choice now"),
    ("buy with a die chosen", die, Buy(0, 0), "not a choice now"),
    ("take without a die", turn, TakeTile(3, 0), "use a die, buy a tile or end the turn"),
    ("place without a die", turn, PlaceTile(0, 11), "use a die, buy a tile or end the turn"),
    ("sell without a die", turn, SellGoods(2), "not a choice now"),
    ("workers without a die", turn, TakeWorkers(), "not a choice now"),
    ("pass at the turn", turn, Pass(), "not a choice now"),
    ("discard at the turn", turn, Discard(0), "not a choice now"),
    ("goods at the turn", turn, TakeGoods((4,), (2,)), "not a choice now"),
    ("place while discarding", discard, PlaceTile(0, 11), "discard one of the three older"),
    ("end turn while discarding", discard, END_TURN, "storage is full"),
    ("pass while discarding", discard, Pass(), "not a choice now"),
    ("sell on a ship", ship, SellGoods(2), "the ship takes goods: choose the depot"),
    ("pass on a ship", ship, Pass(), "goods lie on the depots: the ship takes goods"),
    ("take at the warehouse", lambda: building(Step.WAREHOUSE), TakeTile(1, 0),
     "the warehouse may sell one goods type (or pass)"),
    ("sell at the carpenter", lambda: building(Step.CARPENTER), SellGoods(4),
     "the carpenter's workshop may take a building"),
    ("place at the church", lambda: building(Step.CHURCH), PlaceTile(0, 17),
     "the church may take a mine, castle or knowledge tile"),
    ("workers at the market", lambda: building(Step.MARKET), TakeWorkers(),
     "the market may take a ship or animal tile"),
    ("take at the city hall", lambda: building(Step.CITY_HALL), TakeTile(1, 0),
     "the city hall may place one more tile"),
    ("end turn on a castle", free_action, END_TURN, "the castle's extra action"),
    # dice
    ("die 2 is the white die", turn, UseDie(2), "die must be 0 or 1"),
    ("die -1", turn, UseDie(-1), "die must be 0 or 1"),
    ("die 0.0", turn, UseDie(0.0), "die must be 0 or 1"),  # type: ignore[arg-type]
    ("die True", turn, UseDie(True), "die must be 0 or 1"),  # a bool would enter the state
    ("die None", turn, UseDie(None), "die must be 0 or 1"),  # type: ignore[arg-type]
    ("die twice", lambda: play(turn(), UseDie(0), TakeWorkers()), UseDie(0),
     "die 0 (3) is already used"),
    # taking tiles
    ("take with too few workers", die, TakeTile(5, 0),
     "turning your 3 into a 5 takes 2 workers; you have 1"),
    ("take from the black depot with a die", die, TakeTile(0, 0),
     "a die takes from numbered depots 1..6 only"),
    ("take from depot 7", die, TakeTile(7, 0), "numbered depots 1..6 only"),
    ("take from an empty slot", die, TakeTile(3, 1), "depot 3 has no tile in slot 1"),
    ("take slot 4", die, TakeTile(3, 4), "depot 3 has no tile in slot 4"),
    ("take slot -1", die, TakeTile(3, -1), "depot 3 has no tile in slot -1"),
    ("take a string depot", die, TakeTile("3", 0), "numbered depots 1..6 only"),  # type: ignore[arg-type]
    ("castle takes from the black depot", free_action, TakeTile(0, 0), "numbered depots"),
    # placing tiles
    ("place from empty storage", die, PlaceTile(2, 11), "storage space 2 is empty"),
    ("place from storage -1", die, PlaceTile(-1, 11), "storage space -1 is empty"),
    ("place on space 37", die, PlaceTile(0, 37), "estate spaces are 0..36"),
    ("place on space -1", die, PlaceTile(0, -1), "estate spaces are 0..36"),
    ("place on the castle", die, PlaceTile(0, 18), "C6 (row 4, 4) is already covered"),
    ("place on the wrong colour", die, PlaceTile(1, 11),
     "a blue tile (ship) cannot go on B3 (row 3, 3): colours must match"),
    ("place far away", die, PlaceTile(0, 36), "B3 (row 7, 4) is not next to a placed tile"),
    ("place off the die", die, PlaceTile(1, 19),
     "turning your 3 into a 5 takes 2 workers; you have 1"),
    ("place a float space", die, PlaceTile(0, 11.0), "estate spaces are 0..36"),  # type: ignore[arg-type]
    # selling
    ("sell goods not held", die, SellGoods(3), "you have no goods of type 3 to sell"),
    ("sell type 0", die, SellGoods(0), "goods types are 1..6"),
    ("sell type 7", die, SellGoods(7), "goods types are 1..6"),
    ("sell type None", die, SellGoods(None), "goods types are 1..6"),  # type: ignore[arg-type]
    ("warehouse sells goods not held", lambda: building(Step.WAREHOUSE), SellGoods(2),
     "you have no goods of type 2 to sell"),
    # buying
    ("buy a numbered depot", turn, Buy(3, 0), "only the black depot (0) sells tiles"),
    ("buy from depot 7", lambda: position(knowledge=[6], silver=2), Buy(7, 0),
     "depot must be 0 (black) or 1..6"),
    ("buy an empty slot", turn, Buy(0, 1), "depot 0 has no tile in slot 1"),
    ("buy slot 8", turn, Buy(0, 8), "depot 0 has no tile in slot 8"),
    ("buy too poor", lambda: position(silver=1, depots={0: (Tile.MINE,)}), Buy(0, 0),
     "a purchase costs 2 silverlings; you have 1"),
    ("buy with workers in 2011", lambda: position(knowledge=[6], workers=4,
                                                  depots={0: (Tile.MINE,)}),
     Buy(0, 0, Payment.WORKERS), "needs knowledge #6 (2019 edition)"),
    ("buy with workers without 6", lambda: position(edition=E2019, workers=4,
                                                    depots={0: (Tile.MINE,)}),
     Buy(0, 0, Payment.WORKERS), "needs knowledge #6"),
    ("buy with 1 worker", lambda: position(edition=E2019, knowledge=[6], workers=1,
                                           depots={0: (Tile.MINE,)}),
     Buy(0, 0, Payment.WORKERS), "you have 1"),
    ("buy with an unknown payment", turn, Buy(0, 0, 2), "unknown payment"),  # type: ignore[arg-type]
    ("buy twice", lambda: apply(position(silver=4, depots={0: (Tile.MINE, Tile.BANK)}),
                                Buy(0, 0)), Buy(0, 1), "you already bought a tile this turn"),
    # discarding
    ("discard the new tile", discard, Discard(3), "never the new one"),
    ("discard -1", discard, Discard(-1), "storage 0..2"),
    # ships
    ("ship from a depot without goods", ship, TakeGoods((1,), ()), "no goods lie there"),
    ("ship from the black depot", ship, TakeGoods((0,), ()), "one numbered depot"),
    ("ship from depot 7", ship, TakeGoods((7,), ()), "one numbered depot"),
    ("ship from no depot", ship, TakeGoods((), ()), "one numbered depot"),
    ("ship from three depots", ship, TakeGoods((4, 5, 6), (2,)), "one numbered depot"),
    ("ship from two without 5", ship, TakeGoods((4, 5), (2, 3)), "needs knowledge #5"),
    ("ship keeps four types", ship, TakeGoods((4,), (2, 3, 4)), "at most three types"),
    ("ship leaves a type it could keep", ship, TakeGoods((6,), ()),
     "keep every goods type you can store"),
    ("ship depots not a tuple", ship, TakeGoods(4, (2,)), "must be tuples"),  # type: ignore[arg-type]
    ("ship depots a list", ship, TakeGoods([4], [2, 3]), "must be tuples"),  # type: ignore[arg-type]
    ("ship keep None", ship, TakeGoods((4,), None), "must be tuples"),  # type: ignore[arg-type]
    # building advantages
    ("carpenter takes a ship", lambda: building(Step.CARPENTER), TakeTile(1, 0),
     "this building takes beige tiles, not ship"),
    ("church takes a bank", lambda: building(Step.CHURCH), TakeTile(1, 1),
     "this building takes dark_green or grey or yellow tiles, not bank"),
    ("market takes a castle", lambda: building(Step.MARKET), TakeTile(2, 0),
     "this building takes blue or light_green tiles, not castle"),
    ("market takes from the black depot", lambda: building(Step.MARKET), TakeTile(0, 0),
     "not the black depot"),
    ("city hall places off colour", lambda: building(Step.CITY_HALL), PlaceTile(0, 11),
     "colours must match"),
]


@pytest.mark.parametrize(("make", "action", "phrase"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_illegal_action_names_the_reason_and_changes_nothing(make, action, phrase):
    state = make()
    message = assert_illegal(state, action, phrase)
    assert message.startswith(repr(action))


def test_rule_errors_name_the_state_hash():
    state = die()
    message = assert_illegal(state, SellGoods(3))
    assert message.endswith(f"[state {state_hash(state).hex()[:12]}]")


# --- Action trees ----------------------------------------------------------------------------

EVERY_ACTION = [
    UseDie(1), TakeTile(3, 2), PlaceTile(2, 36), SellGoods(6), TakeWorkers(),
    Buy(0, 7), Buy(4, 1, Payment.WORKERS), Discard(2), TakeGoods((1, 6), (2, 3, 5)),
    TakeGoods((2,), ()), Pass(), EndTurn(), ChooseEstate(1, 18),
]


@pytest.mark.parametrize("action", EVERY_ACTION, ids=repr)
def test_action_tree_round_trips(action):
    tree = action.to_tree()
    assert ACTION_TYPES[tree[0]] is type(action)
    assert action_from_tree(tree) == action
    assert action_from_tree(tuple(tree)) == action
    assert eval(repr(action)) == action  # reprs rebuild the value


def test_every_action_type_has_a_distinct_tag():
    assert sorted(ACTION_TYPES) == list(range(1, len(ACTION_TYPES) + 1))
    names = [cls.__name__ for cls in ACTION_TYPES.values()]
    assert sorted(names) == sorted({cls.__name__ for cls in Action.__subclasses__()})


MALFORMED = [
    (None, "expected [tag, field...]"),
    ([], "expected [tag, field...]"),
    ("1", "expected [tag, field...]"),
    ([True, 0], "expected [tag, field...]"),
    ([1.0, 0], "expected [tag, field...]"),
    ([0], "unknown tag 0"),
    ([23], "unknown tag 23"),
    ([21, 2], "TakeFirst takes step, arg"),
    ([11, 0], "ChooseEstate takes side, space"),
    ([-1], "unknown tag -1"),
    ([1], "UseDie takes die"),
    ([1, 0, 0], "UseDie takes die"),
    ([2, 3], "TakeTile takes depot, slot"),
    ([10, 0], "EndTurn takes no fields"),
    ([5, 1], "TakeWorkers takes no fields"),
    ([1, "0"], "die must be an integer"),
    ([1, True], "die must be an integer"),
    ([1, None], "die must be an integer"),
    ([1, 0.0], "die must be an integer"),
    ([2, 3, [0]], "slot must be an integer"),
    ([6, 0, 0, 2], "unknown payment 2"),
    ([6, 0, 0, "0"], "payment must be an integer"),
    ([8, 1, [2]], "depots must be a list"),
    ([8, [1], 2], "keep must be a list"),
    ([8, [1], [2.0]], "keep must be a list"),
    ([8, [True], [2]], "depots must be a list"),
    ([8, [1]], "TakeGoods takes depots, keep"),
]


@pytest.mark.parametrize(("tree", "phrase"), MALFORMED, ids=repr)
def test_action_from_tree_rejects_malformed_trees(tree, phrase):
    with pytest.raises(IllegalAction, match="malformed action") as info:
        action_from_tree(tree)
    assert phrase in str(info.value)


trees = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=False)
    | st.text(max_size=2),
    lambda inner: st.lists(inner, max_size=5),
    max_leaves=10,
)


@settings(max_examples=300, deadline=None)
@given(tree=trees)
def test_action_from_tree_either_decodes_exactly_or_raises_illegal_action(tree):
    try:
        action = action_from_tree(tree)
    except IllegalAction:
        return
    assert action.to_tree() == tree


@settings(max_examples=200, deadline=None)
@given(tree=st.lists(st.integers(-2, 40), min_size=1, max_size=4).map(
    lambda xs: [xs[0] % 12, *xs[1:]]))
def test_decoded_actions_are_legal_or_rejected_cleanly_in_a_live_position(tree):
    try:
        action = action_from_tree(tree)
    except IllegalAction:
        return
    for state in (TURN_STATE, DIE_STATE):
        try:
            after = apply(state, action)
        except IllegalAction:
            continue
        assert after is not state


TURN_STATE = turn()
DIE_STATE = die()


def test_resolve_chance_in_a_position_to_move_is_a_chance_error():
    from p2p_burgundy import ChanceError

    with pytest.raises(ChanceError):
        resolve_chance(TURN_STATE, bytes(32))


ODD_VALUES = st.sampled_from([None, 0.0, 1.0, 2.5, "1", True, False, -1, 3, 0, 1, 2, 10**20,
                              (1,), [1], b"\x01"])
ODD_ACTIONS = st.one_of(
    st.builds(UseDie, ODD_VALUES),
    st.builds(TakeTile, ODD_VALUES, ODD_VALUES),
    st.builds(PlaceTile, ODD_VALUES, ODD_VALUES),
    st.builds(SellGoods, ODD_VALUES),
    st.builds(Buy, ODD_VALUES, ODD_VALUES, ODD_VALUES),
    st.builds(Discard, ODD_VALUES),
    st.builds(TakeGoods, ODD_VALUES, ODD_VALUES),
)
ODD_STATES = {
    "turn": turn(), "die": die(), "discard": discard(), "ship": ship(),
    "free action": free_action(), "carpenter": building(Step.CARPENTER),
    "warehouse": building(Step.WAREHOUSE), "city hall": building(Step.CITY_HALL),
    "knowledge 6": position(edition=E2019, knowledge=[6], silver=4, workers=4,
                            depots={0: (Tile.BANK,), 3: (Tile.SHIP,)}),
}


@settings(max_examples=400, deadline=None)
@given(action=ODD_ACTIONS, where=st.sampled_from(sorted(ODD_STATES)))
def test_actions_built_with_odd_field_values_never_crash_apply(action, where):
    """Actions made in code (not decoded from the wire) may hold any values: apply either
    accepts them or raises IllegalAction, never anything else."""
    state = ODD_STATES[where]
    digest = state_hash(state)
    with contextlib.suppress(IllegalAction):
        apply(state, action)
    assert state_hash(state) == digest
