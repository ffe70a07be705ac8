"""Issue 12 tried the way a messy server uses it (in process: the scheduler driven by shifting the layer's clock).

- a rematch keeps the finished game's clock, ``none`` included (not the server's default);
- a claim that loses the race to the late player's move says the player moved in time (not "board out of date");
- CONEX X3: an owed discard is made at random only when the game's turn time has run out (a daily game's
  discard is not taken after ten minutes); the seat to play that owes a discard misses one deadline: one timeout
  (its discard at random), then a fresh deadline for the turn itself, not a second timeout a second later;
- a mutual-abort offer is for the game as it stood: a move after it voids it (a later Agree is refused).
"""

from __future__ import annotations

from typing import Any

from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids, envelope_of
from tests.bot.fakediscord import CHANNEL_ID, FakeDiscord
from tests.bot.test_constructo_cog import board_of, start

ALICE, BOB, CAROL = 1, 2, 3


async def finish_by_resign(driver: Driver, fake: FakeDiscord, storage: Storage, game: int, uid: int) -> dict[str, Any]:
    await driver.command("constructo resign", uid)
    ask = [m for m in fake.messages.values() if f"cx:rsy:{game}" in all_custom_ids(m)]
    if ask:
        await driver.click(int(ask[-1]["id"]), f"cx:rsy:{game}", uid)
    return await board_of(storage, fake, game)


async def test_a_rematch_keeps_no_clock_whatever_the_servers_default(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await driver.command("settings", ALICE, admin=True, clock="live")
    game = await start(driver, fake, storage, clock="none")
    old = await storage.get_game(game)
    assert old is not None and not envelope_of(old).clock.get("per_move")
    card = await finish_by_resign(driver, fake, storage, game, BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", BOB)
    await driver.click(int(card["id"]), f"rm:go:{game}", ALICE)
    new = await storage.active_game_in_channel(CHANNEL_ID)
    assert new is not None and new.id != game
    assert not envelope_of(new).clock.get("per_move") and new.wake_at is None, envelope_of(new).clock
