"""``BotProcess`` configuration for sharded runs (no process is started here)."""

from __future__ import annotations

from pathlib import Path

from devserver import DevServer
from devserver.process import REPO, BotProcess


def test_shards_go_to_the_environment_and_name_the_sessions_to_wait_for(tmp_path: Path) -> None:
    server = DevServer(token="t")
    proc = BotProcess(
        server, tmp_path / "data", tmp_path / "bot.log", token="t", shards=([1, 3], 4), extra_env={"DEV_GUILD_ID": ""}
    )
    env = proc.env
    assert (env["SHARD_COUNT"], env["SHARD_IDS"], env["DEV_GUILD_ID"]) == ("4", "1,3", "")
    assert env["DISCORD_TOKEN"] == "t" and env["DATA_DIR"] == str(tmp_path / "data")
    assert proc.shard_keys == [(1, 4), (3, 4)]
    plain = BotProcess(server, tmp_path / "data", tmp_path / "bot.log")
    assert "SHARD_COUNT" not in plain.env and plain.shard_keys == []
    assert (REPO / "bot" / "__init__.py").exists()  # found without importing the bot
