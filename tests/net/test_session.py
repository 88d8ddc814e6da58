"""The sans-I/O session: whole games between in-process peers, and every attack we know of.

Properties (DESIGN.md): 1 (commit-reveal: nothing computed early, withheld reveals pause and
never re-draw), 3 (every peer reaches the same state hash after every entry), 4 (forged,
tampered, replayed and malformed messages change nothing; equivocation is proven to every
honest peer), plus crash safety (anti-entropy and the recovering peer: tests/net/test_sync.py).
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from p2p_burgundy import END_TURN, EndTurn, UseDie, state_hash
from p2p_burgundy.net import wire
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.beacon import event_entropy
from p2p_burgundy.net.contents import MAX_TURN_ACTIONS, Reveal, Seen, Turn
from p2p_burgundy.net.errors import (
    DecodeError,
    LocalProtocolError,
    ProtocolError,
    RemoteProtocolError,
)
from p2p_burgundy.net.events import (
    ChanceResolved,
    ChatReceived,
    EntryRejected,
    Equivocation,
    GameOver,
    HandedOver,
    Rejection,
    TurnApplied,
    Waiting,
)
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.inmemory import Table, make_table_start, random_turn
from p2p_burgundy.net.log import Entry, GameFile, Kind, decode_entry, sign_entry
from p2p_burgundy.net.messages import Tag
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.start import make_start

from .harness import canonical, shuffled

# --- helpers -------------------------------------------------------------------------------------


def snapshot(session: Session) -> tuple[object, ...]:
    """Everything an accepted entry could change."""
    return (
        state_hash(session.state),
        tuple(len(c) for c in session.chains),
        session.turn_number,
        session.state.chance_index,
        len(session.proofs),
        len(session.rejected),
        tuple(sorted(session.faulty)),
    )


def entry_message(raw: bytes) -> bytes:
    return wire.encode_message(Tag.ENTRY, [raw])


def next_entry(table: Table, seat: int, kind: Kind, payload: list[object],
               game_id: bytes | None = None, view: int = 0) -> Entry:
    """A correctly signed next entry of ``seat``, linked to its chain as peer ``view`` holds
    it (as a misbehaving peer would make it)."""
    chain = table.sessions[view].chains[seat]
    return sign_entry(table.ids[seat], game_id or table.game_id, len(chain),
                      chain[-1].id if chain else b"",
                      kind, payload)  # type: ignore[arg-type]


def rejections(table: Table, peer: int) -> list[EntryRejected]:
    return table.of_type(peer, EntryRejected)


@pytest.fixture
def midgame() -> Table:
    """Three players, a few turns in, bots paused, every peer in sync and a turn to play."""
    table = Table(3, seed=7)
    table.play(turns=7)
    table.paused = True
    table.pump()
    assert table.sessions[0].state.to_move is not None
    return table


# --- Property 3: one state everywhere ------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_peer_reaches_the_same_state_hash_after_every_entry(players: int) -> None:
    table = Table(players, seed=players)
    table.play()
    first = table.hashes(0)
    assert len(first) == 31 + 25 * players  # every chance event and every turn
    for i in range(1, players):
        assert table.hashes(i) == first
    assert len(set(table.final_hashes())) == 1
    assert all(s.state.is_over for s in table.sessions)
    for i in range(players):
        assert len(table.of_type(i, GameOver)) == 1
        assert table.errors[i] == []
        assert rejections(table, i) == []
    # Replaying any peer's entries, in any order, reproduces the same sequence.
    for i in range(players):
        report = audit(shuffled(table.files[i], seed=i))
        assert report.ok, report.problems
        assert report.hashes() == first


def test_a_spectator_fed_entries_in_random_order_reaches_the_same_states() -> None:
    table = Table(3, seed=11)
    table.play()
    spectator = Session(table.start)
    pending = shuffled(table.files[2], seed=3)
    while pending:  # entries too far ahead of a gap are refused: offer them again later
        later = []
        for raw in pending:
            try:
                spectator.receive_entry(raw)
            except RemoteProtocolError as exc:
                assert "too far ahead" in exc.message
                later.append(raw)
        assert len(later) < len(pending)
        pending = later
    hashes = []
    while (event := spectator.next_event()) is not None:
        if isinstance(event, ChanceResolved | TurnApplied):
            hashes.append(event.state_hash)
    assert hashes == [h for _, _, h in table.hashes(0)]
    assert spectator.my_turn is False


def test_chat_reaches_every_peer_and_changes_no_state() -> None:
    table = Table(2, seed=3)
    table.play(turns=2)
    before = state_hash(table.sessions[1].state)
    table.sessions[0].send_chat("good luck")
    table.pump()
    assert table.of_type(1, ChatReceived) == [ChatReceived(0, "good luck")]
    assert state_hash(table.sessions[1].state) == before
    with pytest.raises(LocalProtocolError):
        table.sessions[0].send_chat("")
    with pytest.raises(LocalProtocolError):
        Session(table.start).send_chat("spectators are quiet")


def test_submit_turn_refuses_out_of_turn_and_illegal_turns(midgame: Table) -> None:
    mover = midgame.sessions[0].state.to_move
    other = (mover + 1) % 3
    with pytest.raises(LocalProtocolError, match="not our turn"):
        midgame.sessions[other].submit_turn([END_TURN])
    before = snapshot(midgame.sessions[mover])
    with pytest.raises(LocalProtocolError, match="illegal"):
        midgame.sessions[mover].submit_turn([UseDie(0), END_TURN])
    assert snapshot(midgame.sessions[mover]) == before


# --- Property 1: commit-reveal -------------------------------------------------------------------


def _own_reveals(session: Session) -> list[int]:
    assert session.my_seat is not None
    return [e.payload[0] for e in session.chains[session.my_seat]  # type: ignore[misc]
            if e.kind == Kind.REVEAL]


def test_no_peer_reveals_for_an_event_before_the_previous_one_resolved() -> None:
    table = Table(3, seed=4)
    checked = 0

    def check() -> None:
        nonlocal checked
        for session in table.sessions:
            pending = session.state.chance
            resolved = session.state.chance_index  # events resolved so far
            for k in _own_reveals(session):
                # Only resolved events, or the one the game is waiting for now.
                assert k < resolved or (pending is not None and k == pending.index)
            checked += 1

    original = table.flush

    def flush(i: int) -> None:
        original(i)
        check()

    table.flush = flush  # type: ignore[method-assign]
    table.play()
    assert checked > 1000
    assert [_own_reveals(s) for s in table.sessions] == [list(range(31))] * 3


def test_the_entropy_depends_on_every_reveal() -> None:
    table = Table(3, seed=1)
    table.play(turns=1)
    event = table.of_type(0, ChanceResolved)[0]
    assert event_entropy(table.game_id, event.index, event.reveals) == event.entropy
    for seat in range(3):
        changed = list(event.reveals)
        changed[seat] = bytes(a ^ b for a, b in zip(changed[seat], b"\x01" + bytes(31),
                                                     strict=True))
        assert event_entropy(table.game_id, event.index, changed) != event.entropy
    swapped = [event.reveals[1], event.reveals[0], event.reveals[2]]
    assert event_entropy(table.game_id, event.index, swapped) != event.entropy


def test_a_withheld_reveal_pauses_the_game_names_the_seat_and_never_redraws() -> None:
    table = Table(3, seed=8)
    table.play(turns=6)
    k = table.sessions[0].state.chance_index  # the next chance event
    withheld: list[bytes] = []

    def withhold(source: int, destination: int, data: bytes) -> bytes | None:
        """Seat 2 plays on, but its reveals for event k (and later) never leave it."""
        tag, fields = wire.decode_message(data)
        if source == 2 and tag == Tag.ENTRY:
            entry = decode_entry(fields[0])  # type: ignore[arg-type]
            if entry.kind == Kind.REVEAL and entry.payload[0] >= k:  # type: ignore[operator]
                withheld.append(entry.raw)
                return None
        return data

    table.filter = withhold
    for _ in range(12):
        table.bot_turns()
        table.tick()
    assert withheld
    for i in (0, 1):
        session = table.sessions[i]
        assert session.waiting_for() == Waiting("reveal", k, (2,))
        assert session.state.chance is not None and session.state.chance.index == k
        assert all(e.index < k for e in table.of_type(i, ChanceResolved))
        assert max(_own_reveals(session)) == k  # nobody reveals for k + 1 in the meantime
    # Nothing else makes the game move on: no one else can reveal in seat 2's place.
    table.filter = None
    table.sessions[1]._author(Reveal(k, bytes(32)))  # signed in seat 1's own chain
    table.flush(1)
    table.pump()
    assert table.sessions[0].state.chance.index == k  # type: ignore[union-attr]
    assert "does not hash to the commitment" in rejections(table, 0)[-1].reason
    # Once seat 2 sends its reveal, the event resolves once, with the real link.
    table.play()
    assert len(set(table.final_hashes())) == 1
    for i in range(3):
        assert [e.index for e in table.of_type(i, ChanceResolved)] == list(range(31))


# --- Property 4: attacks -------------------------------------------------------------------------


def _attack(table: Table, data: bytes, source: int = 1, victim: int = 0) -> ProtocolError | None:
    """Deliver ``data`` to ``victim`` and return the error it raised (if any)."""
    before = len(table.errors[victim])
    table.deliver(victim, data, source)
    return table.errors[victim][before] if len(table.errors[victim]) > before else None


def test_a_forged_signature_is_rejected_and_changes_nothing(midgame: Table) -> None:
    entry = next_entry(midgame, 1, Kind.CHAT, ["hi"])
    raw = bytearray(entry.raw)
    raw[-1] ^= 1
    before = snapshot(midgame.sessions[0])
    error = _attack(midgame, entry_message(bytes(raw)))
    assert isinstance(error, RemoteProtocolError) and "bad signature" in error.message
    assert error.author == midgame.ids[1].public_key
    assert snapshot(midgame.sessions[0]) == before


def test_a_tampered_body_is_rejected_and_changes_nothing(midgame: Table) -> None:
    entry = next_entry(midgame, 1, Kind.CHAT, ["hi"])
    body = entry.body.replace(b"hi", b"ho")
    before = snapshot(midgame.sessions[0])
    error = _attack(midgame, entry_message(wire.encode([body, entry.signature])))
    assert isinstance(error, RemoteProtocolError) and "bad signature" in error.message
    # A tampered copy of an entry the victim already holds is no proof of equivocation.
    held = midgame.sessions[0].chains[1][1]
    tampered = bytearray(held.body)
    tampered[-1] ^= 1
    error = _attack(midgame, entry_message(wire.encode([bytes(tampered), held.signature])))
    assert isinstance(error, ProtocolError)
    assert snapshot(midgame.sessions[0]) == before


def test_an_entry_from_another_game_is_rejected_and_changes_nothing(midgame: Table) -> None:
    entry = next_entry(midgame, 1, Kind.CHAT, ["hi"], game_id=b"another game id!")
    before = snapshot(midgame.sessions[0])
    error = _attack(midgame, entry_message(entry.raw))
    assert isinstance(error, RemoteProtocolError) and error.message == "entry from another game"
    # The same table playing another game: its entries are worthless here, and vice versa.
    other = Table(3, seed=7, table_id=b"another game id!")
    other.play(turns=7)
    for raw in other.files[1][1:20]:
        error = _attack(midgame, entry_message(raw))
        assert isinstance(error, RemoteProtocolError)
    # With the game id rewritten, the signature no longer verifies.
    body = bytearray(other.files[1][1])
    at = body.find(other.game_id)
    assert at > 0
    assert snapshot(midgame.sessions[0]) == before


def test_an_entry_replayed_into_another_slot_is_rejected_and_changes_nothing(
    midgame: Table,
) -> None:
    held = midgame.sessions[0].chains[1][2]
    before = snapshot(midgame.sessions[0])
    # The same raw entry again is a harmless duplicate.
    assert _attack(midgame, entry_message(held.raw)) is None
    # Moved to the next slot (seq and prev rewritten, signature kept), it no longer verifies.
    chain = midgame.sessions[0].chains[1]
    fields = list(wire.decode(held.body))  # type: ignore[arg-type]
    fields[3], fields[4] = len(chain), chain[-1].id
    moved = wire.encode([wire.encode(fields), held.signature])
    error = _attack(midgame, entry_message(moved))
    assert isinstance(error, RemoteProtocolError) and "bad signature" in error.message
    # Another author's entry under a seat's key: same.
    fields[2] = midgame.ids[2].public_key
    error = _attack(midgame, entry_message(wire.encode([wire.encode(fields), held.signature])))
    assert isinstance(error, ProtocolError)
    assert snapshot(midgame.sessions[0]) == before


def test_an_entry_by_a_stranger_is_rejected(midgame: Table) -> None:
    mallory = Identity.from_private_bytes(bytes([66]) * 32)
    entry = sign_entry(mallory, midgame.game_id, 0, b"", Kind.CHAT, ["let me in"])
    before = snapshot(midgame.sessions[0])
    error = _attack(midgame, entry_message(entry.raw))
    assert isinstance(error, RemoteProtocolError) and "no seat" in error.message
    assert snapshot(midgame.sessions[0]) == before


def test_an_entry_that_does_not_link_is_rejected(midgame: Table) -> None:
    chain = midgame.sessions[0].chains[1]
    entry = sign_entry(midgame.ids[1], midgame.game_id, len(chain), chain[-2].id, Kind.CHAT,
                       ["fork"])
    before = snapshot(midgame.sessions[0])
    error = _attack(midgame, entry_message(entry.raw))
    assert isinstance(error, RemoteProtocolError) and "does not link" in error.message
    assert snapshot(midgame.sessions[0]) == before


def _void_entry(table: Table, author: int, kind: Kind, payload: list[object]) -> EntryRejected:
    """Deliver a signed, linked entry the rules must void to peer 0: nothing in the game may
    change (the entry itself joins the author's chain, void, so later entries still link)."""
    session = table.sessions[0]
    before = snapshot(session)
    entry = next_entry(table, author, kind, payload)
    assert _attack(table, entry_message(entry.raw), source=author) is None
    after = snapshot(session)
    assert after[0] == before[0]  # state hash
    assert after[2:4] == before[2:4]  # turn number and chance index
    assert after[1][author] == before[1][author] + 1  # kept, void, in the author's chain
    rejected = rejections(table, 0)[-1]
    assert (rejected.seat, rejected.seq) == (author, entry.seq)
    assert rejected.reason.startswith(table.sessions[0].seats[author].name + ":")
    return rejected


def test_a_reveal_that_does_not_hash_to_the_commitment_is_void(midgame: Table) -> None:
    k = midgame.sessions[0].state.chance_index
    rejected = _void_entry(midgame, 1, Kind.REVEAL, [k, bytes(32)])
    assert "does not hash to the commitment" in rejected.reason
    # Another seat's genuine link is no good either.
    link = midgame.sessions[2]._chain.reveal(k)  # type: ignore[union-attr]
    assert "commitment" in _void_entry(midgame, 1, Kind.REVEAL, [k, link]).reason


def test_a_turn_already_played_is_void(midgame: Table) -> None:
    mover = midgame.sessions[0].state.to_move
    rejected = _void_entry(midgame, mover, Kind.TURN, [0, [END_TURN.to_tree()]])
    assert "turn 0 is already played" in rejected.reason


def test_a_turn_by_the_wrong_seat_is_void(midgame: Table) -> None:
    session = midgame.sessions[0]
    mover = session.state.to_move
    wrong = (mover + 1) % 3
    actions = random_turn(session.state, random.Random(0))
    rejected = _void_entry(midgame, wrong, Kind.TURN,
                           [session.turn_number, [a.to_tree() for a in actions]])
    assert f"belongs to {session.seats[mover].name}" in rejected.reason
    # The real mover's turn still goes through.
    midgame.paused = False
    midgame.play(turns=1)
    assert session.turn_number == midgame.sessions[mover].turn_number


def test_an_illegal_turn_is_void_and_names_its_author() -> None:
    midgame = Table(3, seed=8)  # a table where peer 0 is the one to move
    midgame.play(turns=7)
    midgame.paused = True
    midgame.pump()
    session = midgame.sessions[0]
    mover = session.state.to_move
    assert mover == 0  # its own peer signs the void turns, so its real turn still links
    t = session.turn_number
    for actions in ([END_TURN], [UseDie(0), EndTurn()], [UseDie(0), UseDie(0), END_TURN]):
        rejected = _void_entry(midgame, mover, Kind.TURN, [t, [a.to_tree() for a in actions]])
        assert rejected.reason.startswith(f"{session.seats[mover].name}: illegal turn {t}")
    for payload in ([t, [[99]]], [t, []], ["t", [END_TURN.to_tree()]], [t]):
        assert "turn" in _void_entry(midgame, mover, Kind.TURN, payload).reason
    # Its author may still play the turn properly.
    midgame.paused = False
    midgame.play(turns=1)
    assert midgame.sessions[0].turn_number == t + 1


def test_malformed_reveal_chat_and_start_entries_are_void(midgame: Table) -> None:
    assert "a reveal is" in _void_entry(midgame, 1, Kind.REVEAL, ["k", b"x"]).reason
    assert "chat" in _void_entry(midgame, 1, Kind.CHAT, ["x" * 281]).reason
    assert "not expected" in _void_entry(midgame, 1, Kind.START, [1]).reason


@pytest.mark.parametrize("actions", [0, MAX_TURN_ACTIONS + 1])
def test_a_turn_with_no_actions_or_too_many_is_void(midgame: Table, actions: int) -> None:
    turn = [midgame.sessions[0].turn_number, [[5]] * actions]
    assert "a turn is [turn number" in _void_entry(midgame, 1, Kind.TURN, turn).reason


def test_equivocation_is_proven_to_every_honest_peer() -> None:
    table = Table(4, seed=9)
    table.play(turns=5)
    table.paused = True
    table.pump()
    cheat = table.sessions[0].state.to_move
    honest = [i for i in range(4) if i != cheat]
    state = table.sessions[cheat].state
    one = random_turn(state, random.Random(1))
    two = next(t for s in range(2, 50) if (t := random_turn(state, random.Random(s))) != one)
    t = table.sessions[cheat].turn_number
    first = next_entry(table, cheat, Kind.TURN, [t, [a.to_tree() for a in one]])
    second = next_entry(table, cheat, Kind.TURN, [t, [a.to_tree() for a in two]])
    assert (first.seq, first.prev) == (second.seq, second.prev) and first.body != second.body
    # The cheat shows one version to one honest peer and the other to another, then leaves.
    table.offline = {cheat}
    table.deliver(honest[0], entry_message(first.raw), cheat)
    table.deliver(honest[1], entry_message(second.raw), cheat)
    for _ in range(6):
        table.tick()
    for i in honest:
        proofs = table.sessions[i].proofs
        assert len(proofs) == 1, i
        proof = proofs[0]
        assert (proof.seat, proof.seq) == (cheat, first.seq)
        assert {proof.first, proof.second} == {first.raw, second.raw}
        assert table.of_type(i, Equivocation) == [proof]
        assert cheat in table.sessions[i].faulty
        # The proof is kept in the game file too, and an audit of that file shows it.
        assert first.raw in table.files[i] and second.raw in table.files[i]
        report = audit(table.files[i])
        assert [p.check.value for p in report.problems] == ["equivocation"]
        assert report.problems[0].seat == cheat
    # The cheat's later entries are not trusted.
    before = snapshot(table.sessions[honest[2]])
    later = sign_entry(table.ids[cheat], table.game_id, first.seq + 1, first.id, Kind.CHAT, ["hi"])
    table.deliver(honest[2], entry_message(later.raw), cheat)
    assert snapshot(table.sessions[honest[2]]) == before


def test_an_equivocating_seat_has_no_say_in_a_hand_over_after_its_fork() -> None:
    """From the slot it signed two bodies for, a seat's say in hand-overs ends as at a RESIGN
    there: a peer accepts nothing more from it, so it could never agree, and the game would
    otherwise wait for its vote for good (docs/protocol.md, "Equivocation")."""
    table = Table(3, seed=7)
    table.play(turns=7)
    table.paused = True
    table.pump()
    honest = table.sessions[0]
    mover = honest.state.to_move
    assert honest.state.chance is None and mover is not None and mover != 0
    cheat = 3 - mover  # the third seat
    first = next_entry(table, cheat, Kind.CHAT, ["one"])
    second = next_entry(table, cheat, Kind.CHAT, ["two"])
    table.offline = {mover, cheat}  # the mover is gone; the cheat shows peer 0 both bodies
    table.deliver(0, entry_message(first.raw), cheat)
    step = honest.step
    table.deliver(0, entry_message(second.raw), cheat)
    assert cheat in honest.faulty
    honest.agree_seat_to_bot(mover)
    table.flush(0)
    assert honest.forfeits == {mover: step}  # peer 0's agreement alone hands the mover over
    event = table.of_type(0, HandedOver)[-1]
    assert (event.seats, event.step) == ((mover,), step)
    assert [p.check.value for p in audit(table.files[0]).problems] == ["equivocation"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.binary(max_size=1300))
def test_random_datagrams_raise_only_protocol_errors_and_change_nothing(data: bytes) -> None:
    session = _FUZZ_TABLE.sessions[0]
    before = snapshot(session)
    with contextlib.suppress(DecodeError, RemoteProtocolError):
        session.receive_datagram(data, 1, 0.0)
    assert snapshot(session) == before
    session.datagrams_to_send()


_FUZZ_TABLE = Table(2, seed=13)
_FUZZ_TABLE.play(turns=3)
_FUZZ_VALID = [
    entry_message(raw) for raw in _FUZZ_TABLE.files[1][-6:]
] + [
    wire.encode_message(Tag.HEADS, [_FUZZ_TABLE.game_id, [3, 2], [bytes(32)] * 2]),
    wire.encode_message(Tag.WANT, [_FUZZ_TABLE.game_id, 1, 0, 4]),
]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    which=st.integers(0, len(_FUZZ_VALID) - 1),
    flips=st.lists(st.tuples(st.integers(0, 2000), st.integers(1, 255)), min_size=1,
                   max_size=4),
    cut=st.integers(0, 2000),
)
def test_mutated_datagrams_raise_only_protocol_errors(
    which: int, flips: list[tuple[int, int]], cut: int
) -> None:
    data = bytearray(_FUZZ_VALID[which])
    for at, mask in flips:
        data[at % len(data)] ^= mask
    data = data[: max(1, cut % (len(data) + 1))]
    spectator = Session(_FUZZ_TABLE.start)  # holds nothing yet: mutated entries are new to it
    before = snapshot(spectator)
    try:
        spectator.receive_datagram(bytes(data), 1, 0.0)
    except (DecodeError, RemoteProtocolError):
        assert snapshot(spectator) == before


