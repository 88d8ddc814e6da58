"""Typed messages: each parses from exactly its bytes, re-encodes to them, and a malformed one
cannot exist (a DecodeError naming its form when parsed, a LocalProtocolError when made)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from p2p_burgundy import GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.errors import DecodeError, LocalProtocolError
from p2p_burgundy.net.messages import (
    MESSAGES,
    Accept,
    Challenge,
    EntryMessage,
    Heads,
    Held,
    Hello,
    Leave,
    Message,
    Propose,
    Prove,
    Recover,
    Response,
    Roster,
    Seated,
    Tag,
    Update,
    Want,
    Welcome,
    Who,
    parse,
)

G, K, S = b"g" * 16, b"k" * 32, b"s" * 64
CONFIG = GameConfig(players=2).to_tree()
EXAMPLES: list[Message] = [
    EntryMessage(b"\x92\xc4\x01x\xc4\x01y"),
    Heads(G, (2, 0), (b"h" * 32, b"")),
    Want(G, 1, 0, 16),
    Recover(G, 1, b"n" * 16),
    Held(G, 0, 1, 3, b"h" * 32, S),
    Who(G, b"n" * 16, "10.0.0.1", 4000),
    Seated(G, 2, b"n" * 16, S),
    Challenge(b"t" * 16),
    Response(b"t" * 16),
    Hello(b"", K, b"n" * 16, False),
    Welcome(G, K, S, b"n" * 16, CONFIG),
    Prove(G, K, S, b"c" * 16, "Ann", "red"),
    Roster(G, CONFIG, ((K, "Ann", "red", True, "10.0.0.1", 4000),), False),
    Update(G, K, "Ann", "blue", True, S),
    Propose(G, CONFIG, ((K, "Ann", "red", b"c" * 16),)),
    Accept(G, K, b"l" * 32, S),
    Leave(G, K, S),
    Leave(G, K, "the table is full"),
]


def test_every_tag_has_its_class_and_an_example() -> None:
    assert sorted(MESSAGES) == sorted(Tag) == sorted({m.TAG for m in EXAMPLES})


@pytest.mark.parametrize("message", EXAMPLES, ids=lambda m: type(m).__name__)
def test_a_message_parses_from_its_bytes_and_encodes_to_them_again(message: Message) -> None:
    data = message.encode()
    assert wire.decode_message(data)[0] == message.TAG
    assert parse(data) == message and parse(data).encode() == data


def test_a_malformed_message_is_a_decode_error_naming_its_form() -> None:
    cases = [
        (Tag.WANT, [G, 1]),  # too few fields
        (Tag.WANT, [G, -1, 0, 1]),  # a negative seat
        (Tag.HEADS, [G, [1], [b""]]),  # a count with no head id
        (Tag.HEADS, [G, [0, 0], [b""]]),  # counts and heads of different lengths
        (Tag.HELLO, [b"", K[:31], b"n" * 16, False]),  # a short key
        (Tag.ROSTER, [G, CONFIG, [[K, "Ann", "red", "yes", "h", 1]], False]),  # ready as text
        (Tag.LEAVE, [G, K, 7]),
    ]
    for tag, fields in cases:
        with pytest.raises(DecodeError, match=f"^{tag.name} is ") as caught:
            parse(wire.encode_message(tag, fields))
        assert str(caught.value) == f"{tag.name} is {MESSAGES[tag].FORM}"
    with pytest.raises(DecodeError, match="unknown message tag 99"):
        parse(wire.encode_message(99, []))


def test_a_malformed_message_cannot_be_made_either() -> None:
    with pytest.raises(LocalProtocolError, match=r"^WANT is \[game id, seat, from seq, count\]$"):
        Want(G, 1, -3, 16)
    with pytest.raises(LocalProtocolError, match=r"^CHALLENGE is "):
        Challenge(b"short")


@settings(max_examples=300, deadline=None)
@given(tag=st.sampled_from(sorted(Tag)), fields=st.lists(
    st.one_of(st.binary(max_size=40), st.integers(-2, 2**20), st.text(max_size=8),
              st.booleans(), st.lists(st.integers(0, 3), max_size=3)), max_size=7))
def test_any_fields_parse_to_a_valid_message_or_raise_a_decode_error(
    tag: Tag, fields: list[wire.Encodable],
) -> None:
    data = wire.encode_message(tag, fields)
    try:
        message = parse(data)
    except DecodeError:
        return
    assert message.encode() == data
