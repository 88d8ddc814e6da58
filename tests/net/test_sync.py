"""Anti-entropy and recovery (net/sync.py): what a peer announces, asks for, serves and pushes,
and when a player that lost its game file may author again; then the same through whole
tables of sessions (a fork found by sync, a recovery a stranger cannot end early)."""

from __future__ import annotations

import pytest

from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import DecodeError, LocalProtocolError, RemoteProtocolError
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import Entry, Kind, sign_entry
from p2p_burgundy.net.messages import EntryMessage, Heads, Held, Message, Recover, Tag, Want
from p2p_burgundy.net.sync import HEADS_INTERVAL, HELD_DOMAIN, WANT_BATCH, Sync, held_message

# --- Sync alone, on the chains of a real game ----------------------------------------------------


@pytest.fixture(scope="module")
def played() -> Table:
    """Two players 11 turns in: seat 0 authored 30 entries (its START first), seat 1 29."""
    table = Table(2, seed=1)
    table.play(turns=11)
    table.paused = True
    table.pump()
    assert table.chain_lengths()[0] == [30, 29]
    return table


def sync_of(table: Table, holding: list[int], *, seat: int | None = 0,
            nonce: bytes | None = None) -> tuple[Sync, list[list[Entry]]]:
    """A Sync for ``seat`` (None: a spectator) holding the first ``holding[s]`` entries of
    each seat durably, and the chains it reads."""
    chains = [list(c[:n]) for c, n in zip(table.sessions[0].chains, holding, strict=True)]
    keys = [s.key for s in table.sessions[0].seats]
    identity = None if seat is None else table.ids[seat]
    sync = Sync(table.game_id, keys, chains, set(), identity, seat, nonce)
    sync.taken()
    sync.saved()
    return sync, chains


def entries(chain: list[Entry]) -> list[Message]:
    return [EntryMessage(e.raw) for e in chain]


def test_our_own_entries_are_sent_once_and_only_when_durable(played: Table) -> None:
    sync, chains = sync_of(played, [0, 0])
    full = played.sessions[0].chains
    chains[0] += full[0][:3]
    chains[1] += full[1][:2]
    sync.taken()
    chains[0].append(full[0][3])  # accepted after the session handed the others over
    assert sync.heads().counts == (0, 0)
    assert sync.saved() == entries(full[0][:3])  # ours only: the others' are not ours to push
    assert sync.saved() == []
    assert sync.heads() == Heads(played.game_id, (3, 2), (full[0][2].id, full[1][1].id))
    sync.taken()
    assert sync.saved() == entries(full[0][3:4])


def test_a_peer_that_holds_more_is_asked_for_what_we_lack_16_at_a_time(played: Table) -> None:
    sync, _ = sync_of(played, [2, 25])
    heads = Heads(played.game_id, (30, 29), (played.sessions[1].chains[0][29].id,
                                           played.sessions[1].chains[1][28].id))
    assert sync.answer(heads) == [Want(played.game_id, 0, 2, WANT_BATCH),
                                  Want(played.game_id, 1, 25, 4)]


def test_a_peer_that_lacks_entries_gets_our_heads_and_those_we_authored(played: Table) -> None:
    sync, chains = sync_of(played, [30, 29])
    heads = Heads(played.game_id, (3, 1), (chains[0][2].id, chains[1][0].id))
    # It pulls seat 1's entries after our HEADS; ours are pushed at once (they are signed).
    assert sync.answer(heads) == [sync.heads(), *entries(chains[0][3:3 + WANT_BATCH])]
    assert sync_of(played, [30, 29], seat=None)[0].answer(heads) == [sync.heads()]


def test_another_head_for_a_slot_we_hold_fetches_it_and_shows_ours(played: Table) -> None:
    sync, chains = sync_of(played, [3, 29])
    other = sign_entry(played.ids[0], played.game_id, 2, chains[0][1].id, Kind.CHAT, ["fork"])
    heads = Heads(played.game_id, (3, 29), (other.id, chains[1][28].id))
    assert sync.answer(heads) == [Want(played.game_id, 0, 2, 1), EntryMessage(chains[0][2].raw)]
    faulty = Sync(played.game_id, [s.key for s in played.sessions[0].seats], chains, {0},
                  played.ids[0], 0)
    assert faulty.answer(heads) == []  # a seat caught equivocating once is not chased again


