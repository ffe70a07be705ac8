"""How a board answers the interaction that asked for it (the publisher's first-response choice, ``publish.py``):
the board itself as the first response when drawn in time, else a "thinking" deferral filled later; and the answers
owed when the board had to go to the channel instead."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.core.respond import defer, take_public_thinking
from bot.first_response import InteractionGone, is_dead, token_age
from bot.i18n import t

log = logging.getLogger(__name__)

DIRECT_ANSWER_S = 1.0
"""Seconds after an interaction's creation until which its board, once drawn, is its first response (a callback
carrying the file); a board drawn later is preceded by a "thinking" deferral. Well inside the first-response
guard's 2.2 s (``bot.first_response``), which still answers when the drawing takes longer than that, and at
once while the process is loaded."""


async def answer_or_defer(
    interaction: discord.Interaction, drawing: asyncio.Future[Any]
) -> tuple[discord.Interaction | None, bool]:
    """The board itself is the interaction's first response when it is drawn within :data:`DIRECT_ANSWER_S`
    of the interaction's creation (one request fewer than a "thinking" deferral and its edit); past that, a
    deferral (thinking) first, the board edited in when drawn. Returns the interaction to answer (``None``:
    the deferral was refused, e.g. 10062, the board goes to the channel) and whether it was deferred. An
    interaction the first-response guard answered already is returned as it is: its public "thinking" (deferred)
    takes the board."""
    if interaction.response.is_done():
        return interaction, take_public_thinking(interaction)
    left = DIRECT_ANSWER_S - token_age(interaction)
    if left > 0:
        done, _ = await asyncio.wait({drawing}, timeout=left)
        if interaction.response.is_done():  # the first-response guard answered meanwhile
            return interaction, take_public_thinking(interaction)
        if done:
            return interaction, False
    try:
        await defer(interaction)
        return interaction, take_public_thinking(interaction)
    except (discord.HTTPException, InteractionGone) as err:  # e.g. 10062: post to the channel
        log.info("could not defer interaction %s (%s); posting to the channel", interaction.id, err)
        return None, False


async def point_to_board(interaction: discord.Interaction, locale: str | None) -> None:
    """An interaction whose board went to the channel because its own answer was refused, and that has no
    first response yet: a component's click is acknowledged without a message (the board shows it), a command
    is told privately that its action was saved and where the board is; never "This interaction failed"."""
    if interaction.response.is_done() or is_dead(interaction):
        return
    try:
        if interaction.type == discord.InteractionType.application_command:
            await interaction.response.send_message(t("pub.board_in_channel", locale), ephemeral=True)
        else:
            await interaction.response.defer()
    except (discord.HTTPException, discord.InteractionResponded, InteractionGone) as err:
        log.info("could not answer interaction %s after posting its board to the channel: %s", interaction.id, err)


async def drop_thinking(interaction: discord.Interaction) -> None:
    """Remove the interaction's "thinking" message the board could not fill (the board is in the channel)."""
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as err:
        log.info("could not remove the thinking message of interaction %s: %s", interaction.id, err)
