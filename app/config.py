"""Settings: one class, read from the environment with the prefix ``EMARA_``."""

from __future__ import annotations

import secrets
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Final, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.private_files import create_private, private_dir, sqlite_file

# The push services of the browsers people use (Chrome, Edge's older builds, Opera, Samsung
# Internet and Brave: Google's FCM; Firefox: Mozilla's autopush; Safari: Apple; Edge: WNS).
DEFAULT_PUSH_HOSTS: Final = (
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "*.push.apple.com",
    "*.notify.windows.com",
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="EMARA_", env_file=".env", extra="ignore")

    # Where the embedded database and the generated dev secret live.
    data_dir: Path = Path("./data")
    # Empty: an embedded SQLite file in data_dir. Otherwise e.g.
    # postgresql+psycopg://user:password@host:5432/emara
    database_url: str = ""
    # Signs tokens and cookies. Empty: generated once and kept in data_dir/secret_key.
    secret_key: str = ""
    # Postgres connection pool of each process (see docs/operations.md).
    db_pool_size: int = 20
    db_max_overflow: int = 10
    # Key rotation: older keys still accepted when checking a token (new tokens use secret_key).
    # Comma-separated in the environment: EMARA_PREVIOUS_SECRET_KEYS=old2,old1
    previous_secret_keys: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Per-profile limit on opening tables: at most this many in the window (0 = no limit).
    table_create_limit: int = 30
    table_create_window_seconds: float = 600.0
    # Extra origins allowed to open a WebSocket (the server's own origin always is).
    allowed_origins: Annotated[list[str], NoDecode] = Field(default_factory=list)
    # Cookie
    cookie_name: str = "emara_token"
    cookie_secure: bool = False
    # Largest HTTP request body accepted (bytes); a larger one is refused with 413.
    max_body_bytes: int = 65_536
    # WebSocket limits
    ws_max_frame_bytes: int = 16_384
    ws_rate_per_second: float = 20.0
    ws_rate_burst: int = 40
    ws_heartbeat_seconds: float = 20.0
    # The Postgres LISTEN/NOTIFY channel the server instances of one deployment share (a
    # deployment that must not hear another on the same database picks its own).
    notify_channel: str = "emara_tables"
    # --- Sessions and rate limits (docs/operations.md "Limits") ---
    # A token is good this long after it was issued; a request with one older than
    # session_renew_hours gets a fresh one, so only unused sessions run out.
    session_days: float = Field(default=30.0, gt=0)
    session_renew_hours: float = Field(default=24.0, ge=0)
    # Rate-limit counters: "memory://" (this process) or "redis://host:6379/0" (shared by
    # several instances). Limits in the `limits` notation, "N/period" joined by ";"; "" = off.
    rate_limit_storage: str = "memory://"
    # Seconds a request is held before its 429 when its address is already past a costly
    # read's limit (docs/operations.md "Limits": a looping client's rate, not the server's).
    rate_refusal_delay_seconds: float = Field(default=1.0, ge=0, le=10)
    rate_profile_create: str = "1000/hour"  # new profiles per client address
    rate_table_create: str = "300/hour"  # new tables per client address and per profile
    rate_invite_misses: str = "20/minute;200/hour"  # wrong table id or invite code
    rate_recover_misses: str = "10/minute;100/hour"  # wrong recovery codes
    # Guessing (docs/operations.md "Guessing"): wrong add-a-device codes, a bucket of their own;
    # and the misses one target takes from callers out of misses of their own — per table for
    # invite codes, all together for recovery and add-a-device codes (their code names the
    # profile). Past a target's misses, only callers with misses of their own left are heard.
    rate_device_code_misses: str = "10/minute;100/hour"
    rate_invite_target_misses: str = "60/hour"
    rate_recover_target_misses: str = "1000/hour"
    rate_device_code_target_misses: str = "1000/hour"
    # Moves over HTTP per profile (the socket's bucket is EMARA_WS_RATE_PER_SECOND/_BURST).
    rate_http_moves: str = "40/second;1200/minute"
    # Table socket limits (docs/operations.md, "Socket limits")
    ws_max_depth: int = 32  # JSON nesting of an inbound frame
    ws_first_frame_bytes: int = 2048  # the auth frame of a socket opened without a cookie
    ws_idle_timeout_seconds: float = 60.0  # nothing heard for this long: closed (4408)
    ws_send_timeout_seconds: float = 10.0  # one send blocked this long: closed (1013)
    ws_auth_timeout_seconds: float = 10.0  # first-frame authentication
    ws_outbox_frames: int = 256  # answers pending for one socket, beyond: closed (1013)
    ws_outbox_bytes: int = 1_048_576
    ws_catch_up_token_bytes: int = 8192  # a catch-up costs one rate token per this many bytes
    ws_max_per_profile: int = 16  # open sockets, per process; beyond: refused (4429)
    ws_max_per_address: int = 64
    ws_max_per_table: int = 64
    ws_max_per_process: int = 5000
    # Presence and table chat (docs/operations.md "Presence and chat")
    # Each instance refreshes its presence rows this often; a row not refreshed for ttl seconds
    # is swept: a person whose instance died turns absent within ttl + refresh seconds.
    presence_ttl_seconds: float = Field(default=45.0, gt=0)
    presence_refresh_seconds: float = Field(default=15.0, gt=0)
    # Chat messages per profile (per instance): this many per second on average, in bursts of.
    chat_rate_per_second: float = Field(default=0.5, gt=0)
    chat_rate_burst: int = Field(default=10, ge=1)
    # The cycle collector (app/collector.py): every this many seconds what is alive is frozen
    # out of its walk (0: Python's own policy); every gc_full_seconds one full pass frees the
    # reference cycles that became garbage meanwhile (its pause is logged).
    gc_freeze_seconds: float = Field(default=1.0, ge=0)
    gc_full_seconds: float = Field(default=600.0, gt=0)
    # Worker threads for blocking work (database sessions, sync dependencies), per process. The
    # event loop judges and writes the moves; every thread that runs Python takes the GIL from
    # it, so a burst of set-up work in many threads stretches the moves' tail
    # (docs/operations.md "Few worker threads"). A long analysis has threads of its own.
    worker_threads: int = Field(default=8, ge=1, le=256)
    # --- Pace, My games and Web Push (docs/operations.md "Pace and push") ---
    # Seconds between two sweeps for expired deadlines (0: this instance does not sweep).
    deadline_sweep_seconds: float = Field(default=2.0, ge=0)
    # Server-sent events of "My games": connections per profile, heartbeat, longest stream.
    me_events_per_profile: int = Field(default=4, ge=1)
    me_events_heartbeat_seconds: float = Field(default=20.0, gt=0)
    me_events_max_seconds: float = Field(default=1800.0, gt=0)
    # Web Push: the VAPID private key (PEM or base64url raw; empty: generated into data_dir) and
    # the contact subject ("mailto:..." or an https URL) push services may use.
    vapid_private_key: str = ""
    vapid_subject: str = "mailto:admin@localhost"
    # Push endpoints must be https on port 443 to public addresses of a known push service
    # (docs/operations.md "Web Push in production"): these host names ("*.suffix" for its
    # subdomains), comma-separated; push_allow_any_host lifts the list (public hosts only).
    push_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(DEFAULT_PUSH_HOSTS)
    )
    push_allow_any_host: bool = False
    # Tests only: a push service on http://127.0.0.1:<port> or http://localhost:<port>.
    push_allow_loopback_http: bool = False
    # Sending: messages in flight at once (and threads of the push pool), messages waiting,
    # one message's deadline, the largest reply head read.
    push_workers: int = Field(default=4, ge=1, le=64)
    push_queue: int = Field(default=1000, ge=1)
    push_deadline_seconds: float = Field(default=10.0, gt=0)
    push_max_reply_bytes: int = Field(default=8192, ge=256)
    push_subscriptions_per_profile: int = Field(default=10, ge=1)
    push_attempts: int = Field(default=3, ge=1)
    push_retry_seconds: float = Field(default=5.0, ge=0)
    # --- Play again and e-mail (README "E-mail") ---
    # Naming a table, inviting people and rematches per profile; e-mails a person asks for
    # (confirmation, sign-in link) per address, profile and client address; wrong or spent links.
    rate_host_acts: str = "120/hour"
    rate_email_send: str = "5/hour;20/day"
    rate_email_link_misses: str = "10/minute;100/hour"
    # The address people reach this server at (links in e-mails), e.g. https://emara.example.
    public_url: str = ""
    # SMTP: no host (or no public_url) = no e-mail is ever sent, and the profile page says so.
    smtp_host: str = ""
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_security: Literal["starttls", "tls", "none"] = "starttls"
    smtp_user: str = ""
    smtp_password: str = ""
    smtp_from: str = "Crown of Emara <noreply@localhost>"
    smtp_timeout_seconds: float = Field(default=20.0, gt=0)
    email_queue_size: int = Field(default=1000, ge=1)  # messages waiting for the SMTP server
    email_attempts: int = Field(default=3, ge=1)
    email_retry_seconds: float = Field(default=30.0, ge=0)
    # Seconds between two looks for due notifications and short deadlines (0: not here).
    email_sweep_seconds: float = Field(default=15.0, ge=0)
    # "Your turn" waits this long (several tables then go out as one digest; a move made
    # meanwhile cancels it), and goes out at most once per table per window.
    email_gather_seconds: float = Field(default=120.0, ge=0)
    email_turn_window_seconds: float = Field(default=6 * 3600.0, ge=0)
    # "Time runs out in 1 hour": this long before a turn-based deadline.
    email_reminder_seconds: float = Field(default=3600.0, gt=0)
    email_confirm_minutes: float = Field(default=30.0, gt=0)
    email_signin_minutes: float = Field(default=15.0, gt=0)
    # A sign-in link asked for without a session of the address's profile (a stranger, or the
    # owner on a signed-out device) counts against this smaller budget per mailbox and client
    # address, apart from the owner's own (rate_email_send): strangers never use that one up.
    rate_email_signin_strangers: str = "3/hour;10/day"
    # Sending: this many messages at once, at most this many of them to one recipient domain
    # (a slow domain never holds every sender), each within this deadline (connect to the last
    # answer); a retry is scheduled after email_retry_seconds, doubled each time, not waited for.
    email_senders: int = Field(default=4, ge=1, le=64)
    email_senders_per_domain: int = Field(default=2, ge=1, le=64)
    email_deadline_seconds: float = Field(default=60.0, gt=0)
    # After someone declines an invitation, the same inviter's new invitations are refused for
    # this many days (invitation_not_wanted); a profile can also block an inviter for good.
    invitation_decline_quiet_days: float = Field(default=7.0, ge=0)
    # --- Protecting oneself (docs/privacy.md, docs/operations.md "Reports"): reports of a chat
    # message or a name per client address and profile, and how many of a person's reports may
    # wait in the operator's queue at once (beyond: 429 too_many_open_reports); blocks per client
    # address and profile. A resolved or dismissed report is deleted this many days after it was
    # closed, by a sweep every report_sweep_seconds (0: this instance does not sweep).
    rate_report: str = "10/hour;30/day"
    reports_open_per_reporter: int = Field(default=10, ge=1, le=1000)
    report_keep_days: float = Field(default=180.0, gt=0)
    report_sweep_seconds: float = Field(default=3600.0, ge=0)
    rate_block: str = "60/hour"
    # --- Passkeys (README "Signing in"): the name browsers show for this site, how long a
    # registration or sign-in challenge is good for, and sign-in attempts per client address.
    passkey_rp_name: str = "Crown of Emara"
    passkey_challenge_seconds: float = Field(default=300.0, gt=0, le=600)
    rate_passkey_signin: str = "30/minute;300/hour"
    # Adding or removing a passkey or the e-mail address (and removing them while signing out
    # everywhere) needs a proof on this device at most this old: its sign-in, or a re-entered
    # recovery code or passkey ("confirm it's you"; docs/operations.md "Recent proof").
    recent_proof_seconds: float = Field(default=300.0, gt=0, le=3600)
    # Security notices ("a passkey was added — not you?") kept per profile, the newest; a device
    # is shown at most this many.
    security_notices_kept: int = Field(default=20, ge=1, le=200)
    # Game records (docs/records.md): imports per client address and profile, and the
    # largest record body (a record of the most moves a record may hold fits well within it).
    rate_record_import: str = "10/minute;60/hour"
    max_record_bytes: int = Field(default=1_048_576, ge=1024)
    # Replays (docs/records.md "What a replay costs"): reads of a replay or of its positions per
    # client address and profile, the bytes of encoded replay pages and positions a process
    # keeps, and the most positions one page of a replay's log holds (a whole real game fits).
    rate_replay_read: str = "20/second;240/minute;3000/hour"
    replay_cache_bytes: int = Field(default=64 * 1024 * 1024, ge=0)
    replay_page_max: int = Field(default=400, ge=1)
    # Games bots play alone (every seat a bot; docs/bots.md, docs/operations.md "Limits")
    # Per profile: running games of theirs left to bots alone (a hand-over past it: 409).
    bot_unattended_per_profile: int = Field(default=2, ge=0)
    # Per process: moves of such games worked out at a time, and at most one move per slot
    # per this many seconds; the games queue for the slots in turn.
    bot_unattended_slots: int = Field(default=1, ge=1)
    bot_unattended_move_seconds: float = Field(default=0.5, ge=0)
    # Analysis after the game (docs/analysis.md): analyses one instance runs at a time
    # (0: this instance runs none), the playouts of one position's estimate (its CPU bound; the
    # bot version names it), the longest game analysed, the lease of a running analysis (a dead
    # instance's analysis is taken over once it runs out), how often an idle worker looks for
    # work queued elsewhere, and requests per client address and profile.
    analysis_jobs_per_process: int = Field(default=1, ge=0, le=8)
    # The bot's playouts in a child process (off the lock the requests share); False: in the
    # worker thread (tests with a stand-in bot, or a machine that cannot start processes).
    analysis_child_process: bool = True
    analysis_playouts: int = Field(default=2, ge=1, le=64)
    # Swings and luck (docs/analysis.md "Swings and luck"): playouts per move where one is
    # measured (its noise: a swing's standard error is about 3.7 / sqrt(samples) points), and
    # playouts per game for all of them (the CPU bound of that part of an analysis).
    analysis_measure_samples: int = Field(default=32, ge=2, le=512)
    analysis_measure_budget: int = Field(default=2000, ge=0)
    analysis_max_positions: int = Field(default=1200, ge=1)
    analysis_lease_seconds: float = Field(default=120.0, gt=0)
    analysis_poll_seconds: float = Field(default=10.0, gt=0)
    rate_analysis_request: str = "30/hour"
    # Analyses waiting (queued or running) at once, per profile and per client address (all the
    # profiles behind it): beyond, a request is refused (429 analysis_queue_full) and nothing is
    # queued. The queue serves its requesters in turn (docs/analysis.md).
    analysis_max_pending_per_profile: int = Field(default=3, ge=1)
    analysis_max_pending_per_address: int = Field(default=6, ge=1)
    # --- Operating (docs/operations.md "Metrics and logs") ---
    # /metrics answers a client on this machine, and anyone sending this token as a bearer
    # token (empty: loopback only); everyone else gets 404.
    metrics_token: str = ""
    # "text": uvicorn's and Python's own lines; "json": one JSON object a line, with the request
    # or socket id. Client addresses appear in JSON lines only with log_client_addresses.
    log_format: Literal["text", "json"] = "text"
    log_client_addresses: bool = False
    # The test suite's route that plays a started game to its end in this process
    # (app/devtools/routes.py), answered to loopback clients only. Never on a public server.
    devtools_routes: bool = False
    # Where the browser client lives.
    static_dir: Path = Path(__file__).resolve().parent.parent / "static"

    @field_validator("previous_secret_keys", mode="before")
    @classmethod
    def _split_keys(cls, value: object) -> object:
        if isinstance(value, str):
            return [k.strip() for k in value.split(",") if k.strip()]
        return value

    @field_validator("push_hosts", mode="before")
    @classmethod
    def _split_hosts(cls, value: object) -> object:
        if isinstance(value, str):
            return [h.strip().lower() for h in value.split(",") if h.strip()]
        return value

    @field_validator("allowed_origins", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.split(",")
        if isinstance(value, list | tuple):
            return [str(v).strip().rstrip("/") for v in value if str(v).strip()]
        return value

    @model_validator(mode="after")
    def _no_password_in_clear(self) -> Settings:
        loopback = self.smtp_host in ("127.0.0.1", "localhost", "::1")
        if self.smtp_security == "none" and self.smtp_password and not loopback:
            raise ValueError("an SMTP password is sent only over STARTTLS or TLS")
        return self

    @property
    def mail_enabled(self) -> bool:
        """E-mail is sent only with an SMTP server and the public address for its links."""
        return bool(self.smtp_host and self.public_url)

    @property
    def effective_database_url(self) -> str:
        if self.database_url:
            return self.database_url
        private_dir(self.data_dir)
        url = f"sqlite:///{(self.data_dir / 'emara.db').resolve()}"
        sqlite_file(url)  # owner-only from its first byte (app/private_files.py)
        return url

    @property
    def effective_secret_key(self) -> str:
        if self.secret_key:
            return self.secret_key
        path = private_dir(self.data_dir) / "secret_key"
        # 0600 from creation; a process that lost the race reads the winner's key.
        create_private(path, secrets.token_urlsafe(48).encode())
        key = path.read_text().strip()
        self.secret_key = key
        return key


@lru_cache
def get_settings() -> Settings:
    return Settings()
