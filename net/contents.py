"""What a log entry says, typed: one frozen class per kind, checked when it is made.

:func:`content_of` reads an entry's payload into its class, or raises :class:`Malformed`
with the reason (docs/protocol.md, "Kinds and payloads"); the session, the audit and the
client read these classes, never the payload's positions. START has its own parser
(:mod:`.start`).

>>> from p2p_burgundy import END_TURN
>>> Turn(3, (END_TURN,)).to_payload()
[3, [(10,)]]
>>> Reveal(-1, bytes(32))
Traceback (most recent call last):
...
p2p_burgundy.net.contents.Malformed: a reveal is [event, 32-byte link]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from p2p_burgundy import Action, ChooseEstate, EngineError, action_from_tree

from . import wire
from .beacon import LINK_SIZE
from .choice import SALT_SIZE
from .log import Entry, Kind

MAX_CHAT = 280  # characters in a chat line
MAX_TURN_ACTIONS = 64


class Malformed(ValueError):
    """A payload of the wrong shape for its kind: the entry is void (it fails the file)."""


@dataclass(frozen=True, slots=True)
class Reveal:
    """``[k, link]``: the author's hash-chain link for chance event ``event``."""

    event: int
    link: bytes

    def __post_init__(self) -> None:
        if not (type(self.event) is int and self.event >= 0 and isinstance(self.link, bytes)
                and len(self.link) == LINK_SIZE):
            raise Malformed("a reveal is [event, 32-byte link]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.event, self.link]


@dataclass(frozen=True, slots=True)
class Turn:
    """``[t, [action, ...]]``: the author's whole turn number ``number``."""

    number: int
    actions: tuple[Action, ...]

    def __post_init__(self) -> None:
        if not (type(self.number) is int and self.number >= 0
                and 1 <= len(self.actions) <= MAX_TURN_ACTIONS):
            raise Malformed(f"a turn is [turn number, [1 to {MAX_TURN_ACTIONS} actions]]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.number, [wire.value(a.to_tree()) for a in self.actions]]


@dataclass(frozen=True, slots=True)
class Chat:
    """``[text]``: 1 to 280 characters; never changes the game."""

    text: str

    def __post_init__(self) -> None:
        if not (isinstance(self.text, str) and 1 <= len(self.text) <= MAX_CHAT):
            raise Malformed(f"a chat entry is [text of 1-{MAX_CHAT} characters]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.text]


@dataclass(frozen=True, slots=True)
class SeatToBot:
    """``[seat, step]``: the author agrees that the stand-in plays ``seat`` from ``step``."""

    seat: int
    step: int

    def __post_init__(self) -> None:
        if not (type(self.seat) is int and type(self.step) is int
                and self.seat >= 0 and self.step >= 0):
            raise Malformed("a seat-to-bot agreement is [another seat, a step]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.seat, self.step]


@dataclass(frozen=True, slots=True)
class ChoiceCommit:
    """``[digest]``: the author's secret set-up choice, committed."""

    digest: bytes

    def __post_init__(self) -> None:
        if not (isinstance(self.digest, bytes) and len(self.digest) == LINK_SIZE):
            raise Malformed("a choice commitment is [32-byte digest]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.digest]


@dataclass(frozen=True, slots=True)
class ChoiceReveal:
    """``[choice, salt]``: the committed set-up choice and its 16-byte salt."""

    choice: ChooseEstate
    salt: bytes

    def __post_init__(self) -> None:
        if not (isinstance(self.choice, ChooseEstate) and isinstance(self.salt, bytes)
                and len(self.salt) == SALT_SIZE):
            raise Malformed("a choice reveal is [ChooseEstate, 16-byte salt]")

    def to_payload(self) -> list[wire.Encodable]:
        return [wire.value(self.choice.to_tree()), self.salt]


@dataclass(frozen=True, slots=True)
class Resign:
    """``[]``: the author leaves the game for good."""

    def to_payload(self) -> list[wire.Encodable]:
        return []


@dataclass(frozen=True, slots=True)
class End:
    """``[]``: the only player left ends the game, as its winner."""

    def to_payload(self) -> list[wire.Encodable]:
        return []


@dataclass(frozen=True, slots=True)
class Seen:
    """``[step]``: the author holds the inputs of every step before ``step`` and agrees to no
    more hand-overs there. A player signs it as soon as it holds every input of a step (and
    at the end of the game), so that the others know at once that it will not hand over a
    seat whose input they used there."""

    step: int

    def __post_init__(self) -> None:
        if not (type(self.step) is int and self.step >= 1):
            raise Malformed("a seen entry is [a step after the first]")

    def to_payload(self) -> list[wire.Encodable]:
        return [self.step]


Content = Reveal | Turn | Chat | SeatToBot | ChoiceCommit | ChoiceReveal | Resign | End | Seen

KIND_OF: dict[type[Content], Kind] = {
    Reveal: Kind.REVEAL, Turn: Kind.TURN, Chat: Kind.CHAT, SeatToBot: Kind.SEAT_TO_BOT,
    ChoiceCommit: Kind.CHOICE_COMMIT, ChoiceReveal: Kind.CHOICE_REVEAL, Resign: Kind.RESIGN,
    End: Kind.END, Seen: Kind.SEEN,
}
"""The entry kind of each content class."""


def content_of(entry: Entry) -> Content:
    """What ``entry`` (any kind but START) says; :class:`Malformed` if its payload has the
    wrong shape.

    >>> from p2p_burgundy.net.identity import Identity
    >>> from p2p_burgundy.net.log import sign_entry
    >>> me = Identity.from_private_bytes(bytes(32))
    >>> content_of(sign_entry(me, b"g" * 16, 0, b"", Kind.SEAT_TO_BOT, [1, 7]))
    SeatToBot(seat=1, step=7)
    >>> content_of(sign_entry(me, b"g" * 16, 0, b"", Kind.RESIGN, [0]))
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.contents.Malformed: a resignation is [] (an empty payload)
    """
    p = entry.payload
    kind = entry.kind
    if kind == Kind.REVEAL:
        return Reveal(*_fields(p, 2, "a reveal is [event, 32-byte link]"))
    if kind == Kind.TURN:
        number, actions = _fields(p, 2, "a turn is [turn number, [action...]]")
        if not isinstance(actions, tuple):
            raise Malformed("a turn is [turn number, [action...]]")
        return Turn(number, tuple(_action(a, "a turn holds a malformed action") for a in actions))
    if kind == Kind.CHAT:
        return Chat(*_fields(p, 1, f"a chat entry is [text of 1-{MAX_CHAT} characters]"))
    if kind == Kind.SEAT_TO_BOT:
        return SeatToBot(*_fields(p, 2, "a seat-to-bot agreement is [another seat, a step]"))
    if kind == Kind.CHOICE_COMMIT:
        return ChoiceCommit(*_fields(p, 1, "a choice commitment is [32-byte digest]"))
    if kind == Kind.CHOICE_REVEAL:
        choice, salt = _fields(p, 2, "a choice reveal is [choice, 16-byte salt]")
        action = _action(choice, "a choice reveal holds a malformed choice")
        if not isinstance(action, ChooseEstate):
            raise Malformed(f"a set-up choice is a ChooseEstate, not {action!r}")
        return ChoiceReveal(action, salt)
    if kind == Kind.RESIGN:
        _fields(p, 0, "a resignation is [] (an empty payload)")
        return Resign()
    if kind == Kind.END:
        _fields(p, 0, "an end of the game is [] (an empty payload)")
        return End()
    if kind == Kind.SEEN:
        return Seen(*_fields(p, 1, "a seen entry is [a step after the first]"))
    raise Malformed(f"a {kind.name.lower()} entry is not expected here")


def _fields(payload: tuple[wire.Value, ...], n: int, shape: str) -> tuple[Any, ...]:
    """The ``n`` fields of ``payload`` (their types are the content class's to check)."""
    if len(payload) != n:
        raise Malformed(shape)
    return payload


def _action(tree: wire.Value, what: str) -> Action:
    try:
        return action_from_tree(tree)
    except EngineError as exc:
        raise Malformed(f"{what}: {exc}") from None
