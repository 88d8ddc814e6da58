"""Every message on the wire as a value: frozen, slotted, validated once when it is made.

As h11 does with its events, each message is a class whose constructor checks the shape of
its fields (types and sizes, nothing that needs a peer's state), so a malformed message cannot
exist. :func:`parse` turns a datagram into one (``DecodeError`` if it is not one of ours,
naming the message's form); :meth:`Message.encode` turns one back into the very same bytes.
What a message *means* (the right game, a seated key, a valid signature) is for the session
and the lobby, which receive these values and dispatch on their type through a table.

>>> want = Want(game_id=bytes(16), seat=1, first=0, count=16)
>>> parse(want.encode()) == want
True
>>> parse(wire.encode_message(Tag.WANT, [b"g", 1]))
Traceback (most recent call last):
...
p2p_burgundy.net.errors.DecodeError: WANT is [game id, seat, from seq, count]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from . import wire
from .beacon import LINK_SIZE
from .errors import DecodeError, LocalProtocolError
from .identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE
from .log import GAME_ID_SIZE, ID_SIZE

NONCE_SIZE = 16  # fresh random bytes a peer asks another to sign
TOKEN_SIZE = 16  # an address token (net/admission.py)

Check = Callable[[object], bool]


class Tag(IntEnum):
    """Message tags: every datagram is ``[version, tag, *fields]``."""

    ENTRY = 1  # the session's: a log entry, then anti-entropy and recovery
    HEADS = 2
    WANT = 3
    RECOVER = 4
    HELD = 5
    WHO = 6  # a seat back at a new address proves it
    SEATED = 7
    CHALLENGE = 8  # address validation
    RESPONSE = 9
    HELLO = 10  # the lobby's: forming a table
    WELCOME = 11
    PROVE = 12
    ROSTER = 13
    UPDATE = 14
    PROPOSE = 15
    ACCEPT = 16
    LEAVE = 17


def _bytes(size: int | None = None) -> Check:
    return lambda v: isinstance(v, bytes) and (size is None or len(v) == size)


def _uint(v: object) -> bool:
    return type(v) is int and v >= 0


def _str(v: object) -> bool:
    return isinstance(v, str)


def _bool(v: object) -> bool:
    return isinstance(v, bool)


def _tree(v: object) -> bool:
    return True  # a config tree: the lobby reads it (and says what is wrong with it)


def _tuple_of(check: Check) -> Check:
    return lambda v: isinstance(v, tuple) and all(check(x) for x in v)


def _record(*checks: Check) -> Check:
    return lambda v: (isinstance(v, tuple) and len(v) == len(checks)
                      and all(c(x) for c, x in zip(checks, v, strict=True)))


class Message:
    """A message: its tag, its form (for errors) and a check per field, in wire order."""

    __slots__ = ()
    TAG: ClassVar[Tag]
    FORM: ClassVar[str]
    SHAPE: ClassVar[tuple[Check, ...]]

    def __post_init__(self) -> None:
        for name, value in zip(self._names(), self._values(), strict=True):
            if isinstance(value, list):  # a tree made here: as it will decode (tuples)
                object.__setattr__(self, name, wire.value(value))
        if not all(check(v) for check, v in zip(self.SHAPE, self._values(), strict=True)) \
                or not self._consistent():
            raise LocalProtocolError(f"{self.TAG.name} is {self.FORM}")

    def _names(self) -> tuple[str, ...]:
        return self.__slots__

    def _values(self) -> list[object]:
        return [getattr(self, name) for name in self._names()]

    def _consistent(self) -> bool:
        """Rules across fields (none by default)."""
        return True

    def encode(self) -> bytes:
        # Every field passed its SHAPE check, so it is encodable (the fields are typed object).
        return wire.encode_message(self.TAG, self._values())  # type: ignore[arg-type]

    @classmethod
    def from_fields(cls, fields: tuple[wire.Value, ...]) -> Message:
        if len(fields) != len(cls.SHAPE):
            raise DecodeError(f"{cls.TAG.name} is {cls.FORM}")
        try:
            return cls(*fields)
        except LocalProtocolError as exc:
            raise DecodeError(str(exc)) from None


# --- the session (tags 1..5) ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class EntryMessage(Message):
    """One signed log entry (docs/protocol.md, "Log entries")."""

    TAG = Tag.ENTRY
    FORM = "[raw entry]"
    SHAPE = (_bytes(),)
    raw: bytes


@dataclass(frozen=True, slots=True)
class Heads(Message):
    """How many entries of each seat the sender holds durably, and the id of the last."""

    TAG = Tag.HEADS
    FORM = "[game id, [count per seat], [head id per seat]]"
    SHAPE = (_bytes(), _tuple_of(_uint), _tuple_of(_bytes()))
    game_id: bytes
    counts: tuple[int, ...]
    heads: tuple[bytes, ...]

    def _consistent(self) -> bool:
        return len(self.counts) == len(self.heads) and all(
            len(h) == (ID_SIZE if c else 0) for c, h in zip(self.counts, self.heads, strict=True))


@dataclass(frozen=True, slots=True)
class Want(Message):
    """The durable entries of ``seat`` from seq ``first`` on (at most ``count``)."""

    TAG = Tag.WANT
    FORM = "[game id, seat, from seq, count]"
    SHAPE = (_bytes(), _uint, _uint, _uint)
    game_id: bytes
    seat: int
    first: int
    count: int


@dataclass(frozen=True, slots=True)
class Recover(Message):
    """A player that lost its game file asks what the others hold of its entries."""

    TAG = Tag.RECOVER
    FORM = "[game id, seat, 16-byte nonce]"
    SHAPE = (_bytes(), _uint, _bytes(NONCE_SIZE))
    game_id: bytes
    seat: int
    nonce: bytes


@dataclass(frozen=True, slots=True)
class Held(Message):
    """A seat's signed answer to RECOVER: how many of ``seat``'s entries it holds."""

    TAG = Tag.HELD
    FORM = "[game id, signer, seat, count, head, signature]"
    SHAPE = (_bytes(), _uint, _uint, _uint, _bytes(), _bytes(SIGNATURE_SIZE))
    game_id: bytes
    signer: int
    seat: int
    count: int
    head: bytes
    signature: bytes


# --- a seat at a new address (tags 6, 7) ---------------------------------------------------

@dataclass(frozen=True, slots=True)
class Who(Message):
    """Asked of an address that talks about the game while a seat is quiet: if you hold a
    seat and are at ``host``:``port`` (where the asker sees you), sign this fresh nonce for
    that address (net/node.py)."""

    TAG = Tag.WHO
    FORM = "[game id, 16-byte nonce, host, port]"
    SHAPE = (_bytes(), _bytes(NONCE_SIZE), _str, _uint)
    game_id: bytes
    nonce: bytes
    host: str
    port: int


@dataclass(frozen=True, slots=True)
class Seated(Message):
    """The answer to WHO: ``seat``'s key signed the asker's ``nonce`` (echoed, so that an
    answer to another WHO costs no signature check)."""

    TAG = Tag.SEATED
    FORM = "[game id, seat, 16-byte nonce, signature]"
    SHAPE = (_bytes(), _uint, _bytes(NONCE_SIZE), _bytes(SIGNATURE_SIZE))
    game_id: bytes
    seat: int
    nonce: bytes
    signature: bytes


# --- address validation (tags 8, 9) ---------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Challenge(Message):
    """Echo this token if you are at the address it came to (net/admission.py)."""

    TAG = Tag.CHALLENGE
    FORM = "[16-byte token]"
    SHAPE = (_bytes(TOKEN_SIZE),)
    token: bytes


@dataclass(frozen=True, slots=True)
class Response(Message):
    """The echo of a CHALLENGE's token."""

    TAG = Tag.RESPONSE
    FORM = "[16-byte token]"
    SHAPE = (_bytes(TOKEN_SIZE),)
    token: bytes


