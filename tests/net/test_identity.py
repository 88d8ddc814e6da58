import base64
import hashlib
import itertools
import os
import re
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given
from hypothesis import strategies as st

from p2p_burgundy.net import identity
from p2p_burgundy.net.errors import KeyFileError, LocalProtocolError
from p2p_burgundy.net.identity import Identity, fingerprint, table_code, verify

posix_only = pytest.mark.skipif(os.name == "nt", reason="POSIX file modes and paths")

# RFC 8032, section 7.1, test 1; the golden vectors below are pinned in docs/protocol.md too.
RFC_SEED = bytes.fromhex("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60")
RFC_PUBLIC_KEY = bytes.fromhex("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a")
GOLDEN_SIGNATURE = bytes.fromhex(
    "dbd02e90f4bd2b8865b4b6489d260720de7636b494934ca0d75a7247f8b05170"
    "46834c60a8494526bb075a878d4b2dd93c2d70a87740ea2a59f2858cb7db2e01"
)
GAME_ID = bytes.fromhex("00112233445566778899aabbccddeeff")
# The public keys of the seeds 01 * 32, 02 * 32, 03 * 32 and 04 * 32.
TABLE_KEYS = [
    bytes.fromhex("8a88e3dd7409f195fd52db2d3cba5d72ca6709bf1d94121bf3748801b40f6f5c"),
    bytes.fromhex("8139770ea87d175f56a35466c34c7ecccb8d8a91b4ee37a25df60f5b8fc9b394"),
    bytes.fromhex("ed4928c628d1c2c6eae90338905995612959273a5c63f93636c14614ac8737d1"),
    bytes.fromhex("ca93ac1705187071d67b83c7ff0efe8108e8ec4530575d7726879333dbdabe7c"),
]

_TO_CROCKFORD = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", identity.ALPHABET.encode())


def _crockford(data: bytes, chars: int) -> str:
    """An independent rendering through the standard library's base32."""
    text = base64.b32encode(data).translate(_TO_CROCKFORD).decode()[:chars]
    return "-".join(text[i : i + 4] for i in range(0, chars, 4))


def test_public_key_is_rfc_8032() -> None:
    assert Identity.from_private_bytes(RFC_SEED).public_key == RFC_PUBLIC_KEY
    for i, key in enumerate(TABLE_KEYS, start=1):
        assert Identity.from_private_bytes(bytes([i]) * 32).public_key == key


def test_signing_input_golden() -> None:
    assert identity.signing_input(b"log-entry", b"hello") == (
        b"p2p-burgundy/v1\x00" + b"\x09" + b"log-entry" + b"hello"
    )


def test_signature_golden_is_plain_ed25519_over_the_signing_input() -> None:
    signature = Identity.from_private_bytes(RFC_SEED).sign(b"log-entry", b"hello")
    assert signature == GOLDEN_SIGNATURE
    plain = Ed25519PrivateKey.from_private_bytes(RFC_SEED)
    assert plain.sign(b"p2p-burgundy/v1\x00\x09log-entryhello") == GOLDEN_SIGNATURE


def test_signature_verifies() -> None:
    assert verify(RFC_PUBLIC_KEY, b"log-entry", b"hello", GOLDEN_SIGNATURE)


def test_signature_does_not_verify_in_another_domain() -> None:
    assert not verify(RFC_PUBLIC_KEY, b"challenge", b"hello", GOLDEN_SIGNATURE)


def test_length_prefix_keeps_domain_and_message_apart() -> None:
    alice = Identity.from_private_bytes(RFC_SEED)
    signature = alice.sign(b"ab", b"c")
    assert verify(alice.public_key, b"ab", b"c", signature)
    assert not verify(alice.public_key, b"a", b"bc", signature)
    assert not verify(alice.public_key, b"abc", b"", signature)


def test_tampered_message_or_signature_does_not_verify() -> None:
    message = b"hello"
    for i in range(len(message)):
        tampered = message[:i] + bytes([message[i] ^ 1]) + message[i + 1 :]
        assert not verify(RFC_PUBLIC_KEY, b"log-entry", tampered, GOLDEN_SIGNATURE)
    assert not verify(RFC_PUBLIC_KEY, b"log-entry", message + b"!", GOLDEN_SIGNATURE)
    for i in (0, 31, 32, 63):
        bad = bytearray(GOLDEN_SIGNATURE)
        bad[i] ^= 0x80
        assert not verify(RFC_PUBLIC_KEY, b"log-entry", message, bytes(bad))


def test_another_key_does_not_verify() -> None:
    assert not verify(TABLE_KEYS[0], b"log-entry", b"hello", GOLDEN_SIGNATURE)


