"""The outbox's figures for ``bench_scale.py`` (issue 20), read from each bot process's ``/metrics``.

Each bot process runs with a ``HEALTH_PORT`` of its own (:func:`free_port`); :class:`OutboxProbe` scrapes every
process at a step's start and end, and every ``interval`` s in between, and parses the Prometheus text with
``prometheus_client.parser.text_string_to_metric_families``. Metrics read (bot/metrics.py, docs/operations.md):

- ``tablebot_effects_settled_total{kind,result}``: counter; ``done`` = a worker ran the effect, ``inline`` = the
  committing process did it (``later``, ``failed``, ``dropped`` are counted apart);
- ``tablebot_effect_lag_seconds{kind}``: histogram (seconds) from the commit owing an effect to a worker settling
  it (inline effects are not observed);
- ``tablebot_effects_pending``: gauge, effects of the process's shards not done yet (read from storage at scrape);
- ``tablebot_effect_oldest_age_seconds``: gauge, age in seconds of the oldest effect still owed (0 when none).

Counters and the histogram are summed over processes and kinds and taken as end - start deltas; the gauges are
summed (pending: each process counts its own shards) or maxed (oldest age) over processes at each scrape, then
maxed over the step's scrapes.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import os
import socket
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

DUMP = os.environ.get("DUMP_METRICS", "")
"""``DUMP_METRICS=PREFIX``: each process's latest ``/metrics`` text is kept in ``PREFIX.<health port>`` (the last
scrape of a step: its cumulative histograms, e.g. ``tablebot_storage_seconds`` and ``tablebot_board_post_seconds``)."""
SETTLED = "tablebot_effects_settled"
LAG = "tablebot_effect_lag_seconds"
PENDING = "tablebot_effects_pending"
OLDEST = "tablebot_effect_oldest_age_seconds"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that was free a moment ago (bound to 0, read, closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Scrape:
    """One ``/metrics`` answer reduced to what the bench needs (one process or several added up)."""

    settled: dict[str, float] = field(default_factory=dict)  # result -> count, summed over kinds
    by_kind: dict[str, float] = field(default_factory=dict)  # "kind/result" -> count
    lag_buckets: dict[float, float] = field(default_factory=dict)  # le (s) -> cumulative count, over kinds
    lag_sum: float = 0.0
    lag_count: float = 0.0
    pending: float = 0.0
    oldest: float = 0.0

    @classmethod
    def parse(cls, text: str) -> Scrape:
        out = cls()
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                if s.name == SETTLED + "_total":
                    result = s.labels.get("result", "")
                    out.settled[result] = out.settled.get(result, 0.0) + s.value
                    key = f"{s.labels.get('kind', '')}/{result}"
                    out.by_kind[key] = out.by_kind.get(key, 0.0) + s.value
                elif s.name == LAG + "_bucket":
                    le = float(s.labels["le"])
                    out.lag_buckets[le] = out.lag_buckets.get(le, 0.0) + s.value
                elif s.name == LAG + "_sum":
                    out.lag_sum += s.value
                elif s.name == LAG + "_count":
                    out.lag_count += s.value
                elif s.name == PENDING:
                    out.pending += s.value
                elif s.name == OLDEST:
                    out.oldest = max(out.oldest, s.value)
        return out

    def __add__(self, other: Scrape) -> Scrape:
        """Several processes: counters, buckets and pending added; the oldest age is the max."""
        keys = set(self.settled) | set(other.settled)
        les = set(self.lag_buckets) | set(other.lag_buckets)
        kinds = set(self.by_kind) | set(other.by_kind)
        return Scrape(
            {k: self.settled.get(k, 0.0) + other.settled.get(k, 0.0) for k in keys},
            {k: self.by_kind.get(k, 0.0) + other.by_kind.get(k, 0.0) for k in kinds},
            {le: self.lag_buckets.get(le, 0.0) + other.lag_buckets.get(le, 0.0) for le in les},
            self.lag_sum + other.lag_sum,
            self.lag_count + other.lag_count,
            self.pending + other.pending,
            max(self.oldest, other.oldest),
        )


def bucket_quantile(buckets: dict[float, float], q: float) -> float:
    """The upper bound (s) of the histogram bucket holding quantile ``q`` (0-1) of cumulative ``buckets`` (le ->
    count, ``inf`` included); ``nan`` without observations. A bound, not an interpolation: the lag buckets are
    coarse (0.1, 0.5, 1, 2.5 s...), so "p50 <= 0.1 s" is all the data says."""
    total = buckets.get(math.inf, 0.0)
    if total <= 0:
        return math.nan
    for le in sorted(buckets):
        if buckets[le] >= q * total:
            return le
    return math.inf


@dataclass
class StepOutbox:
    """The outbox over one step: effects settled (by result), the lag histogram's delta, the max gauges."""

    settled: dict[str, float]
    by_kind: dict[str, float]  # "kind/result" -> count over the step
    lag_buckets: dict[float, float]
    lag_sum: float
    lag_count: float
    max_pending: float
    max_oldest: float
    scrapes: int
    failed_scrapes: int

    def cells(self, wall_s: float) -> list[str]:
        """Markdown cells: effects/s (inline + done), share done by workers, lag p50 / p99 bounds and mean, max
        pending, max oldest age, other results (later/failed/dropped)."""
        done, inline = self.settled.get("done", 0.0), self.settled.get("inline", 0.0)
        ran = done + inline
        others = {k: int(v) for k, v in sorted(self.settled.items()) if k not in ("done", "inline") and v}
        mean = f"{1000 * self.lag_sum / self.lag_count:.0f} ms" if self.lag_count else "-"

        def bound(q: float) -> str:
            value = bucket_quantile(self.lag_buckets, q)
            return "-" if math.isnan(value) else f"<= {value:g} s"

        return [
            f"{ran / wall_s:.1f}",
            f"{100 * done / ran:.1f} % ({done:.0f} of {ran:.0f})" if ran else "-",
            f"{bound(0.5)} / {bound(0.99)} (mean {mean})",
            f"{self.max_pending:.0f}",
            f"{self.max_oldest:.1f}",
            str(others or 0),
        ]


