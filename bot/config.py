"""Configuration from the environment, endpoint overrides and token-safe logging.

Variables (see README "Configuration"):

- ``DISCORD_TOKEN`` (required): the bot token. Never logged: :func:`configure_logging` installs a
  :class:`RedactingFilter` on every root handler.
- ``DATA_DIR``: directory of the SQLite database (``tablebot.sqlite3``) and the heartbeat file;
  default ``$XDG_DATA_HOME/tablebot`` or ``~/.local/share/tablebot``.
- ``DATABASE_URL``: where games live. Unset: the SQLite file in ``DATA_DIR``. ``sqlite:///path``
  (relative) or ``sqlite:////abs/path``: another SQLite file. ``postgresql://user:pass@host:5432/db``:
  PostgreSQL (needed to run several shard processes on one database).
- ``DATABASE_POOL_SIZE``: PostgreSQL connections per process (default 10).
- ``DRAIN_TIMEOUT``: seconds a stopping bot (SIGTERM/SIGINT) waits for in-flight interactions
  before closing storage (default 8, below Docker's 10 s stop timeout).
- ``DEV_GUILD_ID``: a guild id (decimal snowflake); commands are then synced to that guild only.
- ``LOG_LEVEL``: ``DEBUG``, ``INFO``, ``WARNING``, ``ERROR`` or ``CRITICAL`` (default ``INFO``).
- ``DISCORD_API_BASE``: REST base including the version, e.g. ``http://127.0.0.1:8080/api/v10``.
- ``DISCORD_GATEWAY_URL``: gateway websocket URL, e.g. ``ws://127.0.0.1:8080/gateway``.
- ``CPU_WORKERS``: processes drawing boards and searching placements (default: the CPUs this process may use,
  :func:`default_cpu_workers`: its CPU affinity lowered to a container's cgroup CPU quota; ``0``: threads
  of the bot's own process). ``AI_WORKERS``: processes for AI searches, analyses and replays, at a lower OS
  priority (default: half of ``CPU_WORKERS``, at least 1).
- ``HEALTH_PORT``: TCP port of the health and metrics server (``/livez``, ``/readyz``, ``/metrics``); unset: no
  server. ``HEALTH_HOST``: its address (default ``0.0.0.0``).
- ``DATABASE_WAIT_S``: seconds to keep retrying an unreachable PostgreSQL at start-up (default 60; 0: fail at once).
- ``LOG_FORMAT``: ``text`` (default) or ``json`` (one JSON object per line: time, level, logger, message, extras).
- ``GAMES_PER_MEMBER`` / ``GAMES_PER_SERVER`` / ``GAME_THREADS``: the caps on open games of a server without its own
  ``/settings`` (default 5, 50, 20; ``bot/services/caps.py``).
- ``THREAD_PER_GAME``: ``1`` (default) opens each game in a thread of its own where the bot may create one, ``0``
  keeps games in the channel, for servers without their own ``/settings thread_per_game``
  (``bot/services/footprint.py``).
- ``QUEUE_WAIT_S``: seconds a quick-match queue (``/play``) waits before filling free seats with AI seats, for the
  players who allow it (default 120; ``bot/services/matchqueue.py``).
- ``SHARD_COUNT`` / ``SHARD_IDS``: Discord shards. ``SHARD_COUNT=4 SHARD_IDS=0,1`` makes this process run shards 0
  and 1 of 4 (another process runs 2,3; all on one PostgreSQL). Unset: one process, Discord's recommended count.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.cpusize import default_cpu_workers

LOG_LEVELS: tuple[str, ...] = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
DB_FILENAME = "tablebot.sqlite3"
DEFAULT_DRAIN_TIMEOUT_S = 8.0
DEFAULT_DATABASE_WAIT_S = 60.0
LOG_FORMATS: tuple[str, ...] = ("text", "json")
MAX_DRAIN_TIMEOUT_S = 300.0
DEFAULT_DEPARTURE_CHECK_S = 300.0
DEFAULT_ALERT_DELAY_S = 30.0
REDACTED = "[REDACTED-TOKEN]"
DEFAULT_GAME_CAPS = (5, 50, 20)
"""Open games per member, per server, and in threads the bot opened, for a server without its own ``/settings``."""


class ConfigError(Exception):
    """A missing or malformed environment variable. ``str(err)`` says which and what to do."""

    def __init__(self, variable: str, message: str) -> None:
        self.variable = variable
        self.message = message
        super().__init__(f"{variable}: {message}")


def default_data_dir(env: Mapping[str, str]) -> Path:
    """``$XDG_DATA_HOME/tablebot`` when ``XDG_DATA_HOME`` is set, else ``~/.local/share/tablebot``."""
    xdg = env.get("XDG_DATA_HOME", "").strip()
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "tablebot"


@dataclass(frozen=True)
class Config:
    """The bot's settings. Build it with :meth:`from_env`; ``token`` is hidden from ``repr``."""

    token: str = field(repr=False)
    data_dir: Path
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    api_base: str | None = None
    gateway_url: str | None = None
    database_url: str | None = field(default=None, repr=False)
    lease_database_url: str | None = field(default=None, repr=False)
    """``LEASE_DATABASE_URL``: where the shard lease's own session connects (default: ``DATABASE_URL``)."""
    database_pool_size: int = 10
    drain_timeout_s: float = DEFAULT_DRAIN_TIMEOUT_S
    cpu_workers: int = 0
    ai_workers: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    health_port: int | None = None
    health_host: str = "0.0.0.0"
    database_wait_s: float = DEFAULT_DATABASE_WAIT_S
    log_format: str = "text"
    game_caps: tuple[int, int, int] = DEFAULT_GAME_CAPS
    thread_per_game: bool = True
    """``THREAD_PER_GAME``: a game gets a thread of its own by default (``bot/services/footprint.py``)."""
    queue_wait_s: float = 120.0
    """``QUEUE_WAIT_S``: a quick-match queue's wait before AI seats fill in (``bot/services/matchqueue.py``)."""
    departure_check_s: float = DEFAULT_DEPARTURE_CHECK_S
    """How often games idle on a seat are checked for a player who left (``DEPARTURE_CHECK``; 0: never)."""
    alert_delay_s: float = DEFAULT_ALERT_DELAY_S
    """Seconds a turn waits before its DM alert to a player who opted in (``ALERT_DELAY``)."""
    record_signing_key: str | None = field(default=None, repr=False)
    """``RECORD_SIGNING_KEY``: the Ed25519 private key signing downloaded records (else one kept in DATA_DIR)."""

    def owns_guild(self, guild_id: int | None) -> bool:
        """True if this process runs the shard of ``guild_id`` (``(guild_id >> 22) % SHARD_COUNT`` in
        ``SHARD_IDS``): background work (board recovery, AI resume, retries) is done for those guilds only."""
        if self.shard_count is None or self.shard_ids is None or guild_id is None:
            return True
        return (guild_id >> 22) % self.shard_count in self.shard_ids

    @property
    def db_path(self) -> Path:
        """The default SQLite file: ``data_dir / "tablebot.sqlite3"`` (used when ``DATABASE_URL`` is unset)."""
        return self.data_dir / DB_FILENAME

    @property
    def storage_target(self) -> str:
        """What ``Storage.open`` opens: ``DATABASE_URL`` if set, else the SQLite file ``db_path``."""
        return self.database_url or str(self.db_path)

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file the bot uses (``DATABASE_URL``'s, else ``db_path``), or ``None`` on PostgreSQL."""
        from bot.storage.backend import parse_target

        return parse_target(self.storage_target).path

    @property
    def uses_postgresql(self) -> bool:
        return bool(self.database_url and self.database_url.startswith(("postgresql://", "postgres://")))

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None, *, require_token: bool = True) -> Config:
        """Read and validate the environment (``os.environ`` by default). ``require_token=False`` serves
        the storage subcommands (backup, restore, migrate-db), which never talk to Discord.

        Raises:
            ConfigError: ``DISCORD_TOKEN`` missing/blank/containing spaces, ``DEV_GUILD_ID`` not a
                positive integer, ``LOG_LEVEL`` unknown, an endpoint URL with the wrong scheme,
                ``DATABASE_URL`` with an unknown scheme, ``DATABASE_POOL_SIZE``, ``DRAIN_TIMEOUT``,
                ``HEALTH_PORT`` or ``DATABASE_WAIT_S`` out of range, ``LOG_FORMAT`` unknown.
        """
        env = os.environ if env is None else env
        token = env.get("DISCORD_TOKEN", "").strip()
        if not token and not require_token:
            pass
        elif not token:
            raise ConfigError(
                "DISCORD_TOKEN",
                "is not set: create a bot in the Discord developer portal, then run "
                "DISCORD_TOKEN=<your bot token> python -m bot",
            )
        if any(ch.isspace() for ch in token):
            raise ConfigError("DISCORD_TOKEN", "contains whitespace: paste the token alone, without 'Bot ' or quotes")
        data_dir_text = env.get("DATA_DIR", "").strip()
        data_dir = Path(data_dir_text).expanduser() if data_dir_text else default_data_dir(env)
        guild_text = env.get("DEV_GUILD_ID", "").strip()
        dev_guild_id: int | None = None
        if guild_text:
            if not guild_text.isdigit() or int(guild_text) <= 0:
                raise ConfigError("DEV_GUILD_ID", f"must be a guild id (digits only), not {guild_text!r}")
            dev_guild_id = int(guild_text)
        level = env.get("LOG_LEVEL", "").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError("LOG_LEVEL", f"must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
        api_base = env.get("DISCORD_API_BASE", "").strip().rstrip("/") or None
        if api_base and not api_base.startswith(("http://", "https://")):
            raise ConfigError("DISCORD_API_BASE", f"must start with http:// or https://, not {api_base!r}")
        gateway = env.get("DISCORD_GATEWAY_URL", "").strip() or None
        shards = _shards(env)
        log_format = env.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise ConfigError("LOG_FORMAT", f"must be text or json, not {log_format!r}")
        if gateway and not gateway.startswith(("ws://", "wss://")):
            raise ConfigError("DISCORD_GATEWAY_URL", f"must start with ws:// or wss://, not {gateway!r}")
        return cls(
            token=token,
            data_dir=data_dir,
            dev_guild_id=dev_guild_id,
            log_level=level,
            api_base=api_base,
            gateway_url=gateway,
            database_url=_database_url(env),
            lease_database_url=env.get("LEASE_DATABASE_URL", "").strip() or None,
            database_pool_size=_int_in(env, "DATABASE_POOL_SIZE", 10, 1, 200),
            drain_timeout_s=_float_in(env, "DRAIN_TIMEOUT", DEFAULT_DRAIN_TIMEOUT_S, 0.0, MAX_DRAIN_TIMEOUT_S),
            cpu_workers=_int_in(env, "CPU_WORKERS", default_cpu_workers(), 0, 256),
            ai_workers=_int_in(env, "AI_WORKERS", 0, 1, 256) or None,
            shard_count=shards[0],
            shard_ids=shards[1],
            health_port=_int_in(env, "HEALTH_PORT", 0, 1, 65535) or None,
            health_host=env.get("HEALTH_HOST", "").strip() or "0.0.0.0",
            database_wait_s=_float_in(env, "DATABASE_WAIT_S", DEFAULT_DATABASE_WAIT_S, 0.0, 3600.0),
            log_format=log_format,
            game_caps=(
                _int_in(env, "GAMES_PER_MEMBER", DEFAULT_GAME_CAPS[0], 1, 1_000_000),
                _int_in(env, "GAMES_PER_SERVER", DEFAULT_GAME_CAPS[1], 1, 10_000_000),
                _int_in(env, "GAME_THREADS", DEFAULT_GAME_CAPS[2], 0, 10_000_000),
            ),
            thread_per_game=bool(_int_in(env, "THREAD_PER_GAME", 1, 0, 1)),
            queue_wait_s=_float_in(env, "QUEUE_WAIT_S", 120.0, 1.0, 3600.0),
            departure_check_s=_float_in(env, "DEPARTURE_CHECK", DEFAULT_DEPARTURE_CHECK_S, 0.0, 86400.0),
            alert_delay_s=_float_in(env, "ALERT_DELAY", DEFAULT_ALERT_DELAY_S, 0.0, 86400.0),
            record_signing_key=env.get("RECORD_SIGNING_KEY", "").strip() or None,
        )


def database_password(url: str | None) -> tuple[str, ...]:
    """The password inside a ``postgresql://user:password@host/db`` URL (to redact from logs), if any."""
    if not url or "://" not in url:
        return ()
    creds = url.split("://", 1)[1].rpartition("@")[0]
    password = creds.split(":", 1)[1] if ":" in creds else ""
    return (password,) if password else ()


def _database_url(env: Mapping[str, str]) -> str | None:
    from bot.storage.backend import parse_target
    from bot.storage.errors import InvalidDataError

    text = env.get("DATABASE_URL", "").strip()
    if not text:
        return None
    if "://" not in text and not text.startswith("sqlite:"):
        raise ConfigError("DATABASE_URL", "must be sqlite:///path/to/file.sqlite3 or postgresql://user@host:5432/db")
    try:
        parse_target(text)
    except InvalidDataError as err:
        raise ConfigError("DATABASE_URL", err.message) from None
    return text


def _shards(env: Mapping[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """``(SHARD_COUNT, SHARD_IDS)``; ``(None, None)`` unsharded; every shard when only the count is set."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS", "needs SHARD_COUNT (the total number of shards of every process)")
        return None, None
    count = _int_in(env, "SHARD_COUNT", 1, 1, 65536)
    if not ids_text:
        return count, tuple(range(count))
    try:
        ids = tuple(sorted({int(part) for part in ids_text.split(",") if part.strip()}))
    except ValueError:
        raise ConfigError(
            "SHARD_IDS", f"must be shard numbers separated by commas, e.g. 0,1, not {ids_text!r}"
        ) from None
    if not ids or any(not 0 <= i < count for i in ids):
        raise ConfigError("SHARD_IDS", f"must be numbers from 0 to {count - 1} (SHARD_COUNT={count}), not {ids_text!r}")
    return count, ids


def _int_in(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or not low <= int(text) <= high:
        raise ConfigError(name, f"must be a whole number from {low} to {high}, not {text!r}")
    return int(text)


def _float_in(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise ConfigError(name, f"must be a number of seconds from {low:g} to {high:g}, not {text!r}")
    return value


def apply_endpoints(config: Config) -> None:
    """Point discord.py at another REST base and gateway (the local dev server, tests).

    Assigns the class attributes ``discord.http.Route.BASE`` and
    ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (see docs devserver-notes). Must run before
    connecting. Does nothing for unset values (Discord's defaults stay).
    """
    import discord.gateway
    import discord.http
    import yarl

    if config.api_base:
        discord.http.Route.BASE = config.api_base
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


TOKEN_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"(/(?:webhooks|interactions)/\d+/)[A-Za-z0-9_.:\-]+"), r"\1" + REDACTED),
    (re.compile(r"""(['"]token['"]\s*:\s*['"])[^'"]+"""), r"\1" + REDACTED),
)
"""Secrets by shape: interaction and webhook tokens in URLs (``/interactions/<id>/<token>/callback``,
``/webhooks/<application>/<token>/...``, which discord.py logs at DEBUG, and at WARNING with a 429) and the
``token`` field of gateway payloads (``INTERACTION_CREATE``, logged at DEBUG)."""


class RedactingFilter(logging.Filter):
    """A logging filter that replaces the given secrets (the bot token, the database password) and every
    interaction or webhook token (:data:`TOKEN_PATTERNS`) with ``[REDACTED-TOKEN]``.

    It rewrites the formatted message (``msg % args``) and any exception text of the record, so
    a token cannot leak through arguments or tracebacks. Attach it to handlers (filters on a
    logger do not see records propagated from child loggers).
    """

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, REDACTED)
        if "token" in text or "/webhooks/" in text or "/interactions/" in text:
            for pattern, replacement in TOKEN_PATTERNS:
                text = pattern.sub(replacement, text)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: keep the raw template only
            message = str(record.msg)
        cleaned = self._clean(message)
        if cleaned != message or record.args:
            record.msg = cleaned
            record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


def json_formatter() -> logging.Formatter:
    """One JSON object per line (python-json-logger): ``time`` (ISO 8601, UTC), ``level``, ``logger``,
    ``message``, any ``extra=`` fields, and ``exc_info`` with a traceback."""
    from pythonjsonlogger.json import JsonFormatter

    formatter: logging.Formatter = JsonFormatter(
        "%(asctime)s %(levelname)s %(name)s %(message)s",
        rename_fields={"asctime": "time", "levelname": "level", "name": "logger"},
        timestamp=False,
    )
    formatter.converter = time.gmtime  # type: ignore[assignment]
    formatter.default_time_format = "%Y-%m-%dT%H:%M:%S"
    formatter.default_msec_format = "%s.%03dZ"
    return formatter


def configure_logging(config: Config, *, handler: logging.Handler | None = None) -> logging.Handler:
    """Set up root logging at ``config.log_level`` (``LOG_FORMAT``: text or JSON lines) with secrets redacted
    from every record at every level (:class:`RedactingFilter`), and count Discord's 429s
    (:func:`bot.metrics.install_rate_limit_counter`).

    Returns the handler used (a stderr ``StreamHandler`` unless one is given). Handlers already on
    the root logger also get the redacting filter.
    """
    root = logging.getLogger()
    if handler is None:
        handler = logging.StreamHandler()
        if config.log_format == "json":
            handler.setFormatter(json_formatter())
        else:
            handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-8s %(name)s: %(message)s"))
    redactor = RedactingFilter(
        config.token, *database_password(config.database_url), *database_password(config.lease_database_url)
    )
    if handler not in root.handlers:
        root.addHandler(handler)
    for h in root.handlers:
        if not any(isinstance(f, RedactingFilter) for f in h.filters):
            h.addFilter(redactor)
    handler.setLevel(config.log_level)  # discord.http's WARNINGs exist whatever the level (429s are counted)
    root.setLevel(config.log_level)
    logging.captureWarnings(True)  # Python's warnings become log records (JSON lines too)
    from bot.metrics import install_rate_limit_counter

    install_rate_limit_counter()
    return handler
