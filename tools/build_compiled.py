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
"""

from __future__ import annotations

import argparse
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
# __init__, which chooses the build (it is what hides the compiled modules on request).
COMPILED: dict[str, tuple[str, ...]] = {
    "p2p_burgundy": (
        "actions.py", "board.py", "border_posts.py", "chance.py", "config.py", "errors.py",
        "estate.py", "extra_tiles.py", "inns.py", "record.py", "rivers.py", "rules.py",
        "scoring.py", "shields.py", "solo.py", "state.py", "team.py", "tiles.py", "trade.py",
        "trade_routes.py", "turn.py", "variants.py", "white_castles.py"),
    "p2p_burgundy/cli/strategies": ("greedy.py", "value.py", "mcts.py"),
}
# mypyc's shared library of the whole group: one extension module inside the package.
GROUP = "p2p_burgundy.compiled"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX")


def compiled_sources() -> list[str]:
    """The installed paths (relative to the layout) of every module to compile."""
    return [f"{folder}/{name}" for folder, names in COMPILED.items() for name in names]


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
    return moved


def remove(folders: dict[str, str]) -> list[Path]:
    """Delete the compiled extension modules from the repository (the pure build remains)."""
    gone = built_extensions(folders)
    for path in gone:
        path.unlink()
    return gone


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--remove", action="store_true",
                        help="delete the compiled modules: back to the pure Python build")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="C compilers run at once (default: one a core)")
    args = parser.parse_args(argv)
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
