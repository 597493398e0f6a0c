"""A record as an import hands it over: the body's JSON object (``parse_body``), then the record
checked strictly, its format first (``parse_record``). Nothing here is replayed or stored
(app/records/service.py does that)."""

from __future__ import annotations

import json

from pydantic import ValidationError

from app.errors import Malformed
from app.records.errors import RulesMismatch, UnsupportedFormat
from app.records.schemas import FORMAT, FORMAT_VERSION, GameRecord
from app.records.shapes import JSONObject
from app.records.version import rules_version


def parse_body(raw: bytes) -> JSONObject:
    """The JSON object of an import's body. Not JSON, not UTF-8, nested past what the parser
    takes (a record nests five deep; ``[[[…`` a hundred thousand deep is refused, not a
    crash) or not an object: ``malformed``."""
    try:
        body = json.loads(raw)
    except RecursionError as exc:
        raise Malformed("the body nests too deeply to be a record") from exc
    except ValueError as exc:  # not JSON, or not UTF-8
        raise Malformed("the body is not JSON") from exc
    if not isinstance(body, dict):
        raise Malformed("a record is a JSON object")
    return body


def parse_record(body: JSONObject) -> GameRecord:
    """A record from a request body: the format first (a record of another format or version
    is ``unsupported_format``, whatever its fields), then every field strictly."""
    fmt, version = body.get("format"), body.get("format_version")
    if fmt != FORMAT or type(version) is not int or version != FORMAT_VERSION:
        raise UnsupportedFormat(
            f"this server reads records of format {FORMAT!r} version {FORMAT_VERSION}"
        )
    try:
        record = GameRecord.model_validate(body)
    except ValidationError as exc:
        details = [
            {"loc": ["body", *e.get("loc", ())], "msg": str(e.get("msg", ""))}
            for e in exc.errors()[:20]
        ]
        raise Malformed("malformed record", details=details) from exc
    if record.rules_version != rules_version():
        raise RulesMismatch(
            f"the record was played with rules data {record.rules_version}; "
            f"this server has {rules_version()}",
            expected=rules_version(),
        )
    return record
