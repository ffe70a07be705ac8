"""Prometheus metrics of the bot (``prometheus_client``), served at ``/metrics`` by :mod:`bot.health`.

Every metric lives in one registry, :data:`REGISTRY`, and is named ``tablebot_<name>``; docs/operations.md lists
them (name, type, labels, meaning). Code that wants a metric of its own registers it through this module's small
API, which is idempotent (asking twice for one name returns the same metric, so a module reloaded by tests does
not fail)::

    from bot import metrics

    PENDING = metrics.gauge("effects_pending", "Effects committed but not yet delivered.")
    PENDING.set(3)
    AGE = metrics.gauge("effect_oldest_age_seconds", "Age of the oldest pending effect.", fn=lambda: outbox.age())
    LEASE = metrics.gauge("lease_held", "1 while this process holds the lease.", labels=("name",))
    metrics.on_scrape(outbox.refresh_counts)   # sync or async; run (bounded) before each /metrics answer

Nothing here imports discord or the storage: the hooks (:func:`action_committed`, :func:`first_response`,
:func:`board_posted`, :func:`count_429`) are cheap calls made from the game layer's seams.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any
from urllib.parse import urlsplit

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

log = logging.getLogger(__name__)

PREFIX = "tablebot_"
REGISTRY = CollectorRegistry(auto_describe=True)
"""The bot's registry (not prometheus_client's global one: only what this module registers is served)."""

LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0)
"""Seconds; Discord's 3 s first-response deadline falls between two buckets."""
STORAGE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
SCRAPE_REFRESH_TIMEOUT_S = 2.0

_metrics: dict[str, tuple[Any, tuple[str, ...]]] = {}
_scrape_hooks: list[Callable[[], Any]] = []


def _full(name: str) -> str:
    return name if name.startswith(PREFIX) else PREFIX + name


def _get(kind: type, name: str, doc: str, labels: Sequence[str], **kwargs: Any) -> Any:
    full = _full(name)
    if full in _metrics:
        existing, known = _metrics[full]
        if not isinstance(existing, kind) or known != tuple(labels):
            raise ValueError(f"metric {full} is already registered as a {type(existing).__name__} with labels {known}")
        return existing
    metric = kind(full, doc, labelnames=tuple(labels), registry=REGISTRY, **kwargs)
    _metrics[full] = (metric, tuple(labels))
    return metric


def counter(name: str, doc: str, labels: Sequence[str] = ()) -> Counter:
    """The counter ``tablebot_<name>_total`` (created on first call; same object afterwards).

    Raises ``ValueError`` if ``name`` is registered as another type or with other labels."""
    result: Counter = _get(Counter, name, doc, labels)
    return result


def gauge(name: str, doc: str, labels: Sequence[str] = (), *, fn: Callable[[], float] | None = None) -> Gauge:
    """The gauge ``tablebot_<name>``. With ``fn`` (no labels), its value is ``fn()`` read at each scrape (must be
    cheap and must not block: it runs on the event loop). Raises ``ValueError`` like :func:`counter`."""
    result: Gauge = _get(Gauge, name, doc, labels)
    if fn is not None:
        if labels:
            raise ValueError("a gauge read through fn= has no labels")
        result.set_function(fn)
    return result


def histogram(name: str, doc: str, labels: Sequence[str] = (), buckets: Iterable[float] = LATENCY_BUCKETS) -> Histogram:
    """The histogram ``tablebot_<name>`` (``_bucket``, ``_sum``, ``_count``), in seconds by convention."""
    result: Histogram = _get(Histogram, name, doc, labels, buckets=tuple(buckets))
    return result


def on_scrape(hook: Callable[[], Any]) -> None:
    """Run ``hook()`` (a function or a coroutine function) before each ``/metrics`` answer, e.g. to refresh gauges
    that need a database query. All hooks together get :data:`SCRAPE_REFRESH_TIMEOUT_S`; a failing or late hook is
    logged and the scrape still answers (with the previous values)."""
    if hook not in _scrape_hooks:
        _scrape_hooks.append(hook)


