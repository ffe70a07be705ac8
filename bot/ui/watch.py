"""A player's own games and watching others' (``/mygames``, the **Watch a game** select of ``/games``).

- ``/mygames``: every open game of the member in this server, privately, the games waiting for them first (the
  soonest deadline first), then the others by their last change: game, channel, opponents, whose turn, the time left
  on a running clock (a Discord timestamp, shown in each reader's time) and a jump link to the board.
- Watching: anyone may look at a running game of the server privately — its current board, drawn as the players
  see it (public information only: a hidden hand is never drawn there), and a jump link. The select
  (``gw:sel``, one option per game of the page it came with) survives restarts: the game id is its value and the
  state is reloaded from storage.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.core import clock as clocks
from bot.core import paging
from bot.core.kind import start_hint
from bot.core.names import listed
from bot.errors import BotError
from bot.i18n import language_of, t, versus
from bot.services.boards import message_link
from bot.services.looks import in_look, look_of
from bot.ui.common import games, reply, report_errors

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

WATCH_OPTIONS = 25
"""Discord's limit on a select menu's options."""


def jump_link(record: GameRecord) -> str:
    """A link to the game's board message, else its challenge or lobby message, else its channel."""
    return message_link(record, "board", "lobby")


@dataclass(frozen=True)
class Mine:
    """One line of ``/mygames`` and its sort key: the games waiting for the member first, by deadline."""

    line: str
    to_move: bool
    deadline: float | None
    updated: float

    @property
    def order(self) -> tuple[int, float, float]:
        return (0 if self.to_move else 1, self.deadline if self.deadline is not None else float("inf"), -self.updated)


def mine_line(layer: GameLayer, record: GameRecord, user_id: int, loc: Any) -> Mine:
    """How ``record`` stands for ``user_id``: one ``/mygames`` line."""
    env = layer.envelope(record)
    kind = layer.kind_of(record)
    others = [s.name for i, s in enumerate(env.seats) if i >= len(record.players) or record.players[i] != user_id]
    against = listed(others) if others else "—"
    to_move, deadline = False, None
    if record.status == "lobby":
        state = t("mine.waiting", loc)
    else:
        snap = layer.snapshot(record)
        seats = snap.state.awaiting() if snap.state is not None else ()
        mine = {i for i, p in enumerate(record.players) if p == user_id}
        to_move = bool(mine & set(seats))
        who = listed(env.seats[s].name for s in seats if s < len(env.seats)) or "—"
        state = t("mine.your_turn", loc) if to_move else t("mine.their_turn", loc, who=who)
        running = clocks.running(env)
        if running is not None:
            deadline = running[1]
            state += " · " + t("mine.time_left", loc, when=clocks.stamp(deadline))
    line = t(
        "mine.row",
        loc,
        game_id=record.id,
        game=kind.title,
        channel=f"<#{record.channel_id}>",
        against=against,
        state=state,
        link=jump_link(record),
    )
    return Mine(line, to_move, deadline, record.updated_at.timestamp())


async def my_games(interaction: discord.Interaction) -> None:
    """``/mygames``: the member's open games in this server, privately (see the module docstring)."""
    layer = games(interaction)
    loc = interaction.locale
    user_id = interaction.user.id
    records = [
        r
        for r in await layer.storage.list_active_games(guild_id=interaction.guild_id or 0)
        if r.kind in layer.kinds and user_id in r.players
    ]
    lines: list[Mine] = []
    for record in records:
        try:
            lines.append(mine_line(layer, record, user_id, loc))
        except Exception:  # one unreadable game must not hide the others
            log.exception("could not describe game %s for /mygames", record.id)
    if not lines:
        await reply(interaction, t("mine.none", loc, starts=start_hint().localize(loc)), ephemeral=True)
        return
    lines.sort(key=lambda m: m.order)
    turns = sum(m.to_move for m in lines)
    head = t("mine.head", loc, n=len(lines), turns=turns)
    body = paging.clip("\n".join([head, *(m.line for m in lines)]))
    await reply(interaction, body, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())


def watch_select(records: list[GameRecord], layer: GameLayer, loc: Any) -> WatchSelect | None:
    """The **Watch a game** select for the running games among ``records`` (at most 25), or ``None``."""
    options: list[discord.SelectOption] = []
    for record in records:
        if record.status != "active" or len(options) >= WATCH_OPTIONS:
            continue
        env = layer.envelope(record)
        names = versus([s.name for s in env.seats], loc)
        label = f"#{record.id} {layer.kind_of(record).title}: {names}"
        options.append(discord.SelectOption(label=label[:100], value=str(record.id)))
    return WatchSelect(options, placeholder=t("ui.watch", loc)) if options else None


async def watch(interaction: discord.Interaction, game_id: int) -> None:
    """The current board of game ``game_id`` of this server, privately (public information only)."""
    layer = games(interaction)
    record = await layer.record(game_id)
    if record.guild_id != (interaction.guild_id or 0):
        raise BotError("err.no_such_game", game_id=game_id)
    if record.status == "lobby":
        raise BotError("err.not_started")
    if not record.is_open:
        raise BotError("err.game_closed", status=record.status)
    snap = layer.snapshot(record)
    # a private answer: the watcher's language (interaction.locale, as /mysettings overrides it), not the server's
    snap = dataclasses.replace(snap, env=snap.env.with_(locale=language_of(interaction.locale)))
    look = await look_of(layer.storage, interaction.user.id)  # a private picture: the watcher's look too
    files, fallback = await layer.publisher.draw([in_look(p, look) for p in snap.kind.pictures.board_pictures(snap)])
    head = t("watch.head", interaction.locale, game_id=game_id, game=snap.kind.title, link=jump_link(record))
    status = snap.kind.narration.status_line(snap)
    await reply(
        interaction,
        "\n".join(p for p in (head, status, fallback.strip()) if p),
        ephemeral=True,
        files=files,
        allowed_mentions=discord.AllowedMentions.none(),
    )


class WatchSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"gw:sel"):
    """**Watch a game…**: one option per running game (value: the game id); the board comes privately."""

    def __init__(self, options: list[discord.SelectOption] | None = None, *, placeholder: str | None = None) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id="gw:sel",
                placeholder=(placeholder or t("ui.watch", None))[:150],
                options=options or [discord.SelectOption(label="-", value="0")],
                min_values=1,
                max_values=1,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> WatchSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""

        async def run() -> None:
            if not value.isdigit() or len(value) > 19:
                raise BotError("err.no_such_game", game_id=value[:20])
            await watch(interaction, int(value))

        await report_errors(interaction, run)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (WatchSelect,)
