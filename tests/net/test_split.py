"""An equivocation on an entry that counts splits the game, and no honest seat's record fails
for it (docs/protocol.md, "What equivocation can still do").

The equivocator shows one body of its next slot (a turn, or its reveal) to one honest peer and
another body (another turn, or a resignation) to the others, then goes silent. Each honest
peer resolves the step from the body it took, so the two sides follow different games; they
play on until anti-entropy shows them both bodies, and their clients stop there. In each
honest peer's game file, a turn the other side signed may be illegal in this side's game;
``burgundy verify`` and the outside verifier judge every seat in the game it followed: the
equivocator alone is named, every other seat's record holds.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

from p2p_burgundy import Action
from p2p_burgundy.net.audit import _Auditor, audit, audit_file
from p2p_burgundy.net.events import Waiting
from p2p_burgundy.net.inmemory import Table, random_turn
from p2p_burgundy.net.log import Entry, Kind, decode_entry, read_records, sign_entry
from p2p_burgundy.net.messages import EntryMessage, Heads, parse
from p2p_burgundy.net.report import Branch, Check

from .harness import shuffled
from .test_outsider import game_file, outsider_says, verify_says


def next_body(table: Table, seat: int, kind: Kind, payload: list[object]) -> Entry:
    """A body for ``seat``'s next slot, as peer 0 holds its chain (signed with its key)."""
    chain = table.sessions[0].chains[seat]
    return sign_entry(table.ids[seat], table.game_id, len(chain), chain[-1].id, kind, payload)


def withhold_reveals(table: Table, seat: int) -> None:
    """From its next reveal on, nothing ``seat`` signs reaches anyone."""
    held = len(table.sessions[seat].chains[seat])

    def drop(source: int, destination: int, data: bytes) -> bytes | None:
        message = parse(data)
        if isinstance(message, EntryMessage):
            entry = decode_entry(message.raw)
            mine = table.sessions[seat].chains[seat]
            cut = next((e.seq for e in mine[held:] if e.kind == Kind.REVEAL), None)
            if entry.author == table.ids[seat].public_key and cut is not None \
                    and entry.seq >= cut:
                return None
        return data

    table.filter = drop


def split(players: int, seed: int, fork: str, *, deep: bool = False, third: bool = False,
          junk: int = 0) -> tuple[Table, int, Entry, Entry]:
    """A game whose last seat, the equivocator, signs two bodies for its next slot: its turn
    (``fork`` "turn": two different turns) or its reveal (``fork`` "reveal": the reveal, and a
    resignation), the first shown to peer 0 alone, the second to every other honest peer (and,
    if ``deep``, a chat line after each, so that the chains part one slot below their heads;
    with ``third``, a third turn goes to peer 2 instead; peer 0 also gets ``junk`` more
    turns for the slot, right after the first). They play four rounds of turns,
    then anti-entropy shows everyone every body. The table, the equivocator, and the first
    two bodies."""
    table = Table(players, seed=seed)
    cheat = players - 1
    honest = table.sessions[0]
    table.play(turns=9)
    if fork == "turn":
        table.paused = True
        table.pump()
        while honest.state.chance is not None or honest.state.to_move != cheat:
            table.paused = False
            table.play(turns=1)
            table.paused = True
            table.pump()
        state, t = table.sessions[cheat].state, honest.turn_number
        turns: list[list[Action]] = []
        for s in range(1, 50):
            if (turn := random_turn(state, random.Random(s))) not in turns:
                turns.append(turn)
        first, second, other, *more = (
            next_body(table, cheat, Kind.TURN, [t, [a.to_tree() for a in turn]])
            for turn in turns[:3 + junk])
        table.offline = {cheat}
    else:
        withhold_reveals(table, cheat)
        for _ in range(100):
            waiting = honest.waiting_for()
            if waiting is not None and (waiting.what, waiting.seats) == ("reveal", (cheat,)):
                break
            table.bot_turns()
            table.tick()
        else:
            raise AssertionError("the game never waited for the withheld reveal")
        table.offline = {cheat}
        table.filter = None
        chance = honest.state.chance
        chain = table.sessions[cheat]._chain
        assert chance is not None and chain is not None
        first = next_body(table, cheat, Kind.REVEAL, [chance.index, chain.reveal(chance.index)])
        second = next_body(table, cheat, Kind.RESIGN, [])
        more: list[Entry] = []
    shows = [(first, [0]), (second, range(1, cheat))]
    if third:
        shows = [(first, [0]), (second, [1]), (other, [2])]
    shows[1:1] = [(body, [0]) for body in more]
    for body, peers in shows:
        shown = [body]
        if deep:
            shown.append(sign_entry(table.ids[cheat], table.game_id, body.seq + 1, body.id,
                                    Kind.CHAT, ["and on"]))
        for peer in peers:
            for entry in shown:
                table.deliver(peer, EntryMessage(entry.raw).encode(), cheat)
    table.pump()
    for _ in range(4):
        table.bot_turns()
        table.pump()
    if third:  # peers 0 and 2 learn of the fork from peer 1 before they hear each other
        table.filter = lambda source, destination, data: (
            None if {source, destination} == {0, 2} and isinstance(parse(data), Heads)
            else data)
        for _ in range(3):
            table.tick()
        assert all(cheat in table.sessions[i].faulty for i in range(cheat))
        table.filter = None
    for _ in range(6):  # anti-entropy: everyone learns both bodies, and the clients stop
        table.tick()
    return table, cheat, first, second


