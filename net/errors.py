"""The protocol layer's one error hierarchy.

Every error the layer raises on purpose is a :class:`ProtocolError`. As in h11, blame is part
of the type: :class:`LocalProtocolError` means we misused the API, :class:`RemoteProtocolError`
means a peer misbehaved, and :class:`DecodeError` means some bytes were malformed (wherever
they came from: a datagram, a log file).
"""


class ProtocolError(Exception):
    """Base class of every error raised on purpose by ``p2p_burgundy.net``."""


class DecodeError(ProtocolError):
    """Malformed input bytes; the single error type every decoder raises on bad data."""


class VersionError(DecodeError):
    """A message, entry or game file of another protocol version (the message says which)."""


class LocalProtocolError(ProtocolError):
    """The caller misused the API (a bug on our side, not the peer's)."""


class KeyFileError(ProtocolError):
    """The identity key file is unsafe or corrupt; the message says how to fix it."""


class AddressError(ProtocolError):
    """An address we cannot send to: a host name that does not resolve."""


class RemoteProtocolError(ProtocolError):
    """A peer misbehaved; names the author and sequence number when a message is to blame.

    >>> str(RemoteProtocolError("bad signature", author=bytes(range(32)), seq=7))
    'bad signature (author 0001020304050607…, seq 7)'
    """

    def __init__(
        self, message: str, *, author: bytes | None = None, seq: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.author = author
        self.seq = seq

    def __str__(self) -> str:
        # A hex prefix rather than a fingerprint: the author may be a malformed key.
        where = []
        if self.author is not None:
            where.append(f"author {self.author[:8].hex()}…")
        if self.seq is not None:
            where.append(f"seq {self.seq}")
        return f"{self.message} ({', '.join(where)})" if where else self.message
