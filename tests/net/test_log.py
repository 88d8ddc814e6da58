"""Signed log entries and the append-only game file (DESIGN.md, "The signed log")."""

from __future__ import annotations

import errno
import hashlib
import os
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from p2p_burgundy import state_hash
from p2p_burgundy.net import wire
from p2p_burgundy.net.beacon import HashChain
from p2p_burgundy.net.errors import DecodeError, RemoteProtocolError
from p2p_burgundy.net.identity import Identity, signing_input, verify
from p2p_burgundy.net.inmemory import TABLE_ID, Table
from p2p_burgundy.net.log import (
    _RECORD_HEADER,
    ENTRY_DOMAIN,
    FILE_MAGIC,
    MAX_ENTRY,
    GameFile,
    Kind,
    decode_entry,
    parse_entry,
    read_records,
    sign_entry,
)
from p2p_burgundy.net.session import Session

GAME_ID = TABLE_ID  # the game id of the documented vectors

AUTHOR = Identity.from_private_bytes(bytes([1]) * 32)

# Golden vectors, also in docs/protocol.md ("Log entries" and "The game file").
CHAT_BODY = (
    "9703c41000112233445566778899aabbccddeeffc4208a88e3dd7409f195fd52db2d3cba5d72ca6709bf"
    "1d94121bf3748801b40f6f5c00c4000491a568656c6c6f"
)
CHAT_SIGNATURE = (
    "15614d10122ec6aca8b3bf27e6c54292b7260bb599d54bd46d25be6fa5dd78ad"
    "80fdc9206be0641cbfb49e8f8f1cfab5a634fb08a30e1808f71c25f40a68c709"
)
CHAT_ID = "c57eb31332653985faa5365b62173ce01c3e07b1955aa1e9670604d785a345f9"
REVEAL_BODY = (
    "9703c41000112233445566778899aabbccddeeffc4208a88e3dd7409f195fd52db2d3cba5d72ca6709bf"
    "1d94121bf3748801b40f6f5c01c420c57eb31332653985faa5365b62173ce01c3e07b1955aa1e9670604"
    "d785a345f9029200c420ca099bda0147748bd097f535f53d27c5a8bb36fc6be4d4eca39a315114d4d194"
)
REVEAL_ID = "46aa79809c591fe2ad6b17801d0d7d0fc89cdf5ec9edc85a9b78af488768a576"
FILE_MAGIC_HEX = "50325042555247554e44592d47414d450003"
CHAT_RECORD_HEADER = "000000860a7364f5"  # length 134, CRC-32 of the CHAT entry


def _chat(seq: int = 0, prev: bytes = b"", text: str = "hello"):  # type: ignore[no-untyped-def]
    return sign_entry(AUTHOR, GAME_ID, seq, prev, Kind.CHAT, [text])


def test_entry_golden_vectors() -> None:
    chat = _chat()
    assert chat.body.hex() == CHAT_BODY
    assert chat.signature.hex() == CHAT_SIGNATURE
    assert chat.raw == wire.encode([chat.body, chat.signature])
    assert chat.id.hex() == CHAT_ID
    assert chat.id == hashlib.sha256(b"p2p-burgundy/v1/entry-id\x00" + chat.body).digest()
    reveal = sign_entry(AUTHOR, GAME_ID, 1, chat.id, Kind.REVEAL,
                        [0, HashChain(bytes(32)).reveal(0)])
    assert reveal.body.hex() == REVEAL_BODY
    assert reveal.id.hex() == REVEAL_ID


def test_file_golden_vectors() -> None:
    chat = _chat()
    assert FILE_MAGIC.hex() == FILE_MAGIC_HEX and FILE_MAGIC == b"P2PBURGUNDY-GAME\x00\x03"
    assert _RECORD_HEADER.pack(len(chat.raw), zlib.crc32(chat.raw)).hex() == CHAT_RECORD_HEADER
    assert zlib.crc32(b"123456789") == 0xCBF43926
    assert read_records(FILE_MAGIC + bytes.fromhex(CHAT_RECORD_HEADER) + chat.raw) == (
        [chat.raw], len(FILE_MAGIC) + 8 + 134)


def test_a_game_file_of_version_1_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    old = b"P2PBURGUNDY-GAME\x00\x01" + bytes.fromhex(CHAT_RECORD_HEADER) + _chat().raw
    path = tmp_path / "old.game"
    path.write_bytes(old)
    with pytest.raises(DecodeError, match="game file of protocol version 1 is not supported"):
        GameFile(path)
    assert path.read_bytes() == old  # refused, never truncated or rewritten
    with pytest.raises(DecodeError, match="version 1"):
        read_records(old)


