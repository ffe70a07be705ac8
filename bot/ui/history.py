"""``/history``: a player's finished games in this guild, newest first, a page at a time (issue 16).

A page is :data:`PAGE_SIZE` games read with ``Storage.finished_games`` from a cursor: the newest games (``t0``),
the games older than a game id (``b<id>``), or the page just above a game id (``a<id>``). The buttons carry the
cursor, the player and the game filter in their custom ids, so paging survives restarts and needs no state:

- ``rc:hp:<user>:<game kind or ->:<cursor>:<page number>``: Newer / Older (answered by editing the message);
- ``rc:ho:<user>``: the select opening one game's record (privately: move list, Replay, Download record).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC
from typing import TYPE_CHECKING, Any

import discord

from bot.core.results import place_name, signed
from bot.i18n import has, t
from bot.ui.common import games, report_errors, update
from bot.ui.record_views import send_record

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.records import HistoryRow

PAGE_SIZE = 5
"""Games per page (five lines stay readable on a phone; the select lists the same five)."""
CURSOR = re.compile(r"([tba])([0-9]{1,20})")


@dataclass(frozen=True)
class Page:
    """One page of a player's history: ``rows`` (newest first), whether ``older`` / ``newer`` games exist, and
    its 1-based ``number`` (as counted from the newest page when it was reached)."""

    user_id: int
    kind: str | None
    rows: list[HistoryRow]
    older: bool
    newer: bool
    number: int


async def load_page(
    layer: GameLayer, guild_id: int, user_id: int, kind: str | None, cursor: str, number: int = 1
) -> Page:
    """The page of ``user_id``'s finished games in ``guild_id`` (only ``kind`` if given) at ``cursor``
    (``"t0"`` newest, ``"b<id>"`` older than a game, ``"a<id>"`` just above one; an unreadable cursor is the
    newest page). The page above the first pages is the newest page."""
    storage = layer.storage
    found = CURSOR.fullmatch(cursor)
    mode, at = (found[1], int(found[2])) if found else ("t", 0)
    if mode == "a" and at > 0:
        rows = await storage.finished_games(guild_id, user_id, kind=kind, limit=PAGE_SIZE + 1, after_id=at)
        if len(rows) > PAGE_SIZE:  # more above this page: it is not the newest
            return Page(user_id, kind, rows[1:], older=True, newer=True, number=max(2, number))
        mode = "t"
    if mode == "b" and at > 0:
        rows = await storage.finished_games(guild_id, user_id, kind=kind, limit=PAGE_SIZE + 1, before_id=at)
        return Page(user_id, kind, rows[:PAGE_SIZE], older=len(rows) > PAGE_SIZE, newer=True, number=max(2, number))
    rows = await storage.finished_games(guild_id, user_id, kind=kind, limit=PAGE_SIZE + 1)
    return Page(user_id, kind, rows[:PAGE_SIZE], older=len(rows) > PAGE_SIZE, newer=False, number=1)


def _stamp(row: HistoryRow, style: str) -> str:
    return f"<t:{int(row.finished_at.timestamp())}:{style}>"


def outcome_text(row: HistoryRow, locale: Any) -> str:
    """``win`` / ``draw`` / ``loss`` for two players; with more, the place named as a place (``2nd of 3``: a 2nd
    place is no loss), ``(shared)`` when tied. The one wording of a finished game's result for its player:
    ``/history``, its select menu and ``/replay``'s suggestions."""
    if len(row.players) > 2 and row.place is not None:
        shared = sum(1 for g in row.ranking for u in g if row.user_id in g) > 1
        place = place_name(row.place, locale)
        if shared:
            place = t("place.shared", locale, place=place)
        return t("hist.place", locale, place=place, seats=len(row.players))
    return t(f"hist.{row.outcome}", locale) if row.outcome in ("win", "draw", "loss") else "?"


def ending(row: HistoryRow, prefix: str | None, locale: Any) -> str:
    """How the game ended, in words: the game's own ``<prefix>.end_<reason>`` (``by resignation``, ``on time``,
    ``goal reached``...), else ``""`` (a reason the game has no words for is not shown as a code)."""
    if not row.reason or prefix is None:
        return ""
    key = f"{prefix}.end_{row.reason}"
    return t(key, locale) if has(key, "en") else ""


def _who(uid: int, row: HistoryRow, bot_id: int | None, locale: Any) -> str:
    if uid < 0 or (row.vs_ai and uid == bot_id):
        return t("hist.ai", locale)
    return f"<@{uid}>"