def test_want_is_answered_with_at_most_16_durable_entries(played: Table) -> None:
    sync, chains = sync_of(played, [30, 20])
    chains[1] += played.sessions[0].chains[1][20:]  # not durable yet
    assert sync.answer(Want(played.game_id, 1, 0, 100)) == entries(chains[1][:WANT_BATCH])
    assert sync.answer(Want(played.game_id, 1, 10, 100)) == entries(chains[1][10:20])
    assert sync.answer(Want(played.game_id, 1, 3, 2)) == entries(chains[1][3:5])
    assert sync.answer(Want(played.game_id, 1, 40, 1)) == []


def test_messages_for_another_game_or_seat_are_decode_errors(played: Table) -> None:
    sync, _ = sync_of(played, [30, 29])
    gid, other = played.game_id, bytes(16)
    for message, form in [
        (Heads(other, (0, 0), (b"", b"")), "HEADS is"),
        (Heads(gid, (0, 0, 0), (b"", b"", b"")), "HEADS is"),
        (Want(other, 0, 0, 1), "WANT is"),
        (Want(gid, 2, 0, 1), "WANT is"),
        (Recover(gid, 2, bytes(16)), "RECOVER is"),
    ]:
        with pytest.raises(DecodeError, match=form):
            sync.answer(message)  # type: ignore[arg-type]
    with pytest.raises(DecodeError, match="HELD is"):
        sync.held(Held(gid, 2, 0, 0, b"", bytes(64)), [1])


def test_heads_go_out_every_half_second_and_recover_while_recovering(played: Table) -> None:
    sync, _ = sync_of(played, [30, 29])
    assert sync.handle_timer(0.0) == [sync.heads()]
    assert sync.handle_timer(0.3) == [] and sync.handle_timer(HEADS_INTERVAL - 0.01) == []
    assert sync.handle_timer(HEADS_INTERVAL) == [sync.heads()]
    nonce = bytes([7]) * 16
    lost, _ = sync_of(played, [1, 0], seat=1, nonce=nonce)
    assert lost.recovering
    assert lost.handle_timer(0.0) == [lost.heads(), Recover(played.game_id, 1, nonce)]
    with pytest.raises(LocalProtocolError, match="16-byte nonce"):
        sync_of(played, [1, 0], seat=1, nonce=bytes(3))


def test_recover_is_answered_with_what_we_hold_signed_for_that_nonce(played: Table) -> None:
    sync, chains = sync_of(played, [30, 12])
    nonce = bytes([5]) * 16
    head = chains[1][11].id
    signature = played.ids[0].sign(HELD_DOMAIN,
                                   held_message(played.game_id, nonce, 0, 1, 12, head))
    assert sync.answer(Recover(played.game_id, 1, nonce)) == [
        Held(played.game_id, 0, 1, 12, head, signature)]
    assert sync.answer(Recover(played.game_id, 0, nonce)) == []  # nobody vouches for itself
    spectator, _ = sync_of(played, [30, 12], seat=None)
    assert spectator.answer(Recover(played.game_id, 1, nonce)) == []


def test_recovery_ends_when_every_other_live_seat_signed_and_we_hold_as_many() -> None:
    table = Table(3, seed=10)
    table.play(turns=9)
    table.pump()
    gid, full = table.game_id, table.sessions[0].chains
    nonce = bytes([1]) * 16
    chains: list[list[Entry]] = [list(full[0]), [], list(full[2])]
    keys = [s.key for s in table.sessions[0].seats]
    sync = Sync(gid, keys, chains, set(), table.ids[1], 1, nonce)

    def held(signer: int, count: int, *, seat: int = 1, key: Identity | None = None,
             signed_nonce: bytes = nonce) -> Held:
        head = full[seat][count - 1].id if count else b""
        message = held_message(gid, signed_nonce, signer, seat, count, head)
        return Held(gid, signer, seat, count, head,
                    (key or table.ids[signer]).sign(HELD_DOMAIN, message))

    assert not sync.held(held(0, 4), [0, 2])  # seat 2 has not answered
    assert not sync.held(held(2, 3, seat=2), [0, 2])  # about another seat: not for us
    assert not sync.held(held(2, 9), [0, 2])  # every seat answered, but we hold 0 of 9
    for forged in (held(0, 0, key=table.ids[2]), held(2, 0, signed_nonce=bytes(16))):
        with pytest.raises(RemoteProtocolError, match="HELD signature"):
            sync.held(forged, [0, 2])
    chains[1] += full[1][:9]
    assert sync.recovering
    assert sync.held(held(0, 4), [0, 2]) and not sync.recovering
    assert not sync.held(held(2, 9), [0, 2])  # over: answers change nothing


