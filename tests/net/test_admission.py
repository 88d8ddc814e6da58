"""The network edge, sans-I/O: a spoofed address cannot spend a seat's budget, and an unproven
address gets no more than a small multiple of what it sent (property 13)."""

from __future__ import annotations

from p2p_burgundy.net import wire
from p2p_burgundy.net.admission import (
    AMPLIFICATION,
    BURST,
    CHECK_BURST,
    CHECK_RATE,
    RATE,
    Admission,
    Replies,
    Verdict,
)
from p2p_burgundy.net.inmemory import Table
from p2p_burgundy.net.log import decode_entry
from p2p_burgundy.net.messages import Tag

VICTIM = ("10.0.0.2", 4000)
SPOOFER_RATE = 1000  # datagrams per second, every one with the victim's address
SECONDS = 6  # a whole game of one seat's entries, one every 50 ms


def played() -> tuple[Table, list[bytes]]:
    """A finished 2-player game and seat 1's entries as ENTRY datagrams."""
    table = Table(2, seed=5)
    table.play()
    return table, [wire.encode_message(Tag.ENTRY, [e.raw]) for e in table.sessions[0].chains[1]]


def forged(message: bytes) -> bytes:
    """The same entry with a signature that does not verify."""
    raw = wire.decode_message(message)[1][0]
    body, _ = wire.decode(raw)  # type: ignore[misc]
    return wire.encode_message(Tag.ENTRY, [wire.encode([body, bytes(64)])])


def test_a_spoofed_flood_spends_the_address_budget_but_every_entry_of_the_seat_counts() -> None:
    """1000 datagrams a second claim the victim's address for 6 s: two thirds HEADS
    (unverifiable work, which its address budget stops) and one third forged entries for the
    victim's next slot. Every real entry of the victim, one every 50 ms, still counts."""
    table, honest = played()
    session = table.sessions[0]
    seats = {s.key: i for i, s in enumerate(session.seats)}
    gate = Admission()
    gate.known = {VICTIM}
    heads = wire.encode_message(Tag.HEADS, [session.game_id, [99, 99], [bytes(32)] * 2])
    held = [len(session.chains[0]), 0]
    passed_spoofed = counted = 0
    entries = iter(honest)
    pending: bytes | None = next(entries)
    last = honest[-1]
    for tick in range(SPOOFER_RATE * SECONDS):
        now = tick / SPOOFER_RATE
        spoofed = forged(pending or last) if tick % 3 == 0 else heads
        verdict = gate.admit(spoofed, VICTIM, now)
        if verdict is Verdict.PASS:
            passed_spoofed += 1
        else:
            assert not (verdict is Verdict.BY_AUTHOR and gate.vouch(
                spoofed, seats, held, session.game_id, now))
        if pending is not None and tick % 50 == 0:  # the victim's own next entry
            verdict = gate.admit(pending, VICTIM, now)
            assert verdict is Verdict.PASS or (
                verdict is Verdict.BY_AUTHOR
                and gate.vouch(pending, seats, held, session.game_id, now)), (tick, verdict)
            held[1] += 1
            counted += 1
            pending = next(entries, None)
    assert counted == len(honest) > 50
    # The unverified work the spoofer bought is the address's budget, nothing more.
    assert passed_spoofed <= BURST + RATE * SECONDS
    assert gate.stats.by_author > counted / 2  # most of them came in by their author
    assert gate.stats.forged + gate.stats.by_author <= CHECK_BURST + CHECK_RATE * SECONDS


def test_signature_checks_for_refused_entries_are_bounded_for_everyone() -> None:
    """Forged entries at 4000/s with the two players' addresses: at most CHECK_RATE
    signature checks a second; duplicates of held entries and entries of other games cost
    none."""
    table, honest = played()
    session = table.sessions[0]
    seats = {s.key: i for i, s in enumerate(session.seats)}
    gate = Admission()
    gate.known = {("10.0.0.7", 5000), ("10.0.0.7", 5001)}
    held = [len(c) for c in session.chains]
    fake = forged(wire.encode_message(Tag.ENTRY, [table.sessions[1].chains[1][-1].raw]))
    body = decode_entry(wire.decode_message(fake)[1][0]).body  # type: ignore[arg-type]
    assert body  # an entry for a slot beyond what seat 1 holds
    next_slot = [held[0], held[1] - 1]  # so that the forgery is for a slot not held yet
    for tick in range(4000 * SECONDS):
        now, source = tick / 4000, ("10.0.0.7", 5000 + tick % 2)
        if gate.admit(fake, source, now) is Verdict.BY_AUTHOR:
            assert not gate.vouch(fake, seats, next_slot, session.game_id, now)
    checks = gate.stats.forged
    assert 0 < checks <= CHECK_BURST + CHECK_RATE * SECONDS
    assert gate.stats.dropped_checks > 0
    for message in honest[:3]:  # held already: no check at all
        assert not gate.vouch(message, seats, held, session.game_id, SECONDS)
    assert gate.stats.forged == checks


def test_an_unproven_address_gets_at_most_the_allowance_until_it_echoes_its_token() -> None:
    replies = Replies(secret=b"k" * 16)
    stranger = ("10.0.0.9", 5000)
    sent = 0
    for size in (40, 60, 25, 1200, 3):
        replies.received(stranger, size)
        sent += size
    given = sum(size for size in [300] * 20 if replies.allow(stranger, size))
    assert given == 3600 <= AMPLIFICATION * sent  # and credit never exceeds 3 x 1200 bytes
    challenge = replies.challenge(stranger, now=0.0)
    assert challenge is not None and len(challenge) == 21
    assert replies.challenge(stranger, now=0.5) is None  # one a second at most
    assert not replies.prove(stranger, replies.token(("10.0.0.9", 5001)))  # another's token
    assert not replies.allow(stranger, 300)
    assert replies.prove(stranger, wire.decode_message(challenge)[1][0])  # type: ignore[arg-type]
    assert replies.allow(stranger, 1200) and replies.challenge(stranger, now=2.0) is None


def test_a_players_address_is_proven_without_a_challenge() -> None:
    replies = Replies(secret=b"k" * 16)
    replies.known = {VICTIM}
    assert replies.allow(VICTIM, 1200) and replies.challenge(VICTIM, now=0.0) is None


def test_garbage_and_an_over_eager_source_are_dropped_before_anything_is_decoded() -> None:
    gate = Admission()
    heads = wire.encode_message(Tag.HEADS, [b"g" * 16, [1], [b"h" * 32]])
    source = ("10.0.0.5", 4000)
    gate.known = {source}
    verdicts = [gate.admit(heads, source, now=0.0) for _ in range(BURST + 100)]
    assert verdicts.count(Verdict.PASS) == BURST and verdicts.count(Verdict.DROP_RATE) == 100
    for data in (b"GET / HTTP/1.0\r\n", bytes(2000), b"\x93\x09\x01\x02"):
        assert gate.admit(data, source, now=1.0) is Verdict.DROP_SHAPE
    assert gate.admit(heads, source, now=1.0) is Verdict.PASS  # the bucket refilled
    assert (gate.stats.received, gate.stats.dropped_rate, gate.stats.dropped_shape) == (
        BURST + 1, 100, 3)
