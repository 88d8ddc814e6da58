"""The Peer: asyncio glue around a sans-I/O :class:`~p2p_burgundy.net.node.Node`, the UDP
socket, mDNS and the game file.

This is the only place in the protocol layer that reads the clock, owns a socket or draws
random bytes. Everything it does is: receive a datagram or a timer tick, hand it to the node
(admission, lobby, session, routing), append the new entries to the game file (fsynced), then
send what the node allows. Clients on the peer's own loop (headless bots) read
``peer.session`` and call :meth:`Peer.submit_turn`; :meth:`Peer.changed` wakes them when
anything happened. A client on another thread (the curses UI) reads only
:attr:`Peer.lobby_snapshot` and :attr:`Peer.snapshot` (net/snapshot.py), never the lobby or
the session the loop is changing.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import os
import socket
import time
from collections import deque
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from p2p_burgundy import Action, GameConfig

from .discovery import Announcer, TableInfo, instance_name, lan_address
from .errors import AddressError, LocalProtocolError, ProtocolError
from .events import Event, GameOver
from .identity import Identity, fingerprint
from .lobby import (
    RETRY_INTERVAL,
    HostLobby,
    JoinLobby,
    LobbyEvent,
    Refused,
    RosterChanged,
)
from .log import Entry, GameFile, Kind, decode_entry, write_atomically
from .node import Node, SeatMoved
from .session import Session
from .snapshot import LobbySnapshot, Snapshot, Snapshots
from .start import CONTRIBUTION_SIZE
from .sync import HEADS_INTERVAL
from .tablerules import DEFAULT_RULES, TableRules
from .transport import Address, Transport

log = logging.getLogger(__name__)

MAX_EVENTS = 1024
SETTLE_SECONDS = 5.0
"""How long closing a finished game waits, at most, for the other seats to hold the entries
we hold (:meth:`Peer.close`); a seat already silent for ``MISSING_AFTER`` (3 s) when closing
begins is not waited for."""


def games_dir(data_dir: Path) -> Path:
    return data_dir / "games"


def game_path(data_dir: Path, game_id: bytes) -> Path:
    """Where a game's file lives: ``<data dir>/games/<game id hex>.game``."""
    return games_dir(data_dir) / f"{game_id.hex()}.game"


def counter_path(data_dir: Path, game_id: bytes) -> Path:
    """Where the counters our seals reserved in a game are saved (:attr:`Node.reserved`):
    ``<game id hex>.counter`` beside its game file."""
    return game_path(data_dir, game_id).with_suffix(".counter")


def saved_port(path: Path) -> int:
    """The port a peer used for the game in ``path`` (from the address book beside it), to
    bind it again when resuming: the others know it there. 0 if there is none.

    >>> saved_port(Path("/nonexistent/x.game"))
    0
    """
    try:
        return int(json.loads(path.with_suffix(".peers").read_text())["port"])
    except (OSError, ValueError, KeyError, TypeError):
        return 0


