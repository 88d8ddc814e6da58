"""Run ``burgundy`` in a forked child of the test process: a real process (its own file
descriptors, environment, permissions and exit status) without the second of start-up
each fresh interpreter costs, so that a corpus of a hundred command lines runs in seconds.

The child starts as the interpreter would with the same descriptors: ``sys.stdin`` (or
``sys.stdout``, ``sys.stderr``) is None when its descriptor is closed. As root it drops
the capabilities that let root read and write any file, so that an unreadable file and a
read-only folder are what they are for everyone else.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import signal
import sys
import time
import traceback
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from p2p_burgundy.cli.main import main

TRACEBACK_EXIT = 99
"""The child's exit status when ``main`` raised (the traceback is on its stderr)."""

_CAP_DAC_OVERRIDE, _CAP_DAC_READ_SEARCH = 1, 2


@dataclass(frozen=True)
class Run:
    """How a run ended: its exit status (None: it did not end in time) and its output."""

    argv: tuple[str, ...]
    code: int | None
    out: str
    err: str

    def __str__(self) -> str:
        return (f"burgundy {' '.join(self.argv)}: exit {self.code}\nstdout: {self.out[-800:]}\n"
                f"stderr: {self.err[-1500:]}")


@dataclass(frozen=True)
class Case:
    """A command line and what its process starts with: ``stdin`` and ``stdout`` are a path
    to open, or None for a closed descriptor; ``env`` is added to (None: removes) the
    environment."""

    argv: Sequence[str]
    stdin: str | None = os.devnull
    stdout: str | None = "capture"
    env: Mapping[str, str | None] | None = None


def run_all(cases: Sequence[Case], work: Path, *, timeout: float = 30.0,
            parallel: int = 4) -> list[Run]:
    """Run every case in a forked child, ``parallel`` at a time; a child still running
    after ``timeout`` seconds is killed and reported with code None."""
    results: list[Run | None] = [None] * len(cases)
    running: dict[int, tuple[int, float]] = {}  # pid -> (case index, deadline)
    pending = list(range(len(cases)))
    while pending or running:
        while pending and len(running) < parallel:
            index = pending.pop(0)
            pid = _start(cases[index], work / f"case{index}")
            running[pid] = (index, time.monotonic() + timeout)
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            time.sleep(0.01)
            now = time.monotonic()
            for late, (index, deadline) in list(running.items()):
                if now > deadline:
                    os.kill(late, signal.SIGKILL)
                    os.waitpid(late, 0)
                    del running[late]
                    results[index] = _result(cases[index], work / f"case{index}", None)
            continue
        index, _ = running.pop(pid)
        results[index] = _result(cases[index], work / f"case{index}",
                                 os.waitstatus_to_exitcode(status))
    return [r for r in results if r is not None]


def _result(case: Case, folder: Path, code: int | None) -> Run:
    def text(name: str) -> str:
        path = folder / name
        return path.read_text(errors="replace") if path.exists() else ""
    return Run(tuple(case.argv), code, text("out"), text("err"))


def _start(case: Case, folder: Path) -> int:
    folder.mkdir(parents=True)
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid:
        return pid
    code = TRACEBACK_EXIT
    try:
        code = _child(case, folder)
    except BaseException:  # the child reports everything, and exits
        with contextlib.suppress(BaseException):
            os.write(2, traceback.format_exc().encode())
    finally:
        os._exit(code)


def _child(case: Case, folder: Path) -> int:
    err = os.open(folder / "err", os.O_WRONLY | os.O_CREAT, 0o644)
    os.dup2(err, 2)
    if case.stdout == "capture":
        os.dup2(os.open(folder / "out", os.O_WRONLY | os.O_CREAT, 0o644), 1)
    elif case.stdout is not None:
        os.dup2(os.open(case.stdout, os.O_WRONLY), 1)
    if case.stdin is not None:
        os.dup2(os.open(case.stdin, os.O_RDONLY), 0)
    for fd, given in ((0, case.stdin), (1, case.stdout)):
        if given is None:
            os.close(fd)
    sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False)) \
        if case.stdin is not None else None  # type: ignore[assignment]
    sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), write_through=True) \
        if case.stdout is not None else None  # type: ignore[assignment]
    sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), write_through=True)
    for name, value in (case.env or {}).items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    signal.signal(signal.SIGINT, signal.default_int_handler)
    if os.geteuid() == 0:
        _drop_root_file_access()
    return main(list(case.argv))


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def _drop_root_file_access() -> None:
    """Clear CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from this process's capabilities:
    file permissions then hold for it as for any user."""
    libc = ctypes.CDLL(None, use_errno=True)
    header = _CapHeader(0x20080522, 0)  # _LINUX_CAPABILITY_VERSION_3
    data = (_CapData * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capget")
    mask = ~((1 << _CAP_DAC_OVERRIDE) | (1 << _CAP_DAC_READ_SEARCH)) & 0xFFFFFFFF
    data[0].effective &= mask
    data[0].permitted &= mask
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "capset")
