"""Numbers, durations and dates as each language writes them in a sentence: "about 5 hours",
"etwa einen Tag", "asi 2 dny"; "Friday, 4 December 2026", "Freitag, 4. Dezember 2026",
"v pátek 4. prosince 2026"; "2nd", "Platz 2", "2. místo"; "87 points", "87 Punkte", "87 bodů".

Durations come in the form a sentence needs them as the object of "you have …" (accusative in
German and Czech). Czech has three plural forms (1; 2–4; 0 and 5 on), as ``plural`` names them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from app.mail.texts import Lang, plural

Unit = Literal["minute", "hour", "day"]

# The counted forms of a unit, by plural category; "one" is the word with its article, as "about
# a day" says it (in Czech the bare accusative: "asi den").
_UNITS: dict[Lang, dict[Unit, dict[str, str]]] = {
    "en": {
        "minute": {"one": "a minute", "other": "{n} minutes"},
        "hour": {"one": "an hour", "other": "{n} hours"},
        "day": {"one": "a day", "other": "{n} days"},
    },
    "de": {
        "minute": {"one": "eine Minute", "other": "{n} Minuten"},
        "hour": {"one": "eine Stunde", "other": "{n} Stunden"},
        "day": {"one": "einen Tag", "other": "{n} Tage"},
    },
    "cs": {
        "minute": {"one": "minutu", "few": "{n} minuty", "other": "{n} minut"},
        "hour": {"one": "hodinu", "few": "{n} hodiny", "other": "{n} hodin"},
        "day": {"one": "den", "few": "{n} dny", "other": "{n} dní"},
    },
}
_ABOUT: dict[Lang, str] = {"en": "about {x}", "de": "etwa {x}", "cs": "asi {x}"}
_UNDER_A_MINUTE: dict[Lang, str] = {
    "en": "less than a minute",
    "de": "weniger als eine Minute",
    "cs": "méně než minutu",
}


def _count(lang: Lang, unit: Unit, n: int) -> str:
    forms = _UNITS[lang][unit]
    form = forms.get(plural(lang, n)) or forms["other"]
    return form.format(n=n)


def about(lang: Lang, seconds: float) -> str:
    """A time left, rounded as a person says it: minutes under an hour, hours under a day and a
    half, days from then on ("about 5 hours", "about 2 days")."""
    if seconds < 60:
        return _UNDER_A_MINUTE[lang]
    minutes = round(seconds / 60)
    if minutes < 60:
        return _ABOUT[lang].format(x=_count(lang, "minute", minutes))
    hours = round(seconds / 3600)
    if seconds < 36 * 3600:
        return _ABOUT[lang].format(x=_count(lang, "hour", max(1, hours)))
    return _ABOUT[lang].format(x=_count(lang, "day", round(seconds / 86400)))


_WEEKDAYS: dict[Lang, tuple[str, ...]] = {
    "en": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"),
    "de": ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"),
    # "on Monday" in Czech: the preposition with the accusative
    "cs": ("v pondělí", "v úterý", "ve středu", "ve čtvrtek", "v pátek", "v sobotu", "v neděli"),
}
_MONTHS: dict[Lang, tuple[str, ...]] = {
    "en": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "de": (
        "Januar",
        "Februar",
        "März",
        "April",
        "Mai",
        "Juni",
        "Juli",
        "August",
        "September",
        "Oktober",
        "November",
        "Dezember",
    ),
    # the genitive, as a date says it: "4. prosince"
    "cs": (
        "ledna",
        "února",
        "března",
        "dubna",
        "května",
        "června",
        "července",
        "srpna",
        "září",
        "října",
        "listopadu",
        "prosince",
    ),
}


def _utc(when: datetime | float) -> datetime:
    if isinstance(when, datetime):
        return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)
    return datetime.fromtimestamp(when, UTC)


def on_day(lang: Lang, when: datetime | float) -> str:
    """ "on Friday, 4 December 2026" as each language says it (UTC)."""
    d = _utc(when)
    day, month = _WEEKDAYS[lang][d.weekday()], _MONTHS[lang][d.month - 1]
    if lang == "de":
        return f"am {day}, {d.day}. {month} {d.year}"
    if lang == "cs":
        return f"{day} {d.day}. {month} {d.year}"
    return f"on {day}, {d.day} {month} {d.year}"


def at_time(lang: Lang, when: datetime | float) -> str:
    """A day and a time of day (UTC): "on Friday, 4 December 2026 at 14:05"."""
    d = _utc(when)
    clock = f"{d.hour}:{d.minute:02d}"
    word = {"en": "at", "de": "um", "cs": "v"}[lang]
    return f"{on_day(lang, d)} {word} {clock}"


def place(lang: Lang, n: int) -> str:
    """A place as the sentence puts it: "2nd" ("you finished 2nd"), "2" ("Platz 2"), "2."
    ("na 2. místě")."""
    if lang == "de":
        return str(n)
    if lang == "cs":
        return f"{n}."
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


_POINTS: dict[Lang, dict[str, str]] = {
    "en": {"one": "{n} point", "other": "{n} points"},
    "de": {"one": "{n} Punkt", "other": "{n} Punkte"},
    "cs": {"one": "{n} bod", "few": "{n} body", "other": "{n} bodů"},
}


def points(lang: Lang, n: int) -> str:
    forms = _POINTS[lang]
    return (forms.get(plural(lang, n)) or forms["other"]).format(n=n)


def of_count(lang: Lang, n: int) -> str:
    """ "of 4": "von 4"; in Czech "ze 4" (ze dvou, tří, čtyř, sedmi), else "z 5"."""
    if lang == "cs":
        return f"ze {n}" if n in (2, 3, 4, 7) else f"z {n}"
    return f"{'von' if lang == 'de' else 'of'} {n}"
