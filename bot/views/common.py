"""The one place that answers interactions: exactly one initial response on every path.

- :func:`reply` sends the initial response if none was sent yet, else a followup (so a handler
  that deferred, or an error raised after a defer, still answers exactly once more, never twice
  as an initial response: no ``InteractionResponded`` / 40060).
- :func:`refuse` answers a refusal ephemerally, in the user's language, rule code visible.
- :func:`png_file` makes a fresh ``discord.File`` from PNG bytes (never reuse a File: its buffer
  is consumed by the first send).
- :func:`report_errors` wraps component callbacks so every exception ends as an ephemeral answer.
- :func:`defer`, :func:`fill`, :func:`update`: deferring, filling the deferred answer, editing a component's
  message, whether or not the first-response guard (``bot.first_response``) already answered.
"""

from __future__ import annotations

import io
import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.errors import BotError, describe, storage_failure
from bot.i18n import t
from bot.storage.errors import StorageError
from bot.views.paging import clip
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.games.layer import GameLayer

log = logging.getLogger(__name__)

USER_ERRORS: tuple[type[BaseException], ...] = (BotError, RuleError, StorageError)


def is_user_error(err: BaseException) -> bool:
    """True for refusals meant for the user (BotError, RuleError, StorageError) and for the database failures the
    bot can name (``bot.errors.storage_failure``: disk full, read-only, gone, locked too long)."""
    return isinstance(err, USER_ERRORS) or storage_failure(err) is not None


def games(interaction: discord.Interaction) -> GameLayer:
    """The bot's game layer (``TableBot.games``): where every click and command goes."""
    layer: GameLayer = interaction.client.games  # type: ignore[attr-defined]
    return layer


def png_file(png: bytes, filename: str) -> discord.File:
    """A fresh ``discord.File`` over its own ``BytesIO`` positioned at 0."""
    return discord.File(io.BytesIO(png), filename=filename)


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool = False,
    files: list[discord.File] | None = None,
    view: discord.ui.View | None = None,
    embed: discord.Embed | None = None,
    allowed_mentions: discord.AllowedMentions | None = None,
) -> discord.Message | None:
    """Answer ``interaction``: the initial response if not yet done, else a followup.

    Returns the followup message (``None`` for an initial response: use
    ``interaction.original_response()`` if its id is needed). Content longer than Discord's 2000
    characters keeps its whole lines that fit, then a line "…" (``bot.views.paging.clip``).
    """
    kwargs: dict[str, Any] = {"ephemeral": ephemeral}
    if content is not None:
        kwargs["content"] = clip(content)  # never cut mid-line (bot.views.paging)
    if files:
        kwargs["files"] = files
    if view is not None:
        kwargs["view"] = view
    if embed is not None:
        kwargs["embed"] = embed
    if allowed_mentions is not None:
        kwargs["allowed_mentions"] = allowed_mentions
    if interaction.extras.get("dead"):
        from bot.first_response import InteractionGone

        raise InteractionGone(interaction)
    if not interaction.response.is_done():
        try:
            await interaction.response.send_message(**kwargs)
            return None
        except discord.InteractionResponded:  # the first-response guard answered meanwhile
            pass
    await settle_loading(interaction, ephemeral)
    return await interaction.followup.send(wait=True, **kwargs)


async def settle_loading(interaction: discord.Interaction, ephemeral: bool) -> bool:
    """Before a followup: a "thinking" response of the other visibility (public thinking, private answer) is
    deleted so the followup is a new message of the right visibility. Returns True when the followup will fill
    the thinking message itself (same visibility)."""
    loading = interaction.extras.pop("loading", None)
    if loading is None:
        return False
    if loading == ("private" if ephemeral else "public"):
        return True
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as err:
        log.info("could not delete the thinking response of %s: %s", interaction.id, err)
    return False


