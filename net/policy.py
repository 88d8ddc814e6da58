"""Table policy, sans-I/O: when a seat the game waits for counts as gone, and which hand-overs
we already agreed to.

The rule that decides a hand-over is the session's (every other voter agrees to the step
the game waits at: docs/protocol.md, "SEAT_TO_BOT"), and so is how a handed-over seat plays
(the stand-in, net/standin.py, which nobody steers). What is left to each player is *when to
agree*, and the terminal client and the headless bots follow one policy, this one: a seat is
**gone** once the game has waited for it, and we have heard nothing from it
(:meth:`Node.missing <p2p_burgundy.net.node.Node.missing>`), for ``after`` seconds without
a break; we agree at most once per seat and step, and after we agreed, the seat must be
silent for ``after`` seconds again before we agree at another step (an agreement names the
step: if the game moved on meanwhile, we agree again where it waits). At a table with a game
clock (net/clock.py) a seat whose time has run out is gone at once, heard from or not, at
every step that waits for its decision: that is the table's rule for a player out of time.
A seat caught signing two bodies for one entry (equivocation) that cannot have changed the
game (``set_aside``: chat lines, SEENs) is gone at once too, at every step that waits for its
input: nobody takes its entries any more, so it can never give one, and the honest players go
on with the stand-in in its seat.

>>> from types import SimpleNamespace as Fake
>>> session = Fake(waiting_for=lambda: Fake(what="turn", seats=(2,)), my_seat=0, forfeits={},
...                set_aside=set(), step=7)
>>> policy = HandOverPolicy(after=10.0)
>>> policy.observe(session, missing=[2], now=100.0), policy.silent, policy.gone(7, now=105.0)
(True, {2}, [])
>>> policy.gone(7, now=110.0)
[2]
>>> policy.agreed(2, 7)
>>> policy.observe(session, missing=[2], now=111.0), policy.gone(7, 121.0), policy.gone(8, 121.0)
(True, [], [2])

With a clock of 30 seconds, seat 2 (heard from all along) is gone once its 30 seconds are out:

>>> from p2p_burgundy.net.clock import TimeControl
>>> session = Fake(waiting_for=lambda: Waiting("turn", 4, (2,)), my_seat=0, forfeits={},
...                set_aside=set())
>>> policy = HandOverPolicy(after=10.0, clock=GameClock(TimeControl(30), players=3))
>>> policy.observe(session, missing=[], now=100.0), policy.gone(7, now=129.0)
(False, [])
>>> policy.observe(session, missing=[], now=130.0), policy.gone(7, now=130.0), policy.out_of_time
(True, [2], [2])

Seat 1, caught equivocating, is gone at once where the game waits for its reveal, heard from
or not:

>>> session = Fake(waiting_for=lambda: Waiting("reveal", 3, (1,)), my_seat=0, forfeits={},
...                set_aside={1})
>>> policy = HandOverPolicy(after=10.0)
>>> policy.observe(session, missing=[], now=100.0), policy.gone(5, now=100.0)
(True, [1])
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

from .clock import DECISIONS, GameClock
from .events import Waiting


class WaitingGame(Protocol):
    """What the policy reads of a :class:`~p2p_burgundy.net.session.Session`."""

    @property
    def my_seat(self) -> int | None: ...

    @property
    def forfeits(self) -> Mapping[int, int]: ...

    @property
    def set_aside(self) -> Collection[int]: ...

    def waiting_for(self) -> Waiting | None: ...


class HandOverPolicy:
    """One player's view of which seats are gone; see the module's docstring."""

    def __init__(self, after: float, clock: GameClock | None = None) -> None:
        """``after``: seconds a seat the game waits for must be silent to count as gone;
        ``clock``: the table's game clock, if it has one."""
        self.after = after
        self.clock = clock
        self._silent_since: dict[int, float] = {}
        self._agreed: set[tuple[int, int]] = set()  # (seat, step the agreement named)
        self._deciding: set[int] = set()  # seats the game waits for to decide, but us
        self._out: list[int] = []  # seats out of time, as the last observe saw them
        self._caught: set[int] = set()  # equivocators the game waits for

    @property
    def out_of_time(self) -> list[int]:
        """Seats whose time on the game clock has run out (as the last :meth:`observe`
        saw it)."""
        return list(self._out)

    @property
    def silent(self) -> set[int]:
        """Seats the game waits for that we have not heard from lately."""
        return set(self._silent_since)

    def observe(self, session: WaitingGame, missing: Collection[int], now: float) -> bool:
        """Note which seats ``session`` waits for are among the ``missing`` ones (not heard
        from), and since when; True if that changed what :attr:`silent` or :meth:`gone` say."""
        before = self.silent, set(self._gone(now)), self._out, self._caught
        waiting = session.waiting_for()
        # Voters that have not yet said anything past a step whose inputs are all in cannot
        # be handed over there (only a seat whose input the step needs can): not "gone".
        blocking = (set(waiting.seats) if waiting is not None and waiting.what != "hand-over"
                    else set())
        others = {session.my_seat, *session.forfeits}
        silent = (set(missing) & blocking) - others
        self._caught = (set(session.set_aside) & blocking) - others
        if self.clock is not None:
            self.clock.observe(waiting, now, session.forfeits)
            self._out = self.clock.out(now)
        self._deciding = (blocking - others if waiting is not None
                          and waiting.what in DECISIONS else set())
        for seat in list(self._silent_since):
            if seat not in silent:
                del self._silent_since[seat]
        for seat in sorted(silent):
            self._silent_since.setdefault(seat, now)
        return (self.silent, set(self._gone(now)), self._out, self._caught) != before

    def gone(self, step: int, now: float) -> list[int]:
        """Seats gone at ``now`` that we have not yet agreed to hand over at ``step``."""
        return [seat for seat in self._gone(now) if (seat, step) not in self._agreed]

    def agreed(self, seat: int, step: int) -> None:
        """We signed an agreement to hand ``seat`` over at ``step`` (its silence counts
        afresh from the next :meth:`observe`)."""
        self._agreed.add((seat, step))
        self._silent_since.pop(seat, None)

    def _gone(self, now: float) -> list[int]:
        silent = {seat for seat, since in self._silent_since.items()
                  if now - since >= self.after}
        return sorted(silent | (self._deciding & set(self._out)) | self._caught)
