"""The links an e-mail carries. A one-time token rides in the URL's fragment (``#``), which a
browser never sends to a server: it reaches no access log, proxy or Referer; the page reads it
and POSTs it. Only the one-click unsubscribe URL (POSTed by mail clients, RFC 8058) carries its
signed token in the query, as ``token=``, which the log filter (app/redact.py) hides."""

from __future__ import annotations

from urllib.parse import quote


class Links:
    def __init__(self, public_url: str) -> None:
        self.base = public_url.rstrip("/")

    def table(self, table_id: str) -> str:
        return f"{self.base}/t/{quote(table_id)}"

    def my_games(self) -> str:
        return f"{self.base}/games"

    def confirm(self, token: str) -> str:
        return f"{self.base}/email/confirm#{token}"

    def sign_in(self, token: str) -> str:
        return f"{self.base}/email/signin#{token}"

    def unsubscribe_page(self, token: str) -> str:
        return f"{self.base}/email/unsubscribe#{token}"

    def one_click(self, token: str) -> str:
        return f"{self.base}/api/email/unsubscribe/one-click?token={quote(token)}"
