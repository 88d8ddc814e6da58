"""Pickling the engine's frozen dataclasses, alike in the pure and the compiled build.

``sim`` and ``match`` send configs, actions, states and results between processes
(``--jobs``). Unpickling fills an object in field by field, which a frozen dataclass of the
compiled build refuses (``FrozenInstanceError``: mypyc sets each attribute through the
class, not around it as the pure build does); so each frozen dataclass that crosses defines
``__reduce__`` by :func:`by_constructor`, and is rebuilt by its constructor (which checks it
again, as it checked the original).
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


def by_constructor(value: Any) -> tuple[type[Any], tuple[object, ...]]:
    """``__reduce__`` of a frozen dataclass: its class, and the fields its constructor takes
    in their order."""
    return type(value), tuple(getattr(value, f.name) for f in fields(value) if f.init)
