"""What is kept of an interaction the bot answered (:class:`Answered`): enough to follow up and edit its messages
while its token is fresh (15 minutes), not the whole ``discord.Interaction`` (its member, message and locks)."""

from __future__ import annotations

from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.first_response import born

UNSET: Any = object()
"""A keyword left out (``None`` means "remove")."""


class Answered:
    """What is kept of an interaction the bot answered, for as long as its token is fresh: ``id`` (its snowflake),
    ``channel_id``, ``followup`` (the interaction's webhook: followups and edits of its messages), ``token`` and
    ``extras`` (only ``"born"``: its creation on the monotonic clock, so :func:`~bot.first_response.token_fresh`
    and :func:`~bot.first_response.is_dead` read it as they read the interaction). One per interaction
    (:meth:`of`)."""

    __slots__ = ("channel_id", "extras", "filesize_limit", "followup", "followups", "id")

    def __init__(self, interaction: discord.Interaction) -> None:
        self.id = interaction.id
        self.channel_id = interaction.channel_id
        self.followup: discord.Webhook = interaction.followup
        self.extras: dict[str, Any] = {"born": born(interaction)}
        limit = getattr(interaction, "filesize_limit", None)
        self.filesize_limit: int | None = limit if isinstance(limit, int) else None
        """Bytes a file may have in this interaction's answers (``bot.services.refusals.interaction_limit``)."""
        self.followups = 0
        """Followup messages this process created through it (Discord caps them at 5 for a user install alone:
        ``bot.services.reach``)."""

    @classmethod
    def of(cls, interaction: discord.Interaction | Answered) -> Answered:
        """The :class:`Answered` of ``interaction`` (the same object for every message it sent)."""
        if isinstance(interaction, Answered):
            return interaction
        found = interaction.extras.get("answered")
        if not isinstance(found, Answered):
            found = interaction.extras["answered"] = cls(interaction)
        return found

    @property
    def token(self) -> str:
        return str(self.followup.token)

    async def edit_original_response(
        self, *, content: str | None = UNSET, view: Any = UNSET, allowed_mentions: Any = None
    ) -> None:
        """Edit the interaction's original response: the request discord.py's
        ``Interaction.edit_original_response`` sends (``PATCH /webhooks/{app}/{token}/messages/@original``), made
        through the same webhook adapter. Raises ``discord.HTTPException``."""
        hook = self.followup
        state = getattr(hook, "_state", None)
        with handle_message_parameters(
            content=discord.utils.MISSING if content is UNSET else content,
            view=discord.utils.MISSING if view is UNSET else view,
            allowed_mentions=allowed_mentions,
            previous_allowed_mentions=getattr(state, "allowed_mentions", None),
        ) as params:
            data = await async_context.get().edit_original_interaction_response(
                hook.id,
                self.token,
                session=hook.session,
                proxy=hook.proxy,
                proxy_auth=hook.proxy_auth,
                payload=params.payload,
                multipart=params.multipart,
                files=params.files,
            )
        if view and view is not UNSET and not view.is_finished() and view.is_dispatchable() and state is not None:
            state.store_view(view, int(data["id"]))  # as discord.py does for the components' callbacks

    async def delete_original_response(self) -> None:
        """Delete the interaction's original response (``DELETE /webhooks/{app}/{token}/messages/@original``, as
        discord.py's ``Interaction.delete_original_response``). Raises ``discord.HTTPException``."""
        hook = self.followup
        await async_context.get().delete_original_interaction_response(
            hook.id, self.token, session=hook.session, proxy=hook.proxy, proxy_auth=hook.proxy_auth
        )
