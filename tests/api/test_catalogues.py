"""The message catalogues (static/i18n/{en,cs,de}.json) agree with each other.

A message is a text, or an object keyed by the plural categories of its language (those of
Intl.PluralRules, which static/js/i18n.js uses to choose). Every language has exactly the English
keys, keeps each message's placeholders in every form, leaves no text empty, and gives each plural
message every category its language needs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
PLACEHOLDER = re.compile(r"\{(\w+)\}")  # the pattern t() in static/js/i18n.js fills in
LANGS = ("en", "cs", "de")
# The CLDR plural categories of whole numbers and decimals (Intl.PluralRules(lang).
# resolvedOptions().pluralCategories); the browser test checks the words Chromium picks.
CATEGORIES = {
    "en": {"one", "other"},
    "de": {"one", "other"},
    "cs": {"one", "few", "many", "other"},
}
Message = str | dict[str, str]
# Messages that read the same as in English, reviewed: names, symbols, abbreviations and
# placeholder-only formats. Any other message equal to the English one is an untranslated one.
SAME_AS_ENGLISH = {
    "cs": {
        # Languages by their own names, and a word Czech took from English.
        "email.lang.cs",
        "email.lang.de",
        "email.lang.en",
        "email.title",
        "lobby.bot",
        "lobby.bot_named",
        "bot.level",
        "bot.tag",
        "table.rondel_a",
        "table.rondel_b",
        "table.nothing",
        "move.event_option",
        "move.unknown",
        "councilor.a",
        "councilor.b",
        "title.baron",
        "adv.sir_christiaan",
        "adv.lady_marie",
        "adv.sir_carl",
        "adv.lady_frida",
        "adv.sir_gustave",
        "adv.sir_antoni",
        "log.generic",
        "log.move",
        "end.tb.none",
        "records.game_no",
        "log.over_score",  # a name and numbers: the words are the track names'
    },
    "de": {
        "history.solo",  # "Solo" is German too
        "log.over_score",  # a name and numbers: the words are the track names'
        "log.over_score_victoria",
        "email.lang.cs",
        "email.lang.de",
        "email.lang.en",
        "lobby.bot_named",
        "bot.level",
        "table.victoria",
        "table.nothing",
        "table.bp",
        "table.bp_mark",  # B for Baupunkte, as in English
        "move.event_option",
        "move.unknown",
        "councilor.a",
        "councilor.b",
        "res.bp",
        "card.gold",
        "title.baron",
        "adv.sir_christiaan",
        "adv.lady_marie",
        "adv.sir_carl",
        "adv.lady_frida",
        "adv.sir_gustave",
        "adv.sir_antoni",
        "log.generic",
        "log.move",
        "end.bp",
        "end.tb.none",
        "end.victoria",
        "records.solo",
        "records.game_no",
        "records.bp",
        "records.victoria",
    },
}


def parse_catalogue(source: str) -> dict[str, Message]:
    """The key → message pairs; duplicate keys, and values other than texts or objects of texts,
    are errors."""

    def pairs(items: list[tuple[str, object]]) -> dict[str, object]:
        keys = [k for k, _ in items]
        duplicates = sorted({k for k in keys if keys.count(k) > 1})
        assert duplicates == [], f"duplicate keys: {duplicates}"
        return dict(items)

    data = json.loads(source, object_pairs_hook=pairs)
    assert isinstance(data, dict), "a catalogue is one JSON object"
    for k, v in data.items():
        if isinstance(v, dict):
            assert v and all(isinstance(x, str) for x in v.values()), f"{k}: bad plural forms"
        else:
            assert isinstance(v, str), f"{k}: not a text"
    return data


def load(lang: str) -> dict[str, Message]:
    return parse_catalogue((I18N / f"{lang}.json").read_text(encoding="utf-8"))


def forms(message: Message) -> list[str]:
    return list(message.values()) if isinstance(message, dict) else [message]


def placeholders(message: Message) -> set[str]:
    found = {frozenset(PLACEHOLDER.findall(text)) for text in forms(message)}
    assert len(found) == 1, f"the plural forms of {message!r} differ in placeholders"
    return set(next(iter(found)))


def key_differences(
    en: dict[str, Message], other: dict[str, Message]
) -> tuple[list[str], list[str]]:
    return sorted(set(en) - set(other)), sorted(set(other) - set(en))


def placeholder_mismatches(en: dict[str, Message], other: dict[str, Message]) -> list[str]:
    return [
        f"{k}: {sorted(placeholders(other[k]))} instead of {sorted(placeholders(en[k]))}"
        for k in en
        if k in other and placeholders(other[k]) != placeholders(en[k])
    ]


def plural_problems(lang: str, catalogue: dict[str, Message]) -> list[str]:
    need = CATEGORIES[lang]
    return [
        f"{k}: has {sorted(v)}, needs {sorted(need)}"
        for k, v in catalogue.items()
        if isinstance(v, dict) and set(v) != need
    ]


def test_english_catalogue_parses() -> None:
    en = load("en")
    assert len(en) > 400
    assert en["landing.playing_as"] == "Playing as {name}."
    assert en["ev.cards_drawn"] == {
        "one": "{who} draws {count} card",
        "other": "{who} draws {count} cards",
    }


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_catalogue_has_exactly_the_english_keys(lang: str) -> None:
    missing, extra = key_differences(load("en"), load(lang))
    assert missing == [], f"{lang}.json lacks {missing}"
    assert extra == [], f"{lang}.json has keys en.json does not know: {extra}"


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders(lang: str) -> None:
    assert placeholder_mismatches(load("en"), load(lang)) == []


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_every_message_is_translated(lang: str) -> None:
    en, other = load("en"), load(lang)
    untranslated = sorted(k for k in en if other.get(k) == en[k])
    assert set(untranslated) - SAME_AS_ENGLISH[lang] == set(), "still in English"


@pytest.mark.parametrize("lang", LANGS)
def test_no_message_is_empty(lang: str) -> None:
    empty = sorted(k for k, v in load(lang).items() if any(not f.strip() for f in forms(v)))
    assert empty == []


@pytest.mark.parametrize("lang", LANGS)
def test_plural_messages_have_the_categories_of_their_language(lang: str) -> None:
    catalogue = load(lang)
    assert plural_problems(lang, catalogue) == []
    assert sum(isinstance(v, dict) for v in catalogue.values()) >= 5


@pytest.mark.parametrize("lang", ["cs", "de"])
def test_a_plural_message_in_english_is_plural_in_every_language(lang: str) -> None:
    en, other = load("en"), load(lang)
    differ = sorted(k for k in en if isinstance(en[k], dict) != isinstance(other.get(k), dict))
    assert differ == []


def test_czech_distinguishes_one_few_and_many() -> None:
    drawn = load("cs")["ev.cards_drawn"]
    assert isinstance(drawn, dict)
    assert len({drawn["one"], drawn["few"], drawn["other"]}) == 3


def test_the_checks_catch_a_missing_key_a_lost_placeholder_and_a_bad_file() -> None:
    en = parse_catalogue(
        '{"a": "Hi {name}", "b": "x", "p": {"one": "{n} cat", "other": "{n} cats"}}'
    )
    cs = parse_catalogue(
        '{"a": "Ahoj {jmeno}", "c": "y", "p": {"one": "{n} kočka", "other": "{n}"}}'
    )
    assert key_differences(en, cs) == (["b"], ["c"])
    assert placeholder_mismatches(en, cs) == ["a: ['jmeno'] instead of ['name']"]
    assert plural_problems("cs", cs) == [
        "p: has ['one', 'other'], needs ['few', 'many', 'one', 'other']"
    ]
    with pytest.raises(AssertionError, match="duplicate keys"):
        parse_catalogue('{"a": "x", "a": "y"}')
    with pytest.raises(AssertionError, match="not a text"):
        parse_catalogue('{"a": 3}')
    with pytest.raises(AssertionError, match="differ in placeholders"):
        placeholders({"one": "{n} cat", "other": "cats"})
    with pytest.raises(ValueError):
        parse_catalogue("{a: 'unquoted'}")
