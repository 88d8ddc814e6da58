"""Networked play for the terminal client: a Peer on a background asyncio thread, the LAN
lobby as the client sees it, and :class:`NetTable`, the :class:`~.tui.table.Table` over a
peer's session.

curses wants a synchronous loop and the Peer an asyncio one, so the Peer (and any local bot
peers) live on one event loop in a daemon thread; the client calls into it with
:meth:`PeerThread.call`, and reads states, which are immutable, directly.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import tempfile
import threading
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

from p2p_burgundy import Action, EngineError, GameConfig, GameState, IllegalAction, new_game
from p2p_burgundy.net.discovery import Browser, TableInfo
from p2p_burgundy.net.errors import LocalProtocolError
from p2p_burgundy.net.identity import fingerprint, load_or_create, table_code
from p2p_burgundy.net.lobby import HostLobby, JoinLobby, Member, Refused
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.session import (
    COLOURS,
    ChanceResolved,
    ChatReceived,
    EntryRejected,
    Equivocation,
    GameOver,
    Session,
    TurnApplied,
)
from p2p_burgundy.rules import apply, resolve_chance

from .lan import LanError, compose_turn, play_headless
from .strategies import make
from .tui.describe import describe_chance, describe_turn
from .tui.table import (
    ChatReceived as TableChat,
)
from .tui.table import (
    EntryKind,
    GameEnded,
    HistoryEntry,
    Notice,
    StateChanged,
    TableEvent,
    clean_text,
)

T = TypeVar("T")
CALL_TIMEOUT = 10.0


class PeerThread:
    """An asyncio loop in a daemon thread, holding our Peer and any local bot peers."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True,
                                        name="burgundy-peer")
        self._thread.start()
        self.peer: Peer | None = None
        self.bots: list[Peer] = []
        self.browser: Browser | None = None
        self.tables: dict[str, TableInfo] = {}
        self._bot_tasks: list[asyncio.Task[None]] = []

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT) -> T:
        """Run ``coroutine`` on the peer loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def open(self, home: Path, *, interface: str | None = None, port: int = 0,
             mdns: bool = True) -> Peer:
        identity = load_or_create(home / "identity.key")
        interfaces = [interface] if interface else None

        async def go() -> Peer:
            return await Peer.open(identity, home, host=interface or "0.0.0.0", port=port,
                                   interfaces=interfaces, announce=mdns)

        self.peer = self.call(go())
        return self.peer

    def browse(self, interface: str | None = None) -> None:
        """Keep :attr:`tables` up to date with the tables announced on the LAN."""
        interfaces = [interface] if interface else None

        def changed(tables: dict[str, TableInfo]) -> None:
            self.tables = tables

        async def go() -> Browser:
            browser = Browser(interfaces, changed)
            await browser.start()
            return browser

        self.browser = self.call(go())

    def stop_browsing(self) -> None:
        if self.browser is not None:
            self.call(self.browser.close())
            self.browser = None

    def add_bots(self, count: int, strategy: str, address: tuple[str, int]) -> None:
        """Start ``count`` headless bot peers (own keys, own sockets) joining ``address``."""
        for _ in range(count):
            home = Path(tempfile.mkdtemp(prefix="burgundy-bot-"))
            identity = load_or_create(home / "identity.key")
            bot_number = len(self.bots) + 1
            name = f"Bot {bot_number}"

            colour = COLOURS[bot_number % len(COLOURS)]

            async def go(identity: Any = identity, home: Path = home, name: str = name,
                         colour: str = colour) -> Peer:
                peer = await Peer.open(identity, home, host="127.0.0.1", announce=False)
                await peer.join(address, name, colour)
                await peer.set_me(name, colour, ready=True)
                return peer

            bot = self.call(go())
            self.bots.append(bot)
            seed = int.from_bytes(os.urandom(4), "big")

            async def spawn(bot: Peer = bot, seed: int = seed) -> asyncio.Task[None]:
                return asyncio.ensure_future(self._run_bot(bot, strategy, seed))

            self._bot_tasks.append(self.call(spawn()))

    async def _run_bot(self, bot: Peer, strategy: str, seed: int) -> None:
        while bot.session is None:
            await bot.changed(0.5)
        try:
            await play_headless(bot, make(strategy, seed), timeout=24 * 3600)
            await asyncio.sleep(30)  # keep serving sync to slower peers
        except LanError:
            pass

    def close(self) -> None:
        async def go() -> None:
            for task in self._bot_tasks:
                task.cancel()
            await asyncio.gather(*self._bot_tasks, return_exceptions=True)
            if self.browser is not None:
                await self.browser.close()
            for peer in [*self.bots, *([self.peer] if self.peer else [])]:
                await peer.close()

        with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
            self.call(go())
        self.loop.call_soon_threadsafe(self.loop.stop)


class LanLobby:
    """The lobby as the client shows it: host or join, members, readiness, start."""

    def __init__(self, thread: PeerThread) -> None:
        self.thread = thread
        assert thread.peer is not None
        self.peer = thread.peer

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.peer.identity.public_key)

    def host(self, players: int, name: str, colour: str, edition: str = "2011") -> None:
        from p2p_burgundy import Edition

        config = GameConfig(players=players, edition=Edition(edition))
        self.thread.call(self.peer.host(config, name, colour))

    def join(self, table: TableInfo | tuple[str, int], name: str, colour: str,
             spectator: bool = False) -> None:
        if isinstance(table, TableInfo):
            coroutine = self.peer.join(table.address, name, colour, game_id=table.game_id,
                                       host_fingerprint=table.fingerprint, spectator=spectator)
        else:
            coroutine = self.peer.join(table, name, colour, spectator=spectator)
        self.thread.call(coroutine)

    def set_me(self, name: str, colour: str, ready: bool) -> None:
        self.thread.call(self.peer.set_me(name, colour, ready))

    @property
    def is_host(self) -> bool:
        return isinstance(self.peer.lobby, HostLobby)

    @property
    def members(self) -> tuple[Member, ...]:
        lobby = self.peer.lobby
        return tuple(lobby.members) if lobby is not None else ()

    @property
    def seats(self) -> int:
        lobby = self.peer.lobby
        if isinstance(lobby, HostLobby):
            return lobby.config.players
        if isinstance(lobby, JoinLobby) and lobby.config is not None:
            return lobby.config.players
        return 0

    @property
    def table_code(self) -> str | None:
        keys = [m.key for m in self.members]
        lobby = self.peer.lobby
        game_id = lobby.game_id if lobby is not None else b""
        return table_code(game_id, keys) if keys and game_id else None

    @property
    def refused(self) -> str | None:
        events, _ = self.peer.events_since(0)
        reasons = [e.reason for e in events if isinstance(e, Refused)]
        return reasons[-1] if reasons else None

    @property
    def can_start(self) -> bool:
        lobby = self.peer.lobby
        return isinstance(lobby, HostLobby) and lobby.can_start and not lobby.proposed

    def start(self) -> None:
        self.thread.call(self.peer.start_game())

    def add_bots(self, count: int, strategy: str = "greedy") -> None:
        """Fill ``count`` seats of our hosted table with local bot peers over loopback."""
        self.thread.add_bots(count, strategy, ("127.0.0.1", self.peer.address[1]))

    @property
    def session(self) -> Session | None:
        return self.peer.session


class NetTable:
    """A :class:`~.tui.table.Table` over a peer's session."""

    networked = True

    def __init__(self, thread: PeerThread) -> None:
        assert thread.peer is not None and thread.peer.session is not None
        self.thread = thread
        self.peer = thread.peer
        self.session = thread.peer.session
        self._names = [s.name for s in self.session.seats]
        self._cursor = 0
        self._shadow: GameState = new_game(self.session.config)  # replays events for the log
        self._history: list[HistoryEntry] = []
        self._ended: str | None = None
        self._bot = make("greedy", int.from_bytes(os.urandom(4), "big"))

    @property
    def names(self) -> list[str]:
        return list(self._names)

    @property
    def my_seat(self) -> int | None:
        return self.session.my_seat

    @property
    def state(self) -> GameState:
        return self._shadow

    @property
    def history(self) -> Sequence[HistoryEntry]:
        return self._history

    @property
    def ended(self) -> str | None:
        return self._ended

    @property
    def table_code(self) -> str:
        return table_code(self.session.game_id, [s.key for s in self.session.seats])

    def submit_turn(self, actions: list[Action]) -> None:
        try:
            self.thread.call(self.peer.submit_turn(actions))
        except LocalProtocolError as exc:
            raise IllegalAction(str(exc)) from None

    def send_chat(self, text: str) -> None:
        text = clean_text(text)
        if text.strip():
            self.thread.call(self.peer.send_chat(text))

    def resign(self) -> None:
        """Leave the game: say so; the others may hand our seat to a bot."""
        if self._ended is None and not self.session.state.is_over:
            self.thread.call(self.peer.send_chat("resigned and left the table"))
            self._ended = "you resigned"

    def waiting_for(self) -> str | None:
        waiting = self.session.waiting_for()
        if waiting is None or self._ended:
            return None
        missing = set(self.peer.missing())
        names = [self._names[s] + (" (not heard from)" if s in missing else "")
                 for s in waiting.seats if s != self.my_seat]
        if waiting.what == "turn":
            if waiting.seats[0] == self.my_seat and not self.session.playing_for_bot:
                return None
            return f"waiting for {names[0]}'s turn" if names else None
        return f"waiting for the dice from {', '.join(names)}" if names else None

    def poll(self) -> list[TableEvent]:
        """Turn the peer's new events into history lines and table events."""
        events, self._cursor = self.peer.events_since(self._cursor)
        out: list[TableEvent] = []
        for event in events:
            if isinstance(event, ChanceResolved):
                before = self._shadow
                if before.chance is None or before.chance.index != event.index:
                    self._resync()
                    continue
                self._shadow = resolve_chance(before, event.entropy)
                self._history += [HistoryEntry(None, t, EntryKind.CHANCE)
                                  for t in describe_chance(before, self._shadow, self._names)]
            elif isinstance(event, TurnApplied):
                before = self._shadow
                try:
                    after = before
                    for action in event.actions:
                        after = apply(after, action)
                except EngineError:
                    self._resync()
                    continue
                self._shadow = after
                for seat, text in describe_turn(before, event.actions, self._names):
                    kind = EntryKind.ACTION if seat is not None else EntryKind.EVENT
                    self._history.append(HistoryEntry(seat, text, kind))
            elif isinstance(event, ChatReceived):
                self._history.append(HistoryEntry(event.seat, event.text, EntryKind.CHAT))
                out.append(TableChat(event.seat, event.text))
            elif isinstance(event, EntryRejected):
                out.append(Notice(f"rejected: {event.reason}"))
            elif isinstance(event, Equivocation):
                self._ended = (f"{self._names[event.seat]} signed two versions of one entry; "
                               "the game stopped")
                out.append(GameEnded(self._ended))
            elif isinstance(event, GameOver):
                pass
            else:
                continue
            out.append(StateChanged())
        if self.session.playing_for_bot:
            # We are the deputy for a seat handed to a bot: a bot plays it, not the user.
            state = self.session.state
            self.thread.call(self.peer.submit_turn(compose_turn(state, self._bot)))
        return out

    def _resync(self) -> None:
        """The session rebuilt its game (a seat went to a bot): show its state as it is."""
        self._shadow = self.session.state
        self._history.append(HistoryEntry(None, "The game was recomputed after a seat was "
                                          "handed to a bot.", EntryKind.EVENT))


def quick_bot_game(home: Path, bots: int, name: str,
                   colour: str = COLOURS[0], strategy: str = "greedy",
                   timeout: float = 30.0) -> tuple[PeerThread, NetTable]:
    """Host a table on loopback, fill it with ``bots`` local bot peers, start it."""
    thread = PeerThread()
    thread.open(home, interface="127.0.0.1", mdns=False)
    lobby = LanLobby(thread)
    lobby.host(bots + 1, name, colour)
    lobby.add_bots(bots, strategy)
    deadline = thread.loop.time() + timeout
    while lobby.session is None:
        if lobby.can_start:
            lobby.start()
        if thread.loop.time() > deadline:
            thread.close()
            raise LanError("the bots did not join in time")
        thread.call(thread.peer.changed(0.2))  # type: ignore[union-attr]
    return thread, NetTable(thread)


__all__ = ["LanLobby", "NetTable", "PeerThread", "quick_bot_game"]
