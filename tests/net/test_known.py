"""Known hosts (like SSH's known_hosts) and what the list of tables says of each table."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from p2p_burgundy.cli.lan import trial_order
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.known import KNOWN_HOSTS, KnownHosts, append, load, marks

REAL, OTHER = "aaaa-aaaa-aaaa-aaaa", "bbbb-bbbb-bbbb-bbbb"


def table(instance: str, name: str, fp: str, port: int = 4000) -> TableInfo:
    return TableInfo(instance, name, fp, b"", 1, 2, "2011", ("10.0.0.9", port))


def test_known_hosts_round_trip_through_their_file(tmp_path: Path) -> None:
    assert load(tmp_path).names == {}  # no file yet
    append(tmp_path, "Anna", REAL)
    append(tmp_path, "Bo", OTHER)
    append(tmp_path, "Anna", REAL)  # remembered twice: kept once
    assert (tmp_path / KNOWN_HOSTS).read_text() == f"{REAL} Anna\n{OTHER} Bo\n{REAL} Anna\n"
    assert load(tmp_path).names == {"Anna": {REAL}, "Bo": {OTHER}}
    (tmp_path / KNOWN_HOSTS).write_text(f"# comment\n\ngarbage\n{REAL} Anna Maria\n")
    assert load(tmp_path).names == {"Anna Maria": {REAL}}  # names may hold spaces


def test_a_host_remembered_after_a_line_cut_short_gets_a_line_of_its_own(tmp_path: Path) -> None:
    (tmp_path / KNOWN_HOSTS).write_text(f"{REAL} Anna\n{OTHER} B")  # a crash mid-write
    append(tmp_path, "Cy", REAL)
    assert load(tmp_path).names == {"Anna": {REAL}, "B": {OTHER}, "Cy": {REAL}}


def test_only_a_name_and_fingerprint_of_their_form_are_written(tmp_path: Path) -> None:
    for name, fp in (("Anna\nbbbb-bbbb-bbbb-bbbb Bo", REAL), ("Anna", f"{REAL}\nx"),
                     ("\x1b[2J", REAL), ("", REAL), ("A" * 33, REAL)):
        with pytest.raises(ValueError, match="not a host to remember"):
            append(tmp_path, name, fp)
    assert not (tmp_path / KNOWN_HOSTS).exists()


def test_peers_of_one_home_remembering_hosts_at_once_lose_none(tmp_path: Path) -> None:
    # Two processes, 300 hosts each, at the same time: a rewrite of the whole file (read,
    # add, write back) lost some of the other's lines.
    program = ("import sys; from pathlib import Path; "
               "from p2p_burgundy.net.known import append\n"
               "for n in range(300): append(Path(sys.argv[1]), f'{sys.argv[2]} {n}', "
               f"{REAL!r})")
    runs = [subprocess.Popen([sys.executable, "-c", program, str(tmp_path), who])
            for who in ("Anna", "Bo")]
    assert [run.wait(timeout=60) for run in runs] == [0, 0]
    names = load(tmp_path).names
    assert sorted(names) == sorted(f"{who} {n}" for who in ("Anna", "Bo") for n in range(300))


def test_the_list_marks_known_hosts_impostors_and_keys_announced_twice() -> None:
    known = KnownHosts({"Anna": {REAL}})
    tables = [table("Anna 1", "Anna", REAL), table("Anna 2", "Anna", OTHER),
              table("Bo 1", "Bo", OTHER, 4001), table("Cy 1", "Cy", "cccc-cccc-cccc-cccc")]
    assert marks(tables, known) == {
        "Anna 1": "known host",
        "Anna 2": f"likely impostor: Anna is known with key {REAL}",
        "Bo 1": "its key is announced twice: one may be a copy",
    }


def test_known_hosts_are_tried_first_and_likely_impostors_last() -> None:
    known = KnownHosts({"Anna": {REAL}})
    fake, real, unknown = (table("Anna 0", "Anna", OTHER), table("Anna 9", "Anna", REAL),
                           table("Anna 5", "Zed", "cccc-cccc-cccc-cccc"))
    assert trial_order([fake, unknown, real], known) == [real, unknown, fake]
