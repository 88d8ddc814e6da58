"""The lobby's bounds and deadlines, sans-I/O: spectators capped and dropped when silent, the
players' messages before the spectators', silent members dropped, members removed by the
host, a start nobody can stall."""

from __future__ import annotations

import contextlib

from p2p_burgundy import GameConfig
from p2p_burgundy.net.errors import ProtocolError
from p2p_burgundy.net.identity import Identity
from p2p_burgundy.net.lobby import (
    MAX_SPECTATORS,
    SILENT_AFTER,
    START_DEADLINE,
    HostLobby,
    JoinLobby,
)
from p2p_burgundy.net.messages import Leave, Propose, Roster, parse

HOST = ("10.0.0.1", 1)
TICK = 0.5


class Table:
    """A host and its guests, each at its own address; ``deaf`` guests receive nothing and
    say nothing (gone, or a stranger holding a seat)."""

    def __init__(self, players: int = 2) -> None:
        self.host = HostLobby(Identity.from_private_bytes(bytes([1]) * 32), b"t" * 16,
                              GameConfig(players=players), "Hana", "red",
                              contribution=b"h" * 16)
        self.guests: dict[tuple[str, int], JoinLobby] = {}
        self.deaf: set[tuple[str, int]] = set()
        self.stallers: set[tuple[str, int]] = set()  # talk, but never see a proposal
        self.now = 0.0
        self.delivered: list[tuple[bytes, tuple[str, int]]] = []

    def join(self, number: int, *, spectator: bool = False, ready: bool = True
             ) -> tuple[str, int]:
        address = ("10.0.1.1", number)
        guest = JoinLobby(Identity.from_private_bytes(number.to_bytes(32, "big")), HOST,
                          f"G{number}", "blue", nonce=number.to_bytes(16, "big"),
                          contribution=number.to_bytes(16, "big"), spectator=spectator)
        self.guests[address] = guest
        self.exchange()
        if not spectator and ready:
            guest.set_me(guest.name, guest.colour, True)
            self.exchange()
        return address

    def exchange(self) -> None:
        while True:
            moved = False
            for address, guest in self.guests.items():
                for data, _ in guest.datagrams_to_send():
                    if address not in self.deaf:
                        with contextlib.suppress(ProtocolError):  # as the node does
                            self.host.receive(parse(data), address, bytes(16))
                        moved = True
            for data, destination in self.host.datagrams_to_send():
                self.delivered.append((data, destination))  # type: ignore[arg-type]
                guest = self.guests.get(destination)  # type: ignore[arg-type]
                message = parse(data)
                if guest is not None and destination not in self.deaf and not (
                        destination in self.stallers and isinstance(message, Propose)):
                    guest.receive(message, HOST)
                    moved = True
            if not moved:
                return

    def run(self, seconds: float) -> None:
        """Timer ticks on both sides for ``seconds``, delivering everything."""
        end = self.now + seconds
        while self.now < end - 1e-9:
            self.now += TICK
            self.host.handle_timer(self.now)
            for guest in self.guests.values():
                guest.handle_timer(self.now, bytes(16))
            self.exchange()

    def seated(self) -> list[str]:
        return [m.name for m in self.host.members]

    def refused(self, address: tuple[str, int]) -> str | None:
        return self.guests[address].refused


def test_spectators_are_capped() -> None:
    table = Table()
    for number in range(MAX_SPECTATORS + 1):
        table.join(100 + number, spectator=True)
    assert len(table.host.spectators) == MAX_SPECTATORS == 16
    assert table.refused(("10.0.1.1", 100 + MAX_SPECTATORS)) == \
        "the host refused: no room for more spectators"
    assert table.refused(("10.0.1.1", 100)) is None


def test_a_silent_spectator_is_dropped_and_its_place_freed() -> None:
    table = Table()
    quiet, present = table.join(100, spectator=True), table.join(101, spectator=True)
    table.deaf.add(quiet)
    table.run(SILENT_AFTER - 1)
    assert len(table.host.spectators) == 2
    table.run(1.5)
    assert list(table.host.spectators.values()) == [present]
    table.run(60)  # one that keeps talking stays
    assert list(table.host.spectators.values()) == [present]


