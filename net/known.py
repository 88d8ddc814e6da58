"""Hosts seen before, remembered like SSH's ``known_hosts``, and what the list of tables may
say about each announcement.

An announcement is only a hint: anyone can announce a table under any name and fingerprint.
Two things give a stranger away before anyone joins it. A host that proved its key to us once
is remembered by name (``<data dir>/known_hosts``, one ``FINGERPRINT NAME`` a line): a table
that claims that name with another key is a likely impostor. And of a key announced twice,
one announcement may be a copy (only the holder of the key can prove it; the lobby handshake
tells), unless its holder hosts two tables. Sans-I/O but for :func:`load` and :func:`save`.

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

    def text(self) -> str:
        return "".join(f"{fp} {name}\n" for name in sorted(self.names)
                       for fp in sorted(self.names[name]))

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


def save(data_dir: Path, known: KnownHosts) -> None:
    """Write the known hosts to ``data_dir`` (whole, then renamed into place)."""
    path = data_dir / KNOWN_HOSTS
    temporary = path.with_suffix(".tmp")
    data_dir.mkdir(parents=True, exist_ok=True)
    temporary.write_text(known.text(), encoding="utf-8")
    os.replace(temporary, path)
