"""Property 8 (first half): a rogue announcement or a copied key cannot impersonate a player.

An mDNS announcement is only a hint; the lobby handshake makes each side sign the other's
fresh nonce (bound to the game and to the verifier's key). These tests copy everything that
can be copied (names, TXT records, fingerprints, public keys, earlier signatures) and check
that the copy never gets into a roster.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from pathlib import Path

import asyncio_dgram
import pytest

from p2p_burgundy import GameConfig
from p2p_burgundy.cli.lan import LanError, join_table, wait_for_session
from p2p_burgundy.net import wire
from p2p_burgundy.net.discovery import Announcer, TableInfo, instance_name
from p2p_burgundy.net.errors import ProtocolError, RemoteProtocolError
from p2p_burgundy.net.identity import Identity, fingerprint
from p2p_burgundy.net.lobby import (
    CHALLENGE_DOMAIN,
    HostLobby,
    JoinLobby,
    Refused,
    challenge_message,
)
from p2p_burgundy.net.messages import Tag, parse
from p2p_burgundy.net.peer import Peer

from .procs import LOOPBACK

GAME_ID = b"R" * 16
HOST_ADDRESS = ("10.231.0.1", 4000)
VICTIM_ADDRESS = ("10.231.0.2", 4000)
ROGUE_ADDRESS = ("10.231.0.66", 4000)


def ident(n: int) -> Identity:
    return Identity.from_private_bytes(bytes([n]) * 32)


HOST, VICTIM, ROGUE = ident(1), ident(2), ident(66)
TAG_NAMES = {t.value: t.name for t in Tag}


def deliver_to_host(host: HostLobby, data: bytes, source: tuple[str, int]) -> None:
    host.receive(parse(data), source, os.urandom(16))


def handshake(host: HostLobby, joiner: JoinLobby, source: tuple[str, int]) -> list[bytes]:
    """Run a joiner's handshake to the end; every datagram the joiner sent, in order."""
    sent = []
    for _ in range(10):
        out = joiner.datagrams_to_send()
        if not out:
            joiner.handle_timer(0.0, bytes(16))
            out = joiner.datagrams_to_send()
        for data, _ in out:
            sent.append(data)
            deliver_to_host(host, data, source)
        for data, destination in host.datagrams_to_send():
            if destination == source:
                joiner.receive(parse(data), joiner.host)
        if joiner.admitted:
            break
    return sent


def new_host() -> HostLobby:
    return HostLobby(HOST, GAME_ID, GameConfig(players=3), "Ann", "red",
                     contribution=os.urandom(16))


def new_joiner(identity: Identity, **kwargs: object) -> JoinLobby:
    return JoinLobby(identity, HOST_ADDRESS, "Bob", "blue", nonce=os.urandom(16),
                     contribution=os.urandom(16), **kwargs)  # type: ignore[arg-type]


def keys(host: HostLobby) -> list[bytes]:
    return [m.key for m in host.members]


def message(tag: int, fields: list[wire.Encodable]) -> bytes:
    return wire.encode_message(tag, fields)


# --- a rogue joiner with a copied public key (sans-I/O) ------------------------------------------


def test_rogue_with_a_copied_key_cannot_sign_the_challenge_and_is_never_admitted() -> None:
    host = new_host()
    deliver_to_host(host, message(Tag.HELLO, [GAME_ID, VICTIM.public_key, b"n" * 16,
                                                   False]), ROGUE_ADDRESS)
    (welcome, _), = host.datagrams_to_send()
    _, _, _, host_nonce, _ = wire.decode_message(welcome)[1]
    commitment = os.urandom(32)
    for signature in (os.urandom(64), ROGUE.sign(CHALLENGE_DOMAIN, challenge_message(
            GAME_ID, host_nonce, HOST.public_key))):  # type: ignore[arg-type]
        with pytest.raises(RemoteProtocolError, match="does not verify"):
            deliver_to_host(host, message(Tag.PROVE, [GAME_ID, VICTIM.public_key,
                                                           signature, commitment, "Bob",
                                                           "blue"]), ROGUE_ADDRESS)
    assert keys(host) == [HOST.public_key]


