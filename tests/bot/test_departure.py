"""The bot removed from a guild (issue 12): its open games end aborted (unrated, reason ``guild_removed``), a board
that would still be published there (an AI move landing late, a retry) goes nowhere without a request, other
guilds' games and messages are untouched, and a re-invite lets messages go there again."""

from __future__ import annotations

import pytest

from bot.app import TableBot
from bot.services import departure
from bot.services.delivery import GuildGone
from bot.storage import Storage
from tests.bot.conftest import Driver, start
from tests.bot.fakediscord import CHANNEL_ID, GUILD_ID, FakeDiscord

ALICE, BOB = 1, 2


async def test_removed_guild_games_aborted_and_nothing_sent_there(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("constructo challenge", ALICE, opponent=BOB)
    record = await storage.active_game_in_channel(CHANNEL_ID)
    assert record is not None and record.status == "lobby"
    other = await storage.create_game("constructo", GUILD_ID + 1, 77, {"v": 2}, [ALICE, BOB], status="lobby")

    aborted = await departure.guild_removed(bot.games, GUILD_ID)
    assert [r.id for r in aborted] == [record.id]
    after = await storage.get_game(record.id)
    assert after is not None and after.status == "aborted" and after.result is None
    assert after.end_reason == "guild_removed"
    still = await storage.get_game(other)
    assert still is not None and still.status == "lobby", "another guild's game is untouched"

    calls = len(fake.calls)
    delivery = bot.games.publisher.delivery
    with pytest.raises(GuildGone):
        await delivery.send(after, "late board")
    assert await delivery.edit(after, record.messages["lobby"], view=None) is False
    assert len(fake.calls) == calls, "no request to the removed guild"
    assert await delivery.edit(still, 1234, view=None) in (True, False)
    assert len(fake.calls) == calls + 1, "other guilds still get their requests"

    departure.guild_joined(bot.games, GUILD_ID)
    await delivery.send(after, "back again")
    assert len(fake.calls) == calls + 2


async def test_a_board_published_after_the_removal_is_not_retried(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)  # alice vs bob, running
    record = await storage.get_game(game)
    assert record is not None
    await departure.guild_removed(bot.games, GUILD_ID)
    snap = bot.games.snapshot(await storage.get_game(record.id))  # type: ignore[arg-type]
    calls = len(fake.calls)
    with pytest.raises(GuildGone):  # e.g. an AI move committed just before the removal, published after it
        await bot.games.publisher.publish(snap, headline="late")
    assert len(fake.calls) == calls and await storage.effects_of(record.id) == [], "nothing owed there any more"
