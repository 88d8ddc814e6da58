"""LAN commands: ``burgundy tables``, ``burgundy bot`` (a headless peer), and the shared steps
they and the terminal client use to find, host, join and resume a table.

A headless bot is a full peer: its own key, game file, sync and rejoin. It is how tests and
people fill seats::

    burgundy bot --host --players 3            # host a table, start when 3 are ready
                                               # (type "remove FINGERPRINT" to remove one)
    burgundy bot --host --setup experts-secret # ... with the experts' set-up (secret choices)
    burgundy bot --strategy greedy             # join the first table found on the LAN
    burgundy bot 192.168.1.20:40123            # join by address (no mDNS needed)
    burgundy bot --resume                      # rejoin our unfinished game after a crash
    burgundy bot --engine "./mybot --fast"     # a program plays the seat (docs/bots.md)
    burgundy bot --moves turns.json --json     # recorded turns first; the result as JSON
    burgundy bot --serve --host --players 2    # host table after table until stopped
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
import math
import os
import signal
import sys
import threading
from collections.abc import Collection, Coroutine
from pathlib import Path
from typing import Any, TextIO, TypeVar

from p2p_burgundy import (
    Action,
    GameState,
    Turn,
    legal_actions,
    state_hash,
)
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.clock import GameClock
from p2p_burgundy.net.discovery import TableInfo, find_tables
from p2p_burgundy.net.errors import AddressError, KeyFileError, ProtocolError
from p2p_burgundy.net.events import EntryRejected, Equivocation, GameOver
from p2p_burgundy.net.identity import data_dir, fingerprint, key_path, load_or_create, table_code
from p2p_burgundy.net.known import KnownHosts, marks
from p2p_burgundy.net.known import append as remember_host
from p2p_burgundy.net.known import load as load_known
from p2p_burgundy.net.lobby import (
    RETRY_INTERVAL,
    HostBack,
    HostLobby,
    HostSilent,
    JoinLobby,
)
from p2p_burgundy.net.log import Kind, decode_entry, read_records
from p2p_burgundy.net.peer import Peer, game_path, games_dir
from p2p_burgundy.net.policy import HandOverPolicy
from p2p_burgundy.net.report import Audit
from p2p_burgundy.net.session import Session
from p2p_burgundy.net.start import COLOURS
from p2p_burgundy.net.tablerules import TableRules
from p2p_burgundy.scoring import categories

from . import options
from .engine import ENGINE, EngineResigned, EngineStrategy
from .estates import add_setup_arguments, check_table, table_config
from .files import MAX_GAME_FILE, MAX_JSON_FILE, read_input
from .gamejson import RESULT_VERSION, result_json, verdict
from .script import Script, ScriptedStrategy, ScriptError, read_script
from .strategies import STRATEGIES, BotError, Ledger, Strategy, StrategyError, make

SERVE_PAUSE = 1.0  # seconds --serve waits between games, and before looking for a table again
T = TypeVar("T")

SETTLE_SECONDS = 2.0
"""Once a table by the name we look for is seen, how long we keep browsing for others that
answer to it too (an impostor copying the name and fingerprint, or two hosts of that name)."""
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                         if hasattr(signal, name))
"""Signals that end a bot through its teardown (SIGINT does by asyncio.run already)."""


class LanError(Exception):
    """Something that ends a LAN command with a message (exit code 1)."""


class NoTable(LanError):
    """No table (of that name) was found on the LAN."""


class Stopped(Exception):
    """A stopping signal ended the command, through its teardown (exit code 128 + signal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


async def stopping_on_signals(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work``; a :data:`STOPPING_SIGNALS` signal cancels it, so that its ``finally``
    clauses run as on Ctrl-C (the peer says goodbye to mDNS, closes its game file), and then
    raises :class:`Stopped`."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None
    received: list[int] = []

    def stop(signum: int) -> None:
        received.append(signum)
        task.cancel()

    for s in STOPPING_SIGNALS:
        loop.add_signal_handler(s, stop, s)
    try:
        return await work
    except asyncio.CancelledError:
        if received:
            raise Stopped(received[0]) from None
        raise
    finally:
        for s in STOPPING_SIGNALS:
            loop.remove_signal_handler(s)


def add_peer_arguments(parser: argparse.ArgumentParser) -> None:
    """Options every networked command shares."""
    parser.add_argument("--name", type=options.name, default=None,
                        help="your name at the table")
    parser.add_argument("--colour", choices=COLOURS, default=None, help="your colour")
    parser.add_argument("--port", type=options.port, default=0,
                        help="UDP port (default: any free)")
    parser.add_argument("--interface", type=options.interface, default=None, metavar="IP",
                        help="bind to this address and announce/browse only on it")
    parser.add_argument("--no-mdns", action="store_true",
                        help="do not announce or browse (join by host:port)")
    parser.add_argument("--home", type=Path, default=None,
                        help="data directory for the key and game files "
                             "(default: $P2P_BURGUNDY_HOME or the user data directory)")


def parse_address(text: str) -> tuple[str, int] | None:
    """``host:port`` as an address, or None if ``text`` is not one (a table's name or
    fingerprint). Text ending in ``:digits`` is meant as an address: AddressError, at once,
    if its port or its numeric host is impossible.

    >>> parse_address("127.0.0.1:4000"), parse_address("anna.local:4000"), parse_address("Anna")
    (('127.0.0.1', 4000), ('anna.local', 4000), None)
    >>> parse_address("999.1.1.1:99")
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.errors.AddressError: 999.1.1.1 is not an IPv4 address (each number is 0-255)
    """
    host, sep, port = text.strip().rpartition(":")
    if not sep or not port.isdigit():
        return None
    if not host:
        raise AddressError(f"{text!r} has no host before the port (host:port)")
    if not 0 < int(port) < 65536:
        raise AddressError(f"port {port} of {text} is not a port (1-65535)")
    if all(c.isdigit() or c == "." for c in host):  # a numeric host: never look it up
        try:
            ipaddress.IPv4Address(host)
        except ValueError:
            raise AddressError(f"{host} is not an IPv4 address (each number is 0-255)") from None
    return host, int(port)


async def open_peer(home: Path | None, *, interface: str | None = None, port: int = 0,
                    mdns: bool = True) -> Peer:
    """Our peer: the key in ``home`` (default: the user data directory), a UDP socket on
    ``interface`` (default: all), and mDNS only there when an interface is given."""
    home = home or data_dir()
    try:
        identity = load_or_create(key_path(home))
    except KeyFileError as exc:
        raise LanError(str(exc)) from None
    interfaces = [interface] if interface else None
    return await Peer.open(identity, home, host=interface or "0.0.0.0", port=port,
                           interfaces=interfaces, announce=mdns)


def table_matches(table: TableInfo, want: str) -> bool:
    """Whether ``want`` names ``table``: its host's name, key fingerprint or instance name."""
    return want in (table.host_name, table.fingerprint) or table.instance.startswith(want)


async def find_table(args: argparse.Namespace, want: str | None, seconds: float,
                     tried: Collection[str] = ()) -> list[TableInfo]:
    """The tables named ``want`` (host name or fingerprint), or every table seen, but those
    ``tried`` (instance names), looked for until one is seen or ``seconds`` have passed (a
    host may open its table later), then :data:`SETTLE_SECONDS` more: an impostor may
    answer to the name too."""
    if args.no_mdns:
        raise LanError("with --no-mdns, give the table as host:port")
    interfaces = [args.interface] if args.interface else None

    def matches(table: TableInfo) -> bool:
        return table.instance not in tried and (want is None or table_matches(table, want))

    tables = await find_tables(seconds, interfaces,
                               until=lambda t: any(matches(x) for x in t.values()),
                               settle=SETTLE_SECONDS)
    found = [t for t in tables.values() if matches(t)]
    if not found:
        where = f" called {want!r}" if want else ""
        raise NoTable(f"no table{where} found on the LAN in {seconds:.0f} s "
                      "(multicast may be blocked: join by host:port instead)")
    return found


def trial_order(tables: list[TableInfo], known: KnownHosts) -> list[TableInfo]:
    """Which of the tables answering a name to try first: hosts that proved this key under
    this name before, then the others, likely impostors last (each by instance name)."""
    def rank(table: TableInfo) -> tuple[int, str]:
        return (0 if known.knows(table) else 2 if known.warning(table) else 1, table.instance)
    return sorted(tables, key=rank)


async def join_table(peer: Peer, args: argparse.Namespace, target: str | None, name: str,
                     colour: str, *, spectator: bool = False, timeout: float) -> JoinLobby:
    """Join ``target`` (host:port, a table's name or fingerprint, or None: the first table
    seen), looking for it on the LAN for up to ``timeout`` seconds. Every table answering
    the name is tried in turn (:func:`trial_order`), and then any heard in the
    :data:`SETTLE_SECONDS` after, until one whose host proves the announced key takes us;
    that host is remembered (net/known.py). LanError naming each table tried and why it
    failed if none does."""
    try:
        address = parse_address(target) if target else None
        if address is not None:
            return await peer.join(address, name, colour, spectator=spectator)
    except AddressError as exc:
        raise LanError(str(exc)) from None
    known = load_known(peer.data_dir)
    failures: list[str] = []
    tried: set[str] = set()
    while True:
        # After every table answering the name refused us, one heard late may still take
        # us: look a little longer.
        try:
            tables = await find_table(args, target, SETTLE_SECONDS if failures else timeout,
                                      tried)
        except NoTable:
            if failures:
                break
            raise
        for table in trial_order(tables, known):
            tried.add(table.instance)
            lobby = await peer.join(table.address, name, colour, game_id=table.game_id,
                                    host_fingerprint=table.fingerprint, spectator=spectator)
            why = await _proved(peer, lobby)
            if why is None:
                if known.remember(table.host_name, table.fingerprint):
                    remember_host(peer.data_dir, table.host_name, table.fingerprint)
                return lobby
            await peer.leave()
            warning = known.warning(table) or ("an impostor" if lobby.impostor else None)
            failures.append(f"{table.label}: {why}" + (f" ({warning})" if warning else ""))
    where = f" called {target!r}" if target else ""
    raise LanError(f"no table{where} would take us: " + "; ".join(failures))


async def _proved(peer: Peer, lobby: JoinLobby) -> str | None:
    """Wait until the host of ``lobby`` proves its key (None) or we give up on it (why)."""
    while lobby.host_key is None and lobby.refused is None:
        await peer.changed(RETRY_INTERVAL)
    return lobby.refused


async def wait_for_session(peer: Peer, timeout: float, out: TextIO | None = None) -> Session:
    """Wait until the game starts; LanError if the host refuses or time runs out. A host
    that falls silent, or comes back, is said on ``out`` (one line each time)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    cursor = 0
    while peer.session is None:
        events, cursor = peer.events_since(cursor)
        lobby = peer.lobby
        if isinstance(lobby, JoinLobby) and lobby.refused is not None:
            raise LanError(lobby.refused)  # (a table tried before may have refused us too)
        for event in events:
            if isinstance(event, HostSilent | HostBack) and out is not None:
                out.write(f"{event.reason}\n")
                out.flush()
        if isinstance(peer.lobby, HostLobby) and peer.lobby.can_start \
                and peer.lobby.start_entry is None and not peer.lobby.proposed:
            await peer.start_game()
        remaining = deadline - loop.time()
        if remaining <= 0:
            raise LanError("the game did not start in time")
        await peer.changed(min(remaining, 0.5))
    return peer.session


def unfinished_games(home: Path, key: bytes) -> list[Path]:
    """Game files in ``home`` with us in the roster, most recent first (finished or not:
    the session decides)."""
    paths = sorted(games_dir(home).glob("*.game"), key=lambda p: p.stat().st_mtime,
                   reverse=True)
    found = []
    for path in paths:
        with contextlib.suppress(OSError, ProtocolError):
            records, _ = read_records(read_input(path, limit=MAX_GAME_FILE))
            starts = (e for e in map(decode_entry, records) if e.kind == Kind.START)
            start = next(starts, None)
            if start is not None and key in start.raw:
                found.append(path)
    return found


def compose_turn(state: GameState, strategy: Strategy) -> list[Action]:
    """A bot's whole turn: its choices from the current state up to END_TURN (a set-up
    choice is a turn by itself)."""
    turn = Turn(state)
    while not turn.over:
        turn = turn.then(strategy.choose(turn.after, legal_actions(turn.after)))
    return list(turn.actions)


async def play_headless(peer: Peer, strategy: Strategy, timeout: float,
                        replace_missing: float | None = None) -> GameOver:
    """Play our seat to the end of the game; LanError on a protocol fault or time-out.

    With ``replace_missing``, agree to hand a seat to a bot once the game has waited that
    many seconds for a player we have not heard from (the table policy, net/policy.py). At
    a table with a game clock, agree at once for a seat out of time (the table's rule,
    net/clock.py). A seat caught signing two versions of an entry that cannot have changed
    the game (a chat line, a SEEN: ``Session.set_aside``) is handed over at once wherever the
    game waits for it, and we play on; two versions of any other entry may have made the
    peers follow different games: LanError.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    seen = 0
    assert peer.session is not None
    control = peer.session.start.rules.clock
    clock = GameClock(control, peer.session.config.players) if control is not None else None
    policy = HandOverPolicy(math.inf if replace_missing is None else replace_missing, clock)
    while True:
        session = peer.session
        assert session is not None
        events, seen = peer.events_since(seen)
        for event in events:
            if isinstance(event, GameOver):
                return event
            if isinstance(event, Equivocation) and event.seat not in session.set_aside:
                raise LanError(f"{session.seats[event.seat].name} signed two versions of one "
                               "entry that counts: the players may follow different games")
            if isinstance(event, EntryRejected) and event.seat == session.my_seat:
                raise LanError(f"our own entry was rejected: {event.reason}")
        if session.handed_over and session.my_seat not in session.resigned:
            raise LanError("the other players handed our seat to a bot")
        if session.choice_due:  # the experts' secret set-up: commit to a choice
            state = session.choice_state()
            choice = await loop.run_in_executor(None, strategy.choose, state,
                                                legal_actions(state))
            if session.choice_due:
                await peer.submit_choice(choice)
            continue
        if session.my_turn:
            state = session.state
            actions = await loop.run_in_executor(None, compose_turn, state, strategy)
            if session.state is state and session.my_turn:
                await peer.submit_turn(actions)
            continue
        if session.over:  # its GameOver event left the buffer already
            return GameOver(session.outcome(), state_hash(session.state))
        policy.observe(session, peer.missing(), loop.time())
        for seat in policy.gone(session.step, loop.time()):
            policy.agreed(seat, session.step)
            await peer.agree_seat_to_bot(seat)
        remaining = deadline - loop.time()
        if remaining <= 0:
            waiting = session.waiting_for()
            raise LanError(f"the game did not finish in time (waiting for {waiting})")
        await peer.changed(min(remaining, 0.5))


def print_result(session: Session, over: GameOver, out: TextIO) -> None:
    result = over.outcome
    code = table_code(session.game_id, [s.key for s in session.seats])
    out.write(f"game over; table code {code}\n")
    for place, seat in enumerate(result.ranking, 1):
        player = session.state.players[seat]
        parts = ", ".join(f"{c.name.lower()} {player.breakdown[c]}"
                          for c in categories(player.breakdown) if player.breakdown[c])
        out.write(f"{place}. {session.seats[seat].name} [{fingerprint(session.seats[seat].key)}]"
                  f" {result.scores[seat]} VP ({parts})\n")
    out.write(f"winner: {session.seats[result.winner].name} (decided by {result.decided_by})\n")


# --- commands ------------------------------------------------------------------------------------

BOT_EXIT_CODES = """exit codes:
  0    the game finished and our game file verifies
  1    it did not: a LAN fault, a time-out, an engine that failed with no fallback, or a
       game file that does not verify (the reason is on stderr; with --json, the document
       is {"command": "bot", "version": 2, "error": REASON} unless the game finished)
  2    a bad command line (a strategy that does not load, a turns file that cannot be read)
  130  interrupted (Ctrl-C); 143 stopped by SIGTERM, 129 by SIGHUP: in each case the bot
       leaves through its teardown, withdrawing its table from mDNS
With --serve: 0 once stopped (Ctrl-C, SIGTERM) or after --games games."""


def add_bot_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", nargs="?", default=None,
                        help="TABLE (host name or fingerprint) or host:port; default: the "
                             "first table on the LAN")
    player = parser.add_mutually_exclusive_group()
    player.add_argument("--strategy", type=options.strategy, default="greedy", metavar="NAME",
                        help=f"how the bot plays: {', '.join(sorted(STRATEGIES))} "
                             "(default greedy), or package.module:Name (docs/bots.md)")
    player.add_argument("--engine", type=options.command, default=None, metavar='"COMMAND ARGS"',
                        help="let a program play the seat: JSON lines on its stdin and stdout "
                             "(the engine protocol, docs/bots.md)")
    parser.add_argument("--engine-fallback", type=options.strategy, default=None, metavar="NAME",
                        help="if the engine fails (time-out, crash, bad answer), this strategy "
                             "plays the rest of the game; default: the bot stops (exit 1)")
    options.add_engine_run_arguments(parser)
    parser.add_argument("--moves", type=Path, default=None, metavar="FILE",
                        help="play our seat's recorded turns from this turns file (burgundy "
                             "replay --export-turns) first, then the strategy or engine")
    parser.add_argument("--think", type=options.seconds, default=1.0, metavar="SECONDS",
                        help="time budget per decision for search strategies")
    parser.add_argument("--seed", type=options.seed, default=None, help="strategy seed")
    parser.add_argument("--host", action="store_true",
                        help="host a new table instead (before the start, a line 'remove "
                             "FINGERPRINT' or 'remove NAME' on stdin removes that member)")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2,
                        help="seats at a hosted table")
    options.add_clock_argument(parser)
    parser.add_argument("--edition", type=options.edition, default=None, metavar="YEAR",
                        help="rulebook edition, 2011 or 2019 (default 2011; 2019 with --with)")
    add_setup_arguments(parser)
    parser.add_argument("--resume", nargs="?", const="", default=None, metavar="GAMEFILE",
                        type=options.game_file,
                        help="rejoin an unfinished game (default: the latest one)")
    parser.add_argument("--timeout", type=options.seconds, default=3600.0,
                        help="give up after this many seconds")
    parser.add_argument("--replace-missing", type=options.seconds, default=None, metavar="SECONDS",
                        help="agree to let a bot play a player silent this long")
    parser.add_argument("--json", action="store_true",
                        help="print one JSON document with the result (docs/bots.md) on "
                             "stdout; progress goes to stderr")
    parser.add_argument("--serve", action="store_true",
                        help="stay on the LAN: host (with --host) or join tables one after "
                             "another, until stopped (Ctrl-C or SIGTERM: the table is "
                             "withdrawn) or --games are played; with --json, one line per game")
    parser.add_argument("--games", type=options.positive, default=None, metavar="N",
                        help="with --serve: stop after N games (default: never)")
    add_peer_arguments(parser)


