"""Snapshots of a session and of a lobby (net/snapshot.py): immutable once taken, complete
when read late."""

from __future__ import annotations

import dataclasses

import pytest

from p2p_burgundy import state_hash
from p2p_burgundy.net.events import Waiting
from p2p_burgundy.net.identity import fingerprint, table_code
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot, Snapshots

from .test_lobby import HOST, SILENT, exchange, silent_guest, table


def test_a_snapshot_stays_as_it_was_taken_while_the_session_plays_on() -> None:
    table = Table(2, seed=1)
    snapshots = Snapshots(table.sessions[0])
    table.pump()
    first = snapshots.take(missing=[1])
    seen = (first.seq, first.step, len(first.history), first.waiting, first.chats,
            first.my_turn, state_hash(first.state), dict(first.forfeits), first.missing)
    assert seen == (0, 3, 3, Waiting("turn", 0, (0,)), ((), ()), True,
                    state_hash(table.sessions[0].history[2].state), {}, (1,))
    table.sessions[1].send_chat("hello")
    table.flush(1)
    table.play(turns=6)
    session = table.sessions[0]
    assert session.step == 12 and first.state is not session.state
    assert (first.seq, first.step, len(first.history), first.waiting, first.chats,
            first.my_turn, state_hash(first.state), dict(first.forfeits),
            first.missing) == seen
    second = snapshots.take(missing=[])
    assert (second.seq, second.step, len(second.history), second.waiting, second.chats) == (
        1, 12, 12, Waiting("turn", 6, (0,)), ((), ("hello",)))
    assert second.history[:3] == first.history and second.state is session.state
    table.tick()  # HEADS all round: nothing new
    assert snapshots.take(missing=[]) is second
    assert snapshots.take(missing=[1]).seq == 2  # who is silent changed
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.step = 12  # type: ignore[misc]
    with pytest.raises(TypeError):
        first.forfeits[1] = 12  # type: ignore[index]


def test_the_latest_snapshot_holds_all_that_the_skipped_ones_held() -> None:
    """One reader takes a snapshot after every batch of input, another only at the end: the
    last snapshot alone holds every step and every chat line the first reader saw."""
    table = Table(2, seed=1)
    every, late = Snapshots(table.sessions[0]), Snapshots(table.sessions[0])
    taken: list[Snapshot] = []
    turns = 0
    while not table.sessions[0].over:
        table.sessions[turns % 2].send_chat(f"line {turns}")
        table.flush(turns % 2)
        table.play(turns=1)
        taken.append(every.take(missing=[]))
        turns += 1
    last = late.take(missing=[])
    assert last.seq == 0 and taken[-1].seq == len(taken) - 1 == turns - 1 == 49
    assert last.history == taken[-1].history == tuple(table.sessions[0].history)
    assert len(last.history) == last.step == 81 and last.over and last.waiting is None
    assert last.chats == taken[-1].chats == (
        tuple(f"line {n}" for n in range(0, turns, 2)),
        tuple(f"line {n}" for n in range(1, turns, 2)))
    for earlier in taken:  # each one a moment of the same game: a prefix of the last
        assert last.history[:earlier.step] == earlier.history
        assert all(last.chats[s][:len(lines)] == lines for s, lines in enumerate(earlier.chats))
    assert last.outcome == taken[-1].outcome == table.sessions[0].outcome()
    assert last.outcome is not None and last.outcome.scores == (42, 34)
    assert every.take(missing=[]).outcome is taken[-1].outcome  # the game is over: kept


def test_a_lobby_snapshot_stays_as_it_was_taken_while_the_table_forms_and_starts() -> None:
    host, guest = table()
    hosted, joined = LobbySnapshot.of(host), LobbySnapshot.of(guest)
    seen = [(s.hosting, s.host, s.seats, [(m.name, m.colour, m.ready) for m in s.members],
             s.game_id, s.code, s.admitted, s.closed, s.can_start, s.refused, s.silent)
            for s in (hosted, joined)]
    roster = [("Hana", "red", True), ("Gus", "blue", False)]
    assert seen == [(True, None, 2, roster, b"", None, True, False, False, None, None),
                    (False, HOST, 2, roster, b"", None, True, False, False, None, None)]
    guest.set_me("Gus", "green", True)
    exchange(host, guest)
    assert LobbySnapshot.of(host).can_start
    host.start()
    exchange(host, guest)
    assert host.started is not None and guest.members[1].colour == "green"
    assert [(s.hosting, s.host, s.seats, [(m.name, m.colour, m.ready) for m in s.members],
             s.game_id, s.code, s.admitted, s.closed, s.can_start, s.refused, s.silent)
            for s in (hosted, joined)] == seen
    now = LobbySnapshot.of(host)
    keys = [host.identity.public_key, guest.identity.public_key]
    assert (now.closed, now.can_start, now.members[1].colour, now.game_id) == (
        True, False, "green", host.started.game_id)
    assert now.code == LobbySnapshot.of(guest).code == table_code(host.started.game_id, keys)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hosted.closed = True  # type: ignore[misc]


def test_a_lobby_snapshot_says_the_host_we_joined_is_silent_until_it_is_back() -> None:
    host, guest = silent_guest()
    before = LobbySnapshot.of(guest)
    assert before.silent == SILENT.format(fp=fingerprint(host.identity.public_key))
    exchange(host, guest)  # the host answers the new HELLO
    assert LobbySnapshot.of(guest).silent is None and before.silent is not None
