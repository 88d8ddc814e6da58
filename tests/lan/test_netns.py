"""Peers on two "hosts": network namespaces joined by a veth pair (see ``tests/lan/netns.py``).

The host bot runs in one namespace, the joiner in the other; the joiner finds the table by
real mDNS across the veth (it is given only the host's fingerprint) and they play a whole
2-player game. Each bot binds and announces only on its veth address, and the namespaces
have no other way out, so no traffic reaches anything but the two test ends.
Skipped, with the reason, where namespaces cannot be built (not root, no iproute2).
"""

from __future__ import annotations

import subprocess
import time
from ipaddress import ip_interface
from pathlib import Path

import pytest

from .netns import namespaces, unavailable
from .procs import bots
from .test_processes import wait_for_records

pytestmark = pytest.mark.slow

WHY_NOT = unavailable()


@pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
def test_bots_in_two_namespaces_find_each_other_by_mdns_and_finish(tmp_path: Path) -> None:
    with namespaces(2) as (a, b), bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "2",
                                             "--interface", a.address], netns=a.name)
        address, _, fp = host.hosting()
        assert address == a.address
        joiner = group.add(tmp_path / "joiner", [fp, "--interface", b.address], netns=b.name)
        group.assert_all_ok(120)
        assert host.game_bytes() == joiner.game_bytes()
        assert "game over" in joiner.stdout


@pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")
def test_a_route_lost_for_seconds_mid_game_loses_nothing(tmp_path: Path) -> None:
    """The host's only route goes away mid-game: its sends fail ("network unreachable") for
    three seconds, then the route comes back and the game finishes on both sides."""
    with namespaces(2) as (a, b), bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "2", "--no-mdns",
                                             "--interface", a.address], netns=a.name)
        address, port, _ = host.hosting()
        joiner = group.add(tmp_path / "joiner", [f"{address}:{port}", "--no-mdns",
                                                 "--interface", b.address], netns=b.name)
        wait_for_records(joiner, 12)  # START, reveals and the first turns: the game is on
        route = ["ip", "-n", a.name, "route", "{}", str(ip_interface(f"{a.address}/30").network),
                 "dev", a.interface]
        subprocess.run([w.format("del") for w in route], check=True, timeout=10)
        time.sleep(3)
        subprocess.run([w.format("add") for w in route], check=True, timeout=10)
        group.assert_all_ok(120)
        assert host.game_bytes() == joiner.game_bytes()
        assert "sending failed: Network is unreachable" in host.stderr