def test_replaying_a_players_proof_from_another_address_or_handshake_fails() -> None:
    host = new_host()
    victim = new_joiner(VICTIM)
    sent = handshake(host, victim, VICTIM_ADDRESS)
    assert keys(host) == [HOST.public_key, VICTIM.public_key]
    prove = next(d for d in sent if wire.decode_message(d)[0] == Tag.PROVE)
    # The rogue asks for a challenge of its own with the victim's key, then replays the
    # victim's proof (which signs another nonce).
    deliver_to_host(host, message(Tag.HELLO, [GAME_ID, VICTIM.public_key, b"r" * 16,
                                                   False]), ROGUE_ADDRESS)
    host.datagrams_to_send()
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        deliver_to_host(host, prove, ROGUE_ADDRESS)
    # Without a challenge of its own at all:
    with pytest.raises(RemoteProtocolError):
        deliver_to_host(host, prove, ("10.231.0.67", 4000))
    # The victim's seat and address are untouched.
    assert [(m.key, m.address) for m in host.members][1] == (VICTIM.public_key, VICTIM_ADDRESS)


def test_a_rogue_cannot_rename_ready_or_remove_a_player_without_its_key() -> None:
    host = new_host()
    handshake(host, new_joiner(VICTIM), VICTIM_ADDRESS)
    before = list(host.members)
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        deliver_to_host(host, message(Tag.UPDATE, [GAME_ID, VICTIM.public_key, "Mallory",
                                                        "green", True, os.urandom(64)]),
                        ROGUE_ADDRESS)
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        deliver_to_host(host, message(Tag.LEAVE, [GAME_ID, VICTIM.public_key,
                                                       os.urandom(64)]), ROGUE_ADDRESS)
    assert host.members == before


def test_a_proof_made_for_a_rogue_host_does_not_work_at_the_real_host() -> None:
    """A rogue host collects a joiner's proof for its own challenge: the proof names the
    rogue as verifier, so relaying it to the real host (with the real host's nonce) fails."""
    rogue_host = HostLobby(ROGUE, GAME_ID, GameConfig(players=3), "Ann", "red",
                           contribution=os.urandom(16))
    sent = handshake(rogue_host, new_joiner(VICTIM), VICTIM_ADDRESS)
    prove = next(d for d in sent if wire.decode_message(d)[0] == Tag.PROVE)
    real = new_host()
    deliver_to_host(real, message(Tag.HELLO, [GAME_ID, VICTIM.public_key, b"r" * 16,
                                                   False]), ROGUE_ADDRESS)
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        deliver_to_host(real, prove, ROGUE_ADDRESS)
    assert keys(real) == [HOST.public_key]


# --- a rogue host (sans-I/O) ---------------------------------------------------------------------


def welcome_from(host_key: bytes, signer: Identity, joiner_nonce: bytes,
                 joiner: Identity) -> bytes:
    signature = signer.sign(CHALLENGE_DOMAIN, challenge_message(GAME_ID, joiner_nonce,
                                                                joiner.public_key))
    return message(Tag.WELCOME, [GAME_ID, host_key, signature, b"h" * 16,
                                      GameConfig(players=2).to_tree()])


@pytest.mark.parametrize(("host_key", "signer", "reason"), [
    (HOST.public_key, ROGUE, "could not prove"),  # the real key, signed by someone else
    (ROGUE.public_key, ROGUE, "does not match"),  # a valid signature by another key
])
def test_joiner_refuses_a_host_that_cannot_prove_the_announced_key(
    host_key: bytes, signer: Identity, reason: str,
) -> None:
    nonce = b"j" * 16
    joiner = JoinLobby(VICTIM, HOST_ADDRESS, "Bob", "blue", nonce=nonce, table_id=GAME_ID,
                       contribution=os.urandom(16),
                       host_fingerprint=fingerprint(HOST.public_key))
    joiner.datagrams_to_send()
    joiner.receive(parse(welcome_from(host_key, signer, nonce, VICTIM)), HOST_ADDRESS)
    event = joiner.next_event()
    assert isinstance(event, Refused) and reason in event.reason
    assert joiner.datagrams_to_send() == []  # no PROVE: our signature is not handed out
    # Whatever the rogue says next is ignored: no roster, no proposal, no crash.
    roster = message(Tag.ROSTER, [GAME_ID, GameConfig(players=2).to_tree(),
                                       [[VICTIM.public_key, "Bob", "blue", True, "", 0]],
                                       False])
    joiner.receive(parse(roster), HOST_ADDRESS)
    assert joiner.members == () and not joiner.admitted