def is_local(host: str) -> bool:
    """Whether ``host`` is one of this machine's IPv4 addresses (only those can be bound).

    >>> is_local("127.0.0.1"), is_local("192.0.2.1")
    (True, False)
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.bind((host, 0))
    except OSError:
        return False
    return True


async def resolve(address: Address) -> Address:
    """``address`` with its host name resolved to an IPv4 address; AddressError if it has none.

    >>> asyncio.run(resolve(("localhost", 4000)))
    ('127.0.0.1', 4000)
    """
    host, port = address
    try:
        found = await asyncio.get_running_loop().getaddrinfo(
            host, port, family=socket.AF_INET, type=socket.SOCK_DGRAM)
    except OSError as exc:  # socket.gaierror and friends
        raise AddressError(f"cannot find the host {host}: {exc.strerror or exc}") from None
    return str(found[0][4][0]), port


class Peer:
    """One player's (or spectator's) presence on the LAN."""

    def __init__(self, identity: Identity, transport: Transport, data_dir: Path, *,
                 interfaces: Sequence[str] | None = None, announce: bool = True,
                 wall_clock: Callable[[], int] = time.time_ns) -> None:
        """``wall_clock``: the time in nanoseconds since the epoch, where our seals'
        counters start (:meth:`_first_counter`)."""
        self.identity = identity
        self.transport = transport
        self.data_dir = data_dir
        self.interfaces = interfaces
        self.announce = announce
        self._wall_clock = wall_clock
        self._reserved = 0  # the node's reservation of counters, as saved (_reserve)
        self.node = Node(identity, secret=os.urandom(16), nonces=lambda: os.urandom(16),
                         has_file=self._has_file, here=self._here,
                         first_counter=self._first_counter)
        transport.arrival = self.node.arrival  # a flood's cheapest drop, before any queue
        transport.sealing = lambda: self.node.sealing
        self.game_file: GameFile | None = None
        self.events: deque[LobbyEvent | Event | SeatMoved] = deque(maxlen=MAX_EVENTS)
        self.event_count = 0  # events ever recorded (the deque keeps the latest)
        self.snapshot: Snapshot | None = None  # the session after the last flush
        self.lobby_snapshot: LobbySnapshot | None = None  # the lobby, until the game starts
        self._snapshots: Snapshots | None = None
        self._announcer: Announcer | None = None
        self._changed = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._loop = asyncio.get_running_loop()
        self._closed = False

    @classmethod
    async def open(cls, identity: Identity, data_dir: Path, *, host: str = "0.0.0.0",
                   port: int = 0, interfaces: Sequence[str] | None = None,
                   announce: bool = True, wall_clock: Callable[[], int] = time.time_ns
                   ) -> Peer:
        peer = cls(identity, await Transport.open(host, port), data_dir,
                   interfaces=interfaces, announce=announce, wall_clock=wall_clock)
        peer._tasks = [asyncio.ensure_future(peer._receive_loop()),
                       asyncio.ensure_future(peer._timer_loop())]
        return peer

    @property
    def address(self) -> Address:
        return self.transport.address

    @property
    def lobby(self) -> HostLobby | JoinLobby | None:
        return self.node.lobby

    @property
    def session(self) -> Session | None:
        return self.node.session

    @property
    def errors(self) -> int:
        """Datagrams the lobby or the session rejected."""
        return self.node.errors

    # --- forming a table ---

    async def host(self, config: GameConfig, name: str, colour: str,
                   rules: TableRules = DEFAULT_RULES) -> HostLobby:
        """Open a table of ``config`` and the table's ``rules`` and (unless ``announce`` is
        off) announce it on the LAN. LocalProtocolError once the peer is closing (a table
        announced then would never be withdrawn)."""
        if self._closed:
            raise LocalProtocolError("cannot host a table: the peer is closed")
        lobby = HostLobby(self.identity, os.urandom(16), config, name, colour,
                          contribution=os.urandom(CONTRIBUTION_SIZE), rules=rules)
        self.node.host(lobby)
        self._publish(self._loop.time())
        if self.announce:
            fp = fingerprint(self.identity.public_key)
            info = TableInfo(instance_name(name, fp, lobby.table_id), name, fp,
                             lobby.table_id, 1, config.players, config.edition.value,
                             self.reachable_address)
            self._announcer = Announcer(info, self.interfaces)
            await self._announcer.start()
        self._notify()
        return lobby

    @property
    def reachable_address(self) -> Address:
        """Where others reach us: the bound address, or our LAN address if bound to all."""
        host = self.address[0]
        if host == "0.0.0.0":
            host = self.interfaces[0] if self.interfaces else lan_address()
        return host, self.address[1]

    async def join(self, address: Address, name: str, colour: str, *, game_id: bytes = b"",
                   host_fingerprint: str | None = None, spectator: bool = False) -> JoinLobby:
        """Ask the table at ``address`` for a seat (or to watch); ``game_id``: the table id
        it announced (b"": whatever table the host has). A host name is resolved first
        (replies come from an address, which the lobby compares with the host's);
        AddressError if it does not resolve."""
        address = await resolve(address)
        lobby = JoinLobby(self.identity, address, name, colour, nonce=os.urandom(16),
                          contribution=os.urandom(CONTRIBUTION_SIZE), table_id=game_id,
                          host_fingerprint=host_fingerprint, spectator=spectator)
        self.node.join(lobby)
        await self._flush()
        return lobby

    async def start_game(self) -> None:
        """Host: propose the start (the table must be full and ready)."""
        assert isinstance(self.lobby, HostLobby)
        self.lobby.start()
        await self._flush()

    async def remove(self, key: bytes) -> None:
        """Host: remove a member or a spectator from our table before the start."""
        assert isinstance(self.lobby, HostLobby)
        self.lobby.remove(key)
        await self._flush()

    async def set_me(self, name: str, colour: str, ready: bool = True) -> None:
        if isinstance(self.lobby, JoinLobby):
            self.lobby.set_me(name, colour, ready)
        elif isinstance(self.lobby, HostLobby):
            self.lobby.set_me(name, colour)
        await self._flush()

    async def leave(self) -> None:
        """Leave the table before the game starts (a joiner tells the host; a host tells
        everyone at its table and stops announcing it); the peer may then host or join again."""
        for data, address in self.node.leave():
            self.transport.send(data, address)
        self._publish(self._loop.time())
        await self._withdraw()
        self._notify()

    async def _withdraw(self) -> None:
        """Stop announcing our table, if we do. A failure is logged, not raised: the peer
        leaves all the same, and browsers drop the table when its records expire."""
        if self._announcer is None:
            return
        announcer, self._announcer = self._announcer, None
        try:
            await announcer.close()
        except Exception as exc:  # mDNS's own trouble must not keep the peer from leaving
            log.warning("could not withdraw our table from mDNS (%s: %s): browsers may list "
                        "it until its records expire", type(exc).__name__, exc)

    # --- resuming ---

    async def resume(self, path: Path) -> Session:
        """Rejoin a game from its file (after a crash or restart): same key, same seat.
        FileNotFoundError if there is no such file (none is created)."""
        if not path.is_file():
            raise FileNotFoundError(errno.ENOENT, "no such game file", str(path))
        game_file = GameFile(path)
        raws = game_file.entries
        starts = [r for r in raws if decode_entry(r).kind == Kind.START]
        if not starts:
            game_file.close()
            raise ProtocolError(f"{path}: no start entry")
        session = Session(decode_entry(starts[0]), self.identity)
        self.game_file = game_file
        self._load_entries(session)
        self.node.resume(session, self._load_addresses(session.game_id))
        self._save_addresses()  # our port now: the others move our seat here (net/node.py)
        self._notify()
        await self._flush()
        return session

    # --- playing ---

    async def submit_turn(self, actions: Sequence[Action]) -> None:
        assert self.session is not None
        self.session.submit_turn(actions)
        await self._flush()

    async def submit_choice(self, choice: Action) -> None:
        """Commit to our secret set-up choice (see :meth:`Session.submit_choice`)."""
        assert self.session is not None
        self.session.submit_choice(choice)
        await self._flush()

    async def agree_seat_to_bot(self, seat: int) -> None:
        """Agree that a bot plays a player who is gone for good (see Session)."""
        assert self.session is not None
        self.session.agree_seat_to_bot(seat)
        await self._flush()

    async def resign(self) -> None:
        """Leave the game for good: a bot plays our seat (see :meth:`Session.resign`)."""
        assert self.session is not None
        self.session.resign()
        await self._flush()

    async def end(self) -> None:
        """End the game as the only player left (see :meth:`Session.end`)."""
        assert self.session is not None
        self.session.end()
        await self._flush()

    async def send_chat(self, text: str) -> None:
        assert self.session is not None
        self.session.send_chat(text)
        await self._flush()

    async def changed(self, timeout: float | None = None) -> None:
        """Wait until something happened (an event, a new state) or ``timeout`` passed."""
        # asyncio.timeout, not wait_for: in Python 3.11 wait_for can swallow a cancellation.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._changed.wait()
        self._changed.clear()

    def events_since(self, cursor: int) -> tuple[list[LobbyEvent | Event | SeatMoved], int]:
        """Events recorded after ``cursor`` (a previous return value; start with 0), and the
        new cursor. Each reader keeps its own cursor."""
        first = self.event_count - len(self.events)
        return list(self.events)[max(0, cursor - first):], self.event_count

    def missing(self) -> list[int]:
        """Seats we have not heard from for a while (the game waits for them)."""
        return self.node.missing(self._loop.time())

    async def close(self) -> None:
        """Stop, and leave the game file in canonical order if the game is over: first, for
        at most :data:`SETTLE_SECONDS`, until every other seat we hear holds exactly the
        entries we hold (the players' last entries are signed as the game ends, so some may
        still be on their way), so that every peer leaves the same file; then it tells them
        what it holds (HEADS), so that none waits to the deadline for it."""
        if self._closed:
            return
        self._closed = True
        if self.session is not None and self.session.state.is_over:
            # Whom we wait for is fixed as we begin: a seat silent for MISSING_AFTER by then
            # may be gone for good, but one we heard until then is waited for to the
            # deadline, even if a flood or a bad link silences it meanwhile.
            began = self._loop.time()
            while not self.node.in_sync(began) and self._loop.time() < began + SETTLE_SECONDS:
                await asyncio.sleep(0.05)  # our loops run meanwhile: anti-entropy goes on
            self.session.announce_heads()
            await self._flush()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self._withdraw()
        if self.game_file is not None:
            if self.session is not None and self.session.state.is_over:
                self.game_file.rewrite([e.raw for e in self.session.canonical_entries()])
            self.game_file.close()
        self.transport.close()

    # --- the loop ---

    async def _receive_loop(self) -> None:
        while True:
            data, source = await self.transport.recv()
            errors = self.node.errors
            try:
                if not self.node.receive(data, source, self._loop.time()):
                    continue  # dropped by the cheap checks: nothing changed
            except Exception:  # a bug one datagram triggers must not deafen the peer for good
                log.exception("internal error on a datagram from %s (dropped)", source)
            if self.node.errors > errors:
                log.debug("dropped a datagram from %s: %s", source, self.node.last_error)
            await self._flush()

    async def _timer_loop(self) -> None:
        while True:
            await asyncio.sleep(min(HEADS_INTERVAL, RETRY_INTERVAL))
            self.node.handle_timer(self._loop.time())
            await self._flush()

    async def _flush(self) -> None:
        """Persist new entries, then send (never the other way round); record events and
        publish the session's snapshot."""
        now = self._loop.time()
        datagrams = self.node.flush(self._save, now)
        self._reserve()
        # The kernel drops what the node's arrival check would refuse first (a forger
        # sending as a sealing seat), so a flood of it never wakes us: net/transport.py.
        self.transport.refuse_unsealed(self.node.sealing)
        while (event := self.node.next_event()) is not None:
            self._record(event)
        self._publish(now)
        for data, destination in datagrams:
            self.transport.send(data, destination)

    def _save(self, entries: list[Entry]) -> None:
        """Append entries to the game file: our own fsynced, others' flushed (they become
        durable with our next fsync, and their authors hold them meanwhile)."""
        if self.game_file is None:  # the lobby just started the game
            assert self.session is not None
            self._open_game_file(self.session)
        assert self.game_file is not None
        mine = self.identity.public_key
        for entry in entries:
            self.game_file.append(entry.raw, durable=entry.author == mine)

    def _record(self, event: LobbyEvent | Event | SeatMoved) -> None:
        self.events.append(event)
        self.event_count += 1
        self._notify()
        if isinstance(event, SeatMoved):
            log.info("seat %d is back at %s:%d", event.seat, *event.address)
            self._save_addresses()  # so that we find it there after a restart too
        elif isinstance(event, RosterChanged):
            if self._announcer is not None:
                self._background(self._announcer.update(len(event.members)))
            if self.session is not None:
                self._save_addresses()  # a returning player's new address
        elif isinstance(event, Refused):  # the client says it to the user (an event)
            log.info("lobby: %s", event.reason)
        elif isinstance(event, GameOver):
            log.info("game over: %s", event.outcome)

    def _here(self, address: Address) -> bool:
        """Whether datagrams to ``address`` reach our socket: our port, at the address we
        are bound to or, bound to every interface, at one of this machine's."""
        host, port = self.address
        return address[1] == port and (
            address[0] == host or (host == "0.0.0.0" and is_local(address[0])))

    def _publish(self, now: float) -> None:
        """Replace :attr:`snapshot` with the session as it is now (before the game starts,
        :attr:`lobby_snapshot` with the lobby). A single reference assignment: a reader on
        another thread gets the previous snapshot or this one, each complete (a reader that
        skipped some loses nothing), never a session or a lobby half changed."""
        session = self.session
        if session is None:
            lobby = self.lobby
            self.lobby_snapshot = LobbySnapshot.of(lobby) if lobby is not None else None
            return
        if self._snapshots is None:
            self._snapshots = Snapshots(session)
        self.snapshot = self._snapshots.take(self.node.missing(now))

    def _has_file(self, game_id: bytes) -> bool:
        path = game_path(self.data_dir, game_id)
        return path.exists() and path.stat().st_size > 0

    def _open_game_file(self, session: Session) -> None:
        """The game the lobby just started: its file (entries it holds already go to the
        session) and its address book."""
        self.game_file = GameFile(game_path(self.data_dir, session.game_id))
        self._load_entries(session)
        self._save_addresses()
        self._notify()

    def _load_entries(self, session: Session) -> None:
        """Feed the game file's entries to a new session (the file skips them when the
        session hands them back as unsaved)."""
        assert self.game_file is not None
        for raw in self.game_file.entries:
            if raw != session.start.entry.raw:
                with contextlib.suppress(ProtocolError):
                    session.receive_entry(raw)

    def _first_counter(self, game_id: bytes) -> int:
        """Where our seals' counters start in a game: the wall clock in microseconds, or the
        counters reserved in it before (``<game>.counter``, :attr:`Node.reserved`) if that
        is higher (the clock went back while we were down)."""
        path = counter_path(self.data_dir, game_id)
        try:
            self._reserved = int(path.read_bytes())
        except FileNotFoundError:
            self._reserved = 0
        except (OSError, ValueError) as exc:
            log.warning("%s cannot be read (%s): our seals' counters start from the clock",
                        path, exc)
            self._reserved = 0
        return max(self._wall_clock() // 1000, self._reserved)

    def _reserve(self) -> None:
        """Make the node's reservation of counters durable (temporary file, fsync, rename)
        before anything sealed under it is sent."""
        if self.node.reserved > self._reserved and self.session is not None:
            write_atomically(counter_path(self.data_dir, self.session.game_id),
                             b"%d\n" % self.node.reserved)
            self._reserved = self.node.reserved

    def _addresses_path(self, game_id: bytes) -> Path:
        return game_path(self.data_dir, game_id).with_suffix(".peers")

    def _save_addresses(self) -> None:
        assert self.session is not None
        data = {"port": self.address[1],
                "seats": {str(k): list(v) for k, v in self.node.addresses.items()}}
        write_atomically(self._addresses_path(self.session.game_id), json.dumps(data).encode())

    def _load_addresses(self, game_id: bytes) -> dict[int, Address]:
        try:
            data = json.loads(self._addresses_path(game_id).read_text())
            return {int(k): (v[0], int(v[1])) for k, v in data["seats"].items()}
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            log.warning("no address book for this game: waiting to hear from the others")
            return {}

    def _notify(self) -> None:
        self._changed.set()

    def _background(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[None]) -> None:
        if task in self._tasks:
            self._tasks.remove(task)
