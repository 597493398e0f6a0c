"""Links and addresses never reach the server's log, even at debug level with the access log on:
the confirmation and sign-in tokens travel in bodies (the pages read them from the fragment), and
the one-click unsubscribe URL's ``token=`` is hidden by the log filter."""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from app.devtools.stack import ServerProcess
from app.mail.tokens import UnsubscribeSigner
from tests.mail.smtpserver import smtp_server

TOKEN = re.compile(r"/email/(confirm|signin)#([A-Za-z0-9_.-]+)")


def test_tokens_and_addresses_stay_out_of_the_log(tmp_path: Path) -> None:
    from app.db.migrate import upgrade

    db_url = f"sqlite:///{tmp_path / 'emara.db'}"
    upgrade(db_url)
    with smtp_server() as inbox:
        srv = ServerProcess(db_url, tmp_path / "server.log", extra_args=["--log-level", "debug"])
        srv.env = {
            "EMARA_SMTP_HOST": inbox.host,
            "EMARA_SMTP_PORT": str(inbox.port),
            "EMARA_SMTP_SECURITY": "none",
            "EMARA_PUBLIC_URL": srv.base,
        }
        secrets: list[str] = []
        with srv, httpx.Client(base_url=srv.base, timeout=30) as c:
            me = c.post("/api/profiles", json={"name": "Ada"}).json()
            c.cookies.clear()
            auth = {"Authorization": f"Bearer {me['token']}"}
            r = c.post("/api/email", json={"address": "ada.hidden@example.org"}, headers=auth)
            assert r.status_code == 202
            ((_, confirm),) = TOKEN.findall(inbox.wait_for("ada.hidden@example.org").text)
            assert c.post("/api/email/confirm", json={"token": confirm}).status_code == 200
            r = c.post("/api/email/signin-link", json={"address": "ada.hidden@example.org"})
            assert r.status_code == 202
            ((_, signin),) = TOKEN.findall(inbox.wait_for("ada.hidden@example.org", 2).text)
            assert c.post("/api/email/signin", json={"token": signin}).status_code == 200
            signer = UnsubscribeSigner(srv.settings_env()["EMARA_SECRET_KEY"])
            one_click = signer.issue(me["id"], "ada.hidden@example.org")
            r = c.post(
                f"/api/email/unsubscribe/one-click?token={one_click}",
                content=b"List-Unsubscribe=One-Click",
                headers={"Content-Type": "application/x-www-form-urlencoded"},
            )
            assert r.status_code == 200
            secrets = [confirm, signin, one_click, "ada.hidden"]
        log = (tmp_path / "server.log").read_text()
        assert "/api/email/unsubscribe/one-click?token=[redacted]" in log  # the line is there
        assert [s[:12] for s in secrets if s in log] == []
