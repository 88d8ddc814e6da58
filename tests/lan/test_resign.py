"""A networked game over loopback where one player resigns and another crashes and comes
back: it finishes for everyone, every game file verifies, and the resigned seat, opened
again, only watches."""

from __future__ import annotations

import asyncio
from pathlib import Path

from p2p_burgundy.cli.lan import play_headless
from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.events import GameOver
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.peer import Peer

TIMEOUT = 120.0


async def until_turn(peer: Peer, turn: int) -> None:
    while peer.session is None or peer.session.turn_number < turn:
        await peer.changed(0.2)


async def resigner(peer: Peer) -> GameOver:
    """Plays until turn 6, resigns, then watches to the end."""
    play = asyncio.create_task(play_headless(peer, make("random", 11), TIMEOUT))
    await until_turn(peer, 6)
    await peer.resign()
    return await play


async def crasher(peer: Peer, home: Path) -> tuple[GameOver, Peer]:
    """Plays until turn 16, stops dead, opens the same key and home again and resumes."""
    play = asyncio.create_task(play_headless(peer, make("random", 12), TIMEOUT))
    await until_turn(peer, 16)
    play.cancel()
    assert peer.game_file is not None
    path = peer.game_file.path
    await peer.close()
    back = await Peer.open(identity(2), home, host=LOOPBACK, announce=False)
    await back.resume(path)
    return await play_headless(back, make("random", 13), TIMEOUT), back


def test_a_resignation_and_a_crash_and_resume_finish_for_everyone_and_verify(
        tmp_path: Path) -> None:
    async def run() -> None:
        peers, _ = await open_table(tmp_path, 3)
        try:
            overs = await asyncio.gather(
                play_headless(peers[0], make("random", 10), TIMEOUT),
                resigner(peers[1]),
                crasher(peers[2], tmp_path / "p2"))
            over2, peers[2] = overs[2]
            results = [overs[0], overs[1], over2]
            assert len({o.state_hash for o in results}) == 1
            for peer in peers:
                session = peer.session
                assert session is not None and session.state.is_over
                assert set(session.resigned) == {1} and set(session.forfeits) == {1}
                assert peer.game_file is not None
                report = audit_file(peer.game_file.path.read_bytes())
                assert report.ok, [str(p) for p in report.problems]
                assert [r.seat for r in report.resignations] == [1]
            # The resigned seat, opened again, only watches.
            assert peers[1].game_file is not None
            path = peers[1].game_file.path
        finally:
            await close_all(peers)
        again = await Peer.open(identity(1), tmp_path / "p1", host=LOOPBACK, announce=False)
        try:
            session = await again.resume(path)
            assert session.my_seat == 1 and 1 in session.resigned
            assert not session.my_turn
        finally:
            await again.close()

    asyncio.run(run())
