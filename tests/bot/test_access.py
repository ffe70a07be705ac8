"""The bot's channel permissions a game needs, named in the reader's language (bot/services/access.py)."""

from __future__ import annotations

import discord

from bot.errors import BotError, describe
from bot.services.access import Perms, missing


def test_missing_flags_in_a_channel_and_a_thread() -> None:
    perms = discord.Permissions(view_channel=True, send_messages=True)
    assert missing(perms, thread=False) == ("attach_files",)
    assert missing(perms, thread=True) == ("send_messages_in_threads", "attach_files")
    assert missing(discord.Permissions.all(), thread=True) == ()


def test_refusal_names_the_permissions_in_english_and_spanish() -> None:
    err = BotError("err.missing_perms", rule="Permissions", perms=Perms(("send_messages", "attach_files")))
    assert "Send Messages and Attach Files" in describe(err, "en-US")
    es = describe(err, discord.Locale.spain_spanish)
    assert "Enviar mensajes y Adjuntar archivos" in es and "Permissions" not in es  # no internal rule names
