"""A player whose peer restarts on a new address (its old port taken) is found there within
seconds, only on proof by its key over a fresh nonce, and the game finishes; someone claiming
the seat from another address never gets its traffic. In process, on the chaos harness
(``tests/lan/sim.py``: the peers' real ``Node`` on a seeded link, a fake clock).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest

from p2p_burgundy.net.messages import Heads, Seated, Tag, Who, parse
from p2p_burgundy.net.node import (
    ASK_EVERY,
    COUNTER_BLOCK,
    MISSING_AFTER,
    QUIET_AFTER,
    SEATED_DOMAIN,
    WHO_ANSWER_BURST,
    WHO_ANSWER_RATE,
    SeatMoved,
    seated_message,
)
from p2p_burgundy.net.pairwise import SEAL_SIZE, counter_of, is_sealed, pairwise_key, seal
from p2p_burgundy.net.sync import HEADS_INTERVAL

from .sim import Machine, Net, address_of

NEW = ("10.231.0.99", 5999)  # where the restarted peer gets a port
ATTACKER = ("10.231.0.66", 6666)
MAX_DELAY = 0.3  # the link's longest delay (sim.Link)
FOUND_WITHIN = 3.0  # seconds from a seat's restart on a new port to the others sending there


def started(players: int, seed: int, loss: float) -> Net:
    net = Net.with_table(players, seed, loss=loss, duplication=0.1 if loss else 0.0)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 10
                        for p in net.peers), limit=600)
    return net


def moves(peer: Machine) -> list[SeatMoved]:
    return [e for e in peer.events if isinstance(e, SeatMoved)]


def test_a_seat_back_on_a_new_port_is_heard_there_before_it_could_show_missing() -> None:
    net = started(3, seed=11, loss=0.0)
    back = net.restart(net.peers[2], NEW)
    others = net.peers[:2]
    restarted = net.now
    shown_missing: set[int] = set()

    def found() -> bool:
        for p in others:
            shown_missing.update(p.node.missing(net.now))
        return all(p.node.addresses[2] == NEW for p in others)

    # Quiet at its old address for QUIET_AFTER, then its next HEADS brings a WHO, answered
    # at once: one round trip on top.
    net.run(found, limit=restarted + QUIET_AFTER + HEADS_INTERVAL + 2 * MAX_DELAY + 0.1)
    assert net.now - restarted < MISSING_AFTER
    net.run(lambda: found() and net.converged(), limit=net.now + 1800)
    assert shown_missing == set(), "a seat was shown missing"
    for p in others:
        assert moves(p) == [SeatMoved(2, NEW)]
        assert NEW in p.node.broadcast_targets() and address_of(2) not in \
            p.node.broadcast_targets()
    assert back.session is not None and back.session.state.is_over


@pytest.mark.parametrize("seed", range(4))
def test_under_loss_a_seat_back_on_a_new_port_is_found_and_the_game_finishes(seed: int) -> None:
    players = 2 + seed % 3
    net = started(players, seed, loss=0.3)
    gone = net.peers[seed % players]  # the host too, for seed 0
    net.restart(gone, NEW)
    others = [p for p in net.peers if p.index != gone.index]
    restarted = net.now
    net.run(lambda: all(p.node.addresses[gone.index] == NEW for p in others),
            limit=restarted + 10.0)  # a WHO and its answer each get through half the time
    net.run_game(limit=net.now + 1800)
    for p in others:
        assert gone.index not in p.node.missing(net.now)


def check_counters_saved(peer: Machine, sent: Callable[[int], None]) -> None:
    """From now on, check that every counter ``peer`` seals with was reserved (and saved)
    before it was sent, and hand each to ``sent``."""
    flush = peer.flush

    def checking(now: float) -> list[tuple[bytes, tuple[str, int]]]:
        out = flush(now)
        for data, _ in out:
            if is_sealed(data):
                assert counter_of(data) < peer.reserved, "a counter sent before it was saved"
                sent(counter_of(data))
        return out

    peer.flush = checking  # type: ignore[method-assign]


def test_a_seat_whose_clock_went_back_while_it_was_down_is_heard_again_at_once() -> None:
    """Seat 1 stops, is shown missing, and restarts at its own address with its clock back
    at the moment the game began: its seals' counters start from the reservation saved
    beside its game file, above every counter it used, not from the clock (the host's
    window would refuse those for good), so the host hears it at its first HEADS and the
    game finishes. No counter is sent before its reservation is saved."""
    net = started(2, seed=5, loss=0.0)
    host, gone = net.peers
    counters: list[int] = []  # those seat 1 sent
    check_counters_saved(gone, counters.append)
    until = net.now + 1.0
    net.run(lambda: net.now >= until, limit=until + 1)
    gone.online = False
    net.run(lambda: 1 in host.node.missing(net.now), limit=net.now + MISSING_AFTER + 1)
    saved = gone.reserved
    assert 0 < max(counters) < saved <= max(counters) + COUNTER_BLOCK
    back = net.restart(gone, gone.address, clock=0.0)
    restarted = net.now
    net.run(lambda: 1 not in host.node.missing(net.now),
            limit=restarted + HEADS_INTERVAL + MAX_DELAY + 0.1)
    assert back.reserved == saved + COUNTER_BLOCK  # its first seal reserved the next block
    net.run_game(limit=net.now + 1800)


def test_a_seat_reserves_its_next_block_of_counters_before_it_seals_with_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With blocks of 8 counters, a game's seals use up block after block: each time the
    next counter would leave the reservation, the node reserves the next block, and its
    driver saves it before the datagram is sent, so a restart never repeats a counter."""
    monkeypatch.setattr("p2p_burgundy.net.node.COUNTER_BLOCK", 8)
    net = started(2, seed=5, loss=0.0)
    peer = net.peers[1]
    reservations = [peer.reserved]

    def noting(_: int) -> None:
        if peer.reserved != reservations[-1]:
            reservations.append(peer.reserved)

    check_counters_saved(peer, noting)
    until = net.now + 5.0
    net.run(lambda: net.now >= until, limit=until + 1)
    steps = {b - a for a, b in itertools.pairwise(reservations)}
    assert len(reservations) > 3 and steps == {8}


