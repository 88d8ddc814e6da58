"""Pairwise keys from the seats' identities and the seal on every datagram between seats:
a datagram from a seat's address without its MAC costs at most one hash, is never decoded
(so never a signature check) and gets no reply; each datagram's label is taken once, so a
copy of one is refused for a lookup; a seat whose counters jumped (lost datagrams, a restart)
is taken again after a second of silence; the seat's own datagrams still count."""

from __future__ import annotations

import pytest

from p2p_burgundy.net import pairwise
from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.messages import EntryMessage, Heads
from p2p_burgundy.net.node import RELAXED_FOR, RESYNC_AFTER
from p2p_burgundy.net.pairwise import (
    AHEAD,
    BEHIND,
    SEAL_SIZE,
    Window,
    is_sealed,
    label,
    opened,
    pairwise_key,
    seal,
)
from p2p_burgundy.net.wire import MAX_DATAGRAM
from tests.lan.sim import Machine, Net

ANNA, BO, CY = (Identity.from_private_bytes(bytes([n]) * 32) for n in (1, 2, 3))
GAME = bytes(range(16))
KEY = pairwise_key(ANNA, BO.public_key, GAME)
NOW = 1764167400000000  # microseconds: a counter that starts from the clock


def test_a_pair_shares_a_key_no_third_key_and_no_other_game_has() -> None:
    key = pairwise_key(ANNA, BO.public_key, b"g" * 16)
    assert key == pairwise_key(BO, ANNA.public_key, b"g" * 16)
    assert key != pairwise_key(ANNA, CY.public_key, b"g" * 16)
    assert key != pairwise_key(CY, BO.public_key, b"g" * 16)
    assert key != pairwise_key(ANNA, BO.public_key, b"h" * 16)


def test_the_seal_matches_the_documented_test_vector() -> None:
    """docs/protocol.md, "Session messages": Anna (seed 01 x 32) seals "hello" to Bo (seed
    02 x 32) in game 000102..0f as her datagram number 1764167400000000."""
    assert KEY.hex() == "cede3804432ed1555116537a32a681e95bb687102bda77d9c3173f23ef8f69a5"
    sealed = seal(b"hello", KEY, ANNA.public_key, NOW)
    assert sealed.hex() == ("c1" "8ff31fc9e6af1f3f" "000644803b338a00"
                            "58cedc46ecb4559eb28399ec92e4b123" "68656c6c6f")
    assert len(sealed) == SEAL_SIZE + 5 == 38
    assert opened(sealed, KEY, ANNA.public_key) == b"hello"
    # Not Bo's: each direction has its own labels.
    assert opened(sealed, KEY, BO.public_key) is None
    assert label(KEY, BO.public_key, NOW) != label(KEY, ANNA.public_key, NOW)


