"""The JSON Schema of a game record (format 1), generated from app/records/schemas.py.

``python -m app.records.jsonschema > docs/records.schema.json`` writes the committed copy (a
test fails when it is stale).
"""

from __future__ import annotations

import json
from typing import Any

from app.records.schemas import GameRecord


def record_schema() -> dict[str, Any]:
    schema = GameRecord.model_json_schema(mode="validation")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://emara.example/docs/records.schema.json",
        **schema,
    }


def render() -> str:
    return json.dumps(record_schema(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(render(), end="")
