"""The words of each game notification, in the reader's language: subject and text, from what
the notifier read (pure: no database, no clock)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.mail.texts import Lang, digest_subject, say, table_fields
from app.mail.wording import about, of_count, on_day, place, points


@dataclass(frozen=True)
class TableWords:
    """A table as a mail names it: its name (None: none), its host's name, and its link."""

    name: str | None
    host: str | None
    link: str


@dataclass(frozen=True)
class Standing:
    """One line of the final score: a seat's (or Victoria's) rank, name and score."""

    rank: int
    name: str | None  # None: a seat no person held (a bot's)
    score: int
    me: bool = False


@dataclass(frozen=True)
class Words:
    subject: str
    text: str


def _fields(lang: Lang, t: TableWords) -> dict[str, str]:
    return {**table_fields(lang, t.name, t.host), "link": t.link}


def your_turn(lang: Lang, t: TableWords, left: float | None) -> Words:
    """ "Your turn", with the time left for the move when the table has a deadline."""
    f = _fields(lang, t)
    subject = say(lang, "your_turn.subject", **f)
    if left is None:
        return Words(subject, say(lang, "your_turn.body", **f))
    return Words(subject, say(lang, "your_turn.body_left", left=about(lang, left), **f))


def digest(lang: Lang, tables: list[tuple[TableWords, float | None]]) -> Words:
    """Several tables waiting at once, each with its time left."""
    lines = [say(lang, "digest.body"), ""]
    for t, left in tables:
        if left is None:
            lines.append(say(lang, "digest.line", **_fields(lang, t)))
        else:
            lines.append(say(lang, "digest.line_left", left=about(lang, left), **_fields(lang, t)))
    return Words(digest_subject(lang, len(tables)), "\n".join(lines))


def time_short(lang: Lang, t: TableWords) -> Words:
    f = _fields(lang, t)
    return Words(say(lang, "time_short.subject", **f), say(lang, "time_short.body", **f))


def game_over(
    lang: Lang,
    t: TableWords,
    ended: datetime | float,
    rank: int,
    score: int,
    standings: list[Standing],
) -> Words:
    """ "Game over": when it ended, the reader's place and score, and the final score."""
    f = _fields(lang, t)
    rows = []
    for s in sorted(standings, key=lambda x: (x.rank, not x.me)):
        who = s.name if s.name is not None else say(lang, "bot")
        mark = f" ({say(lang, 'you')})" if s.me else ""
        rows.append(f"{s.rank}. {who}{mark}: {s.score}")
    text = say(
        lang,
        "game_over.body",
        date=on_day(lang, ended),
        place=place(lang, rank),
        of=of_count(lang, len(standings)),
        points=points(lang, score),
        standings="\n".join(rows),
        **f,
    )
    return Words(say(lang, "game_over.subject", **f), text)


def invitation(lang: Lang, kind: str, inviter: str, t: TableWords) -> Words:
    """An invitation to a table, or a rematch; the link opens the table it seats them at."""
    key = "rematch" if kind == "rematch" else "invite"
    f = _fields(lang, t)
    return Words(
        say(lang, f"{key}.subject", inviter=inviter),
        say(lang, f"{key}.body", inviter=inviter, **f),
    )
