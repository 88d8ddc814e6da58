"""Strategies from outside the package: ``package.module:Name`` names a factory on the
Python path (the current directory included, as with ``python -m``).

The factory is called with the bot's seed (an int) and returns a strategy: an object with a
``name`` and a ``choose(state, actions)`` method (see ``docs/bots.md``).

>>> load("p2p_burgundy.cli.strategies.uniform:RandomStrategy").__name__
'RandomStrategy'
>>> for spec in ("greedy", "p2p_burgundy.nowhere:Bot", "p2p_burgundy.cli.sim:Clever"):
...     try:
...         load(spec)
...     except StrategyError as exc:
...         print(exc)
'greedy' is not a strategy spec: expected package.module:Name
cannot load strategy 'p2p_burgundy.nowhere:Bot': no module named 'p2p_burgundy.nowhere' ...
cannot load strategy 'p2p_burgundy.cli.sim:Clever': module p2p_burgundy.cli.sim has no ...
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Callable
from typing import Any


class StrategyError(ValueError):
    """A strategy that cannot be loaded or made (the message says which and why)."""


def is_spec(name: str) -> bool:
    """Whether ``name`` names an external strategy (``package.module:Name``) rather than a
    built-in one."""
    return ":" in name


def load(spec: str) -> Callable[[int], Any]:
    """The factory ``spec`` names; StrategyError if the module or the name is missing, the
    import fails, or the name is not callable."""
    module_name, _, attribute = spec.partition(":")
    if not (is_spec(spec) and _dotted(module_name) and _dotted(attribute)):
        raise StrategyError(f"{spec!r} is not a strategy spec: expected package.module:Name")
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as `python -m` does; after the installed packages
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise StrategyError(f"cannot load strategy {spec!r}: no module named "
                                f"{module_name!r} on the Python path") from None
        raise StrategyError(f"cannot load strategy {spec!r}: importing {module_name} "
                            f"failed: {exc}") from exc
    except Exception as exc:  # whatever the module's own code raised
        raise StrategyError(f"cannot load strategy {spec!r}: importing {module_name} "
                            f"raised {type(exc).__name__}: {exc}") from exc
    factory: object = module
    for part in attribute.split("."):
        if not hasattr(factory, part):
            raise StrategyError(f"cannot load strategy {spec!r}: module {module_name} has no "
                                f"attribute {attribute!r}")
        factory = getattr(factory, part)
    if not callable(factory):
        raise StrategyError(f"cannot load strategy {spec!r}: {attribute} is a "
                            f"{type(factory).__name__}, not a class or function")
    return factory


def make_external(spec: str, seed: int) -> Any:
    """A new strategy from ``spec``'s factory, called with ``seed``; StrategyError if it
    raises or returns something without a ``name`` and a ``choose`` method."""
    factory = load(spec)
    try:
        strategy = factory(seed)
    except Exception as exc:
        raise StrategyError(f"strategy {spec!r} failed to start: "
                            f"{type(exc).__name__}: {exc}") from exc
    if not callable(getattr(strategy, "choose", None)):
        raise StrategyError(f"strategy {spec!r} made a {type(strategy).__name__}, which has no "
                            "choose(state, actions) method")
    if not isinstance(getattr(strategy, "name", None), str):
        raise StrategyError(f"strategy {spec!r} made a {type(strategy).__name__}, which has no "
                            "name (a str)")
    return strategy


def _dotted(text: str) -> bool:
    return bool(text) and all(part.isidentifier() for part in text.split("."))
