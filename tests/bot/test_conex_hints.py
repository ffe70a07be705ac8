"""CONEX hints (issue 14): holding the 2x star, each hint also offers "play with 2x" (a second button, the doubled
points in the list) and that button scores double; the list names the hand letter and the target."""

from __future__ import annotations

from bot.storage import Storage
from engine.conex import Game
from tests.bot.conftest import Driver, game_of
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import ALICE, BOB, CAROL, SEED, first_placements, put_game, record_of


def two_x_position() -> Game:
    """3 seats, three cards on the table, Alice (seat 0) to play holding the 2x star since turn 1."""
    game = Game.new(players=3, seed=SEED, table="medium", goal=40)
    for seat in range(3):
        game.play(first_placements(game, seat)[0])
    game.star_holder["2x"] = 0
    game.star_since["2x"] = 1
    return game


async def test_hints_offer_the_2x_star_and_its_button_scores_double(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    game = two_x_position()
    gid = await put_game(storage, game, [ALICE, BOB, CAROL], board_shown=True)
    token = await driver.command("conex hints", ALICE)
    edit = fake.calls_for(token)[1].payload
    assert isinstance(edit, dict)
    buttons = [c for row in edit["components"] for c in row["components"]]
    plain = [b for b in buttons if not b["custom_id"].endswith(":d")]
    doubled = [b for b in buttons if b["custom_id"].endswith(":d")]
    assert plain and len(doubled) == len(plain)
    single = int(plain[0]["label"].split("+")[1])
    assert doubled[0]["label"] == f"1 · 2x +{2 * single}"
    assert f"(with your 2x star: **+{2 * single}**, button 1 · 2x)" in edit["content"]
    before = game.scores[0]
    await driver.click(fake.originals[token], doubled[0]["custom_id"], ALICE)
    after = game_of(await record_of(storage, gid))
    assert after.scores[0] == before + 2 * single and after.stars.get("2x") != 0  # the star went back (V3)


async def test_no_2x_button_without_the_star(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = two_x_position()
    game.star_holder["2x"] = None
    await put_game(storage, game, [ALICE, BOB, CAROL], board_shown=True)
    edit = fake.calls_for(await driver.command("conex hints", ALICE))[1].payload
    assert isinstance(edit, dict) and "2x" not in edit["content"]
    assert not [c for row in edit["components"] for c in row["components"] if c["custom_id"].endswith(":d")]
    plan = fake.calls_for(await driver.command("conex hints", BOB))[1].payload  # off-turn: read only
    assert isinstance(plan, dict) and not plan.get("components") and "Not your turn yet" in plan["content"]


async def test_an_empty_hand_is_text_only(driver: Driver, fake: FakeDiscord, storage: Storage) -> None:
    game = two_x_position()
    game.pile.extend(game.hands[1])
    game.hands[1].clear()
    await put_game(storage, game, [ALICE, BOB, CAROL], board_shown=True)
    calls = fake.calls_for(await driver.command("conex hand", BOB))
    assert all(not c.files for c in calls) and "Your hand (0 cards)" in str(calls[-1].payload)
