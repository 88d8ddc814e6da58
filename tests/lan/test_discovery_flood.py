"""A stranger multicasting announcements of made-up tables over real mDNS on 127.0.0.1 (a
socket of its own on port 5353): our browser looks names up a few at a time and at a bounded
pace, remembers a bounded number of them, lists a bounded number of tables, and a real
table (an :class:`Announcer`) announced meanwhile is listed at once.

What our browser sends is counted where zeroconf sends it (tests side by side on loopback
would mix their queries on the wire). Every flood ends with a goodbye for each made-up name,
so that the browsers of other tests running beside these forget them."""

from __future__ import annotations

import asyncio
import fcntl
import os
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
from zeroconf import DNSOutgoing, DNSPointer, Zeroconf
from zeroconf.const import _CLASS_IN, _FLAGS_AA, _FLAGS_QR_RESPONSE, _TYPE_PTR

from p2p_burgundy.net import discovery
from p2p_burgundy.net.discovery import (
    LOOKUP_TIMEOUT_MS,
    LOOKUPS_AT_ONCE,
    MAX_WAITING,
    SERVICE_TYPE,
    Announcer,
    Browser,
    TableInfo,
)

from .mdns import MDNS_GROUP, a_table, lookups_in_flight, mdns_socket, pointers_held, until
from .procs import LOOPBACK

pytestmark = pytest.mark.slow

FLOODED = 2000  # made-up names announced by the flood
PER_PACKET = 40  # made-up names in one packet of the flood (about 1,200 bytes)
LISTED_WITHIN = 1.0  # seconds from a real table's announcement to our list, flood or not
HANDLED_WITHIN = 1.0  # seconds for our browser to handle the flood's last packet
# seconds from a name announced again to its lookup: a place frees within a lookup's 1.5 s,
# then takes the newest name; the rest is for a loaded machine, whose lookups end late
AGAIN_WITHIN = 4.0
FLOOD_SECONDS = 2.0  # how long the first test's flood lasts
WATCHED = 6.0  # seconds the first test counts what our browser sends from the flood on
MAX_QUERIES_PER_LOOKUP = 3  # zeroconf asks at 0, ~0.25 and ~1.4 s of a 1.5 s lookup
LOOKUP_SPACING = LOOKUP_TIMEOUT_MS / 1000
LOCK = Path(tempfile.gettempdir()) / "p2p-burgundy-mdns-flood.lock"


@pytest.fixture(autouse=True)
def one_flood_at_a_time() -> Iterator[None]:
    """Every browser on loopback hears every flood, and one flood's names, newer, would go
    before the other's (the most recent are looked up first): this module's tests, which
    pytest-xdist may run side by side, flood one at a time."""
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@dataclass(frozen=True)
class Sent:
    """One message our browser's zeroconf sent."""

    at: float  # time.monotonic()
    packets: int
    asked: tuple[str, ...]  # the names it asks about other than by PTR (a lookup's)
    known: tuple[str, ...]  # the instances named by the PTR answers it says it knows


def tap(zc: Zeroconf) -> list[Sent]:
    """Every message ``zc`` sends from now on, appended as it is sent."""
    sent: list[Sent] = []
    send = zc.async_send

    def counted(out: DNSOutgoing, *args: object) -> None:
        sent.append(Sent(time.monotonic(), len(out.packets()),
                         tuple(q.name for q in out.questions if q.type != _TYPE_PTR),
                         tuple(a.alias for a, _ in out.answers if isinstance(a, DNSPointer))))
        send(out, *args)  # type: ignore[arg-type]

    zc.async_send = counted  # type: ignore[method-assign]
    return sent


