"""LocalTable and ReplayTable: the tables that need no network."""

from __future__ import annotations

import getpass

import pytest

from p2p_burgundy import END_TURN, IllegalAction, TakeWorkers, UseDie
from p2p_burgundy.cli.tui.command import default_name
from p2p_burgundy.cli.tui.table import (
    ChatReceived,
    EntryKind,
    GameEnded,
    LocalTable,
    StateChanged,
    Steppable,
    Table,
    clean_name,
)
from p2p_burgundy.cli.tui.texts import tile_code

from .helpers import FixedTable, started


def until_my_turn(table: LocalTable) -> None:
    for _ in range(100):
        table.poll()
        if table.state.to_move == table.my_seat:
            return
    raise AssertionError("never my turn")


WORKERS_TURN = [UseDie(0), TakeWorkers(), UseDie(1), TakeWorkers(), END_TURN]


def test_every_table_here_follows_the_protocol() -> None:
    table = LocalTable.new("Ann", seed=1)
    assert isinstance(table, Table)
    assert isinstance(FixedTable(started(2), ["Ann", "Bea"], 0), Table)
    replay = table.replay()
    assert isinstance(replay, Table) and isinstance(replay, Steppable)


def test_the_same_seed_deals_and_plays_the_same_game() -> None:
    a, b = LocalTable.new("Ann", bots=2, seed=11), LocalTable.new("Ann", bots=2, seed=11)
    for table in (a, b):
        until_my_turn(table)
        table.submit_turn(WORKERS_TURN)
        until_my_turn(table)
    assert a.history == b.history
    assert a.state.players[0].dice == b.state.players[0].dice


def test_an_illegal_turn_is_refused_and_changes_nothing() -> None:
    table = LocalTable.new("Ann", seed=3)
    until_my_turn(table)
    before, history = table.state, list(table.history)
    with pytest.raises(IllegalAction):
        table.submit_turn([UseDie(0), TakeWorkers(), END_TURN])  # one die unused
    with pytest.raises(IllegalAction):
        table.submit_turn([*WORKERS_TURN[:4]])  # no EndTurn
    assert table.state is before and list(table.history) == history


def test_a_turn_out_of_turn_is_refused() -> None:
    table = LocalTable.new("Ann", seed=3, bot_delay=1.0, clock=lambda: 0.0)
    table.poll()
    if table.state.to_move == 0:
        table.submit_turn(WORKERS_TURN)
    with pytest.raises(IllegalAction, match="not your turn"):
        table.submit_turn(WORKERS_TURN)


def test_bots_wait_their_delay_between_turns() -> None:
    now = [0.0]
    table = LocalTable.new("Ann", bots=3, seed=5, bot_delay=2.0, clock=lambda: now[0])
    table.poll()
    turns = sum(1 for e in table.history if e.text.endswith("ended the turn."))
    assert turns <= 1
    table.poll()  # no time has passed: nobody moves
    assert sum(1 for e in table.history if e.text.endswith("ended the turn.")) == turns
    if table.state.to_move != 0:
        now[0] += 2.0
        table.poll()
        assert sum(1 for e in table.history if e.text.endswith("ended the turn.")) == turns + 1
    assert table.waiting_for() in (None, f"waiting for {table.names[table.state.to_move]}'s turn")


def test_resigning_ends_the_game_for_the_table() -> None:
    table = LocalTable.new("Ann", seed=3)
    table.poll()
    table.resign()
    events = table.poll()
    assert GameEnded("Ann resigned") in events and table.ended == "Ann resigned"
    assert table.history[-1].kind == EntryKind.EVENT and table.waiting_for() is None


def test_chat_goes_into_the_history_cleaned() -> None:
    table = LocalTable.new("Ann", seed=3)
    table.poll()
    table.send_chat("hi\x1b[31m there")
    assert table.history[-1] == (0, "hi?[31m there", EntryKind.CHAT)
    assert ChatReceived(0, "hi?[31m there") in table.poll()
    table.send_chat("   ")
    assert table.history[-1].text == "hi?[31m there"


def test_a_local_game_replays_step_by_step() -> None:
    table = LocalTable.new("Ann", seed=3)
    until_my_turn(table)
    table.submit_turn(WORKERS_TURN)
    until_my_turn(table)
    replay = table.replay()
    last, total = replay.position
    assert last == total and replay.history == list(table.history)
    assert replay.poll() == [StateChanged()] and replay.poll() == []
    replay.step(-total)
    assert replay.position == (0, total) and replay.history == [] and replay.state.chance
    replay.step(3)
    assert replay.history[-1].kind == EntryKind.CHANCE
    assert replay.my_seat is None and replay.waiting_for() == f"replay: step 3 of {total}"
    with pytest.raises(IllegalAction):
        replay.submit_turn(WORKERS_TURN)


def test_names_are_cleaned_and_bounded() -> None:
    assert clean_name("  \x1b]0;pwned\x07 ") == "?]0;pwned?"
    assert clean_name("A" * 40) == "A" * 16
    assert tile_code(0) == "Wrh"


@pytest.mark.parametrize("login", ["", KeyError("uid 1000 has no name")])
def test_without_a_login_name_a_player_is_called_player(monkeypatch: pytest.MonkeyPatch,
                                                        login: str | Exception) -> None:
    # Others see this name in the third person ("Player's ship"), so it must not be "You".
    def getuser() -> str:
        if isinstance(login, Exception):
            raise login
        return login
    monkeypatch.setattr(getpass, "getuser", getuser)
    assert default_name() == "Player"
