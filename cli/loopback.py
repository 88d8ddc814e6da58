"""A whole table in this process: Peers on real UDP sockets (127.0.0.1), joined by address
(no mDNS), for the tests and the benchmarks (``bench/``).

:func:`open_table` opens a host, joiners and spectators (with the in-memory table's fixed
keys, :func:`~p2p_burgundy.net.inmemory.identity`) and waits until every one of them has a
session; :func:`play` lets random bots play every seat to the end (spectators just watch).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path

from p2p_burgundy import GameConfig
from p2p_burgundy.net.events import GameOver
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.tablerules import DEFAULT_RULES, TableRules

from .lan import play_headless, wait_for_session
from .strategies import make

LOOPBACK = "127.0.0.1"
"""The address every peer of such a table binds."""


async def open_table(home: Path, players: int, spectators: int = 0,
                     timeout: float = 30.0, config: GameConfig | None = None,
                     rules: TableRules = DEFAULT_RULES) -> tuple[list[Peer], list[Peer]]:
    """Started sessions: ``players`` peers (the first hosts) and ``spectators`` watchers, at
    a table of ``config`` (default: the base game) and ``rules``."""
    host = await Peer.open(identity(0), home / "p0", host=LOOPBACK, announce=False)
    await host.host(config or GameConfig(players=players), "p0", "red", rules)
    peers = [host]
    watchers: list[Peer] = []
    for i in range(1, players + spectators):
        peer = await Peer.open(identity(i), home / f"p{i}", host=LOOPBACK, announce=False)
        watching = i >= players
        lobby = await peer.join(host.address, f"p{i}", "blue", spectator=watching)
        if not watching:
            await peer.set_me(f"p{i}", lobby.colour, ready=True)
        (watchers if watching else peers).append(peer)
    await asyncio.gather(*(wait_for_session(p, timeout) for p in peers + watchers))
    return peers, watchers


async def play(peers: Sequence[Peer], watchers: Sequence[Peer] = (), timeout: float = 120.0,
               seed: int = 1) -> list[GameOver]:
    """Random bots play every seat; returns each peer's GameOver (players, then watchers)."""
    return list(await asyncio.gather(
        *(play_headless(p, make("random", seed * 10 + i), timeout) for i, p in enumerate(peers)),
        *(play_headless(w, make("random", 0), timeout) for w in watchers)))


async def close_all(peers: list[Peer]) -> None:
    for p in peers:
        await p.close()
