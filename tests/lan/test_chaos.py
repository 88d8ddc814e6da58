"""Property 5: under 30% loss, duplication, reordering and a temporary partition of one peer,
every peer converges to the same log and finishes the game (in process, seeded, no sockets).

The peers are sans-I/O sessions (and lobbies) routed like ``net/peer.py`` routes them, on the
seeded :class:`~tests.lan.sim.Link` of ``tests/lan/sim.py``; a fake clock fires their timers.
"""

from __future__ import annotations

import contextlib
import functools
import math

import pytest

from p2p_burgundy import END_TURN, GameConfig, state_hash
from p2p_burgundy.net import identity, log
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.clock import GameClock, TimeControl
from p2p_burgundy.net.errors import LocalProtocolError, ProtocolError
from p2p_burgundy.net.events import ChatReceived, EntryRejected
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.lobby import HostLobby, JoinLobby
from p2p_burgundy.net.log import decode_entry
from p2p_burgundy.net.messages import Tag, parse
from p2p_burgundy.net.policy import HandOverPolicy
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.tablerules import TableRules

from .sim import Machine, Net, final_hash, random_turn

CHAOS_SEEDS = range(21)  # whole games: 7 each of 2, 3 and 4 players
PARTITION_SEEDS = range(200)  # games of 2, 3 and 4 players in turn, until healed


@pytest.fixture(autouse=True)
def each_signature_checked_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every peer checks the signature of each entry it gets, and each replay of a game file
    checks them all again: the same Ed25519 verification of the same bytes up to eight times,
    a third of a chaos game's time. It is a pure function of those bytes, so within a test
    each distinct (author, body, signature) is verified once, by the real function, and its
    answer reused: a forged or altered entry is other bytes, and is checked."""
    monkeypatch.setattr(log, "verify", functools.cache(identity.verify))


def replayed_hash(peer: Machine) -> bytes:
    """The state hash a fresh session reaches from this peer's game file alone."""
    assert peer.session is not None
    session = Session(decode_entry(peer.file[0]), peer.identity if
                      peer.session.my_seat is not None else None)
    for raw in peer.file[1:]:
        with contextlib.suppress(ProtocolError):
            session.receive_entry(raw)
    return state_hash(session.state)


def apply_policies(net: Net, live: list[Machine], policies: dict[int, HandOverPolicy],
                   away: int) -> None:
    """Each live peer's hand-over policy at work, as a client's table runs it: it observes
    who is missing and agrees to hand over what it finds gone (only seat ``away`` may be)."""
    for p in live:
        s, policy = p.session, policies[p.index]
        assert s is not None
        policy.observe(s, p.node.missing(net.now), net.now)
        for seat in policy.gone(s.step, net.now):
            assert seat == away, f"peer {p.index} handed over seat {seat}, not {away}"
            policy.agreed(seat, s.step)
            s.agree_seat_to_bot(seat)
            net.flush(p)


def assert_converged(net: Net) -> None:
    peers = net.peers
    assert all(p.session is not None and p.session.state.is_over for p in peers)
    assert len({p.canonical() for p in peers}) == 1, "chains differ"
    assert len({tuple(p.hashes()) for p in peers}) == 1, "state hash sequences differ"
    assert len({final_hash(p) for p in peers}) == 1
    for p in peers:
        # Every entry of the canonical log was saved by this peer before it was used.
        assert p.session is not None
        assert {e.raw for e in p.session.canonical_entries()} <= set(p.file)
        assert replayed_hash(p) == final_hash(p)


@pytest.mark.parametrize("seed", CHAOS_SEEDS)
def test_peers_converge_and_finish_under_loss_duplication_reordering_and_a_partition(
    seed: int,
) -> None:
    players = 2 + seed % 3
    net = Net.with_table(players, seed, loss=0.3, duplication=0.1, partition=True)
    net.run_game(limit=1800)
    assert_converged(net)
    link = net.link
    assert 0.25 < link.lost / link.sent < 0.7  # the link really lost that much
    partition = link.partitions[0]
    assert partition.start < net.now  # the partition fell inside the game...
    assert partition.cut > 0  # ...and cut off datagrams that mattered
    assert net.now > partition.end  # the game outlived the partition


@pytest.mark.parametrize("seed", PARTITION_SEEDS)
def test_a_peer_cut_off_mid_game_under_loss_catches_up_once_the_partition_ends(
    seed: int,
) -> None:
    """Every seed's partition falls inside its game (it starts at a turn, not at a time) and
    cuts datagrams off; once it ends, the peer it cut off gets past the step the others had
    reached, holding exactly the entries they hold (each seat's chain a prefix of the
    longest)."""
    net = Net.with_table(2 + seed % 3, seed, loss=0.3, duplication=0.1, partition=True)
    partition = net.link.partitions[0]
    net.run(lambda: net.now > partition.end, limit=600)
    assert partition.cut > 0
    sessions = [p.session for p in net.peers]
    assert all(s is not None and not s.state.is_over for s in sessions)
    reached = max(s.step for s in sessions if s is not None)
    cut_off = sessions[partition.peer]
    assert cut_off is not None
    net.run(lambda: cut_off.step > reached, limit=net.now + 600)
    for seat in range(len(cut_off.chains)):
        chains = [[e.raw for e in s.chains[seat]] for s in sessions if s is not None]
        longest = max(chains, key=len)
        assert all(chain == longest[:len(chain)] for chain in chains)


