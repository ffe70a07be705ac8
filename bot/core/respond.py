"""Answering an interaction, exactly once on every path (the core's helpers; the UI re-exports them).

- :func:`reply` sends the initial response if none was sent yet, else a followup (so a handler that deferred, or an
  error raised after a defer, still answers exactly once more, never twice as an initial response: no
  ``InteractionResponded`` / 40060).
- :func:`png_file` makes a fresh ``discord.File`` from PNG bytes (never reuse a File: its buffer is consumed by the
  first send).
- :func:`defer`, :func:`fill`, :func:`update`, :func:`settle_loading`: deferring, filling the deferred answer,
  editing a component's message, whether or not the first-response guard (``bot.first_response``) already answered.
"""

from __future__ import annotations

import io
import logging
from typing import Any

import discord

from bot.core.paging import clip
from bot.first_response import InteractionGone, is_dead

log = logging.getLogger(__name__)


def png_file(png: bytes, filename: str) -> discord.File:
    """A fresh ``discord.File`` over its own ``BytesIO`` positioned at 0."""
    return discord.File(io.BytesIO(png), filename=filename)


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> discord.Message | None:
    """Answer ``interaction``: the initial response if not yet done, else a followup.

    Returns the followup message (``None`` for an initial response: use
    ``interaction.original_response()`` if its id is needed). Content longer than Discord's 2000
    characters keeps its whole lines that fit, then a line "…" (``bot.core.paging.clip``).
    """
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if content is not None:
        kwargs["content"] = clip(content)  # never cut mid-line (bot.core.paging)
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if allowed_mentions is not None:
        kwargs["allowed_mentions"] = allowed_mentions
    if interaction.extras.get("dead"):
        raise InteractionGone(interaction)
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(**kwargs)
            return None
        except discord.InteractionResponded:  # the first-response guard answered meanwhile
            pass
    await settle_loading(interaction, ephemeral)
    return await interaction.followup.send(wait=True, **kwargs)


def take_public_thinking(interaction: discord.Interaction) -> bool:
    """True when the interaction's first response is a public "thinking" message (by :func:`defer` or the
    first-response guard) that the next edit will fill; the mark is taken (a later followup is a new message)."""
    return bool(interaction.extras.pop("loading", None) == "public")


async def settle_loading(interaction: discord.Interaction, ephemeral: bool) -> bool:
    """Before a followup: a "thinking" response of the other visibility (public thinking, private answer) is
    deleted so the followup is a new message of the right visibility. Returns True when the followup will fill
    the thinking message itself (same visibility)."""
    loading = interaction.extras.pop("loading", None)
    if loading is None:
        return False
    if loading == ("private" if ephemeral else "public"):
        return True
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as err:
        log.info("could not delete the thinking response of %s: %s", interaction.id, err)
    return False


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Defer with "thinking" (private when ``ephemeral``) unless the interaction was answered already (e.g. by the
    first-response guard: then :func:`fill` reconciles the visibility)."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.InteractionResponded:
        return
    interaction.extras["loading"] = "private" if ephemeral else "public"


async def fill(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> None:
    """The answer after :func:`defer`: the thinking message edited in when it has the wanted visibility, else
    (a guard's public thinking and a private answer, or no thinking at all) a :func:`reply`."""
    if interaction.extras.get("loading") == ("private" if ephemeral else "public"):
        interaction.extras.pop("loading")
        kwargs: dict[str, Any] = {"content": content, "attachments": files or []}
        if view is not None:
            kwargs["view"] = view
        if allowed_mentions is not None:
            kwargs["allowed_mentions"] = allowed_mentions
        await interaction.edit_original_response(**kwargs)
        return
    await reply(interaction, content, ephemeral=ephemeral, files=files, view=view, allowed_mentions=allowed_mentions)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component belongs to: the first response, or (already deferred by the guard) an edit of
    the original response, which is that message; if Discord refused the first response (10062), a channel edit
    of that message (not for an ephemeral one: it cannot be reached any more)."""

    try:
        if not interaction.response.is_done():
            try:
                await interaction.response.edit_message(**kwargs)
                return
            except discord.InteractionResponded:
                pass
        await interaction.edit_original_response(**kwargs)
    except (discord.NotFound, InteractionGone):
        message = interaction.message
        if not is_dead(interaction) or message is None or message.flags.ephemeral:
            raise
        # Discord refused the first response (10062): the public message is edited through the channel instead
        log.info("interaction %s is dead; editing message %s through the channel", interaction.id, message.id)
        await message.edit(**kwargs)