def sniff(peer: Machine, sniffed: list[bytes]) -> None:
    """Add to ``sniffed`` every SEATED ``peer`` sends from now on (the attacker reads the
    wire)."""
    sends = peer.flush

    def flush(now: float) -> list[tuple[bytes, tuple[str, int]]]:
        out = sends(now)
        for data, _ in out:  # a MAC hides nothing: the message follows it in clear
            message = data[SEAL_SIZE:] if is_sealed(data) else data
            if parse(message).TAG == Tag.SEATED:
                sniffed.append(message)
        return out

    peer.flush = flush  # type: ignore[method-assign]


def test_a_spoofer_claiming_a_seat_from_another_address_never_gets_its_traffic() -> None:
    """Seat 2 restarts on a new port and proves it there, while an attacker reads every
    datagram it sends. Then it restarts on another port; meanwhile the attacker talks about
    the game from its own address, relays each WHO it gets to the seat as if from the peer
    that asked, replays the seat's earlier SEATED answers, and answers with the nonce it got
    and a signature made for something else; once the seat has moved, it talks from the
    seat's previous port too (it took it). Seat 2 ends where it is, and the game finishes."""
    net = started(3, seed=12, loss=0.0)
    others = net.peers[:2]
    first = net.restart(net.peers[2], NEW)
    sniffed: list[bytes] = []
    sniff(first, sniffed)
    net.run(lambda: all(p.node.addresses[2] == NEW for p in others), limit=net.now + 10)
    assert len(sniffed) == 2  # one proof for each of the others
    newer = ("10.231.0.98", 5998)
    back = net.restart(first, newer)
    sniff(back, sniffed)
    session = others[0].session
    assert session is not None
    for address in (ATTACKER, NEW):
        net.taps[address] = []
    forged = relayed = 0
    next_heads = net.now

    def attack(source: tuple[str, int]) -> None:
        nonlocal forged, relayed
        for data, sender in net.taps[source]:
            message = parse(data[SEAL_SIZE:] if is_sealed(data) else data)
            if not isinstance(message, Who):
                continue
            asker = next(p for p in others if p.address == sender)
            # Relayed as if from the asker (the seat answers a WHO from a seat's address):
            # the seat does not sign for an address that is not its own.
            signed = len(sniffed)
            back.node.receive(data, asker.address, net.now)
            net.flush(back)
            relayed += 1
            assert len(sniffed) == signed, "the seat signed for the attacker's address"
            errors = asker.node.errors
            for replayed in sniffed:  # answers for another address and nonce: no check
                asker.node.receive(replayed, source, net.now)
            assert asker.node.errors == errors
            # The nonce we were sent, with a signature made for something else.
            seated = parse(sniffed[-1])
            assert isinstance(seated, Seated)
            asker.node.receive(Seated(message.game_id, 2, message.nonce,
                                      seated.signature).encode(), source, net.now)
            forged += asker.node.errors - errors
            net.flush(asker)
        net.taps[source].clear()

    def step() -> bool:
        nonlocal next_heads
        moved = all(p.node.addresses[2] == newer for p in others)
        sources = [ATTACKER, NEW] if moved else [ATTACKER]
        if net.now >= next_heads:  # HEADS are unsigned: anyone can send them
            next_heads = net.now + HEADS_INTERVAL
            heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                          tuple(c[-1].id for c in session.chains)).encode()
            for source in sources:
                for p in others:
                    p.node.receive(heads, source, net.now)
                    net.flush(p)
        for source in sources:
            attack(source)
        for p in others:
            assert p.node.addresses[2] in (NEW, newer), "the seat's traffic went elsewhere"
        return moved and net.converged()

    net.run(step, limit=net.now + 1800)
    assert relayed > 0 and forged == relayed, "the attack did not happen"
    for p in others:
        assert p.node.addresses[2] == newer
        assert moves(p) == [SeatMoved(2, NEW), SeatMoved(2, newer)]
        assert 2 not in p.node.missing(net.now)


