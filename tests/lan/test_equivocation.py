"""A player caught signing two versions of one entry does not stop the game: the honest
players' bots hand its seat to the stand-in where the game waits for it and play on to the
end, and each of their game files names the cheat alone (docs/protocol.md, "Equivocation")."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from p2p_burgundy.cli.lan import play_headless
from p2p_burgundy.cli.loopback import close_all, open_table
from p2p_burgundy.cli.strategies import make
from p2p_burgundy.net.audit import audit_file
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.log import Kind, sign_entry
from p2p_burgundy.net.messages import EntryMessage
from p2p_burgundy.net.peer import Peer

TIMEOUT = 120.0


async def held(peer: Peer, seat: int, count: int) -> None:
    """Until ``peer`` holds ``count`` entries of ``seat``."""
    while peer.session is None or len(peer.session.chains[seat]) < count:
        await peer.changed(0.2)


@pytest.mark.slow
def test_the_honest_players_play_on_after_an_equivocation(tmp_path: Path) -> None:
    async def run() -> None:
        peers, _ = await open_table(tmp_path, players=3)
        cheat = peers[2]
        honest = [asyncio.create_task(play_headless(p, make("random", 20 + i), TIMEOUT))
                  for i, p in enumerate(peers[:2])]
        playing = asyncio.create_task(play_headless(cheat, make("random", 22), TIMEOUT))
        while cheat.session is None or cheat.session.turn_number < 8:
            await cheat.changed(0.2)
        playing.cancel()
        await cheat.close()
        session = cheat.session
        assert session is not None
        chain = session.chains[2]
        await asyncio.gather(*(held(p, 2, len(chain)) for p in peers[:2]))
        # Two bodies for its next slot, one to each honest player, from an unknown address.
        sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            for text, peer in (("one", peers[0]), ("two", peers[1])):
                entry = sign_entry(identity(2), session.game_id, len(chain), chain[-1].id,
                                   Kind.CHAT, [text])
                sender.sendto(EntryMessage(entry.raw).encode(), peer.address)
        finally:
            sender.close()
        try:
            overs = await asyncio.gather(*honest)
        finally:
            await close_all(peers[:2])
        assert overs[0].state_hash == overs[1].state_hash
        for p in peers[:2]:
            assert p.session is not None and 2 in p.session.faulty
            assert 2 in p.session.forfeits and len(p.session.proofs) == 1

    asyncio.run(run())
    files = sorted(tmp_path.glob("p[01]/games/*.game"))
    assert len(files) == 2
    for path in files:  # each holds the body it got first in the chain, the other as proof
        report = audit_file(path.read_bytes())
        assert report.exit_code == 1 and report.outcome is not None and len(report.proofs) == 1
        assert [v.honest for v in report.verdicts] == [True, True, False]