@pytest.mark.parametrize("seed", range(6))
def test_lobby_then_game_under_loss_with_a_spectator(seed: int) -> None:
    players = 2 + seed % 3
    net = Net.with_lobby(players, seed, spectators=1, loss=0.3, duplication=0.1)
    net.run_game(limit=1800)
    assert_converged(net)
    spectator = net.peers[-1]
    assert spectator.session is not None and spectator.session.my_seat is None
    with pytest.raises(LocalProtocolError):
        spectator.session.submit_turn([END_TURN])
    host = net.peers[0].lobby
    assert isinstance(host, HostLobby)
    assert sorted(m.name for m in host.members) == [f"p{i}" for i in range(players)]
    assert len({m.colour for m in host.members}) == players  # everyone got a free colour


@pytest.mark.parametrize("seed", range(8))
def test_spectator_joining_mid_game_under_loss_catches_up(seed: int) -> None:
    net = Net.with_lobby(2, seed, loss=0.3, duplication=0.1)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 10
                        for p in net.peers), limit=600)
    spectator = net.add_joiner(Identity.from_private_bytes(bytes([seed + 100]) * 32))
    net.run_game(limit=net.now + 600)
    assert_converged(net)
    assert spectator.session is not None and spectator.session.my_seat is None


@pytest.mark.parametrize("seed", range(3))
def test_chat_between_players_arrives_everywhere_as_log_entries(seed: int) -> None:
    net = Net.with_lobby(3, seed, spectators=1, loss=0.3, duplication=0.1)
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 4
                        for p in net.peers), limit=600)
    lines = {0: "good luck", 1: "ha, the dice love me", 2: "gg"}  # by peer
    said = set()
    for index, text in lines.items():
        peer = net.peers[index]
        assert peer.session is not None and peer.session.my_seat is not None
        peer.session.send_chat(text)
        net.flush(peer)
        said.add((peer.session.my_seat, text))  # seats follow the order players joined in
    net.run_game(limit=net.now + 1800)
    assert_converged(net)
    for peer in net.peers:
        chats = {(e.seat, e.text) for e in peer.events if isinstance(e, ChatReceived)}
        assert chats == said, f"peer {peer.index} saw {chats}"


def test_retransmitted_hello_gets_the_same_challenge() -> None:
    """A joiner proves the first WELCOME it got; a HELLO repeated meanwhile (lost WELCOME,
    duplicated datagram) must not replace the challenge it is proving."""
    host_id, joiner_id = (Identity.from_private_bytes(bytes([i]) * 32) for i in (1, 2))
    from p2p_burgundy.net import wire

    host = HostLobby(host_id, b"g" * 16, GameConfig(players=2), "Ann", "red",
                     contribution=b"h" * 16)
    joiner = JoinLobby(joiner_id, ("10.231.0.2", 4000), "Bob", "blue", nonce=b"n" * 16,
                       contribution=b"j" * 16)
    source = ("10.231.0.3", 5000)
    hello = joiner.datagrams_to_send()[0][0]
    welcomes = []
    for nonce in (b"a" * 16, b"b" * 16):
        host.receive(parse(hello), source, nonce)
        welcomes += host.datagrams_to_send()
    assert welcomes[0][0] == welcomes[1][0]
    joiner.receive(parse(welcomes[1][0]), joiner.host)
    (prove, _), = joiner.datagrams_to_send()
    assert wire.decode_message(prove)[0] == Tag.PROVE
    host.receive(parse(prove), source, b"c" * 16)
    assert [m.name for m in host.members] == ["Ann", "Bob"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(8))
