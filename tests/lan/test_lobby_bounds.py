"""The lobby's bounds and deadlines between real ``burgundy bot`` processes on loopback: a
member that falls silent (SIGSTOP: a throwaway key holding a seat) loses it and the start it
stalls is made without it, with a joiner that waited for a seat; the host of ``bot --host``
removes a member it names on its standard input."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from p2p_burgundy.net.identity import fingerprint, load_or_create
from p2p_burgundy.net.lobby import SILENT_AFTER, START_DEADLINE

from .procs import LOOPBACK, bots

OFF_LAN = ("--no-mdns", "--interface", LOOPBACK)

pytestmark = pytest.mark.slow


def _key(home: Path) -> bytes:
    home.mkdir(parents=True, exist_ok=True)
    return load_or_create(home / "identity.key").public_key


def test_a_member_that_falls_silent_loses_its_seat_and_the_others_play(tmp_path: Path
                                                                        ) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", *OFF_LAN])
        address = "{}:{}".format(*host.hosting()[:2])
        squatter = group.add(tmp_path / "squatter", [address, *OFF_LAN])
        # Seated: its interpreter started (seconds on a loaded machine), then a round trip or
        # two on loopback.
        squatter.wait_for_socket()
        time.sleep(1.0)
        assert squatter.proc is not None
        squatter.proc.send_signal(signal.SIGSTOP)
        stopped = time.monotonic()
        honest = [group.add(tmp_path / name, [address, *OFF_LAN]) for name in ("ann", "bob")]
        group.assert_all_ok(120, [*honest, host])
        # Dropped for its silence or for not accepting the start, whichever came first.
        assert time.monotonic() - stopped > min(SILENT_AFTER, START_DEADLINE) - 1
        squatter.kill()


def test_the_host_of_a_bot_removes_a_member_named_on_its_standard_input(tmp_path: Path
                                                                          ) -> None:
    key = _key(tmp_path / "joiner")
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", *OFF_LAN],
                         stdin=True)
        address = "{}:{}".format(*host.hosting()[:2])
        joiner = group.add(tmp_path / "joiner", [address, *OFF_LAN])
        deadline = time.monotonic() + 20
        while "removed" not in host.stdout:  # until it sat down
            assert time.monotonic() < deadline, group.report()
            host.type(f"remove {fingerprint(key)}")
            time.sleep(0.5)
        assert f"removed {fingerprint(key)} [{fingerprint(key)}] from the table" in host.stdout
        assert joiner.wait(10) == 1
        assert "the host refused: the host removed you from this table" in joiner.stderr