def test_messages_of_the_wrong_shape_are_decode_errors(midgame: Table) -> None:
    session = midgame.sessions[0]
    before = snapshot(session)
    for fields in ([], [b"x", b"y"], [midgame.game_id, [1, 2, 3], [b"", b"", b""]]):
        with pytest.raises(DecodeError):
            session.receive_datagram(wire.encode_message(Tag.HEADS, fields), 1, 0.0)
    for fields in ([midgame.game_id, 9, 0, 1], [midgame.game_id, 0, -1, 1], [b"wrong", 0, 0, 1]):
        with pytest.raises(DecodeError):
            session.receive_datagram(wire.encode_message(Tag.WANT, fields), 1, 0.0)
    for tag, fields in ((Tag.ENTRY, []), (Tag.ENTRY, ["text"]), (99, [])):
        with pytest.raises(DecodeError):
            session.receive_datagram(wire.encode_message(tag, fields), 1, 0.0)
    assert snapshot(session) == before


def test_a_bad_start_entry_is_refused() -> None:
    ids, config, start = make_table_start(2)
    session = Session(start)
    with pytest.raises(LocalProtocolError):
        Session(start, Identity.from_private_bytes(bytes([77]) * 32))
    seats = session.seats
    with pytest.raises(LocalProtocolError, match="acceptance"):
        make_start(ids[0], session.start.table_id, config, seats, [bytes(64), bytes(64)])
    chat = sign_entry(ids[0], start.game_id, 0, b"", Kind.CHAT, ["not a start"])
    with pytest.raises(RemoteProtocolError, match="START"):
        Session(chat)


