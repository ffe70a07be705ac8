"""Components a client forged or kept from another time (issue 22, "Limits per player": forged payloads).

Discord's own client only sends the custom ids and select values the bot put on a message; a modified client can
send anything. Every component interaction therefore gets a private, clear answer and changes nothing:

- :func:`harden` wraps each registered ``DynamicItem``'s ``from_custom_id`` (``TableBot.add_dynamic_items``): an id
  or number outside what storage and the engines take (an integer id of 2^63 or more, a coordinate that is not
  finite or beyond :data:`MAX_COORDINATE`), or any exception while parsing, yields a :class:`Forged` item whose
  callback answers ``err.forged_component`` privately; discord.py would otherwise log a traceback and answer
  nothing.
- :func:`screen` (``TableBot.dispatch``, as the interaction is parsed) answers ``err.unknown_component`` privately
  for a component whose custom id matches none of the bot's templates, or that the clicked message does not carry
  (discord.py drops both silently, and the player would see "This interaction failed").

Select values that were not offered are each item's own business (its callback parses them and refuses).
"""

from __future__ import annotations

import logging
import math
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.ui.common import refuse

if TYPE_CHECKING:
    from bot.core.host import Host

log = logging.getLogger(__name__)

MAX_ID = 2**63 - 1
"""The largest integer storage takes (a signed 64-bit column): ids, versions, pages, cards, corners."""
MAX_COORDINATE = 1e9
"""Larger coordinates (cm) or rotations (degrees) in a custom id are forged (tables are a few metres wide)."""

_INT = re.compile(r"-?[0-9]+")
_FLOAT = re.compile(r"-?[0-9]+\.[0-9]+")


def out_of_range(match: re.Match[str]) -> str | None:
    """The first group of a template match that no genuine custom id carries (an integer beyond :data:`MAX_ID`,
    a decimal that is not finite or beyond :data:`MAX_COORDINATE`), as ``"name=value"``; ``None`` when all fit."""
    for name, value in match.groupdict().items():
        if value is None:
            continue
        if _INT.fullmatch(value) and abs(int(value)) > MAX_ID:
            return f"{name}={value[:30]}"
        if _FLOAT.fullmatch(value):
            number = float(value)
            if not math.isfinite(number) or abs(number) > MAX_COORDINATE:
                return f"{name}={value[:30]}"
    return None


class Forged(discord.ui.DynamicItem[discord.ui.Item[Any]], template=r"(?s).*"):
    """Stands in for a component whose custom id could not be taken (see :func:`harden`): its callback refuses
    privately (``err.forged_component``) and changes nothing. Never registered (its template takes any id only so
    that it can wrap the clicked component)."""

    def __init__(self, item: discord.ui.Item[Any], why: str) -> None:
        super().__init__(item)
        self.why = why

    async def callback(self, interaction: discord.Interaction) -> None:
        log.info(
            "component %r of user %s refused (forged: %s)",
            getattr(self.item, "custom_id", None),
            interaction.user.id,
            self.why,
        )
        await refuse(interaction, BotError("err.forged_component"))


def harden(cls: type[discord.ui.DynamicItem[Any]]) -> type[discord.ui.DynamicItem[Any]]:
    """Wrap ``cls.from_custom_id`` (once per class) so that a custom id out of range or failing to parse gives a
    :class:`Forged` item instead of an exception. Returns ``cls``."""
    if cls.__dict__.get("_hardened"):
        return cls
    original = cls.from_custom_id.__func__  # type: ignore[attr-defined]

    async def from_custom_id(
        klass: Any, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Any:
        bad = out_of_range(match)
        if bad is not None:
            return Forged(item, bad)
        try:
            return await original(klass, interaction, item, match)
        except Exception as err:  # a value the template lets through but the item cannot take
            return Forged(item, f"{type(err).__name__}: {str(err)[:80]}")

    cls.from_custom_id = classmethod(from_custom_id)  # type: ignore[method-assign,assignment]
    cls._hardened = True  # type: ignore[attr-defined]
    return cls


def _carried(message: discord.Message | None, custom_id: str) -> bool:
    if message is None:
        return False
    for row in message.components:
        for child in getattr(row, "children", [row]):
            if getattr(child, "custom_id", None) == custom_id:
                return True
    return False


def screen(bot: Host, interaction: discord.Interaction) -> bool:
    """For a component interaction whose custom id no registered template matches, or that its message does not
    carry: answer privately ``err.unknown_component`` (in a task) and return True. Otherwise False (discord.py's
    dispatch handles it). Other interaction types: False."""
    if interaction.type != discord.InteractionType.component:
        return False
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    custom_id = str(data.get("custom_id", ""))
    items = getattr(bot, "dynamic_classes", ())
    known = any(c.__discord_ui_compiled_template__.fullmatch(custom_id) for c in items)  # type: ignore[attr-defined]
    if known and _carried(interaction.message, custom_id):
        return False
    if bot.persistent_views and any(
        getattr(i, "custom_id", None) == custom_id for v in bot.persistent_views for i in v.children
    ):
        return False
    log.info(
        "component %r of user %s refused: %s",
        custom_id[:100],
        interaction.user.id,
        "not on its message" if known else "unknown custom id",
    )
    bot.spawn(refuse(interaction, BotError("err.unknown_component")), name=f"unknown-component-{interaction.id}")
    return True