def test_the_body_is_the_documented_array_and_the_signature_covers_it() -> None:
    chat = _chat()
    assert wire.decode(chat.body) == (3, GAME_ID, AUTHOR.public_key, 0, b"", 4, ("hello",))
    assert verify(AUTHOR.public_key, b"entry", chat.body, chat.signature)
    assert signing_input(ENTRY_DOMAIN, chat.body).startswith(b"p2p-burgundy/v1\x00\x05entry")


def test_parse_entry_round_trips() -> None:
    chat = _chat()
    assert parse_entry(chat.raw) == chat
    assert decode_entry(chat.raw) == chat


def test_every_single_byte_change_is_rejected() -> None:
    raw = _chat().raw
    for at in range(len(raw)):
        for flip in (0x01, 0x80):
            changed = bytearray(raw)
            changed[at] ^= flip
            with pytest.raises((DecodeError, RemoteProtocolError)):
                parse_entry(bytes(changed))


def test_a_signature_for_another_domain_does_not_verify() -> None:
    body = _chat().body
    other = AUTHOR.sign(b"chat", body)
    with pytest.raises(RemoteProtocolError, match="bad signature"):
        parse_entry(wire.encode([body, other]))


def test_a_body_re_signed_by_someone_else_does_not_verify() -> None:
    chat = _chat()
    mallory = Identity.from_private_bytes(bytes([9]) * 32)
    with pytest.raises(RemoteProtocolError, match="bad signature on a chat entry"):
        parse_entry(wire.encode([chat.body, mallory.sign(ENTRY_DOMAIN, chat.body)]))


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ([1, GAME_ID, AUTHOR.public_key, 0, b"", 4, ["x"]], "protocol version 1 is not supported"),
        ([2, GAME_ID, AUTHOR.public_key, 0, b"", 4, ["x"]], "protocol version 2 is not supported"),
        ([3, b"short", AUTHOR.public_key, 0, b"", 4, ["x"]], "game id"),
        ([3, GAME_ID, b"k" * 31, 0, b"", 4, ["x"]], "public key"),
        ([3, GAME_ID, AUTHOR.public_key, -1, b"", 4, ["x"]], "seq"),
        ([3, GAME_ID, AUTHOR.public_key, 0, b"p" * 32, 4, ["x"]], "prev"),
        ([3, GAME_ID, AUTHOR.public_key, 1, b"", 4, ["x"]], "prev"),
        ([3, GAME_ID, AUTHOR.public_key, 0, b"", 99, ["x"]], "kind"),
        ([3, GAME_ID, AUTHOR.public_key, 0, b"", 4, "x"], "payload"),
        ([3, GAME_ID, AUTHOR.public_key, 0, b"", 4], "7 fields"),
    ],
)
def test_decode_entry_rejects_malformed_bodies(fields: list[object], message: str) -> None:
    body = wire.encode(fields)  # type: ignore[arg-type]
    raw = wire.encode([body, AUTHOR.sign(ENTRY_DOMAIN, body)])
    with pytest.raises(DecodeError, match=message):
        decode_entry(raw)


def test_decode_entry_rejects_bad_outer_shapes() -> None:
    body = _chat().body
    for outer in ([body], [body, b"s" * 63], [body, b"s" * 64, b""], body, [1, b"s" * 64]):
        with pytest.raises(DecodeError):
            decode_entry(wire.encode(outer))  # type: ignore[arg-type]
    big = wire.encode([b"x" * MAX_ENTRY, b"s" * 64])
    with pytest.raises(DecodeError, match="over the limit"):
        decode_entry(big)


# --- The game file -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game() -> Table:
    table = Table(2, seed=5)
    table.play(turns=6)
    return table


def _write(path: Path, records: list[bytes]) -> None:
    with GameFile(path) as file:
        for raw in records:
            file.append(raw)


