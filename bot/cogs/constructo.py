"""``/constructo ...``: challenge, place, move, choose, board, resign, layouts, rules.

Thin adapter over :class:`bot.service.constructo.ConstructoService`: every handler validates
through the service (errors become one ephemeral answer, rule code visible, via the tree's error
handler or :func:`bot.views.common.report_errors`), then :meth:`ConstructoCog.publish` posts the
new board.

Board messages: every accepted action posts a **new** board message (image + components,
mentioning whose turn it is) as the answer to the interaction that made it (deferred first, then
``edit_original_response``), or as a channel message for AI moves; the previous board only loses
its components (one ``PATCH`` with ``components: []`` and no attachment change, so no file
piles up). Old boards stay readable as the game's history; clicks on them are refused as stale.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.boards import BoardPublisher
from bot.errors import BotError
from bot.i18n import t
from bot.service.constructo import ConstructoService, ai_seat, match_of
from bot.storage.records import GameRecord
from bot.views.common import png_file, reply
from bot.views.constructo import (
    COG_NAME,
    DYNAMIC_ITEMS,
    board_view,
    challenge_view,
    confirm_resign_view,
    layout_choices,
)
from engine.constructo import LAYOUTS, RECOMMENDED, Match, Size

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

BOARD_FILENAME = "constructo-{game}-{version}.png"
IntChoices = list[app_commands.Choice[int]]
StrChoices = list[app_commands.Choice[str]]


def _mention(uid: int) -> str:
    return f"<@{uid}>"


@app_commands.guild_only()
class ConstructoCog(
    BoardPublisher,
    commands.GroupCog,
    name=COG_NAME,
    group_name="constructo",
    group_description="Play Constructo: stack chips on 9 hex tiles, build towers",
):
    """The Constructo commands. ``bot.services["constructo"]`` is this cog's service."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = ConstructoService(bot.storage, bot_user_id=bot.user.id if bot.user else None)
        bot.services[self.service.kind] = self.service
        self._layouts_png: bytes | None = None
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.register_board_recovery(self.service.kind, self.recover_board)
        self.bot.spawn(self._resume_when_ready(), name="constructo-resume")

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    # -- helpers -------------------------------------------------------------------------------
    @staticmethod
    def names_of(record: GameRecord) -> list[str]:
        """Display names by seat, as stored at challenge time."""
        names = record.state.get("names") or ["P1", "P2"]
        return [str(n) for n in names]

    @staticmethod
    def locale_of(record: GameRecord) -> str | None:
        """The guild locale stored with the game (for public messages and components)."""
        return record.state.get("locale")

    def status_line(self, record: GameRecord, match: Match) -> str:
        """Whose turn it is, who chooses round 2's layout, or how the match ended."""
        loc = self.locale_of(record)
        names = self.names_of(record)
        a, b = match.totals()
        if record.status == "aborted":
            return t("cx.aborted", loc)
        if match.is_over:
            if match.resigned is not None:
                loser = match.resigned
                return t("cx.over_resigned", loc, loser=names[loser], winner=names[1 - loser], a=a, b=b)
            if match.winner is None:
                return t("cx.over_draw", loc, a=a, b=b)
            w = match.winner
            return t("cx.over_win", loc, winner=names[w], a=a, b=b, name0=names[0], name1=names[1])
        seat = match.current_player
        assert seat is not None
        uid = record.players[seat]
        who = names[seat] if self.service.is_ai(uid) else _mention(uid)
        if match.phase == "choosing_layout":
            return t("cx.choose_layout", loc, who=who, a=a, b=b)
        return t("cx.to_move", loc, who=who, round=match.round_no)

    def view_for(self, record: GameRecord, match: Match) -> discord.ui.View | None:
        """Components for the board of ``record`` (see :func:`bot.views.constructo.board_view`)."""
        if record.status != "active":
            return None
        seat = match.current_player
        placements = steps = []
        human = seat is not None and not self.service.is_ai(record.players[seat])
        if human and seat is not None:
            placements = self.service.legal_placements(match, seat)
            steps = self.service.legal_steps(match, seat)
        return board_view(
            record.id, record.version, match, placements, steps, human_to_act=human, locale=self.locale_of(record)
        )

    async def _board_payload(
        self, record: GameRecord, headline: str
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """Content, files (board image, result card) and components of the board of ``record``."""
        from render.constructo import board_text, render_board

        match = match_of(record)
        names = self.names_of(record)
        content = f"{headline}\n{self.status_line(record, match)}"
        view = self.view_for(record, match)
        files: list[discord.File] = []
        try:
            png = await self.service.render_png(render_board, match, names=names)
            files = [png_file(png, BOARD_FILENAME.format(game=record.id, version=record.version))]
        except Exception:
            log.exception("rendering the board of game %s failed; sending the text board", record.id)
            content = f"{content}\n```\n{board_text(match, names=names)}\n```"
        if record.status == "finished":
            content, files = await self._with_result(record, match, names, content, files)
        return content[:2000], files, view

    async def _last_headline(self, record: GameRecord) -> str:
        """The headline of the game's last action (who played what), for a recovered board."""
        loc = self.locale_of(record)
        names = self.names_of(record)
        actions = await self.bot.storage.actions(record.id, after_seq=max(record.version - 1, 0))
        if not actions:
            ai = record.state.get("ai")
            if ai:
                return t("cx.started_ai", loc, layout=record.state.get("layout", "?"), level=ai.get("level", "?"))
            return t("cx.board", loc)
        last = actions[-1]
        who = names[record.players.index(last.player)] if last.player in record.players else "?"
        if last.action == "accept":
            return t("cx.started", loc, layout=record.state.get("layout", "?"))
        if last.action.startswith("layout "):
            return t("cx.layout_chosen", loc, name=who, layout=last.action.removeprefix("layout "))
        if last.action in ("forfeit", "resign"):  # "resign": logged by bots before the game protocol
            return t("cx.resigned", loc, name=who)
        return t("cx.played", loc, name=who, move=last.action)

    async def _with_result(
        self, record: GameRecord, match: Match, names: list[str], content: str, files: list[discord.File]
    ) -> tuple[str, list[discord.File]]:
        """Add the result card (image) and the rating changes of a finished match."""
        from render.results import render_constructo_result

        try:
            png = await self.service.render_png(render_constructo_result, match, names=names)
            files = [*files, png_file(png, f"constructo-{record.id}-result.png")]
        except Exception:
            log.exception("rendering the result card of game %s failed", record.id)
        changes = await self.bot.storage.rating_changes(record.id)
        if changes:
            seat = {uid: i for i, uid in enumerate(record.players)}
            parts = [f"{names[seat[c.user_id]]} {c.delta:+.1f}" for c in changes if c.user_id in seat]
            content = f"{content}\n{t('cx.rating_changes', self.locale_of(record), changes=', '.join(parts))}"
        elif record.result is not None and not record.result.rated:
            content = f"{content}\n{t('cx.not_rated', self.locale_of(record))}"
        return content, files

    def schedule_ai(self, record: GameRecord) -> None:
        """If the AI is to act in ``record``, run its turn(s) in the background."""
        if self.service.ai_to_act(record):
            self.bot.spawn(self.run_ai(record.id), name=f"constructo-ai-{record.id}")

    async def run_ai(self, game_id: int) -> None:
        """Play the AI's turns (moves, round-2 layout) until a human is to act, posting each board."""
        while True:
            try:
                committed = await self.service.ai_turn(game_id)
            except BotError as err:  # the game moved on or closed meanwhile
                log.info("AI turn of game %s skipped: %s", game_id, err)
                return
            if committed is None:
                return
            record = committed.record
            names = self.names_of(record)
            seat = ai_seat(record)
            loc = self.locale_of(record)
            info = committed.info
            if "layout" in info:
                headline = t("cx.layout_chosen", loc, name=names[seat or 0], layout=info["layout"])
            else:
                headline = t("cx.played", loc, name=names[seat or 0], move=info.get("move", committed.action))
            await self.publish(record, headline=headline)

    async def _resume_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        await self.resume_ai_games()

    async def resume_ai_games(self) -> int:
        """After a restart: play every pending AI turn. Returns how many games were resumed."""
        count = 0
        for record in await self.bot.storage.list_active_games(kind=self.service.kind):
            try:
                if self.service.ai_to_act(record):
                    await self.run_ai(record.id)
                    count += 1
            except Exception:  # one broken game (state, permissions) must not stop the others
                log.exception("could not resume the AI of game %s", record.id)
        return count

    # -- handlers shared by commands and components -------------------------------------------
    async def handle_accept(self, interaction: discord.Interaction, game_id: int) -> None:
        committed = await self.service.accept(game_id, interaction.user.id)
        record = committed.record
        loc = self.locale_of(record)
        names = self.names_of(record)
        await interaction.response.edit_message(
            content=t("cx.accepted", loc, challenger=names[0], opponent=names[1]), view=None
        )
        headline = t("cx.started", loc, layout=record.state["layout"])
        await self.publish(record, headline=headline, interaction=interaction)

    async def handle_decline(self, interaction: discord.Interaction, game_id: int) -> None:
        committed = await self.service.decline(game_id, interaction.user.id)
        loc = self.locale_of(committed.record)
        key = "cx.withdrawn" if committed.action == "withdraw" else "cx.declined"
        await interaction.response.edit_message(content=t(key, loc, name=interaction.user.display_name), view=None)

    async def handle_move(
        self, interaction: discord.Interaction, game_id: int, text: str, *, expected_version: int | None = None
    ) -> None:
        committed = await self.service.play(game_id, interaction.user.id, text, expected_version=expected_version)
        record = committed.record
        headline = t(
            "cx.played", self.locale_of(record), name=interaction.user.display_name, move=committed.info["move"]
        )
        await self.publish(record, headline=headline, interaction=interaction)
        self.schedule_ai(record)

    async def handle_layout(
        self, interaction: discord.Interaction, game_id: int, layout: str, *, expected_version: int | None = None
    ) -> None:
        committed = await self.service.choose_layout(
            game_id, interaction.user.id, layout, expected_version=expected_version
        )
        record = committed.record
        headline = t(
            "cx.layout_chosen", self.locale_of(record), name=interaction.user.display_name,
            layout=committed.info["layout"],
        )
        await self.publish(record, headline=headline, interaction=interaction)
        self.schedule_ai(record)

    async def handle_resign_request(self, interaction: discord.Interaction, game_id: int) -> None:
        """The board's Resign button: a player of the running game gets an ephemeral confirmation."""
        record = await self.service.get(game_id)
        self.service.seat_of(record, interaction.user.id)
        if record.status != "active":
            raise BotError("err.game_closed")
        await reply(
            interaction, t("cx.confirm_resign", interaction.locale), ephemeral=True,
            view=confirm_resign_view(game_id, locale=interaction.locale.value),
        )

    async def handle_resign(self, interaction: discord.Interaction, game_id: int) -> None:
        """Resign (M3) now; from the confirmation button the ephemeral prompt is closed first."""
        committed = await self.service.resign(game_id, interaction.user.id)
        headline = t("cx.resigned", self.locale_of(committed.record), name=interaction.user.display_name)
        if interaction.type is discord.InteractionType.component:
            await interaction.response.edit_message(content=t("cx.resign_done", interaction.locale), view=None)
        await self.publish(committed.record, headline=headline, interaction=interaction)

    # -- commands ------------------------------------------------------------------------------
    async def _open_thread(self, interaction: discord.Interaction, title: str) -> discord.Thread:
        channel = interaction.channel
        perms = interaction.app_permissions
        if not (
            isinstance(channel, discord.TextChannel)
            and perms.create_public_threads
            and perms.send_messages_in_threads
        ):
            raise BotError("err.channel_busy_no_thread")
        return await channel.create_thread(
            name=title[:100], type=discord.ChannelType.public_thread, auto_archive_duration=1440
        )

    @app_commands.command(name="challenge", description="Challenge someone (or me, the AI) to a Constructo match")
    @app_commands.describe(
        opponent="Who you play against (pick the bot to play the AI)",
        layout="Round 1 layout: a name (default rombo) or 9 coordinates like (0,0) (1,0) ...",
        level="AI strength when you challenge the bot",
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.User,
        layout: str | None = None,
        level: Literal["easy", "medium", "hard"] | None = None,
    ) -> None:
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        me = interaction.user
        opp_name = opponent.display_name
        if self.service.is_ai(opponent.id):
            opp_name = t("cx.ai_name", loc, level=level or "medium")
        kwargs: dict[str, Any] = {
            "challenger": me.id,
            "opponent": opponent.id,
            "layout": layout,
            "level": level,
            "opponent_is_bot": opponent.bot,
            "names": (me.display_name, opp_name),
            "locale": loc,
        }
        self.service.prepare_challenge(**kwargs)  # validate before touching channels
        guild_id = interaction.guild_id or 0
        channel_id = interaction.channel_id or 0
        thread: discord.Thread | None = None
        title = t("cx.thread_title", loc, a=me.display_name, b=opp_name)
        if await self.service.in_channel(channel_id) is not None:
            thread = await self._open_thread(interaction, title)
            channel_id = thread.id
        try:
            record = await self.service.challenge(guild_id=guild_id, channel_id=channel_id, **kwargs)
        except BotError as err:
            if err.key != "err.channel_busy" or thread is not None:
                raise
            # another challenge took the channel between the check and the create: use a thread too
            thread = await self._open_thread(interaction, title)
            record = await self.service.challenge(guild_id=guild_id, channel_id=thread.id, **kwargs)
        if record.status == "active":  # against the AI: the game starts now, challenger first
            headline = t("cx.started_ai", loc, layout=record.state["layout"], level=record.state["ai"]["level"])
            if thread is None:
                await self.publish(record, headline=headline, interaction=interaction)
            else:
                await reply(interaction, t("cx.opened_in_thread", loc, thread=thread.mention))
                await self.publish(record, headline=headline)
            return
        content = t("cx.challenge", loc, opponent=_mention(opponent.id), challenger=me.display_name,
                    layout=record.state["layout"])
        view = challenge_view(record.id, locale=loc)
        posted: discord.Message | None = None
        if thread is None:
            callback = await interaction.response.send_message(content, view=view)
            resource = callback.resource if callback is not None else None
            posted = resource if isinstance(resource, discord.Message) else None
        else:
            posted = await thread.send(content, view=view)
            await reply(interaction, t("cx.opened_in_thread", loc, thread=thread.mention))
        if posted is not None:  # so /abort can strip Accept/Decline
            await self.service.set_message(record.id, "challenge", posted.id)

    @staticmethod
    def layout_name_choices(locale: discord.Locale, current: str) -> StrChoices:
        """Named layouts starting with what was typed, labelled recommended/experimental."""
        text = str(current).strip().lower()
        out = []
        for name in layout_choices():
            if text and not name.startswith(text):
                continue
            key = "ui.recommended" if name in RECOMMENDED else "ui.experimental"
            out.append(app_commands.Choice(name=f"{name} ({t(key, locale)})", value=name))
        return out[:25]

    @challenge.autocomplete("layout")
    async def _layout_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return self.layout_name_choices(interaction.locale, current)

    async def _my_match(self, interaction: discord.Interaction) -> tuple[GameRecord, Match, int] | None:
        """For autocomplete: the caller's active game here, its match and seat; ``None`` otherwise
        (never raises: a failing autocomplete would leave the user with an empty list)."""
        try:
            record = await self.service.in_channel(interaction.channel_id or 0)
            if record is None or record.kind != self.service.kind or record.status != "active":
                return None
            if interaction.user.id not in record.players:
                return None
            return record, match_of(record), record.players.index(interaction.user.id)
        except Exception:
            log.exception("autocomplete could not load the game of channel %s", interaction.channel_id)
            return None

    @app_commands.command(name="place", description="Place a chip from your reserve on an empty tile")
    @app_commands.describe(tile="Empty tile number (1-9)", size="Chip size: small, medium or large")
    async def place(self, interaction: discord.Interaction, tile: int, size: str) -> None:
        record = await self.service.channel_game(interaction.channel_id or 0)
        text = self.service.placement_text(size, tile)
        await self.handle_move(interaction, record.id, text)

    @place.autocomplete("tile")
    async def _place_tile_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._my_match(interaction)
        if found is None:
            return []
        _record, match, seat = found
        size: Size | None = None
        raw = getattr(interaction.namespace, "size", None)
        if raw:
            try:
                size = Size.parse(str(raw))
            except ValueError:
                size = None
        tiles = sorted(
            {m.tile for m in self.service.legal_placements(match, seat) if m.tile and (size is None or m.size == size)}
        )
        return [
            app_commands.Choice(name=t("ui.tile", interaction.locale, tile=n), value=n)
            for n in tiles
            if str(n).startswith(str(current).strip())
        ][:25]

    @place.autocomplete("size")
    async def _place_size_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        found = await self._my_match(interaction)
        if found is None:
            return []
        _record, match, seat = found
        tile = getattr(interaction.namespace, "tile", None)
        moves = self.service.legal_placements(match, seat)
        wanted = {m.size for m in moves if m.size and (not isinstance(tile, int) or m.tile == tile)}
        sizes = sorted(wanted, reverse=True)
        reserve = match.current_round.reserve(seat)
        text = str(current).strip().lower()
        return [
            app_commands.Choice(
                name=t("ui.size_option", interaction.locale, size=s.word, left=reserve[s]), value=s.word
            )
            for s in sizes
            if s.word.startswith(text) or s.letter.lower() == text
        ][:25]

    @app_commands.command(name="move", description="Move your lone chip onto an adjacent opponent's stack")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="Tile of your lone chip", to="Adjacent tile topped by an opponent's chip")
    async def move(self, interaction: discord.Interaction, from_: int, to: int) -> None:
        record = await self.service.channel_game(interaction.channel_id or 0)
        await self.handle_move(interaction, record.id, f"{from_}-{to}")

    @move.autocomplete("from_")
    async def _move_from_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._my_match(interaction)
        if found is None:
            return []
        _record, match, seat = found
        srcs = sorted({m.src for m in self.service.legal_steps(match, seat) if m.src})
        return [
            app_commands.Choice(name=t("ui.tile", interaction.locale, tile=n), value=n)
            for n in srcs
            if str(n).startswith(str(current).strip())
        ][:25]

    @move.autocomplete("to")
    async def _move_to_autocomplete(self, interaction: discord.Interaction, current: str) -> IntChoices:
        found = await self._my_match(interaction)
        if found is None:
            return []
        _record, match, seat = found
        src = getattr(interaction.namespace, "from", None)
        steps = self.service.legal_steps(match, seat)
        dsts = sorted({m.dst for m in steps if m.dst and (not isinstance(src, int) or m.src == src)})
        return [
            app_commands.Choice(name=t("ui.tile", interaction.locale, tile=n), value=n)
            for n in dsts
            if str(n).startswith(str(current).strip())
        ][:25]

    @app_commands.command(name="choose", description="Round 2: choose its layout (if you did not start round 1)")
    @app_commands.describe(layout="A layout name, 'keep', or 9 coordinates like (0,0) (1,0) ...")
    async def choose(self, interaction: discord.Interaction, layout: str) -> None:
        record = await self.service.channel_game(interaction.channel_id or 0)
        await self.handle_layout(interaction, record.id, layout)

    @choose.autocomplete("layout")
    async def _choose_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        choices = self.layout_name_choices(interaction.locale, current)
        if "keep".startswith(str(current).strip().lower()):
            choices.insert(0, app_commands.Choice(name=t("ui.keep", interaction.locale), value="keep"))
        return choices[:25]

    @app_commands.command(name="board", description="Show this channel's Constructo board again")
    @app_commands.describe(text="Show the board as text (only you will see it)")
    async def board(self, interaction: discord.Interaction, text: bool = False) -> None:
        from render.constructo import board_text

        record = await self.service.channel_game(interaction.channel_id or 0)
        if record.status == "lobby":
            raise BotError("err.not_started")
        match = match_of(record)
        if text:
            body = board_text(match, names=self.names_of(record))
            await reply(interaction, f"```\n{body[:1950]}\n```", ephemeral=True)
            return
        await self.publish(record, headline=t("cx.board", interaction.locale), interaction=interaction)
        self.schedule_ai(record)  # a safety net: an AI turn left pending is played now

    @app_commands.command(name="resign", description="Resign your Constructo match in this channel (you lose it)")
    async def resign(self, interaction: discord.Interaction) -> None:
        record = await self.service.channel_game(interaction.channel_id or 0)
        if record.status == "lobby":  # a challenge not accepted yet: withdraw / decline it
            committed = await self.service.decline(record.id, interaction.user.id)
            key = "cx.withdrawn" if committed.action == "withdraw" else "cx.declined"
            await reply(interaction, t(key, interaction.locale, name=interaction.user.display_name))
            return
        await self.handle_resign(interaction, record.id)

    @app_commands.command(name="layouts", description="Show every named layout")
    async def layouts(self, interaction: discord.Interaction) -> None:
        from render.constructo import layouts_text, render_layouts_sheet

        if self._layouts_png is None:
            await interaction.response.defer(thinking=True)
            self._layouts_png = await self.service.render_png(render_layouts_sheet)
        body = layouts_text()
        await reply(
            interaction, f"```\n{body[:1950]}\n```", files=[png_file(self._layouts_png, "constructo-layouts.png")]
        )

    @app_commands.command(name="rules", description="The rules of Constructo in short")
    async def rules(self, interaction: discord.Interaction) -> None:
        await reply(interaction, t("cx.rules", interaction.locale, layouts=", ".join(LAYOUTS)), ephemeral=True)


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.constructo")``."""
    await bot.add_cog(ConstructoCog(bot))
