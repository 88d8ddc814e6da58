"""Beyond one LAN: two network namespaces that reach each other only through a WireGuard
tunnel (the veth between them carries nothing but its encrypted UDP) play a game by address
and verify it. The tunnel is the kernel's WireGuard where it has one, else wireguard-go's
(userspace); skipped, with the reason, where neither can be had, the `wg` tool is missing
(tools/install_test_tools.sh, in the README's test command, installs both where apt-get can),
or namespaces cannot be built (not root)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from .netns import namespaces, wireguard, wireguard_unavailable
from .procs import bots, burgundy

WHY_NOT = wireguard_unavailable()

pytestmark = [pytest.mark.slow, pytest.mark.skipif(WHY_NOT is not None, reason=WHY_NOT or "")]


def test_a_game_by_address_through_a_wireguard_tunnel_finishes_and_verifies(tmp_path: Path
                                                                             ) -> None:
    with namespaces(2) as (a, b), wireguard(a, b, str(tmp_path)) as (host_ip, joiner_ip), \
            bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "2", "--no-mdns",
                                             "--interface", host_ip], netns=a.name)
        address, port, _ = host.hosting()
        assert address == host_ip
        joiner = group.add(tmp_path / "joiner", [f"{address}:{port}", "--no-mdns",
                                                 "--interface", joiner_ip], netns=b.name)
        group.assert_all_ok(120)
        assert host.game_bytes() == joiner.game_bytes()
        [game] = joiner.game_files()
        verified = subprocess.run(burgundy("verify", str(game)), capture_output=True,
                                  text=True, timeout=120)
        assert verified.returncode == 0, verified.stdout + verified.stderr
