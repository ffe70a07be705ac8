"""/mygames names the other players through ``", ".join`` (a plain ``str``), so ``bot.i18n.t`` does not
escape them: a nickname written as a masked link is drawn as a link in another player's /mygames."""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, start
from tests.bot.fakediscord import FakeDiscord

ALICE, BOB = 1, 2
LINK = "[Nitro](https://evil.example)"


async def test_an_opponent_named_as_a_masked_link_reads_as_typed_in_mygames(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    fake.users[BOB] = LINK
    await start(driver, fake, storage)
    said = fake.visible_text(await driver.command("mygames", ALICE))
    assert "Nitro" in said, said
    assert LINK not in said, f"the opponent's name is drawn as a masked link: {said!r}"
