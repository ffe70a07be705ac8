"""A place is no loss (trial, issue "2nd place reported as a loss"): a CONEX 2nd of 4 against the AI reads as a
place in ``/stats`` and in ``/replay``'s suggestions, in the words ``/history`` uses (one function:
``bot.ui.history.outcome_text``), in English and Spanish. Games of two keep win / loss."""

from __future__ import annotations

from itertools import count
from typing import Any

import pytest

from bot.storage import Storage
from tests.bot.conftest import Driver
from tests.bot.fakediscord import GUILD_ID, FakeDiscord
from tests.bot.test_constructo_cog import ALICE, BOB, CAROL

_channels = count(9100)


async def finished(storage: Storage, kind: str, seats: list[int], ranking: list[list[int]], ai: list[int]) -> int:
    """A finished game of ``kind`` stored with its result (``ai``: the AI seats: never rated)."""
    gid = await storage.create_game(kind, GUILD_ID, next(_channels), {"options": {}}, seats, status="active")
    result: dict[str, Any] = {"ranking": ranking, "rated": not ai}
    if ai:
        result["ai"] = ai
    await storage.apply_action(gid, 0, {"options": {}}, player=seats[0], action="end", result=result)
    return gid


@pytest.mark.parametrize(
    ("locale", "second", "shared", "loss", "vs_ai"),
    [
        ("en-US", "2nd of 4", "2nd (shared) of 4", "loss", "against the AI (not rated): places: 2nd ×2"),
        ("es-ES", "2.º de 4", "2.º (compartido) de 4", "derrota", "contra la IA (sin puntuar): puestos: 2.º ×2"),
    ],
)
async def test_a_conex_second_place_reads_as_a_place_in_stats_and_replay(
    driver: Driver, fake: FakeDiscord, storage: Storage, locale: str, second: str, shared: str, loss: str, vs_ai: str
) -> None:
    alone = await finished(storage, "conex", [ALICE, -1, -2, -3], [[-1], [ALICE], [-2], [-3]], [-1, -2, -3])
    tied = await finished(storage, "conex", [ALICE, -1, -2, -3], [[-1], [ALICE, -2], [-3]], [-1, -2, -3])
    duel = await finished(storage, "constructo", [ALICE, BOB], [[BOB], [ALICE]], [])
    choices = {
        c["value"]: c["name"] for c in await driver.autocomplete("replay", ALICE, "game", locale=locale, game="")
    }
    assert f" · {second} · " in choices[alone], choices
    assert f" · {shared} · " in choices[tied], choices
    assert f" · {loss} · " in choices[duel], choices  # a game of two: a loss is a loss
    history = fake.visible_text(await driver.command("history", ALICE, locale=locale))
    assert second in history and shared in history, history
    stats = fake.visible_text(await driver.command("stats", ALICE, locale=locale))
    assert f"  {vs_ai}" in stats.splitlines(), stats  # two 2nd places (one shared), counted as places


async def test_stats_against_the_ai_keep_wins_and_losses_for_a_game_of_two(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    await finished(storage, "constructo", [ALICE, -1], [[-1], [ALICE]], [-1])
    stats = fake.visible_text(await driver.command("stats", ALICE))
    assert "against the AI (not rated): 0W 1L 0D" in stats, stats


async def test_stats_against_an_opponent_in_a_game_of_places_say_ahead_or_behind(
    driver: Driver, fake: FakeDiscord, storage: Storage
) -> None:
    """Alice 2nd and Bob 3rd of 3: both "lost" by W/L, but Alice finished ahead of Bob."""
    await finished(storage, "conex", [ALICE, BOB, CAROL], [[CAROL], [ALICE], [BOB]], [])
    text = fake.visible_text(await driver.command("stats", ALICE, opponent=BOB))
    assert "  against bob: ahead of them 1 · behind 0 · level 0" in text.splitlines(), text
    text = fake.visible_text(await driver.command("stats", BOB, opponent=ALICE, locale="es-ES"))
    assert "  contra alice: por delante 0 · por detrás 1 · empatados 0" in text.splitlines(), text
