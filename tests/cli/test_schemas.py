"""The JSON Schemas in docs/schemas/: each is a valid draft 2020-12 schema whose id matches its
file name, each is listed in docs/bots.md, and each refuses what it must (a document of
another version, a missing key)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.cli.schemas import DIR, problems

FILES = sorted(DIR.glob("*.schema.json"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_each_schema_is_valid_and_named_by_its_id(path: Path) -> None:
    schema = json.loads(path.read_text())
    Draft202012Validator.check_schema(schema)
    name, version = path.name.removesuffix(".schema.json").split(".v")
    assert schema["$id"] == f"urn:p2p-burgundy:{name}:{version}"
    assert f"`{path.name}`" in (DIR.parent / "bots.md").read_text()


def test_a_document_of_another_version_or_missing_a_key_is_refused() -> None:
    error = {"command": "bot", "version": 2, "error": "the game did not start in time"}
    assert problems(error, "error") == []
    assert problems({**error, "version": 1}, "error") == ["version: 2 was expected"]
    assert problems({"command": "bot", "version": 2}, "error") == \
        ["$: 'error' is a required property"]
