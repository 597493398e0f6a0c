"""Guessing costs: named rate limits per client address and per profile (``limit(name)``)."""

from app.ratelimit.deps import limit
from app.ratelimit.limiter import LimitName, RateLimiter, Rule, parse_rule, storage_for

__all__ = ["LimitName", "RateLimiter", "Rule", "limit", "parse_rule", "storage_for"]
