"""The Czech and German message catalogues translate every message of the English one.

The catalogues are ES modules (`export default { "key": "text", ... }`). They are read here as
JSON after dropping whole-line `//` comments and the trailing comma, so a file that strays from
that shape fails to parse instead of being half read.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")  # the pattern t() in static/js/i18n.js fills in


def parse_catalogue(source: str) -> dict[str, str]:
    """The key → text pairs of a catalogue module; duplicate keys and non-strings are errors."""
    lines = [line for line in source.splitlines() if not line.lstrip().startswith("//")]
    text = "\n".join(lines)
    head = re.search(r"export\s+default\s*\{", text)
    assert head is not None, "no `export default {` in the catalogue"
    end = text.rindex("}")
    body = "{" + text[head.end() : end] + "}"
    body = re.sub(r",\s*\}$", "}", body)

    def pairs(items: list[tuple[str, object]]) -> dict[str, str]:
        keys = [k for k, _ in items]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        assert duplicates == [], f"duplicate keys: {duplicates}"
        for k, v in items:
            assert isinstance(v, str), f"{k}: not a string"
        return {k: str(v) for k, v in items}

    result: dict[str, str] = json.loads(body, object_pairs_hook=pairs)
    return result


def load(lang: str) -> dict[str, str]:
    return parse_catalogue((I18N / f"{lang}.js").read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def key_differences(en: dict[str, str], other: dict[str, str]) -> tuple[list[str], list[str]]:
    return sorted(set(en) - set(other)), sorted(set(other) - set(en))


def placeholder_mismatches(en: dict[str, str], other: dict[str, str]) -> list[str]:
    return [
        f"{k}: {sorted(placeholders(other[k]))} instead of {sorted(placeholders(en[k]))}"
        for k in en
        if k in other and placeholders(other[k]) != placeholders(en[k])
    ]


def test_english_catalogue_parses() -> None:
    en = load("en")
    assert len(en) > 400
    assert en["landing.playing_as"] == "Playing as {name}."


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    missing, extra = key_differences(load("en"), load(lang))
    assert missing == [], f"{lang}.js lacks {missing}"
    assert extra == [], f"{lang}.js has keys en.js does not know: {extra}"


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_translations_keep_the_placeholders(lang: str) -> None:
    assert placeholder_mismatches(load("en"), load(lang)) == []


@pytest.mark.parametrize("lang", ["en", "cs", "de"])
def test_no_message_is_empty(lang: str) -> None:
    empty = sorted(k for k, v in load(lang).items() if not v.strip())
    assert empty == []


def test_the_checks_catch_a_missing_key_a_lost_placeholder_and_a_bad_file() -> None:
    en = parse_catalogue('// c\nexport default {\n  "a": "Hi {name}",\n  "b": "x",\n};\n')
    cs = parse_catalogue('export default {\n  // c\n  "a": "Ahoj {jmeno}",\n  "c": "y",\n};')
    assert key_differences(en, cs) == (["b"], ["c"])
    assert placeholder_mismatches(en, cs) == ["a: ['jmeno'] instead of ['name']"]
    with pytest.raises(AssertionError, match="duplicate keys"):
        parse_catalogue('export default {\n  "a": "x",\n  "a": "y",\n};')
    with pytest.raises(ValueError):
        parse_catalogue("export default {\n  a: 'unquoted',\n};")