def test_joiner_ignores_roster_and_proposal_before_the_host_proved_its_key() -> None:
    joiner = JoinLobby(VICTIM, HOST_ADDRESS, "Bob", "blue", nonce=b"j" * 16, table_id=GAME_ID,
                       contribution=b"c" * 16)
    propose = message(Tag.PROPOSE, [GAME_ID, GameConfig(players=2).to_tree(),
                                         [[VICTIM.public_key, "Bob", "blue", b"c" * 32]]])
    roster = message(Tag.ROSTER, [GAME_ID, GameConfig(players=2).to_tree(), [], False])
    for data in (propose, roster):
        with pytest.raises(ProtocolError):
            joiner.receive(parse(data), HOST_ADDRESS)
    assert joiner.members == () and not joiner.accepted


# --- a rogue mDNS announcement (real zeroconf on loopback, a rogue UDP socket) --------------------


async def rogue_table(host_key: bytes, signer: Identity, victim: Identity,
                      seen: list[str]) -> tuple[Announcer, asyncio.Task[None], object]:
    """Announce a copy of ``victim``'s table (same name, fingerprint, TXT) pointing at a rogue
    socket that answers every HELLO with a WELCOME for ``host_key`` signed by ``signer``, then
    pushes a roster and a proposal naming the joiner."""
    stream = await asyncio_dgram.bind((LOOPBACK, 0))
    fp = fingerprint(victim.public_key)
    info = TableInfo(instance_name("Anna", fp, GAME_ID), "Anna", fp, GAME_ID, 1, 2, "2011",
                     stream.sockname[:2])
    announcer = Announcer(info, [LOOPBACK])
    await announcer.start()

    async def answer() -> None:
        while True:
            data, address = await stream.recv()
            tag, fields = wire.decode_message(data)
            seen.append(TAG_NAMES.get(tag, str(tag)))
            if tag != Tag.HELLO:
                continue
            _, key, nonce, _ = fields
            joiner_key: bytes = key  # type: ignore[assignment]
            signature = signer.sign(CHALLENGE_DOMAIN, challenge_message(
                GAME_ID, nonce, joiner_key))  # type: ignore[arg-type]
            config = GameConfig(players=2).to_tree()
            for reply in (
                message(Tag.WELCOME, [GAME_ID, host_key, signature, b"h" * 16, config]),
                message(Tag.ROSTER, [GAME_ID, config, [[joiner_key, "Bob", "blue", True,
                                                             "", 0]], True]),
                message(Tag.PROPOSE, [GAME_ID, config, [[joiner_key, "Bob", "blue",
                                                              b"c" * 32]]]),
            ):
                await stream.send(reply, address)

    return announcer, asyncio.ensure_future(answer()), stream


@pytest.mark.slow
@pytest.mark.parametrize(("forge", "reason"), [
    ("bad-signature", "could not prove"),
    ("other-key", "does not match"),
])
def test_joiner_finding_a_rogue_copy_of_a_table_by_mdns_refuses_it(
    tmp_path: Path, forge: str, reason: str,
) -> None:
    victim, rogue = ident(7), ident(8)
    host_key = victim.public_key if forge == "bad-signature" else rogue.public_key

    async def run() -> tuple[str, Peer]:
        seen: list[str] = []
        announcer, task, stream = await rogue_table(host_key, rogue, victim, seen)
        peer = await Peer.open(ident(9), tmp_path, host=LOOPBACK, interfaces=[LOOPBACK])
        try:
            args = argparse.Namespace(no_mdns=False, interface=LOOPBACK)
            with pytest.raises(LanError) as refused:  # found by its name, then refused
                await join_table(peer, args, fingerprint(victim.public_key), "Bob", "blue",
                                 timeout=10.0)
                await wait_for_session(peer, 15.0)
            await asyncio.sleep(0.3)  # the rogue's roster and proposal arrive meanwhile
            assert "HELLO" in seen and "PROVE" not in seen and "ACCEPT" not in seen
            return str(refused.value), peer
        finally:
            await peer.close()
            task.cancel()
            stream.close()  # type: ignore[attr-defined]
            await announcer.close()

    why, peer = asyncio.run(run())
    assert reason in why
    assert peer.lobby is None and peer.session is None  # left the impostor's table
