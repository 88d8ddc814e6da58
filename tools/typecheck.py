"""Run ``mypy --strict`` on the whole package as it installs: engine, network and client.

The network layer (``net/``) and the client (``cli/``) install as ``p2p_burgundy.net`` and
``p2p_burgundy.cli`` through pyproject's ``[tool.setuptools.package-dir]``. The editable
install finds them with an import hook that mypy cannot see, and checking the folders by path
would name them ``net`` and ``cli``. So this script lays the package out in a temporary folder
the way setuptools installs it (every package listed in ``[tool.setuptools] packages``, from the
folder its mapping names), runs mypy there with pyproject's ``[tool.mypy]`` settings, and
reports each error at its file in the repository (``net/peer.py``, not
``p2p_burgundy/net/peer.py``).

The benchmarks (``bench/``) are checked with it: they are not installed, but they use the
package as it installs, and each other as scripts do (a script's folder is its import path:
``from engine import Served``), which mypy sees in the same layout.

Run from the repository root (the README's test command does)::

    .venv/bin/python tools/typecheck.py

Extra arguments go to mypy. The exit code is mypy's.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Mapping, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "p2p_burgundy"
SCRIPTS = "bench"
"""The folder of scripts checked with the package: they import it, and each other."""


def source_folder(package: str, package_dir: Mapping[str, str]) -> str:
    """The repository folder a package installs from, by the longest mapped prefix.

    >>> source_folder("p2p_burgundy.cli.tui", {"p2p_burgundy": "p2p_burgundy",
    ...                                         "p2p_burgundy.cli": "cli"})
    'cli/tui'
    """
    parts = package.split(".")
    for cut in range(len(parts), 0, -1):
        mapped = package_dir.get(".".join(parts[:cut]))
        if mapped is not None:
            return "/".join([mapped, *parts[cut:]])
    return "/".join(parts)


def lay_out(root: Path, target: Path) -> dict[str, str]:
    """Copy the packages' modules under ``target`` as installed; return installed→repo folders."""
    tool = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    packages: list[str] = tool["setuptools"]["packages"]
    package_dir: dict[str, str] = tool["setuptools"].get("package-dir", {})
    folders = {}
    for package in packages:
        installed = package.replace(".", "/")
        source = source_folder(package, package_dir)
        (target / installed).mkdir(parents=True, exist_ok=True)
        for module in sorted((root / source).glob("*.py")):
            shutil.copy2(module, target / installed / module.name)
        typed = root / source / "py.typed"
        if typed.exists():
            shutil.copy2(typed, target / installed / "py.typed")
        folders[installed + "/"] = source + "/"
    return folders


def copy_scripts(root: Path, target: Path) -> dict[str, str]:
    """Copy the :data:`SCRIPTS` folder's modules under ``target``; return its folder mapping."""
    (target / SCRIPTS).mkdir()
    for module in sorted((root / SCRIPTS).glob("*.py")):
        shutil.copy2(module, target / SCRIPTS / module.name)
    return {SCRIPTS + "/": SCRIPTS + "/"}


def to_repository_paths(line: str, folders: Mapping[str, str]) -> str:
    """Rewrite an installed path at the start of a mypy line to the repository's path.

    >>> to_repository_paths("p2p_burgundy/net/peer.py:3: error: x",
    ...                     {"p2p_burgundy/": "p2p_burgundy/", "p2p_burgundy/net/": "net/"})
    'net/peer.py:3: error: x'
    """
    match = re.match(r"([\w/]+/)([\w.]+\.py\b)", line)
    if match is None or match.group(1) not in folders:
        return line
    return folders[match.group(1)] + line[len(match.group(1)):]


def main(argv: Sequence[str] | None = None) -> int:
    extra = list(sys.argv[1:] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix="typecheck-") as tmp:
        folders = lay_out(ROOT, Path(tmp)) | copy_scripts(ROOT, Path(tmp))
        run = subprocess.run(
            [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
             "--cache-dir", str(ROOT / ".mypy_cache"), *extra, PACKAGE, SCRIPTS],
            cwd=tmp, capture_output=True, text=True, check=False,
        )
    for line in run.stdout.splitlines():
        print(to_repository_paths(line, folders))
    sys.stderr.write(run.stderr)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
