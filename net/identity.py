"""Ed25519 identities: signing, fingerprints, the table code, and the key file.

A player is their Ed25519 public key (32 bytes). Every signature is over a domain-separated
input (:func:`signing_input`), so a signature made for one purpose (say a log entry) can never
be passed off as one for another (say a discovery challenge). People compare keys through two
short renderings in Crockford's base32 alphabet (no i, l, o, u): a :func:`fingerprint` for one
key and a :func:`table_code` for a whole table, meant to be read aloud.

>>> alice = Identity.from_private_bytes(bytes.fromhex(
...     "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"))
>>> alice.public_key.hex()  # RFC 8032, test 1
'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a'
>>> signature = alice.sign(b"chat", b"hello")
>>> verify(alice.public_key, b"chat", b"hello", signature)
True
>>> verify(alice.public_key, b"turn", b"hello", signature)
False
"""

import hashlib
import os
from collections.abc import Iterable
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from .errors import KeyFileError, LocalProtocolError

SEED_SIZE = 32
PUBLIC_KEY_SIZE = 32
SIGNATURE_SIZE = 64

SIGNING_PREFIX = b"p2p-burgundy/v1\x00"
"""The first bytes of every signed input."""

ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base32 in lower case: digits and letters, never i, l, o or u."""
GROUP = 4  # characters in a group of a fingerprint or a table code
FINGERPRINT_GROUPS = 4  # 80 bits
TABLE_CODE_GROUPS = 3  # 60 bits

KEY_FILE_MAGIC = b"P2PB-KEY"
KEY_FILE_VERSION = 1
KEY_FILE_SIZE = len(KEY_FILE_MAGIC) + 1 + SEED_SIZE + PUBLIC_KEY_SIZE

_FINGERPRINT_LABEL = b"p2p-burgundy/v1/fingerprint\x00"
_TABLE_CODE_LABEL = b"p2p-burgundy/v1/table-code\x00"
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise write b"\n" as b"\r\n"


def signing_input(domain: bytes, message: bytes) -> bytes:
    """The exact bytes an Ed25519 signature covers.

    ``SIGNING_PREFIX``, then one byte giving the domain's length (1..255), the domain, and
    the message. The length byte keeps (b"ab", b"c...") and (b"a", b"bc...") apart.

    >>> signing_input(b"chat", b"hi")
    b'p2p-burgundy/v1\\x00\\x04chathi'
    """
    if not 1 <= len(domain) <= 255:
        raise LocalProtocolError(f"signing domain {domain!r} must be 1 to 255 bytes")
    return SIGNING_PREFIX + bytes([len(domain)]) + domain + message


class Identity:
    """An Ed25519 private key; make one with :meth:`generate` or :meth:`from_private_bytes`.

    The repr shows the fingerprint and never the secret.

    >>> Identity.from_private_bytes(bytes(32))
    <Identity 3qdc-npna-eg1w-xrym>
    """

    __slots__ = ("_key", "_public_key")

    def __init__(self, key: Ed25519PrivateKey) -> None:
        self._key = key
        self._public_key = key.public_key().public_bytes_raw()

    @classmethod
    def generate(cls) -> "Identity":
        """A new identity from ``os.urandom``."""
        return cls.from_private_bytes(os.urandom(SEED_SIZE))

    @classmethod
    def from_private_bytes(cls, seed: bytes) -> "Identity":
        """The identity whose 32-byte Ed25519 seed (RFC 8032 private key) is ``seed``.

        >>> Identity.from_private_bytes(bytes(32)).public_key.hex()[:16]
        '3b6a27bcceb6a42d'
        """
        if len(seed) != SEED_SIZE:
            raise LocalProtocolError(f"an Ed25519 seed is {SEED_SIZE} bytes, not {len(seed)}")
        return cls(Ed25519PrivateKey.from_private_bytes(seed))

    @property
    def public_key(self) -> bytes:
        """The 32-byte Ed25519 public key."""
        return self._public_key

    def sign(self, domain: bytes, message: bytes) -> bytes:
        """Sign ``message`` for ``domain``; return the 64-byte signature.

        Ed25519 is deterministic: the same key, domain and message give the same signature.

        >>> Identity.from_private_bytes(bytes(32)).sign(b"chat", b"hi").hex()[:16]
        '89a8fee403907311'
        """
        return self._key.sign(signing_input(domain, message))

    def exchange_key(self) -> X25519PrivateKey:
        """This identity's X25519 key for key agreement: the Ed25519 key's scalar (the first
        half of SHA-512 of its seed, as libsodium converts it), so that anyone who holds our
        Ed25519 public key holds the matching X25519 public key
        (:func:`~p2p_burgundy.net.pairwise.exchange_public`)."""
        scalar = hashlib.sha512(self._key.private_bytes_raw()).digest()[:32]
        return X25519PrivateKey.from_private_bytes(scalar)

    def __repr__(self) -> str:
        return f"<Identity {fingerprint(self._public_key)}>"


def verify(public_key: bytes, domain: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s signature of ``message`` for ``domain``.

    Never raises for bytes arguments: wrong lengths are just False.

    >>> verify(bytes(32), b"chat", b"hi", bytes(64))
    False
    """
    if (
        len(public_key) != PUBLIC_KEY_SIZE
        or len(signature) != SIGNATURE_SIZE
        or not 1 <= len(domain) <= 255
    ):
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(public_key)
        key.verify(signature, signing_input(domain, message))
    except (InvalidSignature, ValueError):  # ValueError: a backend may refuse a bad point
        return False
    return True


