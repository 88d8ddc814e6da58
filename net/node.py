"""One peer's protocol, sans-I/O: admission, the lobby, the session, routing, the address book.

A :class:`Node` is a peer minus its socket, clock, files and random source: its driver hands
it datagrams (:meth:`~Node.receive`) and timer ticks (:meth:`~Node.handle_timer`) with
``now``, then calls :meth:`~Node.flush`, which gives it the new entries to make durable in the
game file and only then the datagrams to send (``(datagram, address)`` pairs: broadcasts
expanded to the seats' addresses and the contacts, nothing an unproven address has no credit
for), and :meth:`~Node.next_event` says what happened.

:class:`~p2p_burgundy.net.peer.Peer` drives one with a UDP socket and a game file; the chaos
tests (``tests/lan/sim.py``) drive several with a seeded lossy in-memory link and a fake
clock. Randomness comes from the driver too: ``nonces`` returns fresh random bytes when the
lobby owes a challenge or a HELLO or a player that lost its game file starts recovering, and
``secret`` keys our address tokens and the nonces of our WHOs.

**The address book follows the seats.** A seat is heard (:meth:`~Node.missing`) by what
arrives from its address. A player that restarts on another port (its old one taken) talks
from an address we do not know; a source address proves nothing (anyone on the LAN can send
with any), so we move the seat there only on proof by its key over something fresh: while a
seat has been quiet for :data:`QUIET_AFTER`, an unknown address that talks about the game is
asked ``WHO [game id, nonce, host, port]`` (a keyed hash of that address and the epoch,
which only we can make and need not remember, and the address we see it at; at most once a
second). A seated peer answers a WHO only from a seat's address it
knows and only for an address that is its own, with ``SEATED [game id, seat, nonce,
signature]``: its key's signature over the game, the nonce, the asking seat, its own seat and
that address. So a signature that names an address is made only by the seat at that address:
someone who relays our WHO to the real seat gets, even if it reads every datagram, a proof
for the seat's own address, and a replayed one holds an old nonce. The seat's traffic then
goes there, and :class:`SeatMoved` says so (the driver saves the address book).

>>> from p2p_burgundy.net.identity import Identity
>>> node = Node(Identity.from_private_bytes(bytes(32)), secret=bytes(16),
...             nonces=lambda: bytes(16), has_file=lambda game_id: False,
...             here=lambda address: address == ("10.0.0.1", 4000),
...             first_counter=lambda game_id: 0)
>>> node.receive(b"GET / HTTP/1.0", ("10.0.0.9", 80), now=0.0)
False
>>> node.admission.stats.dropped_shape, node.flush(save=print, now=0.0)
(1, [])
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from . import wire
from .admission import (
    Admission,
    Arrival,
    RateLimiter,
    Replies,
    Verdict,
    is_session_message,
)
from .errors import ProtocolError, RemoteProtocolError, VersionError
from .events import Event
from .identity import Identity, verify
from .lobby import HostLobby, JoinLobby, LobbyEvent, RosterChanged, Started
from .log import Entry
from .messages import (
    NONCE_SIZE,
    Challenge,
    EntryMessage,
    Heads,
    Message,
    Response,
    Seated,
    Tag,
    Who,
    parse,
)
from .pairwise import SEAL_SIZE, Window, counter_of, is_sealed, opened, seal, seat_keys
from .session import BROADCAST, Session

Address = tuple[str, int]
MAX_CONTACTS = 32  # addresses (spectators, restarted peers) we also broadcast to
MAX_EVENTS = 4096  # events not yet taken
MISSING_AFTER = 3.0  # seconds without a datagram before a seat shows as missing
QUIET_AFTER = 1.0  # seconds of a seat's silence before we ask unknown addresses WHO
ASK_EVERY = 1.0  # seconds between two WHOs to one address
WHO_EPOCH = 2.0
"""A WHO's nonce is a keyed hash of the address asked and the epoch (``now`` in
:data:`WHO_EPOCH` seconds): it needs no memory, so no number of addresses can push a
returning seat's question out, and an answer counts in that epoch and the next."""
MAX_ASKED = 256  # addresses whose last WHO time is remembered (pacing only)
MAX_PROVEN = 256
"""Datagrams :meth:`Node.arrival` proved that :meth:`Node.receive` has not taken yet: a
transport's queue of the players' datagrams (more were dropped with a full queue)."""
SEATED_CHECKS = 64.0
"""Signature checks of SEATED answers per second, for everyone together (burst as many):
one per address and nonce at most; answers with a nonce we did not send cost none."""
WHO_ANSWER_RATE = 2.0
"""SEATED answers (a signature each) per second to one asking seat's address, burst
:data:`WHO_ANSWER_BURST`: an honest seat asks at most once per :data:`ASK_EVERY`, and WHOs
carrying a seat's address, which anyone can send, would otherwise buy a signature each."""
WHO_ANSWER_BURST = 2.0
SEATED_DOMAIN = b"seated"
RESYNC_AFTER = 1.0
"""Seconds of a sealing seat's silence after which its :class:`~.pairwise.Window` is relaxed:
it sends HEADS every half second, so it lost more than the window in a row or restarted."""
RELAXED_FOR = 1.0
"""Seconds a relaxed window follows the seat's datagrams before it takes only the counters
around the highest again: the seat's own (HEADS every half second) pull it there, past any
replay of an older one that came first."""
COUNTER_BLOCK = 1 << 16
"""Counters of our seals reserved at a time (:attr:`Node.reserved`): the driver saves a
reservation when a block is used up (about once a game), not with every datagram."""