class OutboxProbe:
    """Scrapes ``http://127.0.0.1:<port>/metrics`` of every port in ``ports`` (one per bot process)."""

    def __init__(self, ports: list[int], interval: float = 2.0) -> None:
        self.ports = ports
        self.interval = interval
        self._session: aiohttp.ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        self._start = Scrape()
        self._max_pending = 0.0
        self._max_oldest = 0.0
        self._scrapes = 0
        self._failed = 0

    async def __aenter__(self) -> OutboxProbe:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._stop_polling()
        if self._session is not None:
            await self._session.close()

    async def scrape(self) -> Scrape:
        """All processes added up (:meth:`Scrape.__add__`); a process that does not answer counts as failed and
        adds nothing."""
        assert self._session is not None, "use OutboxProbe as an async context manager"
        total = Scrape()
        for port in self.ports:
            try:
                async with self._session.get(f"http://127.0.0.1:{port}/metrics") as resp:
                    resp.raise_for_status()
                    text = await resp.text()
                    total = total + Scrape.parse(text)
                    if DUMP:  # the latest scrape of each process, whole (storage, board and first-response timings)
                        await asyncio.to_thread(Path(f"{DUMP}.{port}").write_text, text)
            except (aiohttp.ClientError, TimeoutError):
                self._failed += 1
        self._scrapes += 1
        self._max_pending = max(self._max_pending, total.pending)
        self._max_oldest = max(self._max_oldest, total.oldest)
        return total

    async def drain_time(self, timeout: float = 30.0, every: float = 0.5) -> float | None:  # noqa: ASYNC109
        """Seconds from now until every process reports ``tablebot_effects_pending`` 0 (scraped every ``every`` s),
        or ``None`` if effects are still pending after ``timeout`` s. Call after :meth:`end`."""
        loop = asyncio.get_running_loop()
        started = loop.time()
        while True:
            if (await self.scrape()).pending == 0:
                return loop.time() - started
            if loop.time() - started > timeout:
                return None
            await asyncio.sleep(every)

    async def _poll(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            await self.scrape()

    async def _stop_polling(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def begin(self) -> None:
        """A step starts: first scrape, then one every ``interval`` s until :meth:`end`."""
        self._max_pending = self._max_oldest = 0.0
        self._scrapes = self._failed = 0
        self._start = await self.scrape()
        self._task = asyncio.create_task(self._poll())

    async def end(self) -> StepOutbox:
        """The step ends: last scrape; the deltas since :meth:`begin` and the max gauges seen."""
        await self._stop_polling()
        last = await self.scrape()
        first = self._start
        return StepOutbox(
            {k: v - first.settled.get(k, 0.0) for k, v in last.settled.items()},
            {k: v - first.by_kind.get(k, 0.0) for k, v in last.by_kind.items()},
            {le: v - first.lag_buckets.get(le, 0.0) for le, v in last.lag_buckets.items()},
            last.lag_sum - first.lag_sum,
            last.lag_count - first.lag_count,
            self._max_pending,
            self._max_oldest,
            self._scrapes,
            self._failed,
        )