# --- Crash safety --------------------------------------------------------------------------------


def test_a_peer_that_crashed_mid_write_resumes_from_its_file(tmp_path: Path) -> None:
    table = Table(3, seed=6)
    table.play(turns=8)
    while not table.sessions[2].my_turn:
        table.play(turns=1)
    # Seat 2 dies while writing its turn, before sending it: that record is torn.
    kept = len(table.files[2])
    table.offline = {2}
    table.sessions[2].submit_turn(random_turn(table.sessions[2].state, random.Random(2)))
    table.pump()
    lost = table.files[2][kept]
    assert decode_entry(lost).kind == Kind.TURN
    path = tmp_path / "seat2.game"
    with GameFile(path) as file:
        for raw in table.files[2][:kept + 1]:
            file.append(raw)
    path.write_bytes(path.read_bytes()[:-len(lost) // 2])
    with GameFile(path) as reopened:
        assert reopened.entries == table.files[2][:kept]
        records = reopened.entries
    table.restart(2, records)
    assert table.sessions[2].my_turn  # its turn again: the torn one never left
    table.offline = set()
    table.play()
    assert len(set(table.final_hashes())) == 1
    assert all(s.proofs == [] for s in table.sessions)
    assert all(lost not in f for f in table.files)


def test_the_stand_in_plays_every_seat_handed_over_and_nobody_signs_its_turns() -> None:
    """Seat 1 gone and handed over, then seat 0 gone too and handed over by seat 2 alone:
    every turn of theirs is the stand-in's, computed alike by every peer and by the audit;
    a turn seat 2 signs for one of them is void, and the game ends."""
    table = Table(3, seed=3)
    table.play(turns=8)
    table.leave(1)
    table.hand_over(1)
    table.leave(0)
    table.hand_over(0)
    last = table.sessions[2]
    assert set(last.forfeits) == {0, 1}
    before = snapshot(last)
    table.play()
    assert last.over
    played = [h for h in last.history if isinstance(h, TurnApplied) and h.mover in (0, 1)
              and h.step >= last.forfeits[h.mover]]
    assert played and all(h.seat is None and h.seq is None for h in played)
    assert snapshot(last) != before
    report = audit(canonical(table, 2))
    assert report.ok and [s.seq is None for s in report.turns] == [
        h.seat is None for h in last.history if isinstance(h, TurnApplied)]


def test_a_turn_signed_for_the_stand_in_is_void() -> None:
    """Seat 1 is handed over; seat 0 signs turns for seat 1's coming turns as a deputy of
    protocol version 2 did: each is void, the stand-in plays them."""
    table = Table(2, seed=6)
    table.play(turns=6)
    table.leave(1)
    table.hand_over(1)
    table.offline.clear()
    ann = table.sessions[0]
    while not ann.over:
        if ann.my_turn:  # turn t + 1 is the stand-in's: sign it, then play ours
            ann._author(Turn(ann.turn_number + 1, (END_TURN,)))
        table.play(turns=1)
    voided = [r for r in ann.rejected.values() if r.seat == 0]
    assert voided and all(r.reason.endswith("is the stand-in's for Bob: nobody signs it")
                          and r.cause is Rejection.NOT_ITS_TURN for r in voided)
    report = audit(canonical(table))
    assert not report.ok  # a defect of Ann's, named
    assert {p.seat for p in report.problems} == {0}


def test_a_player_whose_seat_the_others_hand_to_a_bot_sees_it_and_can_no_longer_play() -> None:
    table = Table(2, seed=6)
    table.play(turns=6)
    table.leave(1)
    table.hand_over(1)  # in a 2-player game one agreement is enough
    table.offline.clear()
    table.tick()  # the victim hears of it by anti-entropy
    victim = table.sessions[1]
    assert victim.handed_over and victim.forfeits == {1: table.sessions[0].forfeits[1]}
    assert not victim.my_turn
    with pytest.raises(LocalProtocolError, match="not our turn"):
        victim.submit_turn([UseDie(0), END_TURN])
    assert not table.sessions[0].handed_over
    table.play()  # the game goes on to its end, and the victim authors nothing more
    assert all(s.state.is_over for s in table.sessions)
    assert [e.kind for e in victim.chains[1] if e.kind in (Kind.TURN, Kind.REVEAL)] \
        == [e.kind for e in table.sessions[0].chains[1] if e.kind in (Kind.TURN, Kind.REVEAL)]
    assert len(set(table.final_hashes())) == 1




def test_the_last_entry_of_each_player_is_one_seen_of_the_end() -> None:
    """Ann held the inputs of the last step (Bob's turn) and signed SEEN [steps] before it
    resolved: she does not sign it again when the game is over; Bob, who played that turn,
    signs it then."""
    table = Table(2, seed=1)
    table.play()
    session = table.sessions[0]
    last = session.history[-1]
    assert isinstance(last, TurnApplied) and last.mover == 1
    for chain in session.contents:
        assert chain[-1] == Seen(session.step) and chain[-2] != chain[-1]
