"""The application: the core every feature is given, then the features in the order they plug
in (each declares what it provides in ``app/<feature>/plug.py``; app/plug.py), then the browser
client. One lifespan starts every feature's background work in that order and stops it in the
reverse order. Adding a feature: its own folder, and one line in ``FEATURES``."""

from __future__ import annotations

from app import startup  # first: the collector waits while the app is imported (app/startup.py)

# isort: split
import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import FastAPI

from app import plug, redact
from app.analysis import plug as analysis
from app.blocks import plug as blocks
from app.bots import plug as bots
from app.chat import plug as chat
from app.clock import Clock, SystemClock
from app.config import Settings, get_settings
from app.devtools import routes as devtools_routes
from app.errors import install_handlers
from app.history import plug as history
from app.invitations import plug as invitations
from app.mail import plug as mail
from app.metrics import endpoints as metrics_endpoints
from app.metrics import logs
from app.metrics.ids import ConnectionIds
from app.mydata import plug as mydata
from app.mygames import plug as mygames
from app.parts import Parts
from app.passkeys import plug as passkeys
from app.presence import plug as presence
from app.profiles import plug as profiles
from app.push import plug as push
from app.realtime.ports import Served
from app.records import plug as records
from app.rulesref import plug as rulesref
from app.safety import plug as safety
from app.seen import plug as seen
from app.solo import plug as solo
from app.tables import plug as tables
from app.tutorial import plug as tutorial
from app.web.client import client_router
from app.web.docs import docs_router
from app.web.guards import install_guards
from app.web.headers import SecurityHeaders

# In this order: a feature plugs in after the ones whose parts it uses; its work starts after
# theirs and stops before theirs.
FEATURES: tuple[plug.Plug, ...] = (
    plug.transport,
    profiles.plug,
    blocks.plug,
    presence.plug,
    tables.plug,
    seen.plug,
    solo.plug,
    bots.plug,
    tutorial.plug,
    chat.plug,
    mygames.plug,
    push.plug,
    invitations.plug,
    mail.plug,
    passkeys.plug,
    rulesref.plug,
    records.plug,
    analysis.plug,
    history.plug,
    mydata.plug,
    safety.plug,
    plug.collector,
)


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    settings = settings or get_settings()
    redact.install()  # no token or cookie in any log line, whatever the log level
    if settings.log_format == "json":  # (again at start-up: a test's uvicorn configures later)
        logs.install(settings.log_client_addresses)
    # One injectable clock for everything that reads time (tests move it: app/clock.py).
    core = plug.Core.build(settings, clock or SystemClock())
    parts = Parts()
    features: list[plug.Feature] = []
    for plugged in FEATURES:
        feature = plugged(core, parts)
        for name, part in feature.parts.items():
            parts.add(name, part)
        features.append(feature)
    # The table socket (app/realtime) knows no feature: what it serves is handed to it here.
    access = next(f.socket_access for f in features if f.socket_access is not None)
    parts.add("served", Served(access, tuple(c for f in features for c in f.companions)))

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        # What start-up built (modules, the rules data, routes, schemas) lives as long as the
        # process: out of the collector's reach, so that a collection walks only what moves
        # created. Halves the server's CPU per move under load (docs/operations.md).
        gc.collect()
        gc.freeze()
        if settings.log_format == "json":  # after any later configuration of the loggers
            logs.install(settings.log_client_addresses)
        # The default limiter is the running loop's: set here, not at import.
        to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        await plug.start(features)
        try:
            yield
        finally:
            await plug.stop(features)

    app = FastAPI(
        title="Emara",
        summary="Crown of Emara online: private tables and live play.",
        version="0.1.0",
        lifespan=lifespan,
        # /docs is served by app/web/docs.py (Swagger UI from a pinned package, from this
        # origin); /redoc is not served.
        docs_url=None,
        redoc_url=None,
    )
    app.state = parts  # the registry endpoints read through typed dependencies (app/parts.py)
    install_handlers(app)
    install_guards(app, settings)
    for feature in features:
        for router in feature.routers:
            app.include_router(router)
    app.include_router(metrics_endpoints.router)  # /metrics, /api/ready, /api/health
    if settings.devtools_routes:  # the test suite's servers only (app/devtools/routes.py)
        app.include_router(devtools_routes.router)
    app.include_router(docs_router())  # /docs: the interactive OpenAPI page
    # The browser client: its files and page routes, and security headers on every response.
    app.include_router(client_router(Path(settings.static_dir)))
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ConnectionIds)  # outermost: every log line of a request has its id
    return app


startup.resume()


def __getattr__(name: str) -> Any:
    # `uvicorn app.main:app` builds the app on first access, from the environment.
    if name == "app":
        application = create_app()
        globals()["app"] = application
        return application
    raise AttributeError(name)
