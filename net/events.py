"""What a :class:`~p2p_burgundy.net.session.Session` reports: the game's steps as it resolves
them, void entries and why, hand-overs, chat, the end; and what the game waits for.

The session is the one place that follows the game; everyone else (the audit, ``burgundy
verify`` and ``replay``, the terminal client) reads these events and never resolves a step
again. :func:`follow` keeps a list of steps up to date with them.

The order consumers can rely on: events come in the order the session decides things, each
about the game as it stands when it comes, so a hand-over or the end always follows the steps
that led to it. A recomputed game is reported as one :class:`Rebuilt` first (its steps
replace those reported from ``since`` on), then what the recomputed game decided that was
not so before: the hand-overs it made that the game before it had not made
(:class:`HandedOver`; one made again is not reported twice), then its :class:`GameOver` if
it is over and had not ended, or ended otherwise. Whoever follows the steps therefore reads
each of these against the recomputed steps. A hand-over the recomputed game no longer makes
is only gone from ``Session.forfeits``; entries it revives are listed in
:attr:`Rebuilt.revived`, and those it voids are in ``Session.rejected``, not reported one by
one.
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
    """Turn number ``turn`` of ``mover``, signed by ``seat`` in its entry ``seq`` (the
    author is the mover itself, or the deputy playing a seat handed to a bot; a secret
    set-up choice is played from its author's CHOICE_REVEAL): step number ``step`` of the
    game; ``state`` is the game after it."""

    seat: int
    turn: int
    actions: tuple[Action, ...]
    state_hash: bytes
    step: int
    mover: int
    seq: int
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
    HANDED_OVER = "handed over"  # by a seat handed to a bot, for a step after its hand-over
    NO_HAND_OVER = "no hand-over"  # a deputy's turn from a hand-over that did not happen

    @property
    def defect(self) -> bool:
        """Whether it breaks a rule a correct peer always keeps (the others are what correct
        peers write in a hand-over or a race).

        >>> Rejection.NOT_ITS_TURN.defect, Rejection.HANDED_OVER.defect
        (True, False)
        """
        return self not in (Rejection.HANDED_OVER, Rejection.NO_HAND_OVER)


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
    """The game waited at ``step`` for ``seats``, and the other players agreed or (the seats
    in ``resigned``) the seat's own player resigned: a bot plays them from that step on, its
    turns signed by ``deputy``. ``sole`` is ``(seat, k)`` when that leaves one seat
    contributing entropy: from chance event ``k`` on it could predict every roll and draw."""

    seats: tuple[int, ...]
    step: int
    deputy: int | None
    sole: tuple[int, int] | None
    resigned: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Rebuilt:
    """A seat handed over at a step turned out to have played that step itself (its entry
    crossed the agreements): its own entry counts, and the game was recomputed from every
    chain; it now stands at step ``step``. The steps from ``since`` on replace those reported
    before from there: they are ``steps`` (no ChanceResolved or TurnApplied is reported for
    them). ``revived`` lists (seat, seq) entries that were void and now count. The new
    hand-overs and the end of the recomputed game follow it (the module's docstring)."""

    step: int
    revived: tuple[tuple[int, int], ...]
    since: int
    steps: tuple[Resolved, ...]


@dataclass(frozen=True, slots=True)
class ChatReceived:
    seat: int
    text: str


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game is over, with ``outcome``; ``state_hash`` is the final state's. Reported once,
    and again only after a :class:`Rebuilt` whose recomputed game ended otherwise."""

    outcome: Outcome
    state_hash: bytes


Void = tuple[Rejection, str]
"""Why an entry is void: the kind, and the reason in words."""

Event = (ChanceResolved | TurnApplied | EntryRejected | Equivocation | HandedOver | Rebuilt
         | ChatReceived | GameOver)


def follow(steps: list[Resolved], event: Event) -> int | None:
    """Keep ``steps`` (the game's resolved steps, in order) up to date with one event of a
    session: whoever follows every event in order holds the session's history, and a step
    already held is taken once. The first step the event added or replaced, or None if it
    changed none; LocalProtocolError if the steps before the event's are missing.

    >>> steps: list[Resolved] = []
    >>> follow(steps, Rebuilt(0, (), 0, ())), steps
    (0, [])
    """
    if isinstance(event, ChanceResolved | TurnApplied):
        if event.step > len(steps):
            raise LocalProtocolError(f"step {event.step} reported after step {len(steps) - 1}: "
                                     "the events between were missed")
        if event.step < len(steps) and steps[event.step] == event:
            return None
        del steps[event.step:]
        steps.append(event)
        return event.step
    if isinstance(event, Rebuilt):
        del steps[event.since:]
        steps += event.steps
        return event.since
    return None


@dataclass(frozen=True, slots=True)
class Waiting:
    """What the game waits for: reveals of ``seats`` for chance event ``index``, or the turn
    ``turn`` of ``seats[0]``; in the secret set-up, the choices ("choice": not committed yet)
    or their reveals ("choice reveal") of ``seats``, ``index`` being the turn number."""

    what: str  # "reveal", "turn", "choice" or "choice reveal"
    index: int
    seats: tuple[int, ...]
