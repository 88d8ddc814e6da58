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
import time
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


def _kernel_wireguard_unavailable() -> str | None:
    """Why the kernel cannot make a WireGuard interface here, or None if it can."""
    probe = f"bgwg{os.getpid() % 100000}"
    try:
        _ip("link", "add", probe, "type", "wireguard")
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        return ("the kernel has no WireGuard (`ip link add type wireguard`: "
                f"{detail.decode(errors='replace').strip() or exc})")
    with suppress(subprocess.SubprocessError):
        _ip("link", "del", probe)
    return None


def wireguard_unavailable() -> str | None:
    """Why a WireGuard tunnel cannot be built between namespaces here, or None if it can:
    in the kernel, or else with wireguard-go (WireGuard in userspace, on a TUN device)."""
    why = unavailable()
    if why is not None:
        return why
    if shutil.which("wg") is None:
        return ("the `wg` tool (wireguard-tools) is not installed "
                "(tools/install_test_tools.sh installs it where apt-get can)")
    kernel = _kernel_wireguard_unavailable()
    if kernel is None:
        return None
    if shutil.which("wireguard-go") is None:
        return (f"{kernel}, and wireguard-go is not installed "
                "(tools/install_test_tools.sh installs it where apt-get can)")
    if not os.path.exists("/dev/net/tun"):
        return f"{kernel}, and there is no /dev/net/tun for wireguard-go"
    return None


@contextmanager
def wireguard(a: Namespace, b: Namespace, directory: str) -> Iterator[tuple[str, str]]:
    """A WireGuard tunnel between two namespaces joined by a veth pair: each gets an
    interface with an address in ``10.232.N.0/24`` whose only route is the tunnel (the veth
    carries nothing but its encrypted UDP); yields the two tunnel addresses. ``directory``
    holds the private keys. The kernel's WireGuard where it has one, else wireguard-go: one
    process per namespace, whose control socket (``/var/run/wireguard/NAME.sock``) all
    namespaces share, so each interface has a name of its own."""
    subnet = 20 + os.getpid() % 200
    tag = os.getpid() % 100000
    ends = ((a, b, f"10.232.{subnet}.1", f"bg{tag}wg0"), (b, a, f"10.232.{subnet}.2",
                                                          f"bg{tag}wg1"))
    userspace = _kernel_wireguard_unavailable() is not None
    keys: dict[str, tuple[str, str]] = {}
    for space, *_ in ends:
        private = subprocess.run(["wg", "genkey"], check=True, capture_output=True,
                                 text=True, timeout=10).stdout.strip()
        public = subprocess.run(["wg", "pubkey"], input=private, check=True,
                                capture_output=True, text=True, timeout=10).stdout.strip()
        path = os.path.join(directory, f"{space.name}.key")
        with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as f:
            f.write(private + "\n")
        keys[space.name] = (path, public)
    daemons: list[subprocess.Popen[bytes]] = []
    try:
        for space, other, address, name in ends:
            other_address = next(x for s, _, x, _ in ends if s is other)
            if userspace:
                daemons.append(_wireguard_go(space, name))
            else:
                _ip("-n", space.name, "link", "add", name, "type", "wireguard")
            _ip("-n", space.name, "addr", "add", f"{address}/24", "dev", name)
            subprocess.run(
                ["ip", "netns", "exec", space.name, "wg", "set", name, "listen-port", "51820",
                 "private-key", keys[space.name][0], "peer", keys[other.name][1],
                 "allowed-ips", f"{other_address}/32", "endpoint", f"{other.address}:51820"],
                check=True, capture_output=True, timeout=10)
            _ip("-n", space.name, "link", "set", name, "up")
        yield ends[0][2], ends[1][2]
    finally:
        for space, _, _, name in ends:
            subprocess.run(["ip", "-n", space.name, "link", "del", name],
                           capture_output=True, timeout=10)
        for daemon in daemons:
            daemon.terminate()
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()


def _wireguard_go(space: Namespace, name: str) -> subprocess.Popen[bytes]:
    """wireguard-go serving interface ``name`` in ``space``, once its control socket is up
    (it stays in the foreground: ours to stop)."""
    daemon = subprocess.Popen(["ip", "netns", "exec", space.name, "wireguard-go", name],
                              env={**os.environ, "WG_PROCESS_FOREGROUND": "1"},
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    control = f"/var/run/wireguard/{name}.sock"
    deadline = time.monotonic() + 10
    while not os.path.exists(control):
        if daemon.poll() is not None or time.monotonic() > deadline:
            daemon.kill()
            _, err = daemon.communicate()
            raise RuntimeError(f"wireguard-go did not start {name} in {space.name}: "
                               f"{err.decode(errors='replace').strip()}")
        time.sleep(0.02)
    return daemon
