"""Every way a peer ends withdraws its table (real mDNS on 127.0.0.1, measured with
python-zeroconf's own browser, not ours): SIGTERM, SIGHUP, SIGINT, the end of its game and an
error, for ``burgundy bot`` as for the terminal client; and a host killed without a goodbye
leaves every live browser when its short-lived records expire."""

from __future__ import annotations

import asyncio
import logging
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from zeroconf._handlers.answers import AnswerGroup
from zeroconf._utils.time import current_time_millis

from p2p_burgundy import GameConfig
from p2p_burgundy.net.discovery import (
    QUEUED_ANSWERS_WITHIN,
    RECHECK_EVERY,
    RECORD_TTL,
    Announcer,
    Browser,
)
from p2p_burgundy.net.errors import LocalProtocolError
from p2p_burgundy.net.identity import fingerprint, load_or_create
from p2p_burgundy.net.inmemory import identity
from p2p_burgundy.net.peer import Peer

from ..cli.tui.pty_terminal import burgundy
from .mdns import TtlBrowser, Watcher, a_table, until
from .procs import LOOPBACK, bots

WITHDRAWN_WITHIN = 3.0  # seconds from a peer's end to its table leaving a live browser
SETTLED = 0.3  # seconds for the last packets of a closed announcer to reach a browser
DEAD_HOST_GONE_WITHIN = 120.0  # seconds for a host that died without a goodbye
EXIT_CODES = {signal.SIGTERM: 143, signal.SIGHUP: 129, signal.SIGINT: 130}
SIGNALS = pytest.mark.parametrize("sig", list(EXIT_CODES), ids=lambda s: s.name)
HOST = ("--host", "--players", "2", "--interface", LOOPBACK)

pytestmark = pytest.mark.slow


@pytest.fixture
def watcher() -> Iterator[Watcher]:
    w = Watcher()
    try:
        yield w
    finally:
        w.close()


@SIGNALS
def test_a_bot_stopped_by_a_signal_withdraws_its_table(tmp_path: Path, watcher: Watcher,
                                                        sig: signal.Signals) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", HOST)
        table = watcher.wait_added(host.hosting()[2])
        sent = time.monotonic()
        host.kill(sig)
        assert host.proc is not None and host.proc.returncode == EXIT_CODES[sig], host.report()
        assert watcher.wait_removed(table, WITHDRAWN_WITHIN) - sent < WITHDRAWN_WITHIN


def test_a_bot_that_fails_withdraws_its_table(tmp_path: Path, watcher: Watcher) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", [*HOST, "--timeout", "3"])
        table = watcher.wait_added(host.hosting()[2])
        assert host.wait(30) == 1, host.report()
        ended = time.monotonic()
        assert "did not start in time" in host.stderr
        assert watcher.wait_removed(table, WITHDRAWN_WITHIN) - ended < WITHDRAWN_WITHIN


def test_a_bot_whose_game_ended_withdraws_its_table(tmp_path: Path, watcher: Watcher) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", HOST)
        fp = host.hosting()[2]
        table = watcher.wait_added(fp)
        group.add(tmp_path / "joiner", [fp, "--interface", LOOPBACK])
        group.assert_all_ok(120)
        ended = time.monotonic()
        assert watcher.wait_removed(table, WITHDRAWN_WITHIN) - ended < WITHDRAWN_WITHIN


@SIGNALS
def test_the_client_stopped_by_a_signal_withdraws_its_table(tmp_path: Path, watcher: Watcher,
                                                             sig: signal.Signals) -> None:
    home = tmp_path / "me"
    home.mkdir()
    fp = fingerprint(load_or_create(home / "identity.key").public_key)
    with burgundy(home, "host", "--players", "2", "--name", "Hana",
                  "--interface", LOOPBACK) as term:
        table = watcher.wait_added(fp)
        sent = time.monotonic()
        term.proc.send_signal(sig)
        assert term.wait_exit(10) == EXIT_CODES[sig]
        assert watcher.wait_removed(table, WITHDRAWN_WITHIN) - sent < WITHDRAWN_WITHIN


def _withdrawn_for_good(watcher: Watcher, instance: str) -> None:
    """The table left the watcher's list and did not come back: the announcer has closed
    (nothing it sends is still to come) and its last packets have had time to arrive."""
    watcher.wait_removed(instance, WITHDRAWN_WITHIN)
    time.sleep(SETTLED)
    assert instance in watcher.removed, watcher.history(instance)


def test_a_query_answered_as_the_table_closes_does_not_list_it_again(
        watcher: Watcher) -> None:
    """A browser that starts as the table closes asks for every table; zeroconf queues its
    answer for 20 to 120 ms, so it goes out after the goodbye: a last goodbye must follow
    it."""
    info = a_table("Asked")
    asker = TtlBrowser()

    async def run() -> None:
        announcer = Announcer(info, [LOOPBACK])
        await announcer.start()
        await asyncio.to_thread(watcher.wait_added, info.instance)
        await asyncio.sleep(1.6)  # a second past the last announcement: no answer held back
        zc = announcer._azc.zeroconf
        # due in 20 to 120 ms; or held a second more if another test's browser just had
        # our records multicast (close must then wait for it)
        queues = (zc.out_queue.queue, zc.out_delay_queue.queue)
        asker.ask()
        deadline = time.monotonic() + 1.0
        while not any(queues):
            assert time.monotonic() < deadline, "the query was not answered"
            await asyncio.sleep(0.001)
        await announcer.close()

    try:
        asyncio.run(run())
        _withdrawn_for_good(watcher, info.instance)
    finally:
        asker.close()