CASES: dict[tuple[int, int, str], list[tuple[tuple[int, ...], ...]]] = {
    # (players, seed, fork): for each honest peer's file, the seats judged in each branch
    # followed (the first takes the body that peer took, first in its file)
    (3, 5, "turn"): [((0,), (1,)), ((0, 1),)],
    (4, 5, "turn"): [((0, 1, 2),), ((1, 2), (0,)), ((1, 2), (0,))],
    (3, 2, "reveal"): [((0,), (1,)), ((0, 1),)],
    (3, 4, "reveal"): [((0, 1),), ((1,), (0,))],
    (4, 3, "reveal"): [((0, 1), (2,)), ((0, 1, 2),), ((0, 1, 2),)],
}


@pytest.mark.parametrize("case", list(CASES), ids=[f"{p}p-{f}-{s}" for p, s, f in CASES])
def test_an_equivocation_that_splits_the_game_fails_no_honest_record(
        case: tuple[int, int, str]) -> None:
    players, _, _ = case
    table, cheat, first, second = split(*case)
    sessions = table.sessions
    # The split is real: peer 0 and the others resolved the forked step otherwise, and
    # follow other games from there.
    step = next(s for s in range(len(sessions[0].history))
                if sessions[0].history[s] != sessions[1].history[s])
    assert all(sessions[i].history[:step] == sessions[0].history[:step]
               for i in range(1, cheat))
    assert all(sessions[i].history[step] == sessions[1].history[step] for i in range(2, cheat))
    for i, judged in enumerate(CASES[case]):
        assert [(p.seat, p.seq) for p in sessions[i].proofs] == [(cheat, first.seq)]
        record = table.files[i].index
        bodies = [first, second] if i == 0 else [second, first]
        report = audit(table.files[i])
        assert [v.honest for v in report.verdicts] == [s != cheat for s in range(players)]
        assert report.exit_code == 1
        assert [(p.check, p.seat) for p in report.problems] == [(Check.EQUIVOCATION, cheat)]
        assert [v.seat for v in report.void if v.fails] == []
        assert report.branches == tuple(
            Branch(((cheat, first.seq, record(body.raw)),), seats)
            for body, seats in zip(bodies, judged, strict=False))
        said = outsider_says(game_file(table.files[i]))
        assert said == verify_says(game_file(table.files[i]))
        assert said[3] == {cheat}


