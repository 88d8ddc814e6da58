"""The lobby, sans-I/O: acceptances must come from the member, signed; the game id holds every
member's fresh contribution, so no host can bring an old game back."""

from dataclasses import replace

import pytest

from p2p_burgundy import Edition, GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import DecodeError, LocalProtocolError, RemoteProtocolError
from p2p_burgundy.net.identity import Identity, fingerprint
from p2p_burgundy.net.lobby import (
    UPDATE_DOMAIN,
    HostBack,
    HostLobby,
    HostSilent,
    JoinLobby,
    Refused,
    update_message,
)
from p2p_burgundy.net.messages import (
    Accept,
    Hello,
    Leave,
    Prove,
    Roster,
    Tag,
    Update,
    Welcome,
    parse,
)
from p2p_burgundy.net.start import Start, game_id_of, start_digest

HOST, GUEST, ROGUE = ("10.0.0.1", 1), ("10.0.0.2", 2), ("10.0.0.3", 3)


def exchange(host: HostLobby, guest: JoinLobby) -> None:
    """Deliver datagrams both ways until both are quiet."""
    while True:
        moved = False
        for data, _ in guest.datagrams_to_send():
            host.receive(parse(data), GUEST, bytes(16))
            moved = True
        for data, destination in host.datagrams_to_send():
            if destination == GUEST:
                guest.receive(parse(data), HOST)
                moved = True
        if not moved:
            return


def strangers(table_id: bytes = b"g" * 16, host_contribution: bytes = b"h" * 16,
              guest_contribution: bytes = b"j" * 16) -> tuple[HostLobby, JoinLobby]:
    """A host's table for 2 and a guest about to join it (nothing sent yet)."""
    host = HostLobby(Identity.from_private_bytes(bytes([1]) * 32), table_id,
                     GameConfig(players=2), "Hana", "red", contribution=host_contribution)
    guest = JoinLobby(Identity.from_private_bytes(bytes([2]) * 32), HOST, "Gus", "blue",
                      nonce=bytes(16), contribution=guest_contribution)
    return host, guest


def table(table_id: bytes = b"g" * 16, host_contribution: bytes = b"h" * 16,
          guest_contribution: bytes = b"j" * 16) -> tuple[HostLobby, JoinLobby]:
    """A host and a guest at one table, the guest seated (not ready yet)."""
    host, guest = strangers(table_id, host_contribution, guest_contribution)
    exchange(host, guest)
    return host, guest


def started(**contributions: bytes) -> Start:
    host, guest = table(**contributions)
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    host.start()
    exchange(host, guest)
    assert host.started is not None and guest.started is not None
    assert host.started.entry == guest.started.entry
    return host.started


@pytest.fixture
def proposed() -> tuple[HostLobby, JoinLobby]:
    host, guest = table()
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    host.start()  # proposes; hold back the guest's answer for now
    for data, _ in host.datagrams_to_send():
        guest.receive(parse(data), HOST)
    return host, guest


def test_a_forged_or_misplaced_acceptance_never_blocks_the_start(proposed) -> None:
    host, guest = proposed
    key = guest.identity.public_key
    with pytest.raises(RemoteProtocolError, match="not at the table"):
        host.receive(Accept(host.table_id, key, bytes(32), bytes(64)), ROGUE, bytes(16))
    with pytest.raises(RemoteProtocolError, match="does not verify"):
        host.receive(Accept(host.table_id, key, bytes(32), bytes(64)), GUEST, bytes(16))
    assert host.start_entry is None
    exchange(host, guest)  # the real acceptance still starts the game
    assert host.start_entry is not None and guest.started is not None


def test_a_hello_naming_a_seated_key_gets_no_start_entry_before_a_proof(proposed) -> None:
    host, guest = proposed
    exchange(host, guest)
    host.datagrams_to_send()
    host.receive(Hello(host.table_id, guest.identity.public_key, bytes(16), False), ROGUE,
                 bytes(16))
    tags = [wire.decode_message(d)[0] for d, _ in host.datagrams_to_send()]
    assert tags == [Tag.WELCOME] and Tag.ENTRY not in tags


def test_the_game_id_holds_every_contribution_and_the_chains_follow_it() -> None:
    start = started()
    assert start.game_id == game_id_of(start.table_id, start.config, start.seats)
    assert start.game_id == start_digest(start.table_id, start.config, start.seats)[:16]
    assert [s.contribution for s in start.seats] == [b"h" * 16, b"j" * 16]
    for contributions in ({"host_contribution": b"H" * 16}, {"guest_contribution": b"J" * 16}):
        other = started(**contributions)  # same table id, same players: one fresh input
        assert other.game_id != start.game_id
        assert all(a.commitment != b.commitment
                   for a, b in zip(start.seats, other.seats, strict=True))