async def defer(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Defer with "thinking" (private when ``ephemeral``) unless the interaction was answered already (e.g. by the
    first-response guard: then :func:`fill` reconciles the visibility)."""
    if interaction.response.is_done():
        return
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except discord.InteractionResponded:
        return
    interaction.extras["loading"] = "private" if ephemeral else "public"


async def fill(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
               files: list[discord.File] | None = None, view: discord.ui.View | None = None,
               allowed_mentions: discord.AllowedMentions | None = None) -> None:
    """The answer after :func:`defer`: the thinking message edited in when it has the wanted visibility, else
    (a guard's public thinking and a private answer, or no thinking at all) a :func:`reply`."""
    if interaction.extras.get("loading") == ("private" if ephemeral else "public"):
        interaction.extras.pop("loading")
        kwargs: dict[str, Any] = {"content": content, "attachments": files or []}
        if view is not None:
            kwargs["view"] = view
        if allowed_mentions is not None:
            kwargs["allowed_mentions"] = allowed_mentions
        await interaction.edit_original_response(**kwargs)
        return
    await reply(interaction, content, ephemeral=ephemeral, files=files, view=view, allowed_mentions=allowed_mentions)


async def update(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component belongs to: the first response, or (already deferred by the guard) an edit of
    the original response, which is that message; if Discord refused the first response (10062), a channel edit
    of that message (not for an ephemeral one: it cannot be reached any more)."""
    from bot.first_response import InteractionGone, is_dead

    try:
        if not interaction.response.is_done():
            try:
                await interaction.response.edit_message(**kwargs)
                return
            except discord.InteractionResponded:
                pass
        await interaction.edit_original_response(**kwargs)
    except (discord.NotFound, InteractionGone):
        message = interaction.message
        if not is_dead(interaction) or message is None or message.flags.ephemeral:
            raise
        # Discord refused the first response (10062): the public message is edited through the channel instead
        log.info("interaction %s is dead; editing message %s through the channel", interaction.id, message.id)
        await message.edit(**kwargs)


async def refuse(interaction: discord.Interaction, err: BaseException) -> None:
    """Answer a refusal ephemerally in the user's language (rule code kept). Unexpected errors are
    logged with their traceback and shown as a generic message."""
    from bot.games.layer import COMMITTED

    text = describe(err, interaction.locale)
    committed = COMMITTED.get()
    failure = storage_failure(err)
    if committed is not None and (failure is not None or not is_user_error(err)):
        text = t("err.after_commit", interaction.locale)  # never "nothing was changed/applied" after a commit
    if interaction.extras.get("dead") or isinstance(err, _gone()):
        # Discord refused the interaction's first response (10062): nothing can reach the user through it now
        log.info("interaction %s is dead; not answered (%s: %s)", interaction.id, type(err).__name__, err)
        return
    if failure is not None:  # the operator's business: one line, no traceback
        log.warning("storage failure (%s) in interaction %s (committed: %s): %s: %s", failure, interaction.id,
                    committed, type(err).__name__, err)
    elif isinstance(err, discord.HTTPException) and not is_user_error(err):
        log.warning("Discord refused a request in an interaction (%s; committed: %s)", err, committed)
    elif not is_user_error(err):
        log.error("unexpected error in an interaction (committed: %s)", committed, exc_info=err)
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not deliver a refusal (%s): %s", text, exc)


def _gone() -> type[Exception]:
    from bot.first_response import InteractionGone

    return InteractionGone


async def report_errors(interaction: discord.Interaction, work: Callable[[], Awaitable[Any]]) -> None:
    """Run ``work()``; any exception becomes an ephemeral :func:`refuse` answer."""
    try:
        await work()
    except Exception as err:
        await refuse(interaction, err)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!x)x"):
    """Base of the persistent ``<prefix>:<verb>:<game>`` buttons of every game (survive restarts: the game id is
    in the custom id, the state is reloaded from storage). Subclasses set ``prefix`` (the game's custom-id prefix),
    ``verb``, ``label_key``, ``style``, pass ``template=r"<prefix>:<verb>:(?P<game>[0-9]+)"`` and implement
    :meth:`run`; every error ends as an ephemeral answer (:func:`report_errors`)."""

    prefix: ClassVar[str] = ""
    verb: ClassVar[str] = ""
    label_key: ClassVar[str] = ""
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init__(self, game_id: int, *, locale: str | None = None) -> None:
        self.game_id = game_id
        super().__init__(
            discord.ui.Button(
                label=t(self.label_key, locale), style=self.style, custom_id=f"{self.prefix}:{self.verb}:{game_id}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> GameButton:
        return cls(int(match["game"]))

    async def run(self, interaction: discord.Interaction) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: self.run(interaction))