def seated_message(game_id: bytes, nonce: bytes, asker: int, seat: int,
                   address: Address) -> bytes:
    """What a seat signs in SEATED: that it is at ``address``, for the asking seat's fresh
    ``nonce`` in this game (bound to the asker, so that it cannot stand for another peer)."""
    host, port = address
    return wire.encode([game_id, nonce, asker, seat, host, port])


@dataclass(frozen=True, slots=True)
class SeatMoved:
    """``seat`` proved with its key that it is now at ``address`` (a player back on another
    port): we send to it, and hear it, there."""

    seat: int
    address: Address


class Node:
    """One player's (or spectator's) protocol state; see the module's docstring."""

    def __init__(self, identity: Identity, *, secret: bytes, nonces: Callable[[], bytes],
                 has_file: Callable[[bytes], bool], here: Callable[[Address], bool],
                 first_counter: Callable[[bytes], int]) -> None:
        """``secret``: fresh random bytes keying our address tokens; ``nonces``: fresh 16
        random bytes at each call; ``has_file(game_id)``: whether we hold a game file for
        that game (a player without one, seated in a START it never accepted, recovers);
        ``here(address)``: whether ``address`` is ours (our port, on one of this machine's
        addresses), what we sign for in SEATED; ``first_counter(game_id)``: the counter of
        our first sealed datagram to each seat in that game (net/pairwise.py), above any we
        sealed in it before: the higher of the wall clock in microseconds and the
        :attr:`reserved` counter saved in that game."""
        self.identity = identity
        self.admission = Admission()
        self.replies = Replies(secret)
        self.lobby: HostLobby | JoinLobby | None = None
        self.session: Session | None = None
        self.addresses: dict[int, Address] = {}  # seat -> address
        self.contacts: dict[Address, None] = {}  # other proven sources, oldest first
        self.errors = 0  # datagrams the lobby or the session rejected
        self.last_error: ProtocolError | None = None
        self._nonces = nonces
        self._has_file = has_file
        self._here = here
        self._last_heard: dict[int, float] = {}  # seat -> when a datagram came from it
        self._heads: dict[int, Heads] = {}  # seat -> the last HEADS it sent us
        self._secret = secret
        self._keys: dict[int, bytes] = {}  # seat -> our pairwise key (net/pairwise.py)
        self._counters: dict[int, int] = {}  # seat -> the counter of our next seal to it
        self._first_counter = first_counter
        self.reserved = 0
        """Every counter we sealed with, or will before this rises, is below it: the driver
        makes it durable beside the game file before it sends what :meth:`flush` returned,
        and starts from it after a restart (``first_counter``). So a peer whose clock went
        back while it was down never numbers a datagram like one it sent before, which the
        others' windows would refuse for good (net/pairwise.py)."""
        self._counter_base = 0  # the counter of our first seal to each seat
        self._windows: dict[int, Window] = {}  # seat -> what we take of its seals
        self._followed: dict[int, float] = {}  # seat -> since when its relaxed window follows it
        self._new_game = False  # a game we began (not resumed, not recovering): no old seals
        self._sealed_by: set[int] = set()  # seats whose MAC we have seen: they always seal
        self._sealing: dict[Address, Window] = {}  # their addresses (:attr:`sealing`, arrival)
        # :attr:`sealing`, None once it must be built again (set so wherever a window's
        # labels may change: its datagrams taken, its relaxing and tightening, the addresses).
        self._sealing_labels: dict[Address, tuple[bytes, ...] | None] | None = None
        self._players: set[Address] = set()  # the players' addresses (for arrival)
        # Datagrams arrival proved (their MAC checked), to their messages: receive opens
        # them no more. Taken out when received, the oldest dropped beyond MAX_PROVEN.
        self._proven: dict[bytes, bytes] = {}
        self._asked: OrderedDict[Address, float] = OrderedDict()  # address -> last WHO
        self._checked: OrderedDict[tuple[Address, bytes], None] = OrderedDict()
        self._seated_checks = RateLimiter(SEATED_CHECKS, SEATED_CHECKS, max_sources=1)
        self._who_answers = RateLimiter(WHO_ANSWER_RATE, WHO_ANSWER_BURST,
                                        max_sources=MAX_CONTACTS)
        self._events: deque[LobbyEvent | Event | SeatMoved] = deque(maxlen=MAX_EVENTS)
        # Our own answers and questions (RESPONSE, WHO, SEATED), sent with the next flush.
        self._outbox: deque[tuple[bytes, Address]] = deque(maxlen=MAX_CONTACTS)

    # --- forming a table, resuming ---

    def host(self, lobby: HostLobby) -> None:
        self.lobby = lobby

    def join(self, lobby: JoinLobby) -> None:
        self.lobby = lobby
        self._update_known()

    def leave(self) -> list[tuple[bytes, Address]]:
        """Leave the table before the start: the LEAVE datagrams that tell everyone concerned
        (all players, so no allowance applies); the node may then host or join again."""
        if self.lobby is None or self.session is not None:
            return []
        self.lobby.leave()
        # The lobby's destinations are the sources the node gave it: addresses.
        out: list[tuple[bytes, Address]] = self.lobby.datagrams_to_send()  # type: ignore[assignment]
        self.lobby = None
        self._update_known()
        return out

    def resume(self, session: Session, addresses: dict[int, Address]) -> None:
        """Play on ``session`` (replayed from a game file), with the seats' addresses saved
        beside it."""
        self.session = session
        self.addresses = dict(addresses)
        self._use_keys(session)
        self._update_known()

    # --- input ---

    def receive(self, data: bytes, source: Address, now: float) -> bool:
        """One datagram from ``source``: the cheap checks first (net/admission.py), then the
        lobby or the session. A message either rejects changes nothing; it is counted.
        False if the cheap checks dropped it: then there is nothing new to flush (under a
        flood most datagrams end here, and each must cost as little as possible)."""
        opened, sealed = self._unseal(data, source)
        if opened is None:  # a seat's datagram without its MAC: a hash, no reply
            self.admission.stats.unsealed += 1
            return False
        data = opened
        verdict = self.admission.admit(data, source, now, sealed=sealed)
        if verdict is Verdict.BY_AUTHOR and not self._vouched(data, now):
            return False
        if verdict not in (Verdict.PASS, Verdict.BY_AUTHOR):
            return False
        self.replies.received(source, len(data))
        # The seat heard: only seats (any source would grow what we keep of it), and only
        # by their MAC once they seal (anyone can send a HELLO with a seat's address).
        seat = self._seat_at(source)
        heard = seat if seat is not None and (sealed or seat not in self._sealed_by) else None
        if heard is not None:
            self._last_heard[heard] = now
        try:
            message = parse(data)
            self._route(message, source, now)
            if heard is not None and isinstance(message, Heads):
                self._heads[heard] = message  # what that seat holds (in_sync)
        except ProtocolError as exc:
            self.errors += 1
            self.last_error = exc
            if (isinstance(exc, VersionError) and isinstance(self.lobby, JoinLobby)
                    and source == self.lobby.host and self.lobby.started is None
                    and self.lobby.refused is None):
                self.lobby.refuse(f"the host runs another release: {exc}")
        return True

    def handle_timer(self, now: float) -> None:
        """A timer tick, every :data:`~p2p_burgundy.net.sync.HEADS_INTERVAL` (the same as
        the lobby's retry interval)."""
        if self.session is not None:
            self.session.handle_timer(now)
            self._resync(now)
        elif isinstance(self.lobby, JoinLobby):
            self.lobby.handle_timer(now, self._nonces())
        elif self.lobby is not None:
            self.lobby.handle_timer(now)

    # --- output ---

    def flush(self, save: Callable[[list[Entry]], None], now: float) -> list[tuple[bytes, Address]]:
        """After any input: the lobby's news first (a game it started gets its session), then
        the new entries go to ``save``, which must make them durable (our own are sent only
        after it returns), then the datagrams to send now, each with its address."""
        while self.lobby is not None and (event := self.lobby.next_event()) is not None:
            self._events.append(event)
            if isinstance(event, Started) and self.session is None:
                self._begin(event)
            elif isinstance(event, RosterChanged) and self.session is not None:
                self._learn_addresses()  # a returning player's new address
            self._update_known()
        out = list(self._outbox)
        self._outbox.clear()
        if self.lobby is not None:
            out += self.lobby.datagrams_to_send()  # type: ignore[arg-type]  # as in leave()
        session = self.session
        if session is not None:
            save(session.take_unsaved())
            session.saved()
            while (game_event := session.next_event()) is not None:
                self._events.append(game_event)
            for data, destination in session.datagrams_to_send():
                targets = self.broadcast_targets() if destination is BROADCAST else [destination]
                # The session's destinations are sources the node gave it too.
                out += [(data, target) for target in targets]  # type: ignore[misc]
        return [(sent, address) for data, address in out
                if (sent := self._allowed(self._seal(data, address), address, now)) is not None]

    def next_event(self) -> LobbyEvent | Event | SeatMoved | None:
        """What happened (the lobby's events and the session's), oldest first."""
        return self._events.popleft() if self._events else None

    # --- the address book ---

    def broadcast_targets(self) -> list[Address]:
        mine = self.session.my_seat if self.session else None
        targets = [a for seat, a in self.addresses.items() if seat != mine]
        return targets + [c for c in self.contacts if c not in targets]

    @property
    def sealing(self) -> dict[Address, tuple[bytes, ...] | None]:
        """The addresses of the seats that seal their datagrams to us, each with the labels
        their next seals may carry (net/pairwise.py's :attr:`Window.labels`; None: any):
        :meth:`arrival` refuses a datagram from them that is not sealed with one of those (so
        may the driver's kernel, before reading it: :meth:`Transport.refuse_unsealed
        <p2p_burgundy.net.transport.Transport.refuse_unsealed>`). Changes as their windows
        move on: a new mapping each time (built once, when they changed), never changed
        afterwards, so the driver sees that nothing changed by its identity."""
        if self._sealing_labels is None:  # a window's labels changed, or the addresses
            self._sealing_labels = {a: w.labels for a, w in self._sealing.items()}
        return self._sealing_labels

    def in_sync(self, now: float) -> bool:
        """Whether every other seat we heard from lately last announced (HEADS) exactly the
        entries we hold: in a finished game, nobody has entries left to send, so every
        peer's file in canonical order is the same. Each player signs its last entry (SEEN)
        the moment its game is over, so the game being over is not enough."""
        session = self.session
        if session is None:
            return True
        ours, missing = session.heads(), self.missing(now)
        return all(self._heads.get(seat) == ours for seat in self.addresses
                   if seat != session.my_seat and seat not in missing)

    def missing(self, now: float) -> list[int]:
        """Seats we have not heard from for :data:`MISSING_AFTER` seconds."""
        if self.session is None:
            return []
        return [seat for seat in self.addresses if self._silent(seat, now) > MISSING_AFTER]

    # --- internals ---

    def _route(self, message: Message, source: Address, now: float) -> None:
        if isinstance(message, Challenge | Response):
            self._address_check(message, source)
        elif isinstance(message, Who):
            self._answer_who(message, source, now)
        elif isinstance(message, Seated):
            self._seated(message, source, now)
        elif message.TAG < Tag.HELLO:
            if self.session is not None:
                self.session.receive_message(message, source, now)
                self._remember(source)
                self._ask_who(source, now)
            elif isinstance(self.lobby, JoinLobby) and isinstance(message, EntryMessage):
                self.lobby.receive(message, source)
        elif isinstance(self.lobby, HostLobby):
            self.lobby.receive(message, source, self._nonces())
        elif isinstance(self.lobby, JoinLobby):
            self.lobby.receive(message, source)

    def arrival(self, data: bytes, source: Address) -> Arrival:
        """The cheapest checks, for the driver to make as a datagram arrives, before it is
        queued. A seat that seals its datagrams to us must have sealed this one under our
        key with it: anyone can send with its address, and such a datagram costs a hash at
        most, is counted in ``stats.unsealed`` and refused, so a flood of them takes no place
        in a queue. The players' datagrams go ahead of everyone else's. :meth:`receive`
        makes the rest of the checks (and this one, for a datagram that did not come this
        way), but does not check again the MAC of a datagram proved here; only here is a
        seal's counter taken, so a copy of a datagram already taken (a replay) is refused,
        for a dictionary lookup."""
        window = self._sealing.get(source)
        if window is None:
            return Arrival.FIRST if source in self._players else Arrival.QUEUE
        # The seat already seals to us: its seal, no more (under a flood, every step counts).
        labels = window.labels
        message = window.take(data) if len(data) <= wire.MAX_DATAGRAM else None
        if window.labels is not labels:
            self._sealing_labels = None
        if message is not None:
            self._proven[data] = message
            if len(self._proven) > MAX_PROVEN:
                del self._proven[next(iter(self._proven))]
            return Arrival.FIRST
        self.admission.stats.unsealed += 1
        return Arrival.REFUSE

    def _unseal(self, data: bytes, source: Address) -> tuple[bytes | None, bool]:
        """The message of a datagram, and whether a seat's MAC proved it (net/pairwise.py).
        A session message from a seat's address must carry that seat's MAC (None if it does
        not: anyone can send with the address) once that seat has sealed one to us (it
        knows us at our address: until then, after we came back on a new port, it sends to
        us as to a stranger). One sealed from an address that is no seat's (a seat back on a
        new port) may carry any seat's MAC. Without keys (a spectator, a joiner before the
        start) a seal cannot be checked and is only taken off."""
        if self._proven and (proven := self._proven.pop(data, None)) is not None:
            return proven, True  # arrival checked its MAC: that seat's
        seat, keys = self._seat_at(source), self._keys
        if len(data) > wire.MAX_DATAGRAM:
            return data, False  # the shape check drops it, unhashed
        if is_sealed(data):
            if not keys:
                return data[SEAL_SIZE:], False
            session = self.session
            assert session is not None  # there are keys
            # Whose key: the seat's at its address; from elsewhere, the one whose label fits
            # (a hash a seat, one MAC check at most).
            for sealer in (keys if seat is None else [seat] if seat in keys else []):
                message = opened(data, keys[sealer], session.seats[sealer].key)
                if message is not None:
                    break
            else:
                return None, False
            if sealer not in self._sealed_by:
                self._sealed_by.add(sealer)
                if self._new_game and self._windows[sealer].top is None:
                    self._windows[sealer].start(counter_of(data))
                self._update_known()
            return message, True
        if seat in self._sealed_by and is_session_message(data):
            return None, False
        return data, False

    def _seal(self, data: bytes, address: Address) -> bytes:
        """``data`` sealed, with our next counter to that seat, if it is a session message
        to a seat's address."""
        seat = self._seat_at(address)
        if seat is None or seat not in self._keys or not is_session_message(data):
            return data
        counter = self._counters.get(seat, self._counter_base)
        self._counters[seat] = counter + 1
        if counter >= self.reserved:
            self.reserved = counter + COUNTER_BLOCK
        return seal(data, self._keys[seat], self.identity.public_key, counter)

    def _allowed(self, data: bytes, address: Address, now: float) -> bytes | None:
        """What may go to ``address`` in place of ``data``: itself, a CHALLENGE (an unproven
        address out of credit), or None (nothing, now)."""
        if self.replies.allow(address, len(data)):
            return data
        self.admission.stats.withheld += 1
        challenge = self.replies.challenge(address, now)
        if challenge is None or not self.replies.allow(address, len(challenge)):
            return None
        return challenge

    def _vouched(self, data: bytes, now: float) -> bool:
        """An entry a budget refused counts only as a seat's own (verified) new entry."""
        session = self.session
        if session is None:
            return False
        seats = {s.key: i for i, s in enumerate(session.seats)}
        return self.admission.vouch(data, seats, [len(c) for c in session.chains],
                                    session.game_id, now)

    def _begin(self, started: Started) -> None:
        start = started.start
        seated = self.identity.public_key in {s.key for s in start.seats}
        # A player who never accepted this start but sits in it lost its game file.
        recovering = (seated and not self._has_file(start.game_id)
                      and isinstance(self.lobby, JoinLobby) and not self.lobby.accepted)
        self.session = Session(start.entry, self.identity if seated else None,
                               recovering=recovering,
                               recovery_nonce=self._nonces() if recovering else b"")
        self._new_game = seated and not recovering
        self._use_keys(self.session)
        self._learn_addresses()
        if isinstance(self.lobby, HostLobby):
            for address in self.lobby.spectators.values():
                self._remember(address)

    def _use_keys(self, session: Session) -> None:
        """Our pairwise key with each other seat, and a window on its seals (none for a
        spectator)."""
        self._keys = ({} if session.my_seat is None else
                      seat_keys(self.identity, [s.key for s in session.seats], session.game_id))
        if self._keys:
            self._counter_base = self.reserved = self._first_counter(session.game_id)
        self._windows = {seat: Window(key, session.seats[seat].key)
                         for seat, key in self._keys.items()}

    def _learn_addresses(self) -> None:
        """Seat addresses from the lobby's roster (the host's is where we sent HELLO)."""
        assert self.session is not None and self.lobby is not None
        members = {m.key: m.address for m in self.lobby.members if m.address[1]}
        if isinstance(self.lobby, JoinLobby) and self.lobby.host_key is not None:
            members[self.lobby.host_key] = self.lobby.host
        for seat, s in enumerate(self.session.seats):
            if s.key in members and s.key != self.identity.public_key:
                self.addresses[seat] = members[s.key]

    def _update_known(self) -> None:
        """The players' addresses (the seats', the lobby's members and spectators, or our
        host): exempt from the strangers' budget, and proven for replies."""
        players = set(self.addresses.values())
        if self.lobby is not None:
            players |= {m.address for m in self.lobby.members if m.address[1]}
            if isinstance(self.lobby, JoinLobby):
                players.add(self.lobby.host)
        self._players = players
        known = set(players)
        if isinstance(self.lobby, HostLobby):
            known |= set(self.lobby.spectators.values())
        self.admission.known = self.replies.known = known
        self._sealing = {a: self._windows[seat] for seat, a in self.addresses.items()
                         if seat in self._sealed_by}
        self._sealing_labels = None

    def _resync(self, now: float) -> None:
        """Relax the window of a sealing seat silent for :data:`RESYNC_AFTER`, and tighten it
        again once it followed the seat for :data:`RELAXED_FOR` (net/pairwise.py)."""
        for seat in self._sealed_by:
            window = self._windows[seat]
            if self._silent(seat, now) > RESYNC_AFTER:
                window.relax()
                self._followed.pop(seat, None)
                self._sealing_labels = None
            elif (window.relaxed and window.followed
                  and now - self._followed.setdefault(seat, now) >= RELAXED_FOR):
                window.tighten()
                del self._followed[seat]
                self._sealing_labels = None

    def _remember(self, source: Address) -> None:
        """Broadcast to ``source`` too (a spectator, a player back on another port): only
        once it proved its address, or a stranger's HEADS would buy it every entry."""
        if (source in self.addresses.values() or source in self.contacts
                or not self.replies.proven(source)):
            return
        self.contacts[source] = None
        if len(self.contacts) > MAX_CONTACTS:
            self.contacts.pop(next(iter(self.contacts)))

    def _seat_at(self, address: Address) -> int | None:
        for seat, known in self.addresses.items():
            if known == address:
                return seat
        return None

    def _silent(self, seat: int, now: float) -> float:
        """Seconds since a datagram came from ``seat``'s address (since time 0 if never)."""
        return now - self._last_heard.get(seat, 0.0)

    def _ask_who(self, source: Address, now: float) -> None:
        """``source`` talks about the game and is no seat's address: while a seat is quiet,
        ask it which seat it is (it may be that seat, back on another port)."""
        session = self.session
        if (session is None or session.my_seat is None or self._seat_at(source) is not None
                or all(self._silent(seat, now) <= QUIET_AFTER for seat in self.addresses)):
            return
        if now - self._asked.get(source, -ASK_EVERY) < ASK_EVERY:
            return
        self._asked.pop(source, None)
        self._asked[source] = now
        while len(self._asked) > MAX_ASKED:
            self._asked.popitem(last=False)
        nonce = self._who_nonce(source, int(now // WHO_EPOCH))
        self._outbox.append((Who(session.game_id, nonce, *source).encode(), source))

    def _who_nonce(self, address: Address, epoch: int) -> bytes:
        """The nonce of our WHOs to ``address`` in ``epoch``: only we can make it."""
        host, port = address
        return hashlib.blake2b(f"{host}\x00{port}\x00{epoch}".encode(), key=self._secret,
                               digest_size=NONCE_SIZE, person=b"who-nonce").digest()

    def _answer_who(self, message: Who, source: Address, now: float) -> None:
        """Sign that we are at the address the WHO names, if it is ours, for a seat asking
        from the address we know it by (nobody else gets us to sign), at most
        :data:`WHO_ANSWER_RATE` times a second for that address."""
        session, asker = self.session, self._seat_at(source)
        address = (message.host, message.port)
        if (session is None or session.my_seat is None or asker is None
                or message.game_id != session.game_id or not self._here(address)
                or not self._who_answers.allow(source, now)):
            return
        seat = session.my_seat
        signature = self.identity.sign(SEATED_DOMAIN, seated_message(
            session.game_id, message.nonce, asker, seat, address))
        self._outbox.append(
            (Seated(session.game_id, seat, message.nonce, signature).encode(), source))

    def _seated(self, message: Seated, source: Address, now: float) -> None:
        """A seat proved by its key that it is at ``source``: move it there. Only an answer
        from an address we asked, echoing the nonce we sent it this epoch or the last, costs
        a signature check: once per address and nonce, within :data:`SEATED_CHECKS`."""
        session, epoch = self.session, int(now // WHO_EPOCH)
        checked = (source, message.nonce)
        if (session is None or session.my_seat is None or message.game_id != session.game_id
                or message.nonce not in (self._who_nonce(source, epoch),
                                         self._who_nonce(source, epoch - 1))
                or checked in self._checked or not self._seated_checks.allow(None, now)):
            return
        self._checked[checked] = None
        while len(self._checked) > MAX_ASKED:
            self._checked.popitem(last=False)
        seat = message.seat
        if seat >= len(session.seats) or seat == session.my_seat or not verify(
                session.seats[seat].key, SEATED_DOMAIN,
                seated_message(session.game_id, message.nonce, session.my_seat, seat, source),
                message.signature):
            raise RemoteProtocolError("SEATED signature does not verify for that seat")
        self.addresses[seat] = source
        self._last_heard[seat] = now
        self.contacts.pop(source, None)
        self._update_known()
        self._events.append(SeatMoved(seat, source))

    def _address_check(self, message: Message, source: Address) -> None:
        """Echo a CHALLENGE from an address we talk to (never to anyone else: it would make
        us a reflector); a RESPONSE proves its source (see net/admission.py)."""
        if isinstance(message, Response):
            self.replies.prove(source, message.token)
        elif isinstance(message, Challenge) and (
                source in self.replies.known or source in self.broadcast_targets()):
            self._outbox.append((Response(message.token).encode(), source))
