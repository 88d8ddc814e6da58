"""An in-process LAN for chaos tests: the real peers' protocol on a seeded lossy link.

Each :class:`Machine` runs a :class:`p2p_burgundy.net.node.Node`, the sans-I/O core that
:class:`p2p_burgundy.net.peer.Peer` drives with a socket (admission, lobby, session, routing,
address book, reply allowance): the machine only gives it a list for a game file, a fake
clock and a seeded random source. :class:`Net` moves datagrams between machines through a
:class:`Link` that drops, duplicates, delays (so reorders) and partitions them, all drawn from
one seeded ``random.Random``. Time advances in small steps; timers fire like
``Peer._timer_loop`` (every 0.5 s).

>>> net = Net.with_table(2, seed=3, loss=0.0, duplication=0.0)
>>> net.run_game()
>>> len({p.canonical() for p in net.peers}), net.peers[0].session.state.is_over
(1, True)
"""

from __future__ import annotations

import contextlib
import heapq
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from p2p_burgundy import GameConfig, state_hash
from p2p_burgundy.net.admission import Arrival
from p2p_burgundy.net.errors import ProtocolError
from p2p_burgundy.net.events import ChanceResolved, TurnApplied
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.inmemory import random_turn, start_entry
from p2p_burgundy.net.lobby import HostLobby, JoinLobby
from p2p_burgundy.net.log import Entry, decode_entry
from p2p_burgundy.net.node import Node
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.start import CONTRIBUTION_SIZE
from p2p_burgundy.net.sync import HEADS_INTERVAL
from p2p_burgundy.net.tablerules import DEFAULT_RULES, TableRules

Address = tuple[str, int]
GAME_ID = bytes.fromhex("5eed5eed5eed5eed5eed5eed5eed5eed")
STEP = 0.05  # seconds of fake time per step


def address_of(index: int) -> Address:
    return (f"10.231.0.{index + 1}", 4000 + index)


@dataclass
class Partition:
    """Peer ``peer`` neither sends nor receives for ``length`` fake seconds from the moment
    some peer's game reaches turn ``after_turn`` (:meth:`Net.step` notes it in ``start``):
    so it falls inside the game whatever its pace, which a start drawn in fake seconds did
    not (a short game could end before its partition began)."""

    peer: int
    after_turn: int
    length: float
    start: float = math.inf
    cut: int = 0  # datagrams it stopped

    @property
    def end(self) -> float:
        return self.start + self.length

    def cuts(self, source: int, destination: int, now: float) -> bool:
        """Whether it stops a datagram from ``source`` to ``destination`` now (counted)."""
        if self.start <= now < self.end and self.peer in (source, destination):
            self.cut += 1
            return True
        return False


@dataclass
class Link:
    """Seeded unreliable delivery: each datagram is duplicated with ``duplication``, each copy
    lost with ``loss`` and otherwise delivered after a uniform delay in ``delay`` seconds
    (independent delays reorder them)."""

    rng: random.Random
    loss: float = 0.3
    duplication: float = 0.1
    delay: tuple[float, float] = (0.0005, 0.3)
    partitions: list[Partition] = field(default_factory=list)
    sent: int = 0
    lost: int = 0
    _queue: list[tuple[float, int, int, int, bytes]] = field(default_factory=list)
    _n: int = 0

    def send(self, now: float, source: int, destination: int, data: bytes) -> None:
        self.sent += 1
        if any(p.cuts(source, destination, now) for p in self.partitions):
            self.lost += 1
            return
        copies = 2 if self.rng.random() < self.duplication else 1
        for _ in range(copies):
            if self.rng.random() < self.loss:
                self.lost += 1
                continue
            self._n += 1
            at = now + self.rng.uniform(*self.delay)
            heapq.heappush(self._queue, (at, self._n, source, destination, data))

    def due(self, now: float) -> list[tuple[int, int, bytes]]:
        """Datagrams whose delivery time has come, in delivery order (a partition that
        started meanwhile still cuts them)."""
        out = []
        while self._queue and self._queue[0][0] <= now:
            _, _, source, destination, data = heapq.heappop(self._queue)
            if any(p.cuts(source, destination, now) for p in self.partitions):
                self.lost += 1
                continue
            out.append((source, destination, data))
        return out

    def forget(self, peer: int) -> None:
        """Lose every datagram in flight to or from ``peer`` (it crashed)."""
        self._queue = [item for item in self._queue if peer not in item[2:4]]
        heapq.heapify(self._queue)

    @property
    def in_flight(self) -> int:
        return len(self._queue)


