"""Every kind of e-mail rendered in every language: each reads as its own language (no English
weekday, month, "at" or "'s" left in German or Czech), says the final score and place of a game
that ended, and how long is left for a move; durations, dates and counts as each language says
them (Czech with its three plural forms)."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from app.mail import messages as msg
from app.mail.compose import letter
from app.mail.texts import CATALOGUES, LANGS, Lang, say
from app.mail.wording import about, at_time, of_count, on_day, place, points

# Friday, 4 December 2026, 14:05 UTC
ENDED = datetime(2026, 12, 4, 14, 5, tzinfo=UTC).timestamp()
HOSTED = msg.TableWords(None, "Hana", "http://emara.test/t/abc")
NAMED = msg.TableWords("Kronenrunde", "Hana", "http://emara.test/t/abc")
STANDINGS = [
    msg.Standing(1, "Hana", 92),
    msg.Standing(2, "Ada", 87, me=True),
    msg.Standing(3, None, 60),
]

ENGLISH = re.compile(
    r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|December|at|on|of|"
    r"the|you|your|hours?|days?|minutes?|points?|left|table)\b|'s\b"
)


def every_mail(lang: Lang, table: msg.TableWords) -> dict[str, msg.Words]:
    """Each kind a person can get, as its subject and text."""
    both = {
        "confirm": msg.Words(
            say(lang, "confirm.subject"), say(lang, "confirm.body", minutes=30, link="L")
        ),
        "signin": msg.Words(
            say(lang, "signin.subject"), say(lang, "signin.body", minutes=15, link="L")
        ),
        "address_changed": msg.Words(
            say(lang, "address_changed.subject"),
            say(lang, "address_changed.body", when=at_time(lang, ENDED)),
        ),
        "your_turn": msg.your_turn(lang, table, 5 * 3600),
        "your_turn_no_clock": msg.your_turn(lang, table, None),
        "digest": msg.digest(lang, [(table, 2 * 86400), (HOSTED, None)]),
        "time_short": msg.time_short(lang, table),
        "game_over": msg.game_over(lang, table, ENDED, 2, 87, STANDINGS),
        "invite": msg.invitation(lang, "invite", "Hana", table),
        "rematch": msg.invitation(lang, "rematch", "Hana", table),
    }
    return both


def test_the_catalogues_have_the_same_keys_in_every_language() -> None:
    en = set(CATALOGUES["en"]) - {"digest.subject.few"}
    for lang in LANGS:
        plain = {k for k in CATALOGUES[lang] if not k.endswith((".gen", ".few"))}
        assert plain == en, lang


@pytest.mark.parametrize("lang", ["de", "cs"])
@pytest.mark.parametrize("table", [HOSTED, NAMED], ids=["hosted", "named"])
def test_german_and_czech_mails_have_no_english_left(lang: Lang, table: msg.TableWords) -> None:
    for kind, words in every_mail(lang, table).items():
        text = letter(lang, "Ada", words.text, "http://emara.test/email/unsubscribe#x")
        found = ENGLISH.findall((words.subject + "\n" + text).replace("Crown of Emara", ""))
        assert not found, (lang, kind, found, text)


@pytest.mark.parametrize("lang", LANGS)
def test_the_game_over_mail_says_the_final_score_place_and_day(lang: Lang) -> None:
    words = msg.game_over(lang, HOSTED, ENDED, 2, 87, STANDINGS)
    expected = {
        "en": ["on Friday, 4 December 2026", "You finished 2nd of 3 with 87 points."],
        "de": ["am Freitag, 4. Dezember 2026", "Du hast 87 Punkte erreicht und Platz 2 von 3"],
        "cs": ["v pátek 4. prosince 2026", "Získali jste 87 bodů a skončili na 2. místě ze 3."],
    }[lang]
    for part in expected:
        assert part in words.text, words.text
    you = {"en": "you", "de": "du", "cs": "vy"}[lang]
    assert f"1. Hana: 92\n2. Ada ({you}): 87\n3. Bot: 60" in words.text


def test_the_table_is_named_as_each_language_says_it() -> None:
    assert "at Hana's table" in msg.your_turn("en", HOSTED, None).text
    assert "am Tisch von Hana bist du am Zug" in msg.your_turn("de", HOSTED, None).text
    assert "u stolu hráče Hana jste na tahu" in msg.your_turn("cs", HOSTED, None).text
    assert "das Spiel am Tisch „Kronenrunde“ ist am Freitag" in (
        msg.game_over("de", NAMED, ENDED, 1, 90, STANDINGS).text
    )
    assert "hra u stolu „Kronenrunde“ skončila v pátek" in (
        msg.game_over("cs", NAMED, ENDED, 1, 90, STANDINGS).text
    )


def test_your_turn_says_how_long_is_left() -> None:
    assert (
        "You have about 5 hours left for your move." in msg.your_turn("en", HOSTED, 5 * 3600).text
    )
    assert "Du hast noch etwa 5 Stunden für deinen Zug." in msg.your_turn("de", HOSTED, 18000).text
    assert "Na tah máte ještě asi 5 hodin." in msg.your_turn("cs", HOSTED, 18000).text
    digest = msg.digest("en", [(HOSTED, 2 * 86400 + 600), (NAMED, None)])
    assert "- Hana's table (about 2 days left): http://emara.test/t/abc" in digest.text
    assert "- “Kronenrunde”: http://emara.test/t/abc" in digest.text


@pytest.mark.parametrize(
    ("seconds", "en", "de", "cs"),
    [
        (20, "less than a minute", "weniger als eine Minute", "méně než minutu"),
        (60, "about a minute", "etwa eine Minute", "asi minutu"),
        (3 * 60, "about 3 minutes", "etwa 3 Minuten", "asi 3 minuty"),
        (45 * 60, "about 45 minutes", "etwa 45 Minuten", "asi 45 minut"),
        (59 * 60 + 50, "about an hour", "etwa eine Stunde", "asi hodinu"),
        (2 * 3600 + 600, "about 2 hours", "etwa 2 Stunden", "asi 2 hodiny"),
        (4 * 3600 + 2400, "about 5 hours", "etwa 5 Stunden", "asi 5 hodin"),
        (30 * 3600, "about 30 hours", "etwa 30 Stunden", "asi 30 hodin"),
        (40 * 3600, "about 2 days", "etwa 2 Tage", "asi 2 dny"),
        (6 * 86400, "about 6 days", "etwa 6 Tage", "asi 6 dní"),
    ],
)
def test_a_time_left_is_rounded_as_people_say_it(seconds: float, en: str, de: str, cs: str) -> None:
    assert (about("en", seconds), about("de", seconds), about("cs", seconds)) == (en, de, cs)


def test_days_places_and_counts() -> None:
    sunday = datetime(2026, 12, 6, 9, 0, tzinfo=UTC)
    assert on_day("en", sunday) == "on Sunday, 6 December 2026"
    assert on_day("de", sunday) == "am Sonntag, 6. Dezember 2026"
    assert on_day("cs", sunday) == "v neděli 6. prosince 2026"
    assert on_day("cs", datetime(2026, 12, 2, tzinfo=UTC)) == "ve středu 2. prosince 2026"
    assert at_time("de", sunday) == "am Sonntag, 6. Dezember 2026 um 9:00"
    assert [place("en", n) for n in (1, 2, 3, 4, 11, 21)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "21st",
    ]
    assert (place("de", 2), place("cs", 2)) == ("2", "2.")
    assert [points("cs", n) for n in (0, 1, 2, 4, 5)] == [
        "0 bodů",
        "1 bod",
        "2 body",
        "4 body",
        "5 bodů",
    ]
    assert [points("de", n) for n in (1, 2)] == ["1 Punkt", "2 Punkte"]
    assert [of_count("cs", n) for n in (2, 4, 5)] == ["ze 2", "ze 4", "z 5"]