def test_a_window_takes_each_counter_once_around_the_highest_and_relaxed_any_later() -> None:
    window = Window(KEY, ANNA.public_key)  # Bo's, for Anna's datagrams

    def sealed(counter: int, message: bytes = b"m") -> bytes:
        return seal(message, KEY, ANNA.public_key, counter)

    def labels(*counters: int) -> tuple[bytes, ...]:
        return tuple(label(KEY, ANNA.public_key, c) for c in counters)

    # Relaxed until it took one: it cannot know where Anna's counter is.
    assert window.relaxed and window.labels is None
    assert window.take(sealed(NOW)) == b"m"
    assert window.take(sealed(NOW)) is None  # a copy
    window.tighten()
    assert window.labels == labels(*range(NOW - BEHIND + 1, NOW), *range(NOW + 1, NOW + AHEAD + 1))
    assert len(window.labels) == BEHIND - 1 + AHEAD == 19
    # Beyond the window, Anna's label of another counter, Bo's label: refused.
    assert window.take(sealed(NOW + AHEAD + 1)) is None
    assert window.take(sealed(NOW + 1)[:1] + labels(NOW + 2)[0] + sealed(NOW + 1)[9:]) is None
    assert window.take(seal(b"m", KEY, BO.public_key, NOW + 1)) is None
    # Overtaken datagrams are taken once each, as long as they are within BEHIND.
    published = window.labels
    assert window.take(sealed(NOW + 3)) == b"m" and window.take(sealed(NOW + 1)) == b"m"
    assert window.top == NOW + 3 and window.labels is published  # the kernel's, unchanged
    # A copy that got through (the kernel still takes its label): refused, and the labels
    # are renewed without those taken, so that the kernel drops the next copies.
    assert window.take(sealed(NOW + 1)) is None
    assert window.labels == labels(NOW + 2, *range(NOW + 4, NOW + 3 + AHEAD + 1))
    # A label copied with a false MAC costs one MAC check: its counter is given up (the
    # seat's own datagram with it is lost, and repaired like any lost one).
    assert window.take(sealed(NOW + 2)[:-1] + b"x") is None
    assert window.take(sealed(NOW + 2)) is None
    assert window.labels == labels(*range(NOW + 4, NOW + 3 + AHEAD + 1))
    # Someone copies the seat's labels: from now on they are renewed with every datagram.
    assert window.take(sealed(NOW + 4)) == b"m"
    assert window.labels == labels(*range(NOW + 5, NOW + 4 + AHEAD + 1))
    assert window.take(sealed(NOW)) is None  # too far below the top
    # More than AHEAD lost in a row, or Anna restarted: relaxed, any later counter, once.
    jumped = NOW + 10**9
    assert window.take(sealed(jumped)) is None
    window.relax()
    assert window.labels is None and not window.followed
    assert window.take(sealed(NOW + 4 - BEHIND)) is None  # older than the window
    assert window.take(sealed(jumped)) == b"m" and window.take(sealed(jumped)) is None
    assert window.followed and window.top == jumped
    window.tighten()
    assert window.labels == labels(*range(jumped - BEHIND + 1, jumped),
                                   *range(jumped + 1, jumped + AHEAD + 1))
    # Otherwise they are renewed once the seat used half of those ahead.
    for counter in range(jumped + 1, jumped + AHEAD // 2):
        assert window.take(sealed(counter)) == b"m"
    assert window.labels == labels(*range(jumped - BEHIND + 1, jumped),
                                   *range(jumped + 1, jumped + AHEAD + 1))
    assert window.take(sealed(jumped + AHEAD // 2)) == b"m"
    top = jumped + AHEAD // 2
    assert window.labels == labels(*range(top + 1, top + AHEAD + 1))


def playing(seed: int = 5) -> tuple[Net, Machine, Machine]:
    net = Net.with_table(2, seed=seed, loss=0.0, duplication=0.0)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 4
                        for p in net.peers), limit=300)
    host, joiner = net.peers
    return net, host, joiner


def test_datagrams_between_seats_are_sealed_and_forged_ones_cost_a_hash_and_no_reply() -> None:
    net, host, joiner = playing()
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
    received, unsealed = stats.received, stats.unsealed
    for n in range(200):
        for datagram in (forged, seal(forged, wrong, joiner.identity.public_key, n),
                         forged[:-1] + b"x"):
            assert not host.node.receive(datagram, joiner.address, net.now + 1 + n / 1000)
    assert stats.unsealed == unsealed + 600 and stats.received == received and stats.forged == 0
    assert host.node.errors == errors and len(session.chains[1]) == held
    assert host.flush(net.now + 1.2) == []  # no reply
    # The joiner's own sealed HEADS still counts (its address's budget is untouched).
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    key = pairwise_key(joiner.identity, host.identity.public_key, session.game_id)
    assert host.node.receive(seal(heads, key, joiner.identity.public_key, 0), joiner.address,
                             net.now + 1.3)
    assert stats.received == received + 1


def test_arrival_takes_a_seats_datagram_once_and_refuses_what_it_did_not_seal() -> None:
    """The transport's check as a datagram arrives (before any queue) refuses what the seal
    refuses, and a copy of a datagram taken: the seat's own goes ahead of strangers'."""
    _, host, joiner = playing()
    session = host.session
    assert session is not None
    window = host.node._windows[1]
    assert not window.relaxed and window.top is not None  # it followed the joiner
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    key = pairwise_key(joiner.identity, host.identity.public_key, session.game_id)
    wrong = pairwise_key(CY, host.identity.public_key, session.game_id)
    nxt = window.top + 1
    own = seal(heads, key, joiner.identity.public_key, nxt)
    stats = host.node.admission.stats
    unsealed = stats.unsealed
    # Unsealed, sealed with another key, a MAC that fails (for another counter: that one is
    # given up), longer than any datagram, the right MAC behind the label of another counter,
    # the host's own label for that counter.
    too_long = seal(heads + bytes(MAX_DATAGRAM), key, joiner.identity.public_key, nxt)
    relabelled = own[:1] + label(key, joiner.identity.public_key, nxt + 1) + own[9:]
    mirrored = seal(heads, key, host.identity.public_key, nxt)
    false_mac = seal(heads, key, joiner.identity.public_key, nxt + 2)[:-1] + b"x"
    for forged in (heads, seal(heads, wrong, joiner.identity.public_key, nxt), false_mac,
                   too_long, relabelled, mirrored):
        assert host.node.arrival(forged, joiner.address) is Arrival.REFUSE
    assert stats.unsealed == unsealed + 6
    sealing = host.node.sealing
    assert host.node.sealing is sealing  # built once while the labels stay
    assert host.node.arrival(own, joiner.address) is Arrival.FIRST
    assert host.node.arrival(own, joiner.address) is Arrival.REFUSE  # a replay
    renewed = host.node.sealing  # renewed: the kernel drops the next one
    assert renewed is not sealing and host.node.sealing is renewed
    labels = renewed[joiner.address]
    assert labels is not None and label(key, joiner.identity.public_key, nxt) not in labels
    assert host.node.arrival(heads, ("10.9.9.9", 4000)) is Arrival.QUEUE
    assert stats.unsealed == unsealed + 7


def test_a_datagram_proved_as_it_arrived_is_not_hashed_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat's own datagram costs one MAC check as it arrives and no hash at all as it is
    received; a copy of it is still refused as it arrives, with no hash."""
    _, host, joiner = playing()
    session = host.session
    assert session is not None
    window = host.node._windows[1]
    assert not window.relaxed and window.top is not None
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    key = pairwise_key(joiner.identity, host.identity.public_key, session.game_id)
    own = seal(heads, key, joiner.identity.public_key, window.top + 1)
    hashes = {"label": 0, "mac": 0}
    real_label, real_mac = pairwise.label, pairwise._mac

    def counted_label(*args: bytes | int) -> bytes:
        hashes["label"] += 1
        return real_label(*args)  # type: ignore[arg-type]

    def counted_mac(*args: bytes) -> bytes:
        hashes["mac"] += 1
        return real_mac(*args)

    monkeypatch.setattr(pairwise, "label", counted_label)
    monkeypatch.setattr(pairwise, "_mac", counted_mac)
    assert host.node.arrival(own, joiner.address) is Arrival.FIRST
    assert hashes["mac"] == 1
    hashes.update(label=0, mac=0)
    stats = host.node.admission.stats
    received, unsealed = stats.received, stats.unsealed
    assert host.node.receive(own, joiner.address, 100.0)
    assert hashes == {"label": 0, "mac": 0} and stats.received == received + 1
    assert host.node.arrival(bytes(own), joiner.address) is Arrival.REFUSE  # a copy
    assert hashes["mac"] == 0 and stats.unsealed == unsealed + 1
    # Received without arrival (no driver does that), it is opened: a label and a MAC.
    assert host.node.receive(own, joiner.address, 100.1)
    assert hashes == {"label": 1, "mac": 1}


def test_a_seat_whose_peer_restarted_is_taken_again_after_a_second_of_silence() -> None:
    """The joiner's peer restarts on the same address: its counters start again from the
    clock, far above the host's window, so the host refuses them (as its kernel would) until
    the seat has been silent for RESYNC_AFTER; then the window takes the new counters, and
    once it followed them for RELAXED_FOR it takes only those around them: a replay of the
    old run's datagrams is refused throughout. The game then finishes."""
    net, host, joiner = playing()
    window, stats = host.node._windows[1], host.node.admission.stats
    assert joiner.session is not None and not window.relaxed
    joiner.session.handle_timer(net.now)
    old = [data for data, address in joiner.flush(net.now) if address == host.address]
    restarted = net.now
    back = net.restart(joiner, joiner.address)
    assert host.node.sealing[back.address] == window.labels is not None
    refused = stats.unsealed
    net.run(lambda: window.relaxed, limit=net.now + RESYNC_AFTER + 1)
    assert net.now - restarted >= RESYNC_AFTER - 0.5  # the last datagram heard came before
    assert stats.unsealed > refused  # the restarted seat's, refused meanwhile
    assert host.node.sealing == {back.address: None}  # the kernel takes any label now
    net.run(lambda: not window.relaxed, limit=net.now + RELAXED_FOR + 2)
    assert window.top is not None and window.top >= int(restarted * 1_000_000)
    assert window.labels is not None and host.node.sealing == {back.address: window.labels}
    assert [host.node.arrival(data, back.address) for data in old] == [Arrival.REFUSE] * len(old)
    net.run_game(limit=net.now + 600)