def remove_scrape_hook(hook: Callable[[], Any]) -> None:
    """Undo :func:`on_scrape` (a stopped bot, tests)."""
    if hook in _scrape_hooks:
        _scrape_hooks.remove(hook)


async def _run_hooks() -> None:
    for hook in list(_scrape_hooks):
        try:
            result = hook()
            if inspect.isawaitable(result):
                await result
        except Exception as err:  # a metric must never break the scrape
            log.warning("metrics: a scrape hook failed: %s: %s", type(err).__name__, err)


async def render() -> tuple[bytes, str]:
    """Run the scrape hooks (bounded), then the Prometheus text exposition: ``(body, content type)``."""
    if _scrape_hooks:
        try:
            await asyncio.wait_for(_run_hooks(), SCRAPE_REFRESH_TIMEOUT_S)
        except TimeoutError:
            SCRAPE_HOOK_TIMEOUTS.inc()
            log.warning("metrics: scrape hooks took over %.1f s; serving the previous values", SCRAPE_REFRESH_TIMEOUT_S)
    return generate_latest(REGISTRY), CONTENT_TYPE


# -- the bot's own metrics --------------------------------------------------------------------------------------
BUILD = gauge("build_info", "Always 1; the version label is the running bot's.", ("version",))
START_TIME = gauge("start_time_seconds", "Unix time the process started.")
GAMES_ACTIVE = gauge(
    "games_active",
    "Open games in the database by kind and status (lobby, active...): the "
    "whole database, so several shard processes report the same value.",
    ("kind", "status"),
)
ACTIONS = counter("actions_committed", "Game actions committed to storage, by game kind (rate = actions/s).", ("kind",))
FIRST_RESPONSE = histogram(
    "first_response_seconds",
    "From the interaction's arrival to its first response "
    "accepted by Discord (deadline 3 s), by interaction type and who answered.",
    ("type", "by"),
)
BOARD = histogram(
    "board_post_seconds",
    "From a committed action to its board posted (drawing included), by game kind and path (interaction or channel).",
    ("kind", "path"),
)
CPU_QUEUE = gauge(
    "cpu_jobs_in_flight",
    "Jobs submitted to a CPU lane and not finished (queued or running); above the lane's workers, jobs wait.",
    ("lane",),
)
CPU_WORKERS = gauge("cpu_workers", "Worker processes of each CPU lane (0: threads of the bot process).", ("lane",))
RATE_LIMITED = counter(
    "discord_rate_limited",
    "HTTP 429 answers from Discord, by route class and scope (route, global).",
    ("route_class", "scope"),
)
STORAGE_SECONDS = histogram(
    "storage_seconds", "Duration of storage calls: reads and write transactions.", ("op",), buckets=STORAGE_BUCKETS
)
STORAGE_ERRORS = counter("storage_errors", "Storage calls that raised, by operation and error type.", ("op", "error"))
GATEWAY_CONNECTED = gauge(
    "gateway_connected",
    "1 while the shard's gateway session is up (READY or RESUMED received and no disconnect since), else 0.",
    ("shard",),
)
GATEWAY_DISCONNECTS = counter("gateway_disconnects", "Gateway connections lost, by shard.", ("shard",))
GATEWAY_LATENCY = gauge(
    "gateway_latency_seconds", "Last heartbeat round trip of the shard (NaN before the first).", ("shard",)
)
STORAGE_OK = gauge("storage_up", "1 if the last readiness check of storage answered in time, else 0.")
LOOP_LAG = gauge("event_loop_lag_seconds", "How late the event loop ran a 0.5 s timer, last measurement.")
GUILDS = gauge("guilds", "Guilds this process sees (its shards only).")
SCRAPE_HOOK_TIMEOUTS = counter("scrape_hook_timeouts", "Scrapes whose refresh hooks did not finish in time.")
DRAINING = gauge("draining", "1 once a stop (SIGTERM) has begun.")

START_TIME.set(time.time())


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("tablebot")
    except metadata.PackageNotFoundError:
        return "unknown"


BUILD.labels(_version()).set(1)


