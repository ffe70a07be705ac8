"""The bot: ``TableBot`` (a ``commands.Bot``), its command tree, startup and command sync.

Startup (``setup_hook``, runs once per process, after login and before the gateway connects):
open storage (``DATA_DIR/tablebot.sqlite3``), install the command translator, load the game
cogs (each registers its persistent ``DynamicItem`` classes and its service in
``bot.services[kind]``), then sync the command tree **only if its hash changed** (the hash of the
translated command payloads is kept in storage meta ``commands_hash:<target>``). Never in
``on_ready``, which fires again on every reconnect.

Board recovery (the hook every game cog uses, see ``docs/bot.md``): a cog registers
``bot.register_board_recovery(kind, recover)`` where ``await recover(game_id)`` re-posts the game's
board if it is still stale (:meth:`~bot.service.base.GameService.board_stale`). On every READY,
:meth:`TableBot.recover_boards` re-posts the board of every open game whose stored board is older
than its version (or missing); :meth:`TableBot.board_post_failed` (called by a cog when posting a
board failed) retries the recovery later with backoff (``board_retry_delays_s``), and
:meth:`TableBot.board_posted` (called after every successful board post) resets that backoff.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import Config
from bot.i18n import CatalogueTranslator
from bot.service.base import GameService
from bot.storage import Storage
from bot.views.common import refuse

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("bot.cogs.constructo", "bot.cogs.conex", "bot.cogs.shared")
"""Cogs loaded at startup (one that fails to load is logged and listed in ``failed_extensions``)."""
HEARTBEAT_EVERY_S = 30.0

BoardRecovery = Callable[[int], Awaitable[bool]]
"""``await recover(game_id)``: re-post the game's board if it is still stale; returns True if it
posted one. Raises on failure (then it is retried)."""


class GameTree(app_commands.CommandTree):
    """Command tree whose error handler answers every failed command exactly once, ephemerally."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        original: BaseException = error
        if isinstance(error, app_commands.CommandInvokeError):
            original = error.original
        elif isinstance(error, app_commands.TransformerError):
            from bot.errors import BotError

            original = BotError("err.bad_option", value=str(error.value)[:100])
        elif isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
            from bot.errors import BotError

            original = BotError("err.forbidden")
        await refuse(interaction, original)


