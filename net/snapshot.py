"""What a client on another thread reads of a game: an immutable :class:`Snapshot` of a
:class:`~p2p_burgundy.net.session.Session` and, before the game starts, an immutable
:class:`LobbySnapshot` of the table being formed; sans-I/O.

The session belongs to the thread that drives it (the peer's asyncio loop); a client running
elsewhere (the curses UI) must never read it while that thread changes it, or it could see a
turn applied but not yet its step, or a hand-over without its stand-in turn. So the
driver takes a snapshot after each batch of input (:meth:`Snapshots.take`) and hands it over
whole; the reader keeps whichever snapshot it last got. Each snapshot is complete (every step
of the game, every chat line, every void entry), so a reader that skipped some misses
nothing: it compares the latest with the last one it read. A lobby is small: each
:class:`LobbySnapshot` is taken whole (:meth:`LobbySnapshot.of`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from p2p_burgundy import GameConfig, GameState
from p2p_burgundy.scoring import Outcome

from .audit import withheld_reveals
from .contents import Chat
from .events import EntryRejected, Equivocation, Resolved, Waiting
from .identity import table_code
from .lobby import HostLobby, JoinLobby, Member
from .report import Withheld
from .session import Session
from .start import Seat
from .tablerules import TableRules


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One session as it stood between two batches of input. Every field is immutable (the
    mappings are read-only copies), so it may be read from any thread."""

    seq: int  # snapshots of this session taken before this one: a later one has a higher seq
    game_id: bytes
    config: GameConfig
    rules: TableRules  # the table's, signed with the config
    seats: tuple[Seat, ...]
    my_seat: int | None  # None for a spectator
    state: GameState
    step: int  # the step the game is at (len(history))
    history: tuple[Resolved, ...]  # every resolved step, in order
    waiting: Waiting | None  # what the game waits for (None when over)
    choice_state: GameState | None  # the state we choose in when our set-up choice is due
    my_turn: bool  # we compose our turn now
    forfeits: Mapping[int, int]  # seat handed to a bot -> the step from which
    handed: Mapping[int, tuple[int, int]]  # seat handed to a bot -> its (phase, round) then
    resigned: Mapping[int, int]  # seat -> seq of its RESIGN entry
    ended: tuple[int, int] | None  # (seat, step) when the only player left ended the game
    may_end: bool  # we are the only player left and may end the game as its winner
    sole_contributor: tuple[int, int] | None  # (seat, k): one seat alone decides chance
    outcome: Outcome | None  # the result, once the game is over
    chats: tuple[tuple[str, ...], ...]  # each seat's chat lines, in the order it wrote them
    rejected: tuple[EntryRejected, ...]  # every void entry, in the order it was found void
    equivocations: tuple[Equivocation, ...]  # proofs, in the order they were found
    set_aside: frozenset[int]  # equivocators the others may play on without (Session.set_aside)
    overruled: int | None  # the step our seat was handed over at after our own entry for it
    missing: tuple[int, ...]  # seats the driver has not heard from for a while
    withheld: tuple[Withheld, ...]  # reveals withheld where their seats were handed over

    @property
    def over(self) -> bool:
        """Whether the game is over: played to its end, or ended by the last player left."""
        return self.outcome is not None

    @property
    def choice_due(self) -> bool:
        """Whether we owe our secret set-up choice (made in :attr:`choice_state`)."""
        return self.choice_state is not None

    def waiting_for(self) -> Waiting | None:
        """:attr:`waiting`, read the way :class:`~p2p_burgundy.net.policy.HandOverPolicy`
        reads a session."""
        return self.waiting


