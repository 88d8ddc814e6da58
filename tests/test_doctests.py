"""Every docstring example in the installed package runs and gives what it shows."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import p2p_burgundy
import p2p_burgundy.cli
import p2p_burgundy.net

PACKAGES = (p2p_burgundy, p2p_burgundy.net, p2p_burgundy.cli)
MODULES = sorted(
    {package.__name__ for package in PACKAGES}
    | {
        info.name
        for package in PACKAGES
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + ".")
        if not info.name.endswith("__mypyc")  # the compiled build's shared library, no source
    }
)


def test_every_package_is_collected() -> None:
    assert {"p2p_burgundy.rules", "p2p_burgundy.net.session", "p2p_burgundy.cli.main"} <= set(
        MODULES
    )


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


DOCS = Path(__file__).resolve().parents[1] / "docs"


@pytest.mark.parametrize("name", ["bots.md"])
def test_documentation_examples(name: str) -> None:
    result = doctest.testfile(str(DOCS / name), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
