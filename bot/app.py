"""The bot: ``TableBot`` (a ``commands.Bot``), its command tree, startup and command sync.

Startup (``setup_hook``, runs once per process, after login and before the gateway connects):
open storage (``DATA_DIR/tablebot.sqlite3``), install the command translator, create the game layer
(``bot.games``: every registered game of :mod:`bot.core.registry`, with its persistent ``DynamicItem``
classes), load each game's commands (``<game package>.cog``) and the shared commands, then sync the command
tree **only if it differs from what Discord reports** for the application (one ``GET``, :mod:`bot.sync`).
Never in ``on_ready``, which fires again on every reconnect.

On every READY the game layer re-posts stale boards and resumes AI seats (``GameLayer.on_ready``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import gcpolicy, metrics
from bot.config import Config
from bot.core.layer import GameLayer
from bot.first_response import FirstResponseGuard
from bot.i18n import CatalogueTranslator
from bot.lease import ShardLease
from bot.storage import Storage
from bot.sync import same_commands
from bot.ui.claim import ClaimButton
from bot.ui.common import refuse
from bot.ui.components import seating_items
from bot.ui.installs import TREE_INSTALLS
from bot.wiring import wire

if TYPE_CHECKING:
    from bot.health import Health
from bot.ui import forged, payloads, typed

log = logging.getLogger(__name__)

SHARED_EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.shared",
    "bot.cogs.records",
    "bot.cogs.settings",
    "bot.cogs.unstuck",
    "bot.cogs.about",
    "bot.cogs.me",
    "bot.cogs.play",
    "bot.cogs.learn",
    "bot.cogs.tournament",
)
"""Cogs of every game (``/leaderboard``, ``/stats``, ``/help``, ``/abort``; ``/history``, ``/replay``; ``/settings``;
``/abandon``, ``/games``, leaving a guild), loaded after the games' own."""


def extensions(layer: GameLayer) -> list[str]:
    """Every cog module to load: each registered game's ``<package>.cog``, then :data:`SHARED_EXTENSIONS`."""
    return [f"{kind.package}.cog" for kind in layer.kinds.values()] + list(SHARED_EXTENSIONS)


