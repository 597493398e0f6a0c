"""Settings, and the compose file / Dockerfile agreeing with them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from app.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_default_database_is_an_embedded_sqlite_file(tmp_path: Path) -> None:
    s = Settings(data_dir=tmp_path / "nested" / "data")
    url = s.effective_database_url
    assert url.startswith("sqlite:///") and url.endswith("/nested/data/emara.db")
    assert (tmp_path / "nested" / "data").is_dir()


def test_env_prefix_and_postgres_url(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("EMARA_DATABASE_URL", "postgresql+psycopg://u:p@db:5432/emara")
    monkeypatch.setenv("EMARA_ALLOWED_ORIGINS", "https://a.example, https://b.example/")
    monkeypatch.setenv("EMARA_DATA_DIR", str(tmp_path))
    s = Settings()
    assert s.effective_database_url == "postgresql+psycopg://u:p@db:5432/emara"
    assert s.allowed_origins == ["https://a.example", "https://b.example"]


def test_dev_secret_is_generated_once_and_kept(tmp_path: Path) -> None:
    first = Settings(data_dir=tmp_path).effective_secret_key
    again = Settings(data_dir=tmp_path).effective_secret_key
    assert first == again and len(first) >= 32
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0
    assert Settings(data_dir=tmp_path, secret_key="given").effective_secret_key == "given"


def test_compose_file_matches_the_settings() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    db, app = services["db"], services["app"]
    assert db["image"].startswith("postgres")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    env = app["environment"]
    fields = set(Settings.model_fields)
    for key in env:
        assert key.startswith("EMARA_"), key
        assert key.removeprefix("EMARA_").lower() in fields, key
    url = env["EMARA_DATABASE_URL"]
    assert url.startswith("postgresql+psycopg://") and "@db:5432/" in url
    dbenv = db["environment"]
    assert f"{dbenv['POSTGRES_USER']}:{dbenv['POSTGRES_PASSWORD']}@" in url
    assert url.endswith("/" + dbenv["POSTGRES_DB"])
    command = " ".join(app["command"])
    assert command.index("alembic upgrade head") < command.index("uvicorn app.main:app")
    assert "8000:8000" in app["ports"]


def test_dockerfile_migrates_then_serves() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in text
    for needed in ("COPY app", "COPY migrations", "COPY alembic.ini", "COPY static"):
        assert needed in text
    cmd = next(line for line in text.splitlines() if line.startswith("CMD"))
    assert cmd.index("alembic upgrade head") < cmd.index("uvicorn app.main:app")
