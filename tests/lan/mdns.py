"""mDNS browsers that are not ours, on loopback, to measure what other programs on the LAN
see of our tables.

:class:`Watcher` is python-zeroconf's own ServiceBrowser: it sees an announcement and its
goodbye as avahi or Bonjour would. It cannot measure how long a table whose host died
without a goodbye stays listed: python-zeroconf keeps every PTR record at least 1125 s
whatever lifetime it was announced with. :class:`TtlBrowser` can: a minimal RFC 6762
browser (a socket on port 5353, python-zeroconf only to parse and write packets) that keeps
each table for the lifetime its host announced, asks again at 80 and 90% of it, and drops it
when it expires, as RFC 6762 (section 5.2) asks of a continuous querier.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Callable

from zeroconf import (
    DNSIncoming,
    DNSOutgoing,
    DNSPointer,
    DNSQuestion,
    IPVersion,
    ServiceBrowser,
    ServiceInfo,
    ServiceStateChange,
    Zeroconf,
)
from zeroconf.const import _CLASS_IN, _FLAGS_QR_QUERY, _TYPE_PTR

from p2p_burgundy.net.discovery import SERVICE_TYPE, TableInfo, instance_name
from p2p_burgundy.net.identity import PUBLIC_KEY_SIZE, fingerprint

from .procs import LOOPBACK, free_udp_port

MDNS_GROUP = ("224.0.0.251", 5353)


def a_fingerprint() -> str:
    """A fingerprint of its own for a test's table (of random bytes, never a real key's), so
    that tests side by side on loopback never take each other's tables for theirs."""
    return fingerprint(os.urandom(PUBLIC_KEY_SIZE))


def a_table(name: str) -> TableInfo:
    """A table of 2 seats on loopback, with a fingerprint of its own."""
    fp = a_fingerprint()
    return TableInfo(instance_name(name, fp, b"T" * 16), name, fp, b"T" * 16, 1, 2, "2011",
                     (LOOPBACK, free_udp_port()))


def mdns_socket(interface: str = LOOPBACK) -> socket.socket:
    """A socket on port 5353 in the mDNS group on ``interface``, beside zeroconf's: it hears
    what every host there multicasts, and what it multicasts they hear."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind(("", MDNS_GROUP[1]))
    here = socket.inet_aton(interface)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_ADD_MEMBERSHIP,
                    socket.inet_aton(MDNS_GROUP[0]) + here)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_IF, here)
    sock.setsockopt(socket.IPPROTO_IP, socket.IP_MULTICAST_LOOP, 1)
    return sock


def lookups_in_flight(zc: Zeroconf) -> int:
    """zeroconf's lookups under way: each listens to every record that arrives."""
    return sum(isinstance(listener, ServiceInfo) for listener in zc.record_manager.listeners)


def pointers_held(zc: Zeroconf, part: str) -> int:
    """How many PTR records of instances named with ``part`` zeroconf holds (it names every
    one it holds in its queries, as answers it knows)."""
    return sum(part in record.alias  # type: ignore[attr-defined]
               for record in zc.cache.async_all_by_details(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN))


async def until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Return once ``condition()`` holds, polled; AssertionError naming ``what`` if it does
    not within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.01)


class _Listed:
    """What a browser has listed: when each table was added and removed."""

    def __init__(self) -> None:
        self.added: dict[str, float] = {}
        self.removed: dict[str, float] = {}
        self._history: list[tuple[float, str, str]] = []  # (when, "added"/"removed", table)
        self._changed = threading.Condition()

    def _add(self, name: str) -> None:
        with self._changed:
            self.added[name] = time.monotonic()
            self.removed.pop(name, None)
            self._history.append((self.added[name], "added", name))
            self._changed.notify_all()

    def _remove(self, name: str) -> None:
        with self._changed:
            self.removed[name] = time.monotonic()
            self._history.append((self.removed[name], "removed", name))
            self._changed.notify_all()

    def history(self, instance: str) -> str:
        """When ``instance`` was added and removed, in seconds before now (for a failure)."""
        now = time.monotonic()
        with self._changed:
            return ", ".join(f"{what} {now - when:.2f} s ago"
                             for when, what, name in self._history if name == instance)

    def _wait(self, condition: Callable[[], object], timeout: float) -> object:
        with self._changed:
            return self._changed.wait_for(condition, timeout)

    def wait_added(self, part: str, timeout: float = 20.0, besides: str = "") -> str:
        """The instance name containing ``part`` (other than ``besides``) once it is listed;
        AssertionError if not."""
        found = self._wait(lambda: next(
            (n for n in self.added if part in n and n != besides and n not in self.removed),
            None), timeout)
        assert isinstance(found, str), f"no table {part!r} listed within {timeout} s"
        return found

    def wait_removed(self, instance: str, timeout: float) -> float:
        """When ``instance`` left the list (time.monotonic()); AssertionError if it did not
        within ``timeout`` seconds."""
        assert self._wait(lambda: instance in self.removed, timeout), \
            f"{instance} still listed after {timeout} s ({self.history(instance)})"
        return self.removed[instance]


class Watcher(_Listed):
    """python-zeroconf's own ServiceBrowser."""

    def __init__(self, interface: str = LOOPBACK) -> None:
        super().__init__()
        self._zeroconf = Zeroconf(interfaces=[interface], ip_version=IPVersion.V4Only)
        self._browser = ServiceBrowser(self._zeroconf, SERVICE_TYPE, handlers=[self._handler])

    def _handler(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Added:
            self._add(name)
        elif state_change is ServiceStateChange.Removed:
            self._remove(name)

    def close(self) -> None:
        self._browser.cancel()
        self._zeroconf.close()


class TtlBrowser(_Listed):
    """A continuous querier that honours the announced lifetimes (see the module)."""

    def __init__(self, interface: str = LOOPBACK) -> None:
        super().__init__()
        self._sock = mdns_socket(interface)
        self._sock.settimeout(0.2)
        self.expired: set[str] = set()  # tables dropped because their records expired
        # table -> (when its PTR was last received, its lifetime, the fractions asked at)
        self._cache: dict[str, tuple[float, float, set[float]]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        self.ask()

    def ask(self) -> None:
        """Ask every host for its tables, with no answer known (as a browser that starts)."""
        query = DNSOutgoing(_FLAGS_QR_QUERY)
        query.add_question(DNSQuestion(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN))
        for packet in query.packets():
            with contextlib.suppress(OSError):
                self._sock.sendto(packet, MDNS_GROUP)

    def _run(self) -> None:
        while not self._stop.is_set():
            with contextlib.suppress(TimeoutError):
                data, source = self._sock.recvfrom(9000)
                self._heard(data, source)
            self._expire(time.monotonic())

    def _heard(self, data: bytes, source: tuple[str, int]) -> None:
        message = DNSIncoming(data, (source[0], source[1]))
        if not message.valid or message.is_query():
            return
        for record in message.answers():
            if not isinstance(record, DNSPointer) or record.name != SERVICE_TYPE:
                continue
            name = record.alias
            if record.ttl == 0:  # a goodbye
                if self._cache.pop(name, None) is not None:
                    self._remove(name)
                continue
            if name not in self._cache:
                self._add(name)
            self._cache[name] = (time.monotonic(), float(record.ttl), set())

    def _expire(self, now: float) -> None:
        for name, (heard, ttl, asked) in list(self._cache.items()):
            age = (now - heard) / ttl
            if age >= 1:
                del self._cache[name]
                self.expired.add(name)
                self._remove(name)
            elif (due := next((f for f in (0.8, 0.9) if age >= f and f not in asked), None)):
                asked.add(due)
                self.ask()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close()
