import enum
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_burgundy import GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import DecodeError, LocalProtocolError

BIG = 1 << 20  # a size limit for tests about other rules

# Every format boundary: (value, its one canonical encoding). Pinned; docs/protocol.md too.
GOLDEN = [
    (None, "c0"),
    (False, "c2"),
    (True, "c3"),
    (0, "00"),
    (127, "7f"),
    (128, "cc80"),
    (255, "ccff"),
    (256, "cd0100"),
    (65535, "cdffff"),
    (65536, "ce00010000"),
    (2**32 - 1, "ceffffffff"),
    (2**32, "cf0000000100000000"),
    (2**64 - 1, "cfffffffffffffffff"),
    (-1, "ff"),
    (-32, "e0"),
    (-33, "d0df"),
    (-128, "d080"),
    (-129, "d1ff7f"),
    (-32768, "d18000"),
    (-32769, "d2ffff7fff"),
    (-(2**31), "d280000000"),
    (-(2**31) - 1, "d3ffffffff7fffffff"),
    (-(2**63), "d38000000000000000"),
    ("", "a0"),
    ("é", "a2c3a9"),
    ("a" * 31, "bf" + "61" * 31),
    ("a" * 32, "d920" + "61" * 32),
    ("a" * 256, "da0100" + "61" * 256),
    (b"", "c400"),
    (b"\x00\xff", "c40200ff"),
    (b"x" * 256, "c50100" + "78" * 256),
    ((), "90"),
    ((None,) * 15, "9f" + "c0" * 15),
    ((None,) * 16, "dc0010" + "c0" * 16),
    ((1, (b"a", "b"), ()), "9301" + "92c40161a162" + "90"),
]


@pytest.mark.parametrize(("value", "hex_"), GOLDEN)
def test_encode_writes_the_golden_bytes(value: wire.Value, hex_: str) -> None:
    assert wire.encode(value).hex() == hex_


@pytest.mark.parametrize(("value", "hex_"), GOLDEN)
def test_decode_reads_the_golden_bytes(value: wire.Value, hex_: str) -> None:
    decoded = wire.decode(bytes.fromhex(hex_), max_size=BIG)
    assert decoded == value
    assert type(decoded) is type(value)


def test_longest_length_forms_are_canonical() -> None:
    for value, header in [
        ("a" * 65536, "db00010000"),
        (b"x" * 65536, "c600010000"),
        ((None,) * 65536, "dd00010000"),
    ]:
        data = wire.encode(value)
        assert data.hex().startswith(header)
        assert wire.decode(data, max_size=BIG) == value


def test_encode_takes_lists_and_int_enums_and_decode_returns_tuples() -> None:
    class Tag(enum.IntEnum):
        TURN = 5

    data = wire.encode([Tag.TURN, [1, [2]]])
    assert data == wire.encode((5, (1, (2,))))
    decoded = wire.decode(data)
    assert decoded == (5, (1, (2,)))
    assert type(decoded) is tuple
    assert type(decoded[0]) is int


def test_value_gives_an_engine_tree_as_it_decodes() -> None:
    tree = GameConfig(3).to_tree()
    assert wire.value(tree) == wire.decode(wire.encode(tree))


@pytest.mark.parametrize(("tree", "problem"), [
    ([1, [1.5]], "floats are not allowed"),
    ([{"a": 1}], "maps are not allowed (use arrays)"),
    ([2**64], "integer 18446744073709551616 is outside -2**63..2**64-1"),
])
def test_value_refuses_what_encode_refuses(tree: object, problem: str) -> None:
    with pytest.raises(LocalProtocolError, match=re.escape(f"not a value: {problem}")):
        wire.value(tree)


def _nested(depth: int) -> wire.Value:
    value: wire.Value = None
    for _ in range(depth):
        value = (value,)
    return value


def test_nesting_up_to_max_depth_round_trips() -> None:
    value = _nested(wire.MAX_DEPTH)
    assert wire.decode(wire.encode(value)) == value