@pytest.mark.parametrize(
    ("public_key", "domain", "signature"),
    [
        (RFC_PUBLIC_KEY[:31], b"log-entry", GOLDEN_SIGNATURE),
        (RFC_PUBLIC_KEY + b"\x00", b"log-entry", GOLDEN_SIGNATURE),
        (RFC_PUBLIC_KEY, b"log-entry", GOLDEN_SIGNATURE[:63]),
        (RFC_PUBLIC_KEY, b"log-entry", GOLDEN_SIGNATURE + b"\x00"),
        (RFC_PUBLIC_KEY, b"", GOLDEN_SIGNATURE),
        (RFC_PUBLIC_KEY, b"x" * 256, GOLDEN_SIGNATURE),
        (bytes(32), b"log-entry", GOLDEN_SIGNATURE),
        (b"\xff" * 32, b"log-entry", GOLDEN_SIGNATURE),  # not a curve point
    ],
)
def test_verify_returns_false_for_bad_inputs(
    public_key: bytes, domain: bytes, signature: bytes
) -> None:
    assert verify(public_key, domain, b"hello", signature) is False


@given(st.binary(max_size=40), st.binary(max_size=3), st.binary(max_size=70))
def test_verify_never_raises_on_garbage(key: bytes, domain: bytes, signature: bytes) -> None:
    assert verify(key, domain, b"hello", signature) is False


@pytest.mark.parametrize("domain", [b"", b"x" * 256])
def test_sign_rejects_a_domain_of_bad_length(domain: bytes) -> None:
    with pytest.raises(LocalProtocolError, match="1 to 255 bytes"):
        Identity.from_private_bytes(RFC_SEED).sign(domain, b"hello")


def test_signing_is_deterministic_and_generate_makes_distinct_keys() -> None:
    alice = Identity.from_private_bytes(RFC_SEED)
    assert alice.sign(b"d", b"m") == alice.sign(b"d", b"m")
    one, two = Identity.generate(), Identity.generate()
    assert one.public_key != two.public_key
    assert verify(one.public_key, b"d", b"m", one.sign(b"d", b"m"))


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33)])
def test_from_private_bytes_rejects_a_seed_of_bad_length(seed: bytes) -> None:
    with pytest.raises(LocalProtocolError, match="32 bytes"):
        Identity.from_private_bytes(seed)


def test_repr_shows_the_fingerprint_not_the_seed() -> None:
    text = repr(Identity.from_private_bytes(RFC_SEED))
    assert text == "<Identity 6r9h-etv0-q9se-9prt>"
    assert RFC_SEED.hex()[:8] not in text


def test_fingerprint_golden() -> None:
    assert fingerprint(RFC_PUBLIC_KEY) == "6r9h-etv0-q9se-9prt"
    assert [fingerprint(key) for key in TABLE_KEYS] == [
        "06v4-x806-404f-kr4c",
        "5kz4-nx6y-d535-k722",
        "tmsf-1hms-nz50-m2df",
        "qe02-gmn3-stsb-phyv",
    ]


@given(st.binary(min_size=32, max_size=32))
def test_fingerprint_is_80_bits_of_labelled_sha256(key: bytes) -> None:
    digest = hashlib.sha256(b"p2p-burgundy/v1/fingerprint\x00" + key).digest()
    assert fingerprint(key) == _crockford(digest[:10], 16)
    assert re.fullmatch(r"[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}", fingerprint(key))


@pytest.mark.parametrize("key", [b"", bytes(31), bytes(33)])
def test_fingerprint_rejects_a_key_of_bad_length(key: bytes) -> None:
    with pytest.raises(LocalProtocolError, match="32 bytes"):
        fingerprint(key)


def test_table_code_golden() -> None:
    assert table_code(GAME_ID, TABLE_KEYS) == "c6pv-m0x6-e3gj"
    digest = hashlib.sha256(
        b"p2p-burgundy/v1/table-code\x00" + b"\x10" + GAME_ID + b"".join(sorted(TABLE_KEYS))
    ).digest()
    assert table_code(GAME_ID, TABLE_KEYS) == _crockford(digest[:8], 12)


def test_table_code_does_not_depend_on_key_order() -> None:
    codes = {table_code(GAME_ID, order) for order in itertools.permutations(TABLE_KEYS)}
    assert codes == {"c6pv-m0x6-e3gj"}
    assert table_code(GAME_ID, iter(TABLE_KEYS)) == "c6pv-m0x6-e3gj"


def test_table_code_changes_with_game_and_with_any_key() -> None:
    code = table_code(GAME_ID, TABLE_KEYS)
    assert table_code(GAME_ID[:-1], TABLE_KEYS) != code
    assert table_code(GAME_ID, TABLE_KEYS[:3]) != code
    assert table_code(GAME_ID, [*TABLE_KEYS[:3], RFC_PUBLIC_KEY]) != code


