"""an abort agreement and a draw offer made meanwhile.

A draw offer (or takeback request, decline, cancel) is a commit without a seat: ``mutual.on_commit`` does not void
the abort offer (its Agree button stays), yet the agreement is decided on the game's version, which the offer bumped.
The next Agree click is then refused with ``abort.stale`` ("the game went on") and every vote is dropped, though no
move was played and the button still looked live.
"""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, start
from tests.bot.fakediscord import FakeDiscord

ALICE, BOB = 1, 2


async def test_a_draw_offer_between_the_votes_does_not_silently_void_the_abort(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = await start(driver, fake, storage)
    offer = fake.originals[await driver.command("abandon", ALICE)]
    record = await storage.get_game(game)
    assert record is not None
    board = int(record.messages["board"])
    await driver.click(board, f"of:dr:{game}:{record.version}", BOB)  # Bob offers a draw: no move
    offered = await storage.get_game(game)
    assert offered is not None and offered.version == record.version + 1, "the draw offer is a commit"
    still_live = f"ma:ok:{game}" in all_custom_ids(fake.messages[offer])
    token = await driver.click(offer, f"ma:ok:{game}", BOB)
    after = await storage.get_game(game)
    assert after is not None
    # Either the abort goes through (a draw offer is no move), or the offer was voided visibly before the click.
    assert after.status == "aborted" or not still_live, (
        f"Agree button still live after the draw offer, click refused: {fake.visible_text(token)!r}"
    )
