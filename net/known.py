"""Hosts seen before, remembered like SSH's ``known_hosts``, and what the list of tables may
say about each announcement.

An announcement is only a hint: anyone can announce a table under any name and fingerprint.
Two things give a stranger away before anyone joins it. A host that proved its key to us once
is remembered by name (``<data dir>/known_hosts``, one ``FINGERPRINT NAME`` a line): a table
that claims that name with another key is a likely impostor. And of a key announced twice,
one announcement may be a copy (only the holder of the key can prove it; the lobby handshake
tells), unless its holder hosts two tables. Sans-I/O but for :func:`load` and :func:`append`.

>>> known = KnownHosts.parse("6r9h-etv0-q9se-9prt Anna\\n")
>>> anna = TableInfo("Anna x._burgundy._udp.local.", "Anna", "zzzz-zzzz-zzzz-zzzz", b"", 1, 2,
...                  "2011", ("10.0.0.9", 4000))
>>> known.warning(anna)
'likely impostor: Anna is known with key 6r9h-etv0-q9se-9prt'
>>> known.remember("Anna", "zzzz-zzzz-zzzz-zzzz"), known.warning(anna)
(True, None)
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .discovery import TableInfo
from .identity import is_fingerprint
from .start import name_ok

KNOWN_HOSTS = "known_hosts"


@dataclass
class KnownHosts:
    """Host name -> the fingerprints that proved their key under that name."""

    names: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> KnownHosts:
        """The file's text; lines that are not ``FINGERPRINT NAME`` are skipped."""
        known = cls()
        for line in text.splitlines():
            fp, _, name = line.strip().partition(" ")
            if fp and name and not fp.startswith("#"):
                known.names.setdefault(name, set()).add(fp)
        return known

    def remember(self, name: str, fingerprint: str) -> bool:
        """A host called ``name`` proved the key ``fingerprint``; True if that is news."""
        fingerprints = self.names.setdefault(name, set())
        if fingerprint in fingerprints:
            return False
        fingerprints.add(fingerprint)
        return True

    def knows(self, table: TableInfo) -> bool:
        """Whether ``table``'s host proved this very key under this name before."""
        return table.fingerprint in self.names.get(table.host_name, ())

    def warning(self, table: TableInfo) -> str | None:
        """Why ``table`` looks like an impostor by its name, or None."""
        fingerprints = self.names.get(table.host_name)
        if not fingerprints or table.fingerprint in fingerprints:
            return None
        return (f"likely impostor: {table.host_name} is known with key "
                f"{', '.join(sorted(fingerprints))}")


def claimed_twice(tables: Iterable[TableInfo]) -> set[str]:
    """The instances of tables whose key is announced by another table too (one may be a
    copy: only the key's holder can prove it).

    >>> a = TableInfo("A 1", "A", "fp", b"", 1, 2, "2011", ("10.0.0.1", 1))
    >>> b = TableInfo("A 2", "A", "fp", b"", 1, 2, "2011", ("10.0.0.2", 1))
    >>> sorted(claimed_twice([a, b]))
    ['A 1', 'A 2']
    """
    by_key: dict[str, list[str]] = {}
    for table in tables:
        by_key.setdefault(table.fingerprint, []).append(table.instance)
    return {instance for instances in by_key.values() if len(instances) > 1
            for instance in instances}


def marks(tables: Iterable[TableInfo], known: KnownHosts) -> dict[str, str]:
    """What the list of tables says beside each table (by instance), if anything."""
    tables = list(tables)
    twice = claimed_twice(tables)
    out = {}
    for table in tables:
        if (warning := known.warning(table)) is not None:
            out[table.instance] = warning
        elif table.instance in twice:
            out[table.instance] = "its key is announced twice: one may be a copy"
        elif known.knows(table):
            out[table.instance] = "known host"
    return out


def load(data_dir: Path) -> KnownHosts:
    """The known hosts in ``data_dir`` (none if there is no file or it cannot be read)."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        return KnownHosts.parse((data_dir / KNOWN_HOSTS).read_text(encoding="utf-8"))
    return KnownHosts()


def append(data_dir: Path, name: str, fingerprint: str) -> None:
    """Add ``FINGERPRINT NAME`` to the known hosts file in ``data_dir`` (as SSH does: one
    write at the end, never a rewrite, so that peers of one data directory remembering hosts
    at once lose none of them; a line already there is harmless, :meth:`KnownHosts.parse`
    keeps it once)."""
    if not name_ok(name) or not is_fingerprint(fingerprint):
        raise ValueError(f"not a host to remember: {fingerprint!r} {name!r}")
    data_dir.mkdir(parents=True, exist_ok=True)
    line = f"{fingerprint} {name}\n".encode()
    with open(data_dir / KNOWN_HOSTS, "ab+") as file:  # appends, wherever it reads
        if file.seek(0, os.SEEK_END):
            file.seek(-1, os.SEEK_END)
            if file.read(1) != b"\n":  # a last line cut short (a crash, an editor)
                line = b"\n" + line
        file.write(line)
