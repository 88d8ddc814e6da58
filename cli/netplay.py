"""Networked play for the terminal client: a Peer on a background asyncio thread, the LAN
lobby as the client sees it, and :class:`NetTable`, the :class:`~.tui.table.Table` over a
peer's session.

curses wants a synchronous loop and the Peer an asyncio one, so the Peer (and any local bot
peers) live on one event loop in a daemon thread; the client calls into it with
:meth:`PeerThread.call`. It reads the lobby and then the game only through the immutable
snapshots the peer publishes (:class:`~p2p_burgundy.net.snapshot.LobbySnapshot`,
:class:`~p2p_burgundy.net.snapshot.Snapshot`), never the objects the loop is changing.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

import msgpack

from p2p_burgundy import (
    Action,
    Edition,
    GameState,
    IllegalAction,
    action_from_tree,
    new_game,
    state_hash,
)
from p2p_burgundy.config import Module, Setup
from p2p_burgundy.estate import Estate
from p2p_burgundy.net.audit import audit
from p2p_burgundy.net.clock import GameClock, TimeControl, clock_text
from p2p_burgundy.net.discovery import Browser, TableInfo
from p2p_burgundy.net.errors import DecodeError, LocalProtocolError
from p2p_burgundy.net.events import ChanceResolved, Resolved
from p2p_burgundy.net.identity import (
    Identity,
    fingerprint,
    key_path,
    load_or_create,
    table_code,
)
from p2p_burgundy.net.log import read_records
from p2p_burgundy.net.peer import Peer, game_path, saved_port
from p2p_burgundy.net.policy import HandOverPolicy
from p2p_burgundy.net.report import Resignation
from p2p_burgundy.net.snapshot import LobbySnapshot, Snapshot
from p2p_burgundy.net.start import COLOURS
from p2p_burgundy.net.tablerules import TableRules

from . import files
from .estates import table_config
from .lan import LanError, open_peer, play_headless
from .loopback import LOOPBACK
from .strategies import make
from .tui.table import (
    ChatReceived as TableChat,
)
from .tui.table import (
    Clocks,
    EntryKind,
    GameEnded,
    GameStep,
    HistoryEntry,
    Notice,
    Shown,
    StateChanged,
    TableEvent,
    chance_lines,
    clean_name,
    clean_text,
    module_notes,
    turn_lines,
)

T = TypeVar("T")
CALL_TIMEOUT = 10.0
GONE_AFTER = 10.0
"""Seconds a player the game waits for must stay silent (beyond the peer's own few seconds
before it counts them missing) before the client offers to let a bot play their seat."""
DRAFT_SUFFIX = ".draft"
"""Beside a game file, our turn under way (:meth:`NetTable.keep_draft`)."""
CLOCK_SUFFIX = ".clock"
"""Beside a game file, the game clock as this computer measured it (each seat's time used
and who is out of time), so that ``play --resume`` goes on from there."""


BOTS_DIR = "bots"


def bot_home(data_dir: Path, number: int) -> Path:
    """Where local bot ``number`` of a player keeps its key and game files.

    >>> bot_home(Path("/home/anna/.local/share/p2p-burgundy"), 2).as_posix()
    '/home/anna/.local/share/p2p-burgundy/bots/2'
    """
    return data_dir / BOTS_DIR / str(number)


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
        # The tables seen on the LAN: the browser hands over a new copy on each change, which
        # nobody changes afterwards (one reference swap, so the UI reads one or the other).
        self.tables: Mapping[str, TableInfo] = {}
        self._bot_tasks: list[asyncio.Task[None]] = []
        self._closed = False

    def call(self, coroutine: Coroutine[Any, Any, T], timeout: float = CALL_TIMEOUT) -> T:
        """Run ``coroutine`` on the peer loop and wait for its result."""
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def open(self, home: Path, *, interface: str | None = None, port: int = 0,
             mdns: bool = True) -> Peer:
        """Our Peer: the key in ``home`` (made on first use), a UDP socket on ``interface``
        (default: every interface) and ``port`` (default: any free one). LanError if the key
        file is unreadable; OSError if the port cannot be bound."""
        self.peer = self.call(open_peer(home, interface=interface, port=port, mdns=mdns))
        return self.peer

    def browse(self, interface: str | None = None) -> None:
        """Keep :attr:`tables` up to date with the tables announced on the LAN."""
        interfaces = [interface] if interface else None

        def changed(tables: dict[str, TableInfo]) -> None:
            self.tables = MappingProxyType(tables)

        async def go() -> Browser:
            browser = Browser(interfaces, changed)
            await browser.start()
            return browser

        self.browser = self.call(go())

    def add_bots(self, count: int, strategy: str, address: tuple[str, int]) -> None:
        """Start ``count`` headless bot peers (own keys, own sockets on ``address``'s host)
        joining the table at ``address``. Bot N keeps its key and game files in
        :func:`bot_home`, so ``--resume`` can start it again."""
        assert self.peer is not None
        for _ in range(count):
            bot_number = len(self.bots) + 1
            home = bot_home(self.peer.data_dir, bot_number)
            identity = load_or_create(key_path(home))
            name = f"Bot {bot_number}"
            colour = COLOURS[bot_number % len(COLOURS)]

            async def go(identity: Identity = identity, home: Path = home, name: str = name,
                         colour: str = colour) -> Peer:
                peer = await Peer.open(identity, home, host=address[0], announce=False)
                await peer.join(address, name, colour)
                await peer.set_me(name, colour, ready=True)
                return peer

            self._start_bot(self.call(go()), strategy)

    def resume_bots(self, strategy: str) -> int:
        """Start again the local bots of the game our peer has resumed: every bot home under
        our data directory that holds this game's file, on the port it had. Returns how many
        (a crash of the ``play`` process took them down with it)."""
        assert self.peer is not None and self.peer.snapshot is not None
        host, game_id = self.peer.address[0], self.peer.snapshot.game_id
        homes = sorted((self.peer.data_dir / BOTS_DIR).glob("*"))
        paths = [p for p in (game_path(home, game_id) for home in homes) if p.is_file()]
        for path in paths:
            home = path.parent.parent
            identity = load_or_create(key_path(home))

            async def go(identity: Identity = identity, home: Path = home,
                         path: Path = path) -> Peer:
                try:  # the others know the bot at its old port: take it again if free
                    peer = await Peer.open(identity, home, host=host, port=saved_port(path),
                                           announce=False)
                except OSError:
                    peer = await Peer.open(identity, home, host=host, announce=False)
                await peer.resume(path)
                return peer

            self._start_bot(self.call(go()), strategy)
        return len(paths)

    def _start_bot(self, bot: Peer, strategy: str) -> None:
        self.bots.append(bot)
        seed = int.from_bytes(os.urandom(4), "big")

        async def spawn() -> asyncio.Task[None]:
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
        """Close every peer (ours and the bots') and the browser, then stop the loop."""
        if self._closed:
            return
        self._closed = True

        async def go() -> None:
            await _cancel(self._bot_tasks)
            if self.browser is not None:
                await self.browser.close()
            # Together: a finished game's peers each wait for the others to hold its entries.
            await asyncio.gather(*(peer.close()
                                   for peer in [*self.bots, *([self.peer] if self.peer else [])]))
            await _cancel([t for t in asyncio.all_tasks() if t is not asyncio.current_task()])

        with contextlib.suppress(concurrent.futures.TimeoutError, RuntimeError):
            self.call(go())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
        if not self._thread.is_alive():
            self.loop.close()


async def _cancel(tasks: Sequence[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait for them; again if one swallowed its cancellation (as
    ``asyncio.wait_for`` can in Python 3.11 when what it waits for completes meanwhile)."""
    for _ in range(50):
        pending = [t for t in tasks if not t.done()]
        if not pending:
            return
        for task in pending:
            task.cancel()
        await asyncio.wait(pending, timeout=0.1)


class LanLobby:
    """The lobby as the client shows it: host or join, members, readiness, start.

    The peer thread changes the lobby; this runs in the UI's thread, so it never reads the
    lobby: it reads the immutable snapshot the peer publishes after each batch of input
    (:attr:`Peer.lobby_snapshot <p2p_burgundy.net.peer.Peer.lobby_snapshot>`), one reference
    read per frame (:attr:`table`), as :class:`NetTable` reads the game. Commands go to the
    peer thread through :meth:`PeerThread.call`.
    """

    def __init__(self, thread: PeerThread) -> None:
        self.thread = thread
        assert thread.peer is not None
        self.peer = thread.peer  # to send commands and take its snapshots; never read otherwise
        self.key = self.peer.identity.public_key
        self.fingerprint = fingerprint(self.key)

    def host(self, players: int, name: str, colour: str, edition: str = "2011",
             setup: Setup | None = None, estate: str | None = None,
             modules: tuple[Module, ...] = (), board: Estate | None = None,
             hints: bool = False, clock: TimeControl | None = None,
             switches: Sequence[str] = ()) -> None:
        """Open a table: everyone on ``estate`` (default 1) or a ``board`` of one's own, or
        the experts' ``setup``; with the expansion ``modules``; ``hints`` from a bot allowed
        or not; a game ``clock`` or none; with the modes of play ``switches`` names."""
        config = table_config(players, Edition(edition), estate, setup, modules, board,
                              switches)
        self.thread.call(self.peer.host(config, name, colour, TableRules(hints, clock)))

    def join(self, table: TableInfo | tuple[str, int], name: str, colour: str,
             spectator: bool = False) -> None:
        if isinstance(table, TableInfo):
            coroutine = self.peer.join(table.address, name, colour, game_id=table.game_id,
                                       host_fingerprint=table.fingerprint, spectator=spectator)
        else:
            coroutine = self.peer.join(table, name, colour, spectator=spectator)
        self.thread.call(coroutine)

    def leave(self) -> None:
        """Leave the table (the game has not started): the peer can host or join again."""
        self.thread.call(self.peer.leave())

    def set_me(self, name: str, colour: str, ready: bool) -> None:
        self.thread.call(self.peer.set_me(name, colour, ready))

    def start(self) -> None:
        self.thread.call(self.peer.start_game())

    def remove(self, key: bytes) -> None:
        """Host: remove a member or a spectator from our table (it may not come back)."""
        self.thread.call(self.peer.remove(key))

    @property
    def address(self) -> tuple[str, int]:
        """Where others join our table (host:port)."""
        return self.peer.reachable_address

    @property
    def table(self) -> LobbySnapshot | None:
        """The table we host or joined, as the peer last published it (None: at no table).
        Read it once per frame: each read may give a later snapshot."""
        return self.peer.lobby_snapshot  # one reference read: a whole snapshot

    def free_seats(self, table: LobbySnapshot) -> int:
        """Seats of ``table`` nobody holds yet (our bots on their way count as taken)."""
        keys = {m.key for m in table.members}
        coming = [b for b in self.thread.bots
                  if b.identity.public_key not in keys and b.snapshot is None
                  and (joining := b.lobby_snapshot) is not None and joining.refused is None]
        return max(0, table.seats - len(keys) - len(coming))

    def add_bots(self, count: int, strategy: str = "greedy") -> None:
        """Fill ``count`` seats of our hosted table with local bot peers."""
        self.thread.add_bots(count, strategy, self.address)

    @property
    def game(self) -> Snapshot | None:
        """The game, once it started: its latest snapshot."""
        return self.peer.snapshot


class NetTable(Shown):
    """A :class:`~.tui.table.Table` over a peer's session, read through its snapshots.

    The peer thread changes the session; this table runs in the UI's thread, so it never
    reads the session: it reads the immutable snapshots the peer publishes after each batch
    of input (:attr:`Peer.snapshot <p2p_burgundy.net.peer.Peer.snapshot>`, net/snapshot.py).
    Each :meth:`poll` takes the latest one whole and describes what changed since the one it
    read before, so the screen always shows one consistent moment of the game, and skipped
    snapshots lose nothing (each holds every step and every chat line). Commands go to the
    peer thread through :meth:`PeerThread.call`.

    The log shows what the local game shows: each step the session resolved (what a chance
    event drew, a turn's actions, the game after it) is described the same way, once: a
    resolved step never changes. A seat the game waits for
    and has not heard from for ``gone_after`` seconds is offered to a bot (:meth:`gone`,
    :meth:`seat_to_bot`), and so is, at once, a seat out of time on the table's game clock.
    """

    networked = True

    def __init__(self, thread: PeerThread, *, gone_after: float = GONE_AFTER,
                 clock: Callable[[], float] = time.monotonic) -> None:
        peer = thread.peer
        assert peer is not None and peer.snapshot is not None and peer.game_file is not None
        self.thread = thread
        self._peer = peer  # to send commands and take its snapshots; never read otherwise
        self._snapshot = peer.snapshot
        # Where the game is kept: the peer opened the file before it published a snapshot.
        self.game_file = peer.game_file.path
        self._kept: tuple[bytes, tuple[Action, ...]] | None = None  # the draft last kept
        self._names = [clean_name(s.name, f"Seat {i + 1}")
                       for i, s in enumerate(self._snapshot.seats)]
        self._read = -1  # seq of the last snapshot described
        self._history: list[HistoryEntry] = module_notes(self._snapshot.config)
        self._steps: list[Resolved] = []  # the game's steps described
        self._chats = [0] * len(self._names)  # chat lines shown per seat
        self._rejected: set[tuple[int, int]] = set()  # void entries said, as (seat, seq)
        self._proofs = 0  # equivocations said
        self._split = False  # an equivocation stopped the game: the verdicts are verify's
        self._misbehaving: set[int] = set()  # seats named for an entry that broke a rule
        self._over = False  # the end of the game described
        self._forfeits: set[int] = set()
        self._resigned: set[int] = set()  # seats whose resignation was shown
        self._resignations: list[str] = []  # for the final scores, once the game is over
        self._sole: tuple[int, int] | None = None  # the sole entropy contributor announced
        self._shown_withheld: set[tuple[int, int]] = set()  # (seat, event) rolls shown
        self._ended: str | None = None
        self._clock = clock
        control = self._snapshot.rules.clock
        self._policy = HandOverPolicy(gone_after, GameClock(control, self._snapshot.config.players,
                                                            *self._kept_clock())
                                      if control is not None else None)
        self._clocks_shown: tuple[str, ...] = ()  # the clocks as last drawn, to the second
        self._clock_kept: tuple[int, ...] | None = None  # the running seats when last kept
        self._told_out: set[int] = set()  # seats whose running out of time was said

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot of the session this table shows (the latest one :meth:`poll` read)."""
        return self._snapshot

    @property
    def my_seat(self) -> int | None:
        """Our seat, or None when we watch: as a spectator, or once we resigned (a bot plays
        the seat and we only watch, here and when the game is opened again)."""
        seat = self._snapshot.my_seat
        return None if seat in self._snapshot.resigned else seat

    @property
    def state(self) -> GameState:
        # A secret set-up choice: we choose now, whoever is "to move"; nobody sees it until
        # every player has committed.
        choice = self._snapshot.choice_state
        if choice is not None:
            return choice
        return self._steps[-1].state if self._steps else new_game(self._snapshot.config)

    @property
    def resignations(self) -> Sequence[str]:
        return tuple(self._resignations)

    @property
    def rules(self) -> TableRules:
        """The table's rules: hints from a bot allowed or not, its game clock (its host
        chose them; everyone signed them)."""
        return self._snapshot.rules

    @property
    def steps(self) -> Sequence[GameStep]:
        """The game's steps the session resolved (the ones this table has shown)."""
        return tuple(GameStep(step.drew if isinstance(step, ChanceResolved) else step.actions,
                              step.state) for step in self._steps)

    @property
    def clocks(self) -> Clocks | None:
        """Each seat's time left on the table's game clock (None: the table has none), as
        this computer measures it (net/clock.py)."""
        clock = self._policy.clock
        if clock is None:
            return None
        now = self._clock()
        return Clocks(tuple(clock.left(seat, now) for seat in range(len(self._names))),
                      clock.running)

    @property
    def table_code(self) -> str:
        return table_code(self._snapshot.game_id, [s.key for s in self._snapshot.seats])

    # --- changing ------------------------------------------------------------------------

    def submit_turn(self, actions: list[Action]) -> None:
        try:
            if self._snapshot.choice_due and len(actions) == 1:
                self.thread.call(self._peer.submit_choice(actions[0]))
            else:
                self.thread.call(self._peer.submit_turn(actions))
        except LocalProtocolError as exc:
            raise IllegalAction(str(exc)) from None

    def send_chat(self, text: str) -> None:
        text = clean_text(text)
        if text.strip():
            self.thread.call(self._peer.send_chat(text))

    # --- our turn under way, kept beside the game file (the Drafting protocol) ---------

    def keep_draft(self, actions: Sequence[Action]) -> None:
        """Keep our turn so far beside the game file (``.draft``: the hash of the game it
        starts from, and its choices), so that ``play --resume`` brings a turn left half
        done back as it was. Nothing of it is sent before the turn ends."""
        kept = (state_hash(self.state), tuple(actions))
        if kept == self._kept:
            return
        self._kept = kept
        path = self.game_file.with_suffix(DRAFT_SUFFIX)
        with contextlib.suppress(OSError):  # the turn goes on; only bringing it back is lost
            if actions:
                files.write_atomically(path, msgpack.packb(
                    [kept[0], [a.to_tree() for a in actions]], use_bin_type=True))
            else:
                path.unlink(missing_ok=True)

    @property
    def kept_draft(self) -> tuple[Action, ...]:
        """The choices kept for the game as it stands now (none when the file is for
        another moment of the game, or damaged)."""
        try:
            data = files.read_input(self.game_file.with_suffix(DRAFT_SUFFIX),
                                    limit=files.MAX_JSON_FILE)
            base, trees = msgpack.unpackb(data, raw=False)
            if base != state_hash(self.state):
                return ()
            return tuple(action_from_tree(tree) for tree in trees)
        except Exception:  # a missing or damaged file (msgpack raises many kinds)
            return ()

    @property
    def last_turn_end(self) -> tuple[int, GameState] | None:
        return None  # the log's rule and marks start from this session's turns

    def resign(self) -> None:
        """Leave the game for good: our signed resignation hands our seat to a bot, with no
        vote, and the game goes on for the others; we watch from then on."""
        if self._ended is None and not self._snapshot.over:
            try:
                self.thread.call(self._peer.end() if self.may_end else self._peer.resign())
            except LocalProtocolError as exc:
                raise IllegalAction(str(exc)) from None

    @property
    def may_end(self) -> bool:
        """Whether we are the only player left: :meth:`resign` then ends the game here, with
        us the winner, instead of leaving the seat to a bot."""
        return self._snapshot.may_end

    def gone(self) -> list[int]:
        """Seats the game waits for that we have not heard from for a while."""
        return self._policy.gone(self._snapshot.step, self._clock())

    def seat_to_bot(self, seat: int) -> None:
        """Agree that a bot plays ``seat``; it does once every other live player agrees."""
        try:
            step = self.thread.call(_agree_seat_to_bot(self._peer, seat))
        except LocalProtocolError as exc:
            raise IllegalAction(str(exc)) from None
        self._policy.agreed(seat, step)

    # --- reading the snapshots -----------------------------------------------------------

    def waiting_for(self) -> str | None:
        snapshot = self._snapshot
        waiting = snapshot.waiting
        if waiting is None or self._ended:
            return None
        me = self.my_seat
        if waiting.what == "turn":
            mover = waiting.seats[0]
            if mover == me:
                return None
        seats = [s for s in waiting.seats if s != me]
        if not seats:
            return None
        missing = [s for s in seats if s in self._policy.silent]
        late = [s for s in seats if s in self._policy.out_of_time]
        who = " and ".join(self._names[s] for s in seats)
        note = f" (not heard from: {', '.join(self._names[s] for s in missing)})" \
            if missing and len(seats) > 1 else " (not heard from)" if missing else ""
        if late:
            note += f" (out of time: {', '.join(self._names[s] for s in late)})" \
                if len(seats) > 1 else " (out of time)"
        what = {"turn": f"{who}'s turn", "reveal": f"the dice from {who}",
                "choice": f"the set-up choice of {who}",
                "hand-over": f"{who} to see the last step"}.get(waiting.what,
                                                                 f"the set-up of {who}")
        return f"waiting for {what}{note}"

    def poll(self) -> list[TableEvent]:
        """Take the peer's latest snapshot and turn what changed into history lines and
        table events."""
        snapshot = self._peer.snapshot  # one reference read: a whole snapshot
        assert snapshot is not None
        out: list[TableEvent] = []
        if snapshot.seq != self._read:
            out += self._describe(snapshot)
        if self._track_missing() or self._clocks_ticked():
            out.append(StateChanged())
        return out + self._out_of_time()

    def _out_of_time(self) -> list[TableEvent]:
        """Say it once when a seat runs out of time on the game clock (the table's rule:
        the others may hand it to the stand-in at once)."""
        out: list[TableEvent] = []
        for seat in self._policy.out_of_time:
            if seat in self._told_out or self._ended or self._snapshot.over:
                continue
            self._told_out.add(seat)
            text = ("Your time is out: the others may let a bot play your seat now."
                    if seat == self.my_seat else
                    f"{self._names[seat]}'s time is out: B lets a bot play that seat now.")
            self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
            out.append(Notice(text))
        return out

    def _clocks_ticked(self) -> bool:
        """Whether the clocks, to the second, differ from what the screen last showed."""
        clocks = self.clocks
        shown = tuple(map(clock_text, clocks.left)) if clocks is not None else ()
        ticked, self._clocks_shown = shown != self._clocks_shown, shown
        return ticked

    def _describe(self, snapshot: Snapshot) -> list[TableEvent]:
        """What changed from the snapshot read before to ``snapshot``, which the table shows
        from now on."""
        before, self._snapshot, self._read = self._snapshot, snapshot, snapshot.seq
        named = len(self._misbehaving)  # seats the log named before this snapshot
        out: list[TableEvent] = []
        changed = self._follow(snapshot)
        for seat, lines in enumerate(snapshot.chats):
            for line in lines[self._chats[seat]:]:
                text = clean_text(line)
                self._history.append(HistoryEntry(seat, text, EntryKind.CHAT))
                out.append(TableChat(seat, text))
            self._chats[seat] = len(lines)
        for void in snapshot.rejected:
            if (void.seat, void.seq) not in self._rejected:
                self._rejected.add((void.seat, void.seq))
                out.append(Notice(f"rejected: {void.reason}"))
                if void.cause.defect:  # its reason starts with the author's name: once is enough
                    author = f"{snapshot.seats[void.seat].name}: "
                    out += self._misbehaved(void.seat, void.reason.removeprefix(author))
        for proof in snapshot.equivocations[self._proofs:]:
            out += self._misbehaved(proof.seat, f"two signed versions of its entry {proof.seq}")
            if proof.seat not in snapshot.set_aside:  # the players may follow other games
                if not self._ended:  # a fork traced lower, or another body: said already
                    self._ended = (f"{self._names[proof.seat]} signed two versions of one "
                                   "entry; the game stopped")
                    self._split = True
                    out.append(GameEnded(self._ended))
            elif proof.seat != self.my_seat:
                text = (f"Nothing {self._names[proof.seat]} signs counts now: B lets a bot "
                        "play that seat, and the game goes on.")
                self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
                out.append(Notice(text))
        if self._split and (len(snapshot.equivocations) > self._proofs
                            or len(self._misbehaving) > named):
            changed |= self._judge_split()
        self._proofs = len(snapshot.equivocations)
        if snapshot.over and not self._over:
            self._over = True
            out += self._game_over(snapshot)
        out += self._hand_overs(snapshot)
        out += self._withheld_shown(snapshot)
        if changed or out or (snapshot.state, snapshot.waiting, snapshot.choice_state) != (
                before.state, before.waiting, before.choice_state):
            out.append(StateChanged())
        return out

    def _follow(self, snapshot: Snapshot) -> bool:
        """Describe the steps of ``snapshot`` not described yet (a step, once resolved, never
        changes). Whether anything changed."""
        steps = snapshot.history
        if len(steps) == len(self._steps):
            return False
        start = len(self._steps)
        self._steps = list(steps)
        self._show(start)
        return True

    def _game_over(self, snapshot: Snapshot) -> list[TableEvent]:
        """The resignations and the verdict for each seat, as verify says them, and who
        ended the game if one did."""
        self._resignations = [
            Resignation(seat, seq, snapshot.forfeits.get(seat),
                        *snapshot.handed.get(seat, (None, None))).text(self._names[seat]) + "."
            for seat, seq in sorted(snapshot.resigned.items())]
        self._history += [HistoryEntry(None, text, EntryKind.EVENT)
                          for text in self._resignations]
        self._resignations += self._verdicts(snapshot)  # the final scores only, as verify
        if snapshot.ended is None or self._ended:
            return []
        who = self._names[snapshot.ended[0]]
        self._ended = f"{who}, the only player left, ended it and wins"
        self._history.append(HistoryEntry(None, f"{who}, the only player left, ended the "
                                          "game and wins.", EntryKind.EVENT))
        return [GameEnded(self._ended)]

    def _misbehaved(self, seat: int, reason: str) -> list[TableEvent]:
        """Name a seat whose own entry broke a rule as soon as our peer knows, once (the
        verdict ``burgundy verify`` will give it; the end screen repeats it)."""
        if seat in self._misbehaving:
            return []
        self._misbehaving.add(seat)
        text = f"{self._names[seat]} misbehaved: {reason}."
        self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
        return [Notice(text)]

    def _withheld_shown(self, snapshot: Snapshot) -> list[TableEvent]:
        """Once a later reveal of a seat that withheld one gives the withheld link away,
        what that chance event would have drawn with it (once each)."""
        out: list[TableEvent] = []
        for held in snapshot.withheld:
            if held.would_have is None or (held.seat, held.event) in self._shown_withheld:
                continue
            self._shown_withheld.add((held.seat, held.event))
            text = (f"{self._names[held.seat]}'s later reveal gives away the one it withheld: "
                    f"with it, chance event {held.event} would have drawn:")
            self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
            self._history += chance_lines(held.would_have, self._names)
            out.append(Notice(text))
        return out

    def _judge_split(self) -> bool:
        """After an equivocation stopped the game, give the end screen the verdicts verify
        gives our game file as it stands, and end the log with them unless it already
        does; whether either changed. Called when the stop is first seen and again whenever
        our peer learns another body of a fork or the log names another player: a body
        learned later (a lower fork, another peer's answer) may change the verdicts, and the
        log may have named a player whose turn our game refused, which the verdicts say
        whether it holds in the game that player followed."""
        verdicts = self._file_verdicts()
        said = [HistoryEntry(None, text, EntryKind.EVENT) for text in verdicts]
        if verdicts == self._resignations and self._history[-len(said):] == said:
            return False
        self._resignations = verdicts
        if self._history[-len(said):] != said:
            self._history += said
        return True

    def _file_verdicts(self) -> list[str]:
        """The verdict for each seat that ``burgundy verify`` gives our game file as it
        stands (its whole records): after an equivocation that may have split the game, our
        peer may have refused another seat's turns that were legal in the game that seat
        followed, and verify judges each seat in its own (docs/protocol.md, "Judging the
        other seats")."""
        try:
            records, _ = read_records(self.game_file.read_bytes())
        except (OSError, DecodeError):
            return self._verdicts(self._snapshot)  # what our peer found, as it found it
        broke = {v.seat: [p.reason for p in v.problems]
                 for v in audit(records).verdicts if not v.honest}
        return self._verdict_lines(broke)

    def _verdicts(self, snapshot: Snapshot) -> list[str]:
        """A verdict for each seat, from the entries that broke a rule (another seat's never
        count against it): as ``burgundy verify`` gives them for this game file."""
        broke: dict[int, list[str]] = {}
        for void in snapshot.rejected:
            if void.cause.defect:
                broke.setdefault(void.seat, []).append(void.reason)
        for proof in snapshot.equivocations:
            broke.setdefault(proof.seat, []).append(
                f"{self._names[proof.seat]}: two signed versions of its entry {proof.seq}")
        return self._verdict_lines(broke)

    def _verdict_lines(self, broke: Mapping[int, list[str]]) -> list[str]:
        """One line per seat whose entries broke a rule (the reasons of each), or one line
        saying every record holds."""
        if not broke:
            return ["Every seat's record holds."]
        return [f"{self._names[seat]} misbehaved: {len(reasons)} entr"
                f"{'ies' if len(reasons) != 1 else 'y'} broke a rule ({reasons[0]}); every "
                "other seat's record holds." for seat, reasons in sorted(broke.items())]

    def _hand_overs(self, snapshot: Snapshot) -> list[TableEvent]:
        """Say each resignation and each seat handed to a bot once."""
        out: list[TableEvent] = []
        for seat in sorted(set(snapshot.resigned) - self._resigned):
            self._resigned.add(seat)
            text = (f"{self._names[seat]} resigned: a bot plays that seat from now on."
                    if seat != snapshot.my_seat else
                    "You resigned: a bot plays your seat from now on. You are watching the "
                    "rest of the game (q leaves).")
            self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
            out.append(Notice(text))
        if snapshot.overruled is not None and not self._ended:
            self._ended = (f"the other players handed your seat to a bot at step "
                           f"{snapshot.overruled}, before your own entry for it reached them: "
                           "the game goes on without you from there (burgundy verify shows it)")
            self._history.append(HistoryEntry(None, self._ended, EntryKind.EVENT))
            out.append(GameEnded(self._ended))
        for seat in sorted(set(snapshot.forfeits) - self._forfeits):
            self._forfeits.add(seat)
            if seat not in snapshot.resigned:
                text = (f"{self._names[seat]}'s seat is played by a bot from now on (agreed by "
                        "all).")
                step = snapshot.forfeits[seat]
                event = snapshot.history[step] if step < len(snapshot.history) else None
                if isinstance(event, ChanceResolved):
                    text += (f" {self._names[seat]} withheld its reveal for chance event "
                             f"{event.index}: it was drawn without it.")
                if seat == self.my_seat and not self._ended:
                    self._ended = "the other players handed your seat to a bot"
                    out.append(GameEnded(self._ended))
                self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
                out.append(Notice(text))
            out += self._sole_notice()
        return out

    def _sole_notice(self) -> list[TableEvent]:
        """Say it when hand-overs leave one seat contributing entropy (that player could
        predict every later roll and draw); in a 2-player game offer that player to end it."""
        sole = self._snapshot.sole_contributor
        if sole is None or sole == self._sole:
            return []
        self._sole = sole
        seat, k = sole
        who = "you" if seat == self.my_seat else self._names[seat]
        text = (f"From chance event {k} on, only {who} contribute{'' if who == 'you' else 's'} "
                f"entropy: {who} could predict every later roll and draw.")
        if self._snapshot.may_end and seat == self.my_seat and not self._ended:
            text += (" R ends the game here with you the winner; or play on against the "
                     "bot.")
        self._history.append(HistoryEntry(None, text, EntryKind.EVENT))
        return [Notice(text)]

    def _show(self, since: int) -> None:
        """Describe the steps from ``since`` on."""
        before = self._steps[since - 1].state if since else new_game(self._snapshot.config)
        for step in self._steps[since:]:
            if isinstance(step, ChanceResolved):
                self._history += chance_lines(step.drew, self._names)
            else:
                self._history += turn_lines(before, step.actions, self._names)
            before = step.state

    def _track_missing(self) -> bool:
        """Note since when each seat the game waits for has been silent (the table policy,
        net/policy.py); True when what the screen shows of it changed: a seat fell silent or
        spoke again, or has been gone long enough to be offered to a bot."""
        missing = () if self._ended else self._snapshot.missing
        changed = self._policy.observe(self._snapshot, missing, self._clock())
        self._keep_clock()
        return changed

    def _kept_clock(self) -> tuple[list[float], list[int]]:
        """The game clock kept beside the game file (none, or damaged: nothing used)."""
        try:
            used, out = msgpack.unpackb(files.read_input(
                self.game_file.with_suffix(CLOCK_SUFFIX), limit=files.MAX_JSON_FILE))
            if all(type(u) is float for u in used) and all(type(s) is int for s in out):
                return list(used), list(out)
        except Exception:  # a missing or damaged file (msgpack raises many kinds)
            pass
        return [], []

    def _keep_clock(self) -> None:
        """Keep the game clock beside the game file each time a clock stops or starts."""
        clock = self._policy.clock
        if clock is None or clock.running == self._clock_kept:
            return
        self._clock_kept = clock.running
        used, out = clock.kept
        with contextlib.suppress(OSError):  # the game goes on; only going on from here is lost
            files.write_atomically(self.game_file.with_suffix(CLOCK_SUFFIX),
                                   msgpack.packb([list(used), list(out)]))


async def _agree_seat_to_bot(peer: Peer, seat: int) -> int:
    """On the peer's loop: agree that a bot plays ``seat``; the step the agreement names."""
    assert peer.session is not None
    step = peer.session.step
    await peer.agree_seat_to_bot(seat)
    return step


def quick_bot_game(home: Path, bots: int, name: str,
                   colour: str = COLOURS[0], strategy: str = "greedy",
                   timeout: float = 30.0, gone_after: float = GONE_AFTER,
                   setup: Setup | None = None, modules: tuple[Module, ...] = (),
                   switches: Sequence[str] = ()) -> tuple[PeerThread, NetTable]:
    """Host a table on loopback, fill it with ``bots`` local bot peers, start it (2019
    edition when ``modules`` are in play or a mode of play's ``switches``: the team game).
    Hints are allowed: only our own bots play."""
    thread = PeerThread()
    try:
        thread.open(home, interface=LOOPBACK, mdns=False)
        lobby = LanLobby(thread)
        lobby.host(bots + 1, name, colour, "2019" if modules or switches else "2011", setup=setup,
                   modules=modules, hints=True, switches=switches)
        lobby.add_bots(bots, strategy)
        deadline = time.monotonic() + timeout
        while lobby.game is None:
            table = lobby.table
            if table is not None and table.can_start:
                lobby.start()
            if time.monotonic() > deadline:
                raise LanError("the bots did not join in time")
            thread.call(thread.peer.changed(0.2))  # type: ignore[union-attr]  # started above
    except BaseException:
        thread.close()
        raise
    return thread, NetTable(thread, gone_after=gone_after)


__all__ = ["GONE_AFTER", "LanLobby", "NetTable", "PeerThread", "quick_bot_game"]
