"""One e-mail as it goes on the wire: plain text, the profile's language, and for notifications
the one-click unsubscribe of RFC 8058 (``List-Unsubscribe`` with an https link carrying a signed
per-address token, and ``List-Unsubscribe-Post: List-Unsubscribe=One-Click``).

``List-Unsubscribe`` is written as RFC 2369 has it: the angle-bracketed URI on one line, never
folded into RFC 2047 encoded words (mail clients do not decode them there, so a folded link is
no link). The URI is ASCII and far below the 998-character line limit, so it is not folded."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.message import EmailMessage
from email.policy import SMTP, Policy
from email.utils import format_datetime, make_msgid

from app.mail.texts import Lang, say

LINE_LIMIT = 998  # RFC 5322 2.1.1, CRLF excluded
URI_LIMIT = 900  # a <URI> that fits one line behind any header name


class UriListHeader(UnstructuredHeader, BaseHeader):
    """A header holding one angle-bracketed URI (RFC 2369), written verbatim on one line."""

    @classmethod
    def parse(cls, value: str, kwds: dict[str, object]) -> None:
        if not (value.startswith("<") and value.endswith(">")) or not value.isascii():
            raise ValueError("a URI list header holds one ASCII <URI>")
        if any(c.isspace() or c in "<>" for c in value[1:-1]):
            raise ValueError("a URI in a URI list header has no spaces or angle brackets")
        if len(value) > URI_LIMIT:
            raise ValueError("a URI list header's URI is too long for one line")
        super().parse(value, kwds)

    def fold(self, *, policy: Policy) -> str:
        line = f"{self.name}: {self}"
        if len(line) > LINE_LIMIT:
            raise ValueError(f"{self.name} longer than one line may be")
        return line + policy.linesep


_headers = HeaderRegistry()
_headers.map_to_type("list-unsubscribe", UriListHeader)
# The header objects made under this policy fold themselves, whichever policy later writes them
# (the SMTP client flattens the message with the plain SMTP policy).
POLICY = SMTP.clone(header_factory=_headers)


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
    msg = EmailMessage(policy=POLICY)
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