def test_rehosting_the_same_players_under_an_old_table_id_gives_fresh_commitments() -> None:
    old = started(table_id=b"o" * 16)
    # The host reuses everything it chose the first time; the guest contributes afresh, as
    # every joiner does.
    new = started(table_id=b"o" * 16, guest_contribution=b"n" * 16)
    assert new.game_id != old.game_id
    assert {s.commitment for s in new.seats}.isdisjoint({s.commitment for s in old.seats})


def test_a_guest_refuses_a_proposal_that_does_not_carry_its_own_fresh_contribution() -> None:
    host, guest = table(guest_contribution=b"n" * 16)
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    host.members[1] = replace(host.members[1], contribution=b"o" * 16)  # last game's input
    host.start()
    exchange(host, guest)
    assert guest.refused == "the host proposed a game we did not agree to"
    assert host.start_entry is None and guest.started is None


SOLO_CONFIG = GameConfig(players=1, edition=Edition.E2019)  # what `burgundy solo` plays
SOLO = ("a network game is for 2 to 4 players, not 1 (one player plays the solo game: "
        "burgundy solo)")


def test_a_table_for_one_player_cannot_be_hosted_or_joined() -> None:
    with pytest.raises(LocalProtocolError) as raised:
        HostLobby(Identity.from_private_bytes(bytes([1]) * 32), b"g" * 16, SOLO_CONFIG,
                  "Hana", "red", contribution=b"h" * 16)
    assert str(raised.value) == SOLO
    # A host's WELCOME (its signature does not cover the config) changed to one player.
    host, guest = strangers()
    for data, _ in guest.datagrams_to_send():
        host.receive(parse(data), GUEST, bytes(16))
    [(data, _)] = host.datagrams_to_send()
    welcome = parse(data)
    assert isinstance(welcome, Welcome)
    guest.receive(replace(welcome, config=wire.value(SOLO_CONFIG.to_tree())), HOST)
    assert guest.next_event() == Refused(f"the host's config is invalid: {SOLO}")
    assert guest.config is None and guest.datagrams_to_send() == []  # no PROVE


def test_a_host_that_never_answers_is_given_up_on_with_what_to_check() -> None:
    guest = JoinLobby(Identity.from_private_bytes(bytes([2]) * 32), HOST, "Gus", "blue",
                      nonce=bytes(16), contribution=bytes(16))
    for now in (100.0, 105.0, 109.9):  # the clock starts anywhere: 10 s from the first tick
        guest.handle_timer(now, bytes(16))
        assert guest.refused is None and guest.next_event() is None
    guest.handle_timer(110.0, bytes(16))
    reason = ("no answer from 10.0.0.1:1 in 10 s: check the address and the port, that the "
              "host is still at its table, and that no firewall blocks UDP between you")
    assert guest.refused == reason and guest.next_event() == Refused(reason)
    guest.datagrams_to_send()
    guest.handle_timer(111.0, bytes(16))  # given up: no more HELLOs
    assert guest.datagrams_to_send() == []




def tick(host: HostLobby | None, guest: JoinLobby, now: float) -> None:
    """One retry period: both sides' timers, then delivery (a host of None is dead)."""
    if host is not None:
        host.handle_timer(now)
    guest.handle_timer(now, bytes([int(now * 2) % 256]) * 16)
    if host is not None:
        exchange(host, guest)
    else:
        guest.datagrams_to_send()


def silent_guest() -> tuple[HostLobby, JoinLobby]:
    """A seated guest whose host answered until 1.0 s and then died (the guest notes what
    it heard at its next tick, 1.5 s: silence counts from there)."""
    host, guest = table()
    for now in (0.0, 0.5, 1.0):
        tick(host, guest, now)
    while guest.next_event() is not None:
        pass
    for now in (1.5, 2.0, 2.5, 3.0, 3.5, 4.0):
        tick(None, guest, now)
        assert guest.next_event() is None and guest.silent_since is None
    guest.handle_timer(4.5, b"N" * 16)
    return host, guest


SILENT = ("Hana [{fp}] at 10.0.0.1:1 has not answered for 3 s: check that it is still running "
          "and at its table, and the network between you; waiting for it to come back")


