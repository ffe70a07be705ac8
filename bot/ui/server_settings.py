"""``/settings`` (Manage Server), its shown text and its house-rule options (:mod:`bot.services.house`), and the
confirmation of **reset_ratings**: a private prompt stating how many players lose their rating, with **Reset the
ratings** (``sr:ok:<kind>``, danger) and **Cancel** (``sr:no:<kind>``). Both buttons re-check Manage Server on
click; the reset counts the players again when it runs (the number said afterwards is the true one).
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core.names import plain
from bot.errors import BotError
from bot.i18n import t, tn
from bot.services import caps, footprint, house
from bot.storage.ratings import DISPLAY_ALPHA, DISPLAY_TARGET
from bot.ui.common import games, reply, report_errors, update

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

SHOWN = 20
"""Channels or blocked members listed by ``/settings`` (more are counted: the answer stays within 2,000
characters)."""
START_RATING = round(DISPLAY_ALPHA * 25 + DISPLAY_TARGET)
"""The rating a player starts again from (a newcomer's shown rating)."""


def _listed(items: Sequence[str]) -> str:
    head = ", ".join(items[:SHOWN])
    return f"{head} (+{len(items) - SHOWN})" if len(items) > SHOWN else head


def describe(layer: GameLayer, settings: dict[str, Any], loc: Any) -> str:
    """Every setting in force, one line each, in ``loc``'s language (within 2,000 characters)."""
    preset = clocks.preset_of(None, settings)
    lines = [
        t(
            "settings.show",
            loc,
            clock=f"`{preset}` ({t(f'clk.preset_{preset}', loc)})",
            minutes=clocks.expiry_minutes(settings),
        ),
    ]
    caps_now = caps.limits(settings, caps.operator_caps(layer))
    lines.append(
        t(
            "settings.caps",
            loc,
            member=caps_now[caps.SETTING_MEMBER],
            server=caps_now[caps.SETTING_SERVER],
            threads=caps_now[caps.SETTING_THREADS],
        )
    )
    own = footprint.enabled(settings, footprint.operator_default(layer))
    lines.append(t("settings.thread_per_game", loc, value=t("settings.on" if own else "settings.off", loc)))
    allowed = house.channels(settings)
    lines.append(
        t("house.show_channels", loc, channels=_listed([f"<#{c}>" for c in allowed]))
        if allowed
        else t("house.show_anywhere", loc)
    )
    off = set(house.games_off(settings))
    on_titles = [k.title for name, k in layer.kinds.items() if name not in off]
    off_titles = [k.title for name, k in layer.kinds.items() if name in off]
    lines.append(t("house.show_games", loc, on=", ".join(on_titles) or "—", off=", ".join(off_titles) or "—"))
    rated = t("house.rated_on" if house.rated(settings) else "house.rated_off", loc)
    lines.append(t("house.show_rated", loc, value=rated))
    barred = house.blocked(settings)
    lines.append(
        t("house.show_blocked", loc, users=_listed([f"<@{u}>" for u in barred]))
        if barred
        else t("house.show_blocked_none", loc)
    )
    return "\n".join(lines)[:2000]


def house_changes(
    layer: GameLayer,
    before: dict[str, Any],
    options: house.HouseOptions,
) -> dict[str, Any]:
    """The guild-setting changes (``Storage.set_guild_settings``; ``None`` deletes a setting) of ``/settings``'s
    house-rule options over the settings ``before``. Raises ``BotError``: ``err.no_such_kind`` (an unknown game),
    ``house.too_many_channels`` / ``house.too_many_blocked`` (over :data:`house.MAX_CHANNELS` /
    :data:`house.MAX_BLOCKED`), ``house.block_bot`` (the bot itself)."""
    changes: dict[str, Any] = {}
    for name in (options.game_on, options.game_off):
        if name is not None and name not in layer.kinds:
            raise BotError("err.no_such_kind", game=plain(str(name)[:40]))
    allowed: list[int] = [] if options.any_channel else house.channels(before)
    if options.allow_channel is not None:
        allowed = house.added(allowed, options.allow_channel)
        if len(allowed) > house.MAX_CHANNELS:
            raise BotError("house.too_many_channels", max=house.MAX_CHANNELS)
    if options.remove_channel is not None:
        allowed = house.removed(allowed, options.remove_channel) or []
    if options.any_channel or options.allow_channel is not None or options.remove_channel is not None:
        changes[house.SETTING_CHANNELS] = allowed or None
    if options.game_on is not None or options.game_off is not None:
        off = house.games_off(before)
        if options.game_on is not None:
            off = house.removed(off, options.game_on) or []
        if options.game_off is not None:
            off = house.added(off, options.game_off)
        changes[house.SETTING_OFF] = off or None
    if options.rated is not None:
        changes[house.SETTING_RATED] = None if options.rated else False  # on is the default: nothing stored
    if options.block is not None or options.unblock is not None:
        barred = house.blocked(before)
        if options.block is not None:
            if options.block == layer.bot_user_id:
                raise BotError("house.block_bot")
            barred = house.added(barred, options.block)
            if len(barred) > house.MAX_BLOCKED:
                raise BotError("house.too_many_blocked", max=house.MAX_BLOCKED)
        if options.unblock is not None:
            barred = house.removed(barred, options.unblock) or []
        changes[house.SETTING_BLOCKED] = barred or None
    return changes


def _check(interaction: discord.Interaction) -> None:
    if not interaction.permissions.manage_guild:
        raise BotError("err.forbidden")


async def ask_reset(interaction: discord.Interaction, kind: str, head: str = "") -> None:
    """The private prompt of ``/settings reset_ratings:<kind>``: how many players would lose their rating, with
    **Reset the ratings** and **Cancel**; without rated players, only that sentence. ``head``: a line before it
    (the other options' "Saved.")."""
    _check(interaction)
    layer = games(interaction)
    registered = layer.kinds.get(kind)
    if registered is None:
        raise BotError("err.no_such_kind", game=plain(str(kind)[:40]))
    loc = interaction.locale
    n = await layer.storage.rated_players(interaction.guild_id or 0, kind)
    prefix = f"{head}\n" if head else ""
    if n == 0:
        await reply(interaction, prefix + t("house.reset_none", loc, game=registered.title), ephemeral=True)
        return
    view = discord.ui.View(timeout=None)
    view.add_item(ResetConfirmButton(kind, locale=loc.value))
    view.add_item(ResetCancelButton(kind, locale=loc.value))
    text = tn("house.reset_ask", n, loc, game=registered.title, start=START_RATING)
    await reply(interaction, prefix + text, ephemeral=True, view=view)


class FirstAnswers:
    """Prompts (message ids) of this bot whose first answer was taken: a second click on its way meanwhile (a double
    click, Confirm then Cancel) is refused and never rewrites what the first one said. Bounded (``limit`` ids, the
    oldest forgotten first); a restart needs none (the answered prompt lost its buttons). One per game layer
    (``layer.first_answers``, set by ``bot.wiring``)."""

    def __init__(self, limit: int = 1024) -> None:
        self._taken: OrderedDict[int, None] = OrderedDict()
        self.limit = limit

    def take(self, message_id: int) -> None:
        """Take ``message_id``'s one answer, or raise ``BotError("house.reset_answered")`` (no await: of two
        clicks exactly one passes)."""
        if message_id in self._taken:
            raise BotError("house.reset_answered")
        self._taken[message_id] = None
        while len(self._taken) > self.limit:
            self._taken.popitem(last=False)


def _first_answer(interaction: discord.Interaction) -> None:
    """Take the prompt's one answer (see :class:`FirstAnswers`), checked and taken before any await."""
    message = interaction.message
    if message is not None:
        games(interaction).first_answers.take(message.id)


async def reset(interaction: discord.Interaction, kind: str) -> None:
    """**Reset the ratings** clicked: the guild's ratings of ``kind`` are forgotten; the prompt says how many."""
    _check(interaction)
    layer = games(interaction)
    registered = layer.kinds.get(kind)
    if registered is None:
        raise BotError("err.no_such_kind", game=plain(str(kind)[:40]))
    _first_answer(interaction)
    n = await layer.storage.reset_ratings(interaction.guild_id or 0, kind)
    loc = interaction.locale
    text = tn("house.reset_done", n, loc, game=registered.title, start=START_RATING)
    await update(interaction, content=text, view=None)


async def cancel(interaction: discord.Interaction) -> None:
    """**Cancel** clicked: nothing changes; the prompt says so and loses its buttons."""
    _check(interaction)
    _first_answer(interaction)
    await update(interaction, content=t("house.reset_cancelled", interaction.locale), view=None)


class _KindButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!x)x"):
    verb = ""
    label_key = ""
    style = discord.ButtonStyle.secondary

    def __init__(self, kind: str, *, locale: str | None = None) -> None:
        self.kind = kind
        super().__init__(
            discord.ui.Button(label=t(self.label_key, locale), style=self.style, custom_id=f"sr:{self.verb}:{kind}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> _KindButton:
        return cls(match["kind"])


class ResetConfirmButton(_KindButton, template=r"sr:ok:(?P<kind>[a-z0-9_]{1,32})"):
    """Reset the ratings (``sr:ok:<kind>``)."""

    verb, label_key, style = "ok", "house.reset_button", discord.ButtonStyle.danger

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: reset(interaction, self.kind))


class ResetCancelButton(_KindButton, template=r"sr:no:(?P<kind>[a-z0-9_]{1,32})"):
    """Cancel (``sr:no:<kind>``)."""

    verb, label_key = "no", "house.cancel_button"

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: cancel(interaction))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ResetConfirmButton, ResetCancelButton)
