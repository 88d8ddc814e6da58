"""Known hosts (like SSH's known_hosts) and what the list of tables says of each table."""

from __future__ import annotations

from pathlib import Path

from p2p_burgundy.cli.lan import trial_order
from p2p_burgundy.net.discovery import TableInfo
from p2p_burgundy.net.known import KNOWN_HOSTS, KnownHosts, load, marks, save

REAL, OTHER = "aaaa-aaaa-aaaa-aaaa", "bbbb-bbbb-bbbb-bbbb"


def table(instance: str, name: str, fp: str, port: int = 4000) -> TableInfo:
    return TableInfo(instance, name, fp, b"", 1, 2, "2011", ("10.0.0.9", port))


def test_known_hosts_round_trip_through_their_file(tmp_path: Path) -> None:
    assert load(tmp_path).names == {}  # no file yet
    known = KnownHosts()
    assert known.remember("Anna", REAL) and not known.remember("Anna", REAL)
    known.remember("Bo", OTHER)
    save(tmp_path, known)
    assert (tmp_path / KNOWN_HOSTS).read_text() == f"{REAL} Anna\n{OTHER} Bo\n"
    assert load(tmp_path).names == {"Anna": {REAL}, "Bo": {OTHER}}
    (tmp_path / KNOWN_HOSTS).write_text(f"# comment\n\ngarbage\n{REAL} Anna Maria\n")
    assert load(tmp_path).names == {"Anna Maria": {REAL}}  # names may hold spaces


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
