"""Resigning is a signed entry: the resigner's own consent hands its seat to a bot, with no
vote, at the first step the game waits for it; whatever order the entries arrive in, every
peer reaches the same game, and the audit shows it."""

from __future__ import annotations

import pytest

from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.contents import End
from p2p_burgundy.net.errors import LocalProtocolError
from p2p_burgundy.net.events import GameOver, HandedOver, TurnApplied
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.session import Session

from .harness import canonical, forge_chain


def resign(table: Table, seat: int) -> None:
    table.sessions[seat].resign()
    table.flush(seat)
    table.pump()


def test_a_resignation_hands_the_seat_over_without_a_vote_and_the_game_ends_for_all() -> None:
    table = Table(3, seed=21)
    table.play(turns=7)
    resign(table, 1)
    assert table.sessions[1].resigned == {1: len(table.sessions[1].chains[1]) - 1}
    with pytest.raises(LocalProtocolError, match="already played by a bot"):
        table.sessions[1].resign()
    with pytest.raises(LocalProtocolError, match="we resigned"):
        table.sessions[1].agree_seat_to_bot(0)
    table.play()
    assert len(set(table.final_hashes())) == 1
    for i, session in enumerate(table.sessions):
        assert session.state.is_over and set(session.forfeits) == {1}
        handed = table.of_type(i, HandedOver)
        assert [(h.seats, h.resigned) for h in handed] == [((1,), (1,))]
    # The resigner signed nothing for the game after its RESIGN, nobody agreed to anything
    # (its consent is enough), and nobody signed a turn for its seat: the stand-in played it.
    mine = table.entries_of(1)
    after = mine[[e.kind for e in mine].index(Kind.RESIGN) + 1:]
    assert after == []
    assert not [e for s in (0, 2) for e in table.entries_of(s) if e.kind == Kind.SEAT_TO_BOT]
    step = table.sessions[0].forfeits[1]
    assert all(h.seat is None for h in table.sessions[0].history[step:]
               if isinstance(h, TurnApplied) and h.mover == 1)
    report = audit(canonical(table))
    assert report.ok, [str(v) for v in report.void]


def test_a_resigned_seat_has_no_say_in_handing_over_a_silent_one() -> None:
    table = Table(3, seed=22)
    table.play(turns=5)
    resign(table, 2)
    table.play(turns=4)
    table.leave(1)
    table.hand_over(1)  # seat 0 alone: seat 2 resigned
    table.play()
    live = table.sessions[0]
    assert live.state.is_over and set(live.forfeits) == {1, 2}
    assert audit(canonical(table)).ok


def test_what_a_resigner_signs_after_resigning_is_void_and_fails_the_file() -> None:
    table = Table(2, seed=23)
    table.play(turns=4)
    resign(table, 1)
    table.play()
    chain = table.sessions[0].chains[1]
    entries = forge_chain(table, 1, len(chain), Kind.TURN, [table.sessions[0].turn_number - 1,
                                                             [[10]]])
    watcher = Session(table.start)
    for raw in entries[1:]:
        watcher.receive_entry(raw)
    assert watcher.rejected[(1, len(chain))].reason == (
        f"Bob: Bob resigned (seq {len(chain) - 1}): nothing it signs after that counts but chat")
    void = audit(entries).void
    assert [(v.seat, v.seq, v.fails) for v in void] == [(1, len(chain), True)]


def test_a_resignation_with_a_payload_is_void() -> None:
    table = Table(2, seed=24)
    table.play(turns=3)
    bob = table.sessions[1]
    chain = bob.chains[1]
    bob.receive_entry(sign_entry(table.ids[1], table.game_id, len(chain), chain[-1].id,
                                 Kind.RESIGN, [1]).raw)
    table.flush(1)
    table.pump()
    assert table.sessions[0].resigned == {}
    assert table.sessions[0].rejected[(1, len(table.sessions[0].chains[1]) - 1)].reason == (
        "Bob: a resignation is [] (an empty payload)")


def bob_resigned(seed: int) -> Table:
    """A 2-player game where Bob resigned and a bot took his seat: Ann is the last left."""
    table = Table(2, seed=seed)
    table.play(turns=6)
    resign(table, 1)
    table.play(turns=1)
    return table


def test_two_players_one_resigns_the_other_plays_on_against_the_bot() -> None:
    table = bob_resigned(26)
    ann = table.sessions[0]
    assert 1 in ann.forfeits and ann.may_end and ann.sole_contributor is not None
    table.play()  # the stand-in plays Bob's seat to the end
    assert all(s.state.is_over and s.ended is None for s in table.sessions)
    assert len(set(table.final_hashes())) == 1
    report = audit(canonical(table))
    assert report.ok and report.outcome is not None
    assert report.outcome.decided_by != "the last player left ended the game"


def test_two_players_one_resigns_the_other_ends_the_game_as_the_winner() -> None:
    table = bob_resigned(27)
    ann = table.sessions[0]
    with pytest.raises(LocalProtocolError, match="only the last player left"):
        table.sessions[1].end()
    step = ann.step
    ann.end()
    table.flush(0)
    table.pump()
    for i, session in enumerate(table.sessions):
        assert session.over and not session.state.is_over and session.ended == (0, step)
        assert session.waiting_for() is None and not session.my_turn
        assert session.outcome().winner == 0
        assert session.outcome().decided_by == "the last player left ended the game"
        assert len(table.of_type(i, GameOver)) == 1
    with pytest.raises(LocalProtocolError, match="only the last player left"):
        ann.end()
    table.play()  # nothing left to play: returns at once
    report = audit(canonical(table))
    assert report.ok and report.complete and report.outcome is not None
    assert report.outcome.winner == 0 and [r.seat for r in report.resignations] == [1]


def test_an_end_while_others_still_play_is_a_resignation() -> None:
    table = Table(3, seed=28)
    table.play(turns=5)
    assert not table.sessions[2].may_end
    table.sessions[2]._author(End())  # as a modified client would
    table.flush(2)
    table.play()
    for session in table.sessions[:2]:
        assert session.state.is_over and session.ended is None and set(session.forfeits) == {2}
    assert audit(canonical(table, 0)).complete
