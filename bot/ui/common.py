"""The UI's answers to interactions: refusals, error reports, the persistent button base (the answering helpers
themselves live in :mod:`bot.core.respond`, re-exported here): exactly one initial response on every path.

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

import logging
import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar

import discord

from bot.core.changes import COMMITTED
from bot.core.respond import defer, fill, png_file, reply, settle_loading, update
from bot.errors import BotError, describe, storage_failure
from bot.i18n import t
from bot.storage.errors import StorageError
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.core.layer import GameLayer

__all__ = ["GameButton", "defer", "fill", "games", "png_file", "refuse", "reply", "report_errors", "settle_loading",
           "update"]

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


async def refuse(interaction: discord.Interaction, err: BaseException) -> None:
    """Answer a refusal ephemerally in the user's language (rule code kept). Unexpected errors are
    logged with their traceback and shown as a generic message."""
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
