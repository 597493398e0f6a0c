"""Guessing costs: named rate limits per client address and per profile (``limiting``; the
routes use ``app.profiles.limit.limit``, which names the caller's profile)."""

from app.ratelimit.deps import limiting
from app.ratelimit.limiter import LimitName, RateLimiter, Rule, parse_rule, storage_for

__all__ = ["LimitName", "RateLimiter", "Rule", "limiting", "parse_rule", "storage_for"]
