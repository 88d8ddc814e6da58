"""Peers in this process on real UDP sockets (127.0.0.1), joined by address (no mDNS).

:func:`open_table` opens a host, joiners and spectators and waits until every one of them has
a session; :func:`play` lets random bots play every seat to the end (spectators just watch).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2p_burgundy import GameConfig
from p2p_burgundy.cli.lan import play_headless, wait_for_session
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.events import GameOver
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.tablerules import DEFAULT_RULES, TableRules

LOOPBACK = "127.0.0.1"


def identity(n: int) -> Identity:
    return Identity.from_private_bytes(bytes([n + 1]) * 32)


async def open_table(home: Path, players: int, spectators: int = 0,
                     timeout: float = 30.0, config: GameConfig | None = None,
                     rules: TableRules = DEFAULT_RULES) -> tuple[list[Peer], list[Peer]]:
    """Started sessions: ``players`` peers (the first hosts) and ``spectators`` watchers, at
    a table of ``config`` (default: the base game) and ``rules``."""
    host = await Peer.open(identity(0), home / "p0", host=LOOPBACK, announce=False)
    await host.host(config or GameConfig(players=players), "p0", "red", rules)
    peers = [host]
    watchers = []
    for i in range(1, players + spectators):
        peer = await Peer.open(identity(i), home / f"p{i}", host=LOOPBACK, announce=False)
        watching = i >= players
        lobby = await peer.join(host.address, f"p{i}", "blue", spectator=watching)
        if not watching:
            await peer.set_me(f"p{i}", lobby.colour, ready=True)
        (watchers if watching else peers).append(peer)
    await asyncio.gather(*(wait_for_session(p, timeout) for p in peers + watchers))
    return peers, watchers


async def play(peers: list[Peer], watchers: list[Peer] = (),  # type: ignore[assignment]
               timeout: float = 120.0, seed: int = 1) -> list[GameOver]:
    """Random bots play every seat; returns each peer's GameOver (players, then watchers)."""
    return list(await asyncio.gather(
        *(play_headless(p, make("random", seed * 10 + i), timeout) for i, p in enumerate(peers)),
        *(play_headless(w, make("random", 0), timeout) for w in watchers)))


async def close_all(peers: list[Peer]) -> None:
    for p in peers:
        await p.close()