class GameTree(app_commands.CommandTree):
    """Command tree whose error handler answers every failed command exactly once, ephemerally; options a client
    forged are refused before any command runs (:mod:`bot.ui.payloads`); every string option is read as typed
    (:mod:`bot.ui.typed`: NFKC, no invisible format characters, stripped)."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        refusal = payloads.problem(self, interaction)
        if refusal is None:
            typed.normalise_options(interaction.data)
            return True
        data: dict[str, Any] = dict(interaction.data or {})
        log.info(
            "command %r of user %s refused: forged option (%s)",
            data.get("name"),
            interaction.user.id,
            refusal.kwargs.get("option"),
        )
        if interaction.type == discord.InteractionType.autocomplete:
            if not interaction.response.is_done():
                await interaction.response.autocomplete([])
        else:
            await refuse(interaction, refusal)
        return False

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        elif isinstance(error, app_commands.TransformerError):
            from bot.core.names import plain
            from bot.errors import BotError

            original = BotError("err.bad_option", value=plain(str(error.value)[:100]))
        elif isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            from bot.errors import BotError

            original = BotError("err.unknown_command")
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            from bot.errors import BotError

            original = BotError("err.forbidden")
        await refuse(interaction, original)


GUILD_READY_ENV = "TABLEBOT_GUILD_READY_S"
"""Tests only: seconds discord.py waits after the last ``GUILD_CREATE`` before READY counts as done (its
``guild_ready_timeout``; default 2.0). The local Discord-compatible server sends every guild at once, so the e2e
tests' bot processes set it low and a restart's recovery (``on_ready``) starts without a fixed 2 s wait."""


def guild_ready_from_env() -> float | None:
    """``$TABLEBOT_GUILD_READY_S`` as seconds (None: unset or empty: discord.py's default). Raises ``ValueError``
    unless a number >= 0."""
    raw = os.environ.get(GUILD_READY_ENV, "").strip()
    if not raw:
        return None
    seconds = float(raw)
    if not seconds >= 0:
        raise ValueError(f"{GUILD_READY_ENV} must be a number of seconds >= 0, not {raw!r}")
    return seconds


class TableBot(commands.Bot):
    """The Discord bot. ``storage`` may be given (tests); otherwise opened in ``setup_hook``.

    Attributes:
        config: the :class:`~bot.config.Config`.
        storage: the open :class:`bot.storage.Storage` (after ``setup_hook``).
        games: the :class:`~bot.core.layer.GameLayer` (after ``setup_hook``).
    """

    def __init__(
        self, config: Config, *, storage: Storage | None = None, sync_commands: bool = True, **client_options: Any
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        # no message cache: the bot reads no message events, and discord.py's default keeps the last 1,000
        # messages of every channel it sees (components and all) only for those events
        client_options.setdefault("max_messages", None)
        ready_s = guild_ready_from_env()
        if ready_s is not None:
            client_options.setdefault("guild_ready_timeout", ready_s)
        # The bot reads no messages (it answers interactions): without these intents the gateway sends no
        # MESSAGE_CREATE/UPDATE/DELETE, not even for the bot's own board posts and edits (each parsed into a
        # discord.Message for nothing: a share of the loop's CPU per placement).
        intents.guild_messages = False
        intents.dm_messages = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GameTree,
            allowed_installs=TREE_INSTALLS,  # a server command unless it says otherwise (bot/ui/installs.py)
            allowed_mentions=discord.AllowedMentions.none(),  # pings only where stated (bot.core.mentions)
            **client_options,
        )
        self.config = config
        self._given_storage = storage
        self.storage: Storage = storage  # type: ignore[assignment]  # set in setup_hook when None
        self.games: GameLayer = None  # type: ignore[assignment]  # set in setup_hook
        self.sync_enabled = sync_commands
        self.background: set[asyncio.Task[Any]] = set()
        self.failed_extensions: list[str] = []
        self.first_response = FirstResponseGuard()
        self.health: Health | None = None  # set by ``python -m bot`` (bot.health): gateway state, /readyz
        self.started_at = time.time()
        self.lease: ShardLease | None = None  # PostgreSQL: set by ``python -m bot`` before connecting (bot.lease)
        self.dynamic_classes: list[type[discord.ui.DynamicItem[Any]]] = []
        self.live_table: Any = None  # set by ``python -m bot`` when WEB_PORT is set (bot.web): attached below

    # -- startup -------------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        if self.storage is None:
            self.config.data_dir.mkdir(parents=True, exist_ok=True)
            self.storage = await Storage.open(self.config.storage_target, pool_size=self.config.database_pool_size)
        await self.tree.set_translator(CatalogueTranslator())
        self.games = wire(GameLayer(self))
        await self.games.languages.reload()  # players' own languages, before the first interaction (bot.services)
        self.first_response.pressure = lambda: self.games.admission.busy  # loaded: answer first (bot.core.admission)
        self.storage.use_clock(self.games.clock.now)  # stored times and due times on the bot's one clock
        metrics.instrument_storage(self.storage)
        metrics.instrument_pools(self.games.pools)
        self.games.on_committed.append(metrics.count_committed)
        self._outbox_scrape = metrics.instrument_outbox(self.games)
        metrics.gauge(
            "lease_held",
            "1 while this process holds its shards' lease (PostgreSQL; 1 on SQLite: its file lock admits one process)",
            fn=lambda: 1.0 if self.lease_held else 0.0,
        )
        self.spawn(self.games.pools.warm(), name="cpu-warm-up")
        for kind in self.games.kinds.values():
            self.add_dynamic_items(*seating_items(kind), *kind.components.dynamic_items)
        self.add_dynamic_items(ClaimButton)
        if self.live_table is not None:
            self.live_table.attach()
        for name in extensions(self.games):
            try:
                await self.load_extension(name)
            except commands.ExtensionError:  # one broken game must not take the others down
                log.exception("extension %s failed to load; its commands are unavailable", name)
                self.failed_extensions.append(name)
        if self.sync_enabled:
            await self.sync_commands()
        gcpolicy.freeze()  # what lives as long as the process: never scanned again (bot/gcpolicy.py)

    def spawn(self, coro: Any, *, name: str) -> asyncio.Task[Any]:
        """Run ``coro`` in the background, keeping a reference and logging its failure."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.background.add(task)

        def done(t: asyncio.Task[Any]) -> None:
            self.background.discard(t)
            if not t.cancelled() and t.exception() is not None:
                log.error("background task %s failed", name, exc_info=t.exception())

        task.add_done_callback(done)
        return task

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        # Runs inside the gateway parser, before any handler task of the interaction starts.
        if event_name == "interaction" and args:
            languages = getattr(self.games, "languages", None)
            if languages is not None:  # a player's own language (/mysettings) before any handler reads it
                languages.apply(args[0])
            self.first_response.attach(args[0])
            forged.screen(self, args[0])  # a component no handler takes: answered privately (issue 22)
        if self.health is not None:
            self.health.on_event(event_name, args)
        super().dispatch(event_name, *args, **kwargs)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register persistent components, each hardened against forged custom ids (:mod:`bot.ui.forged`)."""
        hardened = [forged.harden(i) for i in items]
        self.dynamic_classes.extend(hardened)
        super().add_dynamic_items(*hardened)

    # -- command sync --------------------------------------------------------------------------
    def sync_target(self) -> discord.Object | None:
        """The development guild (``DEV_GUILD_ID``) or ``None`` for a global sync."""
        return discord.Object(id=self.config.dev_guild_id) if self.config.dev_guild_id else None

    async def command_payload(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        """The exact payload ``tree.sync(guild=...)`` would send (translated)."""
        commands_ = self.tree.get_commands(guild=guild)
        translator = self.tree.translator
        if translator is not None:
            return [await c.get_translated_payload(self.tree, translator) for c in commands_]
        return [c.to_dict(self.tree) for c in commands_]

    async def remote_commands(self, guild: discord.Object | None) -> list[dict[str, Any]]:
        """The application's commands as Discord reports them (one ``GET``, with localizations)."""
        app_id = self.application_id
        if guild is not None:
            route = discord.http.Route(
                "GET",
                "/applications/{application_id}/guilds/{guild_id}/commands",
                application_id=app_id,
                guild_id=guild.id,
            )
        else:
            route = discord.http.Route("GET", "/applications/{application_id}/commands", application_id=app_id)
        data: list[dict[str, Any]] = await self.http.request(route, params={"with_localizations": "true"})
        return data

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the tree to the dev guild or globally when it differs from what Discord reports (one ``GET``,
        :mod:`bot.sync`), or ``force``. Returns True if a sync request was sent."""
        guild = self.sync_target()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        where = f"guild {guild.id}" if guild else "global"
        if not force:
            try:
                if same_commands(payload, await self.remote_commands(guild)):
                    log.info("command tree unchanged (%s), no sync", where)
                    return False
            except discord.HTTPException as err:
                log.warning("could not read the registered commands (%s): %s; syncing", where, err)
        await self.tree.sync(guild=guild)
        log.info("command tree synced (%s, %d commands)", where, len(payload))
        return True

    # -- shutdown ------------------------------------------------------------------------------
    async def close(self) -> None:
        self.first_response.close()
        if getattr(self, "_outbox_scrape", None) is not None:
            metrics.remove_scrape_hook(self._outbox_scrape)
        if self.games is not None:
            self.games.outbox.close()
            self.games.publisher.close()
            self.games.pools.close()
        for task in list(self.background):
            task.cancel()
        await super().close()
        if self.storage is not None and self._given_storage is None:
            await self.storage.close()

    @property
    def lease_held(self) -> bool:
        """True while this process may serve its shards: it holds its PostgreSQL shard lease (``bot.lease``), or
        has none to hold (SQLite: the file lock admitted it). False once the lease is lost (the bot is stopping)."""
        return self.lease is None or self.lease.held

    def owns(self, guild_id: int | None) -> bool:
        """True if this process runs the shard of ``guild_id`` (always, unsharded): background work (board
        recovery, AI resume, retries) is done only for the guilds it owns."""
        return self.config.owns_guild(guild_id)

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) in %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        if self.games is not None:
            self.spawn(self.games.on_ready(), name="board-recovery")
        gcpolicy.freeze()  # the guilds, channels and members cached on connecting


class ShardedTableBot(TableBot, commands.AutoShardedBot):
    """:class:`TableBot` running shards ``config.shard_ids`` of ``config.shard_count`` (discord.py's
    ``AutoShardedBot``): several processes, each with some shards, share one PostgreSQL database."""

    def __init__(self, config: Config, **kwargs: Any) -> None:
        assert config.shard_count is not None and config.shard_ids is not None
        super().__init__(config, shard_count=config.shard_count, shard_ids=list(config.shard_ids), **kwargs)


def make_bot(config: Config, **kwargs: Any) -> TableBot:
    """The bot for ``config``: sharded when ``SHARD_COUNT`` is set."""
    if config.shard_count is None:
        return TableBot(config, **kwargs)
    return ShardedTableBot(config, **kwargs)
