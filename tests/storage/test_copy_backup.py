"""``migrate-db`` (copy an installation between SQLite and PostgreSQL, both ways, ids preserved, refusing a
non-empty target) and the SQLite online backup and guarded restore (issue 13.4, 15.3)."""

# ruff: noqa: ASYNC240  (a test reads real files; blocking here is fine)

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import DatabaseLockedError, DatabaseMismatchError, Storage
from bot.storage.admin import RefusedError, backup, restore
from bot.storage.copy import TABLES, TargetNotEmptyError, copy_database
from bot.storage.migrate import load_migrations, migrate

GUILD = 31


async def populate(url: str) -> dict[str, object]:
    """An installation with a bit of everything; returns what must survive the copy."""
    s = await Storage.open(url)
    try:
        await s.create_game("conex", GUILD, 1, {"lobby": True}, [10, 11])  # game 1: lobby
        g2 = await s.create_game("constructo", GUILD, 2, {"m": []}, [10, 12], status="active", wake_at=99.5)
        v = await s.apply_action(g2, 0, {"m": ["M5"]}, player=10, action="M5")
        await s.apply_action(
            g2,
            v,
            {"m": ["M5", "L4"]},
            player=12,
            action="L4",
            result={"ranking": [[12], [10]], "reason": "M2", "scores": {10: 1, 12: 3}},
        )
        g3 = await s.create_game("conex", GUILD, 3, {}, [10, -1], status="active")
        await s.apply_action(g3, 0, {}, player=10, action="end", result={"ranking": [[10], [-1]], "rated": False})
        await s.set_message(g2, "board", 555)
        await s.set_prefs(10, language="fr", theme="light")
        await s.set_guild_settings(GUILD, clock="daily")
        await s.set_meta("commands_hash:global", "abc")
        return {
            "games": [await s.get_game(i) for i in (1, g2, g3)],
            "log": await s.actions(g2),
            "board": await s.leaderboard(GUILD, "constructo"),
            "stats": await s.player_stats(GUILD, "conex", 10),
            "history": await s.finished_games(GUILD, 10),
            "changes": await s.rating_changes(g2),
            "installation": s.installation_id,
        }
    finally:
        await s.close()


async def snapshot_of(url: str) -> dict[str, object]:
    s = await Storage.open(url)
    try:
        return {
            "games": [await s.get_game(i) for i in (1, 2, 3)],
            "log": await s.actions(2),
            "board": await s.leaderboard(GUILD, "constructo"),
            "stats": await s.player_stats(GUILD, "conex", 10),
            "history": await s.finished_games(GUILD, 10),
            "changes": await s.rating_changes(2),
            "installation": s.installation_id,
            "prefs": await s.get_prefs(10),
            "settings": await s.get_guild_settings(GUILD),
            "meta": await s.get_meta("commands_hash:global"),
            "next_id": await s.create_game("conex", GUILD, 4, {}, [1, 2]),
        }
    finally:
        await s.close()


@pytest.mark.parametrize("direction", ["sqlite->postgresql", "postgresql->sqlite", "sqlite->sqlite"])
async def test_migrate_db_copies_an_installation_with_ids_preserved(
    direction: str, db_path: Path, tmp_path: Path, pg_url: str
) -> None:
    ends = {"sqlite": str(db_path), "postgresql": pg_url}
    src_kind, dst_kind = direction.split("->")
    source = ends[src_kind]
    target = ends[dst_kind] if dst_kind != src_kind else str(tmp_path / "other" / "copy.sqlite3")
    before = await populate(source)
    copied = await copy_database(source, target)
    assert copied["games"] == 3 and copied["actions"] == 3 and copied["ratings"] == 2 and copied["meta"] == 1
    after = await snapshot_of(target)
    for key in ("games", "log", "board", "stats", "history", "changes"):
        assert after[key] == before[key], key
    assert after["prefs"] == {"language": "fr", "palette": None, "theme": "light", "alerts": None}
    assert after["settings"] == {"clock": "daily"} and after["meta"] == "abc"
    assert after["next_id"] == 4  # the id sequence continues after the copied games
    assert after["installation"] != before["installation"]  # a new installation with the same data