# -- hooks called from the bot's seams ----------------------------------------------------------------------------
def action_committed(kind: str, n: int = 1) -> None:
    """``n`` actions of a ``kind`` game were committed (one call per commit, from the game layer)."""
    ACTIONS.labels(kind).inc(n)


def count_committed(committed: Any) -> None:
    """``GameLayer.on_committed`` hook: count the committed changes of a ``Committed`` (its ``snap.record.kind``,
    its ``changes``)."""
    action_committed(committed.snap.record.kind, len(committed.changes))


def first_response(interaction_type: str, elapsed_s: float, by: str = "handler") -> None:
    """An interaction of ``interaction_type`` got its first response ``elapsed_s`` seconds after it arrived;
    ``by`` is ``handler`` or ``guard`` (the first-response guard's deferral)."""
    FIRST_RESPONSE.labels(interaction_type, by).observe(max(0.0, elapsed_s))


def board_posted(kind: str, elapsed_s: float, via_interaction: bool) -> None:
    """A board of a ``kind`` game was posted ``elapsed_s`` seconds after ``publish`` was called."""
    BOARD.labels(kind, "interaction" if via_interaction else "channel").observe(max(0.0, elapsed_s))


ROUTE_CLASSES: tuple[tuple[str, str], ...] = (
    ("/interactions/", "interaction_callback"),
    ("/webhooks/", "webhook"),
    ("/reactions", "reaction"),
    ("/messages", "channel_message"),
    ("/commands", "application_command"),
    ("/channels/", "channel"),
    ("/guilds/", "guild"),
    ("/users/", "user"),
)
"""Route classes of a Discord URL, first match wins (``other`` if none)."""


def route_class(url: str) -> str:
    """The route class of a Discord REST URL (no ids or tokens in it), e.g. ``webhook`` for
    ``.../webhooks/<app>/<token>/messages/@original``."""
    path = urlsplit(str(url)).path
    for needle, name in ROUTE_CLASSES:
        if needle in path:
            return name
    return "other"


def count_429(url: str, scope: str = "route") -> None:
    """Discord answered 429 on ``url`` (``scope``: ``route`` or ``global``)."""
    RATE_LIMITED.labels(route_class(url), scope).inc()


class RateLimitCounter(logging.Filter):
    """Counts Discord's 429s from discord.py's own rate-limit log lines (``discord.http``: "We are being rate
    limited. %s %s responded with 429..." and "Global rate limit has been hit..."; ``discord.webhook.async_``:
    "Webhook ID %s is rate limited..."): discord.py handles 429s inside ``HTTPClient.request`` and
    ``AsyncWebhookAdapter.request`` and these log calls are their only outward trace. Never drops a record."""

    def __init__(self) -> None:
        super().__init__()
        self._last_url = ""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno == logging.WARNING and isinstance(record.msg, str):
            if (
                record.msg.startswith("We are being rate limited.")
                and isinstance(record.args, tuple)
                and len(record.args) >= 2
            ):
                self._last_url = str(record.args[1])
                count_429(self._last_url)
            elif record.msg.startswith("Global rate limit has been hit"):
                count_429(self._last_url, "global")
            elif record.msg.startswith("Webhook ID %s is rate limited"):  # interaction followups and edits
                RATE_LIMITED.labels("webhook", "route").inc()
        return True


def install_rate_limit_counter() -> RateLimitCounter:
    """Attach :class:`RateLimitCounter` to the loggers of discord.py's two HTTP clients, ``discord.http`` (the bot's
    REST calls) and ``discord.webhook.async_`` (interaction followups and edits), idempotently, and make sure their
    WARNING records are created whatever ``LOG_LEVEL`` is (handlers still filter by ``LOG_LEVEL``)."""
    found = None
    for name in RATE_LIMIT_LOGGERS:
        logger = logging.getLogger(name)
        mine = next((f for f in logger.filters if isinstance(f, RateLimitCounter)), None)
        if mine is None:
            mine = RateLimitCounter()
            logger.addFilter(mine)
        if logger.getEffectiveLevel() > logging.WARNING:
            logger.setLevel(logging.WARNING)
        found = found or mine
    assert found is not None
    return found