def check_bot(args: argparse.Namespace) -> str | None:
    """Option combinations argparse cannot judge alone; reads the turns file."""
    if args.engine_fallback is not None and args.engine is None:
        return "argument --engine-fallback: only with --engine"
    if args.games is not None and not args.serve:
        return "argument --games: only with --serve"
    if args.clock is not None and not args.host:
        return "argument --clock: only with --host (a table's clock is its host's choice)"
    if args.serve and args.resume is not None:
        return "argument --serve: not with --resume (a game to finish is one game)"
    problem = options.check_engine_run(args, [] if args.engine is None else [ENGINE])
    if problem is not None:
        return problem
    if args.moves is not None:
        try:
            text = read_input(args.moves, limit=MAX_JSON_FILE).decode("utf-8")
            args.script = read_script(text)
        except OSError as exc:
            return f"argument --moves: cannot read {args.moves}: {exc.strerror or exc}"
        except (ScriptError, UnicodeDecodeError) as exc:
            return f"argument --moves: {args.moves}: {exc}"
    return check_table(args)


def run_bot(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """``burgundy bot``: exit 0 after a finished game whose file verifies, 1 with a reason on
    any fault. With ``--serve``, game after game until stopped (exit 0)."""
    if args.serve:
        return asyncio.run(_serve(args, out))
    try:
        return asyncio.run(stopping_on_signals(_bot(args, out)))
    except Stopped as exc:
        print(f"burgundy bot: stopped by {exc}", file=sys.stderr)
        return 128 + exc.signum
    except (LanError, BotError, StrategyError) as exc:
        _report_error(args, exc, out)
        return 1
    except KeyboardInterrupt:
        return 130


def _report_error(args: argparse.Namespace, exc: Exception, out: TextIO) -> None:
    print(f"burgundy bot: {exc}", file=sys.stderr)
    if args.json:
        json.dump({"command": "bot", "version": RESULT_VERSION, "error": str(exc)}, out,
                  indent=None if args.serve else 1)
        out.write("\n")
        out.flush()


async def _serve(args: argparse.Namespace, out: TextIO) -> int:
    """Host or join tables one after another (``--serve``). SIGINT or SIGTERM cancels the game
    at hand, whose peer closes (withdrawing a table we announce), and ends the command with
    exit code 0; a game that fails is reported and the next one begins."""
    loop = asyncio.get_running_loop()
    stopping = asyncio.Event()
    current: asyncio.Task[int] | None = None

    def stop() -> None:
        stopping.set()
        if current is not None:
            current.cancel()

    for signum in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):  # no such handlers on Windows
            loop.add_signal_handler(signum, stop)
    played = 0
    log = sys.stderr if args.json else out
    while not stopping.is_set() and (args.games is None or played < args.games):
        current = asyncio.create_task(_bot(args, out))
        try:
            await current
            played += 1
        except NoTable:
            pass  # nobody hosts yet: look again
        except (LanError, BotError, StrategyError) as exc:
            _report_error(args, exc, out)
            played += 1
        except asyncio.CancelledError:
            break
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stopping.wait(), SERVE_PAUSE)
    log.write(f"stopped after {played} game{'s' if played != 1 else ''}\n")
    log.flush()
    return 0


