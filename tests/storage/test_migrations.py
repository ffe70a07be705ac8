"""Migrations from an empty file, reopening, refusing a newer schema or a foreign database, data dir."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import NotOurDatabaseError, SchemaTooNewError, Storage, data_dir, default_db_path
from bot.storage.migrate import APPLICATION_ID, Migration, load_migrations, migrate, split_statements

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
