"""Rate limits as Discord applies them (opt-in per-route buckets, always-on global check).

- **Global**: more than 50 requests in one second from the bot (interaction callbacks and webhook routes
  excepted, as on Discord) is recorded as a ``global_rate_limit`` violation, and answered 429 (``global: true``)
  when bucket enforcement is on.
- **Buckets** (``DevServer(rate_limits=True)`` or ``server.rate_limit(pattern, limit, per_s)``): a fixed window
  per route pattern and major parameter (the channel id or webhook token). Every answer carries
  ``X-RateLimit-Limit/Remaining/Reset-After/Bucket`` so discord.py waits by itself; a request over the limit
  gets 429 with ``retry_after`` and is recorded as a ``rate_limited`` violation (a 429 storm shows up there).
"""

from __future__ import annotations

import collections
import fnmatch
import time
from dataclasses import dataclass, field

GLOBAL_PER_S = 50

# Indicative per-route limits (Discord does not publish exact numbers; these are the commonly observed ones).
DEFAULT_BUCKETS: tuple[tuple[str, int, float], ...] = (
    ("POST /channels/*/messages", 5, 5.0),
    ("PATCH /channels/*/messages/*", 5, 5.0),
    ("DELETE /channels/*/messages/*", 5, 1.0),
    ("POST /channels/*/threads", 5, 5.0),
    ("POST /channels/*/messages/*/threads", 5, 5.0),
    ("POST /webhooks/*/*", 5, 2.0),
    ("PATCH /webhooks/*/*/messages/*", 5, 2.0),
)


@dataclass
class Bucket:
    """A fixed-window bucket: ``limit`` requests per ``per_s`` seconds for each major parameter."""

    pattern: str
    limit: int
    per_s: float
    windows: dict[str, tuple[float, int]] = field(default_factory=dict)  # major -> (window start, count)

    def matches(self, method: str, path: str) -> bool:
        return fnmatch.fnmatchcase(f"{method} {path}", self.pattern)

    def take(self, major: str, now: float) -> tuple[bool, int, float]:
        """Count one request; returns (allowed, remaining, reset_after seconds)."""
        start, count = self.windows.get(major, (now, 0))
        if now - start >= self.per_s:
            start, count = now, 0
        reset_after = max(0.0, self.per_s - (now - start))
        if count >= self.limit:
            self.windows[major] = (start, count)
            return False, 0, reset_after
        count += 1
        self.windows[major] = (start, count)
        return True, self.limit - count, reset_after


class RateLimiter:
    """The global 50/s check and the route buckets of one server."""

    def __init__(self, enforce_buckets: bool = False) -> None:
        self.buckets: list[Bucket] = [Bucket(*b) for b in DEFAULT_BUCKETS] if enforce_buckets else []
        self.enforce_global = enforce_buckets
        self.recent: collections.deque[float] = collections.deque()

    def add(self, pattern: str, limit: int, per_s: float) -> Bucket:
        bucket = Bucket(pattern if " " in pattern else f"* {pattern}", limit, per_s)
        self.buckets.insert(0, bucket)
        return bucket

    def global_exceeded(self, path: str) -> bool:
        """Count a bot request; True if it is over 50 in the last second (interaction routes excepted)."""
        if path.startswith(("/interactions/", "/webhooks/")):
            return False
        now = time.monotonic()
        self.recent.append(now)
        while self.recent and now - self.recent[0] > 1.0:
            self.recent.popleft()
        return len(self.recent) > GLOBAL_PER_S

    def check(self, method: str, path: str) -> tuple[Bucket, bool, int, float] | None:
        """The bucket for this request and its verdict (allowed, remaining, reset_after), or None."""
        for bucket in self.buckets:
            if bucket.matches(method, path):
                parts = path.split("/")
                major = parts[2] if len(parts) > 2 else ""
                if parts[1] == "webhooks" and len(parts) > 3:
                    major = parts[3]
                return (bucket, *bucket.take(major, time.monotonic()))
        return None
