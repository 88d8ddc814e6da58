"""The table's game clock (net/clock.py) and its rule for a player out of time in the
hand-over policy (net/policy.py): pure, every time passed in."""

from __future__ import annotations

from dataclasses import dataclass, field

from p2p_burgundy.net.clock import GameClock, TimeControl, clock_text
from p2p_burgundy.net.events import Waiting
from p2p_burgundy.net.policy import HandOverPolicy


def test_a_seat_s_clock_runs_only_while_the_game_waits_for_its_decision() -> None:
    clock = GameClock(TimeControl(100, 0), players=3)
    clock.observe(Waiting("reveal", 0, (0, 1, 2)), now=0.0)  # the dice: nobody's decision
    clock.observe(Waiting("turn", 0, (1,)), now=50.0)
    clock.observe(Waiting("hand-over", 3, (0, 2)), now=80.0)  # votes: nobody's decision
    clock.observe(Waiting("turn", 1, (2,)), now=500.0)
    assert [clock.left(seat, now=510.0) for seat in range(3)] == [100.0, 70.0, 90.0]
    assert clock.running == (2,)
    clock.observe(None, now=520.0)  # the game is over: every clock stops
    assert clock.running == () and clock.left(2, now=9999.0) == 80.0


def test_each_turn_ended_earns_the_increment_and_the_time_shown_rounds_up() -> None:
    clock = GameClock(TimeControl(60, 5), players=2)
    for turn, start in enumerate((0.0, 10.0, 20.0)):
        clock.observe(Waiting("turn", turn, (0,)), now=start)
        clock.observe(Waiting("reveal", turn, (0, 1)), now=start + 7.5)
    assert clock.left(0, now=100.0) == 60 - 3 * 7.5 + 3 * 5
    assert [clock_text(clock.left(0, now=100.0)), clock_text(0.2), clock_text(3599.5)] == \
        ["0:53", "0:01", "60:00"]


def test_in_the_secret_set_up_every_clock_runs_until_that_player_commits() -> None:
    clock = GameClock(TimeControl(60, 10), players=3)
    clock.observe(Waiting("choice", 0, (0, 1, 2)), now=0.0)
    clock.observe(Waiting("choice", 0, (0, 2)), now=20.0)  # seat 1 committed
    clock.observe(Waiting("choice reveal", 0, (0, 1, 2)), now=30.0)
    assert [clock.left(seat, now=40.0) for seat in range(3)] == [40.0, 50.0, 40.0]


def test_out_of_time_is_for_good_and_no_increment_brings_a_seat_back() -> None:
    clock = GameClock(TimeControl(30, 20), players=2)
    clock.observe(Waiting("turn", 0, (1,)), now=0.0)
    assert clock.out(now=29.9) == [] and clock.out(now=30.0) == [1]
    clock.observe(Waiting("reveal", 1, (0, 1)), now=35.0)  # it played at last
    clock.observe(Waiting("turn", 2, (1,)), now=36.0)
    assert clock.out(now=36.0) == [1] and clock.left(1, now=36.0) == 0.0


@dataclass
class FakeSession:
    """What the policy reads of a session."""

    waiting: Waiting | None
    my_seat: int | None = 0
    forfeits: dict[int, int] = field(default_factory=dict)
    set_aside: set[int] = field(default_factory=set)

    def waiting_for(self) -> Waiting | None:
        return self.waiting


def test_a_seat_out_of_time_is_gone_at_once_at_each_step_that_waits_for_its_decision() -> None:
    policy = HandOverPolicy(after=600.0, clock=GameClock(TimeControl(10), players=3))
    session = FakeSession(Waiting("turn", 4, (2,)))
    assert not policy.observe(session, missing=[], now=0.0)
    assert policy.gone(step=9, now=9.0) == []
    assert policy.observe(session, missing=[], now=10.0)  # heard from all along: still out
    assert policy.gone(step=9, now=10.0) == [2] and policy.out_of_time == [2]
    policy.agreed(2, 9)
    assert policy.gone(step=9, now=11.0) == []  # once per step
    session.waiting = Waiting("reveal", 3, (0, 1, 2))  # a reveal is no decision
    policy.observe(session, missing=[], now=12.0)
    assert policy.gone(step=10, now=12.0) == []
    session.waiting = Waiting("turn", 5, (2,))
    policy.observe(session, missing=[], now=13.0)
    assert policy.gone(step=11, now=13.0) == [2]


def test_our_own_seat_and_a_seat_handed_over_are_never_gone() -> None:
    policy = HandOverPolicy(after=600.0, clock=GameClock(TimeControl(1), players=3))
    session = FakeSession(Waiting("choice", 0, (0, 1, 2)), forfeits={1: 0})
    policy.observe(session, missing=[], now=0.0)
    policy.observe(session, missing=[], now=5.0)
    assert policy.out_of_time == [0, 1, 2] and policy.gone(step=0, now=5.0) == [2]


def test_without_a_clock_only_silence_makes_a_seat_gone() -> None:
    policy = HandOverPolicy(after=600.0)
    session = FakeSession(Waiting("turn", 4, (2,)))
    policy.observe(session, missing=[], now=0.0)
    policy.observe(session, missing=[], now=10_000.0)
    assert policy.gone(step=9, now=10_000.0) == [] and policy.out_of_time == []


def test_a_clock_kept_goes_on_where_it_stopped() -> None:
    clock = GameClock(TimeControl(60, 5), players=3)
    clock.observe(Waiting("turn", 0, (1,)), now=0.0)
    clock.observe(Waiting("turn", 1, (2,)), now=20.0)
    clock.observe(Waiting("turn", 2, (2,)), now=90.0)  # seat 2 ran out, its turn goes on
    assert clock.kept == ((0.0, 15.0, 70.0), (2,))
    again = GameClock(TimeControl(60, 5), 3, *clock.kept)
    assert [again.left(seat, now=0.0) for seat in range(3)] == [60.0, 45.0, 0.0]
    assert again.out(now=0.0) == [2]
    assert GameClock(TimeControl(60), 3, used=(1.0,), out=(7,)).kept == ((0.0,) * 3, ())


def test_a_seat_handed_over_earns_no_increment() -> None:
    clock = GameClock(TimeControl(60, 5), players=2)
    clock.observe(Waiting("turn", 7, (1,)), now=0.0)
    clock.observe(Waiting("reveal", 3, (0,)), now=59.0, handed={1: 7})
    assert clock.left(1, now=100.0) == 1.0


def test_two_turns_of_one_seat_in_a_row_earn_two_increments() -> None:
    clock = GameClock(TimeControl(60, 5), players=2)
    clock.observe(Waiting("turn", 7, (1,)), now=0.0)
    clock.observe(Waiting("turn", 8, (1,)), now=10.0)
    clock.observe(Waiting("reveal", 3, (0, 1)), now=20.0)
    assert clock.left(1, now=30.0) == 60 - 20 + 2 * 5
