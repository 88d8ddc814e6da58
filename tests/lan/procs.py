"""Headless ``burgundy bot`` processes for the real-socket tests.

Each bot runs as ``python -m p2p_burgundy.cli.main bot --home DIR ...`` (optionally inside a
network namespace, through ``ip netns exec``), with its output in ``DIR/stdout`` and
``DIR/stderr`` so a failing test can show them. Every helper has a deadline; :class:`Bots`
kills whatever is still running when the test ends.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from p2p_burgundy.cli.loopback import LOOPBACK
from p2p_burgundy.net.errors import DecodeError
from p2p_burgundy.net.log import decode_entry, read_records

BOT_TIMEOUT = 150  # seconds a bot gives the game before it gives up (exit 1)


def free_udp_port(host: str = LOOPBACK) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def burgundy(*args: str) -> list[str]:
    """The command line of ``burgundy ARGS`` with this interpreter."""
    return [sys.executable, "-m", "p2p_burgundy.cli.main", *args]


class Bot:
    """One ``burgundy bot`` process."""

    def __init__(self, home: Path, args: Sequence[str], *, netns: str | None = None,
                 seed: int = 1, name: str | None = None, stdin: bool = False) -> None:
        """``stdin``: a pipe the test writes to (:meth:`type`), else nothing to read."""
        self.home = home
        self.stdin = stdin
        self.args = list(args)
        self.netns = netns
        self.seed = seed
        self.name = name or home.name
        home.mkdir(parents=True, exist_ok=True)
        self.runs = 0
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self, args: Sequence[str] | None = None) -> None:
        """(Re)start the process, with ``args`` instead of the first ones if given."""
        self.runs += 1
        command = burgundy("bot", "--home", str(self.home), "--strategy", "random",
                           "--seed", str(self.seed * 100 + self.runs), "--name", self.name,
                           "--timeout", str(BOT_TIMEOUT),
                           *(self.args if args is None else args))
        if self.netns is not None:
            command = ["ip", "netns", "exec", self.netns, *command]
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("P2P_BURGUNDY_HOME", None)
        with open(self.home / "stdout", "ab") as out, open(self.home / "stderr", "ab") as err:
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=err, env=env,
                stdin=subprocess.PIPE if self.stdin else subprocess.DEVNULL)

    def type(self, line: str) -> None:
        """Write ``line`` to the bot's standard input (it must have been opened with one)."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    @property
    def stdout(self) -> str:
        return (self.home / "stdout").read_text(errors="replace")

    @property
    def stderr(self) -> str:
        return (self.home / "stderr").read_text(errors="replace")

    def wait_for_output(self, pattern: str, timeout: float = 20.0) -> re.Match[str]:
        """Wait until stdout matches ``pattern``; AssertionError (with the output) if not."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = re.search(pattern, self.stdout)
            if match:
                return match
            assert self.proc is not None
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no {pattern!r} in the output\n{self.report()}")

    def wait_for_socket(self, timeout: float = 30.0) -> None:
        """Wait until the process holds a UDP socket: it has started (Python's start-up takes
        seconds on a loaded machine) and bound its port; a joiner asks its host at once."""
        assert self.proc is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.proc.poll() is None:
            with contextlib.suppress(OSError):  # a descriptor closed while we looked
                fds = Path(f"/proc/{self.proc.pid}/fd")
                inodes = {os.readlink(fd)[len("socket:["):-1] for fd in fds.iterdir()
                          if os.readlink(fd).startswith("socket:[")}
                table = Path(f"/proc/{self.proc.pid}/net/udp").read_text().splitlines()[1:]
                if any(line.split()[9] in inodes for line in table):
                    return
            time.sleep(0.05)
        raise AssertionError(f"{self.name}: no UDP socket within {timeout} s\n{self.report()}")

    def hosting(self) -> tuple[str, int, str]:
        """Host, port and fingerprint from a hosting bot's first line."""
        match = self.wait_for_output(r"hosting at ([\d.]+):(\d+) \[([0-9a-z-]+)\]")
        return match.group(1), int(match.group(2)), match.group(3)

    def wait(self, timeout: float) -> int:
        assert self.proc is not None
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"{self.name} still running after {timeout} s\n"
                                 f"{self.report()}") from None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)
            self.proc.wait(10)

    def game_files(self) -> list[Path]:
        return sorted((self.home / "games").glob("*.game"))

    def game_bytes(self) -> bytes:
        files = self.game_files()
        assert len(files) == 1, f"{self.name}: game files {files}"
        return files[0].read_bytes()

    def records(self) -> list[bytes]:
        files = self.game_files()
        if not files:
            return []
        try:
            return read_records(files[0].read_bytes())[0]
        except DecodeError:  # just created: not even the magic written yet
            return []

    def report(self) -> str:
        code = None if self.proc is None else self.proc.poll()
        return (f"--- {self.name} (exit {code}) stdout:\n{self.stdout[-3000:]}\n"
                f"--- stderr:\n{self.stderr[-3000:]}")


class Bots:
    """The bots of one test; on exit, kills those still running (by their own pid)."""

    def __init__(self) -> None:
        self.bots: list[Bot] = []

    def add(self, home: Path, args: Sequence[str], **kwargs: object) -> Bot:
        bot = Bot(home, args, seed=len(self.bots) + 1, **kwargs)  # type: ignore[arg-type]
        self.bots.append(bot)
        return bot

    def wait_all(self, timeout: float) -> list[int]:
        deadline = time.monotonic() + timeout
        return [b.wait(max(0.1, deadline - time.monotonic())) for b in self.bots]

    def assert_all_ok(self, timeout: float, bots: Sequence[Bot] | None = None) -> None:
        deadline = time.monotonic() + timeout
        for b in bots if bots is not None else self.bots:
            code = b.wait(max(0.1, deadline - time.monotonic()))
            assert code == 0, f"{b.name} exited {code}\n{self.report()}"

    def report(self) -> str:
        return "\n".join(b.report() for b in self.bots)

    def close(self) -> None:
        for b in self.bots:
            b.kill()


@contextmanager
def bots() -> Iterator[Bots]:
    group = Bots()
    try:
        yield group
    finally:
        group.close()


def entries_by(records: Sequence[bytes], author: bytes) -> list[bytes]:
    """The raw entries of ``author`` in a list of records."""
    return [r for r in records if decode_entry(r).author == author]


def start_entry(records: Sequence[bytes]) -> bytes:
    return records[0]


def seat_keys(records: Sequence[bytes]) -> list[bytes]:
    """The seats' public keys, from the START entry (the first record of a game file)."""
    start = decode_entry(records[0])
    return [seat[0] for seat in start.payload[2]]  # type: ignore[index]  (table id, config, roster)