def test_whos_are_paced_per_address_and_answers_cost_a_check_only_for_a_nonce_we_sent(
        ) -> None:
    """While a seat is quiet, each unknown address that talks about the game gets a WHO at most
    once per ASK_EVERY, with a nonce made for that address and epoch (no memory to push a
    question out of); an answer with a nonce we did not send that address costs no check, and
    a wrong one is checked once."""
    net = started(3, seed=13, loss=0.0)
    asker, seat = net.peers[0], net.peers[2]
    session = asker.session
    assert session is not None
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    quiet = net.now + QUIET_AFTER + 1  # nobody delivered since: every seat is quiet
    strangers = [(f"10.232.{n // 200}.{n % 200}", 7000 + n) for n in range(256)]

    def whos(now: float, sources: list[tuple[str, int]]) -> dict[tuple[str, int], bytes]:
        for source in sources:
            asker.node.receive(heads, source, now)
        return {address: parse(data).nonce for data, address in asker.flush(now)
                if parse(data).TAG == Tag.WHO}

    first = whos(quiet, strangers[:32])
    assert set(first) == set(strangers[:32]) and len(set(first.values())) == 32
    assert whos(quiet + ASK_EVERY / 2, strangers[:32]) == {}  # too soon: nothing sent
    for chunk in range(32, 256, 32):  # (the node sends at most 32 of its own a flush)
        assert set(whos(quiet + ASK_EVERY / 2, strangers[chunk:chunk + 32])) == \
            set(strangers[chunk:chunk + 32])
    # 224 more addresses asked since: the first one's answer still counts.
    def answer(nonce: bytes, source: tuple[str, int], signer: int = 2) -> bytes:
        signature = net.peers[signer].identity.sign(SEATED_DOMAIN, seated_message(
            session.game_id, nonce, 0, 2, source))
        return Seated(session.game_id, 2, nonce, signature).encode()

    errors = asker.node.errors
    asker.node.receive(answer(first[strangers[1]], strangers[0]), strangers[0], quiet + 1)
    assert asker.node.errors == errors  # another address's nonce: not even checked
    asker.node.receive(answer(first[strangers[0]], strangers[0], signer=1), strangers[0],
                       quiet + 1)
    assert asker.node.errors == errors + 1  # the right nonce, a wrong signature: one check
    asker.node.receive(answer(first[strangers[0]], strangers[0]), strangers[0], quiet + 1)
    assert asker.node.errors == errors + 1  # checked once per address and nonce
    asker.node.receive(answer(first[strangers[1]], strangers[1]), strangers[1], quiet + 1)
    assert asker.node.addresses[2] == strangers[1] and seat.session is not None


def test_a_seat_back_on_a_new_port_is_found_within_3_s_under_a_heads_flood() -> None:
    """HEADS from 32 addresses at 5 a second each (160/s, under every budget) while a seat
    restarts on a new port: it is found there within FOUND_WITHIN of its restart."""
    net = started(3, seed=11, loss=0.0)
    session = net.peers[0].session
    assert session is not None
    heads = Heads(session.game_id, tuple(len(c) for c in session.chains),
                  tuple(c[-1].id for c in session.chains)).encode()
    flooders = [(f"10.231.2.{n}", 8000 + n) for n in range(32)]
    back = net.restart(net.peers[2], NEW)
    others = net.peers[:2]
    restarted = flood_at = net.now
    while not all(p.node.addresses[2] == NEW for p in others):
        assert net.now - restarted < FOUND_WITHIN, "not found under the flood"
        if net.now >= flood_at:
            flood_at += 0.2
            for p in others:
                for flooder in flooders:
                    p.node.receive(heads, flooder, net.now)
                net.flush(p)
        net.step()
    assert back.session is not None
    net.run(net.converged, limit=net.now + 1800)


def test_who_answers_are_paced_per_address() -> None:
    """1000 WHOs a second from a seat's address draw no answer without the seat's MAC; with
    it (replayed: a MAC does not stop a replay, and each WHO may bring a new nonce), at most
    WHO_ANSWER_RATE signed SEATED answers a second (plus the burst); an honest WHO after them
    is answered."""
    net = started(2, seed=3, loss=0.0)
    seat, asker = net.peers[0], net.peers[1]
    session = seat.session
    assert session is not None and asker.session is not None
    key = pairwise_key(asker.identity, seat.identity.public_key, session.game_id)
    begin = net.now

    def answers(now: float, count: int, sealed: bool = True) -> int:
        for n in range(count):
            who = Who(session.game_id, n.to_bytes(16, "big"), *seat.address).encode()
            seat.node.receive(seal(who, key, asker.identity.public_key, n) if sealed else who,
                              asker.address, now + n / count)
        return sum(parse(data[SEAL_SIZE:]).TAG == Tag.SEATED
                   for data, address in seat.flush(now + 1) if address == asker.address)

    assert answers(begin, 1000, sealed=False) == 0
    assert answers(begin + 1, 1000) == WHO_ANSWER_BURST + WHO_ANSWER_RATE * 1 - 1 == 3
    assert answers(begin + 2, 1000) == WHO_ANSWER_RATE == 2
    assert answers(begin + 4, 1) == 1  # the flood over, one WHO: one answer
