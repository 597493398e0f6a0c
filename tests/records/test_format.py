"""The record format's documents: the committed JSON Schema is current and describes the
example; the rules-data version follows the numbers, not the layout."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.records.bounds import MAX_RECORD_MOVES
from app.records.jsonschema import record_schema, render
from app.records.version import rules_version, rules_version_of

DOCS = Path(__file__).resolve().parents[2] / "docs"
COMPONENTS = Path(__file__).resolve().parents[2] / "app" / "rules" / "data" / "components.json"


def test_committed_record_schema_is_current() -> None:
    committed = (DOCS / "records.schema.json").read_text(encoding="utf-8")
    assert committed == render(), (
        "docs/records.schema.json is stale: python -m app.records.jsonschema > it"
    )


def test_schema_names_every_part_of_a_record(example: dict[str, Any]) -> None:
    schema = record_schema()
    assert set(schema["required"]) >= {
        "format",
        "format_version",
        "rules_version",
        "options",
        "players",
        "seed",
        "moves",
    }
    assert schema["properties"]["moves"]["maxItems"] == MAX_RECORD_MOVES
    assert schema["additionalProperties"] is False
    assert set(example) <= set(schema["properties"])


def test_rules_version_follows_the_numbers_not_the_layout() -> None:
    text = COMPONENTS.read_text(encoding="utf-8")
    assert rules_version() == rules_version_of(text)
    data = json.loads(text)
    assert rules_version_of(json.dumps(data, indent=4, sort_keys=False)) == rules_version()
    assert rules_version_of(json.dumps(data, separators=(",", ":"))) == rules_version()
    data["slots"] = [*data["slots"], 4]
    assert rules_version_of(json.dumps(data)) != rules_version()
    assert rules_version().startswith("sha256:") and len(rules_version()) == 23


def test_records_documentation_names_every_field() -> None:
    text = (DOCS / "records.md").read_text(encoding="utf-8")
    schema = record_schema()
    missing = [f for f in schema["properties"] if f"`{f}`" not in text]
    for name, sub in schema["$defs"].items():
        if name.startswith("Record"):
            missing += [f"{name}.{f}" for f in sub.get("properties", {}) if f"`{f}`" not in text]
    assert missing == []