# --- the lobby (tags 10..17) ----------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Hello(Message):
    """A joiner asks for a seat (or to watch) and for the host's proof of its key."""

    TAG = Tag.HELLO
    FORM = "[table id, key, nonce, spectator]"
    SHAPE = (_bytes(), _bytes(PUBLIC_KEY_SIZE), _bytes(NONCE_SIZE), _bool)
    table_id: bytes
    key: bytes
    nonce: bytes
    spectator: bool


@dataclass(frozen=True, slots=True)
class Welcome(Message):
    """The host's signature of the joiner's nonce, its own nonce and the table's config."""

    TAG = Tag.WELCOME
    FORM = "[table id, host key, signature, nonce, config]"
    SHAPE = (_bytes(GAME_ID_SIZE), _bytes(PUBLIC_KEY_SIZE), _bytes(), _bytes(NONCE_SIZE), _tree)
    table_id: bytes
    host_key: bytes
    signature: bytes
    nonce: bytes
    config: wire.Value


@dataclass(frozen=True, slots=True)
class Prove(Message):
    """A joiner's signature of the host's nonce, its contribution, name and colour."""

    TAG = Tag.PROVE
    FORM = "[table id, key, signature, contribution, name, colour]"
    SHAPE = (_bytes(), _bytes(), _bytes(), _bytes(), _str, _str)
    table_id: bytes
    key: bytes
    signature: bytes
    contribution: bytes
    name: str
    colour: str


