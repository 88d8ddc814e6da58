"""The signed log: entries, their signatures and hash links, and the append-only game file.

An entry's *body* is the canonical encoding of
``[version, game_id, author, seq, prev, kind, payload]``: ``author`` is the 32-byte public key,
``seq`` counts the author's entries from 0, ``prev`` is the id of the author's entry
``seq - 1`` (empty for seq 0). The author signs the body with domain ``b"entry"``
(:func:`~p2p_burgundy.net.identity.signing_input`), and the entry travels as
``[body, signature]``. Its id is the labelled hash of the body (:func:`entry_id`):
signatures are not unique, bodies are.
Because the body names the game, the kind and the slot, a signature never verifies anywhere
else.

>>> from p2p_burgundy.net.identity import Identity
>>> me = Identity.from_private_bytes(bytes(32))
>>> entry = sign_entry(me, b"g" * 16, 0, b"", Kind.CHAT, ("hello",))
>>> parse_entry(entry.raw) == entry
True
>>> entry.kind, entry.payload, entry.id.hex()[:12]
(<Kind.CHAT: 4>, ('hello',), 'f17ccf70c195')
"""

from __future__ import annotations

import hashlib
import os
import struct
import threading
import zlib
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path

from . import wire
from .errors import DecodeError, RemoteProtocolError, VersionError
from .identity import PUBLIC_KEY_SIZE, SIGNATURE_SIZE, Identity, verify

ENTRY_DOMAIN = b"entry"
ENTRY_ID_LABEL = b"p2p-burgundy/v1/entry-id\x00"
GAME_ID_SIZE = 16
ID_SIZE = 32
MAX_ENTRY = 1100  # an entry plus message framing fits one 1200-byte datagram


class Kind(IntEnum):
    """What an entry says."""

    START = 1  # config, roster, every commitment, every player's acceptance
    REVEAL = 2  # [k, link]: the author's beacon link for chance event k
    TURN = 3  # [t, [action...]]: the author's whole turn number t
    CHAT = 4  # [text]
    SEAT_TO_BOT = 5  # [seat, step]: the author agrees a bot may play that seat from step
    CHOICE_COMMIT = 6  # [digest]: the author's secret set-up choice, committed (experts-secret)
    CHOICE_REVEAL = 7  # [choice, salt]: that choice and its 16-byte salt, once all committed
    RESIGN = 8  # []: the author leaves for good; a bot plays its seat, no vote needed
    END = 9  # []: the only player left ends the game there, as the winner
    SEEN = 10  # [step]: the author holds every input of the steps before ``step``, and is done
    # agreeing to hand anyone over there


@dataclass(frozen=True, slots=True)
class Entry:
    """A signed log entry, parsed; ``raw`` is its exact wire form."""

    game_id: bytes
    author: bytes
    seq: int
    prev: bytes
    kind: Kind
    payload: tuple[wire.Value, ...]
    body: bytes = field(repr=False)
    signature: bytes = field(repr=False)
    raw: bytes = field(repr=False)
    id: bytes = field(repr=False)
    """:func:`entry_id` of the body: the entry's identity (and the next entry's ``prev``)."""


def sign_entry(
    identity: Identity,
    game_id: bytes,
    seq: int,
    prev: bytes,
    kind: Kind,
    payload: tuple[wire.Encodable, ...] | list[wire.Encodable],
) -> Entry:
    """Make and sign an entry of ``identity``."""
    body = wire.encode(
        [wire.PROTOCOL_VERSION, game_id, identity.public_key, seq, prev, int(kind), list(payload)]
    )
    signature = identity.sign(ENTRY_DOMAIN, body)
    return decode_entry(wire.encode([body, signature]))  # our own signature: no need to check


