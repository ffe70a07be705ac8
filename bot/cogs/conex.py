"""``/conex ...``: new, join, start, hand, place, hints, draw, pass, lightning, discard, board, leave, rules.

Thin adapter over :class:`bot.service.conex.ConexService` (same single path as Constructo: load -> per-game
lock -> engine action -> commit -> render off the loop -> reply). Refusals become one ephemeral answer with
the rule code (the tree's error handler, or :func:`bot.views.common.report_errors` for components).

Table messages: every accepted action posts a **new** table message (image + buttons, saying what happened
and whose turn it is) as the answer to the interaction that made it, or as a channel message for AI turns;
the previous table only loses its components. Hands are never posted publicly: ``/conex hand`` and the
**My hand** button answer ephemerally. A finished game's last message also carries the result image.

Timing: handlers that need the finder (``place`` auto-fit, ``hints``, ``hand``'s legal counts) run it in a
worker thread; private answers defer first; a public action whose service call takes longer than
:data:`DEFER_AFTER_S` is deferred while it runs, so every interaction is answered within Discord's 3 s.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.boards import BoardPublisher
from bot.errors import BotError
from bot.i18n import t
from bot.service.conex import ConexService, forfeited_of, game_of, humanized, names_of
from bot.storage.records import GameRecord
from bot.views.common import png_file, reply
from bot.views.conex import (
    COG_NAME,
    DYNAMIC_ITEMS,
    card_label,
    discard_view,
    forfeit_view,
    hints_view,
    lobby_view,
    table_view,
)
from engine.conex import AnyAction, Game
from engine.conex import events as ev
from engine.errors import RuleError
from engine.protocol import Event

if TYPE_CHECKING:
    from bot.app import TableBot

log = logging.getLogger(__name__)

T = TypeVar("T")
DEFER_AFTER_S = 2.0
BOARD_ZOOM_CM = (14.0, 9.0)  # hints whose corner points all lie within this of the centre: zoom on the board
TABLE_FILENAME = "conex-{game}-{version}.png"
StrChoices = list[app_commands.Choice[str]]
Coord = app_commands.Range[float, -100.0, 100.0]
Degrees = app_commands.Range[float, -360.0, 360.0]


def _mention(uid: int) -> str:
    return f"<@{uid}>"


@app_commands.guild_only()
class ConexCog(
    BoardPublisher,
    commands.GroupCog,
    name=COG_NAME,
    group_name="conex",
    group_description="Play CONEX: place cards so their corners match colours, score points",
):
    """The CONEX commands. ``bot.services["conex"]`` is this cog's service."""

    def __init__(self, bot: TableBot) -> None:
        self.bot = bot
        self.service = ConexService(bot.storage, bot_user_id=bot.user.id if bot.user else None)
        bot.services[self.service.kind] = self.service
        self._resumed = False
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.register_board_recovery(self.service.kind, self.recover_board)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """After a (re)start: play pending AI turns once per process (a restart resumes an AI turn)."""
        if not self._resumed:
            self._resumed = True
            await self.resume_ai_games()

    # -- text helpers ---------------------------------------------------------------------------
    @staticmethod
    def locale_of(record: GameRecord) -> str | None:
        return record.state.get("locale")

    def who(self, record: GameRecord, seat: int) -> str:
        """A mention for a human seat, the name for an AI seat."""
        uid = record.players[seat]
        return names_of(record)[seat] if self.service.is_ai(uid) else _mention(uid)

    def lobby_text(self, record: GameRecord) -> str:
        loc = self.locale_of(record)
        names = names_of(record)
        seats = "\n".join(
            t("cn.lobby_seat", loc, n=i + 1, who=names[i] if self.service.is_ai(uid) else _mention(uid))
            for i, uid in enumerate(record.players)
        )
        return t(
            "cn.lobby", loc, host=names[0] if names else "?", table=record.state.get("table", "medium"),
            goal=record.state.get("goal", 40), seats=seats, n=len(record.players),
        )

    def events_text(self, record: GameRecord, events: Sequence[Event]) -> str:
        """What happened, from the engine's typed events (``engine/conex/events.py``; hidden cards never named)."""
        loc = self.locale_of(record)
        names = names_of(record)
        lines: list[str] = []
        for e in events:
            if isinstance(e, ev.Placed):
                on = t("cn.the_board", loc) if e.target == "board" else f"#{e.target}"
                key = "cn.ev_placed_double" if e.doubled else "cn.ev_placed"
                lines.append(t(key, loc, name=names[e.player], card=e.card, corner=e.corner, target=on,
                               points=e.points))
            elif isinstance(e, ev.DieRolled):
                lines.append(t("cn.ev_die", loc, name=names[e.player], face=e.face))
            elif isinstance(e, ev.Drew):
                lines.append(t("cn.ev_drew", loc, name=names[e.player], count=e.count))
            elif isinstance(e, ev.StarTaken):
                lines.append(t("cn.ev_star", loc, name=names[e.player], star=e.star))
            elif isinstance(e, ev.Passed):
                lines.append(t("cn.ev_passed", loc, name=names[e.player]))
            elif isinstance(e, ev.CardRemoved):
                lines.append(t("cn.ev_lightning", loc, name=names[e.player], card=e.card))
            elif isinstance(e, ev.DiscardsPending):
                who = ", ".join(self.who(record, s) for s in e.players)
                lines.append(t("cn.ev_discards", loc, who=who))
            elif isinstance(e, ev.Discarded):
                key = "cn.ev_discard_timeout" if e.random else "cn.ev_discarded"
                lines.append(t(key, loc, name=names[e.player]))
            elif isinstance(e, ev.TimedOut) and e.what == "turn":
                lines.append(t("cn.ev_turn_timeout", loc, name=names[e.player]))
            elif isinstance(e, ev.GoalReached):
                lines.append(t("cn.ev_goal", loc, name=names[e.player], score=e.score))
            elif isinstance(e, ev.Forfeited):
                lines.append(t("cn.ev_forfeit", loc, name=names[e.player]))
            elif isinstance(e, ev.TurnSkipped):
                lines.append(t("cn.ev_skipped", loc, name=names[e.player]))
            elif isinstance(e, ev.GameOver):
                lines.append(t("cn.ev_over", loc, reason=t(f"cn.reason_{e.outcome.reason}", loc)))
        return "\n".join(lines)

    def status_line(self, record: GameRecord, game: Game) -> str:
        """Whose turn it is, the scores and pending discards; or the final result."""
        loc = self.locale_of(record)
        names = names_of(record)
        gone = game.forfeited
        scores = ", ".join(
            f"{names[s]} {game.scores[s]}" + (" " + t("cn.forfeited_mark", loc) if s in gone else "")
            for s in range(game.players)
        )
        if record.status == "aborted":
            return t("cn.aborted", loc)
        if game.outcome is not None:
            winners = game.outcome.winners
            return t("cn.over", loc, winners=" & ".join(names[w] for w in winners), scores=scores)
        assert game.current_player is not None
        text = t("cn.to_play", loc, who=self.who(record, game.current_player), scores=scores,
                 pile=len(game.draw_pile), goal=game.goal)
        if game.pending_discards:
            waiting = ", ".join(self.who(record, s) for s in sorted(game.pending_discards))
            text += "\n" + t("cn.pending", loc, who=waiting)
        return text

    # -- publishing -----------------------------------------------------------------------------
    async def _board_payload(
        self, record: GameRecord, headline: str
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:
        """Content, files (table image, result card) and components of the table of ``record``."""
        from render.conex import render_table, table_text

        game = game_of(record)
        names = names_of(record)
        content = f"{headline}\n{self.status_line(record, game)}".strip()
        view: discord.ui.View | None = None
        if record.status == "active" and not game.is_over:
            view = table_view(
                record.id, record.version, pile_empty=not game.draw_pile,
                discards_pending=bool(game.pending_discards), locale=self.locale_of(record),
            )
        files: list[discord.File] = []
        try:
            png = await self.service.render_png(render_table, game, names=names)
            files.append(png_file(png, TABLE_FILENAME.format(game=record.id, version=record.version)))
        except Exception:
            log.exception("rendering the table of game %s failed; sending the text table", record.id)
            text_table = table_text(game, names=names, limit=1500)
            content = f"{content}\n```\n{text_table}\n```"
        if record.status == "finished":
            content, files = await self._with_result(record, game, names, content, files)
        return content[:2000], files, view

    async def _last_headline(self, record: GameRecord) -> str:
        """The last logged action (``"alice: place 12 c2 at 3.5,-10.0 r90"``), for a recovered table."""
        loc = self.locale_of(record)
        actions = await self.bot.storage.actions(record.id, after_seq=max(record.version - 1, 0))
        if not actions:
            return t("cn.board", loc)
        last = actions[-1]
        names = names_of(record)
        who = names[record.players.index(last.player)] if last.player in record.players else "?"
        if last.action == "start":
            return t("cn.started", loc, n=len(record.players), table=record.state.get("table", "medium"),
                     goal=record.state.get("goal", 40))
        text = "discard" if last.action.startswith("discard") else last.action  # a discarded card stays private
        return t("cn.last_action", loc, name=who, action=text)

    async def _with_result(
        self, record: GameRecord, game: Game, names: list[str], content: str, files: list[discord.File]
    ) -> tuple[str, list[discord.File]]:
        """Add the result card (ranking by score, E3) and the rating changes of a finished game."""
        from render.results import conex_result_text, render_conex_result

        loc = self.locale_of(record)
        try:
            png = await self.service.render_png(render_conex_result, game, names=names)
            files = [*files, png_file(png, f"conex-{record.id}-result.png")]
        except Exception:
            log.exception("rendering the result card of game %s failed", record.id)
            content = f"{content}\n{conex_result_text(game, names=names)}"
        changes = await self.bot.storage.rating_changes(record.id)
        if changes:
            seat = {uid: i for i, uid in enumerate(record.players)}
            parts = [f"{names[seat[c.user_id]]} {c.delta:+.1f}" for c in changes if c.user_id in seat]
            content = f"{content}\n{t('cn.rating_changes', loc, changes=', '.join(parts))}"
        elif record.result is not None and not record.result.rated:
            content = f"{content}\n{t('cn.not_rated', loc)}"
        return content, files

    async def within(self, interaction: discord.Interaction, work: Awaitable[T]) -> T:
        """Await ``work``; if it takes longer than :data:`DEFER_AFTER_S`, defer the interaction (public,
        thinking) meanwhile so Discord's 3 s limit is kept. If ``work`` then fails, the public "thinking" message
        is deleted first, so the refusal (a followup) stays ephemeral."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER_S)
        deferred = False
        if not done and not interaction.response.is_done():
            try:
                await interaction.response.defer(thinking=True)
                deferred = True
            except discord.HTTPException:
                log.warning("could not defer slow interaction %s", interaction.id)
        try:
            return await task
        except Exception:
            if deferred:  # drop the public "thinking" message so the refusal that follows stays private
                try:
                    await interaction.delete_original_response()
                except Exception as err:
                    log.info("could not delete the deferred response of %s: %s", interaction.id, err)
            raise

    def schedule_ai(self, record: GameRecord) -> None:
        """If an AI seat has something to do in ``record``, run it in the background."""
        if self.service.ai_to_act(record):
            self.bot.spawn(self.run_ai(record.id), name=f"conex-ai-{record.id}")

    async def run_ai(self, game_id: int) -> None:
        """Play AI seats' actions (discards, turns) until a human is to act, posting each table."""
        for _ in range(200):  # a bound: 4 seats x many turns never runs away
            try:
                committed = await self.service.ai_turn(game_id)
            except BotError as err:
                if err.key in ("err.stale", "err.conflict"):  # another seat acted (e.g. a discard): think again
                    log.info("AI turn of game %s computed on an old version; recomputing", game_id)
                    continue
                log.info("AI turn of game %s skipped: %s", game_id, err)  # the game closed meanwhile
                return
            if committed is None:
                return
            headline = self.events_text(committed.record, committed.info.get("events", []))
            await self.publish(committed.record, headline=headline)

    async def resume_ai_games(self) -> int:
        """After a restart: play every pending AI action. Returns how many games were resumed."""
        count = 0
        for record in await self.bot.storage.list_active_games(kind=self.service.kind):
            try:
                if self.service.ai_to_act(record):
                    await self.run_ai(record.id)
                    count += 1
            except Exception:  # one broken game (state, permissions) must not stop the others
                log.exception("could not resume the AI of game %s", record.id)
        return count

    # -- handlers shared by commands and components ---------------------------------------------
    async def _update_lobby(self, record: GameRecord, interaction: discord.Interaction, *, closed: str | None = None,
                            component: bool) -> None:
        """Refresh the lobby message: edited in place by its own buttons, else through the channel."""
        loc = self.locale_of(record)
        content = closed if closed is not None else self.lobby_text(record)
        view = None if closed is not None else lobby_view(record.id, locale=loc)
        if component:
            await interaction.response.edit_message(content=content, view=view)
            return
        lobby = record.messages.get("lobby")
        if lobby:
            channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
            try:
                await channel.get_partial_message(lobby).edit(content=content, view=view)
            except discord.HTTPException as err:
                log.info("could not update lobby message %s: %s", lobby, err)

    @staticmethod
    def _is_component(interaction: discord.Interaction) -> bool:
        return interaction.type == discord.InteractionType.component

    async def handle_join(self, interaction: discord.Interaction, game_id: int) -> None:
        committed = await self.service.join(game_id, interaction.user.id, interaction.user.display_name)
        record = committed.record
        await self._update_lobby(record, interaction, component=self._is_component(interaction))
        if not self._is_component(interaction):
            await reply(interaction, t("cn.joined", self.locale_of(record), name=interaction.user.display_name,
                                       n=len(record.players)))

    async def handle_add_bot(self, interaction: discord.Interaction, game_id: int) -> None:
        committed = await self.service.add_bot(game_id, interaction.user.id)
        await self._update_lobby(committed.record, interaction, component=self._is_component(interaction))
        if not self._is_component(interaction):
            await reply(interaction, t("cn.joined", self.locale_of(committed.record), name=committed.info["name"],
                                       n=len(committed.record.players)))

    async def handle_leave(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self.service.get(game_id)
        loc = self.locale_of(record)
        name = interaction.user.display_name
        if record.status == "active":  # a forfeit: confirmed privately first
            seat = self.service.seat_of(record, interaction.user.id)
            if seat in forfeited_of(record):
                raise BotError("cn.forfeited")
            await reply(interaction, t("cn.confirm_forfeit", interaction.locale), ephemeral=True,
                        view=forfeit_view(game_id, locale=interaction.locale.value))
            return
        committed = await self.service.leave_lobby(game_id, interaction.user.id)
        component = self._is_component(interaction)
        if committed.info.get("closed"):
            await self._update_lobby(committed.record, interaction, closed=t("cn.lobby_closed", loc, name=name),
                                     component=component)
            if not component:
                await reply(interaction, t("cn.lobby_closed", loc, name=name))
            return
        await self._update_lobby(committed.record, interaction, component=component)
        if not component:
            await reply(interaction, t("cn.left", loc, name=name))

    async def handle_forfeit(self, interaction: discord.Interaction, game_id: int) -> None:
        """The confirmed forfeit: the seat stops playing (see ``bot/service/conex.py``), then the new table."""
        committed = await self.service.forfeit(game_id, interaction.user.id)
        headline = self.events_text(committed.record, committed.info.get("events", []))
        await self.publish(committed.record, headline=headline, interaction=interaction)
        self.schedule_ai(committed.record)

    async def handle_start(self, interaction: discord.Interaction, game_id: int) -> None:
        committed = await self.service.start(game_id, interaction.user.id)
        record = committed.record
        loc = self.locale_of(record)
        started = t("cn.started", loc, n=len(record.players), table=record.state["table"], goal=record.state["goal"])
        if self._is_component(interaction):
            await interaction.response.edit_message(content=f"{self.lobby_text(record)}\n{started}", view=None)
        else:
            lobby = record.messages.get("lobby")
            if lobby:
                await self._strip(record, lobby, f"{self.lobby_text(record)}\n{started}")
        await self.publish(record, headline=started, interaction=interaction)
        self.schedule_ai(record)

    async def handle_action(
        self, interaction: discord.Interaction, game_id: int, action: str | AnyAction, *,
        expected_version: int | None = None,
    ) -> None:
        """Draw, pass, lightning, discard or an exact placement (a hint) for the caller; then the new table."""
        committed = await self.within(interaction, self._showing_expired(
            self.service.act(game_id, interaction.user.id, action, expected_version=expected_version)
        ))
        await self.after_action(interaction, committed.record, committed.info)

    async def _showing_expired(self, work: Awaitable[T]) -> T:
        """Await ``work`` (a service action); if it is refused after overdue discards were made at random for it
        (X3 timeout, ``err.expired``), post the table showing those discards in the background, then re-raise."""
        try:
            return await work
        except Exception as err:
            expired = getattr(err, "expired", None)
            if expired:
                last = expired[-1].record
                events = [e for c in expired for e in c.info.get("events", [])]
                self.bot.spawn(self.publish(last, headline=self.events_text(last, events)),
                               name=f"conex-table-{last.id}")
            raise

    async def after_action(self, interaction: discord.Interaction, record: GameRecord, info: dict[str, Any]) -> None:
        headline = self.events_text(record, info.get("events", []))
        await self.publish(record, headline=headline, interaction=interaction)
        self.schedule_ai(record)

    async def handle_hand(self, interaction: discord.Interaction, game_id: int) -> None:
        """The caller's hand, privately: image with legal placement counts (computed off the loop), the text
        twin, and the discard select when a discard is pending (X3)."""
        from render.conex import hand_text, render_hand

        record = await self.service.get(game_id)
        seat = self.service.seat_of(record, interaction.user.id)
        game = game_of(record)
        await interaction.response.defer(ephemeral=True, thinking=True)
        counts = await asyncio.to_thread(game.legal_counts, seat)
        png = await self.service.render_png(render_hand, game, seat, legal_counts=counts)
        text = hand_text(game, seat, legal_counts=counts)
        kwargs: dict[str, Any] = {}
        if seat in game.pending_discards and game.hands[seat]:
            kwargs["view"] = discard_view(record.id, game.hand(seat), locale=interaction.locale.value)
            text += "\n" + t("cn.must_discard", interaction.locale)
        first, *more = split_text(text)  # a big hand (27+ cards) does not fit one message: never cut it
        await interaction.edit_original_response(
            content=first, attachments=[png_file(png, f"conex-hand-{record.id}.png")], **kwargs
        )
        for part in more:
            await interaction.followup.send(part, ephemeral=True)

    async def handle_hints(self, interaction: discord.Interaction, game_id: int) -> None:
        """Up to 9 legal placements as numbered ghosts on the table, privately, with buttons to play them."""
        from render.conex import render_table

        record = await self.service.get(game_id)
        seat = self.service.seat_of(record, interaction.user.id)
        game = game_of(record)
        try:
            game.check(_probe(game, seat))  # not your turn / pending discard / over: refused before any work
        except RuleError as err:
            raise humanized(err, record, game) from err
        await interaction.response.defer(ephemeral=True, thinking=True)
        hints = await asyncio.to_thread(self.service.hints, game, seat)
        loc = interaction.locale
        if not hints:
            await interaction.edit_original_response(content=t("cn.no_hints", loc))
            return
        near_board = all(abs(h.place.x) <= BOARD_ZOOM_CM[0] and abs(h.place.y) <= BOARD_ZOOM_CM[1] for h in hints)
        png = await self.service.render_png(
            render_table, game, names=names_of(record), ghosts=[h.place for h in hints],
            zoom="board" if near_board else None,
        )
        lines = [
            t("cn.hint_line", loc, n=n, card=h.place.card, corner=h.place.corner, x=h.place.x, y=h.place.y,
              rot=h.place.rotation or 0.0, points=h.points)
            for n, h in enumerate(hints, start=1)
        ]
        content = t("cn.hints", loc) + "\n" + "\n".join(lines)
        await interaction.edit_original_response(
            content=content[:2000], attachments=[png_file(png, f"conex-hints-{record.id}.png")],
            view=hints_view(record.id, record.version, hints, locale=loc.value),
        )

    async def handle_discard_prompt(self, interaction: discord.Interaction, game_id: int) -> None:
        record = await self.service.get(game_id)
        seat = self.service.seat_of(record, interaction.user.id)
        game = game_of(record)
        if seat not in game.pending_discards or not game.hands[seat]:
            raise BotError("cn.no_discard", rule="X3")
        await reply(interaction, t("cn.must_discard", interaction.locale), ephemeral=True,
                    view=discard_view(record.id, game.hand(seat), locale=interaction.locale.value))

    # -- commands -------------------------------------------------------------------------------
    async def _game_here(self, interaction: discord.Interaction) -> GameRecord:
        return await self.service.channel_game(interaction.channel_id or 0)

    async def _running(self, interaction: discord.Interaction) -> GameRecord:
        record = await self._game_here(interaction)
        if record.status == "lobby":
            raise BotError("err.not_started")
        return record

    @app_commands.command(name="new", description="Open a CONEX lobby in this channel (2-4 players)")
    @app_commands.describe(table="Table size (small 70x50, medium 100x70, large 140x90 cm)",
                           goal="Points to reach (20-100, default 40)")
    async def new(
        self, interaction: discord.Interaction, table: Literal["small", "medium", "large"] = "medium",
        goal: app_commands.Range[int, 20, 100] = 40,
    ) -> None:
        """Open a lobby here; in a busy channel (another game open) in a new public thread when the bot may create
        one (else ``err.channel_busy_no_thread``), like ``/constructo challenge``, including when another game
        takes the channel between the check and the create. The lobby message is stored (key ``"lobby"``)."""
        loc = interaction.guild_locale.value if interaction.guild_locale else None
        kwargs: dict[str, Any] = {"host": interaction.user.id, "name": interaction.user.display_name,
                                  "table": table, "goal": goal, "locale": loc}
        self.service.prepare_new(**kwargs)  # validate before touching channels
        guild_id = interaction.guild_id or 0
        channel_id = interaction.channel_id or 0
        title = t("cn.thread_title", loc, host=interaction.user.display_name)
        thread: discord.Thread | None = None
        if await self.service.in_channel(channel_id) is not None:
            thread = await self._open_thread(interaction, title)
            channel_id = thread.id
        try:
            record = await self.service.new(guild_id=guild_id, channel_id=channel_id, **kwargs)
        except BotError as err:
            if err.key != "err.channel_busy" or thread is not None:
                raise
            # another game took the channel between the check and the create: use a thread too
            thread = await self._open_thread(interaction, title)
            record = await self.service.new(guild_id=guild_id, channel_id=thread.id, **kwargs)
        view = lobby_view(record.id, locale=loc)
        if thread is not None:
            posted = await thread.send(self.lobby_text(record), view=view)
            await self.service.set_message(record.id, "lobby", posted.id)
            await reply(interaction, t("cn.opened_in_thread", loc, thread=thread.mention))
            return
        await reply(interaction, self.lobby_text(record), view=view)
        try:
            msg = await interaction.original_response()
            await self.service.set_message(record.id, "lobby", msg.id)
        except discord.HTTPException as err:
            log.info("could not fetch the lobby message of game %s: %s", record.id, err)

    async def _open_thread(self, interaction: discord.Interaction, title: str) -> discord.Thread:
        """A public thread of the command's text channel. Raises ``BotError("err.channel_busy_no_thread")`` when
        the channel is not a text channel or the bot may not create threads or speak in them."""
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

    @app_commands.command(name="join", description="Join this channel's CONEX lobby")
    async def join(self, interaction: discord.Interaction) -> None:
        record = await self._game_here(interaction)
        await self.handle_join(interaction, record.id)

    @app_commands.command(name="addbot", description="Host: add an AI player to the CONEX lobby")
    async def addbot(self, interaction: discord.Interaction) -> None:
        record = await self._game_here(interaction)
        await self.handle_add_bot(interaction, record.id)

    @app_commands.command(name="start", description="Host: start this channel's CONEX game")
    async def start(self, interaction: discord.Interaction) -> None:
        record = await self._game_here(interaction)
        await self.handle_start(interaction, record.id)

    @app_commands.command(name="hand", description="See your CONEX hand (only you see it)")
    async def hand(self, interaction: discord.Interaction) -> None:
        record = await self._running(interaction)
        await self.handle_hand(interaction, record.id)

    @app_commands.command(name="place", description="Place a card from your hand (exact pose or auto-fit)")
    @app_commands.describe(
        card="Your card: hand letter (A, B...) or card number",
        corner="Which CONEX corner of the card (1-3, as printed)",
        x="Where the corner lands: x in cm from the board centre (right is +)",
        y="Where the corner lands: y in cm from the board centre (down is +)",
        rotation="Card rotation in degrees clockwise (default: the best legal one)",
        target="Table card number the corner goes on, or 'board' (auto-fit when x/y are omitted)",
        double="Use your 2x star on this placement",
    )
    async def place(
        self, interaction: discord.Interaction, card: str, corner: app_commands.Range[int, 1, 3],
        x: Coord | None = None, y: Coord | None = None, rotation: Degrees | None = None,
        target: str | None = None, double: bool = False,
    ) -> None:
        record = await self._running(interaction)
        committed = await self.within(interaction, self._showing_expired(self.service.place(
            record.id, interaction.user.id, card=card, corner=corner, x=x, y=y, rotation=rotation, target=target,
            double=double,
        )))
        await self.after_action(interaction, committed.record, committed.info)

    async def _my_game(self, interaction: discord.Interaction) -> tuple[GameRecord, Game, int] | None:
        """For autocomplete: the caller's running game here, its engine state and seat (never raises)."""
        try:
            record = await self.service.in_channel(interaction.channel_id or 0)
            if record is None or record.kind != self.service.kind or record.status != "active":
                return None
            if interaction.user.id not in record.players:
                return None
            return record, game_of(record), record.players.index(interaction.user.id)
        except Exception:
            log.exception("autocomplete could not load the game of channel %s", interaction.channel_id)
            return None

    @place.autocomplete("card")
    async def _card_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return await self._hand_choices(interaction, current)

    async def _hand_choices(self, interaction: discord.Interaction, current: str) -> StrChoices:
        """The caller's hand as choices ``"A · #12 red +2 · 1:Y4 2:P3"`` -> card number (at most 25)."""
        found = await self._my_game(interaction)
        if found is None:
            return []
        _record, game, seat = found
        text = str(current).strip().lower().lstrip("#")
        out = []
        for i, c in enumerate(game.hand(seat)):
            label = card_label(c, i)
            if not text or text in label.lower() or str(c.id).startswith(text):
                out.append(app_commands.Choice(name=label, value=str(c.id)))
        return out[:25]

    @place.autocomplete("target")
    async def _target_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        found = await self._my_game(interaction)
        if found is None:
            return []
        _record, game, _seat = found
        return _table_choices(game, current, interaction.locale, board=True, free_only=False)

    @app_commands.command(name="hints", description="Private preview of good legal placements for your hand")
    async def hints(self, interaction: discord.Interaction) -> None:
        record = await self._running(interaction)
        await self.handle_hints(interaction, record.id)

    @app_commands.command(name="draw", description="Draw two cards from the draw pile (ends your turn)")
    async def draw(self, interaction: discord.Interaction) -> None:
        record = await self._running(interaction)
        await self.handle_action(interaction, record.id, "draw")

    @app_commands.command(name="pass", description="Pass your turn (only when the draw pile is empty)")
    async def pass_(self, interaction: discord.Interaction) -> None:
        record = await self._running(interaction)
        await self.handle_action(interaction, record.id, "pass")

    @app_commands.command(name="lightning", description="Use your lightning star: remove a free table card")
    @app_commands.describe(card="Number of a free card on the table")
    async def lightning(self, interaction: discord.Interaction, card: app_commands.Range[int, 1, 52]) -> None:
        record = await self._running(interaction)
        await self.handle_action(interaction, record.id, f"lightning {card}")

    @lightning.autocomplete("card")
    async def _lightning_autocomplete(self, interaction: discord.Interaction, current: str | int) -> list[Any]:
        found = await self._my_game(interaction)
        if found is None:
            return []
        _record, game, _seat = found
        return [app_commands.Choice(name=c.name, value=int(c.value))
                for c in _table_choices(game, str(current or ""), interaction.locale, board=False, free_only=True)]

    @app_commands.command(name="discard", description="Discard a card after a lightning (to the bottom of the pile)")
    @app_commands.describe(card="Your card: hand letter (A, B...) or card number")
    async def discard(self, interaction: discord.Interaction, card: str) -> None:
        from bot.service.conex import parse_card_ref

        record = await self._running(interaction)
        seat = self.service.seat_of(record, interaction.user.id)
        card_id = parse_card_ref(game_of(record), seat, card)
        await self.handle_action(interaction, record.id, f"discard {card_id}")

    @discard.autocomplete("card")
    async def _discard_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        return await self._hand_choices(interaction, current)

    @app_commands.command(name="board", description="Show this channel's CONEX table again")
    @app_commands.describe(text="Show the table as text (only you will see it)",
                           zoom="Zoom on a table card number, or 'last' (only you will see it)")
    async def board(self, interaction: discord.Interaction, text: bool = False, zoom: str | None = None) -> None:
        from bot.service.conex import parse_target
        from render.conex import render_table, table_text

        record = await self._running(interaction)
        game = game_of(record)
        names = names_of(record)
        if text:
            text_table = table_text(game, names=names, limit=1900)
            await reply(interaction, f"```\n{text_table}\n```", ephemeral=True)
            return
        if zoom is not None:
            key = zoom.strip().lower()
            focus: int | str | None = "last" if key == "last" else parse_target(zoom)
            if isinstance(focus, int) and focus not in [tc.card.id for tc in game.table]:
                raise BotError("cn.not_on_table", rule="Input", card=focus)
            await interaction.response.defer(ephemeral=True, thinking=True)
            png = await self.service.render_png(
                render_table, game, names=names, zoom=focus
            )
            await interaction.edit_original_response(
                content=t("cn.zoom", interaction.locale, zoom=zoom),
                attachments=[png_file(png, f"conex-{record.id}-zoom.png")],
            )
            return
        await self.publish(record, headline=t("cn.board", interaction.locale), interaction=interaction)
        self.schedule_ai(record)  # a safety net: a pending AI turn is played now

    @board.autocomplete("zoom")
    async def _zoom_autocomplete(self, interaction: discord.Interaction, current: str) -> StrChoices:
        found = await self._my_game(interaction)
        if found is None:
            return []
        choices = [app_commands.Choice(name=t("cn.zoom_last", interaction.locale), value="last")]
        return (choices + _table_choices(found[1], current, interaction.locale, board=True, free_only=False))[:25]

    @app_commands.command(name="leave", description="Leave the lobby, or forfeit the running CONEX game")
    async def leave(self, interaction: discord.Interaction) -> None:
        record = await self._game_here(interaction)
        await self.handle_leave(interaction, record.id)

    @app_commands.command(name="rules", description="The rules of CONEX in short")
    async def rules(self, interaction: discord.Interaction) -> None:
        await reply(interaction, t("cn.rules", interaction.locale), ephemeral=True)


def split_text(text: str, limit: int = 2000) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters (Discord's message content limit), cut between lines
    (a single over-long line is cut hard). Always at least one piece."""
    parts: list[str] = []
    current = ""
    for line in text.split("\n"):
        while len(line) > limit:
            if current:
                parts.append(current)
                current = ""
            parts.append(line[:limit])
            line = line[limit:]
        candidate = f"{current}\n{line}" if current else line
        if len(candidate) > limit:
            parts.append(current)
            current = line
        else:
            current = candidate
    parts.append(current)
    return parts


def _probe(game: Game, seat: int) -> AnyAction:
    """An action whose ``check`` tells whether ``seat`` may make a main action now."""
    from engine.conex import Draw, Pass

    return Draw(seat) if game.draw_pile else Pass(seat)


def _table_choices(
    game: Game, current: str, locale: discord.Locale, *, board: bool, free_only: bool
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices over visible table cards (newest first) and the board; at most 25."""
    from engine.conex import COLOR_NAMES

    text = str(current).strip().lower().lstrip("#")
    out: list[app_commands.Choice[str]] = []
    if board and (not text or "board".startswith(text)):
        out.append(app_commands.Choice(name=t("cn.the_board", locale), value="board"))
    for tc in reversed(game.table):
        if free_only and not game.board.is_free(tc.card.id):
            continue
        label = f"#{tc.card.id} {COLOR_NAMES[tc.card.color]}" + (" +2" if tc.card.action == "plus2" else "")
        if not text or str(tc.card.id).startswith(text) or text in label.lower():
            out.append(app_commands.Choice(name=label[:100], value=str(tc.card.id)))
    return out[:25]


async def setup(bot: TableBot) -> None:
    """Extension entry point: ``bot.load_extension("bot.cogs.conex")``."""
    await bot.add_cog(ConexCog(bot))
