"""/leaderboard, /stats, /help and the admin /abort, at handler level (real storage and render)."""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, start
from tests.bot.fakediscord import BOT_ID, CHANNEL_ID, EPHEMERAL, GUILD_ID, FakeDiscord, image_size, png_ok
from tests.bot.test_constructo_cog import ALICE, BOB, CAROL, board_of, initial, refusal

ADMIN = 4


async def _finished_game(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    """Both players move (so the match is rated), then Bob resigns."""
    await start(driver, fake, storage)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="medium")
    await driver.resign(BOB)


async def test_leaderboard_image_and_text(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await _finished_game(driver, fake, storage)
    token = await driver.command("leaderboard", CAROL, game="constructo")
    assert initial(fake, token) == {"type": 5}  # deferred before reading and rendering
    (final,) = fake.calls_for(token)[1:]
    ((_name, data),) = final.files
    assert png_ok(data) and image_size(data)[0] >= 800
    text = final.payload["content"]  # type: ignore[index]
    assert text.index("alice") < text.index("bob")  # the winner ranks first
    empty = await driver.command("leaderboard", CAROL, game="conex")
    assert "Nobody has a rated CONEX game" in fake.visible_text(empty)
    assert all(not c.files for c in fake.calls_for(empty))  # text only, no empty picture


async def test_stats_for_self_and_another_user(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    await _finished_game(driver, fake, storage)
    token = await driver.command("stats", ALICE)
    assert initial(fake, token) == {"type": 5}  # deferred before reading the records
    text = fake.visible_text(token)
    assert "Stats of alice" in text and "rank 1" in text and "1W 0L 0D" in text and "CONEX**: no rated" in text
    text = fake.visible_text(await driver.command("stats", CAROL, user=BOB))
    assert "Stats of bob" in text and "0W 1L 0D" in text and "rating 1437?" in text  # 1500 - 63, provisional
    assert "? = provisional: fewer than 5 rated games" in text
    assert "against the AI (not rated)" not in text
    await driver.command("constructo challenge", BOB, channel_id=CHANNEL_ID + 1, opponent=BOT_ID)
    await driver.resign(BOB, channel_id=CHANNEL_ID + 1)  # a game against the AI: counted apart, never rated
    text = fake.visible_text(await driver.command("stats", CAROL, user=BOB))
    assert "0W 1L 0D" in text and "against the AI (not rated): 0W 1L 0D" in text


async def test_stats_records_against_an_opponent_and_by_layout(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Issue 25: ``opponent:`` adds the head-to-head line of each game, the best streak and the results by round
    1's layout follow; the player as their own opponent is refused privately, changing nothing."""
    await _finished_game(driver, fake, storage)
    text = fake.visible_text(await driver.command("stats", CAROL, user=ALICE, opponent=BOB))
    lines = text.splitlines()
    assert "  against bob: 1W 0L 0D" in lines and "  best win streak against people: 1" in lines, text
    assert "    rombo: 1W 0L 0D · 0W 0L 0D" in lines, text
    assert "  against bob: no finished game together yet." in lines  # the CONEX line
    token = await driver.command("stats", ALICE, opponent=ALICE)
    assert "nobody has a record against themselves" in refusal(fake, token)


async def test_help_is_ephemeral_and_lists_the_commands(driver: Driver, fake: FakeDiscord) -> None:
    token = await driver.command("help", CAROL)
    first = initial(fake, token)
    assert first["type"] == 4 and first["data"]["flags"] & EPHEMERAL, first
    more = fake.calls_for(token)[1:]  # the pages after the first: private followups, nothing public
    assert all(c.payload.get("flags", 0) & EPHEMERAL for c in more), more
    text = "\n".join([first["data"]["content"], *(c.payload.get("content", "") for c in more)])
    for name in ("/constructo challenge", "/leaderboard", "/stats", "/abort"):
        assert name in text


async def test_abort_needs_manage_server(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    assert "Manage Server" in refusal(fake, await driver.command("abort", CAROL))
    record = await storage.get_game(game)
    assert record is not None and record.status == "active"


async def test_admin_abort_ends_the_channel_game_unrated(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = await start(driver, fake, storage)
    board = await board_of(storage, fake, game)
    token = await driver.command("abort", ADMIN, admin=True)
    payload = initial(fake, token)
    assert payload["type"] == 4 and not payload["data"].get("flags", 0) & EPHEMERAL
    assert "aborted" in payload["data"]["content"]
    record = await storage.get_game(game)
    assert record is not None and record.status == "aborted" and record.result is None
    assert fake.messages[int(board["id"])]["components"] == []
    assert await storage.rating_of(GUILD_ID, "constructo", ALICE) is None
    assert "no game in this channel" in refusal(fake, await driver.command("abort", ADMIN, admin=True))
    assert await storage.active_game_in_channel(CHANNEL_ID) is None


async def test_help_names_every_top_level_command_in_both_languages(
    bot: TableBot, driver: Driver, fake: FakeDiscord
) -> None:
    names = sorted(c.name for c in bot.tree.get_commands())
    assert {"settings", "games", "abandon", "history", "replay"} <= set(names)
    for locale in ("en-US", "es-ES"):
        token = await driver.command("help", CAROL, locale=locale)
        first = initial(fake, token)["data"]
        pages = [first["content"], *(c.payload.get("content", "") for c in fake.calls_for(token)[1:])]
        assert all(len(p) <= 2000 and first["flags"] & EPHEMERAL for p in pages)  # private, paged within limits
        text = "\n".join(pages)
        assert [n for n in names if f"/{n}" not in text] == [], (locale, text)
