"""The lobby, sans-I/O: forming a table until the START entry exists.

The host owns the table. A joiner sends HELLO with a fresh nonce; the host answers WELCOME
with the game id, the config and its signature of that nonce (so an mDNS announcement, which
anyone can fake, is only a hint: the joiner checks the signature against the fingerprint it
was shown). The joiner answers PROVE, signing the host's nonce, and only then enters the
roster, with a fresh random *contribution* of its own. Members change name, colour and
readiness with signed UPDATEs; the host sends the ROSTER to everyone after each change. When
the table is full and everyone is ready the host PROPOSEs the final roster with every
contribution. The game id is derived from the table id, the config and that roster
(:func:`~p2p_burgundy.net.start.game_id_of`), so it holds every member's fresh randomness and
nobody, the host included, can choose it or bring back an old game. Each player checks that its
own contribution is the one it sent, derives its beacon chain for that game id and returns
ACCEPT with its commitment and its signature (:func:`~p2p_burgundy.net.start.accept_start`);
the host then sends the START entry. Spectators go through HELLO/PROVE too and then just
receive. Lobby messages name the table by its *table id*, which the host picks and announces;
only the game session uses the game id.

Messages are retransmitted on a timer until answered, so a lost datagram only delays.
Callers supply randomness (``nonce`` arguments) and time (``now``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from p2p_burgundy import EngineError, GameConfig

from . import wire
from .errors import DecodeError, LocalProtocolError, RemoteProtocolError
from .identity import Identity, fingerprint, verify
from .log import ENTRY_DOMAIN, GAME_ID_SIZE, Entry, Kind, decode_entry
from .messages import (
    NONCE_SIZE,
    Accept,
    EntryMessage,
    Hello,
    Leave,
    Message,
    Propose,
    Prove,
    Roster,
    Update,
    Welcome,
)
from .start import (
    COLOURS,
    CONTRIBUTION_SIZE,
    MAX_NAME,
    START_DOMAIN,
    Seat,
    Start,
    accept_start,
    game_chain,
    game_id_of,
    make_start,
    name_ok,
    parse_start,
    players_problem,
    start_digest,
)
from .tablerules import DEFAULT_RULES, TableRules, read_table_tree, table_tree

CHALLENGE_DOMAIN = b"challenge"
UPDATE_DOMAIN = b"lobby-update"
RETRY_INTERVAL = 0.5  # seconds between retransmissions of an unanswered message
NO_ANSWER_AFTER = 10.0
"""Seconds a joiner waits for the host to prove its key before it gives up and says why."""
HOST_SILENT_AFTER = 3.0
"""Seconds without a word from a host that proved its key before a joiner says so (the host
repeats the roster every :data:`RETRY_INTERVAL` to everyone at its table)."""
MAX_OUTBOX = 256
MAX_PENDING_HELLOS = 64  # joiners mid-handshake the host remembers
MAX_SPECTATORS = 16
"""Spectators a host admits at once; more are refused ("no room for more spectators")."""
KEEPALIVE_EVERY = 2.0
"""Seconds between a joiner's proofs that it is still at the table (its PROVE, repeated)."""
SILENT_AFTER = 10.0
"""Seconds without a word from a member or a spectator before the host drops it (a member's
seat is free again)."""
TABLE_FULL = "the table is full"
"""The host's LEAVE to a player when every seat is taken: the joiner asks again each
:data:`RETRY_INTERVAL` (a seat frees up when a member leaves, falls silent or is removed)."""
START_DEADLINE = 10.0
"""Seconds the members have to accept a proposed start: after that the host withdraws it,
drops those who did not accept, and proposes again once the table is full and ready."""


def challenge_message(table_id: bytes, nonce: bytes, verifier: bytes) -> bytes:
    """What a peer signs to prove its key to ``verifier``: the verifier's fresh nonce, bound
    to this table and to the verifier (so a signature cannot be relayed to someone else)."""
    return wire.encode([table_id, nonce, verifier])


@dataclass(frozen=True, slots=True)
class Member:
    """A player at the table, as the host's roster shows them."""

    key: bytes
    name: str
    colour: str
    ready: bool
    address: tuple[str, int]
    contribution: bytes = b""

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)


@dataclass(frozen=True, slots=True)
class RosterChanged:
    members: tuple[Member, ...]


@dataclass(frozen=True, slots=True)
class Started:
    """The START entry exists: the game begins (make a Session from it)."""

    start: Start