class Machine:
    """A simulated computer running one node: its game file is a list of raw entries."""

    def __init__(self, index: int, identity: Identity, rng: random.Random,
                 address: Address | None = None, started: float = 0.0) -> None:
        """``started``: the fake time it starts at (its seals' counters start from it in
        microseconds, or from its saved reservation if that is higher, as a peer's do from
        the wall clock)."""
        self.index = index
        self.address = address or address_of(index)
        self.identity = identity
        self.rng = rng  # the bot's choices and the node's nonces
        self.node = Node(identity, secret=rng.randbytes(16), nonces=lambda: rng.randbytes(16),
                         has_file=lambda game_id: bool(self.file),
                         here=lambda address: address == self.address,
                         first_counter=lambda game_id: max(int(started * 1_000_000),
                                                           self.reserved))
        self.file: list[bytes] = []  # the game file: raw entries in the order they were saved
        self.reserved = 0  # the node's reservation of counters, saved beside the file
        self.events: list[object] = []
        self.online = True
        self.bot = True  # Net plays this peer's turns
        self.next_tick = 0.0

    @property
    def session(self) -> Session | None:
        return self.node.session

    @property
    def lobby(self) -> HostLobby | JoinLobby | None:
        return self.node.lobby

    def timer(self, now: float) -> None:
        """Like ``Peer._timer_loop``: a tick every HEADS_INTERVAL."""
        if now >= self.next_tick:
            self.next_tick = now + HEADS_INTERVAL
            self.node.handle_timer(now)

    def flush(self, now: float) -> list[tuple[bytes, Address]]:
        """Entries saved, then the datagrams to send; events kept."""
        out = self.node.flush(lambda entries: self.file.extend(e.raw for e in entries), now)
        self.reserved = self.node.reserved  # saved before anything is sent, as a Peer does
        while (event := self.node.next_event()) is not None:
            self.events.append(event)
        return out

    # --- views ---

    def canonical(self) -> bytes:
        assert self.session is not None
        return b"".join(e.raw for e in self.session.canonical_entries())

    def hashes(self) -> list[tuple[str, int, bytes]]:
        """The state hash after each chance event and turn, as this peer applied them."""
        out = []
        for e in self.events:
            if isinstance(e, ChanceResolved):
                out.append(("chance", e.index, e.state_hash))
            elif isinstance(e, TurnApplied):
                out.append(("turn", e.turn, e.state_hash))
        return out


