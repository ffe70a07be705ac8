"""Where a game's messages may go (``bot/services/reach.py``): decided from the opening interaction, stored with
the game, and the followups that may carry a message where the bot is no member (Discord: 5 per interaction of
a user install alone, 15-minute tokens)."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from discord.app_commands import AppCommandContext

from bot.services import reach
from bot.services.answered import Answered


def interaction(*, context: AppCommandContext, guild_id: int | None = None, guild_install: bool = False) -> Any:
    return SimpleNamespace(context=context, guild_id=guild_id, is_guild_integration=lambda: guild_install)


def test_reach_of_the_opening_interaction() -> None:
    """DMs and group DMs between users, and a guild that did not install the bot: interactions only; a guild's
    own install and the bot's DM: the channel."""
    assert reach.of_interaction(interaction(context=AppCommandContext(private_channel=True))) == reach.INTERACTIONS
    foreign = interaction(context=AppCommandContext(guild=True), guild_id=42, guild_install=False)
    assert reach.of_interaction(foreign) == reach.INTERACTIONS
    home = interaction(context=AppCommandContext(guild=True), guild_id=42, guild_install=True)
    assert reach.of_interaction(home) == reach.CHANNEL
    assert reach.of_interaction(interaction(context=AppCommandContext(dm_channel=True))) == reach.CHANNEL
    assert reach.of_interaction(interaction(context=AppCommandContext())) == reach.CHANNEL  # no "context": old


def test_reach_is_stored_in_the_envelope() -> None:
    def record(extra: dict[str, Any]) -> Any:
        return SimpleNamespace(state={"extra": extra})

    marked = reach.marked({"footprint": {"parent": 1}}, reach.INTERACTIONS)
    assert marked == {"footprint": {"parent": 1}, "reach": "interactions"}
    assert reach.interactions_only(record(marked))
    assert reach.marked({}, reach.CHANNEL) == {} and not reach.interactions_only(record({}))
    assert not reach.interactions_only(SimpleNamespace(state={}))


def answered(n: int, *, age_s: float = 0.0, followups: int = 0) -> Answered:
    it = SimpleNamespace(id=n, channel_id=7, followup=None, extras={"born": time.monotonic() - age_s})
    a = Answered.of(it)  # type: ignore[arg-type]
    a.followups = followups
    return a


class Refused(discord.HTTPException):
    def __init__(self, code: int) -> None:
        self.code, self.status, self.text = code, 400, "refused"


async def test_carry_skips_stale_full_and_refused_interactions() -> None:
    sent: list[int] = []
    resets: list[int] = []

    async def followup(other: Answered) -> Any:
        if other.id == 4:
            raise Refused(reach.FOLLOWUP_LIMIT_CODE)
        sent.append(other.id)
        return other.id

    stale, full, refused, fresh = (
        answered(1, age_s=15 * 60),
        answered(2, followups=reach.FOLLOWUP_LIMIT),
        answered(4),
        answered(5),
    )
    got = await reach.carry(9, [None, stale, full, refused, refused, fresh], followup, lambda: resets.append(1))
    assert got == 5 and sent == [5] and resets == [1]
    assert refused.followups == reach.FOLLOWUP_LIMIT, "a 40094 marks the interaction full"
    with pytest.raises(reach.Unreachable):
        await reach.carry(9, [stale, full, refused], followup, lambda: None)
