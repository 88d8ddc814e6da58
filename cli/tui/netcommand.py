"""Networked games in the terminal: the lobby screens, then the game, in one terminal session.

``burgundy play`` (no ``--seed``/``--local``) and ``burgundy host``/``join`` open our Peer on
a :class:`~..netplay.PeerThread`, show the lobby screens (:mod:`.lobbymodel`, drawn by
:mod:`.lobbyrender`) until the game starts, then run the game's :class:`~.app.App` on a
:class:`~..netplay.NetTable`. Every peer thread (ours and the local bots') is closed on the
way out, whatever happens.
"""

from __future__ import annotations

import asyncio
import contextlib
import curses
import logging
import shlex
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from p2p_burgundy import Module
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.errors import AddressError, KeyFileError, ProtocolError
from p2p_burgundy.net.identity import data_dir, key_path, load_or_create
from p2p_burgundy.net.known import append as remember_host
from p2p_burgundy.net.known import load as load_known
from p2p_burgundy.net.known import marks
from p2p_burgundy.net.peer import saved_port

from ..estates import table_extras
from ..lan import SETTLE_SECONDS, LanError, latest_game, parse_address, table_matches, trial_order
from ..netplay import GONE_AFTER, LanLobby, NetTable, PeerThread, quick_bot_game
from ..program import program
from ..web.command import WEB_PORT, announce, start_beside, stop_beside
from .app import POLL_MS, App, Palette, guarded, key_name, paint
from .layout import MIN_WIDTH
from .learn import PROGRESS_FILE, Lesson, first_start
from .lobbymodel import (
    AddBots,
    AtTable,
    Host,
    Join,
    Learn,
    Leave,
    LobbyCommand,
    LobbyModel,
    LobbyView,
    Page,
    PlayBots,
    QuitLobby,
    Remove,
    ServeWeb,
    SetMe,
    Start,
    dispatch_lobby,
)
from .lobbyrender import render_lobby
from .model import Model
from .render import Canvas, Seg, Style
from .table import DEFAULT_BOT_DELAY

if TYPE_CHECKING:
    from ..web.server import WebServer

log = logging.getLogger("p2p_burgundy.tui")


@dataclass(frozen=True, slots=True)
class NetOptions:
    """What every networked command shares (from the command line)."""

    home: Path
    name: str
    colour: str
    interface: str | None = None
    port: int = 0
    mdns: bool = True
    strategy: str = "greedy"  # how local bots play
    gone_after: float = GONE_AFTER
    autoplay: str | None = None  # a bot plays our seat too (demos and tests)
    mouse: bool = True
    watch: bool = False  # join tables as a spectator (read-only)
    web: bool = False  # serve the big screen (cli/web) from the start
    web_port: int = WEB_PORT  # its TCP port (w on the lobby page serves it too)
    hint_engine: str | None = None  # the program asked for hints (docs/bots.md)


