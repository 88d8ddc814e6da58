"""What a :class:`~p2p_burgundy.net.session.Session` reports: the game's steps as it resolves
them, void entries and why, hand-overs, chat, the end; and what the game waits for.

The session is the one place that follows the game; everyone else (the audit, ``burgundy
verify`` and ``replay``, the terminal client) reads these events and never resolves a step
again. :func:`follow` keeps a list of steps up to date with them.

The order consumers can rely on: events come in the order the session decides things, each
about the game as it stands when it comes, so a hand-over or the end always follows the steps
that led to it. A step, once reported, is final: no later event replaces it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from p2p_burgundy import Action, GameState
from p2p_burgundy.chance import ChanceKind, Draw
from p2p_burgundy.scoring import Outcome

from .errors import LocalProtocolError


@dataclass(frozen=True, slots=True)
class ChanceResolved:
    """Chance event ``index`` resolved with ``entropy``, derived from the reveals of
    ``seats`` (in seat order: every seat but those handed to a bot): step number ``step`` of
    the game; ``drew`` is what the engine drew, ``state`` the game after it."""

    index: int
    kind: ChanceKind
    reveals: tuple[bytes, ...]
    entropy: bytes
    state_hash: bytes
    step: int
    seats: tuple[int, ...]
    drew: Draw
    state: GameState = field(compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class TurnApplied:
    """Turn number ``turn`` of ``mover``, signed by ``seat`` (the mover) in its entry
    ``seq``, or computed by every peer when ``seat`` and ``seq`` are None (the stand-in of a
    seat handed over, which nobody signs; a secret set-up choice is played from its
    author's CHOICE_REVEAL): step number ``step`` of the game; ``state`` is the game after
    it."""

    seat: int | None
    turn: int
    actions: tuple[Action, ...]
    state_hash: bytes
    step: int
    mover: int
    seq: int | None
    state: GameState = field(compare=False, repr=False)


Resolved = ChanceResolved | TurnApplied
"""One resolved step of the game: a chance event or a turn (steps count both, from 0)."""


class Rejection(Enum):
    """Why the rules void a signed, linked entry (docs/protocol.md, "A verdict for every
    entry"). :attr:`defect` says whether a correct peer could have written it."""

    MALFORMED = "malformed"  # a payload of the wrong shape, or a kind not expected here
    BAD_REVEAL = "bad reveal"  # it does not hash to the author's commitment
    SECOND_REVEAL = "second reveal"  # a second reveal of one seat for one event
    SECOND_AGREEMENT = "second agreement"  # a second hand-over agreement for one seat and step
    SIGNED_OFF = "signed off"  # signed (not chat) after its author resigned or ended the game
    PLAYED = "already played"  # a turn for a number already played
    SECOND_TURN = "second turn"  # a second turn of the author for one number
    NOT_ITS_TURN = "not its turn"  # a turn for a number that belongs to another seat
    ILLEGAL_TURN = "illegal turn"  # the rules forbid the turn
    CHOICE = "set-up choice"  # a secret set-up commitment or reveal out of place or illegal
    HANDED_OVER = "handed over"  # by a seat handed over, for its hand-over's step or after

    @property
    def defect(self) -> bool:
        """Whether it breaks a rule a correct peer always keeps (the others are what correct
        peers write in a hand-over or a race).

        >>> Rejection.NOT_ITS_TURN.defect, Rejection.HANDED_OVER.defect
        (True, False)
        """
        return self is not Rejection.HANDED_OVER


@dataclass(frozen=True, slots=True)
class EntryRejected:
    """A signed, linked entry that the rules reject; the author is named. ``cause`` is why,
    as a kind; ``reason`` says it in words (with the author's name)."""

    seat: int
    seq: int
    reason: str
    cause: Rejection


@dataclass(frozen=True, slots=True)
class Equivocation:
    """Two different signed bodies for one (author, seq): the proof. The author is no
    longer trusted (none of its later entries are accepted)."""

    seat: int
    seq: int
    first: bytes  # raw entries, both validly signed
    second: bytes


@dataclass(frozen=True, slots=True)
class HandedOver:
    """At ``step`` the other players agreed, or (the seats in ``resigned``) the seat's own
    player resigned: the stand-in plays ``seats`` from that step on, and any entry of theirs
    for it or later is void. ``sole`` is ``(seat, k)`` when that leaves one seat contributing
    entropy: from chance event ``k`` on it could predict every roll and draw."""

    seats: tuple[int, ...]
    step: int
    sole: tuple[int, int] | None
    resigned: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Overruled:
    """Our own entry for ``step`` crossed the agreements of every other voter to hand our
    ``seat`` over there: for everyone else, the hand-over came first and our entry is void.
    The session stops following the game at that step (it never recomputes one it resolved);
    the game file still holds everything, and ``burgundy verify`` shows the game."""

    seat: int
    step: int


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over, with ``outcome``; ``state_hash`` is the final state's. Reported
    once."""

    outcome: Outcome
    state_hash: bytes


Void = tuple[Rejection, str]
"""Why an entry is void: the kind, and the reason in words."""

Event = (ChanceResolved | TurnApplied | EntryRejected | Equivocation | HandedOver | Overruled
         | ChatReceived | GameOver)


def follow(steps: list[Resolved], event: Event) -> int | None:
    """Keep ``steps`` (the game's resolved steps, in order) up to date with one event of a
    session: whoever follows every event in order holds the session's history, and a step
    already held is taken once. The step the event added, or None if it added none;
    LocalProtocolError if the steps before the event's are missing, or if it reports another
    step where one is held (a resolved step never changes).
    """
    if not isinstance(event, ChanceResolved | TurnApplied):
        return None
    if event.step > len(steps):
        raise LocalProtocolError(f"step {event.step} reported after step {len(steps) - 1}: "
                                 "the events between were missed")
    if event.step < len(steps):
        if steps[event.step] != event:
            raise LocalProtocolError(f"step {event.step} reported twice, differently")
        return None
    steps.append(event)
    return event.step


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the game waits for: reveals of ``seats`` for chance event ``index``, or the turn
    ``index`` of ``seats[0]``; in the secret set-up, the choices ("choice": not committed yet)
    or their reveals ("choice reveal") of ``seats``, ``index`` being the turn number; or,
    with every input in ("hand-over", ``index`` the step), word from the voters ``seats``
    on whether they hand a seat over there (their next entry, or their agreement)."""

    what: str  # "reveal", "turn", "choice", "choice reveal" or "hand-over"
    index: int
    seats: tuple[int, ...]
