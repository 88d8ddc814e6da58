"""Tables announced and withdrawn over real mDNS on loopback (Zeroconf bound to 127.0.0.1)."""

from __future__ import annotations

import asyncio
import time

from p2p_burgundy.net.discovery import Announcer, Browser, TableInfo, instance_name

from .procs import LOOPBACK, free_udp_port

WITHDRAWN_WITHIN = 3.0  # seconds from the host's orderly exit to the table leaving every list


async def _until(condition: object, browser: Browser, timeout: float) -> float:
    """Seconds until ``condition(browser.tables)`` holds; TimeoutError after ``timeout``."""
    start = time.monotonic()
    while not condition(browser.tables):  # type: ignore[operator]
        if time.monotonic() - start > timeout:
            raise TimeoutError
        await asyncio.sleep(0.02)
    return time.monotonic() - start


async def _announce_then_close() -> float:
    fp = "test-" + str(free_udp_port())
    info = TableInfo(instance_name("Goodbye", fp), "Goodbye", fp, b"G" * 16, 1, 2, "2011",
                     (LOOPBACK, free_udp_port()))
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
