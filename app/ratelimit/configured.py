"""The process's rate limiter as the settings describe it: one rule per limit name."""

from __future__ import annotations

from app.clock import Clock
from app.config import Settings
from app.ratelimit.limiter import LimitName, RateLimiter, parse_rule, storage_for


def limiter_for(settings: Settings, clock: Clock) -> RateLimiter:
    rules = {
        LimitName.PROFILE_CREATE: settings.rate_profile_create,
        LimitName.TABLE_CREATE: settings.rate_table_create,
        LimitName.INVITE: settings.rate_invite_misses,
        LimitName.RECOVER: settings.rate_recover_misses,
        LimitName.HOST_ACTS: settings.rate_host_acts,
        LimitName.EMAIL_SEND: settings.rate_email_send,
        LimitName.EMAIL_LINK: settings.rate_email_link_misses,
        LimitName.PASSKEY_SIGNIN: settings.rate_passkey_signin,
        LimitName.RECORD_IMPORT: settings.rate_record_import,
        LimitName.ANALYSIS_REQUEST: settings.rate_analysis_request,
        LimitName.REPLAY_READ: settings.rate_replay_read,
        LimitName.DEVICE_CODE: settings.rate_device_code_misses,
        LimitName.INVITE_TARGET: settings.rate_invite_target_misses,
        LimitName.RECOVER_TARGET: settings.rate_recover_target_misses,
        LimitName.DEVICE_CODE_TARGET: settings.rate_device_code_target_misses,
        LimitName.MOVE: settings.rate_http_moves,
        LimitName.EMAIL_SIGNIN_STRANGERS: settings.rate_email_signin_strangers,
        LimitName.REPORT: settings.rate_report,
        LimitName.BLOCK: settings.rate_block,
    }
    return RateLimiter(
        storage_for(settings.rate_limit_storage),
        clock,
        [parse_rule(name, rule) for name, rule in rules.items()],
        refusal_delay=settings.rate_refusal_delay_seconds,
    )
