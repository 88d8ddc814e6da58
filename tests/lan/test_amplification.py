"""No peer sends an address that has not proven itself more than AMPLIFICATION times what that
address sent it (property 13), whatever message it sends: measured on real sockets.

A stranger's socket on 127.0.0.1 sends each kind of message five times (to a host in the
middle of its lobby, and to a host whose game is over, which still holds every entry and
still runs its lobby) and counts every byte that comes back. A stranger that echoes the
address token of a CHALLENGE has proven its address: from then on it is served in full.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from pathlib import Path

from p2p_burgundy import GameConfig
from p2p_burgundy.cli.loopback import LOOPBACK, close_all, open_table, play
from p2p_burgundy.net import wire
from p2p_burgundy.net.admission import AMPLIFICATION
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.messages import Tag
from p2p_burgundy.net.peer import Peer
from p2p_burgundy.net.session import Session

REPEATS = 5
KEY, NONCE = bytes(range(32)), bytes(16)
Requests = dict[str, Callable[[Session | None, bytes], bytes]]

LOBBY_REQUESTS: Requests = {
    "garbage": lambda s, t: bytes([0x93, wire.PROTOCOL_VERSION]) + b"x" * 40,
    "HELLO": lambda s, t: wire.encode_message(Tag.HELLO, [b"", KEY, NONCE, False]),
    "HELLO (spectator)": lambda s, t: wire.encode_message(Tag.HELLO, [t, KEY, NONCE, True]),
    "PROVE": lambda s, t: wire.encode_message(
        Tag.PROVE, [t, KEY, bytes(64), bytes(16), "Eve", "red"]),
    "UPDATE": lambda s, t: wire.encode_message(
        Tag.UPDATE, [t, KEY, "Eve", "red", True, bytes(64)]),
    "ACCEPT": lambda s, t: wire.encode_message(Tag.ACCEPT, [t, KEY, bytes(32), bytes(64)]),
    "LEAVE": lambda s, t: wire.encode_message(Tag.LEAVE, [t, KEY, bytes(64)]),
    "CHALLENGE": lambda s, t: wire.encode_message(Tag.CHALLENGE, [bytes(16)]),
    "RESPONSE": lambda s, t: wire.encode_message(Tag.RESPONSE, [bytes(16)]),
}


def _game(session: Session | None) -> bytes:
    assert session is not None
    return session.game_id


GAME_REQUESTS: Requests = {
    **LOBBY_REQUESTS,
    "ENTRY (replayed)": lambda s, t: wire.encode_message(
        Tag.ENTRY, [s.chains[1][-1].raw]),  # type: ignore[union-attr]
    "HEADS (holding nothing)": lambda s, t: wire.encode_message(
        Tag.HEADS, [_game(s), [0, 0], [b"", b""]]),
    "HEADS (holding more)": lambda s, t: wire.encode_message(
        Tag.HEADS, [_game(s), [999, 999], [bytes(32), bytes(32)]]),
    "WANT": lambda s, t: wire.encode_message(Tag.WANT, [_game(s), 1, 0, 16]),
    "RECOVER": lambda s, t: wire.encode_message(Tag.RECOVER, [_game(s), 1, NONCE]),
    "HELD": lambda s, t: wire.encode_message(
        Tag.HELD, [_game(s), 1, 0, 0, b"", bytes(64)]),
    "WHO": lambda s, t: wire.encode_message(Tag.WHO, [_game(s), NONCE, LOOPBACK, 0]),
    "SEATED": lambda s, t: wire.encode_message(Tag.SEATED, [_game(s), 1, NONCE, bytes(64)]),
}


async def measure(peer: Peer, table_id: bytes, requests: Requests,
                  echo: bool = False) -> dict[str, tuple[int, int]]:
    """Bytes sent and bytes received back, per kind of request, each from a fresh socket.
    With ``echo``, the stranger answers a CHALLENGE as an honest peer would. Every socket
    stays open to the end: a port closed and bound again would inherit the credit its
    address had left with the peer, which is counted by address, not by socket."""
    loop = asyncio.get_running_loop()
    out = {}
    with contextlib.ExitStack() as sockets:
        for name, make in requests.items():
            s = sockets.enter_context(socket.socket(socket.AF_INET, socket.SOCK_DGRAM))
            s.bind((LOOPBACK, 0))
            s.setblocking(False)
            sent = back = 0
            for i in range(REPEATS * 2):
                if i < REPEATS:
                    data = make(peer.session, table_id)
                    s.sendto(data, peer.address)
                    sent += len(data)
                deadline = loop.time() + 0.05
                while (left := deadline - loop.time()) > 0:
                    try:
                        async with asyncio.timeout(left):
                            reply, _ = await loop.sock_recvfrom(s, 2048)
                    except TimeoutError:
                        break
                    back += len(reply)
                    tag = wire.decode_message(reply)[0]
                    if echo and tag == Tag.CHALLENGE:
                        token = wire.decode_message(reply)[1][0]
                        s.sendto(wire.encode_message(Tag.RESPONSE, [token]),
                                 peer.address)  # type: ignore[list-item]
            out[name] = (sent, back)
    return out


def worst(factors: dict[str, tuple[int, int]]) -> float:
    return max(back / sent for sent, back in factors.values())


def test_no_message_buys_an_unproven_address_more_than_the_allowance(tmp_path: Path) -> None:
    async def run() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]],
                             dict[str, tuple[int, int]]]:
        lobby_host = await Peer.open(identity(5), tmp_path / "lobby", host=LOOPBACK,
                                     announce=False)
        lobby = await lobby_host.host(GameConfig(players=3), "Hana", "red")
        peers, _ = await open_table(tmp_path, players=2)
        try:
            in_lobby = await measure(lobby_host, lobby.table_id, LOBBY_REQUESTS)
            await play(peers)
            host = peers[0]
            table_id = host.lobby.table_id  # type: ignore[union-attr]
            after_game = await measure(host, table_id, GAME_REQUESTS)
            proven = await measure(host, table_id, {"WANT": GAME_REQUESTS["WANT"]}, echo=True)
            return in_lobby, after_game, proven
        finally:
            with contextlib.suppress(Exception):
                await lobby_host.close()
            await close_all(peers)

    in_lobby, after_game, proven = asyncio.run(run())
    for name, factors in (("lobby", in_lobby), ("game", after_game)):
        assert worst(factors) <= AMPLIFICATION, (name, factors)
    # Things that would be amplifiers without the allowance do reach it.
    assert in_lobby["HELLO"][1] > in_lobby["HELLO"][0]  # a signed WELCOME is bigger
    assert after_game["WANT"][1] > 2 * after_game["WANT"][0]
    # An address that echoed its token is served: sixteen entries for each WANT.
    sent, back = proven["WANT"]
    assert back > 20 * sent, proven
