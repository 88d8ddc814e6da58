"""Canonical, strict msgpack: the byte encoding of every message and log entry.

A value is a tree of ``None``, ``bool``, ``int`` (from ``-2**63`` to ``2**64 - 1``), ``bytes``,
``str`` and arrays, at most :data:`MAX_DEPTH` arrays deep. There are no maps, floats or ext
types. :func:`encode` always picks the shortest msgpack form, so each value has exactly one
encoding; :func:`decode` accepts only that encoding, which makes ``encode(decode(data)) ==
data`` hold for every accepted input. Decoded arrays are tuples (hashable, immutable); encode
accepts lists and tuples alike.

>>> encode((1, 2, b"\\x00", "é", None, True, -1)).hex()
'970102c40100a2c3a9c0c3ff'
>>> decode(bytes.fromhex("970102c40100a2c3a9c0c3ff"))
(1, 2, b'\\x00', 'é', None, True, -1)
"""

from collections.abc import Sequence
from typing import TypeAlias

import msgpack

from .errors import DecodeError, LocalProtocolError, VersionError

PROTOCOL_VERSION = 3
"""The first element of every message; a peer rejects any other version."""

MAX_DATAGRAM = 1200
"""The most bytes a datagram may carry; the default size limit of :func:`decode`."""

MAX_DEPTH = 16
"""The most arrays a value may nest (a scalar has depth 0, ``[1]`` depth 1, ``[[1]]`` 2)."""

MAX_TAG = 127
"""Message tags are 0..127, so each fits in one byte (a positive fixint)."""

_MIN_INT = -(2**63)
_MAX_INT = 2**64 - 1

Value: TypeAlias = "bool | int | bytes | str | tuple[Value, ...] | None"
"""A decoded value: arrays come back as tuples."""

Encodable: TypeAlias = "bool | int | bytes | str | tuple[Encodable, ...] | list[Encodable] | None"
"""What :func:`encode` accepts: like :data:`Value`, but arrays may also be lists."""


def _problem(obj: object, depth: int) -> str | None:
    """Say what makes ``obj`` not a value, or return None if it is one."""
    # The exact types first, without isinstance: every entry received is checked this way,
    # and the walk is much of what decoding one costs.
    kind = type(obj)
    if kind is tuple:
        if depth >= MAX_DEPTH:
            return f"arrays nest deeper than {MAX_DEPTH}"
        for item in obj:  # type: ignore[attr-defined]
            kind = type(item)
            if kind is bytes or (kind is int and _MIN_INT <= item <= _MAX_INT):
                continue
            problem = _problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    if kind is bytes or (kind is int and _MIN_INT <= obj <= _MAX_INT):  # type: ignore[operator]
        return None
    # bool and int subclasses (IntEnum tags) are fine: msgpack writes their integer value.
    if obj is None or isinstance(obj, bool | bytes):
        return None
    if isinstance(obj, int):
        if _MIN_INT <= obj <= _MAX_INT:
            return None
        return f"integer {obj} is outside -2**63..2**64-1"
    if isinstance(obj, str):
        try:
            obj.encode("utf-8")
        except UnicodeEncodeError:
            return "a string is not valid Unicode (it has a lone surrogate)"
        return None
    if isinstance(obj, tuple | list):
        if depth >= MAX_DEPTH:
            return f"arrays nest deeper than {MAX_DEPTH}"
        for item in obj:
            problem = _problem(item, depth + 1)
            if problem is not None:
                return problem
        return None
    if isinstance(obj, float):
        return "floats are not allowed"
    if isinstance(obj, dict):
        return "maps are not allowed (use arrays)"
    if isinstance(obj, msgpack.Timestamp):
        return "ext type -1 (timestamp) is not allowed"
    return f"type {type(obj).__name__} is not allowed"


def value(tree: object) -> Value:
    """``tree`` as it will decode (arrays as tuples), checked to be a value: the typed form of
    an engine's ``to_tree()`` for a message or entry. Raises :class:`LocalProtocolError` for
    anything :func:`encode` would refuse.

    >>> value([1, [b"k", "name"], [], True, None])
    (1, (b'k', 'name'), (), True, None)
    """
    problem = _problem(tree, 0)
    if problem is not None:
        raise LocalProtocolError(f"not a value: {problem}")
    return _frozen(tree)


def _frozen(tree: object) -> Value:
    if isinstance(tree, list | tuple):
        return tuple(_frozen(v) for v in tree)
    if tree is None or isinstance(tree, bool | int | bytes | str):
        return tree
    raise AssertionError(f"{tree!r} passed _problem")


def encode(obj: Encodable) -> bytes:
    """Encode a value in its one canonical msgpack form.

    Raises :class:`LocalProtocolError` for anything that is not a value.

    >>> encode([0, 127, 128, -32, -33, 2**64 - 1]).hex()
    '96007fcc80e0d0dfcfffffffffffffffff'
    >>> encode(1.5)  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.errors.LocalProtocolError: cannot encode: floats are not allowed
    """
    problem = _problem(obj, 0)
    if problem is not None:
        raise LocalProtocolError(f"cannot encode: {problem}")
    return _pack(obj)


