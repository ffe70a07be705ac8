"""Request accounting: every REST call the bot made, by category and route template.

Discord's global rate limit (50 requests/s per bot token, whatever the number of processes or shards) applies
to every REST call **except the interaction endpoints**: ``POST /interactions/{id}/{token}/callback`` and the
interaction webhooks (``/webhooks/{application_id}/{token}...``: followups, ``@original`` edits). A bot that
answers through its interactions scales; one that posts boards and edits old messages in channels spends the
global budget. ``RequestCounts`` splits the two so a bench can report "global-limited requests per move"::

    before = server.request_counts()
    await (await alice.slash("constructo place", tile=5, size="large")).wait()
    spent = server.request_counts() - before
    print(spent.global_limited, spent.by_route)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

INTERACTION_PREFIXES = ("/interactions/", "/webhooks/")


def is_interaction_endpoint(path: str) -> bool:
    """True for the interaction endpoints (exempt from the global rate limit); ``path`` is below ``/api/v10``."""
    return path.startswith(INTERACTION_PREFIXES)


@dataclass(frozen=True)
class RequestRecord:
    """One REST call: ``route`` is its template (``"POST /channels/{channel_id}/messages"``; the raw path for an
    unknown route), ``at`` the server clock (s), ``interaction`` True for an interaction endpoint."""

    method: str
    path: str
    status: int
    route: str
    at: float
    interaction: bool


@dataclass
class RequestCounts:
    """Counts of REST calls: ``total`` = ``interaction`` + ``global_limited``; ``by_route`` per route template;
    ``errors`` = answers with status >= 400 (403s, 404s, 429s, injected faults). Subtract two snapshots to count
    what happened in between."""

    total: int = 0
    interaction: int = 0
    global_limited: int = 0
    errors: int = 0
    by_route: Counter[str] = field(default_factory=Counter)

    @classmethod
    def of(cls, records: Iterable[RequestRecord]) -> RequestCounts:
        out = cls()
        for r in records:
            out.add(r)
        return out

    def add(self, r: RequestRecord) -> None:
        """Count one more request."""
        self.total += 1
        if r.interaction:
            self.interaction += 1
        else:
            self.global_limited += 1
        if r.status >= 400:
            self.errors += 1
        self.by_route[r.route] += 1

    def copy(self) -> RequestCounts:
        return RequestCounts(self.total, self.interaction, self.global_limited, self.errors, Counter(self.by_route))

    def __sub__(self, other: RequestCounts) -> RequestCounts:
        by_route = Counter(self.by_route)
        by_route.subtract(other.by_route)
        return RequestCounts(
            self.total - other.total,
            self.interaction - other.interaction,
            self.global_limited - other.global_limited,
            self.errors - other.errors,
            +by_route,
        )

    def limited_routes(self) -> dict[str, int]:
        """``by_route`` restricted to the global-limited routes."""
        return {r: n for r, n in self.by_route.items() if not is_interaction_endpoint(r.split(" ", 1)[-1])}
