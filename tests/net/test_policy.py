"""The table policy, sans-I/O: a seat the game waits for is gone after ``after`` seconds of
silence, never our own or one that spoke again, and we agree once per seat and step."""

from __future__ import annotations

from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.policy import HandOverPolicy
from p2p_burgundy.net.session import Session


def waiting_session() -> tuple[Session, int, int]:
    """A session of a 3-player game, the seat it waits for (not its own) and another seat."""
    table = Table(3, seed=4)
    table.play(turns=4)
    for me, session in enumerate(table.sessions):
        waiting = session.waiting_for()
        assert waiting is not None
        others = [s for s in waiting.seats if s != me]
        if others:
            idle = next(s for s in range(3) if s not in waiting.seats and s != me)
            return session, others[0], idle
    raise AssertionError("no session waits for another seat")


def test_a_seat_the_game_waits_for_is_gone_once_silent_for_the_whole_delay() -> None:
    session, blocking, idle = waiting_session()
    policy = HandOverPolicy(after=10.0)
    assert policy.observe(session, [blocking, idle, session.my_seat], now=100.0)
    assert policy.silent == {blocking}  # not the seat the game does not wait for, nor ours
    assert policy.gone(session.step, now=109.9) == []
    assert policy.gone(session.step, now=110.0) == [blocking]
    assert not policy.observe(session, [blocking], now=110.5)  # nothing new to show


def test_a_seat_that_speaks_again_starts_its_count_afresh() -> None:
    session, blocking, _ = waiting_session()
    policy = HandOverPolicy(after=10.0)
    policy.observe(session, [blocking], now=0.0)
    assert policy.observe(session, [], now=8.0) and policy.silent == set()
    policy.observe(session, [blocking], now=9.0)
    assert policy.gone(session.step, now=18.9) == []
    assert policy.gone(session.step, now=19.0) == [blocking]


def test_we_agree_once_per_step_and_then_wait_the_whole_delay_again() -> None:
    session, blocking, _ = waiting_session()
    policy = HandOverPolicy(after=10.0)
    policy.observe(session, [blocking], now=0.0)
    policy.agreed(blocking, session.step)
    assert policy.gone(session.step, now=50.0) == []
    policy.observe(session, [blocking], now=50.0)
    assert policy.gone(session.step, now=70.0) == []  # agreed at this step already
    assert policy.gone(session.step + 1, now=59.9) == []
    assert policy.gone(session.step + 1, now=60.0) == [blocking]  # the game moved on
