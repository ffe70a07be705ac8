"""Issue 23 point 7: ``python -m bot`` commands, run for real (subprocess): ``migrate-db`` refuses a missing
SQLite source instead of creating it empty, a relative ``sqlite:///`` path is read from the current directory,
an unknown ``DEV_GUILD_ID`` is a configuration error (exit 2) with a line saying so, and ``--help`` lists every
command and every environment variable the bot reads."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import ENVIRONMENT
from bot.exitcodes import ExitCode
from devserver import DevServer

REPO = Path(__file__).resolve().parents[2]
TOKEN = "ops-commands-token"
READS = r"""(?:environ\.get|env\.get|getenv|environ\[|_in\(env,)\s*\(?\s*["']([A-Z][A-Z0-9_]+)["']"""


def bot(
    *args: str, cwd: Path, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))}
    base["PYTHONPATH"] = str(REPO)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env={**base, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_migrate_db_from_a_missing_sqlite_file_fails_and_creates_nothing(tmp_path: Path) -> None:
    done = bot(
        "migrate-db",
        "--from",
        "sqlite:///data/old.sqlite3",
        "--to",
        "sqlite:///data/new.sqlite3",
        cwd=tmp_path,
        env={"DATA_DIR": str(tmp_path / "d")},
    )
    assert done.returncode == ExitCode.CONFIG, done
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "no database file at" in lines[0], done.stderr
    assert str(tmp_path / "data" / "old.sqlite3") in lines[0] and "current directory" in lines[0]
    assert "copied" not in done.stdout
    assert not (tmp_path / "data").exists(), "neither the source nor the target may be created"


def test_relative_sqlite_url_is_read_from_the_current_directory(tmp_path: Path) -> None:
    here = tmp_path / "here"
    (here / "data").mkdir(parents=True)
    created = bot("check-db", cwd=here, env={"DATABASE_URL": "sqlite:///data/x.sqlite3"})
    assert created.returncode == 0, created
    assert (here / "data" / "x.sqlite3").is_file()
    # migrate-db reads the same relative path from the same directory, and copies it into a new file
    moved = bot("migrate-db", "--from", "sqlite:///data/x.sqlite3", "--to", "sqlite:///data/y.sqlite3", cwd=here)
    assert moved.returncode == 0 and "copied" in moved.stdout, moved
    assert (here / "data" / "y.sqlite3").is_file()


async def test_unknown_dev_guild_id_is_a_configuration_error(tmp_path: Path) -> None:
    async with DevServer(token=TOKEN) as server:
        env = {
            **server.env(TOKEN),
            "DEV_GUILD_ID": "123456789012345678",
            "DATA_DIR": str(tmp_path / "d"),
            "CPU_WORKERS": "0",
            "PYTHONPATH": str(REPO),
        }
        base = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_", "DEV_GUILD"))}
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=tmp_path,
            env={**base, **env},
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, err = await asyncio.wait_for(proc.communicate(), 90)
    last = err.decode().strip().splitlines()[-1]
    assert proc.returncode == ExitCode.CONFIG, err.decode()[-3000:]
    assert "DEV_GUILD_ID 123456789012345678 is not a server this bot is in" in last, last
    assert "DISCORD_GATEWAY_URL" not in last


def test_help_lists_every_command_and_every_environment_variable(tmp_path: Path) -> None:
    done = bot("--help", cwd=tmp_path)
    assert done.returncode == 0, done
    text = done.stdout
    for command in ("run", "healthcheck", "check-db", "backup", "restore", "migrate-db"):
        assert re.search(rf"^\s+{re.escape(command)}\b", text, re.M), command
    # every variable the bot's code reads...
    read: set[str] = set()
    for path in (REPO / "bot").rglob("*.py"):
        source = path.read_text(encoding="utf-8")
        read |= set(re.findall(READS, source))
        read |= set(re.findall(r"""^[A-Z_]*ENV\s*=\s*["']([A-Z][A-Z0-9_]+)["']""", source, re.M))
    # ...and every variable of the README's configuration table
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration (environment)", 1)[1].split("\n## ", 1)[0]
    documented = {
        name
        for row in table.splitlines()
        if row.startswith("| `")
        for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])
    }
    assert {"DISCORD_TOKEN", "CPU_WORKERS", "TABLEBOT_EXTRA_GAMES", "SHARD_IDS"} <= read | documented
    listed = {name for name, _ in ENVIRONMENT}
    assert (read | documented) - listed == set()
    for name in listed:
        assert re.search(rf"^  {name}\s", text, re.M), f"{name} missing from --help"
    assert "exit codes:" in text and "11 crashed" in text


@pytest.mark.parametrize("args", [["backup"], ["nonsense"]])
def test_bad_arguments_exit_2(tmp_path: Path, args: list[str]) -> None:
    assert bot(*args, cwd=tmp_path).returncode == ExitCode.CONFIG
