"""A finished game offers no more actions in any private view: My hand (no legal counts), Hints, the discard
prompt, all through the one shared check (``Loader.playing``) that the commands use too."""

from __future__ import annotations

import copy

import pytest

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, refusal
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import ALICE, BOB, forfeit, record_of, start_game, table_msg


async def test_a_finished_conex_games_old_table_offers_no_moves(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot)
    table = copy.deepcopy(await table_msg(storage, fake, gid))  # the table alice still sees
    # an old table drawn while a discard was owed also carried the Discard button (X3)
    table["components"].append(
        {"type": 1, "components": [{"type": 2, "style": 2, "label": "Discard", "custom_id": f"cn:disc:{gid}"}]}
    )
    live = await driver.click(int(table["id"]), f"cn:hand:{gid}", ALICE, message=table)
    assert "legal" in fake.visible_text(live)  # while it plays, the hand shows legal counts
    await forfeit(driver, fake, BOB, gid)
    record = await record_of(storage, gid)
    assert record.status == "finished"
    for custom_id in (f"cn:hand:{gid}", f"cn:hints:{gid}", f"cn:disc:{gid}"):
        text = refusal(fake, await driver.click(int(table["id"]), custom_id, ALICE, message=table))
        assert "This game is over" in text, (custom_id, text)
        assert "legal" not in text
    assert "This game is over" in refusal(fake, await driver.command("conex hand", ALICE))
    assert (await record_of(storage, gid)).version == record.version


@pytest.mark.parametrize("status", ["finished", "aborted"])
async def test_the_shared_check_refuses_every_ended_status(bot: TableBot, storage: Storage, status: str) -> None:
    from bot.core.loading import still_playing
    from bot.errors import BotError

    class Rec:
        def __init__(self, s: str) -> None:
            self.status = s

    still_playing(Rec("active"))  # type: ignore[arg-type]
    with pytest.raises(BotError) as info:
        still_playing(Rec(status))  # type: ignore[arg-type]
    assert info.value.key == "err.game_closed" and info.value.kwargs["status"] == status
    with pytest.raises(BotError) as info:
        still_playing(Rec("lobby"))  # type: ignore[arg-type]
    assert info.value.key == "err.not_started"
