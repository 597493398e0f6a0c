"""The application: settings → database → service → routers, plus the browser client."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import FastAPI
from sqlalchemy import text

from app import redact
from app.api import bots, profiles, solo, tables, ws
from app.api.limits import BodyLimit
from app.auth import TokenSigner
from app.config import Settings, get_settings
from app.db.session import Database
from app.errors import Unavailable, install_handlers
from app.realtime.hub import Hub
from app.realtime.notify import relay_for
from app.tables.service import TableService
from app.web.client import client_router
from app.web.headers import SecurityHeaders


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    redact.install()  # no token or cookie in any log line, whatever the log level
    db = Database(settings.effective_database_url, settings.db_pool_size, settings.db_max_overflow)
    hub = Hub()
    signer = TokenSigner(settings.effective_secret_key, settings.previous_secret_keys)
    service = TableService(db, hub, signer)
    service.table_create_limit = (
        settings.table_create_limit,
        settings.table_create_window_seconds,
    )

    # Several processes on one Postgres: hints cross between them by LISTEN/NOTIFY.
    relay = relay_for(hub, settings.effective_database_url)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # What start-up built (modules, the rules data, routes, schemas) lives as long as the
        # process: out of the collector's reach, so that a collection walks only what moves
        # created. Halves the server's CPU per move under load (docs/operations.md).
        gc.collect()
        gc.freeze()
        if relay is not None:
            await relay.start()
        yield
        if relay is not None:
            await relay.stop()
        db.dispose()

    app = FastAPI(
        title="Emara",
        summary="Crown of Emara online: private tables and live play.",
        version="0.1.0",
        lifespan=lifespan,
        # /docs loads Swagger UI from a CDN: it alone gets a relaxed policy (app/web/headers.py);
        # /redoc would need a second one and is not served.
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.db = db
    app.state.hub = hub
    app.state.service = service
    install_handlers(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.include_router(profiles.router)
    app.include_router(tables.router)
    app.include_router(ws.router)
    solo.install(app)
    bots.install(app)

    @app.get("/api/health", tags=["health"])
    async def health() -> dict[str, Any]:
        def ping() -> None:
            with db.engine.connect() as c:
                c.execute(text("SELECT 1"))

        try:
            await to_thread.run_sync(ping)
        except Exception as exc:
            raise Unavailable("the database does not answer") from exc
        return {"status": "ok", "database": db.engine.dialect.name}

    # The browser client: its files and page routes, and security headers on every response.
    app.include_router(client_router(Path(settings.static_dir)))
    app.add_middleware(SecurityHeaders)

    return app


def __getattr__(name: str) -> Any:
    # `uvicorn app.main:app` builds the app on first access, from the environment.
    if name == "app":
        application = create_app()
        globals()["app"] = application
        return application
    raise AttributeError(name)
