"""``python -m bot`` as an operator meets it (real processes): one line and its own exit code for every
database problem at start-up, and the storage commands (check-db, backup, restore, migrate-db).

Storage is opened before the bot contacts Discord, so these runs need no Discord server: they end at
the database check (the API base points at a closed loopback port in case they ever got further)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.exitcodes import ExitCode

ROOT = Path(__file__).resolve().parents[2]
CHILD = Path(__file__).with_name("storage_child.py")


def bot(data_dir: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    base.update(
        {
            "DATA_DIR": str(data_dir),
            "DISCORD_TOKEN": "cli-test-token",
            "PYTHONPATH": str(ROOT),
            "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10",
            "DISCORD_GATEWAY_URL": "ws://127.0.0.1:9/gw",
        }
    )
    base.update(env)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], capture_output=True, text=True, env=base, cwd=ROOT, timeout=120
    )


def one_line(out: subprocess.CompletedProcess[str]) -> str:
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    return lines[0]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    path = tmp_path / "data"
    path.mkdir()
    return path


@pytest.fixture
def holder(data_dir: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process with the SQLite database open (as a running bot)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(data_dir / "tablebot.sqlite3"), "hold"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    yield proc
    if proc.poll() is None:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)


def test_a_garbage_database_exits_5_with_one_line(data_dir: Path) -> None:
    (data_dir / "tablebot.sqlite3").write_bytes(b"garbage" * 1000)
    out = bot(data_dir)
    assert out.returncode == ExitCode.DATABASE_CORRUPT == 5
    assert "not an SQLite database" in one_line(out)


def test_an_empty_file_over_a_live_database_exits_6_and_starts_nothing(data_dir: Path, tmp_path: Path) -> None:
    db = data_dir / "tablebot.sqlite3"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    assert bot(data_dir, "check-db").returncode == 0  # a first clean start and stop: checkpointed
    done = subprocess.run(
        [sys.executable, str(CHILD), str(db), "games-then-kill", "3"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=60,
    )
    assert "done" in done.stdout  # then games, and a crash: they are in the -wal only
    fresh = tmp_path / "fresh.sqlite3"
    sqlite3.connect(fresh).execute("PRAGMA journal_mode = WAL").connection.close()
    shutil.copy(fresh, db)
    out = bot(data_dir)
    assert out.returncode == ExitCode.DATABASE_MISMATCH == 6
    assert "refusing to start empty" in one_line(out)
    assert not (data_dir / "heartbeat").exists()


def test_a_second_bot_on_the_same_file_exits_7(data_dir: Path, holder: subprocess.Popen[str]) -> None:
    out = bot(data_dir)
    assert out.returncode == ExitCode.DATABASE_LOCKED == 7
    line = one_line(out)
    assert f"pid {holder.pid}" in line and "one process per SQLite file" in line


def test_postgresql_not_answering_exits_8(data_dir: Path) -> None:
    out = bot(data_dir, DATABASE_URL="postgresql://postgres:secret@127.0.0.1:1/test", DATABASE_WAIT_S="0")  # no wait
    assert out.returncode == ExitCode.DATABASE_UNAVAILABLE == 8
    line = one_line(out)
    assert "cannot connect to PostgreSQL" in line and "secret" not in line and "***" in line


def test_a_database_from_a_newer_bot_exits_9(data_dir: Path) -> None:
    assert bot(data_dir, "check-db").returncode == 0
    with sqlite3.connect(data_dir / "tablebot.sqlite3") as conn:
        conn.execute("PRAGMA user_version = 99")
    out = bot(data_dir)
    assert out.returncode == ExitCode.DATABASE_INCOMPATIBLE == 9 and "newer" in one_line(out)


@pytest.mark.parametrize("url", ["mysql://x/y", "sqlite:relative.db", "just words"])
def test_a_malformed_database_url_exits_2(data_dir: Path, url: str) -> None:
    out = bot(data_dir, DATABASE_URL=url)
    assert out.returncode == ExitCode.CONFIG == 2 and "DATABASE_URL" in one_line(out)


def test_backup_runs_beside_a_live_bot_and_restore_waits_for_it_to_stop(
    data_dir: Path, tmp_path: Path, holder: subprocess.Popen[str]
) -> None:
    copy = tmp_path / "backups" / "b1.sqlite3"
    out = bot(data_dir, "backup", str(copy), DISCORD_TOKEN="")  # storage commands need no token
    assert out.returncode == 0, out.stderr
    assert "backup written" in out.stdout and copy.exists()
    again = bot(data_dir, "backup", str(copy))
    assert again.returncode == ExitCode.REFUSED == 10 and "already exists" in one_line(again)
    assert bot(data_dir, "backup", str(copy), "--force").returncode == 0
    busy = bot(data_dir, "restore", str(copy))
    assert busy.returncode == ExitCode.DATABASE_LOCKED and "in use" in one_line(busy)
    assert holder.stdin is not None
    holder.stdin.close()
    holder.wait(timeout=30)
    done = bot(data_dir, "restore", str(copy))
    assert done.returncode == 0 and "moved to" in done.stdout
    assert bot(data_dir, "check-db").returncode == 0


def test_backup_and_restore_on_postgresql_point_to_pg_dump(data_dir: Path) -> None:
    out = bot(data_dir, "backup", "x.sqlite3", DATABASE_URL="postgresql://postgres@127.0.0.1:1/test")
    assert out.returncode == ExitCode.CONFIG and "pg_dump" in one_line(out)


def test_migrate_db_to_postgresql_then_refuses_to_copy_twice(data_dir: Path, pg_url: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    db = data_dir / "tablebot.sqlite3"
    subprocess.run(
        [sys.executable, str(CHILD), str(db), "games-then-kill", "4"],
        env=env,
        cwd=ROOT,
        timeout=60,
        capture_output=True,
    )
    out = bot(data_dir, "migrate-db", "--from", f"sqlite:///{db}", "--to", pg_url)
    assert out.returncode == 0, out.stderr
    assert "games 4" in out.stdout
    check = bot(data_dir, "check-db", DATABASE_URL=pg_url)
    assert check.returncode == 0 and "4 games" in check.stdout and "postgresql" in check.stdout
    again = bot(data_dir, "migrate-db", "--from", str(db), "--to", pg_url)
    assert again.returncode == ExitCode.REFUSED and "not empty" in one_line(again)


def test_an_unusable_data_directory_exits_5_not_as_a_configuration_error(tmp_path: Path) -> None:
    """DATA_DIR that cannot be written (here a path under a file; in the image a bind mount the image's uid cannot
    write): the first file the bot writes there (the record signing key) fails, reported as the data's problem."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    out = bot(blocker / "data")
    assert out.returncode == ExitCode.DATABASE_CORRUPT == 5, out.stderr
    assert "Data directory error" in one_line(out)