@dataclass(frozen=True, slots=True)
class Refused:
    """The other side refused or failed a check (a rogue announcement, a full table...)."""

    reason: str


@dataclass(frozen=True, slots=True)
class HostSilent:
    """The host, which had proved its key, has said nothing for :data:`HOST_SILENT_AFTER`
    seconds. The joiner keeps asking it (any table it opens on the same key: a host restarted
    at the same address) until the caller gives up."""

    reason: str


@dataclass(frozen=True, slots=True)
class HostBack:
    """The silent host answered again, with the same key (at a new table if it restarted)."""

    reason: str


LobbyEvent = RosterChanged | Started | Refused | HostSilent | HostBack


def _check_name(name: str, colour: str) -> None:
    if not name_ok(name):
        raise LocalProtocolError(f"a name has 1 to {MAX_NAME} printable characters")
    if colour not in COLOURS:
        raise LocalProtocolError(f"colour must be one of {', '.join(COLOURS)}")


class _Base:
    def __init__(self, identity: Identity) -> None:
        self.identity = identity
        self._outbox: deque[tuple[bytes, object]] = deque(maxlen=MAX_OUTBOX)
        self._events: deque[LobbyEvent] = deque(maxlen=MAX_OUTBOX)
        self.started: Start | None = None

    def _send(self, message: Message, destination: object) -> None:
        self._outbox.append((message.encode(), destination))

    def datagrams_to_send(self) -> list[tuple[bytes, object]]:
        out = list(self._outbox)
        self._outbox.clear()
        return out

    def next_event(self) -> LobbyEvent | None:
        return self._events.popleft() if self._events else None


