"""E2E: the real bot syncs its command tree only when Discord reports other commands for the application (one
``GET``): a restart with the same tree sends no second ``PUT .../commands``; commands deleted elsewhere
(``clear_commands``) are synced again exactly once."""

from __future__ import annotations

from pathlib import Path

from .helpers import BotEnv, answered, bot_env


def command_puts(env: BotEnv) -> list[tuple[str, str, int]]:
    return [r for r in env.server.requests if r[0] == "PUT" and r[1].rstrip("/").endswith("/commands")]


def tree(env: BotEnv) -> list[dict[str, object]]:
    """The synced guild commands without the ids and versions the server assigns."""
    return sorted(
        (
            {k: v for k, v in c.items() if k not in ("id", "version", "application_id", "guild_id")}
            for c in env.server.export_commands()["guild"]
        ),
        key=lambda c: str(c["name"]),
    )


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

        # the application's commands deleted elsewhere: the bot compares with Discord's GET and syncs again
        assert server.clear_commands() > 0
        await env.proc.restart()
        assert len(command_puts(env)) == 2, "an application without commands is synced"
        assert tree(env) == synced
        await env.proc.restart()
        assert len(command_puts(env)) == 2, "and only once"
        res = await answered(await server.as_user("bob").slash("help"))
        assert res.text
        assert env.violations_since(mark) == []
