"""The table's game clock, sans-I/O: each seat's time left, as one peer measures it.

A table may have a game clock (:class:`TimeControl`, one of the table's rules,
:class:`~p2p_burgundy.net.tablerules.TableRules`, signed in its START with the config): each
player has so many seconds for the whole game, and earns the increment with each turn they
end. A seat's clock runs while the game waits for a
decision of that seat: its turn, or its choice in the experts' secret set-up. Nothing else
counts against anyone: not the dice reveals (the peers send them without asking their
players), not the wait for a hand-over's voters.

Entries carry no time a peer could trust, so every peer times the seats itself, with its own
clock passed in as ``now``: two peers' figures differ by the time an entry takes to reach
them. The table's rule for a player out of time is the hand-over's: once a seat's time has run
out, it stays out (no increment brings it back), and the other players may hand the seat to
the stand-in at once, at any step the game waits for it
(:class:`~p2p_burgundy.net.policy.HandOverPolicy`). A hand-over needs every other voter, so it
happens once the time is out on every other player's clock: measuring on each peer is the
same rule for everyone.

>>> from p2p_burgundy.net.events import Waiting
>>> clock = GameClock(TimeControl(60, 5), players=2)
>>> clock.observe(Waiting("turn", 0, (0,)), now=100.0)
>>> clock.left(0, now=130.0), clock.left(1, now=130.0), clock.running
(30.0, 60.0, (0,))
>>> clock.observe(Waiting("reveal", 1, (0, 1)), now=140.0)  # seat 0 ended its turn
>>> clock.left(0, now=150.0), clock.running
(25.0, ())
>>> clock.observe(Waiting("turn", 1, (1,)), now=150.0)
>>> clock.out(now=220.0), clock.left(1, now=220.0)
([1], 0.0)
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from p2p_burgundy.errors import ConfigError

from .events import Waiting

DECISIONS = ("turn", "choice")
"""What the game may wait for that is a player's decision: only these run a clock."""
CLOCK_LIMIT = 24 * 3600
"""The most seconds a game clock gives a player, or adds with each turn."""


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A game clock, a rule of the table (the engine never reads it): each player has
    ``seconds`` for the whole game, and ``increment`` seconds more with each turn they end.

    >>> TimeControl(600, 5), str(TimeControl(600, 5)), str(TimeControl(90))
    (TimeControl(seconds=600, increment=5), '10+5', '1.5+0')
    >>> TimeControl(0)
    Traceback (most recent call last):
    ...
    p2p_burgundy.errors.ConfigError: a game clock gives each player 1 to 86400 seconds, not 0
    """

    seconds: int
    increment: int = 0

    def __post_init__(self) -> None:
        if type(self.seconds) is not int or not 0 < self.seconds <= CLOCK_LIMIT:
            raise ConfigError(f"a game clock gives each player 1 to {CLOCK_LIMIT} seconds, "
                              f"not {self.seconds!r}")
        if type(self.increment) is not int or not 0 <= self.increment <= CLOCK_LIMIT:
            raise ConfigError(f"a game clock adds 0 to {CLOCK_LIMIT} seconds a turn, "
                              f"not {self.increment!r}")

    def __str__(self) -> str:
        """As players write a clock: minutes each, plus seconds a turn."""
        return f"{self.seconds / 60:g}+{self.increment}"


class GameClock:
    """Each seat's time left under ``control``; see the module's docstring."""

    def __init__(self, control: TimeControl, players: int, used: Sequence[float] = (),
                 out: Iterable[int] = ()) -> None:
        """A clock for ``players`` seats, each with ``used`` seconds gone already (less
        the increments earned; default none) and the seats ``out`` of time (as
        :attr:`kept` gave them: a client that comes back to a game goes on from there)."""
        self.control = control
        self._used = list(used) if len(used) == players else [0.0] * players
        self._running: tuple[int, ...] = ()  # seats whose clocks run since ``_since``
        self._decision: tuple[str, int] | None = None  # what they decide: (what, index)
        self._since = 0.0
        self._out = {seat for seat in out if 0 <= seat < players}  # out of time, for good

    @property
    def kept(self) -> tuple[tuple[float, ...], tuple[int, ...]]:
        """What to keep to go on later (:meth:`__init__`'s ``used`` and ``out``), as of the
        last :meth:`observe`."""
        return tuple(self._used), tuple(sorted(self._out))

    @property
    def running(self) -> tuple[int, ...]:
        """The seats whose clocks run: the game waits for their decision."""
        return self._running

    def observe(self, waiting: Waiting | None, now: float, handed: Collection[int] = ()
                ) -> None:
        """The game waits for ``waiting`` (None: for nothing, e.g. it is over) at ``now``:
        charge the time since the last call to the clocks that ran, give the increment to
        each seat whose decision came (not to a seat ``handed`` to the stand-in), and run
        the clocks of the seats waited for."""
        self._charge(now)
        decision = (waiting.what, waiting.index) if waiting is not None \
            and waiting.what in DECISIONS else None
        running = tuple(waiting.seats) if waiting is not None and decision is not None else ()
        for seat in self._running:  # a new decision, or none: the last one came
            if (seat not in running or decision != self._decision) \
                    and seat not in self._out and seat not in handed:
                self._used[seat] -= self.control.increment
        self._running, self._decision = running, decision

    def left(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (0 once out of time)."""
        if seat in self._out:
            return 0.0
        used = self._used[seat] + (now - self._since if seat in self._running else 0.0)
        return max(0.0, self.control.seconds - used)

    def out(self, now: float) -> list[int]:
        """The seats whose time has run out by ``now``, in seat order."""
        self._charge(now)
        return sorted(self._out)

    def _charge(self, now: float) -> None:
        for seat in self._running:
            self._used[seat] += now - self._since
            if self._used[seat] >= self.control.seconds:
                self._out.add(seat)
        self._since = now


def clock_text(seconds: float) -> str:
    """Time left as minutes and seconds, rounded up (a player with 0.4 s left is not out).

    >>> clock_text(0.0), clock_text(0.4), clock_text(59.0), clock_text(600.0), clock_text(5400)
    ('0:00', '0:01', '0:59', '10:00', '90:00')
    """
    whole = int(-(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}"