class Flooder:
    """A stranger's socket announcing made-up tables, each instance name carrying ``tag``."""

    def __init__(self) -> None:
        self.tag = os.urandom(4).hex()
        self.sent: list[str] = []  # every instance announced, in order
        self._sock = mdns_socket()

    def name(self, i: int) -> str:
        return f"Flood{i} {self.tag}.{SERVICE_TYPE}"

    async def pointers(self, names: Sequence[str], ttl: int = 4500,
                       seconds: float = 0.0) -> None:
        """Announce ``names`` by their PTR records only (no SRV, TXT or address: nothing
        a lookup could find), ``PER_PACKET`` to a packet, over ``seconds`` (a goodbye with
        ``ttl`` 0)."""
        packets = range(0, len(names), PER_PACKET)
        for start in packets:
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for name in names[start:start + PER_PACKET]:
                out.add_answer_at_time(DNSPointer(SERVICE_TYPE, _TYPE_PTR, _CLASS_IN, ttl,
                                                  name), 0)
            await self._send(out, seconds / len(packets))
            self.sent.extend(names[start:start + PER_PACKET] if ttl else ())

    async def tables(self, tables: Sequence[TableInfo]) -> None:
        """Announce ``tables`` as a host would (PTR, SRV, TXT, address), a packet each."""
        for table in tables:
            info = Announcer._service_info(table)
            out = DNSOutgoing(_FLAGS_QR_RESPONSE | _FLAGS_AA)
            for record in (info.dns_pointer(), info.dns_service(), info.dns_text(),
                           *info.dns_addresses()):
                out.add_answer_at_time(record, 0)
            await self._send(out)
            self.sent.append(table.instance)

    async def _send(self, out: DNSOutgoing, pause: float = 0.0) -> None:
        for packet in out.packets():
            self._sock.sendto(packet, MDNS_GROUP)
        # at most a few hundred packets a second: none lost on loopback
        await asyncio.sleep(max(pause, 0.005))

    async def goodbye(self) -> None:
        await self.pointers(list(dict.fromkeys(self.sent)), ttl=0)
        self._sock.close()


@contextmanager
def flooding() -> Iterator[Flooder]:
    """A stranger for the block, whose names are withdrawn (a goodbye each) as it ends."""
    flooder = Flooder()
    try:
        yield flooder
    finally:
        asyncio.run(flooder.goodbye())


@dataclass
class FloodSeen:
    """What the first test saw of our browser."""

    peak_lookups: int
    peak_pointers: int
    looked_up: set[str]  # flooded names asked about
    lookup_packets: int
    known_at_most: int  # flooded names among the known answers of one PTR query, at most
    ptr_queries: int
    listed_after: float


async def _flood_names(flooder: Flooder) -> FloodSeen:
    browser = Browser([LOOPBACK])
    await browser.start()
    zc = browser._azc.zeroconf
    sent = tap(zc)
    table = a_table("Real")
    announcer = Announcer(table, [LOOPBACK])
    try:
        began = time.monotonic()
        names = [flooder.name(i) for i in range(FLOODED)]
        flood = asyncio.ensure_future(flooder.pointers(names, seconds=FLOOD_SECONDS))
        await announcer.start()  # its announcement goes out in the middle of the flood
        announced = time.monotonic()
        assert len(flooder.sent) < FLOODED, "the flood was over before the announcement"
        listed_after = None
        peak_lookups = peak_pointers = 0
        while time.monotonic() < began + WATCHED:
            peak_lookups = max(peak_lookups, lookups_in_flight(zc))
            peak_pointers = max(peak_pointers, pointers_held(zc, flooder.tag))
            if listed_after is None and table.instance in browser.tables:
                listed_after = time.monotonic() - announced
            await asyncio.sleep(0.01)
        await flood
    finally:
        await announcer.close()
        await browser.close()
    assert listed_after is not None, "the real table was not listed"
    watched = [s for s in sent if s.at < began + WATCHED]
    lookups = [s for s in watched if any(flooder.tag in name for name in s.asked)]
    queries = [s for s in watched if not s.asked]
    return FloodSeen(
        peak_lookups, peak_pointers,
        {name for s in lookups for name in s.asked if flooder.tag in name},
        sum(s.packets for s in lookups),
        max((sum(flooder.tag in name for name in s.known) for s in queries), default=0),
        sum(bool(s.known) for s in queries), listed_after)


