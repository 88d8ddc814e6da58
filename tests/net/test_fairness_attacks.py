"""Fair dice that hold against a player, not only against the network (DESIGN.md, properties
11, 12 and 14).

Each attack uses nothing but documented entries signed with the attacker's own key, as a
modified client would send them. Each must end as a void entry or a refusal, with the dice
unchanged; and whatever order the honest and hostile entries arrive in, every peer reaches
the same game.
"""

from __future__ import annotations

import contextlib
import random
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_burgundy import END_TURN
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.contents import Reveal, SeatToBot, Turn
from p2p_burgundy.net.errors import LocalProtocolError, ProtocolError
from p2p_burgundy.net.events import (
    ChanceResolved,
    HandedOver,
    Resolved,
    TurnApplied,
    follow,
)
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import Kind
from p2p_burgundy.net.session import Session

from .harness import canonical
from .test_lobby import started

Step = ChanceResolved | TurnApplied


def sign_agreement(table: Table, author: int, seat: int, step: int) -> None:
    """``author`` signs SEAT_TO_BOT [seat, step] whatever its game says, and sends it."""
    table.sessions[author]._author(SeatToBot(seat, step))
    table.flush(author)
    table.pump()


def last_round_dice(session: Session) -> tuple[int, ChanceResolved]:
    """The step and the event of the latest chance event resolved (from every reveal)."""
    step = max(i for i, h in enumerate(session.history) if isinstance(h, ChanceResolved))
    event = session.history[step]
    assert isinstance(event, ChanceResolved)
    return step, event


def feed(session: Session, entries: list[bytes], rng: random.Random) -> Session:
    """Deliver ``entries`` to ``session`` in a shuffled order; an entry too far ahead of its
    author's chain is dropped and comes again in a later round, as anti-entropy does."""
    pending = list(entries)
    while pending:
        rng.shuffle(pending)
        dropped = []
        for raw in pending:
            try:
                session.receive_entry(raw)
            except ProtocolError:
                dropped.append(raw)
        assert len(dropped) < len(pending), "no progress"
        pending = dropped
    return session


def spectator(table: Table, entries: list[bytes], seed: int) -> Session:
    """A spectator given ``entries`` in an order drawn from ``seed``, then told that no more
    will come (as an audit of the whole file)."""
    watcher = feed(Session(table.start), [e for e in entries if e != table.start.raw],
                   random.Random(seed))
    watcher.settle()
    return watcher


# --- 1. A hand-over cannot re-draw resolved dice ---


def test_a_hand_over_naming_resolved_dice_is_void_and_the_dice_stand() -> None:
    table = Table(2, seed=6)
    table.play(turns=9)
    step, dice = last_round_dice(table.sessions[0])
    before = [list(s.history) for s in table.sessions]
    # Seat 0 "agrees" that seat 1 is gone as of the event both already revealed for, and,
    # rewriting history, as of the very start.
    for named in (step, 0):
        sign_agreement(table, 0, 1, named)
    for session, history in zip(table.sessions, before, strict=True):
        assert session.forfeits == {}
        assert session.history == history  # nothing recomputed, the dice stand
        assert session.history[step] == dice
    table.play()
    assert len(set(table.final_hashes())) == 1
    assert table.sessions[0].history[step] == dice
    assert not table.of_type(0, HandedOver)
    # Seat 1 kept playing its own turns to the end.
    assert any(isinstance(h, TurnApplied) and h.seat == 1
               for h in table.sessions[0].history[step:])
    # Both agreements end as void entries, named in the audit.
    report = audit(canonical(table))
    assert report.ok
    assert sorted(v.reason for v in report.void) == [
        f"signed after its author went past step {named} (an agreement counts only while the "
        "game waits there)" for named in sorted((step, 0))]


def test_the_void_hand_over_holds_whatever_the_spectator_received_first() -> None:
    """A spectator that gets the attacker's whole chain before the victim's reveal for the
    event waits: the agreement, signed after the attacker went past that event, hands
    nobody over. The victim's own reveal then resolves the event, with the dice every player
    saw, and no step it showed ever changes."""
    table = Table(2, seed=6)
    table.play(turns=9)
    step, dice = last_round_dice(table.sessions[0])
    sign_agreement(table, 0, 1, step)
    table.play()
    entries = canonical(table)
    victims = [e for e in table.sessions[0].chains[1]]
    reveal = next(e for e in victims if e.kind == Kind.REVEAL and e.payload[0] == dice.index)
    watcher = Session(table.start)
    for raw in entries[1:]:  # everything but the victim's reveal for that event and after
        entry = next(e for chain in table.sessions[0].chains for e in chain
                     if e.raw == raw)
        if not (entry.author == reveal.author and entry.seq >= reveal.seq):
            with contextlib.suppress(ProtocolError):
                watcher.receive_entry(raw)
    assert watcher.forfeits == {} and watcher.step == step  # it waits, resolving nothing
    shown = list(watcher.history)
    for entry in victims[reveal.seq:]:
        watcher.receive_entry(entry.raw)
    assert watcher.forfeits == {} and watcher.history[step] == dice
    assert watcher.history == table.sessions[0].history
    assert watcher.history[:step] == shown
    # Whoever follows the events holds that history, each step once.
    events = list(iter(watcher.next_event, None))
    followed: list[Resolved] = []
    for event in [*events, *events]:
        follow(followed, event)
    assert followed == watcher.history
    with pytest.raises(LocalProtocolError, match="missed"):
        follow([], watcher.history[1])