def test_a_new_file_is_the_magic_alone(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    GameFile(path).close()
    assert path.read_bytes() == FILE_MAGIC


def test_records_are_length_crc_and_entry(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    raw = _chat().raw
    _write(path, [raw])
    assert path.read_bytes() == FILE_MAGIC + len(raw).to_bytes(4, "big") \
        + zlib.crc32(raw).to_bytes(4, "big") + raw


def test_entries_survive_reopening(tmp_path: Path, game: Table) -> None:
    path = tmp_path / "g.game"
    _write(path, game.files[1])
    with GameFile(path) as again:
        assert again.entries == game.files[1]
        assert again.cut_bytes == 0


def test_a_torn_tail_at_every_byte_offset_reopens_to_the_last_whole_entry(
    tmp_path: Path, game: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # durability is not what this tests
    records = game.files[1][-3:]
    path = tmp_path / "g.game"
    _write(path, records)
    data = path.read_bytes()
    whole = len(data) - (_RECORD_HEADER.size + len(records[-1]))
    extra = _chat(text="after the crash").raw
    for cut in range(whole, len(data)):
        path.write_bytes(data[:cut])
        with GameFile(path) as reopened:
            assert reopened.entries == records[:-1]
            assert reopened.cut_bytes == cut - whole
            reopened.append(extra)
        with GameFile(path) as again:
            assert again.entries == [*records[:-1], extra]
            assert again.cut_bytes == 0


def test_a_corrupt_last_record_is_cut(tmp_path: Path, game: Table) -> None:
    path = tmp_path / "g.game"
    _write(path, game.files[1][:4])
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF  # the CRC no longer matches
    path.write_bytes(bytes(data))
    with GameFile(path) as reopened:
        assert reopened.entries == game.files[1][:3]
    assert read_records(path.read_bytes()) == (game.files[1][:3], len(path.read_bytes()))


def test_a_file_without_the_magic_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.game"
    path.write_bytes(b"not a game file")
    with pytest.raises(DecodeError, match="not a p2p-burgundy game file"):
        GameFile(path)
    assert path.read_bytes() == b"not a game file"  # left alone
    with pytest.raises(DecodeError):
        read_records(b"nope")


def test_rewrite_replaces_the_records(tmp_path: Path, game: Table) -> None:
    path = tmp_path / "g.game"
    _write(path, game.files[1])
    canonical = [e.raw for e in game.sessions[1].canonical_entries()]
    with GameFile(path) as file:
        file.rewrite(canonical)
        file.append(_chat().raw)
    with GameFile(path) as again:
        assert again.entries == [*canonical, _chat().raw]


def test_a_rewrite_the_disk_refuses_leaves_the_file_and_its_records(
        tmp_path: Path, game: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.game"
    _write(path, game.files[1])
    before = path.read_bytes()

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with GameFile(path) as file:
        held = list(file.entries)
        with monkeypatch.context() as m:
            m.setattr(os, "fsync", full)
            with pytest.raises(OSError, match="No space left"):
                file.rewrite([e.raw for e in game.sessions[1].canonical_entries()])
        assert file.entries == held and path.read_bytes() == before
        file.append(_chat().raw)  # still open for appends
    with GameFile(path) as again:
        assert again.entries == [*held, _chat().raw]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.game"]  # no temporary left


def _rebuild(table: Table, seat: int, records: list[bytes]) -> Session:
    session = Session(table.start, table.ids[seat])
    for raw in records:
        if raw != table.start.raw:
            session.receive_entry(raw)
    return session


def test_a_session_rebuilt_from_its_reopened_file_reaches_the_same_state(
    tmp_path: Path, game: Table
) -> None:
    path = tmp_path / "g.game"
    _write(path, game.files[1])
    with GameFile(path) as reopened:
        rebuilt = _rebuild(game, 1, reopened.entries)
    assert state_hash(rebuilt.state) == state_hash(game.sessions[1].state)
    assert [len(c) for c in rebuilt.chains] == [len(c) for c in game.sessions[1].chains]
    assert rebuilt.turn_number == game.sessions[1].turn_number


def test_two_writers_of_one_file_each_leave_it_whole(tmp_path: Path) -> None:
    # Two processes saving one file at once (two clients of one data directory): under a
    # shared temporary name one renamed the other's half-written file, whose own rename then
    # failed.
    program = ("import sys; from pathlib import Path; "
               "from p2p_burgundy.net.log import write_atomically\n"
               "for _ in range(100): write_atomically(Path(sys.argv[1]), sys.argv[2].encode() "
               "* 200_000)")
    target = tmp_path / "settings.json"
    runs = [subprocess.Popen([sys.executable, "-c", program, str(target), mark],
                             stderr=subprocess.PIPE) for mark in "AB"]
    assert [run.communicate(timeout=120)[1] for run in runs] == [b"", b""]
    assert target.read_bytes() in (b"A" * 200_000, b"B" * 200_000)
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