RATE_LIMIT_LOGGERS = ("discord.http", "discord.webhook.async_")


def instrument_storage(storage: Any) -> None:
    """Time every read (``backend.fetch``/``snapshot``) and write transaction (``backend.transaction``) of an open
    ``bot.storage.Storage`` into ``storage_seconds`` and count failures into ``storage_errors`` (idempotent; wraps
    the backend instance's methods, nothing else changes)."""
    backend = storage.backend
    if getattr(backend, "_metrics_wrapped", False):
        return
    for attr, op in (("fetch", "read"), ("snapshot", "read"), ("transaction", "write")):
        original = getattr(backend, attr, None)
        if original is not None:
            setattr(backend, attr, _timed(original, op))
    backend._metrics_wrapped = True


def _timed(fn: Callable[..., Awaitable[Any]], op: str) -> Callable[..., Awaitable[Any]]:
    seconds = STORAGE_SECONDS.labels(op)

    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await fn(*args, **kwargs)
        except Exception as err:
            STORAGE_ERRORS.labels(op, type(err).__name__).inc()
            raise
        finally:
            seconds.observe(time.perf_counter() - started)

    return timed


def instrument_pools(pools: Any) -> None:
    """Track the jobs in flight of each lane of a ``bot.core.cpu.CpuPools`` (``cpu_jobs_in_flight``) and its
    worker counts (``cpu_workers``) by wrapping the instance's ``run`` (idempotent)."""
    if getattr(pools, "_metrics_wrapped", False):
        return
    original = pools.run

    async def run(lane: str, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
        child = CPU_QUEUE.labels(lane)
        child.inc()
        try:
            return await original(lane, fn, *args, **kwargs)
        finally:
            child.dec()

    pools.run = run
    pools._metrics_wrapped = True
    CPU_WORKERS.labels("interactive").set(getattr(pools, "workers", 0))
    CPU_WORKERS.labels("background").set(getattr(pools, "background_workers", 0) if getattr(pools, "workers", 0) else 0)
    CPU_WORKERS.labels("light").set(getattr(pools, "light_workers", 0) if getattr(pools, "workers", 0) else 0)
    for lane in ("interactive", "light", "background"):
        CPU_QUEUE.labels(lane)  # exported as 0 from the start


# -- the outbox (issue 20) ------------------------------------------------------------------------------------------
EFFECTS = counter(
    "effects_settled_total",
    "Effects owed by commits and settled, by kind and result (done: a worker "
    "ran it; inline: the committing process did it; later, failed, dropped)",
    ("kind", "result"),
)
EFFECT_LAG = histogram(
    "effect_lag_seconds",
    "Seconds from a commit owing an effect to a worker settling it (effects done inline are not observed here)",
    ("kind",),
    buckets=(0.1, 0.5, 1, 2.5, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600),
)
EFFECTS_PENDING = gauge("effects_pending", "Effects owed by commits of this process's shards and not done yet")
EFFECT_OLDEST = gauge("effect_oldest_age_seconds", "Age of the oldest effect still owed (0 when none)")


def instrument_outbox(layer: Any) -> Callable[[], Any]:
    """Count every settled effect of ``layer.outbox`` and, at each scrape, read how many effects are pending and how
    old the oldest is (one storage query). Returns the scrape hook (remove it with :func:`remove_scrape_hook` when
    the bot closes)."""

    def settled(kind: str, result: str, lag_s: float) -> None:
        EFFECTS.labels(kind, result).inc()
        if result != "inline":
            EFFECT_LAG.labels(kind).observe(max(0.0, lag_s))

    async def pending() -> None:
        count, oldest = await layer.storage.effects_pending(shards=layer.shards())
        EFFECTS_PENDING.set(count)
        EFFECT_OLDEST.set(0.0 if oldest is None else max(0.0, layer.clock.now() - oldest))

    layer.outbox.on_settled.append(settled)
    on_scrape(pending)
    return pending
