"""The components document, checked and serialised once: its bytes and their entity tag."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from app.rules import data as rules_data
from app.rulesref.schemas import RulesComponentsOut


@dataclass(frozen=True)
class ComponentsDocument:
    """The JSON body served to clients and its strong ETag (a hash of the body)."""

    body: bytes
    etag: str


def build_document(raw: dict[str, Any]) -> ComponentsDocument:
    """Validate ``raw`` against the public shape and serialise it as the engine holds it."""
    RulesComponentsOut.model_validate(raw)
    body = json.dumps(raw, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return ComponentsDocument(body=body, etag='"' + hashlib.sha256(body).hexdigest()[:32] + '"')


DOCUMENT: ComponentsDocument = build_document(rules_data.RAW)
