"""Every state change is said once (issue "A table players understand at a glance"): after a move the player does
not read the same fact twice in what the bot answers — a resignation only on the board (no private "You resigned"
beside it, the confirmation prompt removed), how a CONEX game ended once (the status line, with why and who won),
and who owes a discard after a lightning once (with how to do it)."""

from __future__ import annotations

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, all_custom_ids
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import CAROL, forfeit, lightning_position, put_game, start_game

ALICE, BOB = 1, 2


async def test_a_resignation_is_said_once_on_the_board(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    token = await driver.command("constructo challenge", ALICE, opponent=BOB)
    gid = int(all_custom_ids(fake.messages[fake.originals[token]])[0].split(":")[2])
    await driver.click(fake.originals[token], f"cx:acc:{gid}", BOB)
    await driver.command("constructo place", ALICE, tile=5, size="large")
    click = await driver.resign(BOB)
    said = fake.visible_text(click)
    assert said.count("resigned") == 1, said  # "Match over: bob resigned, alice wins", not "bob resigned." too
    assert "Match over" in said
    calls = fake.calls_for(click)
    assert any(c.method == "DELETE" and c.path.endswith("/@original") for c in calls), calls  # the prompt is gone
    record = await storage.get_game(gid)
    assert record is not None and record.status == "finished"


async def test_how_a_conex_game_ended_is_said_once(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    said = fake.visible_text(await forfeit(driver, fake, BOB))
    assert "**CONEX over** (too few players are left in the game) — winner: **alice**" in said, said
    assert "Game over" not in said and said.count(" over") == 1, said


async def test_who_owes_a_discard_is_said_once(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = lightning_position()
    await put_game(storage, game, [ALICE, BOB, CAROL])
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    said = fake.visible_text(await driver.command("conex lightning", ALICE, card=free[-1]))
    assert said.count("<@2>") == 1 and said.count("<@3>") == 1, said
    assert "Waiting for discards from: <@2>, <@3> — one card each" in said
