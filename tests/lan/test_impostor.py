"""An impostor copying a real table's announcement (name, fingerprint, TXT) over real mDNS on
127.0.0.1: ``burgundy tables`` shows both rows marked, a joiner by name tries every match and
sits down at the real table (remembering its host), and with only the impostor there the
error names it."""

from __future__ import annotations

import asyncio
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import asyncio_dgram
import pytest

from p2p_burgundy import GameConfig
from p2p_burgundy.net import wire
from p2p_burgundy.net.discovery import TABLE_ID_BYTES, Announcer, TableInfo, instance_name
from p2p_burgundy.net.identity import Identity, fingerprint, load_or_create
from p2p_burgundy.net.known import KNOWN_HOSTS
from p2p_burgundy.net.lobby import CHALLENGE_DOMAIN, challenge_message
from p2p_burgundy.net.messages import Tag, Welcome

from ..cli.tui.pty_terminal import burgundy as client
from .mdns import Watcher
from .procs import LOOPBACK, Bots, bots, burgundy, free_udp_port

pytestmark = pytest.mark.slow

COPY_ID = bytes(16)  # the impostor's table id: its instance name sorts before any other's
COPY = COPY_ID[:TABLE_ID_BYTES].hex()  # as it shows in the instance name


@contextmanager
def impostor(name: str, fp: str, hold: threading.Event | None = None
             ) -> Iterator[list[str]]:
    """Announce ``name`` with the fingerprint ``fp`` (not ours), and answer every HELLO with a
    WELCOME for a key we do not hold (once ``hold`` is set); yields the tags received, as they
    come. The copy's table id is :data:`COPY_ID`: a joiner that knows neither table tries it
    first (by instance name), as it would an impostor that happens to sort first."""
    seen: list[str] = []
    loop = asyncio.new_event_loop()
    ready = threading.Event()
    rogue = Identity.from_private_bytes(bytes([66]) * 32)

    async def run() -> None:
        stream = await asyncio_dgram.bind((LOOPBACK, 0))
        info = TableInfo(instance_name(name, fp, COPY_ID), name, fp, COPY_ID, 1, 2, "2011",
                         stream.sockname[:2])
        announcer = Announcer(info, [LOOPBACK])
        await announcer.start()
        ready.set()
        try:
            while True:
                data, address = await stream.recv()
                tag, fields = wire.decode_message(data)
                seen.append(Tag(tag).name)
                if tag == Tag.HELLO:
                    while hold is not None and not hold.is_set():
                        await asyncio.sleep(0.05)
                    _, key, nonce, _ = fields
                    signature = rogue.sign(CHALLENGE_DOMAIN, challenge_message(
                        COPY_ID, nonce, key))  # type: ignore[arg-type]
                    await stream.send(Welcome(COPY_ID, rogue.public_key, signature,
                                              b"n" * 16, GameConfig(players=2).to_tree()
                                              ).encode(), address)
        finally:
            stream.close()
            await announcer.close()

    task = loop.create_task(run())
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        assert ready.wait(10)
        yield seen
    finally:
        loop.call_soon_threadsafe(task.cancel)
        asyncio.run_coroutine_threadsafe(asyncio.sleep(1), loop).result(10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)


def _until(condition: Callable[[], bool], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout} s"
        time.sleep(0.05)


def _real_table_while_the_copy_holds(group: Bots, home: Path, name: str, fp: str,
                                     seen: list[str], hold: threading.Event) -> None:
    """Once the joiner tries the copy (the only table of ``name`` yet), open the real table
    from ``home`` and let the copy refuse the joiner when the real one is announced."""
    watcher = Watcher()
    try:
        copy = watcher.wait_added(f"{fp} {COPY}")
        _until(lambda: "HELLO" in seen, 30)
        group.add(home, ["--host", "--players", "2", "--name", name, "--interface", LOOPBACK])
        watcher.wait_added(fp, besides=copy)
    finally:
        watcher.close()
    hold.set()


def _key(home: Path) -> str:
    home.mkdir(parents=True, exist_ok=True)
    return fingerprint(load_or_create(home / "identity.key").public_key)


