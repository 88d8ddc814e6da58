"""tools/typecheck.py shows mypy the package as it installs, under its real module names."""

import doctest
from pathlib import Path

import tools.typecheck
from tests.test_doctests import MODULES
from tools.typecheck import ROOT, lay_out, to_repository_paths


def test_layout_holds_exactly_the_installed_modules(tmp_path: Path) -> None:
    lay_out(ROOT, tmp_path)
    laid = {
        path.relative_to(tmp_path).with_suffix("").as_posix().replace("/", ".")
        .removesuffix(".__init__")
        for path in tmp_path.rglob("*.py")
    }
    assert {"p2p_burgundy.net.peer", "p2p_burgundy.cli.tui.app"} <= laid
    assert laid == set(MODULES)


def test_errors_are_reported_at_the_repository_file(tmp_path: Path) -> None:
    folders = lay_out(ROOT, tmp_path)
    assert to_repository_paths("p2p_burgundy/cli/tui/app.py:7: error: x  [misc]", folders) == (
        "cli/tui/app.py:7: error: x  [misc]"
    )
    assert to_repository_paths("p2p_burgundy/rules.py:1: note: y", folders) == (
        "p2p_burgundy/rules.py:1: note: y"
    )
    assert to_repository_paths("Success: no issues found in 60 source files", folders) == (
        "Success: no issues found in 60 source files"
    )


def test_docstring_examples() -> None:
    assert doctest.testmod(tools.typecheck).failed == 0
