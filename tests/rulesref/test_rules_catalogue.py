"""The rules page's texts carry no number of their own: every number comes in by a placeholder
from the components data, so a corrected components.json corrects the page in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
PLACEHOLDER = re.compile(r"\{\w+\}")


def digits_outside_placeholders(message: str | dict[str, str]) -> bool:
    forms = message.values() if isinstance(message, dict) else [message]
    return any(re.search(r"\d", PLACEHOLDER.sub("", form)) for form in forms)


@pytest.mark.parametrize("lang", ["en", "cs", "de"])
def test_no_rules_text_holds_a_digit(lang: str) -> None:
    catalogue = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    rules = {k: v for k, v in catalogue.items() if k.startswith("rules.")}
    assert len(rules) > 100
    assert [k for k, v in rules.items() if digits_outside_placeholders(v)] == []


def test_the_check_sees_a_typed_number() -> None:
    assert digits_outside_placeholders("Pay {r1} resource for 2 gold.")
    assert not digits_outside_placeholders("Pay {r1} resource for {g1}.")
    assert digits_outside_placeholders({"one": "{n} book", "other": "3 books"})
