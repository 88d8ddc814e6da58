"""Pairwise keys from the seats' identities and the MAC on every datagram between seats:
a datagram from a seat's address without its MAC costs one hash, is never decoded (so never
a signature check) and gets no reply; the seat's own datagrams still count."""

from __future__ import annotations

from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.messages import EntryMessage, Heads
from p2p_burgundy.net.pairwise import (
    LABEL_SIZE,
    SEAL_SIZE,
    is_sealed,
    label,
    pairwise_key,
    seal,
)
from p2p_burgundy.net.wire import MAX_DATAGRAM
from tests.lan.sim import Net

ANNA, BO, CY = (Identity.from_private_bytes(bytes([n]) * 32) for n in (1, 2, 3))


def test_a_pair_shares_a_key_no_third_key_and_no_other_game_has() -> None:
    key = pairwise_key(ANNA, BO.public_key, b"g" * 16)
    assert key == pairwise_key(BO, ANNA.public_key, b"g" * 16)
    assert key != pairwise_key(ANNA, CY.public_key, b"g" * 16)
    assert key != pairwise_key(CY, BO.public_key, b"g" * 16)
    assert key != pairwise_key(ANNA, BO.public_key, b"h" * 16)


def test_datagrams_between_seats_are_sealed_and_forged_ones_cost_a_hash_and_no_reply() -> None:
    net = Net.with_table(2, seed=5, loss=0.0, duplication=0.0)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 4
                        for p in net.peers), limit=300)
    host, joiner = net.peers
    session = host.session
    assert session is not None and joiner.session is not None
    sent = host.flush(net.now) + [(d, a) for d, a in joiner.flush(net.now)]
    session.handle_timer(net.now + 1)  # a HEADS to the joiner
    out = host.flush(net.now + 1)
    assert out and all(is_sealed(data) for data, _ in out + sent)
    # Forged entries in the joiner's name from its address: unsealed, or sealed with a key
    # that is not the pair's.
    entry = sign_entry(joiner.identity, session.game_id, len(session.chains[1]),
                       session.chains[1][-1].id, Kind.CHAT, ("forged",))
    forged = EntryMessage(entry.raw).encode()
    wrong = pairwise_key(CY, host.identity.public_key, session.game_id)
    stats, errors, held = host.node.admission.stats, host.node.errors, len(session.chains[1])
    received = stats.received
    for n in range(200):
        for datagram in (forged, seal(forged, wrong), forged[:-1] + b"x"):
            assert not host.node.receive(datagram, joiner.address, net.now + 1 + n / 1000)
    assert stats.unsealed == 600 and stats.received == received and stats.forged == 0
    assert host.node.errors == errors and len(session.chains[1]) == held
    assert host.flush(net.now + 1.2) == []  # no reply
    # The joiner's own sealed HEADS still counts (its address's budget is untouched).
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    key = pairwise_key(joiner.identity, host.identity.public_key, session.game_id)
    assert host.node.receive(seal(heads, key), joiner.address, net.now + 1.3)
    assert stats.received == received + 1
    assert len(seal(heads, key)) == len(heads) + SEAL_SIZE


def test_arrival_refuses_a_seats_address_without_its_mac_and_puts_players_first() -> None:
    """The transport's check as a datagram arrives (before any queue) refuses what the MAC
    refuses, and only that: the seat's own sealed datagram goes ahead of strangers'."""
    net = Net.with_table(2, seed=5, loss=0.0, duplication=0.0)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 4
                        for p in net.peers), limit=300)
    host, joiner = net.peers
    session = host.session
    assert session is not None
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    key = pairwise_key(joiner.identity, host.identity.public_key, session.game_id)
    wrong = pairwise_key(CY, host.identity.public_key, session.game_id)
    stats = host.node.admission.stats
    unsealed = stats.unsealed
    # Unsealed, sealed with another key, a MAC that fails, longer than any datagram, the
    # right MAC behind another pair's label.
    too_long = seal(heads + bytes(MAX_DATAGRAM), key)
    relabelled = seal(heads, key)[:1] + label(wrong) + seal(heads, key)[1 + LABEL_SIZE:]
    for forged in (heads, seal(heads, wrong), seal(heads, key)[:-1] + b"x", too_long,
                   relabelled):
        assert host.node.arrival(forged, joiner.address) is Arrival.REFUSE
    assert stats.unsealed == unsealed + 5
    assert host.node.arrival(seal(heads, key), joiner.address) is Arrival.FIRST
    assert host.node.arrival(heads, ("10.9.9.9", 4000)) is Arrival.QUEUE
    assert stats.unsealed == unsealed + 5
