"""The lobby's host side, sans-I/O: acceptances must come from the member, signed."""

import pytest

from p2p_burgundy import GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import RemoteProtocolError
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.lobby import HostLobby, JoinLobby, LobbyTag
from p2p_burgundy.net.session import Tag

HOST, GUEST, ROGUE = ("10.0.0.1", 1), ("10.0.0.2", 2), ("10.0.0.3", 3)


def exchange(host: HostLobby, guest: JoinLobby) -> None:
    """Deliver datagrams both ways until both are quiet."""
    while True:
        moved = False
        for data, _ in guest.datagrams_to_send():
            host.receive(*wire.decode_message(data), GUEST, bytes(16))
            moved = True
        for data, destination in host.datagrams_to_send():
            if destination == GUEST:
                guest.receive(*wire.decode_message(data), HOST)
                moved = True
        if not moved:
            return


@pytest.fixture
def proposed() -> tuple[HostLobby, JoinLobby]:
    host = HostLobby(Identity.from_private_bytes(bytes([1]) * 32), b"g" * 16,
                     GameConfig(players=2), "Hana", "red")
    guest = JoinLobby(Identity.from_private_bytes(bytes([2]) * 32), HOST, "Gus", "blue",
                      nonce=bytes(16))
    exchange(host, guest)
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    host.start()  # proposes; hold back the guest's answer for now
    for data, _ in host.datagrams_to_send():
        guest.receive(*wire.decode_message(data), HOST)
    return host, guest


def test_a_forged_or_misplaced_acceptance_never_blocks_the_start(proposed) -> None:
    host, guest = proposed
    key = guest.identity.public_key
    with pytest.raises(RemoteProtocolError, match="not at the table"):
        host.receive(LobbyTag.ACCEPT, (host.game_id, key, bytes(64)), ROGUE, bytes(16))
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        host.receive(LobbyTag.ACCEPT, (host.game_id, key, bytes(64)), GUEST, bytes(16))
    assert host.start_entry is None
    exchange(host, guest)  # the real acceptance still starts the game
    assert host.start_entry is not None and guest.started is not None


def test_a_hello_naming_a_seated_key_gets_no_start_entry_before_a_proof(proposed) -> None:
    host, guest = proposed
    exchange(host, guest)
    host.datagrams_to_send()
    hello = (host.game_id, guest.identity.public_key, bytes(16), False)
    host.receive(LobbyTag.HELLO, hello, ROGUE, bytes(16))
    tags = [wire.decode_message(d)[0] for d, _ in host.datagrams_to_send()]
    assert tags == [LobbyTag.WELCOME] and Tag.ENTRY not in tags