@pytest.mark.parametrize(
    ("game_id", "keys", "why"),
    [
        (b"", TABLE_KEYS, "game id"),
        (b"x" * 256, TABLE_KEYS, "game id"),
        (GAME_ID, [], "at least one"),
        (GAME_ID, [TABLE_KEYS[0], TABLE_KEYS[0]], "twice"),
        (GAME_ID, [bytes(31)], "32 bytes"),
    ],
)
def test_table_code_rejects_bad_input(game_id: bytes, keys: list[bytes], why: str) -> None:
    with pytest.raises(LocalProtocolError, match=why):
        table_code(game_id, keys)


# The key file.


def test_load_or_create_creates_a_private_file_and_then_loads_it(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "identity.key"
    created = identity.load_or_create(path)
    content = path.read_bytes()
    assert len(content) == identity.KEY_FILE_SIZE == 73
    assert content[:9] == b"P2PB-KEY\x01"
    assert content[41:] == created.public_key
    assert Identity.from_private_bytes(content[9:41]).public_key == created.public_key
    assert identity.load_or_create(path).public_key == created.public_key
    assert path.read_bytes() == content
    assert [p.name for p in path.parent.iterdir()] == ["identity.key"]  # no temporary left


@posix_only
def test_key_file_has_mode_0600(tmp_path: Path) -> None:
    path = tmp_path / "identity.key"
    old_umask = os.umask(0)  # even a permissive umask must not widen the file's mode
    try:
        identity.load_or_create(path)
    finally:
        os.umask(old_umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


@posix_only
@pytest.mark.parametrize("mode", [0o644, 0o640, 0o604, 0o660, 0o602])
def test_load_refuses_a_key_file_others_can_access(tmp_path: Path, mode: int) -> None:
    path = tmp_path / "identity.key"
    identity.load_or_create(path)
    path.chmod(mode)
    expected = f"permissions {mode:o} are too open.*chmod 600 {re.escape(str(path))}"
    with pytest.raises(KeyFileError, match=expected):
        identity.load_or_create(path)
    path.chmod(0o600)
    identity.load_or_create(path)


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda content: b"", "not a p2p-burgundy identity key"),
        (lambda content: b"P2PB-KEY", "not a p2p-burgundy identity key"),
        (lambda content: b"ssh-ed25519 AAAA" + content[16:], "not a p2p-burgundy identity key"),
        (lambda content: content[:8] + b"\x02" + content[9:], "version 2 is not supported"),
        (lambda content: content[:-1], "damaged"),
        (lambda content: content + b"\n", "damaged"),
        (lambda content: content[:20] + bytes([content[20] ^ 1]) + content[21:], "damaged"),
        (lambda content: content[:-1] + bytes([content[-1] ^ 1]), "damaged"),
    ],
)
def test_load_refuses_a_corrupt_key_file(
    tmp_path: Path, damage: Callable[[bytes], bytes], why: str
) -> None:
    path = tmp_path / "identity.key"
    identity.load_or_create(path)
    path.write_bytes(damage(path.read_bytes()))
    path.chmod(0o600)
    with pytest.raises(KeyFileError, match=why):
        identity.load_or_create(path)


def test_load_or_create_uses_the_key_another_process_wrote_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "identity.key"
    winner = identity.load_or_create(tmp_path / "winner.key")
    real_link = os.link

    def lose_the_race(source: Path, target: Path) -> None:
        real_link(tmp_path / "winner.key", target)
        real_link(source, target)  # raises FileExistsError, as the real race would

    monkeypatch.setattr(os, "link", lose_the_race)
    assert identity.load_or_create(path).public_key == winner.public_key
    assert sorted(p.name for p in tmp_path.iterdir()) == ["identity.key", "winner.key"]


@posix_only
def test_key_path_prefers_p2p_burgundy_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("P2P_BURGUNDY_HOME", str(tmp_path / "peer-2"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert identity.key_path() == tmp_path / "peer-2" / "identity.key"


@posix_only
def test_key_path_follows_xdg_data_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("P2P_BURGUNDY_HOME", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert identity.data_dir() == tmp_path / "xdg" / "p2p-burgundy"
    assert identity.key_path() == tmp_path / "xdg" / "p2p-burgundy" / "identity.key"


@posix_only
@pytest.mark.parametrize("xdg", [None, "", "relative/dir"])
def test_key_path_falls_back_to_local_share(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xdg: str | None
) -> None:
    monkeypatch.delenv("P2P_BURGUNDY_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    expected = tmp_path / ".local" / "share" / "p2p-burgundy" / "identity.key"
    assert identity.key_path() == expected


@pytest.mark.skipif(os.name != "nt", reason="Windows paths")
def test_key_path_uses_appdata_on_windows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("P2P_BURGUNDY_HOME", raising=False)
    monkeypatch.setenv("APPDATA", str(tmp_path))
    assert identity.key_path() == tmp_path / "p2p-burgundy" / "identity.key"