def test_a_fork_found_above_the_slot_where_the_chains_part_is_traced_down_to_it() -> None:
    """Both sides took an entry of the equivocator after its two bodies (a chat line on
    each), so anti-entropy first finds two bodies for the slot after the fork, which cannot
    have changed the game. Each peer asks the other for the entry before the one it got,
    proves the fork where the chains part (two turns, which may have split the game), and
    keeps both bodies there in its file: verify judges each seat as when the equivocator
    stopped at its fork, and the fork is not one the players may play on after."""
    table, cheat, first, second = split(3, 5, "turn", deep=True)
    for i, judged in enumerate(CASES[(3, 5, "turn")]):
        session = table.sessions[i]
        assert [p.seq for p in session.proofs] == [first.seq + 1, first.seq]
        assert session.set_aside == frozenset()
        assert {first.raw, second.raw} <= set(table.files[i])
        report = audit(table.files[i])
        assert [v.honest for v in report.verdicts] == [True, True, False]
        assert [b.judged for b in report.branches] == list(judged)
        assert outsider_says(game_file(table.files[i]))[3] == {cheat}


@pytest.mark.parametrize("junk", [0, 2], ids=["", "junk"])
def test_three_bodies_each_shown_to_one_honest_player_are_all_kept_and_judged(
        junk: int) -> None:
    """At a table of four, Dee shows each honest player another turn; Ann and Cid learn of
    the fork from Bob before they hear each other, so anti-entropy alone would never show them
    each other's body. Each peer asks every other once for its body of the fork slot, so each
    honest file holds all three, and each honest seat is judged in the game of the turn it
    took. Two more turns Dee sends Ann first do not crowd out the others' (``junk``)."""
    table, cheat, first, _ = split(4, 5, "turn", third=True, junk=junk)
    taken = {table.sessions[i].chains[cheat][first.seq].raw for i in range(cheat)}
    assert len(taken) == 3
    for i in range(cheat):
        assert taken <= set(table.files[i])
        report = audit(table.files[i])
        assert [v.honest for v in report.verdicts] == [True, True, True, False]
        assert {(p.check, p.seat) for p in report.problems} == {(Check.EQUIVOCATION, cheat)}
        assert sorted(s for b in report.branches for s in b.judged) == [0, 1, 2]
        said = outsider_says(game_file(table.files[i]))
        assert said == verify_says(game_file(table.files[i])) and said[3] == {cheat}
    assert len({decode_entry(raw).body for raw in table.files[0]
                if decode_entry(raw).author == table.ids[cheat].public_key
                and decode_entry(raw).seq == first.seq}) == 3 + junk


@pytest.mark.parametrize("seed", range(3))
def test_the_verdicts_of_a_split_game_do_not_depend_on_the_order_of_the_file(seed: int) -> None:
    """The records of Ann's file in another order (the two bodies of the fork slot may swap,
    and with them which game the report shows): the same seat alone misbehaved, for verify
    and the outsider."""
    table, *_ = split(3, 5, "turn")
    records = [table.files[0][0], *shuffled(table.files[0][1:], seed)]
    report = audit(records)
    assert [v.honest for v in report.verdicts] == [True, True, False]
    assert sorted(s for b in report.branches for s in b.judged) == [0, 1]
    assert outsider_says(game_file(records)) == verify_says(game_file(records))


def test_the_split_game_vector_of_the_document() -> None:
    """docs/protocol.md, "Judging the other seats": Ann's file of the 3-player game whose
    Cid showed her one turn 10 and Bob another (``split(3, 5, "turn")``, kept as a file)."""
    data = (Path(__file__).parents[1] / "data" / "split.game").read_bytes()
    assert hashlib.sha256(data).hexdigest().startswith("f2357ebbe0049fc7")
    report = audit_file(data)
    assert report.branches == (Branch(((2, 22, 67),), (0,)), Branch(((2, 22, 72),), (1,)))
    assert [v.honest for v in report.verdicts] == [True, True, False]
    assert report.exit_code == 1 and report.waiting == Waiting("turn", 11, (1,))
    first = _Auditor(read_records(data)[0], [], {}).run()  # the first branch alone
    assert [(p.check, p.seat, p.record) for p in first.problems] == [
        (Check.EQUIVOCATION, 2, 72), (Check.ILLEGAL_TURN, 1, 70)]
    assert outsider_says(data) == verify_says(data) and outsider_says(data)[3] == {2}