def _render(digest: bytes, groups: int) -> str:
    """The first ``5 * GROUP * groups`` bits of ``digest``, ``GROUP`` characters a group,
    joined by '-'."""
    chars = GROUP * groups
    bits = int.from_bytes(digest, "big") >> (8 * len(digest) - 5 * chars)
    text = "".join(ALPHABET[(bits >> (5 * (chars - 1 - i))) & 31] for i in range(chars))
    return "-".join(text[i : i + GROUP] for i in range(0, chars, GROUP))


def _check_public_key(public_key: bytes) -> None:
    if len(public_key) != PUBLIC_KEY_SIZE:
        raise LocalProtocolError(
            f"an Ed25519 public key is {PUBLIC_KEY_SIZE} bytes, not {len(public_key)}"
        )


def fingerprint(public_key: bytes) -> str:
    """A short name for a key: 80 bits of SHA-256(label, key) as 4 groups of 4 characters.

    >>> fingerprint(bytes.fromhex(
    ...     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"))
    '6r9h-etv0-q9se-9prt'
    """
    _check_public_key(public_key)
    return _render(hashlib.sha256(_FINGERPRINT_LABEL + public_key).digest(),
                   FINGERPRINT_GROUPS)


def is_fingerprint(text: str) -> bool:
    """Whether ``text`` has the form of a :func:`fingerprint` (what an announcement claims).

    >>> is_fingerprint("6r9h-etv0-q9se-9prt"), is_fingerprint("6r9h-etv0-q9se-9prt\\n")
    (True, False)
    """
    groups = text.split("-")
    return len(groups) == FINGERPRINT_GROUPS and all(
        len(g) == GROUP and all(c in ALPHABET for c in g) for g in groups)


def table_code(game_id: bytes, public_keys: Iterable[bytes]) -> str:
    """The code players read aloud to check they sit at the same table with the same people.

    60 bits of SHA-256(label, game id, keys in ascending byte order) as 3 groups of 4
    characters; the order in which the keys are given does not matter.

    >>> keys = [bytes([1]) * 32, bytes([2]) * 32]
    >>> table_code(b"game-1", keys) == table_code(b"game-1", keys[::-1])
    True
    >>> table_code(b"game-1", keys)
    'etwq-24xw-s4pp'
    """
    if not 1 <= len(game_id) <= 255:
        raise LocalProtocolError(f"a game id is 1 to 255 bytes, not {len(game_id)}")
    keys = sorted(public_keys)
    if not keys:
        raise LocalProtocolError("a table has at least one player")
    for key in keys:
        _check_public_key(key)
    if len(set(keys)) != len(keys):
        raise LocalProtocolError("a key appears twice at the table")
    digest = hashlib.sha256(
        _TABLE_CODE_LABEL + bytes([len(game_id)]) + game_id + b"".join(keys)
    ).digest()
    return _render(digest, TABLE_CODE_GROUPS)


