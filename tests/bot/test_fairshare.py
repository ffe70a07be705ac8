"""Fair share (issue 15.5): per-user and per-guild cooldowns on expensive requests with a private, localised
"try again in N s", and a bounded queue per guild (at most ``GUILD_SLOTS`` jobs of a guild at once, refusals past
``GUILD_SLOTS + GUILD_QUEUE``). The e2e test ``tests/e2e/test_fair_share.py`` spams hints through the real bot."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from bot.errors import BotError, describe
from bot.services.fairshare import GUILD_QUEUE, GUILD_SLOTS, FairShare


def who(user: int, guild: int = 1) -> SimpleNamespace:
    return SimpleNamespace(user=SimpleNamespace(id=user), guild_id=guild)


def test_a_user_past_the_cooldown_is_told_when_to_come_back_in_their_language() -> None:
    fair = FairShare({"hints": ((2, 10.0), (100, 10.0))})
    fair.check(who(1), "hints")
    fair.check(who(1), "hints")
    with pytest.raises(BotError) as refused:
        fair.check(who(1), "hints")
    assert refused.value.key == "err.cooldown" and 1 <= refused.value.kwargs["seconds"] <= 10
    assert f"{refused.value.kwargs['seconds']} s" in describe(refused.value, "en-US")
    assert "dentro de" in describe(refused.value, "es-ES")
    fair.check(who(2), "hints")  # another user is not held back
    fair.check(who(1, guild=2), "hints")  # nor the same user in another guild
    fair.check(who(1), "board")  # nor another kind of request
    assert fair.refused["cooldown"] == 1


def test_a_guild_has_its_own_budget_whoever_asks() -> None:
    fair = FairShare({"hints": ((5, 10.0), (3, 10.0))})
    for user in (1, 2, 3):
        fair.check(who(user), "hints")
    with pytest.raises(BotError, match="again in"):
        fair.check(who(4), "hints")
    fair.check(who(4, guild=2), "hints")


async def test_one_guild_holds_at_most_its_slots_and_its_queue_is_bounded() -> None:
    fair = FairShare({})  # no cooldowns: only the queue
    release = asyncio.Event()
    running = 0
    peak = 0

    async def job(user: int) -> None:
        nonlocal running, peak
        async with fair.admit(who(user), "hints") as ticket:
            await ticket.turn()
            running += 1
            peak = max(peak, running)
            await release.wait()
            running -= 1

    tasks = [asyncio.create_task(job(u)) for u in range(GUILD_SLOTS + GUILD_QUEUE)]
    await asyncio.sleep(0.01)
    assert running == GUILD_SLOTS
    with pytest.raises(BotError, match="busy"):
        fair.admit(who(99), "hints")
    other = fair.admit(who(99, guild=2), "hints")  # another guild is not behind this one's queue
    async with other:
        await asyncio.wait_for(other.turn(), 1)
    release.set()
    await asyncio.gather(*tasks)
    assert peak == GUILD_SLOTS and fair.refused["busy"] == 1
    async with fair.admit(who(99), "hints") as ticket:  # every place was given back
        await asyncio.wait_for(ticket.turn(), 1)