class Net:
    """Peers on a :class:`Link`, stepped by a fake clock; bots play whoever's turn it is."""

    def __init__(self, peers: Sequence[Machine], link: Link) -> None:
        self.peers = list(peers)
        self.link = link
        self.now = 0.0
        self._by_address = {p.address: p.index for p in self.peers}
        self.taps: dict[Address, list[tuple[bytes, Address]]] = {}
        """Addresses no machine holds whose datagrams are kept: ``(data, sender)``, in the
        order sent (a test's attacker reads them)."""

    @classmethod
    def with_table(cls, players: int, seed: int, *, loss: float = 0.3,
                   duplication: float = 0.1, partition: bool = False,
                   config: GameConfig | None = None, rules: TableRules = DEFAULT_RULES
                   ) -> Net:
        """A started game (START made directly) between ``players`` seeded peers, at a
        table of ``config`` (default: the base game) and the table's ``rules``."""
        rng = random.Random(seed)
        ids = [Identity.from_private_bytes(rng.randbytes(32)) for _ in range(players)]
        start = table_start(ids, GAME_ID, config, rules)
        peers = [Machine(i, ident, random.Random(rng.random())) for i, ident in enumerate(ids)]
        for p in peers:
            p.node.resume(Session(start, p.identity),
                          {j: address_of(j) for j in range(players) if j != p.index})
        link = Link(random.Random(rng.random()), loss, duplication)
        if partition:
            link.partitions.append(random_partition(rng, players))
        net = cls(peers, link)
        net.flush_all()
        return net

    @classmethod
    def with_lobby(cls, players: int, seed: int, *, spectators: int = 0, loss: float = 0.3,
                   duplication: float = 0.1) -> Net:
        """Peer 0 hosts a table; the others join it through the lobby (HELLO, WELCOME, PROVE,
        UPDATE, PROPOSE, ACCEPT, START) over the same lossy link; the last ``spectators``
        peers only watch."""
        rng = random.Random(seed)
        total = players + spectators
        ids = [Identity.from_private_bytes(rng.randbytes(32)) for _ in range(total)]
        peers = [Machine(i, ident, random.Random(rng.random())) for i, ident in enumerate(ids)]
        peers[0].node.host(HostLobby(ids[0], GAME_ID, GameConfig(players=players), "p0", "red",
                                     contribution=rng.randbytes(CONTRIBUTION_SIZE)))
        for p in peers[1:]:
            lobby = JoinLobby(p.identity, address_of(0), f"p{p.index}", "blue",
                              nonce=p.rng.randbytes(16),
                              contribution=p.rng.randbytes(CONTRIBUTION_SIZE),
                              spectator=p.index >= players)
            lobby.set_me(lobby.name, lobby.colour, True)
            p.node.join(lobby)
        net = cls(peers, Link(random.Random(rng.random()), loss, duplication))
        net.flush_all()
        return net

    def add_joiner(self, identity: Identity, *, spectator: bool = True) -> Machine:
        """A new peer that asks peer 0's table for a seat (or, by default, to watch) now."""
        peer = Machine(len(self.peers), identity, random.Random(self.now), started=self.now)
        peer.node.join(JoinLobby(identity, address_of(0), f"p{peer.index}", "blue",
                                 nonce=peer.rng.randbytes(16),
                                 contribution=peer.rng.randbytes(CONTRIBUTION_SIZE),
                                 spectator=spectator))
        self.peers.append(peer)
        self._by_address[peer.address] = peer.index
        self.flush(peer)
        return peer

    def restart(self, peer: Machine, address: Address, clock: float | None = None) -> Machine:
        """``peer`` crashes and starts again at ``address`` (its old port taken, or the same),
        like ``Peer.resume``: its session replayed from its game file, its address book and
        its reservation of counters kept; its clock reads ``clock`` (default: now). What was
        in flight to or from it is lost with the crash."""
        peer.online = False
        back = Machine(peer.index, peer.identity, random.Random(self.now), address,
                       started=self.now if clock is None else clock)
        back.file = list(peer.file)
        back.reserved = peer.reserved
        session = Session(decode_entry(back.file[0]), back.identity)
        for raw in back.file[1:]:
            with contextlib.suppress(ProtocolError):
                session.receive_entry(raw)
        session.take_unsaved()  # in the file already
        back.node.resume(session, dict(peer.node.addresses))
        self.link.forget(peer.index)
        self.peers[peer.index] = back
        del self._by_address[peer.address]
        self._by_address[address] = back.index
        self.flush(back)
        return back

    def start_when_ready(self) -> None:
        """The host proposes the start once the table is full and everyone is ready."""
        for p in self.peers:
            lobby = p.lobby
            if isinstance(lobby, HostLobby) and lobby.can_start and not lobby.proposed:
                lobby.start()
                self.flush(p)

    def flush(self, peer: Machine) -> None:
        for data, address in peer.flush(self.now):
            destination = self._by_address.get(address)
            if not peer.online:
                continue
            if destination is not None:
                self.link.send(self.now, peer.index, destination, data)
            elif address in self.taps:
                self.taps[address].append((data, peer.address))

    def flush_all(self) -> None:
        for p in self.peers:
            self.flush(p)

    def step(self) -> None:
        """Advance the clock by STEP: deliver what is due, fire timers, let bots play."""
        self.now += STEP
        for partition in self.link.partitions:
            if partition.start == math.inf and any(
                    p.session is not None and p.session.turn_number >= partition.after_turn
                    for p in self.peers):
                partition.start = self.now
        for source, destination, data in self.link.due(self.now):
            peer = self.peers[destination]
            sender = self.peers[source].address
            # As the transport does: the node's arrival check as the datagram is read.
            if peer.online and peer.node.arrival(data, sender) is not Arrival.REFUSE:
                peer.node.receive(data, sender, self.now)
                self.flush(peer)
        for p in self.peers:
            if p.online:
                p.timer(self.now)
                self.flush(p)
        self.start_when_ready()
        self.play_turns()

    def play_turns(self) -> None:
        for p in self.peers:
            s = p.session
            if p.online and p.bot and s is not None and s.my_turn:
                s.submit_turn(random_turn(s.state, p.rng))
                self.flush(p)

    def run(self, until: object, limit: float) -> None:
        """Step until ``until()`` holds; AssertionError after ``limit`` fake seconds."""
        assert callable(until)
        while not until():
            if self.now > limit:
                raise AssertionError(f"not done after {limit} fake seconds: {self.describe()}")
            self.step()

    def converged(self) -> bool:
        sessions = [p.session for p in self.peers]
        if any(s is None or not s.state.is_over for s in sessions):
            return False
        return len({p.canonical() for p in self.peers}) == 1

    def run_game(self, limit: float = 3600.0) -> None:
        """Play until every peer's game is over and every peer holds the same entries."""
        self.run(self.converged, limit)

    def describe(self) -> str:
        parts = []
        for p in self.peers:
            s = p.session
            if s is None:
                parts.append(f"peer {p.index}: no session")
            else:
                parts.append(f"peer {p.index}: turn {s.turn_number}, waiting "
                             f"{s.waiting_for()}, chains {[len(c) for c in s.chains]}")
        return "; ".join(parts)


def table_start(ids: Sequence[Identity], table_id: bytes,
                config: GameConfig | None = None, rules: TableRules = DEFAULT_RULES) -> Entry:
    """The START entry of a table of ``ids`` (seat order), ``config`` (default: the base
    game) and ``rules``, signed by the first."""
    return start_entry(list(ids), config or GameConfig(players=len(ids)), table_id,
                       rules=rules)


def random_partition(rng: random.Random, players: int) -> Partition:
    """Cut one peer off for 3 to 10 fake seconds, from turn 1 to 8 of the game on (a game
    has at least 25 rounds of turns)."""
    return Partition(rng.randrange(players), rng.randint(1, 8), rng.uniform(3.0, 10.0))


def final_hash(peer: Machine) -> bytes:
    assert peer.session is not None
    return state_hash(peer.session.state)


__all__ = ["Link", "Machine", "Net", "Partition", "random_turn", "table_start"]

