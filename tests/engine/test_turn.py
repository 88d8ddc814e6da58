"""The turn: its actions with the state after each, and the one rule for where it ends."""

from __future__ import annotations

import pytest

from p2p_burgundy import (
    END_TURN,
    ChooseEstate,
    GameConfig,
    IllegalAction,
    TakeWorkers,
    Turn,
    UseDie,
    apply,
    ends_turn,
    new_game,
    play_turn,
    state_hash,
)
from tests.engine.helpers import resolve_all

WORKERS_TWICE = [UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN]


def test_a_turn_holds_the_state_after_each_action():
    state = resolve_all(new_game(GameConfig(2)), seed=1)
    turn = play_turn(state, WORKERS_TWICE)
    expected = []
    s = state
    for action in WORKERS_TWICE:
        s = apply(s, action)
        expected.append(state_hash(s))
    assert [state_hash(s) for s in turn.states] == expected
    assert turn.before is state and turn.after is turn.states[-1] and turn.over
    assert turn.seat == state.to_move
    assert turn.after.players[turn.seat].workers == state.players[turn.seat].workers + 4


def test_end_turn_and_a_set_up_choice_end_a_turn_and_nothing_else_does():
    assert ends_turn(END_TURN) and ends_turn(ChooseEstate(0, 18))
    assert not ends_turn(UseDie(0)) and not ends_turn(TakeWorkers())


@pytest.mark.parametrize(("actions", "message"), [
    (WORKERS_TWICE[:-1], "a turn is a list of actions ending with its only EndTurn()"),
    ([], "a turn is a list of actions ending with its only EndTurn()"),
    ([*WORKERS_TWICE, END_TURN], "EndTurn(): the turn is over (it ended with EndTurn())"),
    ([END_TURN], "EndTurn(): use your 6 and 4 first: a turn is one action per die"),
])
def test_anything_but_a_whole_legal_turn_is_refused(actions, message):
    state = resolve_all(new_game(GameConfig(2)), seed=1)
    with pytest.raises(IllegalAction) as refused:
        play_turn(state, actions)
    assert message in str(refused.value)


def test_a_turn_under_way_grows_and_is_undone_one_action_at_a_time():
    state = resolve_all(new_game(GameConfig(2)), seed=1)
    turn = Turn.of(state, WORKERS_TWICE[:2])
    assert not turn.over and len(turn.states) == 2
    back = turn.undone()
    assert back.actions == (UseDie(0),) and back.after is turn.states[0]
    assert Turn(state).undone() == Turn(state) and Turn(state).after is state


def test_a_set_up_choice_is_a_turn_by_itself():
    state = resolve_all(new_game(GameConfig(2, estates=("5", "5"))), seed=3)
    choice = ChooseEstate(0, state.config.board("5").dark_green_spaces[0])
    turn = play_turn(state, [choice])
    assert turn.over and turn.actions == (choice,)
    with pytest.raises(IllegalAction, match="the turn is over"):
        turn.then(END_TURN)