def test_a_host_that_falls_silent_is_named_after_3_s_and_asked_afresh() -> None:
    host, guest = silent_guest()
    assert guest.next_event() == HostSilent(SILENT.format(fp=fingerprint(host.identity.public_key)))
    assert guest.silent_since == 4.5 and guest.refused is None
    [(data, destination)] = guest.datagrams_to_send()
    assert destination == HOST  # a new HELLO, any table, a fresh nonce
    assert wire.decode_message(data) == (Tag.HELLO, (b"", guest.identity.public_key,
                                                         b"N" * 16, False))
    for now in (5.0, 3600.0):  # then it keeps asking, and never gives up by itself
        tick(None, guest, now)
        assert guest.refused is None and guest.next_event() is None


def test_a_host_restarted_on_the_same_key_and_address_is_found_and_joined_again() -> None:
    old, guest = silent_guest()
    guest.next_event()
    guest.datagrams_to_send()
    host = HostLobby(old.identity, b"t" * 16, GameConfig(players=2), "Hana", "red",
                     contribution=b"H" * 16)  # a new table: a new table id
    tick(host, guest, 5.0)
    fp = fingerprint(host.identity.public_key)
    assert guest.next_event() == HostBack(f"Hana [{fp}] at 10.0.0.1:1 is back at a new table: "
                                          "joining again")
    assert guest.table_id == b"t" * 16 and guest.admitted and guest.silent_since is None
    guest.set_me("Gus", "blue", True)
    exchange(host, guest)
    host.start()
    exchange(host, guest)
    assert host.started is not None and guest.started == host.started


def test_a_host_silent_for_a_while_takes_its_joiner_back_at_its_own_table() -> None:
    host, guest = silent_guest()
    guest.next_event()
    guest.datagrams_to_send()
    guest.handle_timer(5.0, b"M" * 16)  # the host answers again (its next ROSTER is due)
    exchange(host, guest)
    fp = fingerprint(host.identity.public_key)
    assert guest.next_event() == HostBack(f"Hana [{fp}] at 10.0.0.1:1 is back at its table: "
                                          "joining again")
    assert guest.admitted and [m.key for m in host.members] == [
        host.identity.public_key, guest.identity.public_key]


def test_another_key_at_the_silent_hosts_address_is_refused() -> None:
    _, guest = silent_guest()
    guest.datagrams_to_send()
    impostor = HostLobby(Identity.from_private_bytes(bytes([9]) * 32), b"t" * 16,
                         GameConfig(players=2), "Hana", "red", contribution=b"H" * 16)
    tick(impostor, guest, 5.0)
    assert guest.refused == "the host's key does not match the announced fingerprint"


BAD_NAME = "Gus\x1b]0;owned\x07"  # a terminal's escape sequence: names are printed


def test_a_name_with_control_characters_never_sits_at_a_table() -> None:
    # A joiner's own lobby refuses it; a forged PROVE carrying it is refused by the host.
    with pytest.raises(LocalProtocolError, match="1 to 32 printable characters"):
        JoinLobby(Identity.from_private_bytes(bytes([2]) * 32), HOST, BAD_NAME, "blue",
                  nonce=bytes(16), contribution=b"j" * 16)
    host, guest = strangers()
    for data, _ in guest.datagrams_to_send():
        host.receive(parse(data), GUEST, bytes(16))
    for data, _ in host.datagrams_to_send():
        guest.receive(parse(data), HOST)
    [(data, _)] = guest.datagrams_to_send()
    prove = parse(data)
    assert isinstance(prove, Prove)
    host.receive(replace(prove, name=BAD_NAME), GUEST, bytes(16))
    [(data, _)] = host.datagrams_to_send()
    assert parse(data) == Leave(b"g" * 16, prove.key, "bad name, colour or contribution")
    assert [m.name for m in host.members] == ["Hana"]


def test_a_member_or_host_naming_someone_with_control_characters_changes_nothing() -> None:
    host, guest = table()
    key = guest.identity.public_key
    signature = guest.identity.sign(UPDATE_DOMAIN,
                                    update_message(b"g" * 16, key, BAD_NAME, "blue", True))
    with pytest.raises(RemoteProtocolError, match="UPDATE with a bad name or colour"):
        host.receive(Update(b"g" * 16, key, BAD_NAME, "blue", True, signature), GUEST,
                     bytes(16))
    assert host.datagrams_to_send() == []
    guest.set_me("Gus", "blue", True)
    for data, _ in guest.datagrams_to_send():
        host.receive(parse(data), GUEST, bytes(16))
    [roster] = [m for data, to in host.datagrams_to_send() if isinstance(m := parse(data), Roster)]
    hana, *others = roster.members
    with pytest.raises(DecodeError, match="ROSTER with a bad name or colour"):
        guest.receive(replace(roster, members=((hana[0], BAD_NAME, *hana[2:]), *others)), HOST)
    assert [m.name for m in host.members] == [m.name for m in guest.members] == ["Hana", "Gus"]
