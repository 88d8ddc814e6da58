"""Headless ``burgundy bot`` processes over real UDP on loopback (properties 6, 8 and 9).

Every bot is its own process with its own ``--home`` (key and game files), bound to
127.0.0.1 and announcing/browsing mDNS only there (``--interface 127.0.0.1``), so nothing
leaves the machine. Joiners name the table by the host's fingerprint, so a table someone
else announces on this machine is never joined by mistake.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from p2p_burgundy.net.log import Kind, decode_entry
from p2p_burgundy.net.peer import saved_port

from .procs import LOOPBACK, Bot, bots, burgundy, free_udp_port

pytestmark = pytest.mark.slow

GAME_SECONDS = 120  # a whole random game takes about 5-10 s here


def assert_identical_files(players: list[Bot]) -> bytes:
    files = {b.name: b.game_bytes() for b in players}
    assert len(set(files.values())) == 1, {k: len(v) for k, v in files.items()}
    return next(iter(files.values()))


def assert_verified(path: Path) -> None:
    """``burgundy verify`` accepts the file (exit 0)."""
    result = subprocess.run(burgundy("verify", str(path)), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]


def wait_for_records(bot: Bot, count: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while len(bot.records()) < count:
        assert bot.proc is not None and bot.proc.poll() is None, bot.report()
        assert time.monotonic() < deadline, f"{bot.name} never had {count} entries"
        time.sleep(0.005)


def seat_key(records: list[bytes], name: str) -> bytes:
    """The key of the player called ``name``, from the START entry (the first record)."""
    roster = decode_entry(records[0]).payload[2]  # [table id, config, roster, ...]
    return next(seat[0] for seat in roster if seat[1] == name)  # type: ignore[index, union-attr]


def test_four_bots_find_the_table_by_mdns_and_finish_with_identical_game_files(
    tmp_path: Path,
) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "4",
                                             "--interface", LOOPBACK])
        _, port, fp = host.hosting()
        listing = subprocess.Popen(burgundy("tables", "--interface", LOOPBACK, "--wait", "2"),
                                   stdout=subprocess.PIPE, text=True)
        for i in range(1, 4):
            group.add(tmp_path / f"bot{i}", [fp, "--interface", LOOPBACK])
        group.assert_all_ok(GAME_SECONDS)
        tables, _ = listing.communicate(timeout=30)
        assert f"[{fp}]" in tables and f"{LOOPBACK}:{port}" in tables, tables
        data = assert_identical_files(group.bots)
        for b in group.bots:
            assert "game over" in b.stdout
        codes = {line.split("table code ")[1] for b in group.bots
                 for line in b.stdout.splitlines() if line.startswith("game over")}
        assert len(codes) == 1  # everyone shows the same table code
        assert data.startswith(b"P2PBURGUNDY-GAME")
        assert_verified(host.game_files()[0])


@pytest.mark.parametrize(("victim", "after", "same_port"), [
    (0, 40, True),   # the host, mid-game, back on its port
    (2, 3, False),   # a joiner right after the start, back on a new port
])
def test_killed_peer_resumes_its_seat_and_loses_nothing(
    tmp_path: Path, victim: int, after: int, same_port: bool,
) -> None:
    ports = [free_udp_port() for _ in range(3)]
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", "--interface",
                                             LOOPBACK, "--port", str(ports[0])])
        _, _, fp = host.hosting()
        for i in (1, 2):
            group.add(tmp_path / f"bot{i}", [fp, "--interface", LOOPBACK,
                                             "--port", str(ports[i])])
        killed = group.bots[victim]
        # The game file is written before the "game started" line: wait for both, so the
        # count of that line below says how many times the peer really ran.
        killed.wait_for_output("game started")
        wait_for_records(killed, after)
        killed.kill()  # SIGKILL: no chance to clean up
        before = killed.records()
        mine = [r for r in before if decode_entry(r).author == seat_key(before, killed.name)]
        time.sleep(0.5)
        killed.start(["--resume", "--interface", LOOPBACK]
                     + (["--port", str(ports[victim])] if same_port else []))
        group.assert_all_ok(GAME_SECONDS)
        final = assert_identical_files(group.bots)
        kept = set(killed.records())
        assert set(before) <= kept, "entries the killed peer had saved are missing"
        assert mine and set(mine) <= kept
        assert killed.stdout.count("game started") == 2  # it really ran twice
        assert final
        # The others send to its seat where it came back (their address books say so).
        port = saved_port(killed.game_files()[0])
        assert same_port == (port == ports[victim])
        for bot in group.bots:
            if bot is not killed:
                book = json.loads(bot.game_files()[0].with_suffix(".peers").read_text())
                assert [LOOPBACK, port] in book["seats"].values(), bot.name


def test_peer_that_lost_its_game_file_gets_the_game_back_and_finishes(tmp_path: Path) -> None:
    """Its games directory is deleted; with the same key it rejoins by host:port, gets the
    START entry from the host and its own entries from the others (recovering mode), and
    only then plays on."""
    ports = [free_udp_port() for _ in range(3)]
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", "--interface",
                                             LOOPBACK, "--port", str(ports[0])])
        _, _, fp = host.hosting()
        for i in (1, 2):
            group.add(tmp_path / f"bot{i}", [fp, "--interface", LOOPBACK,
                                             "--port", str(ports[i])])
        lost = group.bots[1]
        wait_for_records(lost, 40)
        lost.kill()
        key = seat_key(lost.records(), lost.name)
        shutil.rmtree(lost.home / "games")
        # What the others hold now includes everything the lost peer sent.
        held = set(group.bots[0].records()) | set(group.bots[2].records())
        lost.start([f"{LOOPBACK}:{ports[0]}", "--interface", LOOPBACK])
        group.assert_all_ok(GAME_SECONDS)
        assert_identical_files(group.bots)
        final = set(lost.records())
        assert held <= final
        assert any(decode_entry(r).author == key for r in held)
        assert "game over" in lost.stdout


def test_a_player_gone_for_good_is_replaced_by_a_bot_and_the_log_verifies(
    tmp_path: Path,
) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", "--interface",
                                             LOOPBACK, "--replace-missing", "2"])
        _, _, fp = host.hosting()
        for i in (1, 2):
            group.add(tmp_path / f"bot{i}", [fp, "--interface", LOOPBACK,
                                             "--replace-missing", "2"])
        gone = group.bots[0]  # the host: its table and lobby go with it
        wait_for_records(gone, 50)
        gone.kill()
        live = group.bots[1:]
        group.assert_all_ok(GAME_SECONDS, live)
        assert_identical_files(live)
        records = live[0].records()
        agreements = [decode_entry(r) for r in records
                      if decode_entry(r).kind == Kind.SEAT_TO_BOT]
        assert len(agreements) == 2  # one signed agreement from each live player
        assert {e.payload[0] for e in agreements} == {0}
        assert_verified(live[0].game_files()[0])


@pytest.mark.parametrize("by_name", [False, True], ids=["address", "host-name"])
def test_manual_join_by_address_works_with_mdns_off(tmp_path: Path, by_name: bool) -> None:
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "2", "--no-mdns",
                                             "--interface", LOOPBACK])
        address, port, _ = host.hosting()
        target = "localhost" if by_name else address  # a name: replies come from 127.0.0.1
        group.add(tmp_path / "bot1", [f"{target}:{port}", "--no-mdns"])
        group.assert_all_ok(GAME_SECONDS)
        assert_identical_files(group.bots)


def test_joining_by_name_with_mdns_off_is_refused_with_a_hint(tmp_path: Path) -> None:
    result = subprocess.run(
        burgundy("bot", "--home", str(tmp_path), "--no-mdns", "some-table"),
        capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "host:port" in result.stderr


def test_joining_an_address_where_nobody_answers_fails_in_seconds_naming_it(
    tmp_path: Path,
) -> None:
    port = free_udp_port()  # nothing listens there
    started = time.monotonic()
    result = subprocess.run(
        burgundy("bot", "--home", str(tmp_path), "--no-mdns", "--interface", LOOPBACK,
                 f"{LOOPBACK}:{port}"), capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert time.monotonic() - started < 30
    assert result.stderr == (f"burgundy bot: no answer from {LOOPBACK}:{port} in 10 s: check "
                             "the address and the port, that the host is still at its table, "
                             "and that no firewall blocks UDP between you\n")


def test_a_host_killed_in_the_lobby_is_named_and_found_again_when_it_restarts(
    tmp_path: Path,
) -> None:
    """The host dies after a player sat down; that player says so within seconds, keeps
    asking, joins the table the host opens when it restarts (same key and port), and the
    game then starts and finishes."""
    port = free_udp_port()
    with bots() as group:
        host = group.add(tmp_path / "host", ["--host", "--players", "3", "--no-mdns",
                                             "--interface", LOOPBACK, "--port", str(port)])
        _, _, fp = host.hosting()
        waiting = group.add(tmp_path / "bot1", [f"{LOOPBACK}:{port}", "--no-mdns"])
        waiting.wait_for_socket()
        time.sleep(1.0)  # it joins in milliseconds; the host then repeats its roster
        host.kill()
        silent = (f"host [{fp}] at {LOOPBACK}:{port} has not answered for 3 s: check that it "
                  "is still running and at its table, and the network between you; waiting "
                  "for it to come back\n")
        waiting.wait_for_output(re.escape(silent), timeout=10)
        host.start()
        waiting.wait_for_output(re.escape(f"host [{fp}] at {LOOPBACK}:{port} is back at a new "
                                          "table: joining again\n"))
        group.add(tmp_path / "bot2", [f"{LOOPBACK}:{port}", "--no-mdns"])
        group.assert_all_ok(GAME_SECONDS)
        assert_identical_files(group.bots)
        assert waiting.stdout.count("has not answered") == 1
