"""Rounds, phases and turn order (rulebook pages 3-4 and 9)."""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    END_TURN,
    ChanceKind,
    GameConfig,
    PlaceTile,
    Step,
    TakeWorkers,
    UseDie,
    apply,
    legal_actions,
    new_game,
    resolve_chance,
)
from p2p_burgundy.chance import ChanceEvent, Draws
from p2p_burgundy.tiles import Tile
from tests.engine.helpers import (
    end_turn,
    entropy,
    play,
    resolve_all,
    started,
    with_game,
    with_player,
)


def before_first_round(players: int):
    state = new_game(GameConfig(players=players))
    state = resolve_chance(state, entropy("rounds", 0))
    return resolve_chance(state, entropy("rounds", 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_rolls_two_dice_per_seat_then_the_white_die_and_places_the_goods(players):
    before = before_first_round(players)
    e = entropy("rounds", 2)
    state = resolve_chance(before, e)
    draws = Draws(e)
    for p in state.players:
        assert p.dice == (draws.die(), draws.die())
        assert p.dice_used == 0 and not p.bought
    white = draws.die()
    assert state.white_die == white
    expected = [[0] * 7 for _ in range(7)]
    expected[white][before.phase_goods[0]] = 1
    assert state.depot_goods == tuple(tuple(row) for row in expected)
    assert state.chance is None
    assert state.to_move == state.order[0]
    assert state.turn == 0


def test_every_round_adds_its_goods_tile_to_the_white_die_depot_only():
    state = new_game(GameConfig(players=2))
    placed = 0
    while not state.is_over:
        if state.chance is None:
            state = end_turn(state)
            continue
        before = state
        state = resolve_chance(state, entropy("white", state.chance.index))
        if before.chance.kind != ChanceKind.ROUND:
            continue
        placed += 1
        for d in range(7):
            delta = [a - b for a, b in zip(state.depot_goods[d], before.depot_goods[d],
                                           strict=True)]
            if d == state.white_die:
                goods = state.phase_goods[state.round]
                assert delta == [1 if g == goods else 0 for g in range(7)]
            else:
                assert delta == [0] * 7
    assert placed == 25
    assert sum(map(sum, state.depot_goods)) == 25


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_is_five_phases_of_five_rounds_with_one_turn_per_player(players):
    state = new_game(GameConfig(players=players))
    events = []
    turns_in_round: list[int] = []
    while not state.is_over:
        if state.chance is not None:
            event = state.chance
            assert event.index == len(events)
            events.append((event.kind, event.phase, event.round))
            state = resolve_chance(state, entropy("5x5", event.index))
            if event.kind == ChanceKind.ROUND:
                turns_in_round = []
            continue
        assert (state.phase, state.round) == events[-1][1:]
        turns_in_round.append(state.to_move)
        state = end_turn(state)
        if state.chance is not None or state.is_over:
            # each round every seat moved once, in the order of the track
            assert sorted(turns_in_round) == list(range(players))
    expected = [(ChanceKind.SETUP, 0, 0)]
    for phase in range(5):
        expected.append((ChanceKind.PHASE, phase, 0))
        expected += [(ChanceKind.ROUND, phase, r) for r in range(5)]
    assert events == expected
    assert state.phase == 5 and state.is_over
    assert state.to_move is None and legal_actions(state) == []


def test_last_turn_of_a_round_asks_for_the_next_rounds_dice():
    state = started(3)
    state = end_turn(end_turn(state))
    assert state.chance is None and state.turn == 2
    state = end_turn(state)
    assert state.chance == ChanceEvent(3, ChanceKind.ROUND, 0, 1)
    assert state.to_move is None and legal_actions(state) == []


def ship_turn(state):
    """The mover places a ship on S2 (space 17, die 2) next to the start castle."""
    state = with_player(state, storage=(Tile.SHIP,), dice=(2, 2), dice_used=0)
    state = play(state, UseDie(0), PlaceTile(0, 17))
    if state.step == Step.SHIP:  # goods on the depots: take the first choice
        state = apply(state, legal_actions(state)[0])
    state = play(state, UseDie(1), TakeWorkers())
    assert state.step == Step.TURN
    return state


def test_ship_moves_the_player_one_space_on_and_the_new_order_counts_next_round():
    state = started(3, seed="order")
    a, b, c = state.order
    state = end_turn(state)  # a takes workers twice
    state = ship_turn(state)  # b ships: one space on the track
    assert state.track[b][0] == 1
    assert [state.track[s][0] for s in (a, c)] == [0, 0]
    assert state.order == (a, b, c)  # this round's order stands
    state = end_turn(state)
    assert state.to_move == c
    state = end_turn(state)
    state = resolve_all(state, "order")
    assert state.order == (b, a, c)
    assert state.to_move == b


def test_ship_lands_on_top_of_a_stack_and_goes_first():
    state = started(3, seed="stack")
    a, b, c = state.order
    # a and c are on space 1 already (c on top); now b ships onto that space too
    stamp = state.track_stamp
    track = list(state.track)
    track[a] = (1, stamp)
    track[c] = (1, stamp + 1)
    state = with_game(state, track=tuple(track), track_stamp=stamp + 2)
    state = end_turn(state)
    state = ship_turn(state)
    assert state.track[b] == (1, stamp + 2)
    state = end_turn(end_turn(state))
    state = resolve_all(state, "stack")
    assert state.order == (b, c, a)


def test_ship_onto_the_space_of_the_leader_puts_the_player_on_top():
    state = started(2, seed="ahead")
    first, second = state.order
    state = end_turn(state)
    state = end_turn(ship_turn(state))
    state = resolve_all(state, "ahead")
    assert state.order == (second, first)
    # now the other player ships onto the same space: on top, so first next round
    state = end_turn(state)
    assert state.to_move == first
    state = ship_turn(state)
    assert state.track[first][0] == state.track[second][0] == 1
    assert state.track[first][1] > state.track[second][1]
    state = end_turn(state)
    state = resolve_all(state, "ahead")
    assert state.order == (first, second)


def end_of_phase(players: int, phase: int):
    """The last turn of round 5 of ``phase``."""
    state = started(players, seed="phase-end")
    return with_game(state, phase=phase, round=4, turn=players - 1)


def test_end_of_phase_pays_a_silverling_per_mine_and_knowledge_2_a_worker_per_mine():
    state = end_of_phase(3, 0)
    last, first, middle = state.order[2], state.order[0], state.order[1]
    state = with_player(state, seat=last, silver=1, workers=0, dice_used=0b11,
                        estate={24: Tile.MINE, 29: Tile.MINE})
    state = with_player(state, seat=first, silver=0, workers=3,
                        estate={24: Tile.MINE, 12: Tile.KNOWLEDGE_2}, knowledge=[2])
    state = with_player(state, seat=middle, silver=2, workers=1, estate={33: Tile.MINE},
                        knowledge=[])
    assert state.to_move == last
    after = apply(state, END_TURN)
    assert [after.players[s].silver for s in (last, first, middle)] == [3, 1, 3]
    assert [after.players[s].workers for s in (last, first, middle)] == [0, 4, 1]
    assert after.chance == ChanceEvent(state.chance_index, ChanceKind.PHASE, 1, 0)
    assert (after.phase, after.round) == (1, 0)
    assert not after.is_over


def test_mines_pay_at_the_end_of_every_phase_including_the_last():
    state = end_of_phase(2, 4)
    state = with_player(state, estate={24: Tile.MINE}, silver=0, dice_used=0b11)
    after = apply(state, END_TURN)
    assert after.is_over
    assert after.players[state.to_move].silver == 1


def test_mid_phase_round_end_pays_no_mine_income():
    state = with_game(started(2), round=2, turn=1)
    state = with_player(state, estate={24: Tile.MINE}, silver=0, dice_used=0b11)
    after = apply(state, END_TURN)
    assert after.chance == ChanceEvent(state.chance_index, ChanceKind.ROUND, 0, 3)
    assert after.players[state.to_move].silver == 0
