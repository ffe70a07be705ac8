"""Copy a whole installation between databases (``python -m bot migrate-db --from ... --to ...``).

Both ends are opened with ``Storage.open`` (so both are migrated to this code's schema first; the
source gets the same upgrade the bot would give it). The target must be empty (no row in any table
but the database's own identity). The source is read in one snapshot (SQLite: under its process lock,
so no bot writes meanwhile; PostgreSQL: one REPEATABLE READ transaction), the target is written in
one transaction: all or nothing. Ids are preserved (games, seats, the action log's sequence numbers),
and PostgreSQL's id sequence is moved past the last game. The target keeps its own identity
(``storage.installation_id``): it is a new installation holding the same data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .backend import Tx
from .db import Storage
from .errors import StorageError
from .sqlite_guard import RESERVED_META_PREFIX

TABLES: tuple[tuple[str, str, str], ...] = (
    (
        "games",
        "id, kind, guild_id, channel_id, status, state_json, initial_state_json, version, result_json,"
        " created_at, updated_at, wake_at, finished_at, end_reason",
        "id",
    ),
    ("game_players", "game_id, seat, user_id", "game_id, seat"),
    ("game_messages", "game_id, key, message_id", "game_id, key"),
    ("actions", "game_id, seq, player, action, at", "game_id, seq"),
    (
        "ratings",
        "guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at",
        "guild_id, kind, user_id",
    ),
    (
        "rating_changes",
        "game_id, user_id, place, outcome, mu_before, sigma_before, mu_after, sigma_after",
        "game_id, user_id",
    ),
    ("game_outcomes", "game_id, user_id, guild_id, kind, place, outcome, rated, vs_ai", "game_id, user_id"),
    ("user_prefs", "user_id, language, palette, theme, updated_at, alerts", "user_id"),
    ("guild_settings", "guild_id, key, value_json, updated_at", "guild_id, key"),
    ("meta", "key, value", "key"),
    (
        "effects",
        "id, game_id, guild_id, version, kind, payload_json, due_at, created_at, attempts, claimed_by,"
        " claimed_until, last_error",
        "id",
    ),
    (
        "match_queue",
        "user_id, guild_id, channel_id, kind, seats, clock, name, locale, joined_at, wait_until, claimed_at",
        "user_id",
    ),
    ("match_queue_notes", "user_id, guild_id, kind, reason, at", "user_id"),
    ("puzzle_daily", "guild_id, channel_id, hour, locale, next_at, day, puzzle_id, message_id, updated_at", "guild_id"),
    ("puzzle_answers", "guild_id, day, user_id, move, correct, at", "guild_id, day, user_id"),
    ("puzzle_streaks", "guild_id, user_id, streak, best, solved, last_day, updated_at", "guild_id, user_id"),
    (
        "tournaments",
        "id, guild_id, channel_id, kind, format, rounds, clock, organiser_id, status, round, locale, created_at,"
        " finished_at",
        "id",
    ),
    ("tournament_players", "tournament_id, user_id, name, joined_at, withdrawn", "tournament_id, user_id"),
    (
        "tournament_games",
        "tournament_id, round, board, a, b, outcome, game_id, opening_at",
        "tournament_id, round, board",
    ),
)
"""Every table of the schema with its columns and key, in an order that satisfies the foreign keys."""
_FLOAT_COLUMNS = {
    "created_at",
    "updated_at",
    "wake_at",
    "finished_at",
    "at",
    "due_at",
    "claimed_until",
    "joined_at",
    "wait_until",
    "claimed_at",
    "next_at",
    "opening_at",
    "mu",
    "sigma",
    "ordinal",
    "mu_before",
    "sigma_before",
    "mu_after",
    "sigma_after",
}
BATCH = 500


class TargetNotEmptyError(StorageError):
    """``migrate-db`` refuses to copy into a database that already holds data. Rule ``"TargetNotEmpty"``;
    details ``tables`` (name -> row count)."""

    default_rule = "TargetNotEmpty"


def _select(table: str, columns: str, key: str) -> str:
    where = f" WHERE key NOT LIKE '{RESERVED_META_PREFIX}%'" if table == "meta" else ""
    return f"SELECT {columns} FROM {table}{where} ORDER BY {key}"


async def counts(storage: Storage) -> dict[str, int]:
    """Rows per table (the database's own ``storage.*`` meta keys not counted)."""
    out: dict[str, int] = {}
    for table, _columns, _key in TABLES:
        where = f" WHERE key NOT LIKE '{RESERVED_META_PREFIX}%'" if table == "meta" else ""
        row = await storage._one(f"SELECT count(*) FROM {table}{where}")
        out[table] = int(row[0])
    return out


def _normalise(columns: str, rows: list[Any]) -> list[tuple[Any, ...]]:
    """SQLite may hold an int in a REAL column; PostgreSQL wants floats there."""
    names = [c.strip() for c in columns.split(",")]
    floats = [i for i, n in enumerate(names) if n in _FLOAT_COLUMNS]
    out = []
    for row in rows:
        values = list(row)
        for i in floats:
            if values[i] is not None:
                values[i] = float(values[i])
        out.append(tuple(values))
    return out


async def copy_database(
    source_url: str, target_url: str, *, progress: Callable[[str, int], None] | None = None
) -> dict[str, int]:
    """Copy every row from ``source_url`` to the empty ``target_url`` (paths or URLs, see
    ``Storage.open``). Returns rows copied per table. Raises ``TargetNotEmptyError`` (nothing written),
    ``StorageError`` (rule ``Refused``) when source and target are the same, and whatever opening
    either database raises (``DatabaseLockedError`` if a bot runs on a SQLite end...)."""
    if source_url.strip() == target_url.strip():
        raise StorageError("the source and the target are the same database", rule="Refused")
    source = await Storage.open(source_url)
    try:
        target = await Storage.open(target_url)
        try:
            found = {t: n for t, n in (await counts(target)).items() if n}
            if found:
                raise TargetNotEmptyError(
                    f"{target.backend.description} is not empty ({', '.join(f'{t}: {n}' for t, n in found.items())}):"
                    " migrate-db only copies into an empty database",
                    tables=found,
                )
            data = await source.backend.snapshot([_select(t, c, k) for t, c, k in TABLES])
            copied = await target._write(lambda tx: _insert_all(tx, target.dialect, data))
            if progress:
                for table, n in copied.items():
                    progress(table, n)
            top = await target._one("SELECT coalesce(max(id), 0) FROM games")
            await target.backend.after_commit_game(int(top[0]))
            return copied
        finally:
            await target.close()
    finally:
        await source.close()


async def _insert_all(tx: Tx, dialect: str, data: list[list[Any]]) -> dict[str, int]:
    copied: dict[str, int] = {}
    for (table, columns, _key), rows in zip(TABLES, data, strict=True):
        values = _normalise(columns, rows)
        marks = ", ".join("?" * len(columns.split(",")))
        sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"
        for start in range(0, len(values), BATCH):
            await tx.executemany(sql, values[start : start + BATCH])
        copied[table] = len(values)
    if dialect == "postgresql":
        for table in ("games", "effects", "tournaments"):
            await tx.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT coalesce(max(id), 0)"
                f" + 1 FROM {table}), false)"
            )
    return copied
