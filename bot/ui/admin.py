"""``/games``: the guild's open games, each with its channel, players, whose turn it is and since when (Discord
timestamps: every client shows them in its own time), and a **Watch a game** select (:mod:`bot.ui.watch`: the
current board, privately). For admins (Manage Server) also an **Abort #id** button per game (``ga:ab:<game>``)
that asks for a confirmation (``ga:ok:<game>``) before ending the game without a result (never rated; its
messages stripped; its channel told who ended it).

Everything is answered privately; the permission is checked again on every Abort click.
"""

from __future__ import annotations

import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.core import paging
from bot.core.names import plain
from bot.errors import BotError
from bot.i18n import t, versus
from bot.ui import watch
from bot.ui.common import GameButton, games, reply, report_errors, update
from bot.ui.mutual import abort_note, refuse_seated

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

PER_PAGE = 15
"""Games per page of ``/games``: an admin's Abort buttons fill 3 rows of 5, the Watch select the 4th row and
Previous / Next the 5th."""


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
    names = versus([s.name for s in env.seats], loc)
    if record.status == "lobby":
        since = int(env.created or record.created_at.timestamp())
        state = t("games.waiting", loc, since=f"<t:{since}:R>")
    else:
        snap = layer.snapshot(record)
        seats = snap.state.awaiting() if snap.state is not None else ()
        who = ", ".join(_seat(record, layer, s) for s in seats) or "—"
        state = t("games.turn", loc, who=who, since=f"<t:{int(record.updated_at.timestamp())}:R>")
    return t(
        "games.row",
        loc,
        game_id=record.id,
        game=kind.title,
        channel=f"<#{record.channel_id}>",
        players=names,
        state=state,
    )


async def listing(interaction: discord.Interaction, page: int = 0) -> None:
    """``/games``: the guild's open games, privately, page ``page`` (0-based, clamped): at most :data:`PER_PAGE`
    games and 2,000 characters of whole lines, the **Watch a game** select of the page's running games, for an
    admin an **Abort #id** button per listed game (each beside its line's ``#id``), and Previous / Next
    (``ga:pg:<page>``). A page button edits the listing in place."""
    admin = bool(interaction.permissions.manage_guild)
    layer = games(interaction)
    loc = interaction.locale
    records = [
        r for r in await layer.storage.list_active_games(guild_id=interaction.guild_id or 0) if r.kind in layer.kinds
    ]
    if not records:
        await _show(interaction, t("games.none", loc), None)
        return
    lines: list[tuple[int, str]] = []
    for record in records:
        try:
            lines.append((record.id, describe(layer, record, loc)))
        except Exception:  # one broken game must not hide the others (it can still be aborted)
            log.exception("could not describe game %s", record.id)
            lines.append((record.id, t("games.broken", loc, game_id=record.id, channel=f"<#{record.channel_id}>")))
    head_room = len(t("games.head_page", loc, n=len(records), page=999, pages=999)) + 1
    packed = paging.pages([text for _gid, text in lines], head_room=head_room, per_page=PER_PAGE)
    page = max(0, min(page, len(packed) - 1))
    start = sum(len(p) for p in packed[:page])
    shown = lines[start : start + len(packed[page])]
    head = (
        t("games.head", loc, n=len(records))
        if len(packed) == 1
        else t("games.head_page", loc, n=len(records), page=page + 1, pages=len(packed))
    )
    view = discord.ui.View(timeout=None)
    if admin:
        for game_id, _text in shown:
            view.add_item(AbortAskButton(game_id, locale=loc.value))
    by_id = {r.id: r for r in records}
    select = watch.watch_select([by_id[gid] for gid, _text in shown], layer, loc)
    if select is not None:
        view.add_item(select)
    if len(packed) > 1:
        prev = PageButton(page - 1, "ui.page_prev", locale=loc.value)
        prev.item.disabled = page == 0
        nxt = PageButton(page + 1, "ui.page_next", locale=loc.value)
        nxt.item.disabled = page >= len(packed) - 1
        view.add_item(prev)
        view.add_item(nxt)
    await _show(interaction, "\n".join([head, *(text for _gid, text in shown)]), view)


async def _show(interaction: discord.Interaction, content: str, view: discord.ui.View | None) -> None:
    """The listing: a new private answer to ``/games``, or the clicked listing edited in place by a page button."""
    none = discord.AllowedMentions.none()
    if interaction.type == discord.InteractionType.component:
        await update(interaction, content=content, view=view, allowed_mentions=none)
    else:
        await reply(interaction, content, ephemeral=True, view=view, allowed_mentions=none)


async def ask(interaction: discord.Interaction, game_id: int) -> None:
    """Abort #id clicked: the confirmation, privately."""
    _check(interaction)
    layer = games(interaction)
    record = await layer.record(game_id)
    if record.guild_id != interaction.guild_id:
        raise BotError("err.no_such_game", game_id=game_id)
    if not record.is_open:
        raise BotError("err.game_closed", status=record.status)
    view = discord.ui.View(timeout=None)
    view.add_item(AbortConfirmButton(game_id, locale=interaction.locale.value))
    await reply(
        interaction,
        t("games.confirm", interaction.locale, line=describe(layer, record, interaction.locale)),
        ephemeral=True,
        view=view,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def confirm(interaction: discord.Interaction, game_id: int) -> None:
    """Confirmed: the game ends aborted (unrated), its messages lose their buttons, its channel is told."""
    _check(interaction)
    layer = games(interaction)
    user = interaction.user
    # a seated admin asks the others (issue 22): checked on the game as it is when the abort commits
    committed = await layer.abort(game_id, by=user.id, guild_id=interaction.guild_id or 0, check=refuse_seated(user.id))
    record = committed.snap.record
    title = committed.snap.kind.title
    await update(interaction, content=t("games.aborted", interaction.locale, game_id=game_id), view=None)
    await layer.lobby.closed_by_admin(committed, plain(user.display_name))
    await layer.publisher.strip_all(record)
    try:
        await layer.publisher.delivery.send(
            record,
            t("abort.done", committed.snap.locale, name=plain(user.display_name), game=title)
            + abort_note(committed.snap, committed.snap.locale),
        )
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


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ga:pg:(?P<page>[0-9]{1,4}):(?P<d>[pn])"):
    """Previous / Next page of ``/games`` (``ga:pg:<page>:p|n``; the page is clamped to the listing as it is now)."""

    def __init__(self, page: int, label_key: str, *, locale: str | None = None) -> None:
        self.page = max(0, page)
        way = "p" if label_key == "ui.page_prev" else "n"
        super().__init__(
            discord.ui.Button(
                label=t(label_key, locale), style=discord.ButtonStyle.secondary, custom_id=f"ga:pg:{self.page}:{way}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        return cls(int(match["page"]), "ui.page_prev" if match["d"] == "p" else "ui.page_next")

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: listing(interaction, self.page))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AbortAskButton, AbortConfirmButton, PageButton)
