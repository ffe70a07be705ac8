"""What players read never shows the program's own names (issue 14): a batch of bad commands and clicks in both
games, in English and Spanish, and every refusal is scanned for exception and rule-class names (CamelCase words),
internal codes in bold, move notation quoted back at the player, ``-0.0``, ``card(s)`` and Python reprs."""

from __future__ import annotations

import re

import pytest

from bot.app import TableBot
from bot.storage import Storage
from tests.bot.conftest import Driver, refusal, start
from tests.bot.fakediscord import FakeDiscord
from tests.bot.test_conex_cog import ALICE, BOB, CAROL, start_game

LEAKS = [
    re.compile(r"\b[A-Z][a-z]+[A-Z][A-Za-z]*\b"),  # NotYourTurn, VersionConflict, InvalidInputError...
    re.compile(r"\*\*(?![A-Z][0-9]{1,2}\*\*)[^*]+\*\* —"),  # a bold code that is not a rulebook code
    re.compile(r"'[SML][0-9]+'|'[0-9]+-[0-9]+'"),  # notation quoted back: 'L10', '4-5'
    re.compile(r"-0\.0\b|\(s\)|\bNone\b|Traceback|Error\b|<[a-z_.]+ object"),
]


def clean(text: str) -> str:
    for pattern in LEAKS:
        assert not pattern.search(text), f"{pattern.pattern!r} in {text!r}"
    return text


@pytest.mark.parametrize("locale", ["en-US", "es-ES", "es-419"])
async def test_constructo_refusals_name_nothing_internal(
    driver: Driver, fake: FakeDiscord, storage: Storage, locale: str
) -> None:
    game = await start(driver, fake, storage)
    tries = [
        ("constructo place", BOB, {"tile": 5, "size": "large"}),  # not your turn
        ("constructo place", ALICE, {"tile": 10, "size": "large"}),
        ("constructo place", ALICE, {"tile": 3, "size": "huge"}),
        ("constructo move", ALICE, {"from": 0, "to": -3}),
        ("constructo move", ALICE, {"from": 4, "to": 5}),  # nothing to move
        ("constructo choose", ALICE, {"layout": "flor"}),  # round 1 is not over
        ("constructo place", CAROL, {"tile": 1, "size": "small"}),  # not a player
    ]
    for command, uid, options in tries:
        clean(refusal(fake, await driver.command(command, uid, locale=locale, **options)))
    await driver.command("constructo place", ALICE, tile=5, size="large")
    await driver.command("constructo place", BOB, tile=4, size="small")
    await driver.command("constructo place", ALICE, tile=1, size="large")
    for options in ({"from": 4, "to": 5}, {"from": 4, "to": 9}, {"from": 1, "to": 4}):
        clean(refusal(fake, await driver.command("constructo move", BOB, locale=locale, **options)))
    assert game


@pytest.mark.parametrize("locale", ["en-US", "es-ES"])
async def test_conex_refusals_name_nothing_internal(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, locale: str
) -> None:
    await start_game(driver, fake, storage, bot)
    tries = [
        ("conex draw", BOB, {}),
        ("conex pass", ALICE, {}),
        ("conex discard", ALICE, {"card": "A"}),
        ("conex lightning", ALICE, {"card": 3}),
        ("conex place", ALICE, {"card": "zebra", "corner": 1}),
        ("conex place", ALICE, {"card": "Q", "corner": 1}),
        ("conex place", ALICE, {"card": "A", "corner": 1, "x": 0.0, "y": 0.0, "rotation": 0.0}),
        ("conex place", ALICE, {"card": "A", "corner": 1, "x": 49.0, "y": 34.0, "rotation": 0.0}),
        ("conex place", ALICE, {"card": "A", "corner": 1, "target": "31"}),
        ("conex place", ALICE, {"card": "A", "corner": 1, "x": 0.0, "y": 0.0, "double": True}),
        ("conex board", BOB, {"zoom": "51"}),
        ("conex place", CAROL, {"card": "A", "corner": 1}),
    ]
    for command, uid, options in tries:
        clean(refusal(fake, await driver.command(command, uid, locale=locale, **options)))