class HostLobby(_Base):
    """The host's side: admits players and spectators, then starts the game."""

    def __init__(self, identity: Identity, table_id: bytes, config: GameConfig, name: str,
                 colour: str, *, contribution: bytes, rules: TableRules = DEFAULT_RULES
                 ) -> None:
        """``table_id`` names the table in the lobby and its announcement; ``contribution``:
        fresh random bytes of ours for the game id (like the joiners'); ``rules``: the
        table's, signed with the config."""
        super().__init__(identity)
        if len(table_id) != GAME_ID_SIZE:
            raise LocalProtocolError(f"a table id is {GAME_ID_SIZE} bytes")
        if len(contribution) != CONTRIBUTION_SIZE:
            raise LocalProtocolError(f"a contribution is {CONTRIBUTION_SIZE} bytes")
        _check_name(name, colour)
        if (why := players_problem(config)) is not None:
            raise LocalProtocolError(why)
        self.table_id = table_id
        self.config = config
        self.rules = rules
        me = Member(identity.public_key, name, colour, True, ("", 0), contribution)
        self.members: list[Member] = [me]
        self.spectators: dict[bytes, tuple[str, int]] = {}
        # source -> (key, nonce we sent, spectator?) for joiners mid-handshake
        self._challenges: dict[object, tuple[bytes, bytes, bool]] = {}
        self._proposal: tuple[Seat, ...] | None = None
        self._acceptances: dict[bytes, tuple[bytes, bytes]] = {}  # key -> (commitment, sig)
        self.start_entry: Entry | None = None
        self.removed: set[bytes] = set()  # keys the host removed or that stalled the start
        self._heard_keys: set[bytes] = set()  # members and spectators heard since the tick
        self._last_heard: dict[bytes, float] = {}  # key -> the tick that noted it last
        self._proposed_at: float | None = None  # the tick that saw the proposal first
        self._spectator_outbox: deque[tuple[bytes, object]] = deque(maxlen=MAX_OUTBOX)

    @property
    def game_id(self) -> bytes:
        """The game's id once the final roster is proposed (b"" before: it depends on it)."""
        if self._proposal is None:
            return b""
        return game_id_of(self.table_id, self.config, self._proposal, self.rules)

    @property
    def seats_taken(self) -> int:
        return len(self.members)

    def set_me(self, name: str, colour: str) -> None:
        _check_name(name, colour)
        self._update(self.identity.public_key, name, colour, True)

    def receive(self, message: Message, source: tuple[str, int], nonce: bytes) -> None:
        """Handle a lobby message; ``nonce``: fresh random bytes in case a challenge is due."""
        if isinstance(message, Hello):
            self._hello(message, source, nonce)
            return
        handler = _HOST_HANDLERS.get(type(message))
        if handler is None:
            raise DecodeError(f"{message.TAG.name} is not for the host")
        # Every message in _HOST_HANDLERS has a table_id and a key (Message itself does not).
        if message.table_id != self.table_id:  # type: ignore[attr-defined]
            raise DecodeError(f"{message.TAG.name} for another table")
        handler(self, message, source)
        key: bytes = message.key  # type: ignore[attr-defined]
        if source == self._address_of(key):
            self._heard_keys.add(key)  # the next timer tick notes when

    def _address_of(self, key: bytes) -> tuple[str, int] | None:
        """Where a member or a spectator is (None: nobody at the table has that key)."""
        member = next((m for m in self.members[1:] if m.key == key), None)
        return member.address if member is not None else self.spectators.get(key)

    def _send(self, message: Message, destination: object) -> None:
        # The players' messages go first: spectators' never push them out of the outbox.
        if destination in self.spectators.values():
            self._spectator_outbox.append((message.encode(), destination))
        else:
            super()._send(message, destination)

    def datagrams_to_send(self) -> list[tuple[bytes, object]]:
        out = super().datagrams_to_send() + list(self._spectator_outbox)
        self._spectator_outbox.clear()
        return out

    def _hello(self, hello: Hello, source: object, nonce: bytes) -> None:
        key, spectator = hello.key, hello.spectator
        if hello.table_id not in (b"", self.table_id):
            raise RemoteProtocolError("HELLO for another game", author=key)
        pending = self._challenges.get(source)
        if pending is not None and pending[0] == key and pending[2] == spectator:
            # A retransmitted (or duplicated) HELLO: answer with the same challenge, or the
            # joiner's PROVE of the WELCOME it took first would never verify.
            nonce = pending[1]
        elif len(self._challenges) >= MAX_PENDING_HELLOS:
            self._challenges.pop(next(iter(self._challenges)))
        self._challenges[source] = (key, nonce, spectator)
        signature = self.identity.sign(CHALLENGE_DOMAIN,
                                       challenge_message(self.table_id, hello.nonce, key))
        self._send(Welcome(self.table_id, self.identity.public_key, signature, nonce,
                           self._config_tree()), source)

    def _prove(self, prove: Prove, source: tuple[str, int]) -> None:
        key, contribution, name, colour = prove.key, prove.contribution, prove.name, prove.colour
        pending = self._challenges.get(source)
        if pending is None and source == self._address_of(key):
            # A repeated PROVE from someone admitted at that very address: it is still here
            # (joiners repeat it every KEEPALIVE_EVERY), and after the start it missed the
            # START entry: repeat that (only to that address, so it cannot be reflected).
            # Before the start the roster it may have missed goes to everyone on the timer.
            if self.start_entry is not None:
                self._send(EntryMessage(self.start_entry.raw), source)
            return
        if pending is None or pending[0] != key:
            raise RemoteProtocolError("PROVE without a HELLO from that address", author=key)
        if key in self.removed:
            self._send(Leave(self.table_id, key, "the host removed you from this table"),
                       source)
            return
        _, nonce, spectator = pending
        if not verify(key, CHALLENGE_DOMAIN,
                      challenge_message(self.table_id, nonce, self.identity.public_key),
                      prove.signature):
            raise RemoteProtocolError("PROVE signature does not verify", author=key)
        del self._challenges[source]
        if spectator:
            if key not in self.spectators and len(self.spectators) >= MAX_SPECTATORS:
                self._send(Leave(self.table_id, key, "no room for more spectators"), source)
                return
            self.spectators[key] = source
            self._broadcast_roster()
            if self.start_entry is not None:
                self._send(EntryMessage(self.start_entry.raw), source)
            return
        if key in self._keys():
            old = self._member(key)
            self._replace(replace(old, address=source))
            if self.start_entry is not None:
                # A player back after losing its game file: the START entry lets it resume.
                self._send(EntryMessage(self.start_entry.raw), source)
            return
        reason = None
        if self.start_entry is not None:
            reason = "the game has started"
        elif self._proposal is not None or len(self.members) >= self.config.players:
            # A proposal may yet be withdrawn (a member that does not accept it): a joiner
            # told the table is full asks again, and may get that member's seat.
            reason = TABLE_FULL
        elif len(contribution) != CONTRIBUTION_SIZE or not name_ok(name) or colour not in COLOURS:
            reason = "bad name, colour or contribution"
        if reason is not None:
            self._send(Leave(self.table_id, key, reason), source)
            return
        taken = {m.colour for m in self.members}
        if colour in taken:
            colour = next(c for c in COLOURS if c not in taken)
        self.members.append(Member(key, name, colour, False, source, contribution))
        self._broadcast_roster()

    def _receive_update(self, update: Update, source: tuple[str, int]) -> None:
        key, name, colour, ready = update.key, update.name, update.colour, update.ready
        if key not in self._keys():
            raise RemoteProtocolError("UPDATE from someone not at the table", author=key)
        if not verify(key, UPDATE_DOMAIN, update_message(self.table_id, key, name, colour, ready),
                      update.signature):
            raise RemoteProtocolError("UPDATE signature does not verify", author=key)
        if not name_ok(name) or colour not in COLOURS:
            raise RemoteProtocolError("UPDATE with a bad name or colour", author=key)
        if any(m.colour == colour and m.key != key for m in self.members):
            colour = self._member(key).colour  # taken: keep the old one
        self._update(key, name, colour, ready)

    def _update(self, key: bytes, name: str, colour: str, ready: bool) -> None:
        if self._proposal is not None:
            return
        old = self._member(key)
        self._replace(replace(old, name=name, colour=colour, ready=ready))

    def _leave(self, leave: Leave, source: tuple[str, int]) -> None:
        key, signature = leave.key, leave.said
        if not isinstance(signature, bytes):
            raise DecodeError("LEAVE to the host is [table id, key, signature]")
        if key == self.identity.public_key or self._proposal is not None:
            return
        if not verify(key, UPDATE_DOMAIN, leave_message(self.table_id, key), signature):
            raise RemoteProtocolError("LEAVE signature does not verify", author=key)
        self._drop(key)
        self._broadcast_roster()

    def _drop(self, key: bytes) -> None:
        """Forget a member or a spectator (its seat is free again)."""
        self.spectators.pop(key, None)
        self.members = [m for m in self.members if m.key != key]
        self._last_heard.pop(key, None)
        self._heard_keys.discard(key)

    def _dismiss(self, key: bytes, reason: str) -> None:
        """Drop a member or a spectator, telling it why (a LEAVE to its address)."""
        address = self._address_of(key)
        if address is not None:
            self._send(Leave(self.table_id, self.identity.public_key, reason), address)
        self._drop(key)

    def key_of(self, who: str) -> bytes | None:
        """The key of the member or spectator (not us) whose fingerprint (or a member's
        name) is ``who``, or None."""
        for member in self.members[1:]:
            if who in (member.name, member.fingerprint):
                return member.key
        return next((key for key in self.spectators if fingerprint(key) == who), None)

    def remove(self, key: bytes) -> None:
        """The host removes a member or a spectator from the table before the start (it
        may not sit at this table again); a pending proposal is withdrawn."""
        if key == self.identity.public_key:
            raise LocalProtocolError("the host cannot remove itself (leave the table instead)")
        if self.start_entry is not None:
            raise LocalProtocolError("the game has started")
        if self._address_of(key) is None:
            raise LocalProtocolError("nobody at the table has that key")
        self.removed.add(key)
        self._dismiss(key, "the host removed you from this table")
        self._withdraw()
        self._broadcast_roster()

    def _withdraw(self) -> None:
        """Withdraw a pending proposal: the table is open again."""
        self._proposal, self._proposed_at = None, None
        self._acceptances = {}

    def leave(self, reason: str = "the table was closed") -> None:
        """Close the table before the start: everyone at it is told why (LEAVE)."""
        for destination in self._destinations():
            self._send(Leave(self.table_id, self.identity.public_key, reason), destination)

    def _keys(self) -> set[bytes]:
        return {m.key for m in self.members}

    def _member(self, key: bytes) -> Member:
        return next(m for m in self.members if m.key == key)

    def _replace(self, member: Member) -> None:
        self.members = [member if m.key == member.key else m for m in self.members]
        self._broadcast_roster()

    def _config_tree(self) -> wire.Value:
        """The config as the lobby's messages and the START carry it: the table's rules in."""
        return wire.value(table_tree(self.config, self.rules))

    def _roster_message(self) -> Roster:
        return Roster(self.table_id, self._config_tree(),
                      tuple((m.key, m.name, m.colour, m.ready, m.address[0], m.address[1])
                            for m in self.members),
                      self._proposal is not None)

    def _broadcast_roster(self) -> None:
        self._events.append(RosterChanged(tuple(self.members)))
        roster = self._roster_message()
        for destination in self._destinations():
            self._send(roster, destination)

    def _destinations(self) -> list[tuple[str, int]]:
        return [m.address for m in self.members[1:]] + list(self.spectators.values())

    @property
    def proposed(self) -> bool:
        """Whether the final roster has been proposed (the table is closed)."""
        return self._proposal is not None

    @property
    def can_start(self) -> bool:
        return len(self.members) == self.config.players and all(m.ready for m in self.members)

    def start(self) -> None:
        """Propose the final roster (the table must be full and everyone ready)."""
        if not self.can_start:
            raise LocalProtocolError("the table must be full and everyone ready to start")
        self._proposal = tuple(Seat(m.key, m.name, m.colour, m.contribution, b"")
                               for m in self.members)
        commitment = game_chain(self.identity, self.game_id).commitment
        self._acceptances = {self.identity.public_key: (commitment, accept_start(
            self.identity, self._digest(), commitment))}
        self._propose()

    def _digest(self) -> bytes:
        assert self._proposal is not None
        return start_digest(self.table_id, self.config, self._proposal, self.rules)

    def _propose(self) -> None:
        assert self._proposal is not None
        proposal = Propose(self.table_id, self._config_tree(),
                           tuple((s.key, s.name, s.colour, s.contribution)
                                 for s in self._proposal))
        for m in self.members[1:]:
            if m.key not in self._acceptances:
                self._send(proposal, m.address)
        self._broadcast_roster()

    def _accept(self, accept: Accept, source: tuple[str, int]) -> None:
        key, commitment, signature = accept.key, accept.commitment, accept.signature
        if key not in self._keys() or source != self._member(key).address:
            raise RemoteProtocolError("ACCEPT from an address not at the table", author=key)
        if self.start_entry is not None:
            # It accepted but missed the start: answer at its own address only.
            self._send(EntryMessage(self.start_entry.raw), source)
            return
        if self._proposal is None:
            raise RemoteProtocolError("ACCEPT with nothing proposed", author=key)
        if not verify(key, START_DOMAIN, self._digest() + commitment, signature):
            raise RemoteProtocolError("ACCEPT signature does not verify", author=key)
        self._acceptances[key] = (commitment, signature)
        if len(self._acceptances) < len(self._proposal):
            return
        seats = [replace(s, commitment=self._acceptances[s.key][0]) for s in self._proposal]
        entry = make_start(self.identity, self.table_id, self.config, seats,
                           [self._acceptances[s.key][1] for s in self._proposal], self.rules)
        self.start_entry = entry
        self.started = parse_start(entry)
        for destination in self._destinations():
            self._send(EntryMessage(entry.raw), destination)
        self._events.append(Started(self.started))

    def handle_timer(self, now: float) -> None:
        """Drop whoever has been silent for :data:`SILENT_AFTER`; withdraw a proposal not
        accepted by all within :data:`START_DEADLINE`, dropping those who did not accept;
        retransmit the roster (and a pending proposal) for anyone who missed it."""
        if self.start_entry is not None:
            return
        for key in self._heard_keys:
            self._last_heard[key] = now
        self._heard_keys.clear()
        if self._proposal is not None:
            if self._proposed_at is None:
                self._proposed_at = now
            elif now - self._proposed_at >= START_DEADLINE:
                late = [s.key for s in self._proposal if s.key not in self._acceptances]
                self._withdraw()
                for key in late:  # it had its chance: not at this table again
                    self.removed.add(key)
                    self._dismiss(key, f"you did not accept the start within "
                                       f"{START_DEADLINE:.0f} s")
                self._broadcast_roster()
                return
        else:
            silent = [key for key in [*(m.key for m in self.members[1:]), *self.spectators]
                      if now - self._last_heard.setdefault(key, now) >= SILENT_AFTER]
            for key in silent:
                self._dismiss(key, f"nothing heard from you for {SILENT_AFTER:.0f} s")
            if silent:
                self._broadcast_roster()
                return
        if self._proposal is not None:
            self._propose()
        elif len(self.members) > 1 or self.spectators:
            roster = self._roster_message()
            for destination in self._destinations():
                self._send(roster, destination)