def _bot_name(args: argparse.Namespace) -> str:
    if args.name:
        return str(args.name)
    if args.engine is not None:
        return "engine-bot"
    return f"{args.strategy.rpartition(':')[2].lower()}-bot"


def seat_strategy(args: argparse.Namespace, seed: int, seat: int,
                  engine_log: TextIO | None = None) -> Strategy:
    """What plays our seat: the engine or the strategy, after the script if one is given.
    The engine may resign the seat (:class:`EngineResigned`)."""
    strategy: Strategy
    if args.engine is not None:
        fallback = args.engine_fallback
        strategy = EngineStrategy(
            args.engine, seat, fallback_name=fallback or "",
            fallback=None if fallback is None else lambda: make(fallback, seed, think=args.think),
            settings=options.engine_run(args).settings(ENGINE, engine_log), resignable=True)
    else:
        strategy = make(args.strategy, seed, think=args.think)
    script: Script | None = getattr(args, "script", None)
    if script is not None:
        strategy = ScriptedStrategy(script.for_seat(seat), strategy)
    return strategy


async def _bot(args: argparse.Namespace, out: TextIO) -> int:
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    log = sys.stderr if args.json else out
    name = _bot_name(args)
    peer = await open_peer(args.home, interface=args.interface, port=args.port,
                           mdns=not args.no_mdns)
    strategy: Strategy | None = None
    engine_log: TextIO | None = None
    commands: asyncio.Future[None] | None = None
    try:
        if args.resume is not None:
            await _resume(peer, args)
        elif args.host:
            config = table_config(args.players, args.edition, args.estate, args.setup,
                                  args.modules, args.board, args.switches)
            await peer.host(config, name, args.colour or COLOURS[0],
                            TableRules(clock=args.clock))
            log.write(f"hosting at {peer.address[0]}:{peer.address[1]} "
                      f"[{fingerprint(peer.identity.public_key)}]\n")
            log.flush()
            commands = asyncio.ensure_future(host_commands(peer, read_lines(sys.stdin), log))
        else:
            lobby = await join_table(peer, args, args.table, name, args.colour or COLOURS[1],
                                     timeout=args.timeout)
            await peer.set_me(name, lobby.colour, ready=True)
        try:
            session = await wait_for_session(peer, args.timeout, log)
        finally:
            if commands is not None:
                commands.cancel()
        code = table_code(session.game_id, [s.key for s in session.seats])
        log.write(f"game started, table code {code}, seat {session.my_seat}\n")
        for line in session.config.caveats():
            log.write(f"note: {line}\n")
        log.flush()
        assert session.my_seat is not None
        engine_log = options.engine_run(args).open_log()
        strategy = Ledger(seat_strategy(args, seed, session.my_seat, engine_log))
        try:
            over = await play_headless(peer, strategy, args.timeout, args.replace_missing)
        except EngineResigned as resigned:  # the seat is the engine's to give up
            log.write(f"{resigned}: we resign the seat\n")
            log.flush()
            await peer.resign()
            over = await play_headless(peer, strategy, args.timeout, args.replace_missing)
        engine = _engine_of(strategy)
        if engine is not None:
            await asyncio.to_thread(engine.game_over, session.state, over.outcome)
        if not args.json:
            print_result(session, over, out)
        await peer.close()  # once the others hold our last entries: the file in canonical order
        path = game_path(peer.data_dir, session.game_id).resolve()
        report = audit_file(path.read_bytes())
        if args.json:
            doc = bot_result(session, over, path, report, strategy, args)
            json.dump(doc, out, indent=None if args.serve else 1)
            out.write("\n")
        else:
            out.write(f"game file {path}: {verdict(report)}\n")
        out.flush()
        if not report.ok:
            reasons = [str(p) for p in report.problems] or ["the game is not complete"]
            print(f"burgundy bot: {path} does not verify: {'; '.join(reasons)} "
                  f"(burgundy verify {path})", file=sys.stderr)
            return 1
        return 0
    finally:
        engine = _engine_of(strategy)
        if engine is not None:
            engine.close()
        if engine_log is not None:
            engine_log.close()
        await peer.close()


