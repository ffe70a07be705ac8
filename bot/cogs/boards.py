"""Publishing a game's board message, shared by both game cogs (docs/bot.md "Boards").

Every accepted action posts a new board message (image + components); posting and recording it happen under the
game's publish lock, so the newest version becomes the stored board and every other board of the game loses its
components. A failed post is recovered later (``bot.board_post_failed`` / ``recover_board``).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

if TYPE_CHECKING:
    from bot.app import TableBot
    from bot.service.base import GameService
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)


class BoardPublisher:
    """Mixin for a game cog with ``bot`` and ``service`` attributes. The cog provides :meth:`_board_payload`
    (content, files and components of a record's board), :meth:`_last_headline` (the last action, for a
    recovered board) and :meth:`schedule_ai` (restart a pending AI turn)."""

    bot: TableBot
    service: GameService

    async def _board_payload(
        self, record: GameRecord, headline: str
    ) -> tuple[str, list[discord.File], discord.ui.View | None]:  # pragma: no cover - abstract
        raise NotImplementedError

    async def _last_headline(self, record: GameRecord) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def schedule_ai(self, record: GameRecord) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    async def publish(
        self, record: GameRecord, *, headline: str, interaction: discord.Interaction | None = None
    ) -> discord.Message:
        """Post the board of ``record`` as the game's new board message.

        With an interaction whose response is not done: defer (thinking), render off the loop, then
        ``edit_original_response``; with a done response: a followup; without an interaction (AI, recovery): a
        channel message. If rendering fails, the text twin is posted instead (the cog's payload decides).
        Posting and recording happen under the game's publish lock: the newest version becomes the stored board
        and every other board of the game loses its components (a board that lands after a newer one is stripped
        itself). If the post fails, the board is recovered later (``bot.board_post_failed``) and the error is
        raised.
        """
        deferred = False
        if interaction is not None and not interaction.response.is_done():
            try:
                await interaction.response.defer(thinking=True)
                deferred = True
            except discord.HTTPException as err:  # e.g. 10062 Unknown interaction: post to the channel
                log.warning("could not defer interaction %s (%s); posting to the channel", interaction.id, err)
                interaction = None
        content, files, view = await self._board_payload(record, headline)
        async with self.service.publish_lock(record.id):
            return await self._post_board(record, content, files, view, interaction, deferred=deferred)

    async def _post_board(
        self,
        record: GameRecord,
        content: str,
        files: list[discord.File],
        view: discord.ui.View | None,
        interaction: discord.Interaction | None,
        *,
        deferred: bool = False,
    ) -> discord.Message:
        """Send the board (the caller holds the publish lock), record it, strip the superseded one."""
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        try:
            if interaction is not None and deferred:
                msg: discord.Message = await interaction.edit_original_response(
                    content=content, attachments=files, view=view
                )
            elif interaction is not None:
                msg = await interaction.followup.send(content, files=files, wait=True, **kwargs)
            else:
                channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
                msg = await channel.send(content, files=files, **kwargs)
        except Exception:
            log.warning("posting the board of game %s v%s failed; it will be recovered", record.id, record.version)
            self.bot.board_post_failed(self.service.kind, record.id)
            raise
        self.bot.board_posted(self.service.kind, record.id)
        strip = await self.service.record_board(record.id, msg.id, record.version)
        if strip is not None:
            await self._strip(record, strip)
        return msg

    async def _strip(self, record: GameRecord, message_id: int, content: str | None = None) -> None:
        """Remove the components of one of the game's messages (and replace its content when given)."""
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        try:
            if content is None:
                await channel.get_partial_message(message_id).edit(view=None)
            else:
                await channel.get_partial_message(message_id).edit(content=content, view=None)
        except discord.HTTPException as err:
            log.info("could not update message %s: %s", message_id, err)

    async def recover_board(self, game_id: int) -> bool:
        """The board-recovery hook (``bot.register_board_recovery``): under the publish lock, if the game's stored
        board is missing or older than its version, post the current board as a channel message, headed by the
        last action. Returns True if a board was posted; then a pending AI turn is restarted (an AI turn whose
        board failed to post left the AI's next turn unplayed)."""
        async with self.service.publish_lock(game_id):
            record = await self.service.get(game_id)
            if not self.service.board_stale(record):
                return False
            headline = await self._last_headline(record)
            content, files, view = await self._board_payload(record, headline)
            await self._post_board(record, content, files, view, None)
        self.schedule_ai(record)
        return True
