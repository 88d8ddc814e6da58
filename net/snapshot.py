"""What a client on another thread reads of a game: an immutable :class:`Snapshot` of a
:class:`~p2p_burgundy.net.session.Session`, sans-I/O.

The session belongs to the thread that drives it (the peer's asyncio loop); a client running
elsewhere (the curses UI) must never read it while that thread changes it, or it could see a
turn applied but not yet its step, a seat handed over but not the deputy's turn. So the
driver takes a snapshot after each batch of input (:meth:`Snapshots.take`) and hands it over
whole; the reader keeps whichever snapshot it last got. Each snapshot is complete (every step
of the game, every chat line, every void entry), so a reader that skipped some misses
nothing: it compares the latest with the last one it read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from p2p_burgundy import GameConfig, GameState
from p2p_burgundy.scoring import Outcome

from .events import EntryRejected, Equivocation, Resolved, Waiting
from .log import Kind
from .session import Session
from .start import Seat


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One session as it stood between two batches of input. Every field is immutable (the
    mappings are read-only copies), so it may be read from any thread."""

    seq: int  # snapshots of this session taken before this one: a later one has a higher seq
    game_id: bytes
    config: GameConfig
    seats: tuple[Seat, ...]
    my_seat: int | None  # None for a spectator
    state: GameState
    step: int  # the step the game is at (len(history))
    history: tuple[Resolved, ...]  # every resolved step, in order
    waiting: Waiting | None  # what the game waits for (None when over)
    choice_state: GameState | None  # the state we choose in when our set-up choice is due
    my_turn: bool  # we compose the turn now: ours, or a bot's as its deputy
    playing_for_bot: bool  # the turn we compose is a bot's (a seat handed over)
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
    rebuilds: int  # times the game was recomputed (a seat played the step it was handed at)
    missing: tuple[int, ...]  # seats the driver has not heard from for a while

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
        for seat, chain in enumerate(session.chains):
            new = chain[self._read[seat]:]
            self._read[seat] = len(chain)
            self._chats[seat] += tuple(
                text for e in new if e.kind == Kind.CHAT and (seat, e.seq) not in session.rejected
                and isinstance(text := e.payload[0], str))
        over = session.over
        if last is not None and last.state is session.state and last.ended == session.ended:
            outcome = last.outcome  # scoring again would give the same
        else:
            outcome = session.outcome() if over else None
        self._last = Snapshot(
            seq=last.seq + 1 if last is not None else 0,
            game_id=session.game_id,
            config=session.config,
            seats=session.seats,
            my_seat=session.my_seat,
            state=session.state,
            step=session.step,
            history=tuple(session.history),
            waiting=session.waiting_for(),
            choice_state=session.choice_state() if session.choice_due else None,
            my_turn=session.my_turn,
            playing_for_bot=session.playing_for_bot,
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
            rebuilds=session.rebuilds,
            missing=silent,
        )
        return self._last