def test_a_joiner_by_name_tries_every_match_and_sits_down_past_an_impostor(tmp_path: Path
                                                                           ) -> None:
    name = f"Real{free_udp_port()}"
    watcher = Watcher()
    try:
        with bots() as group:
            host = group.add(tmp_path / "host", ["--host", "--players", "2", "--name", name,
                                                 "--interface", LOOPBACK])
            fp = host.hosting()[2]
            watcher.wait_added(fp)
            with impostor(name, fp) as seen:
                watcher.wait_added(f"{fp} {COPY}")  # tried first
                listed = subprocess.run(
                    burgundy("tables", "--interface", LOOPBACK, "--wait", "3",
                             "--home", str(tmp_path / "lister")),
                    capture_output=True, text=True, timeout=60).stdout
                rows = [line for line in listed.splitlines() if fp in line]
                assert len(rows) == 2 and all(
                    "its key is announced twice: one may be a copy" in r for r in rows)
                joiner = group.add(tmp_path / "joiner", [name, "--interface", LOOPBACK])
                group.assert_all_ok(120)
                assert "HELLO" in seen  # it was tried, and refused
            known = (tmp_path / "joiner" / KNOWN_HOSTS).read_text()
            assert known == f"{fp} {name}\n"
            assert joiner.proc is not None
    finally:
        watcher.close()


def test_joining_by_name_where_only_an_impostor_answers_fails_naming_it(tmp_path: Path
                                                                        ) -> None:
    name = f"Gone{free_udp_port()}"
    fp = _key(tmp_path / "victim")
    with impostor(name, fp), bots() as group:
        joiner = group.add(tmp_path / "joiner", [name, "--interface", LOOPBACK,
                                                 "--timeout", "20"])
        assert joiner.wait(60) == 1
        assert (f"no table called {name!r} would take us: {name} [{fp}]" in joiner.stderr
                and "does not match the announced fingerprint (an impostor)" in joiner.stderr), \
            joiner.report()


def test_the_list_marks_a_table_claiming_a_known_name_with_another_key(tmp_path: Path
                                                                       ) -> None:
    name = f"Anna{free_udp_port()}"
    home = tmp_path / "me"
    home.mkdir()
    (home / KNOWN_HOSTS).write_text(f"aaaa-bbbb-cccc-dddd {name}\n")
    fp = _key(tmp_path / "rogue")
    with impostor(name, fp):
        listed = subprocess.run(
            burgundy("tables", "--interface", LOOPBACK, "--wait", "3", "--home", str(home)),
            capture_output=True, text=True, timeout=60).stdout
    [row] = [line for line in listed.splitlines() if fp in line]
    assert row.startswith(f"{name} [{fp}] 1/2 seats, 2011 rules, 127.0.0.1:")
    assert row.endswith(f"(likely impostor: {name} is known with key aaaa-bbbb-cccc-dddd)")


def test_the_client_joining_by_name_tries_every_match_past_an_impostor(tmp_path: Path
                                                                       ) -> None:
    name = f"Host{free_udp_port()}"
    watcher = Watcher()
    try:
        with bots() as group:
            host = group.add(tmp_path / "host", ["--host", "--players", "2", "--name", name,
                                                 "--interface", LOOPBACK])
            fp = host.hosting()[2]
            watcher.wait_added(fp)
            with impostor(name, fp) as seen:
                watcher.wait_added(f"{fp} {COPY}")  # the copy: tried first
                with client(tmp_path / "me", "join", name, "--name", "Jo",
                            "--interface", LOOPBACK) as term:
                    term.wait_for(f"{name} (host)", timeout=30)  # at the real table
                    assert "HELLO" in seen  # after the copy refused us
                    known = tmp_path / "me" / KNOWN_HOSTS
                    assert term.wait_until(known.exists, timeout=10)
                    assert known.read_text() == f"{fp} {name}\n"
    finally:
        watcher.close()


def test_the_client_joining_by_name_tries_a_match_heard_after_the_others_refused_it(
        tmp_path: Path) -> None:
    name = f"Late{free_udp_port()}"
    fp = _key(tmp_path / "host")
    hold = threading.Event()
    with impostor(name, fp, hold) as seen, bots() as group, \
            client(tmp_path / "me", "join", name, "--name", "Jo",
                   "--interface", LOOPBACK) as term:
        _real_table_while_the_copy_holds(group, tmp_path / "host", name, fp, seen, hold)
        term.wait_for(f"{name} (host)", timeout=30)  # at the real table
        known = tmp_path / "me" / KNOWN_HOSTS
        assert term.wait_until(known.exists, timeout=10)
        assert known.read_text() == f"{fp} {name}\n"


def test_a_joiner_by_name_tries_a_match_heard_after_the_others_refused_it(tmp_path: Path
                                                                         ) -> None:
    name = f"Slow{free_udp_port()}"
    fp = _key(tmp_path / "host")
    hold = threading.Event()
    with impostor(name, fp, hold) as seen, bots() as group:
        group.add(tmp_path / "joiner", [name, "--interface", LOOPBACK])
        _real_table_while_the_copy_holds(group, tmp_path / "host", name, fp, seen, hold)
        group.assert_all_ok(120)
    assert (tmp_path / "joiner" / KNOWN_HOSTS).read_text() == f"{fp} {name}\n"