def test_the_players_messages_go_before_the_spectators_and_are_never_crowded_out() -> None:
    table = Table(players=3)
    player = table.join(2, ready=False)
    for number in range(MAX_SPECTATORS):
        table.join(100 + number, spectator=True)
    for tick in range(1, 41):  # 40 rosters to each of 17, nothing taken from the outbox
        table.host.handle_timer(tick * 0.01)
    out = table.host.datagrams_to_send()
    to_player = [d for d, destination in out if destination == player]
    assert len(to_player) == 40 and all(isinstance(parse(d), Roster) for d in to_player)
    assert [destination for _, destination in out[:40]] == [player] * 40


def test_silent_members_lose_their_seats_and_an_honest_joiner_gets_one() -> None:
    """Two throwaway keys take the free seats of a 3-player table and fall silent."""
    table = Table(players=3)
    table.deaf |= {table.join(2), table.join(3)}
    assert table.seated() == ["Hana", "G2", "G3"]
    honest = table.join(4)  # told the table is full: it asks again until a seat frees up
    assert table.guests[honest].full and table.refused(honest) is None
    table.run(SILENT_AFTER + 1)
    assert table.seated() == ["Hana", "G4"] and table.refused(honest) is None


def test_a_member_that_keeps_talking_keeps_its_seat() -> None:
    table = Table(players=3)
    table.join(2)
    table.run(60)
    assert table.seated() == ["Hana", "G2"]


def test_the_host_removes_a_member_who_may_not_come_back() -> None:
    table = Table(players=3)
    unwanted = table.join(2)
    table.host.remove(table.guests[unwanted].identity.public_key)
    table.exchange()
    assert table.seated() == ["Hana"]
    assert table.refused(unwanted) == "the host refused: the host removed you from this table"
    again = JoinLobby(table.guests[unwanted].identity, HOST, "G2", "blue", nonce=b"n" * 16,
                      contribution=b"c" * 16)
    table.guests[unwanted] = again
    table.exchange()
    assert again.refused == "the host refused: the host removed you from this table"
    assert table.seated() == ["Hana"]


def test_a_start_not_accepted_in_time_is_withdrawn_and_made_without_the_silent_member(
        ) -> None:
    table = Table(players=3)
    table.join(2)
    staller = table.join(3)
    table.deaf.add(staller)  # seated and ready, then it never answers the proposal
    table.host.start()
    table.exchange()
    table.run(START_DEADLINE - 1)
    assert table.host.proposed and table.host.started is None
    table.run(1.5)
    assert not table.host.proposed and table.seated() == ["Hana", "G2"]
    assert staller in [d for _, d in table.delivered if isinstance(parse(_), Leave)]
    assert not table.guests[("10.0.1.1", 2)].accepted  # its acceptance was for that game
    table.join(4)
    table.host.start()
    table.exchange()
    started = table.host.started
    assert started is not None and [s.name for s in started.seats] == ["Hana", "G2", "G4"]
    assert table.guests[("10.0.1.1", 2)].started == started
    assert table.guests[("10.0.1.1", 4)].started == started


def test_a_joiner_arriving_while_a_start_waits_on_a_silent_member_gets_its_seat() -> None:
    """The start is only proposed: told the table is full (not that the game has started),
    the joiner asks again, and sits down in the seat of the member that did not accept."""
    table = Table(players=3)
    table.join(2)
    table.deaf.add(table.join(3))
    table.host.start()
    table.exchange()
    waiting = table.join(4)
    assert table.guests[waiting].full and table.refused(waiting) is None
    table.run(START_DEADLINE + 1.5)
    assert table.seated() == ["Hana", "G2", "G4"] and table.refused(waiting) is None


def test_a_member_that_keeps_talking_but_never_accepts_is_dropped_at_the_deadline() -> None:
    table = Table(players=2)
    staller = table.join(2)
    table.stallers.add(staller)
    table.host.start()
    table.run(START_DEADLINE + 1)
    assert table.seated() == ["Hana"] and not table.host.proposed
    assert table.refused(staller) == \
        f"the host refused: you did not accept the start within {START_DEADLINE:.0f} s"