def run_lobby(options: NetOptions, *, host: Host | None = None, join: str | None = None
              ) -> int:
    """The lobby screens (the tables list; or hosting ``host``; or joining ``join``: a table
    name, a fingerprint or host:port), then the game. Returns the exit code."""
    thread = PeerThread()
    threads = [thread]
    failures: list[str] = []
    try:
        try:
            thread.open(options.home, interface=options.interface, port=options.port,
                        mdns=options.mdns)
        except (LanError, OSError) as exc:
            print(f"burgundy: cannot open the network: {exc}", file=sys.stderr)
            return 1
        if options.mdns:
            try:
                thread.browse(options.interface)
            except Exception as exc:  # no multicast here: addresses still work
                log.warning("cannot browse for tables: %s", exc)
                options = replace(options, mdns=False)
                if thread.peer is not None:
                    thread.peer.announce = False

        def body(screen: curses.window, palette: Palette) -> int:
            runner = LobbyRunner(screen, palette, thread, options)
            runners.append(runner)
            if host is not None:
                runner.execute(runner.model.confirm_host(host))
            elif join is not None:
                runner.want(join)
            if options.web and host is None:  # hosting serves it once the table opens
                runner.execute(runner.model.toggle_web())
            outcome = runner.run()
            if outcome is None:
                return 0
            if runner.web is not None and isinstance(outcome, Learn | PlayBots):
                stop_beside(thread.loop, runner.web)  # its peer goes; its port is free again
                runner.web = None
            if isinstance(outcome, Learn):
                thread.close()
                lesson = Lesson(Path(options.home) / PROGRESS_FILE)
                lesson_table = lesson.table(runner.model.name, DEFAULT_BOT_DELAY)
                return App(screen, palette, lesson_table, Model(lesson_table, lesson)).run()
            if isinstance(outcome, PlayBots):
                thread.close()
                _notice(screen, palette, f"Starting a game against {outcome.count} bot"
                        f"{'s' if outcome.count > 1 else ''} on this computer...")
                try:
                    bots, table = quick_bot_game(options.home, outcome.count,
                                                 runner.model.name, runner.model.colour,
                                                 options.strategy,
                                                 gone_after=options.gone_after)
                except (LanError, OSError) as exc:
                    failures.append(f"burgundy: no game against bots: {exc}")
                    return 1
                threads.append(bots)
                if runner.model.web is not None:  # the page goes on, at the same address
                    assert bots.peer is not None
                    with contextlib.suppress(OSError):
                        pages.append((bots.loop, start_beside(
                            bots.loop, bots.peer, options.interface, options.web_port)))
            else:
                table = outcome
            played.append(table)
            return App(screen, palette, table, Model(table), options.autoplay,
                       options.hint_engine).run()

        played: list[NetTable] = []
        runners: list[LobbyRunner] = []
        pages: list[tuple[asyncio.AbstractEventLoop, WebServer]] = []  # served after the lobby
        code = guarded(body, mouse=options.mouse)
        for failure in failures:  # said once the terminal is back to normal
            print(failure, file=sys.stderr)
        for table in played:
            _say_how_to_resume(table, options)
        return code
    finally:
        for runner in runners:
            if runner.web is not None:
                stop_beside(thread.loop, runner.web)
        for loop, page in pages:
            stop_beside(loop, page)
        for t in threads:
            t.close()


def run_bot_game(options: NetOptions, bots: int, modules: tuple[Module, ...] = (),
                 switches: Sequence[str] = ()) -> int:
    """``burgundy play --bots N``: host on loopback, N local bot peers, start, play (with
    the modes of play ``switches`` names: the team game, 3 bots, the second one our
    partner)."""
    try:
        thread, table = quick_bot_game(options.home, bots, options.name, options.colour,
                                       options.strategy, gone_after=options.gone_after,
                                       modules=modules, switches=switches)
    except (LanError, OSError) as exc:
        print(f"burgundy play: {exc}", file=sys.stderr)
        return 1
    try:
        return _game(table, options)
    finally:
        thread.close()


def run_resume(options: NetOptions, gamefile: str | None) -> int:
    """``burgundy play --resume [GAMEFILE]``: rejoin an unfinished game, into the game."""
    thread = PeerThread()
    try:
        try:
            path = Path(gamefile) if gamefile else _latest_game(options.home)
            port = options.port or saved_port(path)
            try:  # the others know us at the port we had: take it again if it is free
                thread.open(options.home, interface=options.interface, port=port, mdns=False)
            except OSError:
                if not port or options.port:
                    raise
                thread.open(options.home, interface=options.interface, mdns=False)
            peer = thread.peer
            assert peer is not None
            thread.call(peer.resume(path))
            thread.resume_bots(options.strategy)
        except (LanError, ProtocolError) as exc:
            print(f"burgundy play: cannot resume: {exc}", file=sys.stderr)
            return 1
        except OSError as exc:  # no such file, or the port cannot be bound
            where = f" {exc.filename}" if exc.filename else ""
            print(f"burgundy play: cannot resume{where}: {exc.strerror}", file=sys.stderr)
            return 1
        return _game(NetTable(thread, gone_after=options.gone_after), options)
    finally:
        thread.close()


