"""Every environment variable the bot reads (``python -m bot --help``, README "Configuration")."""

from __future__ import annotations

ENVIRONMENT: tuple[tuple[str, str], ...] = (
    ("DISCORD_TOKEN", "the bot token (required to run; the storage commands need none)"),
    (
        "DATA_DIR",
        "folder of the SQLite database and the heartbeat file (default $XDG_DATA_HOME/tablebot or "
        "~/.local/share/tablebot; /data in the image)",
    ),
    (
        "DATABASE_URL",
        "unset: DATA_DIR/tablebot.sqlite3; sqlite:///relative/file.sqlite3 (from the current "
        "directory), sqlite:////absolute/file.sqlite3, or postgresql://user:password@host:5432/db",
    ),
    (
        "LEASE_DATABASE_URL",
        "PostgreSQL URL of the shard lease's own session (default: DATABASE_URL; set it to a "
        "direct connection when DATABASE_URL goes through a pooler in transaction mode)",
    ),
    ("PGPASSWORD", "the PostgreSQL password when DATABASE_URL has none (read by asyncpg; no URL-encoding needed)"),
    ("DATABASE_POOL_SIZE", "PostgreSQL connections per process, 1-200 (default 10)"),
    ("DRAIN_TIMEOUT", "seconds a stop takes at most, draining interactions in flight, 0-300 (default 8)"),
    (
        "CPU_WORKERS",
        "board and search processes; 0 = threads (default: the CPUs this process may use: affinity "
        "and the container's CPU quota)",
    ),
    ("AI_WORKERS", "AI/analysis processes at a lower priority (default: half of CPU_WORKERS, at least 1)"),
    ("SHARD_COUNT", "total Discord shards of every process (unset: one process, Discord's count)"),
    ("SHARD_IDS", "the shards this process runs, e.g. 0,1 (default: all SHARD_COUNT)"),
    ("DEV_GUILD_ID", "sync commands to this one server only (instant), instead of globally"),
    ("LOG_LEVEL", "DEBUG, INFO, WARNING, ERROR or CRITICAL (default INFO)"),
    ("LOG_FORMAT", "text or json (one JSON object per line; tokens redacted at every level; default text)"),
    ("HEALTH_PORT", "port of the HTTP health server: /livez, /readyz, /metrics (default: no server)"),
    ("HEALTH_HOST", "address the health server listens on (default 0.0.0.0)"),
    (
        "DATABASE_WAIT_S",
        "seconds to keep retrying an unreachable PostgreSQL at start-up before exit 8, 0-3600 (default 60)",
    ),
    ("GAMES_PER_MEMBER", "open games one member may have in a server without its own /settings (default 5)"),
    ("GAMES_PER_SERVER", "open games of a server without its own /settings (default 50)"),
    ("GAME_THREADS", "games in threads the bot opened, per server without its own /settings (default 20)"),
    (
        "THREAD_PER_GAME",
        "1: each new game in a thread of its own where the bot may open one; 0: in the channel (default 1)",
    ),
    (
        "DEPARTURE_CHECK",
        "seconds between checks of games idle on a player who may have left (rule L1; 0: never; default 300)",
    ),
    (
        "ALERT_DELAY",
        "seconds a turn waits before its DM alert to a player who opted in (/mysettings; default 30)",
    ),
    (
        "QUEUE_WAIT_S",
        "seconds a quick-match queue (/play ... bots:true) waits before AI players fill its free seats (default 120)",
    ),
    (
        "TABLEBOT_STRICT_TEXT",
        "1: a player text filled with None raises instead of being logged (the test suite sets it; default unset)",
    ),
    (
        "GC_GEN0",
        "allocations between two young garbage collections of the bot process (0: Python's default; default 20000)",
    ),
    (
        "RECORD_SIGNING_KEY",
        "Ed25519 private key signing downloaded records (64 hex digits or base64 of 32 bytes; "
        "default: one created in DATA_DIR/record-signing.key)",
    ),
    ("DISCORD_API_BASE", "REST base of a Discord-compatible server, e.g. http://127.0.0.1:8080/api/v10"),
    ("DISCORD_GATEWAY_URL", "its gateway, e.g. ws://127.0.0.1:8080/gateway (set both or neither)"),
    ("TABLEBOT_CLOCK_SCALE", "tests only: multiply every game clock (default 1)"),
    ("TABLEBOT_CLOCK_OFFSET_S", "tests only: shift the bot's clock by seconds (default 0)"),
    (
        "TABLEBOT_OUTBOX_WAIT_S",
        "tests only: cap in seconds on how long owed work (an AI move, a board) is left to the committing process "
        "before the outbox's workers take it, and on their idle pause (default: each one's own, 10-30 s)",
    ),
    (
        "TABLEBOT_GUILD_READY_S",
        "tests only: seconds to wait after the last guild arrives before READY is done (default: discord.py's 2)",
    ),
    (
        "TOURNEY_RETRY_S",
        "seconds between the tries of tournament games that could not open (default 30; 10 tries, then the "
        "channel is told)",
    ),
    ("TABLEBOT_EXTRA_GAMES", "tests only: more game packages to load, comma-separated (e.g. tests.games.<game>)"),
    ("TABLEBOT_STORAGE_STALL_FILE", "tests only: storage calls stall while this file exists (fault injection)"),
    ("XDG_DATA_HOME", "where the default DATA_DIR goes when DATA_DIR is unset"),
)
"""Every environment variable the bot reads, with its meaning (``--help``; README "Configuration")."""
