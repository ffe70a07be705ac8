"""The admins' ``/games`` (Manage Server, issue 12): the guild's open games, each with its channel, players, whose
turn it is and since when (Discord timestamps: every client shows them in its own time), and an **Abort #id**
button per game (``ga:ab:<game>``) that asks for a confirmation (``ga:ok:<game>``) before ending the game
without a result (never rated; its messages stripped; its channel told who ended it).

Everything is answered privately to the admin; the permission is checked again on every click.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.errors import BotError
from bot.games.mutual import abort_note, needs_consent
from bot.i18n import t
from bot.views.common import GameButton, games, reply, update

if TYPE_CHECKING:
    from bot.games.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

MAX_LISTED = 20
"""Games listed (and abort buttons: 4 rows of 5); the rest are counted."""


def _check(interaction: discord.Interaction) -> None:
    if not interaction.permissions.manage_guild:
        raise BotError("err.forbidden")


def _seat(record: GameRecord, layer: GameLayer, seat: int) -> str:
    env = layer.envelope(record)
    if seat < len(env.seats) and env.seats[seat].ai is not None:
        return env.seats[seat].name
    return f"<@{record.players[seat]}>"


def describe(layer: GameLayer, record: GameRecord, loc: Any) -> str:
    """One line of the listing: ``#id Game in #channel: A vs B: whose turn, since <t:..:R>``."""
    env = layer.envelope(record)
    kind = layer.kind_of(record)
    names = " vs ".join(s.name for s in env.seats)
    if record.status == "lobby":
        since = int(env.created or record.created_at.timestamp())
        state = t("games.waiting", loc, since=f"<t:{since}:R>")
    else:
        snap = layer.snapshot(record)
        seats = snap.state.awaiting() if snap.state is not None else ()
        who = ", ".join(_seat(record, layer, s) for s in seats) or "—"
        state = t("games.turn", loc, who=who, since=f"<t:{int(record.updated_at.timestamp())}:R>")
    return t("games.row", loc, game_id=record.id, game=kind.title, channel=f"<#{record.channel_id}>",
             players=names, state=state)


async def listing(interaction: discord.Interaction) -> None:
    """``/games``: the guild's open games with their abort buttons, privately."""
    _check(interaction)
    layer = games(interaction)
    loc = interaction.locale
    records = [r for r in await layer.storage.list_active_games(guild_id=interaction.guild_id or 0)
               if r.kind in layer.kinds]
    if not records:
        await reply(interaction, t("games.none", loc), ephemeral=True)
        return
    lines = [t("games.head", loc, n=len(records))]
    view = discord.ui.View(timeout=None)
    for record in records[:MAX_LISTED]:
        try:
            lines.append(describe(layer, record, loc))
        except Exception:  # one broken game must not hide the others (it can still be aborted)
            log.exception("could not describe game %s", record.id)
            lines.append(t("games.broken", loc, game_id=record.id, channel=f"<#{record.channel_id}>"))
        view.add_item(AbortAskButton(record.id, locale=loc.value))
    if len(records) > MAX_LISTED:
        lines.append(t("games.more", loc, n=len(records) - MAX_LISTED))
    await reply(interaction, "\n".join(lines)[:2000], ephemeral=True, view=view,
                allowed_mentions=discord.AllowedMentions.none())


async def ask(interaction: discord.Interaction, game_id: int) -> None:
    """Abort #id clicked: the confirmation, privately."""
    _check(interaction)
    layer = games(interaction)
    record = await layer.record(game_id)
    if record.guild_id != interaction.guild_id:
        raise BotError("err.no_such_game", game_id=game_id)
    if not record.is_open:
        raise BotError("err.game_closed")
    view = discord.ui.View(timeout=None)
    view.add_item(AbortConfirmButton(game_id, locale=interaction.locale.value))
    await reply(interaction, t("games.confirm", interaction.locale, line=describe(layer, record, interaction.locale)),
                ephemeral=True, view=view, allowed_mentions=discord.AllowedMentions.none())


async def confirm(interaction: discord.Interaction, game_id: int) -> None:
    """Confirmed: the game ends aborted (unrated), its messages lose their buttons, its channel is told."""
    _check(interaction)
    layer = games(interaction)
    user = interaction.user
    record = await layer.record(game_id)
    if record.status == "active" and needs_consent(layer.snapshot(record), user.id):
        raise BotError("abort.seated_admin_games")  # a seated admin asks the others (issue 22)
    committed = await layer.abort(game_id, by=user.id, guild_id=interaction.guild_id or 0)
    record = committed.snap.record
    title = committed.snap.kind.title
    await update(interaction, content=t("games.aborted", interaction.locale, game_id=game_id), view=None)
    await layer.lobby.closed_by_admin(committed, user.display_name)
    await layer.publisher.strip_all(record)
    try:
        await layer.publisher.delivery.send(record, t("abort.done", committed.snap.locale, name=user.display_name,
                                                      game=title) + abort_note(committed.snap, committed.snap.locale))
    except Exception as err:  # the channel may be gone: the abort stands
        log.info("could not tell the channel of game %s about its abort: %s", game_id, err)


class AbortAskButton(GameButton, template=r"ga:ab:(?P<game>[0-9]+)"):
    """Abort #id (asks for a confirmation)."""

    prefix, verb, label_key, style = "ga", "ab", "ui.abort", discord.ButtonStyle.secondary

    def __init__(self, game_id: int, *, locale: str | None = None) -> None:
        super().__init__(game_id, locale=locale)
        self.item.label = t("ui.abort_game", locale, game_id=game_id)

    async def run(self, interaction: discord.Interaction) -> None:
        await ask(interaction, self.game_id)


class AbortConfirmButton(GameButton, template=r"ga:ok:(?P<game>[0-9]+)"):
    """Confirm the abort."""

    prefix, verb, label_key, style = "ga", "ok", "ui.abort_confirm", discord.ButtonStyle.danger

    async def run(self, interaction: discord.Interaction) -> None:
        await confirm(interaction, self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AbortAskButton, AbortConfirmButton)
