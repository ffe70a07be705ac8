"""CONEX hand letters stay with a card for the whole game (issue 14): playing a card never re-letters the others,
drawn cards get the next letters, and ``/conex place card:<letter>`` names the card the hand showed."""

from __future__ import annotations

from bot.app import TableBot
from bot.games.conex.letters import letters_of, track
from bot.storage import Storage
from engine.conex import Game
from tests.bot.conftest import Driver, envelope_of, game_of
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import ALICE, BOB, expected_game, record_of, start_game


def test_letters_follow_arrival_order_and_survive_plays() -> None:
    game = Game.new(players=2, seed=7, table="medium", goal=40)
    extra = track({}, game)
    first = letters_of(extra, game, 0)
    assert list(first.values()) == ["A", "B", "C", "D", "E"]
    played = game.hands[0][1]  # B leaves the hand
    game.hands[0].remove(played)
    game.hands[0].append(game.pile.pop(0))  # and a card arrives
    extra = track(extra, game)
    now = letters_of(extra, game, 0)
    assert played not in now and all(now[c] == first[c] for c in now if c in first)
    assert now[game.hands[0][-1]] == "F"  # the next letter, never the freed B


async def test_place_by_letter_after_a_play_names_the_same_card(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await start_game(driver, fake, storage, bot)
    record = await record_of(storage)
    game = game_of(record)
    before = letters_of(envelope_of(record).extra, game, 0)
    assert envelope_of(record).extra["letters"][0] == game.hands[0]  # lettered at the start
    await driver.command("conex draw", ALICE)
    await driver.command("conex draw", BOB)
    record = await record_of(storage)
    game = game_of(record)
    letters = letters_of(envelope_of(record).extra, game, 0)
    assert {c: letters[c] for c in before} == before and sorted(letters.values()) == list("ABCDEFG")
    # alice plays her card C wherever it fits; then E still names the card that was E
    c_card = next(c for c, letter in letters.items() if letter == "C")
    e_card = next(c for c, letter in letters.items() if letter == "E")
    fits = next(corner for corner in (1, 2, 3) if game.find_placements(0, c_card, corner, None, limit=1))
    await driver.command("conex place", ALICE, card="C", corner=fits)
    record = await record_of(storage)
    game = game_of(record)
    assert c_card not in game.hands[0]
    after = letters_of(envelope_of(record).extra, game, 0)
    assert after[e_card] == "E" and "C" not in after.values()
    assert list(before) == expected_game().hands[0]  # the deal, in hand order