def data_dir() -> Path:
    """The directory for this user's key and logs.

    ``$P2P_BURGUNDY_HOME`` if set (to run several peers on one machine); otherwise
    ``%APPDATA%\\p2p-burgundy`` on Windows and ``$XDG_DATA_HOME/p2p-burgundy`` (by default
    ``~/.local/share/p2p-burgundy``) elsewhere.
    """
    if home := os.environ.get("P2P_BURGUNDY_HOME"):
        return Path(home)
    if os.name == "nt":
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else Path.home() / "AppData" / "Roaming") / "p2p-burgundy"
    xdg = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says to ignore a relative XDG_DATA_HOME.
    base = Path(xdg) if os.path.isabs(xdg) else Path.home() / ".local" / "share"
    return base / "p2p-burgundy"


def key_path(home: Path | None = None) -> Path:
    """Where the identity key lives: ``identity.key`` in ``home`` (default :func:`data_dir`)."""
    return (home or data_dir()) / "identity.key"


def load_or_create(path: Path) -> Identity:
    """Load the identity stored at ``path``, or create one there if there is no file.

    The file is ``KEY_FILE_MAGIC``, a version byte, the 32-byte seed and the 32-byte public
    key (which lets a damaged seed be detected), created with mode 0600. Raises
    :class:`KeyFileError` for a file that is corrupt or that other users may access.
    """
    try:
        return _load(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    identity = Identity.generate()
    content = (
        KEY_FILE_MAGIC
        + bytes([KEY_FILE_VERSION])
        + identity._key.private_bytes_raw()
        + identity.public_key
    )
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    temporary.unlink(missing_ok=True)  # left behind by a crashed run that had our pid
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, 0o600)
    try:
        with os.fdopen(fd, "wb") as file:
            file.write(content)
            file.flush()
            os.fsync(file.fileno())
        # A hard link publishes the complete file atomically like os.replace, but never
        # overwrites: if another process created a key meanwhile, everyone uses that one.
        try:
            os.link(temporary, path)
        except FileExistsError:
            return _load(path)
    finally:
        temporary.unlink(missing_ok=True)
    _fsync_directory(path.parent)
    return identity


def _load(path: Path) -> Identity:
    with open(path, "rb") as file:
        mode = os.fstat(file.fileno()).st_mode
        # Windows has no such mode bits; there the per-user profile directory protects it.
        if os.name != "nt" and mode & 0o077:
            raise KeyFileError(
                f"{path}: permissions {mode & 0o777:o} are too open for an identity key "
                f"(other users could sign as you); run: chmod 600 {path}"
            )
        content = file.read(KEY_FILE_SIZE + 1)
    magic, version = content[: len(KEY_FILE_MAGIC)], content[len(KEY_FILE_MAGIC) :][:1]
    if magic != KEY_FILE_MAGIC or not version:
        raise KeyFileError(f"{path}: not a p2p-burgundy identity key file")
    if version[0] != KEY_FILE_VERSION:
        raise KeyFileError(
            f"{path}: identity key file version {version[0]} is not supported "
            f"(this program reads version {KEY_FILE_VERSION})"
        )
    seed_start = len(KEY_FILE_MAGIC) + 1
    seed = content[seed_start : seed_start + SEED_SIZE]
    damaged = KeyFileError(
        f"{path}: the identity key file is damaged; restore it from a backup, "
        "or move it away to start over with a new identity"
    )
    if len(content) != KEY_FILE_SIZE:
        raise damaged
    identity = Identity.from_private_bytes(seed)
    if identity.public_key != content[seed_start + SEED_SIZE :]:
        raise damaged
    return identity


def _fsync_directory(directory: Path) -> None:
    """Make a new directory entry survive a power cut (POSIX; Windows cannot open a dir)."""
    if os.name == "nt":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
