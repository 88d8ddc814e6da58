"""Resolved is final (DESIGN.md, property 11): a seat that withholds its turn or its reveal
and is handed over cannot undo the hand-over by sending its entry later, however late.

Seat 2 of a 3-player game keeps the entry back (and everything it signs after it), the others
hand it over where the game waits for it and play on; then, 1, 12 or 40 turns later or after
the end, everything seat 2 signed arrives. No honest peer changes a step it resolved, the
late entries are void with the verdict "passes", and every honest file verifies.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_burgundy import draw_chance
from p2p_burgundy.net import wire
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.beacon import event_entropy
from p2p_burgundy.net.contents import Reveal, Turn
from p2p_burgundy.net.events import (
    ChanceResolved,
    EntryRejected,
    Overruled,
    Rejection,
    Resolved,
    TurnApplied,
    Waiting,
    follow,
)
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import decode_entry
from p2p_burgundy.net.messages import Tag
from p2p_burgundy.net.report import Withheld

from .harness import canonical
from .test_fairness_attacks import spectator

WITHHOLDER = 2
LATER = [1, 12, 40, None]  # turns the others play before the late entries arrive; None: the end


def withhold(table: Table, kind: type[Reveal | Turn], index: int) -> None:
    """From its first ``kind`` entry for ``index`` (a chance event or a turn number) on,
    nothing the withholder signs reaches anyone (the chain cannot link without it)."""
    mine = table.sessions[WITHHOLDER]

    def cut() -> int | None:
        for seq, content in enumerate(mine.contents[WITHHOLDER]):
            if isinstance(content, kind) and (
                    content.event if isinstance(content, Reveal) else content.number) >= index:
                return seq
        return None

    def drop(source: int, destination: int, data: bytes) -> bytes | None:
        tag, fields = wire.decode_message(data)
        if tag == Tag.ENTRY:
            entry = decode_entry(fields[0])  # type: ignore[arg-type]
            first = cut()
            if (entry.author == table.ids[WITHHOLDER].public_key and first is not None
                    and entry.seq >= first):
                return None
        return data

    table.filter = drop


def handed_over_while_withholding(kind: type[Reveal | Turn], seed: int) -> tuple[Table, int]:
    """A game in which the withholder keeps back its next ``kind`` entry: the others wait
    for it, then hand it over there. The table, and the step of the hand-over."""
    table = Table(3, seed=seed)
    table.play(turns=7)
    honest = table.sessions[0]
    if kind is Reveal:
        withhold(table, Reveal, honest.state.chance_index)
    else:
        while honest.state.to_move != WITHHOLDER or honest.state.chance is not None:
            table.play(turns=1)
        withhold(table, Turn, honest.turn_number)
    for _ in range(40):
        table.bot_turns()
        table.tick()
        waiting = honest.waiting_for()
        if waiting is not None and WITHHOLDER in waiting.seats and (
                waiting.what == ("reveal" if kind is Reveal else "turn")):
            break
    else:
        raise AssertionError("the game never waited for the withheld entry")
    table.offline.add(WITHHOLDER)  # it listens no more, and the others play on without it
    step = honest.step
    table.hand_over(WITHHOLDER)
    assert honest.forfeits == {WITHHOLDER: step}
    return table, step


@cache
def rewound(kind: type[Reveal | Turn], later: int | None
            ) -> tuple[Table, int, list[list[Resolved]]]:
    """The game after the late entries arrived, the step of the hand-over, and what each
    honest peer had resolved before they came."""
    table, step = handed_over_while_withholding(kind, seed=3)
    if later is None:
        table.play()
    else:
        table.play(turns=later)
    before = [list(table.sessions[i].history) for i in (0, 1)]
    seen = [len(table.events[i]) for i in (0, 1)]
    table.filter = None
    table.offline.clear()
    for _ in range(6):
        table.tick()
    late = [e for i in (0, 1) for e in table.events[i][seen[i]:]]
    for event in late:  # nothing resolved before is reported again
        if isinstance(event, ChanceResolved | TurnApplied):
            assert event.step >= min(len(b) for b in before)
    table.offline.add(WITHHOLDER)
    table.play()
    return table, step, before


@pytest.mark.parametrize("later", LATER, ids=["1", "12", "40", "end"])
@pytest.mark.parametrize("kind", [Turn, Reveal], ids=["turn", "reveal"])
def test_a_late_entry_of_a_seat_handed_over_changes_nothing_resolved(
        kind: type[Reveal | Turn], later: int | None) -> None:
    table, step, before = rewound(kind, later)
    withheld = table.sessions[WITHHOLDER].chains[WITHHOLDER]
    for i in (0, 1):
        session = table.sessions[i]
        assert session.history[:len(before[i])] == before[i]  # not one step changed
        assert session.forfeits == {WITHHOLDER: step} and session.over
        followed: list[Resolved] = []
        for event in table.events[i]:
            follow(followed, event)  # raises if a step were reported twice, differently
        assert followed == session.history
        # Everything the withholder signed from its withheld entry on is void, and passes.
        late = [(s, q) for (s, q) in session.rejected if s == WITHHOLDER]
        assert late
        for key in late:
            rejected = session.rejected[key]
            assert rejected.cause is Rejection.HANDED_OVER and not rejected.cause.defect
            assert f"handed to the stand-in at step {step}" in rejected.reason
        assert len(session.chains[WITHHOLDER]) == len(withheld)
    first = min(q for (s, q) in table.sessions[0].rejected if s == WITHHOLDER)
    content = table.sessions[0].contents[WITHHOLDER][first]
    assert isinstance(content, kind)  # the withheld entry itself
    assert len(set(table.final_hashes()[:2])) == 1
    # Every honest file verifies, and lists the late entries as void, passing.
    for i in (0, 1):
        report = audit(table.files[i])
        assert report.ok, [str(p) for p in report.problems]
        void = {(v.seat, v.seq): v for v in report.void if v.seat == WITHHOLDER}
        assert (WITHHOLDER, first) in void and not any(v.fails for v in void.values())
    # The withholder's own peer had resolved that step with its own entry: it learns that the
    # hand-over came first, stops there, and never recomputes anything.
    mine = table.sessions[WITHHOLDER]
    assert mine.overruled == step and mine.handed_over
    assert table.of_type(WITHHOLDER, Overruled) == [Overruled(WITHHOLDER, step)]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_every_arrival_order_of_a_game_with_a_late_entry_gives_the_same_game(seed: int) -> None:
    table, step, _ = rewound(Reveal, 12)
    reference = table.sessions[0]
    watcher = spectator(table, canonical(table), seed)
    assert watcher.history == reference.history
    assert watcher.forfeits == reference.forfeits == {WITHHOLDER: step}
    assert sorted(watcher.rejected) == sorted(reference.rejected)


def test_a_withheld_reveal_is_never_drawn_again() -> None:
    """The event the withholder held back its reveal for was drawn from the others' reveals
    alone, once, and stays so after its reveal arrives."""
    table, step, before = rewound(Reveal, 1)
    event = table.sessions[0].history[step]
    assert isinstance(event, ChanceResolved) and event.seats == (0, 1)
    assert before[0][step] == event
    assert [e.index for e in table.sessions[0].history
            if isinstance(e, ChanceResolved)] == list(range(31))
    assert all(not isinstance(e, EntryRejected) or e.seat == WITHHOLDER
               for e in table.events[0])


@pytest.mark.parametrize("later", [12, None], ids=["12", "end"])
def test_the_audit_names_the_withheld_reveal_and_what_it_would_have_drawn(
        later: int | None) -> None:
    table, step, _ = rewound(Reveal, later)
    honest = table.sessions[0]
    event = honest.history[step]
    assert isinstance(event, ChanceResolved)
    late = next(c for c in table.sessions[WITHHOLDER].contents[WITHHOLDER]
                if isinstance(c, Reveal) and c.event == event.index)
    entropy = event_entropy(table.game_id, event.index, [*event.reveals, late.link])
    before = honest.history[step - 1].state
    report = audit(table.files[0])
    assert report.withheld == (
        Withheld(WITHHOLDER, event.index, step, draw_chance(before, entropy)[1]),)
    assert report.withheld[0].would_have != event.drew
    # Before any later reveal of the withholder, it is named, with nothing to show yet.
    without = [raw for raw in table.files[0]
               if decode_entry(raw).author != table.ids[WITHHOLDER].public_key
               or decode_entry(raw).seq < min(q for (s, q) in honest.rejected
                                              if s == WITHHOLDER)]
    assert audit(without).withheld == (Withheld(WITHHOLDER, event.index, step, None),)


def test_a_withheld_turn_is_no_withheld_reveal() -> None:
    table, _, _ = rewound(Turn, 12)
    assert audit(table.files[0]).withheld == ()


def test_two_players_an_opponent_back_from_a_partition_hands_over_a_turn_we_resolved() -> None:
    """The case no function of the set of entries can settle in a 2-player game (docs/
    protocol.md, "What a player can trust"): Ann's turn goes out while Bob is cut off; she
    plays it, hands Bob over at the next step and plays on against the stand-in; Bob, cut
    off, hands Ann over at her turn. When they meet again the earlier hand-over stands: Ann's
    peer changes nothing it resolved and stops there (Overruled), Bob plays on, and both
    files verify with every seat's record holding."""
    table = Table(2, seed=4)
    ann, bob = table.sessions
    table.play(turns=9)
    while not ann.my_turn:
        table.play(turns=1)
    table.offline.add(1)  # Bob is cut off before Ann's turn reaches him
    step = ann.step
    table.bot_turns()
    assert ann.step == step + 1 and ann.waiting_for() is not None
    ann.agree_seat_to_bot(1)
    table.flush(0)
    assert ann.forfeits == {1: step + 1}
    for _ in range(6):
        table.bot_turns()  # Ann plays on against the stand-in
    assert bob.step == step and bob.waiting_for() == Waiting("turn", bob.turn_number, (0,))
    bob.agree_seat_to_bot(0)
    table.flush(1)
    assert bob.forfeits == {0: step}
    before = list(ann.history)
    table.offline.clear()
    for _ in range(4):
        table.tick()
    assert ann.overruled == step and ann.handed_over
    assert ann.history == before  # not one step changed, none recomputed
    assert table.of_type(0, Overruled) == [Overruled(0, step)]
    report = audit(table.files[0])
    assert [v.honest for v in report.verdicts] == [True, True] and report.exit_code == 0
    turn = next(v for v in report.void if v.seat == 0 and v.kind == "turn")
    assert not turn.fails and f"handed to the stand-in at step {step}" in turn.reason
    table.offline.add(0)
    table.play()  # Bob plays the game to its end against the stand-in
    assert bob.over and bob.forfeits == {0: step}
    final = audit(table.files[1])
    assert final.ok and [v.honest for v in final.verdicts] == [True, True]