def test_seat_handed_to_a_bot_under_loss_finishes_and_the_log_verifies(seed: int) -> None:
    """One player vanishes for good mid-game; the others agree (signed SEAT_TO_BOT entries)
    and the lowest live seat plays its turns. Every live peer ends with the same log, and
    ``burgundy verify``'s audit accepts it from the bytes alone, in canonical order."""
    players = 3 + seed % 2
    net = Net.with_table(players, seed, loss=0.3, duplication=0.1)
    gone = net.peers[seed % players]  # the host too, for seed 0
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 12
                        for p in net.peers), limit=600)
    gone.online = False
    live = [p for p in net.peers if p is not gone]
    # The table policy of `burgundy bot --replace-missing 2` and the terminal client.
    policies = {p.index: HandOverPolicy(after=2.0) for p in live}

    def hand_over() -> bool:
        apply_policies(net, live, policies, gone.index)
        return all(p.session is not None and p.session.state.is_over for p in live) and len(
            {p.canonical() for p in live}) == 1

    net.run(hand_over, limit=net.now + 1800)
    for p in live:
        assert p.session is not None and gone.index in p.session.forfeits
        own = [e for e in p.events if isinstance(e, EntryRejected) and e.seat == p.index]
        assert not own, "a peer's own entry was rejected"
    report = audit([e.raw for e in live[0].session.canonical_entries()])  # type: ignore[union-attr]
    assert report.ok, [str(p) for p in report.problems]
    assert report.forfeits and report.forfeits[0][0] == gone.index


@pytest.mark.parametrize("seed", range(3))
def test_a_player_out_of_time_is_handed_over_by_every_peer_s_own_clock_under_loss(
        seed: int) -> None:
    """A clocked table: one player stops playing (its peer still answers, so it is never
    silent) and every other peer, timing the seats by its own clock through the loss,
    hands it to the stand-in once its time is out there; nobody else runs out, and every
    peer ends with the same game, which verifies."""
    control = TimeControl(120, 10)
    net = Net.with_table(3, seed, loss=0.3, duplication=0.1,
                         rules=TableRules(clock=control))
    idle = net.peers[seed % 3]
    net.run(lambda: all(p.session is not None and p.session.turn_number >= 6
                        for p in net.peers), limit=600)
    idle.bot = False  # from here its player never moves
    live = [p for p in net.peers if p is not idle]
    policies = {p.index: HandOverPolicy(after=math.inf, clock=GameClock(control, 3))
                for p in live}

    def hand_over() -> bool:
        apply_policies(net, live, policies, idle.index)
        return all(p.session is not None and p.session.state.is_over for p in net.peers) \
            and len({p.canonical() for p in net.peers}) == 1

    net.run(hand_over, limit=net.now + 3600)
    for p in live:
        assert p.session is not None and set(p.session.forfeits) == {idle.index}
        assert policies[p.index].out_of_time == [idle.index]
    report = audit([e.raw for e in live[0].session.canonical_entries()])  # type: ignore[union-attr]
    assert report.ok, [str(p) for p in report.problems]


def test_an_agreement_naming_a_step_the_game_left_never_applies_and_peers_agree_again() -> None:
    """The gone player's last turn reached one peer only, and the other agrees to hand it
    over at that turn: whether the first peer used the turn (then the agreement never
    applies, and both agree again where the game next waits) or agreed there too before it
    could (then the hand-over came first and the turn is void, passing), both end with the
    same game, and its file verifies."""
    net = Net.with_table(3, seed=5, loss=0.0, duplication=0.0)
    gone, first, second = net.peers[2], net.peers[0], net.peers[1]
    gone.bot = False  # we play its turns by hand
    while True:
        net.run(lambda: gone.session is not None and gone.session.my_turn, limit=600)
        assert gone.session is not None
        if gone.session.turn_number >= 6:
            break
        gone.session.submit_turn(random_turn(gone.session.state, gone.rng))
        net.flush(gone)
    gone.session.submit_turn(random_turn(gone.session.state, gone.rng))
    for data, address in gone.flush(net.now):
        if address == first.address:
            first.node.receive(data, gone.address, net.now)  # the others never get it
    gone.online = False
    assert first.session is not None and second.session is not None
    stale = second.session.step
    second.session.agree_seat_to_bot(gone.index)  # at the turn first already has
    net.flush(second)
    agreed: set[tuple[int, int]] = {(second.index, stale)}

    def hand_over() -> bool:
        for p in (first, second):
            s = p.session
            assert s is not None
            waiting = s.waiting_for()
            if (waiting is not None and gone.index in waiting.seats
                    and (p.index, s.step) not in agreed):
                agreed.add((p.index, s.step))
                s.agree_seat_to_bot(gone.index)
                net.flush(p)
        return all(p.session is not None and p.session.state.is_over for p in (first, second))

    net.run(hand_over, limit=net.now + 600)
    assert first.session.forfeits == second.session.forfeits
    handed = first.session.forfeits[gone.index]
    assert handed >= stale
    if handed == stale:  # the turn came after the hand-over: void at both, harming nobody
        for p in (first, second):
            late = [r for r in p.session.rejected.values() if r.seat == gone.index]  # type: ignore[union-attr]
            assert late and not any(r.cause.defect for r in late)
    net.run(lambda: first.canonical() == second.canonical(), limit=net.now + 60)  # last SEENs
    report = audit([e.raw for e in first.session.canonical_entries()])
    assert report.ok, [str(p) for p in report.problems]
