"""Build the optional compiled build: the engine and the bots' value and search, by mypyc.

The compiled build is the same source compiled to C extension modules (mypyc compiles the
``mypy --strict`` typed modules as they are; there is no second implementation). This script
lays the package out as installed (as ``tools/typecheck.py`` does, so the modules get their
installed names), compiles :data:`COMPILED` there, and puts each extension module beside its
source in the repository, where the editable install imports it in place of the ``.py``
file. Needs mypy (the ``test`` extra) and a C compiler with Python's headers.

Run from the repository root::

    .venv/bin/python tools/build_compiled.py          # build (again, after changing the source)
    .venv/bin/python tools/build_compiled.py --remove # back to the pure Python build

``burgundy --version`` says which build runs. Setting ``P2P_BURGUNDY_PURE=1`` runs the pure
Python modules even where the compiled ones are built (the tests compare the two that way).

Beside the build goes its record of the sources it was compiled from
(``p2p_burgundy/build_record.py``): after any of them changes, the package runs its source
files, saying on stderr that the build is stale, until this command builds it again.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import sys
import sysconfig
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from typecheck import ROOT, lay_out

# The modules compiled, by installed folder: every module of the engine but the package's
# __init__ (it is what hides the compiled modules on request) and build_record.py (it says
# whether the build may run).
COMPILED: dict[str, tuple[str, ...]] = {
    "p2p_burgundy": (
        "actions.py", "board.py", "border_posts.py", "chance.py", "config.py", "errors.py",
        "estate.py", "extra_tiles.py", "inns.py", "pickling.py", "record.py", "rivers.py",
        "rules.py", "scoring.py", "shields.py", "solo.py", "state.py", "team.py", "tiles.py",
        "trade.py", "trade_routes.py", "turn.py", "variants.py", "white_castles.py", "words.py"),
    "p2p_burgundy/cli/strategies": ("greedy.py", "value.py", "mcts.py"),
}
# mypyc's shared library of the whole group: one extension module inside the package.
GROUP = "p2p_burgundy.compiled"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def compiled_sources() -> list[str]:
    """The installed paths (relative to the layout) of every module to compile."""
    return [f"{folder}/{name}" for folder, names in COMPILED.items() for name in names]


def compiled_from(layout: Path, modules: list[str]) -> list[str]:
    """The installed paths (relative to ``layout``) of every module the compiled ``modules``
    were compiled from: their own, their packages' ``__init__`` and every module of the
    package they import, directly or not (mypy reads them all, and mypyc builds their types
    and their ``Final`` constants into the compiled code)."""
    seen: set[str] = set()
    todo = list(modules)
    while todo:
        path = todo.pop()
        if path not in seen:
            seen.add(path)
            todo.extend(_package_imports(layout, path))
    return sorted(seen)


def _package_imports(layout: Path, path: str) -> list[str]:
    """The installed paths of the package's modules that the module at ``path`` imports (under
    ``if TYPE_CHECKING`` too), and of its parent packages' ``__init__``."""
    parts = path.removesuffix(".py").split("/")
    package = parts[:-1]  # of a package's __init__ too: the package itself
    names = [".".join(parts[:cut]) for cut in range(1, len(parts))]  # the parent packages
    for node in ast.walk(ast.parse((layout / path).read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # ``from ..x import y``: x in the package ``level - 1`` packages up
            above = package[:len(package) - node.level + 1] if node.level else []
            base = ".".join([*above, *([node.module] if node.module else [])])
            names.append(base)
            names.extend(f"{base}.{alias.name}" for alias in node.names)
    found = []
    for name in names:
        for candidate in (name.replace(".", "/") + ".py", name.replace(".", "/") + "/__init__.py"):
            if (layout / candidate).is_file():
                found.append(candidate)
    return found


def built_extensions(folders: dict[str, str]) -> list[Path]:
    """Every compiled extension module now in the repository's folders."""
    return sorted(path for folder in folders.values()
                  for path in (ROOT / folder).glob("*" + SUFFIX))


def build(jobs: int) -> list[Path]:
    """Compile in a temporary layout; move the extension modules into the repository."""
    from mypyc.build import mypycify  # the test extra's mypy: only this command needs it
    from setuptools import Distribution

    with tempfile.TemporaryDirectory(prefix="compiled-") as tmp:
        layout = Path(tmp)
        folders = lay_out(ROOT, layout)
        remove(folders)
        cwd = os.getcwd()
        os.chdir(layout)  # mypyc takes the module names from the paths relative to here
        try:
            extensions = mypycify(
                ["--config-file", str(ROOT / "pyproject.toml"), *compiled_sources()],
                opt_level="3", group_name=GROUP)
            dist = Distribution({"name": "p2p-burgundy-compiled", "ext_modules": extensions})
            command = dist.get_command_obj("build_ext")
            command.build_lib = str(layout / "out")  # type: ignore[attr-defined]
            command.build_temp = str(layout / "tmp")  # type: ignore[attr-defined]
            command.parallel = jobs  # type: ignore[attr-defined]
            dist.run_command("build_ext")
        finally:
            os.chdir(cwd)
        moved = []
        for built in sorted((layout / "out").rglob("*" + SUFFIX)):
            installed = str(built.parent.relative_to(layout / "out")) + "/"
            target = ROOT / folders[installed] / built.name
            shutil.move(built, target)
            moved.append(target)
        record(layout, folders)
    return moved


def record(layout: Path, folders: dict[str, str]) -> Path:
    """Write the build's record of its sources: each source by its path in the repository,
    fingerprinted as the copy in ``layout`` that was compiled (an edit made during the build
    leaves the build stale)."""
    from p2p_burgundy import build_record  # the source files: main() asked for them

    def in_repository(installed: str) -> str:
        folder, _, name = installed.rpartition("/")
        return folders[folder + "/"] + name

    return build_record.write(ROOT / "p2p_burgundy", (
        (in_repository(path), layout / path)
        for path in compiled_from(layout, compiled_sources())))


def remove(folders: dict[str, str]) -> list[Path]:
    """Delete the compiled extension modules and their record from the repository (the pure
    build remains)."""
    from p2p_burgundy import build_record  # the source files: main() asked for them

    gone = built_extensions(folders)
    for path in gone:
        path.unlink()
    (ROOT / "p2p_burgundy" / build_record.RECORD).unlink(missing_ok=True)
    return gone


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--remove", action="store_true",
                        help="delete the compiled modules: back to the pure Python build")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="C compilers run at once (default: one a core)")
    args = parser.parse_args(argv)
    # This command replaces the compiled build: the package it imports (for the record) is its
    # source, never the build it deletes (nor does the import warn that the build is stale).
    os.environ["P2P_BURGUNDY_PURE"] = "1"
    if args.remove:
        with tempfile.TemporaryDirectory(prefix="compiled-") as tmp:
            gone = remove(lay_out(ROOT, Path(tmp)))
        print(f"removed {len(gone)} compiled modules")
        return 0
    start = time.monotonic()
    moved = build(args.jobs)
    print(f"built {len(moved)} extension modules in {time.monotonic() - start:.0f} s:")
    for path in moved:
        print("  " + str(path.relative_to(ROOT)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
