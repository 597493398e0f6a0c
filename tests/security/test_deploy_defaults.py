"""Safe deployment defaults: no published signing key, no token without an issue time, key and
database files owner-only from creation, and /docs without a script from another origin."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer

from app import keycheck
from app.config import Settings
from app.db.migrate import upgrade
from app.keycheck import UnsafeKey
from app.main import create_app
from app.web.headers import CONTENT_SECURITY_POLICY
from tests.conftest import SUITE_SECRET_KEY, new_player

ROOT = Path(__file__).resolve().parents[2]
# How a key is written down in a config file, a shell line or a test: the value of any of these.
KEY_SPELLINGS = re.compile(
    r"""(?:EMARA_SECRET_KEY|EMARA_PREVIOUS_SECRET_KEYS)\s*[:=]\s*["']?([^\s"'$…]{8,})"""
    r"""|secret_key\s*=\s*["']([^"']{8,})["']"""
)


def _settings(tmp_path: Path, **extra: Any) -> Settings:
    return Settings(database_url=f"sqlite:///{tmp_path / 'k.db'}", data_dir=tmp_path, **extra)


def keys_written_in_the_repository() -> set[str]:
    found: set[str] = set()
    for path in keycheck.repository_files(ROOT):
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for m in KEY_SPELLINGS.finditer(text):
            found.add(m.group(1) or m.group(2))
    return found


@pytest.mark.parametrize(
    "key",
    [
        "change-me-in-production",  # the compose file's key until now
        "test-secret-key-for-the-stack-0123456789",  # the test stack's key until now
        "x" * 20,  # typed by a person: too short
    ],
)
def test_the_server_refuses_to_start_with_a_published_or_short_key(
    tmp_path: Path, key: str
) -> None:
    with pytest.raises(UnsafeKey) as refused:
        create_app(_settings(tmp_path, secret_key=key))
    assert key not in str(refused.value)  # the message never repeats the key
    with pytest.raises(UnsafeKey):  # nor as a previous key still accepted
        create_app(_settings(tmp_path, secret_key=SUITE_SECRET_KEY, previous_secret_keys=[key]))


def test_every_key_written_in_the_repository_is_refused(tmp_path: Path) -> None:
    written = keys_written_in_the_repository()
    for key in written:
        with pytest.raises(UnsafeKey):
            keycheck.refuse_unsafe([key])
    # The search itself: a long random key, once written in a file of a repository, is refused.
    key = secrets.token_urlsafe(40)
    clean, published = tmp_path / "clean", tmp_path / "published"
    (clean / "docs").mkdir(parents=True)
    (published / "docs").mkdir(parents=True)
    (published / "docs" / "example.md").write_text(f"export EMARA_SECRET_KEY={key}\n")
    keycheck.refuse_unsafe([key], root=clean)
    with pytest.raises(UnsafeKey):
        keycheck.refuse_unsafe([key], root=published)
    assert KEY_SPELLINGS.search(f"EMARA_SECRET_KEY: {key}")  # the pattern finds a written key


def test_a_random_key_starts_and_the_compose_file_carries_none(tmp_path: Path) -> None:
    create_app(_settings(tmp_path, secret_key=secrets.token_urlsafe(32))).state.db.dispose()
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    env = compose["services"]["app"]["environment"]
    assert env["EMARA_SECRET_KEY"].startswith("${")  # passed through from .env, never written
    assert str(env["EMARA_COOKIE_SECURE"]).lower() == "true"
    example = (ROOT / ".env.example").read_text()
    assert re.search(r"^EMARA_SECRET_KEY=$", example, re.M)
    assert "secrets.token_urlsafe" in example
    assert "/.env" in (ROOT / ".gitignore").read_text().split()


def test_tokens_without_an_issue_time_are_refused(client: TestClient) -> None:
    ann = new_player(client, "Ann")
    signer = URLSafeSerializer([SUITE_SECRET_KEY], salt="emara.profile-token")
    undated = signer.dumps({"p": ann.id, "g": 0, "n": "abc"})
    assert client.get("/api/profiles/me", headers=ann.headers).status_code == 200
    for token in (undated, signer.dumps({"p": ann.id, "g": 0, "t": "1", "n": "abc"})):
        r = client.get("/api/profiles/me", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 401, r.text
        client.cookies.set("emara_token", token)
        assert client.get("/api/tables").status_code == 401
        client.cookies.clear()


@pytest.fixture
def umask_022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def test_key_and_database_files_are_owner_only_from_their_first_byte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask_022: None
) -> None:
    """Created 0600 by the call that creates them: no chmod after the fact (which would leave
    them readable by anyone for a moment), even with a permissive umask."""

    def no_chmod(*args: Any, **kwargs: Any) -> None:
        raise AssertionError(f"chmod after the fact: {args}")

    monkeypatch.setattr(os, "chmod", no_chmod)
    monkeypatch.setattr(os, "fchmod", no_chmod)
    monkeypatch.setattr(Path, "chmod", no_chmod)
    data = tmp_path / "fresh" / "data"
    settings = Settings(data_dir=data)  # no key, no database URL: both made in data_dir
    upgrade(settings.effective_database_url)
    app = create_app(settings)
    with TestClient(app) as c:
        assert new_player(c, "Ann").token
    app.state.db.dispose()
    made = {p.name: p.stat().st_mode & 0o777 for p in data.iterdir()}
    assert {"secret_key", "vapid_private.pem", "emara.db"} <= set(made)
    assert {name: mode for name, mode in made.items() if mode & 0o077} == {}
    assert data.stat().st_mode & 0o077 == 0


def _integrity(body: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(body).digest()).decode()


def test_docs_load_no_script_from_another_origin(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY and "http" not in (
        CONTENT_SECURITY_POLICY
    )
    assert "<script>" not in page.text  # no inline script
    sources = re.findall(r'<(?:script|link)[^>]*(?:src|href)="([^"]+)"([^>]*)>', page.text)
    assert len(sources) >= 3
    for src, rest in sources:
        assert src.startswith("/") and not src.startswith("//"), src
        served = client.get(src)
        assert served.status_code == 200, src
        if src.endswith((".js", ".css")):
            assert f'integrity="{_integrity(served.content)}"' in rest, src
    assert client.get("/docs/no-such-file.js").status_code == 404
    assert client.get("/docs/oauth2-redirect").status_code == 404
