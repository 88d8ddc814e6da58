"""Private network namespaces joined by veth pairs, for tests that need two "hosts".

:func:`namespaces` builds them (``ip netns add``, ``ip link add ... type veth peer ...``), gives
each end an address in a private test range (``10.231.N.0/24``, N from the process id so two
test runs do not collide), brings ``lo`` and the veth up, routes multicast (224.0.0.0/4, for
mDNS) over the veth, and always deletes everything on exit. Traffic never leaves the pair:
the namespaces have no other interface and no default route.

Needs root (or CAP_NET_ADMIN) and iproute2; :func:`unavailable` says why not, for a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass


@dataclass(frozen=True)
class Namespace:
    name: str
    interface: str
    address: str  # this end's address (no prefix length)


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def unavailable() -> str | None:
    """Why namespaces cannot be built here, or None if they can."""
    if shutil.which("ip") is None:
        return "iproute2 (`ip`) is not installed"
    if os.geteuid() != 0:
        return "building network namespaces needs root"
    probe = f"bgprobe{os.getpid() % 100000}"
    try:
        _ip("netns", "add", probe)
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        return f"`ip netns add` failed: {detail.decode(errors='replace').strip() or exc}"
    with suppress(subprocess.SubprocessError):
        _ip("netns", "del", probe)
    return None


@contextmanager
def namespaces(count: int = 2) -> Iterator[list[Namespace]]:
    """``count`` namespaces, the first joined to each other one by its own veth pair
    (a star: namespace 0 is the hub, like a host every other peer can reach)."""
    tag = os.getpid() % 100000
    subnet = 20 + os.getpid() % 200
    names = [f"bg{tag}n{i}" for i in range(count)]
    created: list[str] = []
    links: list[str] = []
    try:
        for name in names:
            _ip("netns", "add", name)
            created.append(name)
            _ip("-n", name, "link", "set", "lo", "up")
        spaces: list[Namespace] = []
        for i in range(1, count):
            hub_end, spoke_end = f"bg{tag}h{i}", f"bg{tag}s{i}"
            _ip("link", "add", hub_end, "type", "veth", "peer", "name", spoke_end)
            links.append(hub_end)
            # The hub end gets .1, .5, .9...: one /30 per pair keeps the routes apart.
            base = 4 * (i - 1)
            hub_addr, spoke_addr = f"10.231.{subnet}.{base + 1}", f"10.231.{subnet}.{base + 2}"
            for end, ns, address in ((hub_end, names[0], hub_addr),
                                     (spoke_end, names[i], spoke_addr)):
                _ip("link", "set", end, "netns", ns)
                _ip("-n", ns, "addr", "add", f"{address}/30", "dev", end)
                _ip("-n", ns, "link", "set", end, "up", "multicast", "on")
                _ip("-n", ns, "route", "add", "224.0.0.0/4", "dev", end)
            if i == 1:
                spaces.append(Namespace(names[0], hub_end, hub_addr))
            spaces.append(Namespace(names[i], spoke_end, spoke_addr))
        yield spaces
    finally:
        for name in created:  # deleting a namespace deletes the veth ends inside it
            subprocess.run(["ip", "netns", "del", name], capture_output=True, timeout=10)
        for link in links:  # in case one was never moved into a namespace
            subprocess.run(["ip", "link", "del", link], capture_output=True, timeout=10)
