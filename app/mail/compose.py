"""One e-mail as it goes on the wire: plain text, the profile's language, and for notifications
the one-click unsubscribe of RFC 8058 (``List-Unsubscribe`` with an https link carrying a signed
per-address token, and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid

from app.mail.texts import Lang, say


@dataclass(frozen=True)
class Outgoing:
    """A message to send: the address, its words, and the unsubscribe links for notifications."""

    to: str
    kind: str  # confirm | signin | your_turn | digest | time_short | game_over | invitation
    subject: str
    body: str
    one_click_url: str | None = None  # List-Unsubscribe (POSTed by the mail client)
    unsubscribe_page: str | None = None  # the link in the text (a page that POSTs)


def letter(lang: Lang, name: str, text: str, unsubscribe_page: str | None) -> str:
    parts = [say(lang, "greeting", name=name), "", text]
    if unsubscribe_page:
        parts += ["", "-- ", say(lang, "footer", link=unsubscribe_page)]
    return "\n".join(parts) + "\n"


def build(o: Outgoing, sender: str, now: float) -> EmailMessage:
    """The message; ``EmailMessage`` under the SMTP policy refuses a CR or LF in any header."""
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender
    msg["To"] = o.to
    msg["Subject"] = o.subject
    msg["Date"] = format_datetime(datetime.fromtimestamp(now, UTC))
    domain = sender.rpartition("@")[2].strip(" >") or "localhost"
    msg["Message-ID"] = make_msgid(domain=domain)
    msg["Auto-Submitted"] = "auto-generated"
    if o.one_click_url:
        msg["List-Unsubscribe"] = f"<{o.one_click_url}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg.set_content(o.body)
    return msg
