"""A player's own language (``/mysettings language:auto|en|es``): every text the bot writes for that player alone.

The bot answers each player in ``interaction.locale`` (their client's language) and writes public messages in the
server's (``interaction.guild_locale``, stamped on the game as ``Envelope.locale`` when it is opened). A player who
chose a language gets it instead of their client's: :meth:`LanguageOverrides.apply` rewrites ``interaction.locale``
as the interaction is parsed (``TableBot.dispatch``, before any handler runs), so every private answer, refusal,
hand and hint follows without a change in the handlers; the client's own locale stays in
``interaction.extras["client_locale"]``. Public messages never read ``interaction.locale`` for their language, so
they keep the server's. Turn-alert DMs read the stored choice themselves (``bot/services/alerts.py``).

The choices live in ``user_prefs.language`` (survive restarts) and in this process's memory (the parse step cannot
wait for storage); the memory is loaded at startup before the gateway connects, again at every READY, and at most
every :data:`REFRESH_S` seconds after an interaction, so a choice made through another process (shards) is followed
within that time.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

log = logging.getLogger(__name__)

AUTO = "auto"
CHOICES: dict[str, discord.Locale] = {"en": discord.Locale.american_english, "es": discord.Locale.spain_spanish}
"""The languages a player may choose, and the Discord locale each stands for."""
REFRESH_S = 60.0
"""Seconds after which an interaction triggers a reload of the choices (other processes' changes)."""
CLIENT_LOCALE = "client_locale"
"""``interaction.extras`` key of the client's own locale (before any override)."""


class LanguageOverrides:
    """``{user id: language}`` of the players who chose one (see the module docstring)."""

    def __init__(self, layer: GameLayer) -> None:
        self.layer = layer
        self.chosen: dict[int, str] = {}
        self.loaded_at = float("-inf")
        self._refresh: asyncio.Task[Any] | None = None
        layer.on_ready_hooks.append(self.load)

    async def load(self) -> None:
        """Every stored choice, from storage."""
        self.loaded_at = time.monotonic()
        stored = await self.layer.storage.language_overrides()
        self.chosen = {user: lang for user, lang in stored.items() if lang in CHOICES}

    def apply(self, interaction: discord.Interaction) -> None:
        """Keep the client's locale in ``interaction.extras`` and set ``interaction.locale`` to the user's chosen
        language, if any. Synchronous (runs in the gateway parser); may start a background reload."""
        interaction.extras.setdefault(CLIENT_LOCALE, interaction.locale)
        lang = self.chosen.get(interaction.user.id)
        if lang is not None:
            interaction.locale = CHOICES[lang]
        if time.monotonic() - self.loaded_at > REFRESH_S and (self._refresh is None or self._refresh.done()):
            self.loaded_at = time.monotonic()  # one reload at a time, even if it fails
            self._refresh = asyncio.get_running_loop().create_task(self.reload(), name="language-reload")

    async def reload(self) -> None:
        """:meth:`load`, logging a failure instead of raising (at startup, before the gateway connects, so the
        first interactions already find the choices; and in the background)."""
        try:
            await self.load()
        except Exception as err:  # storage away: keep what we know, try again later
            log.info("could not reload the players' languages: %s", err)

    def chosen_by(self, user_id: int) -> str:
        """``"en"``, ``"es"`` or :data:`AUTO` (the client's language)."""
        return self.chosen.get(user_id, AUTO)

    async def choose(self, interaction: discord.Interaction, language: str) -> None:
        """Store ``interaction.user``'s choice (:data:`AUTO` forgets it) and apply it to ``interaction`` at once, so
        the answer is already in the chosen language. Raises ``ValueError`` for another language."""
        if language != AUTO and language not in CHOICES:
            raise ValueError(f"unknown language {language!r}")
        user_id = interaction.user.id
        await self.layer.storage.set_prefs(user_id, language=None if language == AUTO else language)
        if language == AUTO:
            self.chosen.pop(user_id, None)
            interaction.locale = interaction.extras.get(CLIENT_LOCALE, interaction.locale)
        else:
            self.chosen[user_id] = language
            interaction.locale = CHOICES[language]