def test_a_flood_of_names_is_looked_up_a_few_at_a_time_and_a_real_table_is_listed_at_once(
        ) -> None:
    """2,000 names announced alone (a lookup of one lasts its whole 1.5 s). Without the
    bounds our browser had over 1,600 lookups in flight, sent about 4,000 lookup queries in
    the 6 s and named all 2,000 in each of its PTR queries, as answers it knew."""
    with flooding() as flooder:
        seen = asyncio.run(_flood_names(flooder))
    assert seen.peak_lookups == LOOKUPS_AT_ONCE
    # each lookup starts at least LOOKUP_SPACING after the one before in its place
    started_at_most = LOOKUPS_AT_ONCE * (int(WATCHED / LOOKUP_SPACING) + 1)
    assert len(seen.looked_up) <= started_at_most
    assert seen.lookup_packets <= MAX_QUERIES_PER_LOOKUP * started_at_most
    remembered = MAX_WAITING + LOOKUPS_AT_ONCE  # names waiting, names being looked up
    assert seen.peak_pointers == remembered
    assert seen.ptr_queries >= 1 and seen.known_at_most <= remembered
    assert seen.listed_after < LISTED_WITHIN


async def _fill_the_list(flooder: Flooder, fakes: list[TableInfo], table: TableInfo
                         ) -> tuple[list[str], list[str], int, list[Sent]]:
    sizes: list[int] = []
    browser = Browser([LOOPBACK], lambda tables: sizes.append(len(tables)))
    await browser.start()
    sent = tap(browser._azc.zeroconf)
    announcer = Announcer(table, [LOOPBACK])
    try:
        await flooder.tables(fakes)
        last = fakes[-1].instance
        await until(lambda: last in browser.tables, LISTED_WITHIN, "the last one listed")
        flooded = list(browser.tables)
        await announcer.start()
        await until(lambda: table.instance in browser.tables, LISTED_WITHIN,
                    "the real table listed")
        with_real = list(browser.tables)
    finally:
        await announcer.close()
        await browser.close()
    return flooded, with_real, max(sizes), [s for s in sent if s.asked]


def test_made_up_tables_fill_the_list_no_further_and_a_real_one_announced_after_is_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Made-up tables announced whole (they resolve from the records they carry): the list
    keeps the most recently resolved, and a real table announced after them is listed. The
    list is capped at 8 here, not 64, and the flood is 40 tables: the browsers of the tests
    running beside this one list them too (up to their 64), and must not lose their own.
    This browser takes no other table than these for one (other tests' hosts announce theirs
    on loopback meanwhile, and each would take a place)."""
    monkeypatch.setattr(discovery, "MAX_TABLES", 8)
    with flooding() as flooder:
        fakes = [a_table(f"Flood{i} {flooder.tag}") for i in range(5 * discovery.MAX_TABLES)]
        table = a_table("Real")
        parse = discovery.parse_info
        monkeypatch.setattr(discovery, "parse_info", lambda info: parse(info) if (
            flooder.tag in info.name or info.name == table.instance) else None)
        flooded, with_real, most, lookups = asyncio.run(_fill_the_list(flooder, fakes, table))
    last = [t.instance for t in fakes[-discovery.MAX_TABLES:]]
    assert flooded == last
    assert with_real == [*last[1:], table.instance]
    assert most == discovery.MAX_TABLES
    assert lookups == []  # every table came with its records


async def _heard_again(flooder: Flooder) -> None:
    browser = Browser([LOOPBACK])
    await browser.start()
    zc = browser._azc.zeroconf
    sent = tap(zc)
    first = flooder.name(0)
    try:
        await flooder.pointers([flooder.name(i) for i in range(FLOODED)])
        await until(lambda: pointers_held(zc, first) == 0, HANDLED_WITHIN,
                    "the first name forgotten by zeroconf")
        again = time.monotonic()
        await flooder.pointers([first])
        await until(lambda: any(s.at > again and first in s.asked for s in sent),
                    AGAIN_WITHIN, "a query for the name announced again")
    finally:
        await browser.close()


def test_a_name_forgotten_in_a_flood_is_looked_up_when_announced_again() -> None:
    """The first of 2,000 names is forgotten (the waiting list keeps the most recent) and
    zeroconf forgets it too: announced again, it is news, and the next lookup to start is
    its. Without that, a name announced again was never news to zeroconf (it keeps a PTR
    record at least 19 minutes) and was never looked up again."""
    with flooding() as flooder:
        asyncio.run(_heard_again(flooder))