def decode_entry(raw: bytes) -> Entry:
    """Parse an entry's structure without checking its signature (cheap checks first).

    Raises DecodeError for anything malformed.
    """
    outer = wire.decode(raw, max_size=MAX_ENTRY)
    if not (isinstance(outer, tuple) and len(outer) == 2):
        raise DecodeError("an entry is [body, 64-byte signature]")
    body, signature = outer
    if not (
        isinstance(body, bytes) and isinstance(signature, bytes)
        and len(signature) == SIGNATURE_SIZE
    ):
        raise DecodeError("an entry is [body, 64-byte signature]")
    fields = wire.decode(body, max_size=MAX_ENTRY)
    if not (isinstance(fields, tuple) and len(fields) == 7):
        raise DecodeError("an entry body has 7 fields")
    version, game_id, author, seq, prev, kind, payload = fields
    if type(version) is not int:
        raise DecodeError(f"entry version {version!r} is not an int")
    if version != wire.PROTOCOL_VERSION:
        raise VersionError(wire.version_message(version))
    if not (isinstance(game_id, bytes) and len(game_id) == GAME_ID_SIZE):
        raise DecodeError(f"a game id is {GAME_ID_SIZE} bytes")
    if not (isinstance(author, bytes) and len(author) == PUBLIC_KEY_SIZE):
        raise DecodeError(f"an author is a {PUBLIC_KEY_SIZE}-byte public key")
    if type(seq) is not int or seq < 0:
        raise DecodeError("seq is a non-negative integer")
    if not (isinstance(prev, bytes) and len(prev) == (0 if seq == 0 else ID_SIZE)):
        raise DecodeError("prev is empty for seq 0 and a 32-byte entry id after")
    if type(kind) is not int or kind not in Kind._value2member_map_:
        raise DecodeError(f"unknown entry kind {kind!r}")
    if not isinstance(payload, tuple):
        raise DecodeError("an entry payload is an array")
    return Entry(game_id, author, seq, prev, Kind(kind), payload, body, signature, raw,
                 entry_id(body))


def entry_id(body: bytes) -> bytes:
    """An entry's id: ``SHA-256(ENTRY_ID_LABEL || body)`` (the signature is left out: a
    signature need not be unique, a body is)."""
    return hashlib.sha256(ENTRY_ID_LABEL + body).digest()


def parse_entry(raw: bytes) -> Entry:
    """:func:`decode_entry` and check the signature; RemoteProtocolError if it is forged.

    >>> from p2p_burgundy.net.identity import Identity
    >>> me = Identity.from_private_bytes(bytes(32))
    >>> raw = bytearray(sign_entry(me, b"g" * 16, 0, b"", Kind.CHAT, ("hi",)).raw)
    >>> raw[-1] ^= 1
    >>> parse_entry(bytes(raw))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.errors.RemoteProtocolError: bad signature on a chat entry (author ..., seq 0)
    """
    return check_signature(decode_entry(raw))


def check_signature(entry: Entry) -> Entry:
    """``entry`` (from :func:`decode_entry`) if its author signed it; RemoteProtocolError if
    the signature is forged."""
    if not verify(entry.author, ENTRY_DOMAIN, entry.body, entry.signature):
        raise RemoteProtocolError(
            f"bad signature on a {entry.kind.name.lower()} entry",
            author=entry.author,
            seq=entry.seq,
        )
    return entry


# --- The game file ------------------------------------------------------------------------------

FILE_MAGIC = b"P2PBURGUNDY-GAME\x00" + bytes([wire.PROTOCOL_VERSION])
_MAGIC_PREFIX = FILE_MAGIC[:-1]
_RECORD_HEADER = struct.Struct(">II")  # payload length, CRC-32 of the payload
MAX_RECORD = 64 * 1024


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a temporary file beside it, flushed
    to disk, renamed over it: a crash leaves the old file or the new one); OSError if the
    disk refuses, the old file then left as it was. The temporary file is the writer's own
    (by process and thread): under one shared name, two writers of one path (two clients of
    one data directory saving their settings) renamed each other's half-written file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        with open(temporary, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise


