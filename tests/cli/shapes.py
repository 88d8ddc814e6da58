"""The JSON shapes documented in docs/bots.md (each a ``<!-- shape: NAME -->`` block), and a
check of a document against one.

A shape is a JSON template: a string names the type of the value (``"int"``, ``"str"``,
``"float"``, ``"bool"``, ``"list"``, ``"object"``, or several joined by ``|``, ``null``
among them), ``[X]`` is a list of X, ``{"*": X}`` an object of names to X, and any other
object has exactly its keys (more may be added later: extra keys are allowed); a key ending
in ``?`` holds that object or null.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
TYPES = {"int": int, "str": str, "float": (int, float), "bool": bool, "list": list,
         "object": dict, "null": type(None)}


def shapes() -> dict[str, object]:
    text = DOC.read_text()
    blocks = re.findall(r"<!-- shape: (\w+) -->\n```json\n(.*?)```", text, re.S)
    return {name: json.loads(body) for name, body in blocks}


def shape(*names: str) -> dict[str, object]:
    """The union of the object shapes ``names`` (a document that extends another)."""
    found = shapes()
    merged: dict[str, object] = {}
    for name in names:
        merged.update(found[name])  # type: ignore[arg-type]
    return merged


def problems(value: object, template: object, where: str = "$") -> list[str]:
    """Every way ``value`` does not fit ``template`` (empty when it fits)."""
    if isinstance(template, str):
        names = template.split("|")
        kinds = tuple(TYPES[t] for t in names)
        bad = not isinstance(value, kinds) or (type(value) is bool and "bool" not in names)
        return [f"{where}: {value!r} is not {template}"] if bad else []
    if isinstance(template, list):
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [p for i, item in enumerate(value)
                for p in problems(item, template[0], f"{where}[{i}]")]
    assert isinstance(template, dict)
    if not isinstance(value, dict):
        return [f"{where}: {value!r} is not an object"]
    if set(template) == {"*"}:
        return [p for k, v in value.items() for p in problems(v, template["*"], f"{where}.{k}")]
    found = []
    for key, inner in template.items():
        name, nullable = (key[:-1], True) if key.endswith("?") else (key, False)
        if name not in value:
            found.append(f"{where}: no {name!r}")
        elif not (nullable and value[name] is None):
            found.extend(problems(value[name], inner, f"{where}.{name}"))
    return found