def _latest_game(home: Path) -> Path:
    try:
        key = load_or_create(key_path(home)).public_key
    except KeyFileError as exc:
        raise LanError(str(exc)) from None
    return latest_game(home, key)


def _game(table: NetTable, options: NetOptions) -> int:
    """Play ``table`` in the terminal; with ``--web``, the big screen first says where it is
    (and waits for Enter, so a phone can scan the code before the game takes the screen)."""
    server = None
    if options.web:
        peer = table.thread.peer
        assert peer is not None
        try:
            server = start_beside(table.thread.loop, peer, options.interface, options.web_port)
        except OSError as exc:
            print(f"burgundy: no web page on port {options.web_port}: {exc.strerror or exc} "
                  "(--web-port picks another)", file=sys.stderr)
            return 1
        announce(server.url, sys.stdout)
        with contextlib.suppress(EOFError):
            input("Press Enter to start. ")
    try:
        code = guarded(lambda screen, palette: App(screen, palette, table, Model(table),
                                                   options.autoplay, options.hint_engine).run(),
                       mouse=options.mouse)
    finally:
        if server is not None:
            stop_beside(table.thread.loop, server)
    _say_how_to_resume(table, options)
    return code


def resume_command(table: NetTable, options: NetOptions) -> str | None:
    """The command that brings us back to the game at ``table``, or None if there is nothing
    to come back to (the game is over, we resigned or were replaced, or we only watched)."""
    if table.snapshot.over or table.my_seat is None or table.ended:
        return None
    home = "" if options.home == data_dir() else f" --home {shlex.quote(str(options.home))}"
    return f"{program()} play --resume {shlex.quote(str(table.game_file))}{home}"


def _say_how_to_resume(table: NetTable, options: NetOptions) -> None:
    command = resume_command(table, options)
    if command is not None:
        print(f"This game is not over. To go back to it:\n    {command}")


