"""A game's place without an interaction (:class:`Place`), for :meth:`bot.services.lobby.Lobby.open`."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True)
class Place:
    """Where a game opens when no interaction asks for it (a quick match its timer pairs,
    ``bot/services/matchqueue.py``): what :meth:`Lobby.open` reads of an interaction (the guild, its text channel,
    the member who opens it: seat 0, checked against the caps). Nothing answers it: the first board goes to the
    channel or the game's new thread. Only for games that start at once (``start=True``)."""

    guild: discord.Guild
    channel: discord.TextChannel | discord.Thread
    user: discord.abc.Snowflake

    @property
    def guild_id(self) -> int:
        return self.guild.id

    @property
    def channel_id(self) -> int:
        return self.channel.id

    @property
    def guild_locale(self) -> discord.Locale:
        return self.guild.preferred_locale

    @property
    def app_permissions(self) -> discord.Permissions:
        return self.channel.permissions_for(self.guild.me)
