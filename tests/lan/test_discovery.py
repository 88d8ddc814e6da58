"""Tables announced and withdrawn over real mDNS on loopback (Zeroconf bound to 127.0.0.1)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from p2p_burgundy.net.discovery import Announcer, Browser, TableInfo, find_tables, instance_name

from ..cli.tui.pty_terminal import burgundy
from .mdns import a_fingerprint, a_table
from .procs import LOOPBACK, bots, free_udp_port

WITHDRAWN_WITHIN = 3.0  # seconds from the host's orderly exit to the table leaving every list
HOST_LATE = 7.0  # seconds between a joiner looking for a table by name and its host opening it
ANNOUNCING = 3.0  # seconds from a table being listed until its host's announcements are over


async def _until(condition: object, browser: Browser, timeout: float) -> float:
    """Seconds until ``condition(browser.tables)`` holds; TimeoutError after ``timeout``."""
    start = time.monotonic()
    while not condition(browser.tables):  # type: ignore[operator]
        if time.monotonic() - start > timeout:
            raise TimeoutError
        await asyncio.sleep(0.02)
    return time.monotonic() - start


async def _announce_then_close() -> float:
    info = a_table("Goodbye")
    browser = Browser([LOOPBACK])
    await browser.start()
    announcer = Announcer(info, [LOOPBACK])
    try:
        await announcer.start()
        await _until(lambda tables: info.instance in tables, browser, 10)
    finally:
        await announcer.close()
    try:
        return await _until(lambda tables: info.instance not in tables, browser,
                            WITHDRAWN_WITHIN)
    finally:
        await browser.close()


def test_a_closed_table_leaves_the_list_of_tables_within_seconds() -> None:
    assert asyncio.run(_announce_then_close()) < WITHDRAWN_WITHIN


@pytest.mark.slow
def test_joining_by_name_looks_for_the_table_as_long_as_its_timeout(tmp_path: Path) -> None:
    """A joiner started before its host (7 s: longer than any fixed search) still joins."""
    name = f"Late{free_udp_port()}"
    with bots() as group:
        joiner = group.add(tmp_path / "joiner", [name, "--interface", LOOPBACK,
                                                 "--timeout", "90"])
        time.sleep(HOST_LATE)  # the point: the host opens its table after this
        assert joiner.proc is not None and joiner.proc.poll() is None, joiner.report()
        group.add(tmp_path / "host", ["--host", "--players", "2", "--name", name,
                                      "--interface", LOOPBACK])
        group.assert_all_ok(120)


@pytest.mark.slow
def test_joining_by_name_gives_up_at_its_timeout_naming_it(tmp_path: Path) -> None:
    with bots() as group:
        started = time.monotonic()
        joiner = group.add(tmp_path / "joiner", [f"Nobody{free_udp_port()}",
                                                 "--interface", LOOPBACK, "--timeout", "2"])
        assert joiner.wait(30) == 1
        assert time.monotonic() - started < 15
        assert "found on the LAN in 2 s" in joiner.stderr


@pytest.mark.slow
def test_the_client_joining_by_name_waits_for_the_table_as_long_as_the_user(
        tmp_path: Path) -> None:
    name = f"Later{free_udp_port()}"
    with burgundy(tmp_path / "me", "join", name, "--name", "Jo", "--interface", LOOPBACK,
                  ) as term, bots() as group:
        term.wait_for(f"Looking for the table {name}")
        time.sleep(HOST_LATE)
        group.add(tmp_path / "host", ["--host", "--players", "2", "--name", name,
                                      "--interface", LOOPBACK])
        term.wait_for("Table code", timeout=30)


@pytest.mark.slow
def test_two_tables_hosted_from_one_home_under_one_name_are_both_listed(tmp_path: Path) -> None:
    """Two processes on one machine announcing one name do not hear each other's probes, so
    nothing renames the second: each table's instance name must be its own from the start."""
    name = f"Twin{free_udp_port()}"

    def twins(tables: dict[str, TableInfo]) -> list[TableInfo]:
        return [t for t in tables.values() if t.host_name == name]

    def listed(count: int) -> list[TableInfo]:
        return twins(asyncio.run(find_tables(30, [LOOPBACK],
                                             until=lambda t: len(twins(t)) == count)))

    with bots() as group:
        host = ["--host", "--players", "2", "--name", name, "--interface", LOOPBACK]
        group.add(tmp_path / "home", host)
        assert len(listed(1)) == 1, group.report()
        # The point: a second table opened later than the first's announcements and its
        # answers to the browsers' first queries (opened together, the probes may meet).
        time.sleep(ANNOUNCING)
        group.add(tmp_path / "home", host)
        tables = listed(2)
        assert len(tables) == 2, group.report()
    assert tables[0].fingerprint == tables[1].fingerprint
    assert tables[0].address != tables[1].address


async def _two_tables_of_one_key_at_two_addresses() -> list[TableInfo]:
    fp = a_fingerprint()
    infos = [TableInfo(instance_name("Twin", fp, bytes([i]) * 16), "Twin", fp, bytes([i]) * 16,
                       1, 2, "2011", (address, free_udp_port()))
             for i, address in ((1, LOOPBACK), (2, "127.0.0.2"))]
    announcers = [Announcer(info, [LOOPBACK]) for info in infos]
    try:
        for announcer in announcers:
            await announcer.start()
        tables = await find_tables(10, [LOOPBACK], until=lambda t: sum(
            x.fingerprint == fp for x in t.values()) == 2)
    finally:
        for announcer in announcers:
            await announcer.close()
    return [tables[info.instance] for info in infos]


def test_two_tables_of_one_key_each_resolve_to_their_own_address() -> None:
    """One key's tables on two machines (a home copied) have a host name each: under one
    name their address records would mix, and a joiner could be sent to the other table."""
    infos = asyncio.run(_two_tables_of_one_key_at_two_addresses())
    assert [t.address[0] for t in infos] == [LOOPBACK, "127.0.0.2"]