def update_message(table_id: bytes, key: bytes, name: str, colour: str, ready: bool) -> bytes:
    return wire.encode([table_id, key, name, colour, ready])


def leave_message(table_id: bytes, key: bytes) -> bytes:
    """What a member signs to leave the table."""
    return wire.encode([table_id, key, "leave"])


class JoinLobby(_Base):
    """A joiner's side: proves the host's key, enters the roster, accepts the start."""

    def __init__(self, identity: Identity, host: tuple[str, int], name: str, colour: str, *,
                 nonce: bytes, contribution: bytes, table_id: bytes = b"",
                 host_fingerprint: str | None = None, spectator: bool = False) -> None:
        """``nonce``: fresh random bytes for the host's proof of its key; ``contribution``:
        fresh random bytes of ours for the game id; ``table_id``: the announced table (b"":
        whatever table the host has)."""
        super().__init__(identity)
        _check_name(name, colour)
        if len(nonce) != NONCE_SIZE:
            raise LocalProtocolError(f"a nonce is {NONCE_SIZE} bytes")
        if len(contribution) != CONTRIBUTION_SIZE:
            raise LocalProtocolError(f"a contribution is {CONTRIBUTION_SIZE} bytes")
        self.contribution = contribution
        self.game_id = b""  # known once the final roster is proposed
        self.host = host
        self.name = name
        self.colour = colour
        self.ready = False
        self.spectator = spectator
        self.table_id = table_id
        self.host_fingerprint = host_fingerprint
        self.host_key: bytes | None = None
        self.config: GameConfig | None = None
        self.rules = DEFAULT_RULES  # the table's, as the host's WELCOME gave them
        self.members: tuple[Member, ...] = ()
        self._nonce = nonce
        self._proved: Prove | None = None
        self._accepted: Accept | None = None
        self.refused: str | None = None
        self.closed = False  # the host's roster says the table is closed (proposed/started)
        self._asking_since: float | None = None  # the first timer tick: when we began asking
        self._heard = False  # a valid message from the proven host since the last tick
        self._last_heard: float | None = None
        self.silent_since: float | None = None  # the proven host fell silent then
        self._left_table = b""  # the table the host had when it fell silent
        self._silent_host = ""  # who fell silent, as HostSilent named it
        self.silent: str | None = None  # what HostSilent said, until the host is back
        self._kept_alive = 0.0  # when we last proved to the host that we are here
        self.full = False  # the host said its table is full: we wait for a seat
        self.impostor = False  # whoever answered could not prove the announced key
        self._hello()

    def _hello(self) -> None:
        self._send(Hello(self.table_id, self.identity.public_key, self._nonce, self.spectator),
                   self.host)

    @property
    def accepted(self) -> bool:
        """Whether we accepted a proposed start (else a START naming us means we lost it)."""
        return self._accepted is not None

    @property
    def admitted(self) -> bool:
        return any(m.key == self.identity.public_key for m in self.members)

    def receive(self, message: Message, source: object) -> None:
        if source != self.host:
            raise RemoteProtocolError("lobby message from an address that is not the host")
        if self.refused is not None:
            return  # we are done with this host
        if isinstance(message, Roster | Propose) and self._proved is None:
            # Only a host that proved its key (WELCOME) speaks for the table.
            raise RemoteProtocolError("ROSTER or PROPOSE before the host proved its key")
        handler = _JOINER_HANDLERS.get(type(message))
        if handler is None:
            raise DecodeError(f"{message.TAG.name} is not for a joiner")
        handler(self, message)
        self._heard = self._proved is not None  # the next timer tick notes when

    def refuse(self, reason: str) -> None:
        """Give up on this host, saying why (also for what the caller found, such as a host
        that speaks another protocol version)."""
        self._refuse(reason)

    def _refuse(self, reason: str) -> None:
        self.refused = reason
        self._events.append(Refused(reason))

    def _welcome(self, welcome: Welcome) -> None:
        table_id, host_key = welcome.table_id, welcome.host_key
        if self._proved is not None:
            return
        if self.table_id and table_id != self.table_id:
            return self._refuse("the host answered for another game")
        if self.host_fingerprint and fingerprint(host_key) != self.host_fingerprint:
            self.impostor = True
            return self._refuse("the host's key does not match the announced fingerprint")
        if not verify(host_key, CHALLENGE_DOMAIN,
                      challenge_message(table_id, self._nonce, self.identity.public_key),
                      welcome.signature):
            self.impostor = True
            return self._refuse("the host could not prove its key")
        if self.silent_since is not None:
            again = "at a new table" if table_id != self._left_table else "at its table"
            self._events.append(HostBack(f"{self._silent_host} is back {again}: joining again"))
            self.silent_since = self.silent = None
        try:
            config, rules = read_table_tree(welcome.config)
        except EngineError as exc:
            return self._refuse(f"the host's config is invalid: {exc}")
        if (why := players_problem(config)) is not None:
            return self._refuse(f"the host's config is invalid: {why}")
        self.config, self.rules = config, rules
        self.table_id = table_id
        self.host_key = host_key
        proof = self.identity.sign(CHALLENGE_DOMAIN,
                                   challenge_message(table_id, welcome.nonce, host_key))
        self._proved = Prove(table_id, self.identity.public_key, proof, self.contribution,
                             self.name, self.colour)
        self._send(self._proved, self.host)
        return None

    def _receive_roster(self, roster: Roster) -> None:
        if roster.table_id != self.table_id:
            raise DecodeError("ROSTER for another table")
        members = []
        for key, name, colour, ready, host, port in roster.members:
            if not name_ok(name) or colour not in COLOURS:
                raise DecodeError("ROSTER with a bad name or colour")
            address = self.host if key == self.host_key else (host, port)
            members.append(Member(key, name, colour, ready, address))
        self.members = tuple(members)
        if self.closed and not roster.closed and self.started is None:
            # The host withdrew its proposal (someone did not accept in time): the next
            # one will be another game.
            self._accepted, self.game_id = None, b""
        self.closed = roster.closed
        mine = next((m for m in members if m.key == self.identity.public_key), None)
        if mine is not None:
            self.colour = mine.colour  # the host may have given us a free colour
        self._events.append(RosterChanged(self.members))

    def set_me(self, name: str, colour: str, ready: bool) -> None:
        """Change our name, colour or readiness (sent to the host)."""
        _check_name(name, colour)
        self.name, self.colour, self.ready = name, colour, ready
        if self.admitted:
            self._send_update()

    def _send_update(self) -> None:
        key = self.identity.public_key
        signature = self.identity.sign(
            UPDATE_DOMAIN, update_message(self.table_id, key, self.name, self.colour, self.ready))
        self._send(Update(self.table_id, key, self.name, self.colour, self.ready, signature),
                   self.host)

    def leave(self) -> None:
        key = self.identity.public_key
        signature = self.identity.sign(UPDATE_DOMAIN, leave_message(self.table_id, key))
        self._send(Leave(self.table_id, key, signature), self.host)

    def _receive_proposal(self, proposal: Propose) -> None:
        if proposal.table_id != self.table_id:
            raise DecodeError("PROPOSE for another table")
        try:
            config, rules = read_table_tree(proposal.config)
        except EngineError:
            raise DecodeError("PROPOSE carries a malformed config") from None
        seats = tuple(Seat(*seat, b"") for seat in proposal.seats)
        mine = next((s for s in seats if s.key == self.identity.public_key), None)
        if (config, rules) != (self.config, self.rules) or mine is None \
                or mine.contribution != self.contribution:
            # Our fresh contribution is what keeps an old game from coming back.
            return self._refuse("the host proposed a game we did not agree to")
        self.game_id = game_id_of(self.table_id, config, seats, rules)
        commitment = game_chain(self.identity, self.game_id).commitment
        signature = accept_start(self.identity,
                                 start_digest(self.table_id, config, seats, rules), commitment)
        self._accepted = Accept(self.table_id, self.identity.public_key, commitment, signature)
        self._send(self._accepted, self.host)
        return None

    def _receive_leave(self, leave: Leave) -> None:
        if leave.said == TABLE_FULL and not self.spectator:
            self.full = True  # ask again on the next tick, with a fresh nonce
        elif isinstance(leave.said, str):
            self._refuse(f"the host refused: {leave.said}")

    def _start(self, message: EntryMessage) -> None:
        if self.started is not None:
            return
        entry = decode_entry(message.raw)
        if entry.kind != Kind.START:
            return  # game traffic before we know the start: sync will bring it again
        if not verify(entry.author, ENTRY_DOMAIN, entry.body, entry.signature):
            raise RemoteProtocolError("bad signature on the start entry", author=entry.author)
        start = parse_start(entry)
        if start.table_id != self.table_id:
            return
        if self.game_id and start.game_id != self.game_id:
            return self._refuse("the host started another game than the one we accepted")
        self.game_id = start.game_id
        if not self.spectator and self.identity.public_key not in {s.key for s in start.seats}:
            return self._refuse("the game started without us")
        self.started = start
        self._events.append(Started(start))
        return None

    def handle_timer(self, now: float, nonce: bytes) -> None:
        """Retransmit whatever the host has not answered yet; give up on a host that has not
        proved its key within :data:`NO_ANSWER_AFTER` seconds, naming what to check; say so
        when a host that proved its key falls silent (:class:`HostSilent`), and from then on
        ask it afresh (``nonce``: fresh random bytes for that HELLO) until it answers with the
        same key, at its table or at a new one if it restarted (:class:`HostBack`)."""
        if self.started is not None or self.refused is not None:
            return
        if self._asking_since is None:
            self._asking_since = now
        if self._heard or (self._proved is not None and self._last_heard is None):
            self._last_heard, self._heard = now, False
        if self._proved is None and self.host_key is None \
                and now - self._asking_since >= NO_ANSWER_AFTER:
            host, port = self.host
            return self._refuse(
                f"no answer from {host}:{port} in {NO_ANSWER_AFTER:.0f} s: check the address "
                "and the port, that the host is still at its table, and that no firewall "
                "blocks UDP between you")
        if (self._proved is not None and self._last_heard is not None
                and now - self._last_heard >= HOST_SILENT_AFTER):
            self._fell_silent(now, nonce)
        if self.full:  # start over, for a seat that may have freed up
            self.full, self._nonce, self._proved, self._last_heard = False, nonce, None, None
        if self._accepted is not None:
            self._send(self._accepted, self.host)
        elif self._proved is None:
            self._hello()
        elif (not self.admitted or (self.closed and self._accepted is None)
              or now - self._kept_alive >= KEEPALIVE_EVERY):
            # Not in the roster yet (a spectator never is); or the table closed and neither
            # a PROPOSE nor the START reached us (we may be a player back without our game
            # file): proving our key again makes the host repeat its answer; and the host
            # drops members it has not heard from for SILENT_AFTER.
            self._kept_alive = now
            self._send(self._proved, self.host)
        elif any(m.key == self.identity.public_key and (m.ready, m.name, m.colour)
                 != (self.ready, self.name, self.colour) for m in self.members):
            self._send_update()

    def _host_label(self) -> str:
        host, port = self.host
        name = next((m.name for m in self.members if m.key == self.host_key), None)
        who = f"{name} [{fingerprint(self.host_key)}]" if name and self.host_key else "the host"
        return f"{who} at {host}:{port}"

    def _fell_silent(self, now: float, nonce: bytes) -> None:
        """Start over with the same host key: a fresh HELLO for whatever table it has."""
        self._silent_host = self._host_label()
        self.silent = (
            f"{self._silent_host} has not answered for {HOST_SILENT_AFTER:.0f} s: check that "
            "it is still running and at its table, and the network between you; waiting for "
            "it to come back")
        self._events.append(HostSilent(self.silent))
        self.silent_since = now
        self._left_table = self.table_id
        # The host fell silent after it answered, so its key is known.
        self.host_fingerprint = fingerprint(self.host_key)  # type: ignore[arg-type]
        self.table_id, self.game_id, self._nonce = b"", b"", nonce
        self._proved = self._accepted = None
        self._last_heard = None
        self.members, self.closed = (), False


_HOST_HANDLERS: dict[type[Message], Callable[[HostLobby, Any, tuple[str, int]], None]] = {
    Prove: HostLobby._prove,
    Update: HostLobby._receive_update,
    Accept: HostLobby._accept,
    Leave: HostLobby._leave,
}
"""The host's handler of each message for its table (HELLO, which may name none, aside)."""

_JOINER_HANDLERS: dict[type[Message], Callable[[JoinLobby, Any], None]] = {
    Welcome: JoinLobby._welcome,
    Roster: JoinLobby._receive_roster,
    Propose: JoinLobby._receive_proposal,
    Leave: JoinLobby._receive_leave,
    EntryMessage: JoinLobby._start,
}
"""A joiner's handler of each message from its host."""
