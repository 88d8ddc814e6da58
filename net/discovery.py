"""Finding tables on the LAN with multicast DNS (python-zeroconf, asyncio API).

A host announces ``<name> <fingerprint> <table>._burgundy._udp.local.`` with the table's port
and a TXT record (protocol version, game id, host fingerprint, seats taken/total, edition). The
fingerprint in the instance name keeps two hosts called "Anna" apart, and the start of the
table's id two tables of one host: mDNS renames an instance name already taken only when its
probes hear the first's answer, which two processes on one machine do not (once the first
has announced itself). An announcement is only a hint: the lobby handshake makes the host
prove the key behind the fingerprint.

Tests restrict Zeroconf to their own interfaces (``interfaces=["127.0.0.1"]`` or a namespace's
veth address) so they never talk to other hosts.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from typing import Any

from zeroconf import IPVersion, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

from p2p_burgundy.estate import EDITIONS

from .identity import is_fingerprint
from .start import PLAYERS, name_ok
from .wire import PROTOCOL_VERSION

SERVICE_TYPE = "_burgundy._udp.local."
LOOKUP_TIMEOUT_MS = 1500
RECORD_TTL = 30
"""Seconds every record of an announcement lives in a browser's cache. A host that exits
says goodbye (:meth:`Announcer.close`); one that dies without a word is dropped by every
live browser when its records expire, within ``RECORD_TTL`` and the browser's next cache
sweep (10 s in python-zeroconf), where mDNS's defaults would keep it listed up to 75
minutes. Live browsers ask again before a record expires, so a live table stays listed."""
RECHECK_EVERY = 10.0  # seconds between two lookups of each listed table (see Browser)
MISSES = 2  # failed lookups in a row that drop a table from our list
LOOKUPS_AT_ONCE = 4
"""Lookups on the network at a time, in as many places, each starting a lookup at most every
``LOOKUP_TIMEOUT_MS`` however soon the last was answered. A lookup sends at most 3 queries (2
in practice), so a browser sends at most 8 a second whatever strangers announce. Honest
tables rarely need one: they are listed from the records their announcement carries; a
listed table needs one each ``RECORD_TTL`` (once its records expire), and 4 places look up
26 tables in ``RECHECK_EVERY``."""
MAX_TABLES = 64
"""Tables listed at a time: a LAN party has a handful, dozens at most. When the list is full,
a table resolved takes the place of the one resolved least recently: made-up tables keep a
real one that announces itself out of the list only while new ones keep coming."""
MAX_WAITING = 64
"""Names heard without their records that wait for a lookup (room for a whole party's tables
at once); past it, the name heard least recently is forgotten until it is announced again."""
QUEUED_ANSWERS_WITHIN = 1.5  # seconds: zeroconf sends a queued answer within 1.2 s
TABLE_ID_BYTES = 4  # of a table's id in its instance and server names (8 hex digits)


@dataclass(frozen=True, slots=True)
class TableInfo:
    """A table as announced (unverified until the lobby handshake)."""

    instance: str  # the full mDNS instance name
    host_name: str
    fingerprint: str
    game_id: bytes
    seats_taken: int
    seats: int
    edition: str
    address: tuple[str, int]

    @property
    def label(self) -> str:
        """What a player sees in the list of tables."""
        return (f"{self.host_name} [{self.fingerprint}] {self.seats_taken}/{self.seats} "
                f"seats, {self.edition} rules, {self.address[0]}:{self.address[1]}")


def lan_address() -> str:
    """This machine's address on the LAN (where the default route leaves), or 127.0.0.1.

    Connecting a UDP socket sends nothing; it only asks the kernel which source address a
    datagram to that (reserved, TEST-NET-1) address would use.

    >>> lan_address().count(".")
    3
    """
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.connect(("192.0.2.1", 9))
        address = str(s.getsockname()[0])
        if address != "0.0.0.0":
            return address
    return "127.0.0.1"


def _properties(info: TableInfo) -> dict[str, str]:
    return {"v": str(PROTOCOL_VERSION), "game": info.game_id.hex(), "fp": info.fingerprint,
            "seats": f"{info.seats_taken}/{info.seats}", "ed": info.edition,
            "name": info.host_name}


def parse_info(info: AsyncServiceInfo) -> TableInfo | None:
    """A TableInfo from a resolved service, or None if it is not a table we understand.

    Anyone on the LAN can announce anything: what the list prints and what the known hosts
    file keeps (the name, the fingerprint, the edition) must have their form, so that no
    announcement can write control characters to a terminal or lines to a file."""
    props = {k.decode(errors="replace"): (v or b"").decode(errors="replace")
             for k, v in info.properties.items()}
    try:
        if int(props["v"]) != PROTOCOL_VERSION:
            return None
        taken, total = (int(x) for x in props["seats"].split("/"))
        game_id = bytes.fromhex(props["game"])
        name, fp, edition = props.get("name", "?"), props["fp"], props.get("ed", "2011")
        addresses = info.parsed_addresses(IPVersion.V4Only)
    except (KeyError, ValueError):
        return None
    if (not addresses or info.port is None or total not in PLAYERS or not 0 <= taken <= total
            or not name_ok(name) or not is_fingerprint(fp) or edition not in EDITIONS):
        return None
    return TableInfo(info.name, name, fp, game_id, taken, total, edition,
                     (addresses[0], info.port))


def _zeroconf(interfaces: Sequence[str] | None) -> AsyncZeroconf:
    if interfaces is None:
        return AsyncZeroconf(ip_version=IPVersion.V4Only)
    return AsyncZeroconf(interfaces=list(interfaces), ip_version=IPVersion.V4Only)


class Announcer:
    """Announces one table while it exists; :meth:`update` refreshes the seat count."""

    def __init__(self, info: TableInfo, interfaces: Sequence[str] | None = None) -> None:
        self.info = info
        self._azc = _zeroconf(interfaces)
        self._service = self._service_info(info)

    @staticmethod
    def _service_info(info: TableInfo) -> AsyncServiceInfo:
        return AsyncServiceInfo(
            SERVICE_TYPE, info.instance, addresses=[socket.inet_aton(info.address[0])],
            port=info.address[1], properties=_properties(info),
            server=f"burgundy-{info.fingerprint}-{_table_tag(info.game_id)}.local.",
            host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
        )

    async def start(self) -> None:
        await self._azc.async_register_service(self._service, allow_name_change=True)

    async def update(self, seats_taken: int) -> None:
        if seats_taken == self.info.seats_taken:
            return
        self.info = TableInfo(self.info.instance, self.info.host_name, self.info.fingerprint,
                              self.info.game_id, seats_taken, self.info.seats,
                              self.info.edition, self.info.address)
        self._service = self._service_info(self.info)
        await self._azc.async_update_service(self._service)

    async def close(self) -> None:
        """Withdraw the table: wait for the goodbye to go out (about 0.4 s), or browsers
        keep listing the table until its records expire.

        An answer zeroconf queued before the goodbye (it delays answers by up to 1.2 s) may
        go out after it and list the table again, and python-zeroconf's browsers ignore the
        goodbye's two repeats (a packet identical to one heard under a second before). So once
        the queued answers are out, a last goodbye without the address records (other bytes
        than the first) withdraws the table for good."""
        try:
            goodbye = await self._azc.async_unregister_service(self._service)
            await goodbye
            await self._queued_answers_sent()
            zc = self._azc.zeroconf
            zc.async_send(zc.generate_service_broadcast(self._service, 0,
                                                        broadcast_addresses=False))
        finally:
            await self._azc.async_close()

    async def _queued_answers_sent(self) -> None:
        zc = self._azc.zeroconf
        queues = (zc.out_queue.queue, zc.out_delay_queue.queue)
        deadline = asyncio.get_running_loop().time() + QUEUED_ANSWERS_WITHIN
        while any(queues) and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)


def instance_name(host_name: str, fingerprint: str, table_id: bytes) -> str:
    """The mDNS instance name of a table: the host's name, its key's fingerprint and the
    start of the table's id.

    >>> instance_name("Anna", "6r9h-etv0-q9se-9prt", bytes.fromhex("5e1f0c2a") + bytes(12))
    'Anna 6r9h-etv0-q9se-9prt 5e1f0c2a._burgundy._udp.local.'
    """
    clean = "".join(c for c in host_name if c.isprintable() and c not in ".\\")[:32] or "table"
    return f"{clean} {fingerprint} {_table_tag(table_id)}.{SERVICE_TYPE}"


def _table_tag(table_id: bytes) -> str:
    """What names a table among its host's in mDNS names: its id's first bytes, in hex."""
    return table_id[:TABLE_ID_BYTES].hex()


class Browser:
    """Keeps a live list of the tables on the LAN; ``on_change`` is called on every change.

    A table is listed from the records its announcement carries (in zeroconf's cache), with
    no query. A name heard without them (anyone can announce a name and nothing else) waits
    for a lookup on the network: at most :data:`LOOKUPS_AT_ONCE` at a time, paced, the listed
    tables first and then the names heard most recently, at most :data:`MAX_WAITING` of them
    waiting. So a stranger announcing thousands of names costs us queries at a constant rate
    and memory of a constant size (at most :data:`MAX_TABLES` listed), and a real table that
    announces itself meanwhile is listed at once.

    python-zeroconf keeps a table's PTR record at least 1125 s whatever lifetime its host
    announced, so the list would keep a host that died without a goodbye for 19 minutes.
    Every :data:`RECHECK_EVERY` seconds each table is looked up again: its other records live
    :data:`RECORD_TTL` seconds, so a live host is asked and answers once they expire; a table
    whose lookup fails :data:`MISSES` times in a row is dropped."""

    def __init__(self, interfaces: Sequence[str] | None = None,
                 on_change: Callable[[dict[str, TableInfo]], None] | None = None) -> None:
        self.tables: dict[str, TableInfo] = {}
        self._azc = _zeroconf(interfaces)
        self._on_change = on_change
        self._tasks: set[asyncio.Task[object]] = set()
        self._browser: AsyncServiceBrowser | None = None
        # listed table -> failed lookups in a row, the one resolved least recently first
        self._misses: dict[str, int] = {}
        self._due: dict[str, None] = {}  # listed tables to look up on the network
        self._waiting: dict[str, None] = {}  # other names to look up, heard most recently last
        self._looking: set[str] = set()  # names being looked up
        self._work = asyncio.Event()  # set when a name is added to _due or _waiting

    async def start(self) -> None:
        self._browser = AsyncServiceBrowser(self._azc.zeroconf, SERVICE_TYPE,
                                            handlers=[self._handler])
        self._spawn(self._recheck())
        for _ in range(LOOKUPS_AT_ONCE):
            self._spawn(self._lookups())

    def _spawn(self, work: Coroutine[Any, Any, object]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _handler(self, zeroconf: Zeroconf, service_type: str, name: str,
                 state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed:
            self._forget(name)
        else:
            self._heard(name)

    def _heard(self, name: str) -> None:
        """``name`` was announced (or is a listed table to check again): resolved at once
        from the records zeroconf holds if they are all there, else put to a lookup."""
        if name in self._looking:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        if info.load_from_cache(self._azc.zeroconf):
            self._resolved(name, info)
            return
        if name in self.tables:
            self._due[name] = None
        else:
            self._waiting.pop(name, None)  # heard again: now the most recent
            self._waiting[name] = None
            if len(self._waiting) > MAX_WAITING:
                self._forget(next(iter(self._waiting)))
        self._work.set()

    def _resolved(self, name: str, info: AsyncServiceInfo) -> None:
        """``name``'s records are all here: list it if it is a table we understand."""
        self._due.pop(name, None)
        self._waiting.pop(name, None)
        table = parse_info(info)
        if table is None and name not in self.tables:
            self._forget(name)
            return
        if name not in self.tables and len(self.tables) >= MAX_TABLES:
            self._forget(next(iter(self._misses)))
        self._misses.pop(name, None)
        self._misses[name] = 0  # now the table resolved most recently
        if table is not None and self.tables.get(name) != table:
            self.tables[name] = table
            self._changed()

    def _forget(self, name: str) -> None:
        """Stop listing and looking up ``name``. zeroconf forgets its PTR record too: its
        browser's queries list every PTR record it holds as answers already known (a
        stranger's thousands of names would make each query hundreds of packets), and an
        announcement of a name it holds is no news (we would never hear of it again)."""
        self._waiting.pop(name, None)
        self._due.pop(name, None)
        self._misses.pop(name, None)
        cache = self._azc.zeroconf.cache
        pointer = cache.current_entry_with_name_and_alias(SERVICE_TYPE, name)
        if pointer is not None:
            cache.async_remove_records([pointer])
        if self.tables.pop(name, None) is not None:
            self._changed()

    async def _lookups(self) -> None:
        """Look names up on the network one at a time, the listed tables first, then the
        name heard most recently; each lookup starts at least ``LOOKUP_TIMEOUT_MS`` after the
        one before (one that is answered at once must not let us query faster)."""
        loop = asyncio.get_running_loop()
        while True:
            while not (self._due or self._waiting):
                self._work.clear()
                await self._work.wait()
            if self._due:
                name = next(iter(self._due))
                del self._due[name]
            else:
                name, _ = self._waiting.popitem()
            started = loop.time()
            info = AsyncServiceInfo(SERVICE_TYPE, name)
            self._looking.add(name)
            try:
                found = await info.async_request(self._azc.zeroconf, LOOKUP_TIMEOUT_MS)
            finally:
                self._looking.discard(name)
            if found:
                self._resolved(name, info)
            elif name not in self.tables:
                self._forget(name)
            else:
                self._misses[name] += 1
                if self._misses[name] >= MISSES:
                    self._forget(name)
            await asyncio.sleep(started + LOOKUP_TIMEOUT_MS / 1000 - loop.time())

    async def _recheck(self) -> None:
        while True:
            await asyncio.sleep(RECHECK_EVERY)
            for name in list(self.tables):
                self._heard(name)

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(dict(self.tables))

    async def close(self) -> None:
        if self._browser is not None:
            await self._browser.async_cancel()
        for task in list(self._tasks):
            task.cancel()
        await self._azc.async_close()


async def find_tables(seconds: float, interfaces: Sequence[str] | None = None,
                      until: Callable[[dict[str, TableInfo]], bool] | None = None,
                      settle: float = 0.0) -> dict[str, TableInfo]:
    """Browse for ``seconds``, or until ``until(tables)`` holds and then ``settle`` seconds
    more (others that answer the same name), and return what was seen."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    done = asyncio.Event()

    def changed(tables: dict[str, TableInfo]) -> None:
        if until is not None and until(tables):
            done.set()

    browser = Browser(interfaces, changed)
    await browser.start()
    try:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(done.wait(), seconds)
            await asyncio.sleep(max(0.0, min(settle, deadline - loop.time())))
    finally:
        tables = dict(browser.tables)
        await browser.close()
    return tables
