"""Migrations from an empty file, reopening, refusing a newer schema or a foreign database, data dir."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.storage import (
    NotOurDatabaseError,
    SchemaTooNewError,
    Storage,
    VersionConflictError,
    data_dir,
    default_db_path,
)
from bot.storage.migrate import (
    APPLICATION_ID,
    Migration,
    load_migrations,
    migrate,
    migrate_postgres,
    split_statements,
)

EXPECTED_TABLES = {
    "games",
    "game_players",
    "game_messages",
    "actions",
    "ratings",
    "rating_changes",
    "user_prefs",
    "meta",
    "game_outcomes",
    "guild_settings",
}


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


async def test_migrates_an_empty_file_to_the_latest_schema(db_path: Path) -> None:
    assert not db_path.exists()  # noqa: ASYNC240 (a test: blocking is fine)
    s = await Storage.open(db_path)  # also creates the missing data directory
    latest = len(load_migrations())
    assert s.schema_version == latest >= 1
    await s.close()
    with _raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == latest
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert EXPECTED_TABLES <= tables
    assert {"games_one_open_per_channel", "ratings_board", "games_wake"} <= indexes


async def test_connections_have_foreign_keys_and_busy_timeout(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    sqlite = storage.backend
    async with sqlite._writer.execute("PRAGMA foreign_keys") as cur:  # type: ignore[attr-defined]
        assert (await cur.fetchone() or (None,))[0] == 1
    for conn in (sqlite._writer, sqlite._reader):  # type: ignore[attr-defined]
        async with conn.execute("PRAGMA busy_timeout") as cur:
            assert (await cur.fetchone() or (None,))[0] == 5000
    await storage.close()


async def test_reopening_keeps_data_and_does_not_migrate_again(database_url: str, backend: str) -> None:
    s = await Storage.open(database_url)
    game_id = await s.create_game("conex", 1, 2, {"x": 1}, [7, 8, 9])
    await s.set_meta("tree_hash", "abc")
    installation = s.installation_id
    await s.close()
    s = await Storage.open(database_url)
    try:
        game = await s.get_game(game_id)
        assert game is not None and game.players == [7, 8, 9] and game.state == {"x": 1}
        assert await s.get_meta("tree_hash") == "abc"
        assert s.schema_version == len(load_migrations(backend)) and s.dialect == backend
        assert s.installation_id == installation != ""
    finally:
        await s.close()


async def test_refuses_a_database_newer_than_the_code(db_path: Path) -> None:
    s = await Storage.open(db_path)
    await s.close()
    with _raw(db_path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(SchemaTooNewError) as info:
        await Storage.open(db_path)
    err = info.value
    assert err.rule == "SchemaTooNew" and err.details["db_version"] == 99
    assert err.details["code_version"] == len(load_migrations())
    assert "newer" in str(err) and str(db_path) in str(err)
    with _raw(db_path) as conn:  # untouched
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 99


async def test_refuses_another_programs_database(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    with _raw(db_path) as conn:
        conn.execute("PRAGMA application_id = 12345")
        conn.execute("CREATE TABLE other (x)")
    with pytest.raises(NotOurDatabaseError):
        await Storage.open(db_path)
    with _raw(db_path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 0


def test_split_statements_keeps_trigger_bodies_whole() -> None:
    sql = "CREATE TABLE t (a);\n-- note\nCREATE TRIGGER x BEFORE DELETE ON t\nBEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n"
    parts = split_statements(sql)
    assert len(parts) == 2 and parts[1].startswith("-- note") and parts[1].endswith("END;")


def test_data_dir_prefers_data_dir_then_xdg_then_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "d"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "x"))
    assert data_dir() == tmp_path / "d"
    monkeypatch.setenv("DATA_DIR", "")
    assert data_dir() == tmp_path / "x" / "tablebot"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert data_dir() == tmp_path / "home" / ".local" / "share" / "tablebot"
    path = default_db_path()
    assert path == tmp_path / "home" / ".local" / "share" / "tablebot" / "tablebot.sqlite3"
    assert path.parent.is_dir() and not path.exists()


async def test_open_without_path_uses_the_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DATA_DIR", str(tmp_path / "fresh"))
    s = await Storage.open()
    await s.close()
    assert (tmp_path / "fresh" / "tablebot.sqlite3").is_file()


async def test_a_failing_migration_leaves_the_previous_version(db_path: Path) -> None:
    """Each migration and its user_version bump are one transaction: a failure half-way rolls back."""
    s = await Storage.open(db_path)
    await s.close()
    latest = len(load_migrations())
    broken = Migration(latest + 1, "9999_broken.sql", ("CREATE TABLE half_done (x)", "CREATE TABLE games (again)"))
    conn = await aiosqlite.connect(db_path, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError, match="already exists"):
            await migrate(conn, str(db_path), [*load_migrations(), broken])
        async with conn.execute("PRAGMA user_version") as cur:
            assert (await cur.fetchone() or (None,))[0] == latest
        async with conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'half_done'") as cur:
            assert (await cur.fetchone() or (None,))[0] == 0
        assert not conn.in_transaction
    finally:
        await conn.close()


async def test_two_openers_of_a_fresh_database_migrate_once(database_url: str, backend: str) -> None:
    first, second = await asyncio.gather(Storage.open(database_url), Storage.open(database_url))
    try:
        gid = await first.create_game("conex", 1, 2, {}, [1, 2])
        assert (await second.get_game(gid)) is not None
        assert first.schema_version == second.schema_version == len(load_migrations(backend))
        assert first.installation_id == second.installation_id
    finally:
        await first.close()
        await second.close()


V1_ROWS = [
    # games (id, kind, guild, channel, status, version, result_json, created, updated)
    "INSERT INTO games (id, kind, guild_id, channel_id, status, state_json, initial_state_json, version, result_json,"
    " created_at, updated_at) VALUES (1, 'constructo', 9, 100, 'finished', '{}', '{}', 1,"
    ' \'{"ranking": [[11], [12]], "rated": true}\', 10, 20)',
    "INSERT INTO games (id, kind, guild_id, channel_id, status, state_json, initial_state_json, version,"
    " created_at, updated_at) VALUES (2, 'conex', 9, 101, 'aborted', '{}', '{}', 1, 30, 40)",
    "INSERT INTO games (id, kind, guild_id, channel_id, status, state_json, initial_state_json, version,"
    " created_at, updated_at) VALUES (3, 'conex', 9, 102, 'active', '{\"n\": 3}', '{}', 0, 50, 60)",
    "INSERT INTO game_players (game_id, seat, user_id) VALUES (1, 0, 11), (1, 1, 12), (2, 0, 11), (2, 1, 13),"
    " (3, 0, 12), (3, 1, 13)",
    "INSERT INTO actions (game_id, seq, player, action, at) VALUES (1, 1, 11, 'end', 20), (2, 1, NULL, 'abort', 40)",
    "INSERT INTO ratings (guild_id, kind, user_id, mu, sigma, ordinal, games, wins, losses, draws, updated_at)"
    " VALUES (9, 'constructo', 11, 27.6, 8.0, 3.6, 1, 1, 0, 0, 20),"
    " (9, 'constructo', 12, 22.4, 8.0, -1.6, 1, 0, 1, 0, 20)",
    "INSERT INTO rating_changes (game_id, user_id, place, outcome, mu_before, sigma_before, mu_after, sigma_after)"
    " VALUES (1, 11, 1, 'win', 25, 8.33, 27.6, 8.0), (1, 12, 2, 'loss', 25, 8.33, 22.4, 8.0)",
]


async def _make_v1(database_url: str, backend: str) -> None:
    """A database as the first release left it: migration 1 only, with games of every status and ratings."""
    if backend == "sqlite":
        Path(database_url).parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(database_url, isolation_level=None)
        try:
            await conn.execute("PRAGMA journal_mode = WAL")
            await migrate(conn, database_url, load_migrations("sqlite")[:1])
            for sql in V1_ROWS:
                await conn.execute(sql)
        finally:
            await conn.close()
        return
    pg = await asyncpg.connect(database_url)
    try:
        await migrate_postgres(pg, "test", load_migrations("postgresql")[:1])
        for sql in V1_ROWS:
            await pg.execute(sql)
        await pg.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), 3)")
    finally:
        await pg.close()


async def test_a_first_release_database_upgrades_keeping_every_row(database_url: str, backend: str) -> None:
    """Migration 2 (any game kind, clocks, outcomes, guild settings) keeps games, players, the log and the
    ratings; back-fills the outcome rows of rated games; closed games get finished_at and end_reason."""
    await _make_v1(database_url, backend)
    s = await Storage.open(database_url)
    try:
        assert s.schema_version == len(load_migrations(backend)) >= 2
        done, aborted, active = [await s.get_game(i) for i in (1, 2, 3)]
        assert done is not None and done.result is not None and done.result.ranking == ((11,), (12,))
        assert done.finished_at is not None and done.finished_at.timestamp() == 20 and done.end_reason is None
        assert aborted is not None and aborted.end_reason == "abort" and aborted.finished_at is not None
        assert active is not None and active.state == {"n": 3} and active.players == [12, 13]
        assert active.finished_at is None and active.wake_at is None
        assert [a.action for a in await s.actions(1)] == ["end"]
        row = await s.rating_of(9, "constructo", 11)
        assert row is not None and (row.mu, row.games, row.wins) == (27.6, 1, 1)
        stats = await s.player_stats(9, "constructo", 11)
        assert stats.rated.wins == 1 and stats.places == {1: 1}
        assert (await s.player_stats(9, "constructo", 12)).places == {2: 1}
        assert [h.game_id for h in await s.finished_games(9, 11)] == [1]
        # Any game kind now, and new games get fresh ids after the old ones.
        new = await s.create_game("newgame", 9, 103, {}, [1, 2])
        assert new == 4
        with pytest.raises(VersionConflictError):
            await s.apply_action(3, 5, {}, player=12, action="x")
    finally:
        await s.close()


async def test_postgresql_refuses_a_newer_schema_and_a_foreign_games_table(pg_url: str) -> None:
    await (await Storage.open(pg_url)).close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("UPDATE tablebot_schema SET version = 99")
    finally:
        await conn.close()
    with pytest.raises(SchemaTooNewError) as info:
        await Storage.open(pg_url)
    assert info.value.details["db_version"] == 99
    # Another program's tables in the schema: refused, nothing created.
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("DROP TABLE tablebot_schema")
        with pytest.raises(NotOurDatabaseError):
            await Storage.open(pg_url)
        assert await conn.fetchval("SELECT to_regclass('tablebot_schema')") is None
    finally:
        await conn.close()


def test_every_migration_exists_for_both_dialects() -> None:
    sqlite, pg = load_migrations("sqlite"), load_migrations("postgresql")
    assert [m.number for m in sqlite] == [m.number for m in pg] == list(range(1, len(sqlite) + 1))
    assert [m.name.split(".")[0] for m in sqlite] == [m.name.split(".")[0] for m in pg]
