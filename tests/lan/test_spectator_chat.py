"""Property 8's companions on real UDP: a spectator watches read-only and ends with the same
state hash; chat between players arrives everywhere as signed log entries."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from p2p_burgundy import END_TURN, state_hash
from p2p_burgundy.cli.loopback import close_all, open_table, play
from p2p_burgundy.net.errors import LocalProtocolError
from p2p_burgundy.net.events import ChatReceived
from p2p_burgundy.net.log import Kind, decode_entry, read_records

pytestmark = pytest.mark.slow


def test_spectator_and_chat_over_real_udp(tmp_path: Path) -> None:
    lines = ["hello from p0", "good luck, p0", "may the dice be fair"]

    async def run() -> None:
        peers, watchers = await open_table(tmp_path, players=3, spectators=1)
        everyone = peers + watchers
        try:
            spectator = watchers[0]
            assert spectator.session is not None and spectator.session.my_seat is None
            for peer, text in zip(peers, lines, strict=True):
                await peer.send_chat(text)
            with pytest.raises(LocalProtocolError):
                spectator.session.submit_turn([END_TURN])
            with pytest.raises(LocalProtocolError):
                spectator.session.send_chat("let me play")
            overs = await play(peers, watchers)
            assert len({o.state_hash for o in overs}) == 1
            await asyncio.sleep(0.5)  # the last entries reach everyone
            hashes = {state_hash(p.session.state) for p in everyone}  # type: ignore[union-attr]
            assert len(hashes) == 1
            canonical = {b"".join(e.raw for e in p.session.canonical_entries())  # type: ignore[union-attr]
                         for p in everyone}
            assert len(canonical) == 1  # the spectator holds exactly the players' log
            for p in everyone:
                chats = [(e.seat, e.text) for e in p.events if isinstance(e, ChatReceived)]
                assert sorted(chats) == list(enumerate(lines)), p.address
        finally:
            await close_all(everyone)

    asyncio.run(run())
    files = sorted(tmp_path.glob("p*/games/*.game"))
    assert len(files) == 4
    assert len({f.read_bytes() for f in files}) == 1
    records, _ = read_records(files[0].read_bytes())
    chats = [decode_entry(r).payload[0] for r in records if decode_entry(r).kind == Kind.CHAT]
    assert sorted(chats) == sorted(lines)  # chat is in the signed log, for the audit too