def row_text(
    row: HistoryRow,
    titles: dict[str, str],
    bot_id: int | None,
    locale: Any,
    prefixes: dict[str, str] | None = None,
) -> str:
    """One game: ``#12 · <game> · date (ago) · **win** by resignation · rating +12 (1512?) · vs @bob`` (a game of 3+
    players: ``**2nd of 3** · goal reached · 24–18–9``). The score is left out when the game ended before any
    point was scored (a resignation at 0–0 is said in words, not as ``0–0``); ``prefixes``: each kind's message
    prefix, for its endings."""
    head = f"**{outcome_text(row, locale)}**"
    how = ending(row, (prefixes or {}).get(row.kind), locale)
    parts = [
        f"`#{row.game_id}` **{titles.get(row.kind, row.kind)}**",
        f"{_stamp(row, 'd')} ({_stamp(row, 'R')})",
        f"{head} {how}" if how else head,
    ]
    if row.scores and any(row.scores.values()):
        mine = row.scores.get(row.user_id)
        others = [row.scores[u] for u in row.players if u != row.user_id and u in row.scores]
        parts.append("–".join(str(s) for s in ([mine] if mine is not None else []) + others))
    if row.rating_delta is not None:
        after = row.rating_shown or row.rating_after
        parts.append(t("hist.rating", locale, delta=signed(row.rating_delta), after=after))
    else:
        parts.append(t("hist.unrated_ai" if row.vs_ai else "hist.unrated", locale))
    others_ = [_who(u, row, bot_id, locale) for u in row.players if u != row.user_id]
    parts.append(t("hist.vs", locale, players=", ".join(others_)))
    return " · ".join(parts)


def page_text(
    page: Page, titles: dict[str, str], bot_id: int | None, locale: Any, prefixes: dict[str, str] | None = None
) -> str:
    """The message of a page: a title line, then one line per game (or that there is none)."""
    game = titles.get(page.kind, page.kind) if page.kind else t("hist.all_games", locale)
    head = t("hist.head", locale, who=f"<@{page.user_id}>", game=game, page=page.number)
    if not page.rows:
        return f"{head}\n{t('hist.empty', locale)}"
    return "\n".join([head, *(row_text(r, titles, bot_id, locale, prefixes) for r in page.rows)])


def page_view(page: Page, titles: dict[str, str], locale: str | None) -> discord.ui.View | None:
    """The select opening a game's record, and Newer / Older (disabled at either end); ``None`` for no games."""
    if not page.rows:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(OpenRecordSelect(page.user_id, page.rows, titles, locale=locale))
    newer = PageButton(
        page.user_id, page.kind, f"a{page.rows[0].game_id}", max(1, page.number - 1), "newer", locale=locale
    )
    newer.item.disabled = not page.newer
    older = PageButton(page.user_id, page.kind, f"b{page.rows[-1].game_id}", page.number + 1, "older", locale=locale)
    older.item.disabled = not page.older
    view.add_item(newer)
    view.add_item(older)
    return view


def titles_of(layer: GameLayer) -> dict[str, str]:
    """Each registered game's title by kind name."""
    return {name: kind.title for name, kind in layer.kinds.items()}


def prefixes_of(layer: GameLayer) -> dict[str, str]:
    """Each registered game's message prefix by kind name (its endings are ``<prefix>.end_<reason>``)."""
    return {name: kind.prefix for name, kind in layer.kinds.items()}


async def page_message(layer: GameLayer, page: Page, locale: discord.Locale) -> dict[str, Any]:
    """``content`` and ``view`` of a page's message (mentions never ping)."""
    titles = titles_of(layer)
    view = page_view(page, titles, locale.value)
    return {
        "content": page_text(page, titles, layer.bot_user_id, locale, prefixes_of(layer))[:2000],
        "view": view,
        "allowed_mentions": discord.AllowedMentions.none(),
    }


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"rc:hp:(?P<user>[0-9]+):(?P<kind>[a-z][a-z0-9_]*|-):(?P<cur>[tab][0-9]+):(?P<page>[0-9]+)",
):
    """Newer / Older: shows the page at the cursor in the same message."""

    def __init__(
        self,
        user_id: int,
        kind: str | None,
        cursor: str,
        number: int,
        direction: str = "older",
        *,
        locale: str | None = None,
    ) -> None:
        self.user_id, self.kind, self.cursor, self.number = user_id, kind, cursor, number
        label = t(f"hist.{direction}", locale)
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"rc:hp:{user_id}:{kind or '-'}:{cursor}:{number}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PageButton:
        kind = None if match["kind"] == "-" else match["kind"]
        return cls(int(match["user"]), kind, match["cur"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            layer = games(interaction)
            page = await load_page(layer, interaction.guild_id or 0, self.user_id, self.kind, self.cursor, self.number)
            await update(interaction, **await page_message(layer, page, interaction.locale))

        await report_errors(interaction, work)


class OpenRecordSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"rc:ho:(?P<user>[0-9]+)"):
    """Open one listed game's record (privately)."""

    def __init__(
        self,
        user_id: int,
        rows: list[HistoryRow] | None = None,
        titles: dict[str, str] | None = None,
        *,
        locale: str | None = None,
    ) -> None:
        self.user_id = user_id
        options = [
            discord.SelectOption(
                label=f"#{r.game_id} · {(titles or {}).get(r.kind, r.kind)} · {outcome_text(r, locale)}"[:100],
                value=str(r.game_id),
                description=r.finished_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            )
            for r in (rows or [])[:25]
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=f"rc:ho:{user_id}",
                placeholder=t("hist.open", locale),
                options=options,
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> OpenRecordSelect:
        return cls(int(match["user"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            value = self.item.values[0] if self.item.values else ""
            if not value.isdigit():
                from bot.errors import BotError

                raise BotError("rec.not_found", game_id=value[:20] or "?")
            await send_record(interaction, int(value))

        await report_errors(interaction, work)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (PageButton, OpenRecordSelect)
