"""Two honest peers leave byte-identical game files for the same game, even when the last
entries of the game were lost on the way: each player's SEEN at the end of the game is
signed the moment its game is over, so when both games are over those are still in flight,
and a peer that closed at once wrote a file without the other's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2p_burgundy.cli.loopback import close_all, open_table, play
from p2p_burgundy.net.messages import parse
from p2p_burgundy.net.node import MISSING_AFTER
from p2p_burgundy.net.pairwise import SEAL_SIZE, is_sealed
from p2p_burgundy.net.peer import Peer

from .sim import Net

CUT = 1.5  # seconds a peer whose game is over hears nothing from the others


def deaf_after_the_end(peer: Peer, cut: float = CUT) -> None:
    """For ``cut`` seconds from the moment its game is over, ``peer`` drops whatever
    arrives (as a flood or a bad link can): the other player's last entries among it."""
    receive = peer.node.receive
    over_at: list[float] = []

    def lossy(data: bytes, source: tuple[str, int], now: float) -> bool:
        session = peer.session
        if session is not None and session.over:
            over_at[:] = over_at or [now]
            if now < over_at[0] + cut:
                return False
        return receive(data, source, now)

    peer.node.receive = lossy  # type: ignore[method-assign]


@pytest.mark.slow
@pytest.mark.parametrize("cut", [CUT, MISSING_AFTER + 0.5], ids=["short", "longer"])
def test_peers_that_close_as_soon_as_the_game_is_over_leave_the_same_file(
        tmp_path: Path, cut: float) -> None:
    """Deaf for longer than a seat takes to count as missing (``longer``), a closing peer
    still waits for the other, which it heard until it began to close."""
    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        for peer in peers:
            deaf_after_the_end(peer, cut)
        try:
            overs = await play(peers, timeout=120.0)
            assert len({o.state_hash for o in overs}) == 1
        finally:
            await close_all(peers)

    asyncio.run(run())
    files = sorted(tmp_path.glob("p*/games/*.game"))
    assert len(files) == 2 and files[0].read_bytes() == files[1].read_bytes()


@pytest.mark.slow
def test_a_peer_closing_a_finished_game_says_last_what_it_holds(tmp_path: Path) -> None:
    """Its last datagram to the other seat is its HEADS as it leaves: the other, which waits
    until every seat holds what it holds, need not wait out SETTLE_SECONDS for a seat whose
    HEADS of the last tick was older than its last entries."""
    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=2)
        leaving, staying = peers
        sent: list[tuple[bytes, tuple[str, int]]] = []
        send = leaving.transport.send
        leaving.transport.send = lambda data, address: (  # type: ignore[method-assign]
            sent.append((data, address)), send(data, address))[-1]
        in_sync = leaving.node.in_sync
        synced_at: list[int] = []  # how many datagrams it had sent when it was in sync

        def noting(now: float) -> bool:
            if (synced := in_sync(now)) and not synced_at:
                synced_at.append(len(sent))
            return synced

        leaving.node.in_sync = noting  # type: ignore[method-assign]
        try:
            await play(peers, timeout=120.0)
            await leaving.close()
            assert leaving.session is not None and synced_at
            after = [data for data, address in sent[synced_at[0]:] if address == staying.address]
            assert len(after) == 1 and is_sealed(after[0])
            assert parse(after[0][SEAL_SIZE:]) == leaving.session.heads()
        finally:
            await close_all(peers)

    asyncio.run(run())


@pytest.mark.parametrize("seed", [1, 2])
def test_a_peer_in_sync_after_the_game_holds_what_every_other_holds(seed: int) -> None:
    """On a lossy link: when every game is over, the peers do not hold the same entries yet
    (each player's last SEEN is on its way), and no peer is in sync; once one is, each holds
    what every other holds, so their files are the same."""
    net = Net.with_table(2, seed=seed, loss=0.3)
    net.run(lambda: all(p.session is not None and p.session.over for p in net.peers), 3600)
    assert len({p.canonical() for p in net.peers}) == 2
    assert not any(p.node.in_sync(net.now) for p in net.peers)
    net.run(lambda: any(p.node.in_sync(net.now) for p in net.peers), net.now + 60)
    assert len({p.canonical() for p in net.peers}) == 1
