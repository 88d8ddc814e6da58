"""The benchmark scripts of ``bench/`` as modules, for their tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"


def load(name: str) -> Any:
    """``bench/NAME.py`` as a module, without leaving bench/ on the path for every later
    test (its ``engine``, ``bots``, ``lan``... would shadow other modules of those names);
    the script's own imports of its neighbours are found while it loads."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module
