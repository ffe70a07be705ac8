"""E2E: the real bot syncs its command tree once per changed tree: a restart with the same tree sends no second
``PUT .../commands``; a tree that differs from the stored hash is synced exactly once."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from devserver.process import BotProcess

from .conftest import E2E_TOKEN
from .helpers import BotEnv, answered, bot_env


def command_puts(env: BotEnv) -> list[tuple[str, str, int]]:
    return [r for r in env.server.requests if r[0] == "PUT" and r[1].rstrip("/").endswith("/commands")]


def tree(env: BotEnv) -> list[dict[str, object]]:
    """The synced guild commands without the ids and versions the server assigns."""
    return sorted(({k: v for k, v in c.items() if k not in ("id", "version", "application_id", "guild_id")}
                   for c in env.server.export_commands()["guild"]), key=lambda c: str(c["name"]))


def copy_with_stale_hash(env: BotEnv, dest: Path) -> None:
    """Copy the (stopped) bot's database to ``dest`` (SQLite backup API, source opened read-only) and, in the
    copy only, replace the stored command-tree hash: the bot started on it sees a tree that changed since its
    last sync."""
    dest.mkdir(parents=True)
    target = dest / "tablebot.sqlite3"
    with env.db() as src, closing(sqlite3.connect(target)) as dst:
        src.backup(dst)
        key = f"commands_hash:guild:{env.server.guild_id}"
        changed = dst.execute("UPDATE meta SET value = ? WHERE key = ?", ("0" * 64, key)).rowcount
        dst.commit()
    assert changed == 1, f"no stored hash under {key!r}"


async def test_command_sync_happens_once_per_changed_tree(tmp_path: Path) -> None:
    async with bot_env(tmp_path) as env:
        server = env.server
        mark = env.mark()
        assert len(command_puts(env)) == 1 and len(server.command_syncs) == 1, server.command_syncs
        synced = tree(env)
        assert {"constructo", "conex", "leaderboard", "help"} <= {c["name"] for c in synced}

        await env.proc.restart()  # SIGKILL + start, same tree
        await env.proc.stop()  # graceful stop + start, same tree
        await env.proc.start()
        assert env.proc.starts == 3
        assert len(command_puts(env)) == 1, f"unchanged tree re-synced: {command_puts(env)}"
        assert env.proc.log().count("command tree unchanged") == 2
        res = await answered(await server.as_user("alice").slash("help"))
        assert res.text

        await env.proc.stop()
        copy_with_stale_hash(env, tmp_path / "data2")
        other = BotProcess(server, tmp_path / "data2", tmp_path / "bot2.log", token=E2E_TOKEN)
        try:
            await other.start()
            assert len(command_puts(env)) == 2, "a changed tree is synced"
            assert tree(env) == synced
            await other.restart()
            assert len(command_puts(env)) == 2, "and only once"
            res = await answered(await server.as_user("bob").slash("help"))
            assert res.text
        finally:
            await other.stop()
        assert env.violations_since(mark) == []