def read_lines(stream: TextIO) -> asyncio.Queue[str | None]:
    """The lines of ``stream`` as they come, then None (read by a daemon thread: a pipe, a
    terminal or a file alike, and nothing waits for it at exit)."""
    loop = asyncio.get_running_loop()
    lines: asyncio.Queue[str | None] = asyncio.Queue()

    def read() -> None:
        for line in stream:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    threading.Thread(target=read, daemon=True, name="burgundy-commands").start()
    return lines


async def host_commands(peer: Peer, lines: asyncio.Queue[str | None], log: TextIO) -> None:
    """What the host of ``burgundy bot --host`` types before the start (one a line):
    ``remove WHO`` (a member's or a spectator's fingerprint, or a member's name) removes it
    from the table for good."""
    while (line := await lines.get()) is not None:
        command, _, who = line.strip().partition(" ")
        lobby = peer.lobby
        if not command or not isinstance(lobby, HostLobby):
            continue
        if command != "remove" or not who:
            log.write(f"unknown command {line.strip()!r} (remove FINGERPRINT or NAME)\n")
        elif (key := lobby.key_of(who.strip())) is None:
            log.write(f"nobody at the table is {who.strip()!r}\n")
        else:
            await peer.remove(key)
            log.write(f"removed {who.strip()} [{fingerprint(key)}] from the table\n")
        log.flush()


