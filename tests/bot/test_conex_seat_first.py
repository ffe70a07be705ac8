"""Every CONEX command naming a card of the player's hand checks the seat first (the game is over, the seat left,
not its turn, no discard owed): a player who may not act is told that, in their language, never that their hand
(empty once they left) has no such card."""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, game_of, refusal
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import ALICE, BOB, CAROL, forfeit, record_of, start_game

USERS = (ALICE, BOB, CAROL)


async def test_a_seat_that_left_is_told_so_by_place_and_discard(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=USERS)
    game = game_of(await record_of(storage, gid))
    leaver = USERS[(game.current_player + 1) % 3]
    await forfeit(driver, fake, leaver, gid)
    record = await record_of(storage, gid)
    assert record.status == "active" and record.players.index(leaver) in game_of(record).forfeited
    for cmd, kw in (("conex place", {"card": "A", "corner": 1}), ("conex discard", {"card": "A"})):
        assert (
            refusal(fake, await driver.command(cmd, leaver, **kw)) == "You left this game; your seat no longer plays."
        )
        es = refusal(fake, await driver.command(cmd, leaver, locale="es-ES", **kw))
        assert es == "Dejaste esta partida; tu asiento ya no juega.", es
    assert (await record_of(storage, gid)).version == record.version


async def test_a_letter_sent_out_of_turn_is_told_whose_turn_it_is(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    gid = await start_game(driver, fake, storage, bot, seats=USERS)
    game = game_of(await record_of(storage, gid))
    waiting = USERS[(game.current_player + 1) % 3]
    text = refusal(fake, await driver.command("conex place", waiting, card="ZZ", corner=1))
    assert text.startswith("Not your turn"), text
    text = refusal(fake, await driver.command("conex discard", waiting, card="ZZ"))
    assert "letter" not in text and "discard" in text.lower(), text