class TableBot(commands.Bot):
    """The Discord bot. ``storage`` may be given (tests); otherwise opened in ``setup_hook``.

    Attributes:
        config: the :class:`~bot.config.Config`.
        storage: the open :class:`bot.storage.Storage` (after ``setup_hook``).
        services: game services by kind (``"constructo"``, ``"conex"``), set by the cogs.
    """

    def __init__(self, config: Config, *, storage: Storage | None = None, sync_commands: bool = True) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.config = config
        self._given_storage = storage
        self.storage: Storage = storage  # type: ignore[assignment]  # set in setup_hook when None
        self.services: dict[str, GameService] = {}
        self.sync_enabled = sync_commands
        self.background: set[asyncio.Task[Any]] = set()
        self.failed_extensions: list[str] = []
        self.board_recovery: dict[str, BoardRecovery] = {}
        self.board_retry_delays_s: tuple[float, ...] = (2.0, 10.0, 30.0, 120.0, 600.0)
        self._board_retries: dict[tuple[str, int], asyncio.TimerHandle] = {}
        self._board_attempts: dict[tuple[str, int], int] = {}
        self._recovering = False

    # -- startup -------------------------------------------------------------------------------
    async def setup_hook(self) -> None:
        if self.storage is None:
            self.config.data_dir.mkdir(parents=True, exist_ok=True)
            self.storage = await Storage.open(self.config.storage_target, pool_size=self.config.database_pool_size)
        await self.tree.set_translator(CatalogueTranslator())
        for name in EXTENSIONS:
            try:
                await self.load_extension(name)
            except commands.ExtensionError:  # one broken game must not take the others down
                log.exception("extension %s failed to load; its commands are unavailable", name)
                self.failed_extensions.append(name)
        if self.sync_enabled:
            await self.sync_commands()
        self.spawn(self._heartbeat(), name="heartbeat")

    async def _heartbeat(self) -> None:
        """Touch ``DATA_DIR/heartbeat`` every 30 s while connected (``python -m bot healthcheck``)."""
        path = self.config.data_dir / "heartbeat"
        while not self.is_closed():
            if self.is_ready():
                try:
                    await asyncio.to_thread(path.touch)
                except OSError as err:
                    log.warning("could not write the heartbeat file %s: %s", path, err)
            await asyncio.sleep(HEARTBEAT_EVERY_S)

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

    # -- board recovery ------------------------------------------------------------------------
    def register_board_recovery(self, kind: str, recover: BoardRecovery) -> None:
        """Let :meth:`recover_boards` and :meth:`board_post_failed` re-post boards of ``kind`` games
        through ``recover`` (see :data:`BoardRecovery`)."""
        self.board_recovery[kind] = recover

    async def recover_boards(self, kind: str | None = None) -> int:
        """Re-post the board of every open game (of ``kind``, or of every registered kind) whose
        stored board is missing or older than its version. A failing game is logged and retried
        later (:meth:`board_post_failed`); the others go on. Returns how many boards were posted."""
        posted = 0
        for game_kind, recover in list(self.board_recovery.items()):
            if kind is not None and game_kind != kind:
                continue
            service = self.services.get(game_kind)
            if service is None:
                continue
            for record in await self.storage.list_active_games(kind=game_kind):
                if not service.board_stale(record):
                    continue
                try:
                    if await recover(record.id):
                        posted += 1
                        log.info("re-posted the stale board of game %s (%s) v%s", record.id, game_kind, record.version)
                except Exception:
                    log.exception("could not re-post the board of game %s (%s); retrying later", record.id, game_kind)
                    self.board_post_failed(game_kind, record.id)
        return posted

    def board_post_failed(self, kind: str, game_id: int) -> None:
        """Posting a board of game ``game_id`` failed: retry its recovery after the next delay of
        ``board_retry_delays_s`` (one pending retry per game; gives up, logged, after the last)."""
        key = (kind, game_id)
        if key in self._board_retries or kind not in self.board_recovery or self.is_closed():
            return
        attempt = self._board_attempts.get(key, 0)
        if attempt >= len(self.board_retry_delays_s):
            if attempt == len(self.board_retry_delays_s):
                log.error("gave up re-posting the board of game %s (%s) after %d retries", game_id, kind, attempt)
                self._board_attempts[key] = attempt + 1  # logged once; reset by the next successful post
            return
        self._board_attempts[key] = attempt + 1
        loop = asyncio.get_running_loop()
        self._board_retries[key] = loop.call_later(self.board_retry_delays_s[attempt], self._fire_board_retry, key)

    def board_posted(self, kind: str, game_id: int) -> None:
        """A board of game ``game_id`` was posted: forget its failed attempts (a later failure
        starts the retry delays from the first again)."""
        self._board_attempts.pop((kind, game_id), None)

    def _fire_board_retry(self, key: tuple[str, int]) -> None:
        self._board_retries.pop(key, None)
        if not self.is_closed():
            self.spawn(self._retry_board(key), name=f"{key[0]}-board-retry-{key[1]}")

    async def _retry_board(self, key: tuple[str, int]) -> None:
        kind, game_id = key
        recover = self.board_recovery.get(kind)
        if recover is None:
            return
        try:
            await recover(game_id)
        except Exception:
            log.warning("re-posting the board of game %s (%s) failed again", game_id, kind, exc_info=True)
            self.board_post_failed(kind, game_id)

    async def _recover_on_ready(self) -> None:
        if self._recovering:
            return
        self._recovering = True
        try:
            count = await self.recover_boards()
            if count:
                log.info("re-posted %d stale board(s) after READY", count)
        finally:
            self._recovering = False

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

    async def sync_commands(self, *, force: bool = False) -> bool:
        """Sync the tree to the dev guild or globally when its hash changed (or ``force``).

        Returns True if a sync request was sent. The hash is stored in storage meta under
        ``commands_hash:guild:<id>`` or ``commands_hash:global``.
        """
        guild = self.sync_target()
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = f"commands_hash:guild:{guild.id}" if guild else "commands_hash:global"
        if not force and await self.storage.get_meta(key) == digest:
            log.info("command tree unchanged (%s), no sync", key)
            return False
        await self.tree.sync(guild=guild)
        await self.storage.set_meta(key, digest)
        log.info("command tree synced (%s, %d commands)", key, len(payload))
        return True

    # -- shutdown ------------------------------------------------------------------------------
    async def close(self) -> None:
        for handle in self._board_retries.values():
            handle.cancel()
        self._board_retries.clear()
        for task in list(self.background):
            task.cancel()
        await super().close()
        if self.storage is not None and self._given_storage is None:
            await self.storage.close()

    async def on_ready(self) -> None:
        log.info("connected as %s (%s) in %d guilds", self.user, getattr(self.user, "id", "?"), len(self.guilds))
        self.spawn(self._recover_on_ready(), name="board-recovery")