# --- Through whole tables ----------------------------------------------------------------------

def test_equivocation_over_a_fork_several_entries_deep_is_found_by_sync() -> None:
    table = Table(3, seed=12)
    table.play(turns=4)
    table.paused = True
    table.pump()
    cheat = 1
    honest = [0, 2]
    chain = table.sessions[0].chains[cheat]
    a, b = (sign_entry(table.ids[cheat], table.game_id, len(chain), chain[-1].id, Kind.CHAT,
                       [text]) for text in ("version a", "version b"))
    a2 = sign_entry(table.ids[cheat], table.game_id, a.seq + 1, a.id, Kind.CHAT, ["a again"])
    table.offline = {cheat}
    table.deliver(honest[0], EntryMessage(a.raw).encode(), cheat)
    table.deliver(honest[0], EntryMessage(a2.raw).encode(), cheat)  # peer 0 holds one more
    table.deliver(honest[1], EntryMessage(b.raw).encode(), cheat)
    for _ in range(6):
        table.tick()
    assert all(len(table.sessions[i].proofs) == 1 for i in honest)


def _seat_1_lost_its_file() -> tuple[Table, int]:
    """A 3-player game nine turns in, seat 1 restarted with nothing but the START entry (its
    game file lost): the table, and how many entries seat 1 had signed before."""
    table = Table(3, seed=10)
    table.play(turns=9)
    table.pump()
    had = len(table.sessions[1].chains[1])
    table.restart(1, [table.start.raw], recovering=True)
    return table, had


def test_a_peer_that_lost_its_log_authors_nothing_until_it_has_its_entries_back() -> None:
    table, had = _seat_1_lost_its_file()
    session = table.sessions[1]
    authored: list[bytes] = []
    heads_from = {0}

    def watch(source: int, destination: int, data: bytes) -> bytes | None:
        tag, fields = wire.decode_message(data)
        if source == 1 and tag == Tag.ENTRY:
            authored.append(fields[0])  # type: ignore[arg-type]
        if destination == 1 and tag in (Tag.HEADS, Tag.HELD) and source not in heads_from:
            return None  # seat 2's announcements and answers do not reach it yet
        return data

    table.filter = watch
    for _ in range(8):
        table.tick()
        table.bot_turns()
    assert len(session.chains[1]) == had  # everything it had sent came back, from seat 0
    new = [raw for raw in authored
           if raw not in {e.raw for e in table.sessions[0].chains[1][:had]}]
    assert new == []  # but it re-sent only old entries: no new reveal or turn
    assert not session.my_turn
    heads_from.add(2)
    table.play()
    assert len(set(table.final_hashes())) == 1
    assert all(s.proofs == [] for s in table.sessions)
    assert table.sessions[1].state.is_over


def test_a_stranger_cannot_end_a_recovery_early() -> None:
    """Only what every other live seat signs for the recovering player's fresh nonce counts:
    unsigned HEADS claiming nothing is held, a HELD signed by a stranger or for another nonce,
    change nothing (ending recovery early would make the player sign a second body)."""
    table, had = _seat_1_lost_its_file()
    session = table.sessions[1]
    gid = table.game_id
    mallory = Identity.from_private_bytes(bytes([66]) * 32)
    nothing = wire.encode_message(Tag.HEADS, [gid, [0, 0, 0], [b"", b"", b""]])
    for source in (0, 2):  # any socket, even one spoofing a seat's address
        session.receive_datagram(nothing, source, 0.0)
    for signer, nonce, key in ((0, bytes([1]) * 16, mallory), (2, bytes(16), table.ids[2])):
        message = held_message(gid, nonce, signer, 1, 0, b"")
        held = [gid, signer, 1, 0, b"", key.sign(HELD_DOMAIN, message)]
        with pytest.raises(RemoteProtocolError, match="HELD signature"):
            session.receive_datagram(wire.encode_message(Tag.HELD, held), signer, 0.0)
    session.datagrams_to_send()  # its answers to the forgers
    assert session.recovering and not session.my_turn and session.chains[1] == []
    for _ in range(6):  # the real answers, signed by seats 0 and 2 for our nonce
        table.tick()
    assert not session.recovering and len(session.chains[1]) >= had
    table.play()
    assert len(set(table.final_hashes())) == 1 and all(s.proofs == [] for s in table.sessions)
