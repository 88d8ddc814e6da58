"""An in-memory table: N real sessions in one process joined by an in-memory link, played by
seeded random bots, for the tests and the benchmarks (``bench/``).

Like h11's ``tests/helpers.py``, but for N peers: :class:`Table` makes the identities (fixed
keys: never a player's), the START entry and one :class:`Session` per seat, then moves
datagrams between them until nothing is left to send (:meth:`Table.pump`). Each peer's "game
file" is the list of raw entries it was told to save (``files[i]``), and every event it
emitted is kept in ``events[i]``. Everything is derived from ``seed``, so a run is the same on
every machine. Nothing here reads a clock or a socket: ``now`` is the table's own.

>>> table = Table(2, seed=1)
>>> table.play(turns=4)
>>> table.sessions[0].turn_number, len(set(table.final_hashes()))
(4, 1)
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from p2p_burgundy import (
    Action,
    Edition,
    GameConfig,
    GameState,
    apply,
    ends_turn,
    legal_actions,
    state_hash,
)

from .errors import ProtocolError
from .events import ChanceResolved, Event, TurnApplied
from .identity import Identity
from .log import Entry
from .session import BROADCAST, Session
from .start import (
    COLOURS,
    Seat,
    accept_start,
    game_chain,
    game_id_of,
    make_start,
    start_digest,
)
from .sync import HEADS_INTERVAL
from .tablerules import DEFAULT_RULES, TableRules

TABLE_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
NAMES = ("Ann", "Bob", "Cid", "Dee")

# (source, destination, datagram) -> the datagram to deliver, or None to drop it.
Filter = Callable[[int, int, bytes], bytes | None]


def identity(seat: int) -> Identity:
    """The fixed identity of a seat: the Ed25519 seed ``seat + 1`` repeated 32 times."""
    return Identity.from_private_bytes(bytes([seat + 1]) * 32)


def make_table_start(
    players: int, table_id: bytes = TABLE_ID, edition: Edition = Edition.E2011, host: int = 0,
    config: GameConfig | None = None,
) -> tuple[list[Identity], GameConfig, Entry]:
    """Identities, config and the START entry (signed by ``host``) of a fixed table
    (``config``, if given, replaces ``players`` and ``edition``); seat i contributes the
    bytes ``i + 1`` repeated 32 times to the game id."""
    ids = [identity(i) for i in range(players)]
    config = config or GameConfig(players=players, edition=edition)
    return ids, config, start_entry(ids, config, table_id, host=host)


def start_entry(ids: list[Identity], config: GameConfig, table_id: bytes = TABLE_ID, *,
                host: int = 0, contributions: list[bytes] | None = None,
                names: list[str] | None = None, rules: TableRules = DEFAULT_RULES) -> Entry:
    """The START entry of these players at this table (with the table's ``rules``), every
    one accepting."""
    contributions = contributions or [bytes([i + 1]) * 16 for i in range(len(ids))]
    names = names or list(NAMES)
    base = [Seat(ident.public_key, names[i], COLOURS[i], contributions[i], b"")
            for i, ident in enumerate(ids)]
    game_id = game_id_of(table_id, config, base, rules)
    seats = [replace(s, commitment=game_chain(ident, game_id).commitment)
             for s, ident in zip(base, ids, strict=True)]
    digest = start_digest(table_id, config, seats, rules)
    acceptances = [accept_start(ident, digest, s.commitment)
                   for ident, s in zip(ids, seats, strict=True)]
    return make_start(ids[host], table_id, config, seats, acceptances, rules)


def random_turn(state: GameState, rng: random.Random) -> list[Action]:
    """A whole turn for ``state.to_move``: uniform choices among the legal actions (a set-up
    choice is a turn by itself)."""
    actions: list[Action] = []
    while True:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = apply(state, action)
        if ends_turn(action):
            return actions


class Table:
    """N peers of one game, with bots, a fake clock and a controllable in-memory link."""

    def __init__(
        self,
        players: int = 2,
        *,
        seed: int = 0,
        table_id: bytes = TABLE_ID,
        edition: Edition = Edition.E2011,
        host: int = 0,
        config: GameConfig | None = None,
    ) -> None:
        self.ids, self.config, self.start = make_table_start(players, table_id, edition, host,
                                                             config)
        self.game_id = self.start.game_id
        self.sessions = [Session(self.start, ident) for ident in self.ids]
        self.files: list[list[bytes]] = [[] for _ in self.ids]
        self.events: list[list[Event]] = [[] for _ in self.ids]
        self.errors: list[list[ProtocolError]] = [[] for _ in self.ids]
        self.bots = [random.Random(seed * 16 + i) for i in range(players)]
        self.now = 0.0
        self.filter: Filter | None = None
        self.offline: set[int] = set()  # peers that neither send nor receive
        self.delivered = 0
        self.paused = False  # bots do not play while set
        for i in range(players):
            self.flush(i)

    # --- the link ---

    def flush(self, i: int) -> None:
        """Peer ``i`` saves its new entries (to ``files[i]``), then its events are collected."""
        session = self.sessions[i]
        self.files[i].extend(entry.raw for entry in session.take_unsaved())
        session.saved()
        while (event := session.next_event()) is not None:
            self.events[i].append(event)

    def deliver(self, i: int, data: bytes, source: object) -> None:
        """Give peer ``i`` one datagram; protocol errors are kept in ``errors[i]``."""
        try:
            self.sessions[i].receive_datagram(data, source, self.now)
        except ProtocolError as exc:
            self.errors[i].append(exc)
        self.flush(i)

    def pump(self, limit: int = 1_000_000) -> int:
        """Move datagrams until none is left; how many were delivered."""
        moved = 0
        busy = True
        while busy:
            busy = False
            for i, session in enumerate(self.sessions):
                self.flush(i)
                for data, destination in session.datagrams_to_send():
                    if i in self.offline:
                        continue
                    for j in range(len(self.sessions)):
                        if j == i or j in self.offline or destination not in (BROADCAST, j):
                            continue
                        out = data if self.filter is None else self.filter(i, j, data)
                        if out is None:
                            continue
                        busy = True
                        moved += 1
                        self.deliver(j, out, i)
                        if moved > limit:
                            raise RuntimeError("the link does not go quiet")
        self.delivered += moved
        return moved

    def tick(self, seconds: float = HEADS_INTERVAL) -> None:
        """Advance the fake clock: every peer's timer fires (HEADS), then pump."""
        self.now += seconds
        for i, session in enumerate(self.sessions):
            if i not in self.offline:
                session.handle_timer(self.now)
        self.pump()

    def restart(self, seat: int, records: list[bytes], *, recovering: bool = False) -> None:
        """Replace peer ``seat`` with a new session rebuilt from ``records`` (its game file);
        ``recovering`` (the file is lost) with the nonce ``seat`` repeated 16 times."""
        session = Session(self.start, self.ids[seat], recovering=recovering,
                          recovery_nonce=bytes([seat]) * 16 if recovering else b"")
        for raw in records:
            if raw != self.start.raw:
                session.receive_entry(raw)
        session.take_unsaved()
        session.saved()
        session.datagrams_to_send()  # a restarted peer re-announces; not needed here
        self.sessions[seat] = session
        self.files[seat] = list(records)
        self.events[seat] = []

    # --- play ---

    def bot_turns(self) -> int:
        """Every peer whose turn it is plays a random turn; how many did."""
        played = 0
        for i, session in enumerate(self.sessions):
            if i not in self.offline and session.choice_due:  # the experts' secret set-up
                session.submit_choice(self.bots[i].choice(legal_actions(session.choice_state())))
                self.flush(i)
                played += 1
            if i not in self.offline and session.my_turn:
                session.submit_turn(random_turn(session.state, self.bots[i]))
                self.flush(i)
                played += 1
        return played

    def play(self, turns: int | None = None, *, max_idle: int = 20) -> None:
        """Play until every peer's game is over (or ``turns`` more turns were submitted).

        Ticks the clock whenever nothing moves, so anti-entropy repairs what was dropped;
        gives up after ``max_idle`` idle ticks in a row."""
        idle = 0
        played = 0
        live = [s for i, s in enumerate(self.sessions) if i not in self.offline]
        while not all(s.over for s in live):
            self.pump()
            n = 0 if self.paused else self.bot_turns()
            played += n
            if turns is not None and played >= turns:
                self.pump()
                return
            if n == 0 and self.pump() == 0:
                self.tick()
                idle += 1
                if idle > max_idle:
                    raise RuntimeError(f"stuck: {self.sessions[0].waiting_for()}")
            else:
                idle = 0

    def leave(self, seat: int, max_ticks: int = 200) -> None:
        """Seat ``seat`` goes silent for good; the others play on until the game waits for it
        (its turn, or its reveal: its own peer may have signed it, but nobody gets it)."""
        self.offline.add(seat)
        for _ in range(max_ticks):
            self.pump()
            waiting = self.sessions[min(set(range(len(self.sessions))) - self.offline)]
            if seat in getattr(waiting.waiting_for(), "seats", ()):
                return
            if self.bot_turns() == 0 and self.pump() == 0:
                self.tick()
        raise RuntimeError(f"never waited for seat {seat}")

    def hand_over(self, seat: int) -> None:
        """Every other live peer agrees that a bot plays ``seat`` from the step it waits at."""
        for i, session in enumerate(self.sessions):
            if i != seat and i not in self.offline and not session.handed_over:
                session.agree_seat_to_bot(seat)
                self.flush(i)
        self.pump()

    # --- views ---

    def hashes(self, i: int) -> list[tuple[str, int, bytes]]:
        """Peer ``i``'s sequence of (what, index, state hash after it)."""
        out: list[tuple[str, int, bytes]] = []
        for event in self.events[i]:
            if isinstance(event, ChanceResolved):
                out.append(("chance", event.index, event.state_hash))
            elif isinstance(event, TurnApplied):
                out.append(("turn", event.turn, event.state_hash))
        return out

    def final_hashes(self) -> list[bytes]:
        """Each peer's state hash now."""
        return [state_hash(s.state) for s in self.sessions]

    def chain_lengths(self) -> list[list[int]]:
        return [[len(c) for c in s.chains] for s in self.sessions]

    def entries_of(self, seat: int) -> list[Entry]:
        """Seat ``seat``'s own chain as peer ``seat`` holds it."""
        return list(self.sessions[seat].chains[seat])

    def of_type(self, i: int, kind: type[Any]) -> list[Any]:
        return [e for e in self.events[i] if isinstance(e, kind)]
