"""The JSON Schemas of every JSON document the commands print and read (docs/schemas/), and a
check of a document against one.

Each file is ``NAME.vVERSION.schema.json`` with the ``$id`` ``urn:p2p-burgundy:NAME:VERSION``;
schemas refer to each other by those ids, so every file is loaded into one registry.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

DIR = Path(__file__).resolve().parents[2] / "docs" / "schemas"


@cache
def registry() -> Registry:
    resources = [Resource.from_contents(json.loads(path.read_text()))
                 for path in sorted(DIR.glob("*.schema.json"))]
    return Registry().with_resources((r.id(), r) for r in resources if r.id() is not None)


def schema_id(name: str) -> str:
    """The id of the one schema file called ``name`` (any version)."""
    [path] = DIR.glob(f"{name}.v*.schema.json")
    version = path.name.removeprefix(f"{name}.v").removesuffix(".schema.json")
    return f"urn:p2p-burgundy:{name}:{version}"


def problems(doc: object, name: str) -> list[str]:
    """Every way ``doc`` breaks the schema ``name`` (empty when it fits)."""
    schema = registry().contents(schema_id(name))
    validator = Draft202012Validator(schema, registry=registry())
    return [f"{'/'.join(map(str, e.absolute_path)) or '$'}: {e.message}"
            for e in validator.iter_errors(doc)]