def test_an_answer_never_sent_keeps_the_closing_peer_no_longer_than_its_bound(
        watcher: Watcher) -> None:
    """The wait for queued answers is bounded: a peer must exit even if one stays queued
    (here one due in an hour), and the last goodbye still withdraws its table."""
    info = a_table("Stuck")

    async def run() -> float:
        announcer = Announcer(info, [LOOPBACK])
        await announcer.start()
        await asyncio.to_thread(watcher.wait_added, info.instance)
        hour = current_time_millis() + 3_600_000
        announcer._azc.zeroconf.out_queue.queue.append(AnswerGroup(hour, hour, {}))
        began = time.monotonic()
        await announcer.close()
        return time.monotonic() - began

    took = asyncio.run(run())
    assert QUEUED_ANSWERS_WITHIN <= took < QUEUED_ANSWERS_WITHIN + 1.0
    _withdrawn_for_good(watcher, info.instance)


def test_a_host_killed_without_a_goodbye_leaves_live_browsers_within_two_minutes(
        tmp_path: Path) -> None:
    """A host killed once listed is gone from an independent browser and from ours within 2
    minutes of its death, while a host left alive stays listed past its records' lifetime
    (browsers ask again and it answers). The two hosts share the wait: the dead one's
    records expire while the live one outlives its own."""
    independent = TtlBrowser()

    async def run() -> tuple[float, float]:
        ours = Browser([LOOPBACK])
        await ours.start()
        try:
            with bots() as group:
                dying = group.add(tmp_path / "dying", HOST)
                living = group.add(tmp_path / "living", HOST)
                tables = []
                for host in (dying, living):
                    _, _, fp = await asyncio.to_thread(host.hosting)
                    tables.append(await asyncio.to_thread(independent.wait_added, fp))
                dead, alive = tables
                await until(lambda: dead in ours.tables and alive in ours.tables, 20,
                            "both tables listed")
                listed = killed = time.monotonic()
                dying.kill(signal.SIGKILL)
                await until(lambda: dead not in ours.tables, DEAD_HOST_GONE_WITHIN,
                            "the killed host's table gone")
                ours_gone = time.monotonic() - killed
                gone = await asyncio.to_thread(independent.wait_removed, dead,
                                               DEAD_HOST_GONE_WITHIN)
                assert dead in independent.expired  # nobody said goodbye
                await asyncio.sleep(listed + RECORD_TTL + RECHECK_EVERY - time.monotonic())
                assert alive not in independent.removed and alive in ours.tables
                return gone - killed, ours_gone
        finally:
            await ours.close()

    try:
        independent_gone, ours_gone = asyncio.run(run())
    finally:
        independent.close()
    assert independent_gone <= RECORD_TTL + 1 and ours_gone < DEAD_HOST_GONE_WITHIN


def test_a_table_mdns_cannot_withdraw_is_logged_and_the_peer_closes_all_the_same(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> Peer:
        peer = await Peer.open(identity(1), tmp_path, host=LOOPBACK, interfaces=[LOOPBACK])
        await peer.host(GameConfig(players=2), "Anna", "red")
        assert peer._announcer is not None

        async def refused(info: object) -> None:
            raise OSError("network is unreachable")

        # the goodbye fails (as a send to a vanished interface would); the rest is real
        peer._announcer._azc.async_unregister_service = refused  # type: ignore[method-assign]
        await peer.close()
        return peer

    with caplog.at_level(logging.WARNING, logger="p2p_burgundy.net.peer"):
        peer = asyncio.run(run())
    assert [r.getMessage() for r in caplog.records] == [
        "could not withdraw our table from mDNS (OSError: network is unreachable): browsers "
        "may list it until its records expire"]
    assert peer._announcer is None and peer.transport._sock.fileno() == -1  # closed


def test_a_table_hosted_as_the_peer_closes_is_refused_and_never_announced(
        tmp_path: Path) -> None:
    """The client closes its peer when a signal interrupts it, maybe as a table is being
    hosted: one announced after the peer withdrew its tables would never be withdrawn."""
    async def run() -> Peer:
        peer = await Peer.open(identity(1), tmp_path, host=LOOPBACK, interfaces=[LOOPBACK])
        hosting = asyncio.ensure_future(peer.host(GameConfig(players=2), "Anna", "red"))
        await peer.close()
        with pytest.raises(LocalProtocolError, match="the peer is closed"):
            await hosting
        return peer

    assert asyncio.run(run())._announcer is None