RosterMember = tuple[bytes, str, str, bool, str, int]


@dataclass(frozen=True, slots=True)
class Roster(Message):
    """Everyone at the table (key, name, colour, ready, host, port) and whether it closed."""

    TAG = Tag.ROSTER
    FORM = "[table id, config, [[key, name, colour, ready, host, port]...], closed]"
    SHAPE = (_bytes(), _tree, _tuple_of(_record(_bytes(), _str, _str, _bool, _str, _uint)),
             _bool)
    table_id: bytes
    config: wire.Value
    members: tuple[RosterMember, ...]
    closed: bool


@dataclass(frozen=True, slots=True)
class Update(Message):
    """A member's signed change of name, colour or readiness."""

    TAG = Tag.UPDATE
    FORM = "[table id, key, name, colour, ready, signature]"
    SHAPE = (_bytes(), _bytes(), _str, _str, _bool, _bytes())
    table_id: bytes
    key: bytes
    name: str
    colour: str
    ready: bool
    signature: bytes


ProposedSeat = tuple[bytes, str, str, bytes]


@dataclass(frozen=True, slots=True)
class Propose(Message):
    """The final roster the host proposes to start with (key, name, colour, contribution)."""

    TAG = Tag.PROPOSE
    FORM = "[table id, config, [[key, name, colour, contribution]...]]"
    SHAPE = (_bytes(), _tree, _tuple_of(_record(_bytes(), _str, _str, _bytes())))
    table_id: bytes
    config: wire.Value
    seats: tuple[ProposedSeat, ...]


@dataclass(frozen=True, slots=True)
class Accept(Message):
    """A player's commitment and its signature of the start digest with it."""

    TAG = Tag.ACCEPT
    FORM = "[table id, key, commitment, signature]"
    SHAPE = (_bytes(), _bytes(), _bytes(LINK_SIZE), _bytes(SIGNATURE_SIZE))
    table_id: bytes
    key: bytes
    commitment: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Leave(Message):
    """Leaving the table: a member's signature (bytes), or the host's reason (text)."""

    TAG = Tag.LEAVE
    FORM = "[table id, key, signature or reason]"
    SHAPE = (_bytes(), _bytes(), lambda v: isinstance(v, bytes | str))
    table_id: bytes
    key: bytes
    said: bytes | str


MESSAGES: dict[int, type[Message]] = {cls.TAG: cls for cls in (
    EntryMessage, Heads, Want, Recover, Held, Who, Seated, Challenge, Response,
    Hello, Welcome, Prove, Roster, Update, Propose, Accept, Leave)}
"""Every message class by its tag."""


def parse(data: bytes) -> Message:
    """The message a datagram holds; DecodeError (VersionError for another protocol version)
    if it holds none of ours."""
    tag, fields = wire.decode_message(data)
    cls = MESSAGES.get(tag)
    if cls is None:
        raise DecodeError(f"unknown message tag {tag}")
    return cls.from_fields(fields)