def _self_containing_list() -> list[object]:
    loop: list[object] = []
    loop.append(loop)
    return loop


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (1.5, "floats"),
        ({"a": 1}, "maps"),
        ({1}, "type set"),
        (bytearray(b"x"), "type bytearray"),
        (2**64, "outside"),
        (-(2**63) - 1, "outside"),
        ("\ud800", "surrogate"),
        ([[1.0]], "floats"),
        (_nested(wire.MAX_DEPTH + 1), "deeper"),
        (_self_containing_list(), "deeper"),
    ],
)
def test_encode_rejects_what_is_not_a_value(value: object, why: str) -> None:
    with pytest.raises(LocalProtocolError, match=why):
        wire.encode(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("hex_", "why"),
    [
        # Integers, strings, bytes and arrays wider than needed.
        ("cd0005", "byte 0 is 0xcd, expected 0x05"),
        ("cc05", "not shortest form"),
        ("cc7f", "not shortest form"),
        ("cd00ff", "not shortest form"),
        ("ce0000ffff", "not shortest form"),
        ("cf00000000ffffffff", "not shortest form"),
        ("d005", "byte 0 is 0xd0, expected 0x05"),  # a signed form for a non-negative int
        ("d0ff", "byte 0 is 0xd0, expected 0xff"),
        ("d1ff80", "not shortest form"),
        ("d2ffff8000", "not shortest form"),
        ("d3ffffffff80000000", "not shortest form"),
        ("d3000000000000000a", "not shortest form"),
        ("d90161", "not shortest form"),
        ("da000161", "not shortest form"),
        ("db0000000161", "not shortest form"),
        ("c5000178", "not shortest form"),
        ("c600000001 78", "not shortest form"),
        ("dc000101", "not shortest form"),
        ("dd0000000101", "not shortest form"),
        ("91cd0005", "byte 1 is 0xcd"),
        # Types that are never allowed.
        ("d40100", "ext type 1"),
        ("c7010500", "ext type 5"),
        ("d6ff00000000", "timestamp"),
        ("ca00000000", "floats"),
        ("cb0000000000000000", "floats"),
        ("80", "maps"),
        ("810102", "maps"),
        ("81a16101", "maps"),
        ("9181c0c0", "maps"),
        ("c1", "0xc1"),
        # Trailing bytes and truncation.
        ("0000", "1 trailing bytes after the value ends at byte 1"),
        ("9100c0c0", "2 trailing bytes"),
        ("", "malformed"),
        ("cd00", "malformed"),
        ("a261", "malformed"),
        ("9201", "malformed"),
        ("c4056162", "malformed"),
        ("ddffffffff", "malformed"),
        # Strings that are not UTF-8 (bad start byte, lone continuation, surrogate, overlong).
        ("a2fffe", "UTF-8"),
        ("a180", "UTF-8"),
        ("a3eda080", "UTF-8"),
        ("a2c080", "UTF-8"),
    ],
)
def test_decode_rejects_malformed_input(hex_: str, why: str) -> None:
    with pytest.raises(DecodeError, match=why):
        wire.decode(bytes.fromhex(hex_))


def test_decode_rejects_nesting_past_max_depth() -> None:
    data = b"\x91" * (wire.MAX_DEPTH + 1) + b"\xc0"
    with pytest.raises(DecodeError, match="nest deeper"):
        wire.decode(data)


def test_decode_rejects_nesting_past_msgpack_own_stack() -> None:
    with pytest.raises(DecodeError, match="nest deeper"):
        wire.decode(b"\x91" * 5000 + b"\xc0", max_size=BIG)


def test_decode_size_limit_is_inclusive() -> None:
    exactly = wire.encode(b"x" * (wire.MAX_DATAGRAM - 3))
    assert len(exactly) == wire.MAX_DATAGRAM
    assert wire.decode(exactly) == b"x" * (wire.MAX_DATAGRAM - 3)
    over = wire.encode(b"x" * (wire.MAX_DATAGRAM - 2))
    with pytest.raises(DecodeError, match="1201 bytes is over the limit of 1200"):
        wire.decode(over)
    with pytest.raises(DecodeError, match="over the limit of 3"):
        wire.decode(b"\xa4abcd", max_size=3)


def test_decode_accepts_bytes_like_input() -> None:
    data = wire.encode((1, "x"))
    assert wire.decode(bytearray(data)) == (1, "x")
    assert wire.decode(memoryview(data)) == (1, "x")


# Values, including int subclasses and lists, which must come back as ints and tuples.
_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**64 - 1)
    | st.binary(max_size=40)
    | st.text(max_size=40)
)
_values = st.recursive(
    _scalars,
    lambda children: st.lists(children, max_size=20) | st.lists(children, max_size=5).map(tuple),
    max_leaves=20,
)


def _as_decoded(value: wire.Encodable) -> wire.Value:
    if isinstance(value, list | tuple):
        return tuple(_as_decoded(item) for item in value)
    return value