# --- 2. A host cannot bring an old game back ---


def test_rehosting_the_same_players_with_an_old_table_id_gives_other_commitments() -> None:
    old = started(table_id=b"t" * 16)
    again = started(table_id=b"t" * 16, guest_contribution=b"x" * 16)  # the joiner is fresh
    assert again.game_id != old.game_id
    assert {s.commitment for s in again.seats}.isdisjoint({s.commitment for s in old.seats})


# --- 3. An agreement cannot freeze a game ---


def test_an_agreement_naming_a_point_beyond_the_game_freezes_nothing() -> None:
    table = Table(2, seed=8)
    table.play(turns=5)
    sign_agreement(table, 0, 1, 10_000)
    named = table.sessions[0].step + 3
    sign_agreement(table, 1, 0, named)  # a step it will not wait at
    table.play()  # raises if any peer gets stuck
    assert all(s.state.is_over and s.forfeits == {} for s in table.sessions)
    assert len(set(table.final_hashes())) == 1
    report = audit(canonical(table))
    assert report.complete and not report.ok  # the attacker's entry fails the file
    assert [(v.seat, v.reason, v.fails) for v in report.void] == [
        (0, f"names step 10000, but the game ended after step {len(report.steps) - 1}", True),
        (1, f"signed before its author reached step {named} (an agreement cannot be signed "
         "ahead)", False)]


def test_agreements_signed_ahead_never_take_a_seat_whose_turn_comes_later() -> None:
    """An ambush: seat 0 signs, now, agreements to hand seat 1 over at steps rounds ahead, so
    that they would act the moment the game waits there for seat 1 (even while it thinks)."""
    table = Table(2, seed=9)
    table.play(turns=4)
    now = table.sessions[0].step
    ahead = range(now + 12, now + 30)
    for named in ahead:
        sign_agreement(table, 0, 1, named)
    table.play()
    assert all(s.forfeits == {} for s in table.sessions)
    assert len(set(table.final_hashes())) == 1
    report = audit(canonical(table))
    assert report.ok
    assert {v.reason for v in report.void} == {
        f"signed before its author reached step {named} (an agreement cannot be signed ahead)"
        for named in ahead}


def test_an_agreement_signed_ahead_within_the_round_never_takes_the_next_turn() -> None:
    """Two players: Ann, about to play, signs now an agreement naming the step of Bob's next
    turn, so that it would act the moment his turn starts. Bob's own turn counts (his client
    lets him play it), on every peer; the agreement is void, and the file verifies."""
    table = Table(2, seed=9)
    table.play(turns=4)
    table.paused = True
    table.pump()
    ann, bob = table.sessions
    while not (ann.my_turn and ann.state.chance is None):
        table.paused = False
        table.play(turns=1)
        table.paused = True
        table.pump()
    named = ann.step + 1  # Bob's turn comes right after Ann's
    sign_agreement(table, 0, 1, named)
    ann.submit_turn(random_turn(ann.state, random.Random(0)))
    table.flush(0)
    table.pump()
    assert bob.state.to_move == 1 and bob.step == named and bob.my_turn
    bob.submit_turn(random_turn(bob.state, random.Random(1)))
    table.flush(1)
    table.pump()
    for session in table.sessions:
        played = session.history[named]
        assert isinstance(played, TurnApplied) and played.seat == 1 and session.forfeits == {}
    table.paused = False
    table.play()
    report = audit(canonical(table))
    assert report.ok
    assert [v.reason for v in report.void if v.kind == "seat_to_bot"] == [
        f"signed before its author reached step {named} (an agreement cannot be signed ahead)"]


# --- 4. Conflicting agreements cannot split the game ---


