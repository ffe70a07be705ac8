"""A process running some shards (``SHARD_COUNT``/``SHARD_IDS``) does background work only for the guilds it owns
(``(guild_id >> 22) % SHARD_COUNT`` in ``SHARD_IDS``): board recovery and AI resume after READY leave the other
processes' games alone. The fake guild (id 10) is on shard 0 of 2."""

from __future__ import annotations

import dataclasses

import pytest

from bot.app import TableBot, make_bot
from bot.config import Config, ConfigError
from bot.services.publish import BOARD_VERSION_KEY
from bot.storage import Storage
from tests.bot.conftest import Driver
from tests.bot.fakediscord import GUILD_ID, FakeDiscord

ALICE, CAROL = 1, 3


def test_shard_settings_are_read_and_checked() -> None:
    env = {"DISCORD_TOKEN": "t", "SHARD_COUNT": "4", "SHARD_IDS": "2, 0"}
    config = Config.from_env(env)
    assert (config.shard_count, config.shard_ids) == (4, (0, 2))
    assert config.owns_guild(0 << 22) and config.owns_guild(6 << 22) and not config.owns_guild(1 << 22)
    assert Config.from_env({"DISCORD_TOKEN": "t", "SHARD_COUNT": "2"}).shard_ids == (0, 1)
    assert Config.from_env({"DISCORD_TOKEN": "t"}).owns_guild(1 << 22)  # unsharded: every guild
    for bad in ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, {"SHARD_IDS": "0"}, {"SHARD_COUNT": "2", "SHARD_IDS": "x"}):
        with pytest.raises(ConfigError, match="SHARD"):
            Config.from_env({"DISCORD_TOKEN": "t", **bad})
    sharded = make_bot(dataclasses.replace(config, cpu_workers=0))
    assert sharded.shard_count == 4 and sharded.shard_ids == [0, 2]


async def test_recovery_and_ai_resume_only_for_owned_guilds(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    assert (GUILD_ID >> 22) % 2 == 0
    await driver.command("constructo challenge", CAROL, opponent=1000, level="easy")
    record = await storage.active_game_in_channel(20)
    assert record is not None
    await storage.set_message(record.id, BOARD_VERSION_KEY, -1)  # its board looks stale after a restart
    bot.config = dataclasses.replace(bot.config, shard_count=2, shard_ids=(1,))
    calls = len(fake.calls)
    assert await bot.games.publisher.recovery.recover_all() == 0
    assert fake.calls[calls:] == [], "another process's game is none of this one's business"
    bot.config = dataclasses.replace(bot.config, shard_ids=(0,))
    assert await bot.games.publisher.recovery.recover_all() == 1