class Snapshots:
    """Takes the snapshots of one session, each after the last (the chat lines are read
    from the chains as they grow, not again every time)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self._last: Snapshot | None = None
        self._mark: tuple[object, ...] = ()  # what the last snapshot was taken at
        self._read = [0] * len(session.seats)  # chain entries read for chat, per seat
        self._chats: list[tuple[str, ...]] = [() for _ in session.seats]

    def take(self, missing: Sequence[int]) -> Snapshot:
        """The session as it stands now; ``missing``: the seats not heard from lately. The
        last snapshot again if nothing in it can have changed: the session is a function of
        its chains, its equivocation proofs and whether it still recovers its own entries.
        That check is cheap, and most input (a flood of garbage, a HEADS that brings nothing)
        changes nothing."""
        session, last, silent = self.session, self._last, tuple(missing)
        mark = (tuple(len(c) for c in session.chains), len(session.proofs), session.recovering,
                silent)
        if last is not None and mark == self._mark:
            return last
        self._mark = mark
        for seat, contents in enumerate(session.contents):
            new = contents[self._read[seat]:]
            self._read[seat] = len(contents)
            self._chats[seat] += tuple(c.text for c in new if isinstance(c, Chat))
        over = session.over
        if last is not None and last.state is session.state and last.ended == session.ended:
            outcome = last.outcome  # scoring again would give the same
        else:
            outcome = session.outcome() if over else None
        self._last = Snapshot(
            seq=last.seq + 1 if last is not None else 0,
            game_id=session.game_id,
            config=session.config,
            rules=session.start.rules,
            seats=session.seats,
            my_seat=session.my_seat,
            state=session.state,
            step=session.step,
            history=tuple(session.history),
            waiting=session.waiting_for(),
            choice_state=session.choice_state() if session.choice_due else None,
            my_turn=session.my_turn,
            forfeits=MappingProxyType(dict(session.forfeits)),
            handed=MappingProxyType({seat: handed for seat in sorted(session.forfeits)
                                     if (handed := session.handed_round(seat)) is not None}),
            resigned=MappingProxyType(dict(session.resigned)),
            ended=session.ended,
            may_end=session.may_end,
            sole_contributor=session.sole_contributor,
            outcome=outcome,
            chats=tuple(self._chats),
            rejected=tuple(session.rejected.values()),
            equivocations=tuple(session.proofs),
            set_aside=session.set_aside,
            overruled=session.overruled,
            missing=silent,
            withheld=withheld_reveals(session) if session.forfeits else (),
        )
        return self._last


@dataclass(frozen=True, slots=True)
class LobbySnapshot:
    """A table being formed (hosted or joined) as it stood between two batches of input.
    Every field is immutable, so it may be read from any thread."""

    hosting: bool  # our table (a HostLobby), else one we joined
    host: tuple[str, int] | None  # the host we joined (None when hosting)
    config: GameConfig | None  # the game's config (a joiner learns it from the host)
    rules: TableRules  # the table's rules, with the config
    members: tuple[Member, ...]  # the roster, the host first
    game_id: bytes  # b"" until the host proposes the final roster (it depends on it)
    admitted: bool  # we are in the roster (a host always is)
    closed: bool  # the host proposed the start: nobody can change anything any more
    can_start: bool  # hosting: the table is full and ready, and nothing proposed yet
    refused: str | None  # why the table refused us or closed
    silent: str | None  # the host we joined has not answered for a while: what to say

    @classmethod
    def of(cls, lobby: HostLobby | JoinLobby) -> LobbySnapshot:
        """``lobby`` as it is now."""
        if isinstance(lobby, HostLobby):
            return cls(hosting=True, host=None, config=lobby.config, rules=lobby.rules,
                       members=tuple(lobby.members), game_id=lobby.game_id, admitted=True,
                       closed=lobby.proposed, can_start=lobby.can_start and not lobby.proposed,
                       refused=None, silent=None)
        return cls(hosting=False, host=lobby.host, config=lobby.config, rules=lobby.rules,
                   members=lobby.members,
                   game_id=lobby.game_id, admitted=lobby.admitted, closed=lobby.closed,
                   can_start=False, refused=lobby.refused, silent=lobby.silent)

    @property
    def seats(self) -> int:
        """The table's seats (0 while a joiner does not know its rules yet)."""
        return self.config.players if self.config is not None else 0

    @property
    def code(self) -> str | None:
        """The table code everyone compares, once the game id exists."""
        keys = [m.key for m in self.members]
        return table_code(self.game_id, keys) if keys and self.game_id else None
