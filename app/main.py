"""The application: settings → database → services → routers, plus the browser client.

One lifespan starts and stops every background part: the relay to other instances, the bot
runner (each a subscriber of the hub with its own queue and task).
"""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from anyio import to_thread
from fastapi import FastAPI

from app import keycheck, redact
from app.analysis import endpoints as analysis_endpoints
from app.analysis.bot import StrongBot
from app.analysis.child import ChildProcessBot
from app.analysis.service import AnalysisService
from app.analysis.worker import AnalysisWorker
from app.auth import TokenSigner
from app.blocks import endpoints as block_endpoints
from app.blocks.service import Blocks
from app.bots import endpoints as bot_endpoints
from app.bots.runner import BotRunner
from app.bots.service import BotSeats
from app.chat import endpoints as chat_endpoints
from app.chat.feed import Companions
from app.chat.service import ChatService
from app.clock import Clock, SystemClock
from app.collector import FreezePolicy, collector_loop
from app.config import Settings, get_settings
from app.db.session import Database
from app.devtools import routes as devtools_routes
from app.errors import install_handlers
from app.history import endpoints as history_endpoints
from app.history.service import HistoryService
from app.invitations import endpoints as invitation_endpoints
from app.invitations.blocking import KeptApart
from app.invitations.push import InvitationPush
from app.invitations.service import Invitations
from app.mail import endpoints as mail_endpoints
from app.mail.parts import MailParts
from app.metrics import endpoints as metrics_endpoints
from app.metrics import logs
from app.metrics.ids import ConnectionIds
from app.mydata import endpoints as my_data_endpoints
from app.mydata.service import MyData
from app.mygames import endpoints as my_endpoints
from app.mygames.events import MeFeed
from app.mygames.service import MyGames
from app.passkeys import endpoints as passkey_endpoints
from app.passkeys.service import PasskeyService
from app.presence.service import PresenceService
from app.profiles import devices as device_endpoints
from app.profiles import endpoints as profiles
from app.profiles import proof as proof_endpoints
from app.profiles.service import ProfileService
from app.push import endpoints as push_endpoints
from app.push.delivery import PushLimits
from app.push.endpoint import PushPolicy
from app.push.keys import load_vapid, public_key
from app.push.sender import PushSender
from app.ratelimit import LimitName, RateLimiter, parse_rule, storage_for
from app.realtime import endpoints as socket_endpoints
from app.realtime.hub import Hub
from app.realtime.notify import INSTANCE_ID, relay_for
from app.records import endpoints as record_endpoints
from app.records.service import RecordService
from app.rulesref import endpoints as rules_endpoints
from app.safety import endpoints as safety_endpoints
from app.safety.service import Safety
from app.safety.sweeper import ReportSweeper
from app.seen import endpoints as seen_endpoints
from app.solo import endpoints as solo_endpoints
from app.solo.service import SoloService
from app.tables import endpoints as table_endpoints
from app.tables import host_endpoints
from app.tables import vacation_endpoints as pace_endpoints
from app.tables.access import TableAccess
from app.tables.removals import removed_from
from app.tables.schemas import HealthOut
from app.tables.service import TableService
from app.tables.sweeper import Sweeper
from app.tables.vacation import PaceService
from app.tutorial import endpoints as tutorial_endpoints
from app.tutorial.service import Tutorial
from app.web.body_limit import BodyLimit
from app.web.client import client_router
from app.web.docs import docs_router
from app.web.headers import SecurityHeaders
from app.web.nul import NulGuard
from app.web.origin import CrossSiteGuard


