"""An action decided on a read of the game commits only while the game is still at the version it was decided on.

A move stored between the read and the commit (another interaction, the AI, a clock) voids what was decided: the
last agreement to abort aborts nothing once a move landed meanwhile (the clicker is told the offer no longer
stands; a ``/abandon`` is counted again on the game as it now stands), and an admin's abort confirmed while the
game started with the admin seated is refused as a seated admin's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.app import TableBot
from bot.storage import Storage
from bot.ui import mutual
from engine.constructo import Match
from tests.bot.conftest import Driver, refusal, start
from tests.bot.fakediscord import FakeDiscord

ALICE, BOB = 1, 2


def a_move_lands_before_the_agreement_lock(bot: TableBot, game: int, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Alice's move is committed after the agreement read the game and before it takes the agreement's lock."""
    original = mutual.agreement
    played: list[str] = []

    @asynccontextmanager
    async def move_first(storage: Any, what: str, game_id: int) -> AsyncIterator[Any]:
        if not played:
            snap = await bot.games.load(game)
            match = snap.state
            assert isinstance(match, Match)
            move = sorted(str(m) for m in match.current_round.legal_moves())[0]
            await bot.games.act(game, ALICE, move)
            played.append(move)
        async with original(storage, what, game_id) as deal:
            yield deal

    monkeypatch.setattr(mutual, "agreement", move_first)
    return played


async def test_the_last_agreement_after_a_move_meanwhile_aborts_nothing_and_says_why(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(driver, fake, storage)
    offer = fake.originals[await driver.command("abandon", ALICE)]
    played = a_move_lands_before_the_agreement_lock(bot, game, monkeypatch)
    text = refusal(fake, await driver.click(offer, f"ma:ok:{game}", BOB))
    after = await storage.get_game(game)
    assert played and after is not None and after.status == "active" and after.version == 2, "the move stands"
    assert "no longer stands" in text, text


async def test_an_abandon_after_a_move_meanwhile_is_a_new_offer_on_the_game_as_it_stands(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start(driver, fake, storage)
    await driver.command("abandon", ALICE)
    played = a_move_lands_before_the_agreement_lock(bot, game, monkeypatch)
    token = await driver.command("abandon", BOB)
    after = await storage.get_game(game)
    assert played and after is not None and after.status == "active" and after.version == 2, "the move stands"
    assert "1/2" in fake.visible_text(token), fake.visible_text(token)


async def test_an_admin_abort_decided_before_the_game_started_is_an_offer_once_the_admin_is_seated(
    bot: TableBot, driver: Driver, fake: FakeDiscord, storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/abort read the channel's game while it was a challenge; it started meanwhile with the admin seated."""
    game = await start(driver, fake, storage)
    started = await storage.get_game(game)
    assert started is not None
    read_earlier = dataclasses.replace(started, status="lobby", version=0)

    async def as_read_before_it_started(_channel_id: int) -> Any:
        return read_earlier

    monkeypatch.setattr(bot.storage, "active_game_in_channel", as_read_before_it_started)
    token = await driver.command("abort", ALICE, admin=True)
    after = await storage.get_game(game)
    assert after is not None and after.status == "active" and after.version == started.version, "not aborted"
    text = fake.visible_text(token)
    assert "need the other players' consent" in text and "1/2" in text, text