class GameFile:
    """An append-only file of entries: ``FILE_MAGIC`` then records of
    ``length (4 bytes BE) | CRC-32 (4 bytes BE) | entry``. Every append is flushed, and
    fsynced when asked (our own entries, before they are sent).

    Opening cuts a torn or corrupt tail back to the last whole record, so a crash while
    writing loses at most the entry being written (which was not yet sent).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries: list[bytes] = []
        self._held: set[bytes] = set()
        self.cut_bytes = 0  # how much of a torn tail opening removed
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o600)
        self._file = os.fdopen(fd, "r+b")
        data = self._file.read()
        if not data:
            self._file.write(FILE_MAGIC)
            self._sync()
            return
        problem = magic_problem(data)
        if problem is not None:
            self._file.close()
            raise DecodeError(f"{path}: {problem}")
        self.entries, end = read_records(data)
        self._held = set(self.entries)
        if end < len(data):
            self.cut_bytes = len(data) - end
            self._file.truncate(end)
            self._sync()
        self._file.seek(end)

    def append(self, raw: bytes, *, durable: bool = True) -> None:
        """Write one entry; ``durable``: also fsync before returning (our own entries, which
        must survive a crash before they are sent). Others' entries are only flushed: they
        become durable with our next fsync, and meanwhile the peers still hold them. An entry
        the file already holds is not written again (a session rebuilt from the file hands
        its entries back as new)."""
        if raw in self._held:
            return
        self._held.add(raw)
        self._file.write(_record(raw))
        if durable:
            self._sync()
        else:
            self._file.flush()
        self.entries.append(raw)

    def rewrite(self, entries: list[bytes]) -> None:
        """Replace the file's records with ``entries``, whole or not at all
        (:func:`write_atomically`): used to leave a finished game in canonical order.
        OSError if the disk refuses; the file and this object are then as they were."""
        data = FILE_MAGIC + b"".join(_record(raw) for raw in entries)
        self._file.close()  # Windows renames nothing over an open file
        try:
            write_atomically(self.path, data)
        finally:
            self._file = open(self.path, "r+b")  # noqa: SIM115 (closed by close())
            self._file.seek(0, os.SEEK_END)
        self.entries = list(entries)
        self._held = set(entries)

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> GameFile:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()


def _record(raw: bytes) -> bytes:
    """One entry as the file holds it: its length, its CRC-32, the entry."""
    return _RECORD_HEADER.pack(len(raw), zlib.crc32(raw)) + raw


def magic_problem(data: bytes) -> str | None:
    """Why ``data`` is not a game file this version reads (None if it is).

    >>> magic_problem(b"P2PBURGUNDY-GAME\\x00\\x01")[:54]
    'a game file of protocol version 1 is not supported: th'
    """
    if data.startswith(FILE_MAGIC):
        return None
    if data.startswith(_MAGIC_PREFIX) and len(data) > len(FILE_MAGIC) - 1:
        return "a game file of " + wire.version_message(data[len(_MAGIC_PREFIX)])
    return "not a p2p-burgundy game file"


def read_records(data: bytes) -> tuple[list[bytes], int]:
    """The whole records of a game file's bytes, and where the last one ends.

    >>> data = FILE_MAGIC + _RECORD_HEADER.pack(2, zlib.crc32(b"hi")) + b"hi" + b"\\x00\\x00"
    >>> read_records(data)
    ([b'hi'], 28)
    """
    problem = magic_problem(data)
    if problem is not None:
        raise DecodeError(problem)
    records = []
    at = len(FILE_MAGIC)
    while at + _RECORD_HEADER.size <= len(data):
        length, crc = _RECORD_HEADER.unpack_from(data, at)
        start = at + _RECORD_HEADER.size
        payload = data[start : start + length]
        if length > MAX_RECORD or len(payload) != length or zlib.crc32(payload) != crc:
            break
        records.append(payload)
        at = start + length
    return records, at