@cache
def hostile_game() -> tuple[Table, list[bytes]]:
    """A 2-player game where seat 1 leaves and is handed over, laced with hostile agreements:
    resolved steps, the start, a step far beyond the end, the same step twice, a changed
    step, and the victim's own agreement against the attacker."""
    table = Table(2, seed=11)
    table.play(turns=8)
    step, _ = last_round_dice(table.sessions[0])
    now = table.sessions[0].step
    for author, seat, named in ((0, 1, step), (0, 1, 0), (0, 1, 10_000), (0, 1, now + 2),
                                (0, 1, now + 2), (1, 0, 3), (0, 1, now + 5)):
        sign_agreement(table, author, seat, named)
    table.play(turns=6)
    table.leave(1)
    table.hand_over(1)
    sign_agreement(table, 0, 1, table.sessions[0].step)  # again, at the same step
    table.play()
    assert table.sessions[0].state.is_over and 1 in table.sessions[0].forfeits
    return table, canonical(table)


def test_conflicting_agreements_give_one_game_in_two_opposite_orders() -> None:
    table, _ = hostile_game()
    reference = table.sessions[0]
    chains = [[e.raw for e in chain] for chain in reference.chains]
    for order in (chains[0] + chains[1], chains[1] + chains[0]):
        watcher = Session(table.start)
        for raw in order:
            if raw != table.start.raw:
                watcher.receive_entry(raw)
        watcher.settle()
        assert watcher.history == reference.history
        assert watcher.forfeits == reference.forfeits


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2**32), min_size=3, max_size=3))
def test_every_delivery_order_of_honest_and_hostile_entries_gives_the_same_game(
    seeds: list[int],
) -> None:
    table, entries = hostile_game()
    reference = table.sessions[0]
    for seed in seeds:  # three peers, each with its own order
        watcher = spectator(table, entries, seed)
        assert watcher.history == reference.history
        assert watcher.forfeits == reference.forfeits
        assert watcher.state.is_over
        # Every step the watcher reported is the final one, whatever came later.
        for event in iter(watcher.next_event, None):
            if isinstance(event, ChanceResolved | TurnApplied):
                assert reference.history[event.step] == event


@cache
def resigning_game() -> tuple[Table, list[bytes]]:
    """A 3-player game where seat 0 resigns (the stand-in plays it), then
    another player; the first resigner also signs a turn after resigning, as a modified
    client would."""
    table = Table(3, seed=25)
    table.play(turns=6)
    for seat in (0, 2):
        table.sessions[seat].resign()
        table.flush(seat)
        table.pump()
        if seat == 0:
            table.sessions[0]._author(Turn(table.sessions[0].turn_number, (END_TURN,)))
            table.flush(0)
        table.play(turns=5)
    table.play()
    assert set(table.sessions[1].forfeits) == {0, 2}
    return table, canonical(table, 1)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2**32), min_size=2, max_size=2))
def test_every_delivery_order_of_a_game_with_resignations_gives_the_same_game(
    seeds: list[int],
) -> None:
    table, entries = resigning_game()
    reference = table.sessions[1]
    for seed in seeds:
        watcher = spectator(table, entries, seed)
        assert watcher.history == reference.history
        assert watcher.forfeits == reference.forfeits and watcher.resigned == reference.resigned
        assert watcher.state.is_over
        assert sorted(watcher.rejected) == sorted(reference.rejected)
        # A resignation never re-draws: dice resolved from every reveal stand.
        final = {h.index: h for h in reference.history if isinstance(h, ChanceResolved)}
        for event in iter(watcher.next_event, None):
            if isinstance(event, ChanceResolved):
                assert final[event.index] == event


@cache
def ended_game() -> tuple[Table, list[bytes]]:
    """A 2-player game where Bob resigns and Ann, the only player left, ends it; Bob also
    signs a turn after resigning and Ann a reveal after ending, as modified clients would."""
    table = Table(2, seed=29)
    table.play(turns=6)
    table.sessions[1].resign()
    table.sessions[1]._author(Turn(table.sessions[1].turn_number, (END_TURN,)))
    table.flush(1)
    table.pump()
    table.play(turns=2)
    ann = table.sessions[0]
    ann.end()
    ann._author(Reveal(99, bytes(32)))
    table.flush(0)
    table.pump()
    assert all(s.ended == ann.ended for s in table.sessions) and ann.ended is not None
    return table, canonical(table)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2**32), min_size=2, max_size=2))
def test_every_delivery_order_of_a_game_ended_by_the_last_player_gives_the_same_end(
    seeds: list[int],
) -> None:
    table, entries = ended_game()
    reference = table.sessions[0]
    for seed in seeds:
        watcher = spectator(table, entries, seed)
        assert watcher.ended == reference.ended and watcher.over
        assert watcher.history == reference.history
        assert sorted(watcher.rejected) == sorted(reference.rejected)
        assert watcher.outcome() == reference.outcome()
