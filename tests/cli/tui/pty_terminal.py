"""Drive the real ``burgundy`` program in a pseudo-terminal and read its screen with pyte.

Reads never sleep for a fixed time: :meth:`PtyTerminal.wait_for` reads with ``select()``
until the text appears or a deadline passes, and :meth:`PtyTerminal.wait_quiet` until the
program has sent nothing for a short while (after a resize, say).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import ClassVar

import pyte

KEYS = {
    "up": b"\x1bOA", "down": b"\x1bOB", "right": b"\x1bOC", "left": b"\x1bOD",
    "enter": b"\r", "esc": b"\x1b", "pgup": b"\x1b[5~", "pgdn": b"\x1b[6~",
    "backspace": b"\x7f",
}
"""What a ``screen`` terminal sends for these keys (keypad transmit mode)."""


class Screen(pyte.Screen):
    """pyte's screen plus SU/SD (``CSI n S``, ``CSI n T``: scroll the region without moving
    the cursor), which ncurses sends for ``TERM=screen`` (its ``indn``/``rin``) and
    pyte 0.8 does not know.

    Its :attr:`display` is kept until the screen changes: pyte builds it a character (and
    its width) at a time, and the waits read it after every read, most of the tests' own
    time."""

    _display: list[str] | None = None

    @property
    def display(self) -> list[str]:
        if self._display is None:
            self._display = super().display
        return list(self._display)

    def changed(self) -> None:
        """Something was drawn: the display is to be built again."""
        self._display = None

    def resize(self, lines: int | None = None, columns: int | None = None) -> None:
        super().resize(lines, columns)
        self.changed()

    def scroll_up(self, count: int = 1, *args: object, **kwargs: object) -> None:
        _, bottom = self.margins or pyte.screens.Margins(0, self.lines - 1)
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = bottom
        for _ in range(max(1, count)):
            self.index()
        self.cursor.x, self.cursor.y = x, y

    def scroll_down(self, count: int = 1, *args: object, **kwargs: object) -> None:
        top, _ = self.margins or pyte.screens.Margins(0, self.lines - 1)
        x, y = self.cursor.x, self.cursor.y
        self.cursor.y = top
        for _ in range(max(1, count)):
            self.reverse_index()
        self.cursor.x, self.cursor.y = x, y


class ByteStream(pyte.ByteStream):
    csi: ClassVar[dict[str, str]] = {**pyte.ByteStream.csi, "S": "scroll_up",
                                     "T": "scroll_down"}

    def __init__(self, screen: Screen) -> None:
        super().__init__(screen)
        self.screen = screen

    def feed(self, data: bytes) -> None:
        super().feed(data)
        self.screen.changed()


class PtyTerminal:
    """A program running on a pseudo-terminal of ``cols`` x ``rows``, with a pyte screen."""

    def __init__(self, argv: Sequence[str], home: Path, cols: int = 80, rows: int = 24,
                 env: dict[str, str] | None = None) -> None:
        self.master, slave = os.openpty()
        self._set_size(slave, cols, rows)
        environ = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS",
                                                                    "LINES")}
        environ.update({"TERM": "screen", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
                        "ESCDELAY": "25", "P2P_BURGUNDY_HOME": str(home),
                        "PYTHONUNBUFFERED": "1",
                        # a program that hangs shows where (see wait_exit)
                        "PYTHONFAULTHANDLER": "1"})
        environ.update(env or {})

        def controlling_tty() -> None:
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.proc = subprocess.Popen(
            list(argv), stdin=slave, stdout=slave, stderr=slave, env=environ,
            start_new_session=True, preexec_fn=controlling_tty, close_fds=True)
        os.close(slave)
        self.screen = Screen(cols, rows)
        self.stream = ByteStream(self.screen)
        self.output = bytearray()

    @staticmethod
    def _set_size(fd: int, cols: int, rows: int) -> None:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    # --- reading -------------------------------------------------------------------------

    def _read(self, timeout: float) -> bool:
        """Read what is there within ``timeout`` seconds; False on no data or end of output."""
        ready, _, _ = select.select([self.master], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            data = os.read(self.master, 65536)
        except OSError:  # EIO: the program closed the terminal
            return False
        if not data:
            return False
        self.output += data
        self.stream.feed(data)
        return True

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_until(self, done: Callable[[], bool], timeout: float = 10.0,
                   settle: float = 0.05) -> bool:
        """Read until ``done()`` holds once the frame is complete (no output for ``settle``
        seconds); False if it does not within ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            if done():
                while self._read(settle):  # the rest of this frame
                    pass
                if done():
                    return True
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (not self._read(remaining) and self.proc.poll() is not None):
                return done()

    def wait_for(self, text: str, timeout: float = 10.0) -> str:
        """Read until ``text`` is on the screen; fail showing the screen after ``timeout``."""
        if not self.wait_until(lambda: text in self.text, timeout):
            raise AssertionError(f"{text!r} did not appear within {timeout}s; "
                                 f"exit code {self.proc.poll()}; screen:\n{self.text}")
        return self.text

    def wait_quiet(self, quiet: float = 0.3, timeout: float = 10.0) -> str:
        """Read until nothing arrives for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self._read(quiet):
            pass
        return self.text

    # --- writing -------------------------------------------------------------------------

    def press(self, *keys: str) -> None:
        """Send keys: names from :data:`KEYS`, or literal text."""
        for key in keys:
            os.write(self.master, KEYS.get(key, key.encode()))

    def resize(self, cols: int, rows: int) -> None:
        """Change the window size as a terminal emulator does (TIOCSWINSZ, then SIGWINCH)."""
        self._set_size(self.master, cols, rows)
        self.screen.resize(rows, cols)
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.proc.pid, signal.SIGWINCH)

    def wait_exit(self, timeout: float = 10.0) -> int:
        """Read until the program exits; its exit code. If it is still running after
        ``timeout`` seconds, fail with the stack of each of its threads (SIGABRT makes
        Python's fault handler print them)."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.05)
        self._read(0.05)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGABRT)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(5)
            while self._read(0.1):
                pass
            output = self.output.decode(errors="replace")
            stacks = output[output.find("Fatal Python error"):]
            raise AssertionError(f"still running {timeout} s on; its threads:\n{stacks}")
        return self.proc.wait()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        os.close(self.master)


@contextlib.contextmanager
def burgundy(home: Path, *args: str, cols: int = 80, rows: int = 24,
             env: dict[str, str] | None = None) -> Iterator[PtyTerminal]:
    """``python -m p2p_burgundy.cli.main ARGS`` on a pseudo-terminal."""
    with running([sys.executable, "-m", "p2p_burgundy.cli.main", *args], home, cols=cols,
                 rows=rows, env=env) as term:
        yield term


@contextlib.contextmanager
def running(argv: Sequence[str], home: Path, *, cols: int = 80, rows: int = 24,
            env: dict[str, str] | None = None) -> Iterator[PtyTerminal]:
    """``argv`` on a pseudo-terminal (a command the program printed, split as a shell does:
    ``shlex.split``)."""
    term = PtyTerminal(argv, home, cols, rows, env)
    try:
        yield term
    finally:
        term.close()


PRINTED_PROGRAM = r"(?:\S+ -m p2p_burgundy\.cli\.main|\S*burgundy)"
"""How a printed command starts (:mod:`p2p_burgundy.cli.program`), as a regular expression."""