def create_app(settings: Settings | None = None, clock: Clock | None = None) -> FastAPI:
    settings = settings or get_settings()
    redact.install()  # no token or cookie in any log line, whatever the log level
    if settings.log_format == "json":  # (again at start-up: a test's uvicorn configures later)
        logs.install(settings.log_client_addresses)
    # One injectable clock for everything that reads time (tests move it: app/clock.py).
    clock = clock or SystemClock()
    db = Database(settings.effective_database_url, settings.db_pool_size, settings.db_max_overflow)
    hub = Hub()
    # A published or short signing key would let anyone forge tokens: refuse to start.
    keycheck.refuse_unsafe([settings.effective_secret_key, *settings.previous_secret_keys])
    signer = TokenSigner(settings.effective_secret_key, settings.previous_secret_keys)
    service = TableService(db, hub, settings.notify_channel)
    service.table_create_limit = (
        settings.table_create_limit,
        settings.table_create_window_seconds,
    )

    # A solo game's result is recorded in the transaction of the move that ends it.
    solo = SoloService(db, service)
    service.play.finish_hooks.append(solo.record_in)
    bot_seats = BotSeats(db, hub, service.locks, clock, settings.bot_unattended_per_profile)
    # Games bots play alone share a CPU budget per process (app/bots/runner.py).
    runner = BotRunner(
        service,
        unattended_slots=settings.bot_unattended_slots,
        unattended_interval=settings.bot_unattended_move_seconds,
    )
    # --- Sessions and rate limits ---
    profiles_service = ProfileService(
        db,
        signer,
        clock,
        settings.session_days * 86400,
        settings.session_renew_hours * 3600,
        settings.recent_proof_seconds,
        settings.security_notices_kept,
    )
    # Sign out everywhere and a recovery end the profile's sockets and streams on every instance.
    profiles_service.cut_off_hooks.append(hub.signed_out)
    limiter = RateLimiter(
        storage_for(settings.rate_limit_storage),
        clock,
        [
            parse_rule(LimitName.PROFILE_CREATE, settings.rate_profile_create),
            parse_rule(LimitName.TABLE_CREATE, settings.rate_table_create),
            parse_rule(LimitName.INVITE, settings.rate_invite_misses),
            parse_rule(LimitName.RECOVER, settings.rate_recover_misses),
            parse_rule(LimitName.HOST_ACTS, settings.rate_host_acts),
            parse_rule(LimitName.EMAIL_SEND, settings.rate_email_send),
            parse_rule(LimitName.EMAIL_LINK, settings.rate_email_link_misses),
            parse_rule(LimitName.PASSKEY_SIGNIN, settings.rate_passkey_signin),
            parse_rule(LimitName.RECORD_IMPORT, settings.rate_record_import),
            parse_rule(LimitName.ANALYSIS_REQUEST, settings.rate_analysis_request),
            parse_rule(LimitName.REPLAY_READ, settings.rate_replay_read),
            parse_rule(LimitName.DEVICE_CODE, settings.rate_device_code_misses),
            parse_rule(LimitName.INVITE_TARGET, settings.rate_invite_target_misses),
            parse_rule(LimitName.RECOVER_TARGET, settings.rate_recover_target_misses),
            parse_rule(LimitName.DEVICE_CODE_TARGET, settings.rate_device_code_target_misses),
            parse_rule(LimitName.MOVE, settings.rate_http_moves),
            parse_rule(LimitName.EMAIL_SIGNIN_STRANGERS, settings.rate_email_signin_strangers),
            parse_rule(LimitName.REPORT, settings.rate_report),
            parse_rule(LimitName.BLOCK, settings.rate_block),
        ],
        refusal_delay=settings.rate_refusal_delay_seconds,
    )

    # --- Presence and table chat (app/presence, app/chat) ---
    presence = PresenceService(
        db,
        hub,
        clock,
        INSTANCE_ID,
        settings.presence_ttl_seconds,
        settings.presence_refresh_seconds,
    )
    chat = ChatService(db, hub, clock, settings.chat_rate_per_second, settings.chat_rate_burst)
    # --- end of presence and table chat
    # --- Pace: the move's clock, vacation, the reclaim hook and the deadline sweeper ---
    service.pace.clock = clock
    pace = PaceService(db, hub, service.locks, clock)
    bot_seats.reclaim_hooks.append(pace.on_reclaim)
    sweeper = Sweeper(db, hub, clock, interval=settings.deadline_sweep_seconds)
    # --- My games: the list, and a server-sent event stream per profile (a hub watcher) ---
    my_games = MyGames(db)
    me_feed = MeFeed(
        db,
        clock,
        settings.me_events_per_profile,
        settings.me_events_heartbeat_seconds,
        settings.me_events_max_seconds,
    )
    hub.watchers.append(me_feed.heard)
    # --- Web Push: VAPID keys, subscriptions, the sender (a background subscriber of the hub) ---
    vapid = load_vapid(settings.vapid_private_key, settings.data_dir)
    push = PushSender(
        db,
        hub,
        vapid,
        settings.vapid_subject,
        clock,
        PushPolicy(
            allowed_hosts=() if settings.push_allow_any_host else tuple(settings.push_hosts),
            allow_loopback_http=settings.push_allow_loopback_http,
        ),
        PushLimits(
            workers=settings.push_workers,
            queue=settings.push_queue,
            deadline=settings.push_deadline_seconds,
            max_reply=settings.push_max_reply_bytes,
            attempts=settings.push_attempts,
            retry_seconds=settings.push_retry_seconds,
        ),
        settings.push_subscriptions_per_profile,
    )
    push_store = push.store
    sweeper.listeners.append(push.timed_out)
    # --- Play again: rematches and invitations (their invitees' My games follow the table) ---
    invitations = Invitations(
        db, hub, service, clock, settings.invitation_decline_quiet_days * 86400
    )
    me_feed.also.append(invitations.invitees_sync)
    # --- E-mail: addresses, sign-in links, and game notifications (a background subscriber) ---
    mail = MailParts.build(settings, db, hub, clock, profiles_service)
    invitations.listeners.append(mail.notifier.invited)
    invitation_push = InvitationPush(push_store, push)
    invitations.listeners.append(invitation_push.invited)

    # --- Protecting oneself: blocks (invitations kept apart at once), reports and their sweep,
    # and the people a host removed from a lobby (their My games hears of it) ---
    blocks = Blocks(db, clock)
    blocks.listeners.append(KeptApart(db, hub, service.locks, clock).blocked)
    safety = Safety(db, service, blocks, clock, settings.reports_open_per_reporter)
    report_sweeper = ReportSweeper(
        db, clock, settings.report_keep_days, settings.report_sweep_seconds
    )
    me_feed.also.append(lambda table_id: _removed_from(db, table_id))

    # --- Passkeys: WebAuthn credentials; a sign-in opens a session like an e-mail link ---
    passkeys = PasskeyService(
        db, clock, profiles_service, settings.passkey_rp_name, settings.passkey_challenge_seconds
    )

    # --- Analysis after the game: a queue in the database, one worker per instance ---
    records = RecordService(
        db,
        clock,
        id_key=settings.effective_secret_key,
        cache_bytes=settings.replay_cache_bytes,
        page_max=settings.replay_page_max,
    )
    # The bot's playouts run in a child process (app/analysis/child.py), off the interpreter
    # lock the requests share; in the thread itself only where a setting says so.
    analysis_bot: StrongBot | ChildProcessBot = (
        ChildProcessBot(
            settings.analysis_playouts,
            processes=settings.analysis_jobs_per_process,
            samples=settings.analysis_measure_samples,
            budget=settings.analysis_measure_budget,
        )
        if settings.analysis_child_process
        else StrongBot(
            settings.analysis_playouts,
            samples=settings.analysis_measure_samples,
            budget=settings.analysis_measure_budget,
        )
    )
    analysis = AnalysisService(
        db,
        clock,
        records,
        analysis_bot.version,
        settings.analysis_max_positions,
        max_pending_per_profile=settings.analysis_max_pending_per_profile,
        max_pending_per_address=settings.analysis_max_pending_per_address,
    )
    analysis_worker = AnalysisWorker(
        db,
        clock,
        analysis_bot,
        jobs=settings.analysis_jobs_per_process,
        lease_seconds=settings.analysis_lease_seconds,
        poll_seconds=settings.analysis_poll_seconds,
    )
    analysis.queued_hooks.append(analysis_worker.wake)

    # Several processes on one Postgres: hints cross between them by LISTEN/NOTIFY.
    relay = relay_for(hub, settings.effective_database_url, settings.notify_channel)

    # Full collections walk only what was made since the last second (app/collector.py).
    collector = FreezePolicy(clock, settings.gc_freeze_seconds, settings.gc_full_seconds)
    collecting = collector_loop(collector)

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
        if relay is not None:
            await relay.start()
        await runner.start()
        await presence.start()
        if settings.deadline_sweep_seconds > 0:
            sweeper.start()
        me_feed.start()
        push.start()
        mail.start()
        await analysis_worker.start()
        report_sweeper.start()
        if collector.enabled:
            collecting.start()
        try:
            yield
        finally:
            await collecting.stop()
            await report_sweeper.stop()
            await analysis_worker.stop()
            if isinstance(analysis_bot, ChildProcessBot):
                await to_thread.run_sync(analysis_bot.close)
            await invitation_push.stop()
            await mail.stop()
            await push.stop()
            await me_feed.stop()
            await sweeper.stop()
            await presence.stop()  # this instance's people leave now
            await runner.stop()
            if relay is not None:
                await relay.stop()
            await service.play.store.close()  # what is queued is written first
            db.dispose()

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
    app.state.settings = settings
    app.state.db = db
    app.state.hub = hub
    app.state.service = service
    app.state.solo = solo
    app.state.bot_seats = bot_seats
    app.state.bots = runner
    app.state.tutorial = Tutorial(db, service, bot_seats, runner)  # the guided first game
    app.state.clock = clock
    app.state.profiles = profiles_service
    app.state.limiter = limiter
    app.state.presence = presence
    app.state.chat = chat
    app.state.companions = Companions(chat, presence)
    # The table socket (app/realtime) knows no feature: the tables' access and the companions
    # that send frames of their own are handed to it here.
    app.state.socket_access = TableAccess(service, profiles_service, limiter)
    app.state.socket_companions = (app.state.companions,)
    app.state.pace = pace
    app.state.sweeper = sweeper
    app.state.my_games = my_games
    app.state.me_feed = me_feed
    app.state.push_store = push_store
    app.state.push = push
    app.state.push_public_key = public_key(vapid)
    app.state.invitations = invitations
    app.state.invitation_push = invitation_push
    app.state.mail = mail.service
    app.state.mailer = mail.notifier
    app.state.passkeys = passkeys
    app.state.records = records
    app.state.analysis = analysis
    app.state.analysis_worker = analysis_worker
    app.state.history = HistoryService(db)
    app.state.move_tally = service.play.tally  # /metrics (app/metrics)
    app.state.limit_tally = limiter.tally
    app.state.my_data = MyData(db, hub, clock)  # download my data, delete my profile
    app.state.blocks = blocks
    app.state.safety = safety
    app.state.report_sweeper = report_sweeper
    install_handlers(app)
    app.add_middleware(
        BodyLimit,
        max_bytes=settings.max_body_bytes,
        # A game record is larger than any other body (docs/records.md).
        larger={"/api/records": settings.max_record_bytes},
    )
    # A state-changing request another site or origin sent is refused before any route runs.
    app.add_middleware(
        CrossSiteGuard, allowed_origins=settings.allowed_origins, cookie_name=settings.cookie_name
    )
    # A NUL in a path or query string is refused before any route runs (app/web/nul.py).
    app.add_middleware(NulGuard)
    app.include_router(profiles.router)
    app.include_router(device_endpoints.router)
    app.include_router(proof_endpoints.router)  # confirm it's you, security notices
    app.include_router(table_endpoints.router)
    app.include_router(host_endpoints.router)  # remove a person, hand the host role over
    app.include_router(seen_endpoints.router)  # since you looked
    app.include_router(bot_endpoints.router)
    app.include_router(tutorial_endpoints.router)
    app.include_router(solo_endpoints.router)
    app.include_router(socket_endpoints.router)
    app.include_router(chat_endpoints.router)
    app.include_router(pace_endpoints.router)
    app.include_router(my_endpoints.router)
    app.include_router(push_endpoints.router)
    app.include_router(invitation_endpoints.router)
    app.include_router(mail_endpoints.router)
    app.include_router(passkey_endpoints.router)
    app.include_router(rules_endpoints.router)
    app.include_router(record_endpoints.router)
    app.include_router(analysis_endpoints.router)
    app.include_router(history_endpoints.router)
    app.include_router(my_data_endpoints.router)
    app.include_router(block_endpoints.router)  # my blocks
    app.include_router(safety_endpoints.router)  # reports and blocks at a table

    @app.get("/api/health", tags=["health"], response_model=HealthOut)
    async def health() -> dict[str, Any]:
        """Liveness: the process answers (the database is not asked: /api/ready does)."""
        return {"status": "ok", "database": db.engine.dialect.name}

    app.include_router(metrics_endpoints.router)  # /metrics, /api/ready

    if settings.devtools_routes:  # the test suite's servers only (app/devtools/routes.py)
        app.include_router(devtools_routes.router)
    app.include_router(docs_router())  # /docs: the interactive OpenAPI page
    # The browser client: its files and page routes, and security headers on every response.
    app.include_router(client_router(Path(settings.static_dir)))
    app.add_middleware(SecurityHeaders)
    app.add_middleware(ConnectionIds)  # outermost: every log line of a request has its id

    return app


def _removed_from(db: Database, table_id: str) -> list[str]:
    """The people a host removed from the table lately (a worker thread's read)."""
    with db.read() as conn:
        return removed_from(conn, table_id)


def __getattr__(name: str) -> Any:
    # `uvicorn app.main:app` builds the app on first access, from the environment.
    if name == "app":
        application = create_app()
        globals()["app"] = application
        return application
    raise AttributeError(name)