def _pack(value: object) -> bytes:
    """The canonical encoding of what :func:`_problem` accepted."""
    # msgpack-python already writes the shortest form of every int, string, bytes and array
    # length, with ints >= 0 in the unsigned family and ints < 0 in the signed one.
    packed: bytes = msgpack.packb(value, use_bin_type=True)  # msgpack has no type hints
    return packed


def _reject_ext(code: int, data: bytes) -> object:
    raise DecodeError(f"ext type {code} is not allowed")


def _reject_map(pairs: object) -> object:
    raise DecodeError("maps are not allowed")


def decode(data: bytes, *, max_size: int = MAX_DATAGRAM) -> Value:
    """Decode one canonical value that is all of ``data``; arrays come back as tuples.

    Every malformed input raises :class:`DecodeError` and nothing else: more than
    ``max_size`` bytes, truncation, trailing bytes, maps, ext types, floats, invalid UTF-8,
    nesting beyond :data:`MAX_DEPTH`, or any non-shortest form.

    >>> decode(b"\\x92\\x05\\xa2hi")
    (5, 'hi')
    >>> decode(b"\\xcd\\x00\\x05")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.errors.DecodeError: not shortest form: byte 0 is 0xcd, expected 0x05
    """
    if len(data) > max_size:
        raise DecodeError(f"{len(data)} bytes is over the limit of {max_size}")
    try:
        # strict_map_key=False so every map reaches _reject_map, whatever its keys.
        value: Value = msgpack.unpackb(
            data,
            raw=False,
            use_list=False,
            strict_map_key=False,
            ext_hook=_reject_ext,
            object_pairs_hook=_reject_map,
        )
    except msgpack.ExtraData as exc:
        end = len(data) - len(exc.extra)
        raise DecodeError(
            f"{len(exc.extra)} trailing bytes after the value ends at byte {end}"
        ) from None
    except msgpack.StackError:
        raise DecodeError(f"arrays nest deeper than {MAX_DEPTH}") from None
    except msgpack.FormatError:
        raise DecodeError("invalid type byte 0xc1 (never used by msgpack)") from None
    except UnicodeDecodeError as exc:
        raise DecodeError(f"string is not valid UTF-8: {exc.reason}") from None
    except (ValueError, msgpack.UnpackException) as exc:
        # Truncated input, or a length that runs past the end of the data.
        raise DecodeError(f"malformed msgpack: {exc}") from None
    problem = _problem(value, 0)
    if problem is not None:
        raise DecodeError(problem)
    canonical = _pack(value)
    if canonical != data:
        # The value is fine but was not written in its shortest form (e.g. 5 as uint16).
        # msgpack is prefix-free, so the two differ before the shorter one ends.
        at = next(i for i, (a, b) in enumerate(zip(data, canonical, strict=False)) if a != b)
        raise DecodeError(
            f"not shortest form: byte {at} is {data[at]:#04x}, expected {canonical[at]:#04x}"
        )
    return value


def encode_message(tag: int, fields: Sequence[Encodable]) -> bytes:
    """Encode a message: the array ``[PROTOCOL_VERSION, tag, *fields]``.

    Raises :class:`LocalProtocolError` if the tag is not 0..127 or the result is over
    :data:`MAX_DATAGRAM` bytes (a datagram that every peer would drop).

    >>> encode_message(3, [b"\\x01", "hi"]).hex()
    '940303c40101a26869'
    """
    if isinstance(tag, bool) or not isinstance(tag, int) or not 0 <= tag <= MAX_TAG:
        raise LocalProtocolError(f"message tag {tag!r} is not an int in 0..{MAX_TAG}")
    data = encode([PROTOCOL_VERSION, tag, *fields])
    if len(data) > MAX_DATAGRAM:
        raise LocalProtocolError(f"message of {len(data)} bytes is over {MAX_DATAGRAM}")
    return data


def version_message(version: int) -> str:
    """What to tell a user about a message, entry or game file of another protocol version.
    Versions are not mixed: version 1 let a host choose the game id alone, and version 2 let a
    seat handed over undo its hand-over with a late entry, so their games are refused rather
    than read."""
    return (f"protocol version {version} is not supported: this p2p-burgundy speaks version "
            f"{PROTOCOL_VERSION} only (every player needs a release of the same version)")


def decode_message(data: bytes) -> tuple[int, tuple[Value, ...]]:
    """Decode a message made by :func:`encode_message`; return its tag and other fields.

    Raises :class:`DecodeError` unless ``data`` is a canonical array whose first element is
    :data:`PROTOCOL_VERSION` and whose second is a tag in 0..127.

    >>> decode_message(bytes.fromhex("940303c40101a26869"))
    (3, (b'\\x01', 'hi'))
    >>> decode_message(bytes.fromhex("920203"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    p2p_burgundy.net.errors.VersionError: protocol version 2 is not supported: ...
    """
    value = decode(data)
    if not isinstance(value, tuple) or len(value) < 2:
        raise DecodeError("a message is an array of at least a version and a tag")
    version, tag, *fields = value
    # type() rather than isinstance(): True is an int too, but it is not a version or a tag.
    if type(version) is not int:
        raise DecodeError(f"protocol version {version!r} is not an int")
    if version != PROTOCOL_VERSION:
        raise VersionError(version_message(version))
    if type(tag) is not int or not 0 <= tag <= MAX_TAG:
        raise DecodeError(f"message tag {tag!r} is not an int in 0..{MAX_TAG}")
    return tag, tuple(fields)
