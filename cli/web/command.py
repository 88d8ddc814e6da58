"""``burgundy watch --web``, ``replay GAMEFILE --web`` and the ``--web`` option of ``host``
and ``play``: start the big screen and say where it is (its address and a QR code).

``watch --web`` is a headless spectator: a peer joins the table to watch and the page shows
its snapshots until Ctrl-C. ``replay --web`` serves a game file's steps. ``host --web`` and
``play --web`` start the page on the peer's own loop beside the terminal client
(:func:`start_beside`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from p2p_burgundy.net.discovery import lan_address
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.start import COLOURS

from .. import options
from ..lan import LanError, add_peer_arguments, join_table, open_peer
from ..netplay import GONE_AFTER
from ..tui.table import ReplayTable
from .feed import Feed, LiveFeed, ReplayFeed
from .qr import qr_text

if TYPE_CHECKING:
    from .server import WebServer

WEB_PORT = 8337
"""The page's TCP port unless ``--web-port`` says otherwise (aiohttp, the server, is imported
only when a page is served: it takes a while to load)."""


def add_web_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    """``--web`` and ``--web-port``; ``what`` says what the page shows."""
    parser.add_argument("--web", action="store_true",
                        help=f"serve {what} as a read-only web page on the LAN (port "
                             f"{WEB_PORT}, on --interface or this computer's LAN address); "
                             "prints its address and a QR code")
    parser.add_argument("--web-port", type=options.port, default=WEB_PORT, metavar="PORT",
                        help=f"the web page's TCP port (default {WEB_PORT}; 0: any free one)")


def web_host(interface: str | None) -> str:
    """Where the page is served: the chosen interface, else this computer's LAN address
    (where the default route leaves; 127.0.0.1 with no network), never every interface."""
    return interface or lan_address()


def announce(url: str, out: TextIO) -> None:
    """Say where the page is: its address and a QR code of it."""
    colour = out.isatty() and "NO_COLOR" not in os.environ
    out.write(f"The big screen (read-only): {url}\nOpen it in any browser on the LAN, or scan "
              f"this with a phone:\n{qr_text(url, colour=colour)}")
    out.flush()


async def serve_until_stopped(feed: Feed, host: str, port: int, out: TextIO) -> int:
    """Serve ``feed`` until Ctrl-C or SIGTERM; the exit code (1 if the port is taken)."""
    from .server import WebServer

    server = WebServer(feed, host, port)
    try:
        url = await server.start()
    except OSError as exc:
        print(f"burgundy: cannot serve the web page on {host}:{port}: {exc.strerror or exc} "
              "(--web-port picks another port)", file=sys.stderr)
        return 1
    announce(url, out)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        await stop.wait()
    finally:
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(signum)
        await server.close()
    return 0


def run_replay(table: ReplayTable, colours: Sequence[str], args: argparse.Namespace) -> int:
    """``burgundy replay GAMEFILE --web``: the game's steps on the page, from the start."""
    table.step(-table.position[1])
    feed = ReplayFeed(table, colours)
    return asyncio.run(serve_until_stopped(feed, web_host(args.interface), args.web_port,
                                           sys.stdout))


def add_watch_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``burgundy watch``."""
    parser.add_argument("table", nargs="?", default=None, metavar="TABLE",
                        help="the host's name or key fingerprint (as announced on the LAN), "
                             "or host:port; none: the list of tables (with --web: the first "
                             "table seen)")
    options.add_mouse_option(parser)
    parser.add_argument("--timeout", type=options.seconds, default=3600.0, metavar="SECONDS",
                        help="give up looking for the table after this many seconds "
                             "(default 3600)")
    add_peer_arguments(parser)
    add_web_arguments(parser, "the game")
    # What the terminal client reads of a player's options: a spectator plays no seat.
    parser.set_defaults(watch=True, strategy="greedy", gone_after=GONE_AFTER, autoplay=False)


def run_watch(args: argparse.Namespace) -> int:
    """``burgundy watch [TABLE]``: the game in the terminal as a spectator; with ``--web``,
    join the table as a spectator with no terminal screen and serve the page of its game
    until Ctrl-C."""
    if not args.web:
        from ..tui.command import needs_terminal, run_join  # the client's (it imports us)

        return needs_terminal("burgundy watch (--web serves a web page instead)") \
            or run_join(args)
    try:
        return asyncio.run(_watch(args))
    except LanError as exc:
        print(f"burgundy watch: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"burgundy watch: cannot open the network: {exc.strerror or exc}",
              file=sys.stderr)
        return 1


async def _watch(args: argparse.Namespace) -> int:
    peer = await open_peer(args.home, interface=args.interface, port=args.port,
                           mdns=not args.no_mdns)
    try:
        name = args.name or "Big screen"
        await join_table(peer, args, args.table, name, args.colour or COLOURS[0],
                         spectator=True, timeout=args.timeout)
        address = peer.lobby_snapshot.host if peer.lobby_snapshot else None
        where = f" at {address[0]}:{address[1]}" if address else ""
        print(f"Watching the table{where}.", flush=True)
        return await serve_until_stopped(live_feed(peer), web_host(args.interface),
                                         args.web_port, sys.stdout)
    finally:
        await peer.close()


def live_feed(peer: Peer) -> LiveFeed:
    """The page of ``peer``'s game (its table before the game starts)."""
    return LiveFeed(lambda: peer.snapshot if peer.snapshot is not None else peer.lobby_snapshot)


def start_beside(loop: asyncio.AbstractEventLoop, peer: Peer, interface: str | None,
                 port: int) -> WebServer:
    """Serve ``peer``'s game from ``loop`` (the peer's own, in another thread) while the
    terminal client runs; OSError if the port cannot be bound."""

    from .server import WebServer

    async def start() -> WebServer:
        server = WebServer(live_feed(peer), web_host(interface), port)
        await server.start()
        return server

    return asyncio.run_coroutine_threadsafe(start(), loop).result(10)


def stop_beside(loop: asyncio.AbstractEventLoop, server: WebServer) -> None:
    """Stop a page :func:`start_beside` started."""
    with contextlib.suppress(Exception):
        asyncio.run_coroutine_threadsafe(server.close(), loop).result(5)


__all__ = ["WEB_PORT", "add_watch_arguments", "add_web_arguments", "announce", "run_replay",
           "run_watch", "start_beside", "stop_beside", "web_host"]
