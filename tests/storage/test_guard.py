"""SQLite start-up guards (issue 13.4, 15.4): one process per file (two real processes), integrity check,
and never starting empty over a file that had data (the reproduction: an older file copied over a live
database whose -wal/-shm remain). Real files and processes, no mocks."""

# ruff: noqa: ASYNC220, ASYNC240  (a test drives real files and processes; blocking here is fine)

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import (
    CorruptDatabaseError,
    DatabaseLockedError,
    DatabaseMismatchError,
    Storage,
)
from bot.storage.sqlite_guard import guard_path, read_guard, sidecars

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("storage_child.py")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def child(db: Path, mode: str, n: int = 0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHILD), str(db), mode, str(n)],
        capture_output=True,
        text=True,
        env=ENV,
        cwd=ROOT,
        timeout=60,
    )


def games_in_wal_then_crash(db: Path, n: int) -> None:
    """A bot process that created ``n`` games and was killed: the data sits in the -wal."""
    out = child(db, "games-then-kill", n)
    assert "done" in out.stdout, out.stderr
    wal, shm = sidecars(db)
    assert wal.stat().st_size > 32 and shm.exists()


async def count_games(db: Path) -> int:
    s = await Storage.open(db)
    try:
        return len(await s.list_active_games())
    finally:
        await s.close()


async def test_a_second_process_on_the_same_file_is_refused(db_path: Path) -> None:
    holder = subprocess.Popen(
        [sys.executable, str(CHILD), str(db_path), "hold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        cwd=ROOT,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        second = child(db_path, "open")
        assert second.returncode == 3
        assert second.stdout.startswith("DatabaseLockedError: DatabaseLocked:")
        assert f"pid {holder.pid}" in second.stdout and "one process per SQLite file" in second.stdout
        with pytest.raises(DatabaseLockedError):  # this process too (it is not the holder)
            await Storage.open(db_path)
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=30)
    assert holder.returncode == 0
    # Once the holder is gone (cleanly or not: the kernel drops the lock), the file opens again.
    assert child(db_path, "open").stdout.strip() == "ok"
    games_in_wal_then_crash(db_path, 1)
    assert child(db_path, "open").stdout.strip() == "ok"


async def test_storage_objects_of_one_process_share_the_lock(db_path: Path) -> None:
    a = await Storage.open(db_path)
    b = await Storage.open(db_path)
    await a.close()
    c = await Storage.open(db_path)  # b still holds the process's share
    await b.close()
    await c.close()
    assert child(db_path, "open").stdout.strip() == "ok"


async def test_a_garbage_file_is_refused_as_corrupt_and_left_alone(db_path: Path) -> None:
    db_path.parent.mkdir(parents=True)
    db_path.write_bytes(b"this is not a database\n" * 200)
    with pytest.raises(CorruptDatabaseError, match="not an SQLite database"):
        await Storage.open(db_path)
    assert db_path.read_bytes().startswith(b"this is not")


async def test_a_damaged_database_fails_the_quick_check(db_path: Path) -> None:
    s = await Storage.open(db_path)
    for i in range(300):
        await s.create_game("conex", 1, i, {"pad": "x" * 500}, [1, 2])
    await s.close()
    raw = bytearray(db_path.read_bytes())
    page = 4096
    for p in range(2, len(raw) // page):  # scribble over the middle of every b-tree page but the first
        raw[p * page + 100 : p * page + 400] = b"\xa5" * 300
    db_path.write_bytes(bytes(raw))
    with pytest.raises(CorruptDatabaseError) as info:
        await Storage.open(db_path)
    assert info.value.rule == "CorruptDatabase" and "\n" not in str(info.value)


async def test_an_empty_file_copied_over_a_live_database_with_its_wal_is_refused_not_started_empty(
    db_path: Path, tmp_path: Path
) -> None:
    """The reproduction of issue 13.4: SQLite shows the copied file's empty schema and would migrate it
    (overwriting the -wal's data for good). The guard refuses, and the evidence stays intact."""
    fresh = tmp_path / "fresh.sqlite3"
    sqlite3.connect(fresh).execute("PRAGMA journal_mode = WAL").connection.close()  # a 4 KB file, no tables
    await (await Storage.open(db_path)).close()
    games_in_wal_then_crash(db_path, 5)
    real_main = tmp_path / "real-main.sqlite3"
    shutil.copy(db_path, real_main)
    wal, _shm = sidecars(db_path)
    wal_bytes = wal.read_bytes()
    shutil.copy(fresh, db_path)  # the operator's mistake
    with pytest.raises(DatabaseMismatchError) as info:
        await Storage.open(db_path)
    assert "refusing to start empty" in str(info.value) and "\n" not in str(info.value)
    assert wal.read_bytes() == wal_bytes  # nothing checkpointed over, nothing deleted
    # Without the guard file (an installation from before it existed), the -wal alone is enough evidence.
    guard_path(db_path).unlink()
    with pytest.raises(DatabaseMismatchError):
        await Storage.open(db_path)
    # Putting the right main file back recovers every game.
    shutil.copy(real_main, db_path)
    assert await count_games(db_path) == 5


async def test_an_older_copy_with_fewer_games_is_refused(db_path: Path, tmp_path: Path) -> None:
    s = await Storage.open(db_path)
    await s.create_game("conex", 1, 1, {}, [1, 2])
    await s.close()
    older = tmp_path / "older.sqlite3"
    shutil.copy(db_path, older)
    s = await Storage.open(db_path)
    third = [await s.create_game("conex", 1, c, {}, [1, 2]) for c in (2, 3)][-1]
    await s.close()
    assert read_guard(db_path)["max_game_id"] == third  # type: ignore[index]
    shutil.copy(older, db_path)
    with pytest.raises(DatabaseMismatchError, match=f"already had game #{third}"):
        await Storage.open(db_path)


async def test_another_installations_database_is_refused(db_path: Path, tmp_path: Path) -> None:
    other = tmp_path / "other" / "tablebot.sqlite3"
    await (await Storage.open(other)).close()
    await (await Storage.open(db_path)).close()
    shutil.copy(other, db_path)
    with pytest.raises(DatabaseMismatchError, match="another installation"):
        await Storage.open(db_path)


async def test_a_deleted_database_with_a_guard_is_refused(db_path: Path) -> None:
    s = await Storage.open(db_path)
    await s.create_game("conex", 1, 1, {}, [1, 2])
    await s.close()
    db_path.unlink()
    with pytest.raises(DatabaseMismatchError, match="missing or empty"):
        await Storage.open(db_path)
    assert not db_path.exists()


async def test_close_checkpoints_so_the_main_file_alone_holds_everything(db_path: Path, tmp_path: Path) -> None:
    s = await Storage.open(db_path)
    gid = await s.create_game("conex", 1, 1, {"big": "y" * 20_000}, [1, 2], status="active")
    await s.apply_action(gid, 0, {"big": "z" * 20_000}, player=1, action="draw")
    await s.close()
    wal, _shm = sidecars(db_path)
    assert not wal.exists() or wal.stat().st_size == 0
    alone = tmp_path / "alone" / "copy.sqlite3"
    alone.parent.mkdir()
    shutil.copy(db_path, alone)  # the main file only
    with sqlite3.connect(alone) as conn:
        assert conn.execute("SELECT version, length(state_json) FROM games WHERE id = ?", (gid,)).fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM actions").fetchone()[0] == 1
