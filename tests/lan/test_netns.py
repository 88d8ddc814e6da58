"""Peers on two "hosts": network namespaces joined by a veth pair (see ``tests/lan/netns.py``).

The host bot runs in one namespace, the joiner in the other; the joiner finds the table by
real mDNS across the veth (it is given only the host's fingerprint) and they play a whole
2-player game. Each bot binds and announces only on its veth address, and the namespaces
have no other way out, so no traffic reaches anything but the two test ends.
Skipped, with the reason, where namespaces cannot be built (not root, no iproute2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .netns import namespaces, unavailable
from .procs import bots

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