@settings(max_examples=150)
@given(_values)
def test_every_value_round_trips(value: wire.Encodable) -> None:
    data = wire.encode(value)
    decoded = wire.decode(data, max_size=BIG)
    assert decoded == _as_decoded(value)
    assert wire.encode(decoded) == data


def _decodes_canonically_or_raises_decode_error(data: bytes) -> None:
    try:
        value = wire.decode(data, max_size=BIG)
    except DecodeError:
        return
    assert wire.encode(value) == data


@settings(max_examples=500)
@given(st.binary(max_size=64))
def test_random_bytes_decode_canonically_or_raise_decode_error(data: bytes) -> None:
    _decodes_canonically_or_raises_decode_error(data)


# Headers of every msgpack type, glued together, reach deeper into the decoder than noise.
_pieces = st.sampled_from(
    [bytes([b]) for b in (0x00, 0x7F, 0x80, 0x81, 0x90, 0x91, 0x9F, 0xA1, 0xBF, 0xE0, 0xFF)]
    + [bytes([b]) for b in range(0xC0, 0xE0)]
) | st.binary(min_size=1, max_size=4)


@settings(max_examples=300)
@given(st.lists(_pieces, max_size=12).map(b"".join))
def test_header_soup_decodes_canonically_or_raises_decode_error(data: bytes) -> None:
    _decodes_canonically_or_raises_decode_error(data)


@settings(max_examples=200)
@given(_values, st.data())
def test_mutated_encodings_decode_canonically_or_raise_decode_error(
    value: wire.Encodable, data: st.DataObject
) -> None:
    encoded = bytearray(wire.encode(value))
    at = data.draw(st.integers(min_value=0, max_value=len(encoded)))
    mutation = data.draw(st.sampled_from(["replace", "insert", "delete"]))
    byte = data.draw(st.integers(min_value=0, max_value=255))
    if mutation == "replace" and at < len(encoded):
        encoded[at] = byte
    elif mutation == "insert":
        encoded.insert(at, byte)
    else:
        del encoded[at : at + 1]
    _decodes_canonically_or_raises_decode_error(bytes(encoded))


def test_message_round_trips_with_its_tag() -> None:
    data = wire.encode_message(3, [b"\x01", "hi"])
    assert data.hex() == "940303c40101a26869"
    assert wire.decode_message(data) == (3, (b"\x01", "hi"))
    assert wire.decode_message(wire.encode_message(wire.MAX_TAG, [])) == (wire.MAX_TAG, ())


def test_message_tag_may_be_an_int_enum() -> None:
    class Tag(enum.IntEnum):
        HEADS = 9

    assert wire.decode_message(wire.encode_message(Tag.HEADS, [Tag.HEADS])) == (9, (9,))


@pytest.mark.parametrize("tag", [-1, wire.MAX_TAG + 1, True, "1", None])
def test_encode_message_rejects_a_bad_tag(tag: object) -> None:
    with pytest.raises(LocalProtocolError, match="tag"):
        wire.encode_message(tag, [])  # type: ignore[arg-type]


def test_encode_message_refuses_to_exceed_the_datagram_budget() -> None:
    fits = wire.encode_message(1, [b"x" * (wire.MAX_DATAGRAM - 6)])
    assert len(fits) == wire.MAX_DATAGRAM
    with pytest.raises(LocalProtocolError, match="1201 bytes is over 1200"):
        wire.encode_message(1, [b"x" * (wire.MAX_DATAGRAM - 5)])


@pytest.mark.parametrize(
    ("value", "why"),
    [
        (1, "array of at least"),
        ((1,), "array of at least"),
        ((1, 0), "version 1 is not supported: this p2p-burgundy speaks version 3 only"),
        ((2, 0), "version 2 is not supported: this p2p-burgundy speaks version 3 only"),
        ((4, 0), "version 4 is not supported"),
        ((0, 0), "version 0 is not supported"),
        ((True, 0), "version True is not an int"),
        ((b"\x01", 0), "is not an int"),
        ((3, 128), "tag 128"),
        ((3, -1), "tag -1"),
        ((3, False), "tag False"),
        ((3, "x"), "tag 'x'"),
    ],
)
def test_decode_message_rejects_a_bad_header(value: wire.Value, why: str) -> None:
    with pytest.raises(DecodeError, match=why):
        wire.decode_message(wire.encode(value))


def test_decode_message_applies_the_datagram_limit() -> None:
    with pytest.raises(DecodeError, match="over the limit"):
        wire.decode_message(wire.encode((1, 0, b"x" * wire.MAX_DATAGRAM)))
