"""The files a user names on the command line, read with a size cap and never blocking.

A path given as input may be anything: a folder, a named pipe (whose ``open`` blocks until
a writer comes), a device (``/dev/zero`` never ends), a sparse file of gigabytes. Each is
refused with a sentence saying what it is, before a byte is read: the file is opened
without blocking, checked to be a regular file of at most ``limit`` bytes, and read to at
most ``limit + 1`` bytes (a file that grew since is refused too).

>>> read_input(Path("/dev/null"), limit=10)
Traceback (most recent call last):
...
p2p_burgundy.cli.files.InputFileError: [Errno 22] not a regular file (a device or a named pipe)
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path

from p2p_burgundy.net.log import write_atomically

MAX_GAME_FILE = 64 * 1024 * 1024
"""A game file's size cap: a 4-player game's log is well under a megabyte."""
MAX_JSON_FILE = 4 * 1024 * 1024
"""The size cap of the JSON files a user writes or exports (a board, a turns file)."""

class InputFileError(OSError):
    """A named file that is not read: what it is (``strerror`` is the sentence)."""


def read_input(path: Path, *, limit: int) -> bytes:
    """The bytes of the regular file ``path``; OSError (an :class:`InputFileError` for a
    folder, a pipe, a device or a file over ``limit`` bytes) if it cannot or must not be
    read."""
    fd = _open_regular(path, limit)
    try:
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > limit:
        raise InputFileError(errno.EFBIG, _too_big(len(data), limit))
    return data


def check_input(path: Path, *, limit: int) -> None:
    """Raise what :func:`read_input` would for ``path``, without reading it."""
    os.close(_open_regular(path, limit))


def read_start(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (fewer if it is shorter);
    OSError as :func:`read_input`."""
    fd = _open_regular(path, None)
    try:
        return os.read(fd, size)
    finally:
        os.close(fd)


def _open_regular(path: Path, limit: int | None) -> int:
    """A descriptor open for reading on ``path``, a regular file of at most ``limit``
    bytes (opened without blocking: a named pipe's open waits for a writer)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except IsADirectoryError:
        raise InputFileError(errno.EISDIR, "a folder, not a file") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(errno.EISDIR, "a folder, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise InputFileError(errno.EINVAL, "not a regular file (a device or a named pipe)")
        if limit is not None and info.st_size > limit:
            raise InputFileError(errno.EFBIG, _too_big(info.st_size, limit))
    except BaseException:
        os.close(fd)
        raise
    return fd


def _too_big(size: int, limit: int) -> str:
    return f"too big ({size} bytes; at most {limit} are read)"


def read_json(path: Path, *, limit: int = MAX_JSON_FILE) -> object:
    """The JSON document in ``path``; OSError if it cannot be read, ValueError (one line)
    if it is not UTF-8 JSON or is nested too deeply to parse."""
    data = read_input(path, limit=limit)
    try:
        return json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ValueError("not JSON: not UTF-8 text") from None
    except RecursionError:
        raise ValueError("not JSON this program reads: nested too deeply") from None
    except ValueError as exc:
        raise ValueError(f"not JSON: {exc}") from None


__all__ = ["MAX_GAME_FILE", "MAX_JSON_FILE", "InputFileError", "check_input", "read_input",
           "read_json", "read_start", "write_atomically"]
