"""The compiled build's record of its sources, so that a build older than its source never runs.

``tools/build_compiled.py`` writes the record (:data:`RECORD`, beside the compiled build's
shared library) when it builds: every source file the build was compiled from, by its path in
the repository, with its size, modification time and SHA-256. Those are the compiled modules'
own files and every module of the package they import, directly or not: mypyc builds their
types and constants into the compiled code, so a change there makes the build stale too.

On import, before any compiled module is imported, the package asks :func:`stale_build`; when
the build is stale it imports its source files only (as with ``P2P_BURGUNDY_PURE=1``) and says
so once on stderr (:func:`warning`), naming what changed and the command that rebuilds.
Nothing here imports the package: this module runs first.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

RECORD = "compiled_sources.json"
"""The record's file name, in the package's folder beside the shared library."""
LIBRARY = "compiled__mypyc.*"
"""The compiled build's shared library in the package's folder (its name with any suffix)."""


def fingerprint(path: Path) -> dict[str, int | str]:
    """``path``'s size, modification time (ns) and SHA-256 (hex)."""
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns,
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def write(package: Path, sources: Iterable[tuple[str, Path]]) -> Path:
    """Record the build beside ``package`` (the package's folder) as compiled from ``sources``:
    each source's path relative to the repository (``package``'s parent) and the file that was
    compiled (a copy, whose fingerprint is the source's as it was then); the record's path."""
    record = package / RECORD
    fingerprints = {name: fingerprint(compiled) for name, compiled in sorted(sources)}
    record.write_text(json.dumps({"sources": fingerprints}, indent=1) + "\n", encoding="utf-8")
    return record


def _changed(root: Path, name: str, recorded: object) -> bool:
    """Whether the source ``name`` (relative to ``root``) differs from its ``recorded``
    fingerprint: gone, or other bytes (size and modification time as before: unchanged)."""
    path = root / name
    try:
        stat = path.stat()
    except OSError:
        return True
    if not isinstance(recorded, dict):
        return True
    if (recorded.get("size"), recorded.get("mtime_ns")) == (stat.st_size, stat.st_mtime_ns):
        return False
    return hashlib.sha256(path.read_bytes()).hexdigest() != recorded.get("sha256")


def stale_build(package: Path) -> str | None:
    """Why the compiled build beside ``package`` (the package's folder) is older than its source,
    in a few words; None when it is not (or there is no compiled build).

    >>> stale_build(Path("/nonexistent")) is None  # no compiled build there
    True
    """
    if next(package.glob(LIBRARY), None) is None:
        return None
    try:
        sources = json.loads((package / RECORD).read_text(encoding="utf-8"))["sources"]
        changed = [name for name, recorded in sorted(sources.items())
                   if _changed(package.parent, name, recorded)]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return f"it has no readable record of its sources, {RECORD}"
    if not changed:
        return None
    return f"{', '.join(changed)} changed since it was built"


def warning(why: str, package: Path) -> str:
    """The line on stderr when the stale build beside ``package`` is left aside (``why``: from
    :func:`stale_build`): what changed, and the command that rebuilds, runnable anywhere.

    >>> print(warning("p2p_burgundy/rules.py changed since it was built",
    ...               Path("/src/p2p_burgundy")), end="")  # doctest: +ELLIPSIS
    p2p_burgundy: the compiled build is stale (p2p_burgundy/rules.py changed since it was \
built): running the pure Python source; rebuild it with: ... /src/tools/build_compiled.py
    """
    command = f"{sys.executable} {package.parent / 'tools' / 'build_compiled.py'}"
    return (f"p2p_burgundy: the compiled build is stale ({why}): running the pure Python "
            f"source; rebuild it with: {command}\n")