def _engine_of(strategy: Strategy | None) -> EngineStrategy | None:
    if isinstance(strategy, Ledger):
        strategy = strategy.strategy
    if isinstance(strategy, ScriptedStrategy):
        strategy = strategy.then
    return strategy if isinstance(strategy, EngineStrategy) else None


def bot_result(session: Session, over: GameOver, path: Path, report: Audit,
               strategy: Ledger, args: argparse.Namespace) -> dict[str, object]:
    """The ``--json`` document of ``burgundy bot`` (docs/bots.md, "Results"): the game, who
    played each seat (``handed_over``: from which step the table's stand-in played it), and
    every decision this bot made, by seat and by what made it."""
    seat = session.my_seat
    players = [{"seat": i, "name": s.name, "fingerprint": fingerprint(s.key),
                "strategy": strategy.name if i == seat else None,
                "handed_over": session.forfeits.get(i)}
               for i, s in enumerate(session.seats)]
    breakdowns = [p.breakdown for p in session.state.players]
    doc = result_json("bot", session.game_id, path, players, breakdowns, over.outcome,
                      over.state_hash, report)
    engine = _engine_of(strategy)
    doc.update(seat=seat, table_code=table_code(session.game_id, [s.key for s in session.seats]),
               played=strategy.played(), engine=None, script=None)
    if engine is not None:
        doc["engine"] = engine.summary()
    if isinstance(strategy.strategy, ScriptedStrategy):
        doc["script"] = {"file": str(args.moves), **strategy.strategy.summary()}
    return doc