def _notice(screen: curses.window, palette: Palette, text: str) -> None:
    height, width = screen.getmaxyx()
    canvas = Canvas(width, height)
    canvas.put(height // 2, 2, [Seg(text, Style.BOLD)])
    paint(screen, canvas, palette)


class LobbyRunner:
    """The lobby screens' loop: snapshot the peer, draw, read a key, carry out commands."""

    def __init__(self, screen: curses.window, palette: Palette, thread: PeerThread,
                 options: NetOptions) -> None:
        self.screen = screen
        self.palette = palette
        self.thread = thread
        self.options = options
        self.lobby = LanLobby(thread)
        self.known = load_known(Path(options.home))  # the hosts that proved their key before
        self.model = LobbyModel(options.name, options.colour, self.lobby.fingerprint)
        self.model.first = first_start(Path(options.home))
        self.model.web_wanted = options.web
        self.model.update(self.snapshot())
        self._wanted: str | None = None  # a table we look for by name until one takes us
        self._wanted_seen: float | None = None  # when a table answering it was first seen
        self._tried: set[str] = set()  # the instances answering it that we tried
        self._failures: list[str] = []  # the tables tried, and why each failed
        self._trying: TableInfo | None = None  # the announced table we joined, until proven
        self.web: WebServer | None = None  # the big screen, once served

    def want(self, target: str) -> None:
        """Join ``target`` (host:port now; a host name or fingerprint once it is seen)."""
        try:
            address = parse_address(target)
        except AddressError as exc:
            self.model.message = f"{exc}."
            return
        if address is not None:
            self.execute(self.model.confirm_join(address))
            return
        if not self.options.mdns:
            self.model.message = f"With --no-mdns, join by host:port, not {target}."
            return
        # Looked for as long as the user waits (a host may open its table later): until it
        # is seen, or the user hosts, joins another table or quits.
        self._wanted = target
        self.model.message = f"Looking for the table {target} on the LAN..."

    def snapshot(self) -> LobbyView:
        """What the screens show this frame: one snapshot of our table, the tables seen."""
        lobby = self.lobby
        mine = lobby.fingerprint
        tables = tuple(sorted((t for t in self.thread.tables.values() if t.fingerprint != mine),
                              key=lambda t: t.instance))
        table = lobby.table  # read once: the frame shows one moment of the table
        at = None
        if table is not None:
            config = table.config
            address = lobby.address if table.hosting else table.host
            at = AtTable(hosting=table.hosting, address=address or ("?", 0),
                         members=table.members, seats=table.seats,
                         edition=config.edition.value if config else "?",
                         extras=table_extras(config, table.rules) if config else "",
                         code=table.code, admitted=table.admitted,
                         can_start=table.can_start, closed=table.closed,
                         free=lobby.free_seats(table) if table.hosting else 0,
                         refused=table.refused, silent=table.silent)
        return LobbyView(tables=tables, mdns=self.options.mdns, table=at,
                         marks=tuple(marks(tables, self.known).items()))

    def run(self) -> NetTable | PlayBots | Learn | None:
        """Until the game starts (a NetTable), bots are asked for, or the user quits."""
        last = None
        while True:
            command = self.model.update(self.snapshot())
            if command is not None:
                self.execute(command)
                if isinstance(command, Leave):  # the table refused us
                    self._refused()
            self._look_for_wanted()
            self._remember_host()
            if self.lobby.game is not None:
                return NetTable(self.thread, gone_after=self.options.gone_after)
            height, width = self.screen.getmaxyx()
            canvas = render_lobby(self.model, width, height)
            lines = canvas.lines()
            if lines != last:
                paint(self.screen, canvas, self.palette)
                last = lines
            self.screen.timeout(POLL_MS)
            try:
                raw = self.screen.get_wch()
            except curses.error:
                continue
            name = key_name(raw)
            if name == "KEY_RESIZE":
                self.screen.clear()
                last = None
                continue
            if name == "KEY_MOUSE":
                command = None
                with contextlib.suppress(curses.error):
                    _, x, y, _, _ = curses.getmouse()
                    target = canvas.target_at(y, x)
                    command = self.model.click(target) if target is not None else None
            else:
                command = dispatch_lobby(self.model, name)
            if command is None:
                continue
            if isinstance(command, QuitLobby):
                if self.lobby.table is not None:  # tell it (a joiner leaves, a host closes it)
                    self.execute(Leave())
                return None
            if isinstance(command, PlayBots | Learn):
                if isinstance(command, Learn) and self.lobby.table is not None:
                    self.execute(Leave())
                return command
            self.execute(command)

    def _serve_web(self) -> None:
        """Start the big screen on the peer's loop; a port taken becomes a message."""
        peer, port = self.thread.peer, self.options.web_port
        assert peer is not None
        try:
            self.web = start_beside(self.thread.loop, peer, self.options.interface, port)
        except OSError as exc:
            self.model.showing_web = False
            self.model.message = (f"No web page on port {port}: {exc.strerror or exc} "
                                  "(--web-port picks another).")
            return
        self.model.web = self.web.url
        if self.model.page != Page.LOBBY:  # an IPv6 address leaves no room for the hint
            said = f"The big screen: {self.web.url} (w at a table: its QR code)."
            self.model.message = said if len(said) <= MIN_WIDTH else \
                f"The big screen: {self.web.url}"

    def _look_for_wanted(self) -> None:
        """Once a table answering the wanted name is seen, and SETTLE_SECONDS more (others
        may answer to it too), try each in turn (:func:`~..lan.trial_order`), one at a time.
        A table answering it that is seen late (after the others refused us) is tried too:
        the name is wanted until a table takes us, or the user hosts, joins or quits."""
        if self._trying is not None:
            return
        untried = self._untried()
        if not untried:
            return
        now = time.monotonic()
        if self._wanted_seen is None:
            self._wanted_seen = now
        if now - self._wanted_seen >= SETTLE_SECONDS:
            table = trial_order(untried, self.known)[0]
            self._tried.add(table.instance)
            self.model.selected = table.instance
            self.execute(self.model.confirm_join(table), wanted=True)

    def _untried(self) -> list[TableInfo]:
        """The tables seen answering the wanted name that we have not tried (none if no
        name is wanted)."""
        want = self._wanted
        return [] if want is None else [t for t in self.model.view.tables
                                        if table_matches(t, want) and t.instance not in self._tried]

    def _refused(self) -> None:
        """The table we tried refused us: note why, and say why none would take us once
        every table answering the wanted name has."""
        if self._trying is None:
            return
        warning = self.known.warning(self._trying)
        self._failures.append(f"{self._trying.label}: {self.model.message}"
                              + (f" ({warning})" if warning else ""))
        self._trying = None
        if self._untried():
            return  # the next is tried next frame
        if len(self._failures) > 1:
            self.model.message = "No table would take us: " + "; ".join(self._failures)

    def _remember_host(self) -> None:
        """The host of the announced table we joined proved its key (we see its roster):
        remember it (net/known.py)."""
        at = self.model.view.table
        if self._trying is None or at is None or at.hosting or not at.members:
            return
        if self.known.remember(self._trying.host_name, self._trying.fingerprint):
            remember_host(Path(self.options.home), self._trying.host_name,
                          self._trying.fingerprint)
        self._trying, self._wanted, self._wanted_seen = None, None, None
        self._tried, self._failures = set(), []

    def execute(self, command: LobbyCommand | None, *, wanted: bool = False) -> None:
        """Carry out a lobby command on the peer; a failure becomes a message. ``wanted``:
        the command joins a table answering the wanted name (the want stays)."""
        lobby, model = self.lobby, self.model
        if isinstance(command, Host | Join):  # the user chose (or we try) another table
            if not wanted:
                self._wanted, self._wanted_seen = None, None
                self._tried, self._failures = set(), []
            self._trying = command.target if isinstance(command, Join) and isinstance(
                command.target, TableInfo) else None
        try:
            if isinstance(command, Host):
                lobby.host(command.players, model.name, model.colour, command.edition,
                           setup=command.setup, estate=command.estate, modules=command.modules,
                           board=command.board, hints=command.hints, clock=command.clock,
                           switches=command.switches)
                if model.showing_web and self.web is None:  # w on the host page, or --web
                    self._serve_web()
            elif isinstance(command, Join):
                lobby.join(command.target, model.name, model.colour,
                           spectator=self.options.watch)
            elif isinstance(command, SetMe):
                lobby.set_me(command.name, command.colour, command.ready)
            elif isinstance(command, Start):
                lobby.start()
            elif isinstance(command, Remove):
                lobby.remove(command.key)
            elif isinstance(command, AddBots) and (at := model.view.table) is not None:
                lobby.add_bots(at.free, self.options.strategy)  # the seats the user saw free
            elif isinstance(command, Leave):
                lobby.leave()
            elif isinstance(command, ServeWeb) and self.web is None:
                self._serve_web()
        except Exception as exc:  # the network: say what happened, stay in the lobby
            log.error("%r failed:\n%s", command, traceback.format_exc())
            model.message = f"That did not work ({type(exc).__name__}: {exc})."
            if isinstance(command, Host | Join):
                model.page = Page.TABLES
                with contextlib.suppress(Exception):
                    lobby.leave()
                self._refused()


__all__ = ["LobbyRunner", "NetOptions", "run_bot_game", "run_lobby", "run_resume"]