async def test_migrate_db_refuses_a_non_empty_target_and_writes_nothing(db_path: Path, pg_url: str) -> None:
    await populate(str(db_path))
    s = await Storage.open(pg_url)
    await s.set_prefs(99, theme="dark")
    await s.close()
    with pytest.raises(TargetNotEmptyError, match="not empty") as info:
        await copy_database(str(db_path), pg_url)
    assert info.value.details["tables"] == {"user_prefs": 1}
    s = await Storage.open(pg_url)
    try:
        assert await s.get_game(1) is None
    finally:
        await s.close()
    with pytest.raises(Exception, match="same database"):
        await copy_database(str(db_path), str(db_path))


async def test_migrate_db_refuses_a_sqlite_source_a_bot_is_running_on(db_path: Path, pg_url: str) -> None:
    await populate(str(db_path))
    proc = await asyncio.create_subprocess_exec(
        "python3",
        "-c",
        "import fcntl,os,sys,time; fd=os.open(sys.argv[1], os.O_RDWR|os.O_CREAT);"
        " fcntl.flock(fd, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
        str(db_path) + ".lock",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    try:
        assert proc.stdout is not None and (await proc.stdout.readline()).strip() == b"locked"
        with pytest.raises(DatabaseLockedError):
            await copy_database(str(db_path), pg_url)
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        await proc.wait()


def test_the_copy_covers_every_table_of_the_schema(tmp_path: Path) -> None:
    """A migration that adds a table must teach migrate-db to copy it."""

    async def create() -> None:
        await (await Storage.open(tmp_path / "x.sqlite3")).close()

    asyncio.run(create())
    with sqlite3.connect(tmp_path / "x.sqlite3") as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table, columns, _key in TABLES:
            have = [r[1] for r in conn.execute(f"PRAGMA table_info({table})")]
            assert [c.strip() for c in columns.split(",")] == have, table
    assert tables == {t for t, _c, _k in TABLES}


async def test_backup_while_the_database_is_open_then_restore_an_older_state(db_path: Path, tmp_path: Path) -> None:
    s = await Storage.open(db_path)
    gid = await s.create_game("conex", GUILD, 1, {"n": 0}, [1, 2], status="active")
    await s.apply_action(gid, 0, {"n": 1}, player=1, action="draw")
    copy = tmp_path / "backups" / "one.sqlite3"
    snap = await asyncio.to_thread(backup, db_path, copy)  # while storage is open, data still in the -wal
    assert (snap.games, snap.actions) == (1, 1) and copy.exists()
    with pytest.raises(RefusedError, match="already exists"):
        await asyncio.to_thread(backup, db_path, copy)
    await s.apply_action(gid, 1, {"n": 2}, player=2, action="draw")
    later = await s.create_game("conex", GUILD, 2, {}, [1, 2])
    with pytest.raises(DatabaseLockedError):  # restoring under a running bot is refused
        await asyncio.to_thread(restore, copy, db_path)
    await s.close()
    # A plain copy of the older file would be refused by the start-up guard...
    raw = tmp_path / "raw"
    raw.mkdir()
    (raw / db_path.name).write_bytes(copy.read_bytes())
    (raw / (db_path.name + ".guard")).write_bytes((db_path.parent / (db_path.name + ".guard")).read_bytes())
    with pytest.raises(DatabaseMismatchError):
        await Storage.open(raw / db_path.name)
    # ...while `restore` puts it in place on purpose, keeping the replaced file aside.
    restored, moved = await asyncio.to_thread(restore, copy, db_path)
    assert restored.games == 1 and moved is not None and moved.exists()
    s = await Storage.open(db_path)
    try:
        game = await s.get_game(gid)
        assert game is not None and game.version == 1 and await s.get_game(later) is None
    finally:
        await s.close()
    with sqlite3.connect(moved) as conn:  # nothing was lost: the replaced database is intact beside it
        assert conn.execute("SELECT count(*) FROM games").fetchone()[0] == 2


async def test_restore_refuses_a_file_that_is_not_a_tablebot_backup(db_path: Path, tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    with sqlite3.connect(junk) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(Exception, match="not a tablebot database"):
        await asyncio.to_thread(restore, junk, db_path)
    assert not db_path.exists()
    old = tmp_path / "v1.sqlite3"
    import aiosqlite

    conn2 = await aiosqlite.connect(old, isolation_level=None)
    await migrate(conn2, str(old), load_migrations()[:1])
    await conn2.close()
    snap, _moved = await asyncio.to_thread(restore, old, db_path)  # an older schema restores and then upgrades
    assert snap.schema == 1
    await (await Storage.open(db_path)).close()