def latest_game(home: Path, key: bytes) -> Path:
    """Our most recent game file in ``home``; LanError if there is none."""
    games = unfinished_games(home, key)
    if not games:
        raise LanError(f"no game of ours in {games_dir(home)}")
    return games[0]


async def _resume(peer: Peer, args: argparse.Namespace) -> None:
    if not args.resume:
        path = latest_game(peer.data_dir, peer.identity.public_key)
    else:
        path = Path(args.resume)
    try:
        await peer.resume(path)
    except OSError as exc:
        raise LanError(f"cannot resume {path}: {exc.strerror}") from None
    except ProtocolError as exc:
        raise LanError(f"cannot resume {path}: {exc}") from None


def add_tables_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--wait", type=options.seconds, default=3.0, metavar="SECONDS",
                        help="how long to listen for announcements")
    parser.add_argument("--interface", type=options.interface, default=None, metavar="IP",
                        help="browse only on this address")
    parser.add_argument("--home", type=Path, default=None,
                        help="data directory whose known hosts mark the tables (default: "
                             "$P2P_BURGUNDY_HOME or the user data directory)")


def run_tables(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """``burgundy tables``: list the tables announced on the LAN, each with its host's key
    fingerprint, and what the known hosts say of it (net/known.py)."""
    interfaces = [args.interface] if args.interface else None
    tables = asyncio.run(find_tables(args.wait, interfaces))
    if not tables:
        out.write("no tables on the LAN (multicast may be blocked: join by host:port)\n")
        return 0
    said = marks(tables.values(), load_known(args.home or data_dir()))
    for table in sorted(tables.values(), key=lambda t: t.instance):
        mark = said.get(table.instance)
        out.write(table.label + (f"  ({mark})" if mark else "") + "\n")
    return 0


__all__ = [
    "LanError",
    "add_bot_arguments",
    "add_peer_arguments",
    "add_tables_arguments",
    "compose_turn",
    "join_table",
    "open_peer",
    "parse_address",
    "play_headless",
    "run_bot",
    "run_tables",
    "wait_for_session",
]

