"""The UI's answers to interactions: refusals, error reports, the bases every game's UI is built on
(:class:`GameButton`, :class:`GameSelect`, :class:`GameCog`; the answering helpers themselves live in
:mod:`bot.core.respond`, re-exported here): exactly one initial response on every path.

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
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self

import discord
from discord.ext import commands

from bot.core.changes import COMMITTED
from bot.core.loading import still_playing
from bot.core.respond import defer, fill, png_file, reply, settle_loading, update
from bot.errors import BotError, describe, storage_failure
from bot.first_response import InteractionGone
from bot.i18n import t
from bot.storage.errors import StorageError
from engine.errors import RuleError

if TYPE_CHECKING:
    from bot.core.kind import GameKind, Snapshot
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

__all__ = [
    "GameButton",
    "GameCog",
    "GameSelect",
    "defer",
    "fill",
    "games",
    "guild_locale",
    "png_file",
    "refuse",
    "reply",
    "report_errors",
    "settle_loading",
    "update",
]

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
    if interaction.extras.get("dead") or isinstance(err, InteractionGone):
        # Discord refused the interaction's first response (10062): nothing can reach the user through it now
        log.info("interaction %s is dead; not answered (%s: %s)", interaction.id, type(err).__name__, err)
        return
    if failure is not None:  # the operator's business: one line, no traceback
        log.warning(
            "storage failure (%s) in interaction %s (committed: %s): %s: %s",
            failure,
            interaction.id,
            committed,
            type(err).__name__,
            err,
        )
    elif isinstance(err, discord.HTTPException) and not is_user_error(err):
        log.warning("Discord refused a request in an interaction (%s; committed: %s)", err, committed)
    elif not is_user_error(err):
        log.error("unexpected error in an interaction (committed: %s)", committed, exc_info=err)
    try:
        await reply(interaction, text, ephemeral=True)
    except discord.HTTPException as exc:
        log.warning("could not deliver a refusal (%s): %s", text, exc)


async def report_errors(
    interaction: discord.Interaction, work: Callable[[], Awaitable[Any]], *, game_id: int | None = None
) -> None:
    """Run ``work()``; any exception becomes an ephemeral :func:`refuse` answer, except a click on an out-of-date
    board of game ``game_id`` reached through interactions only, whose latest board the click carries instead
    (``Publisher.carry``: a user install's game in a DM)."""
    try:
        await work()
    except Exception as err:
        try:
            if game_id is not None and await games(interaction).publisher.carry(interaction, game_id, err):
                return
        except Exception as again:
            log.warning("could not carry game %s's board with interaction %s: %s", game_id, interaction.id, again)
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
        await report_errors(interaction, lambda: self.run(interaction), game_id=self.game_id)


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?!x)x"):
    """Base of the persistent selects of every game: one choice that becomes one engine action of the chooser.

    Custom id ``<prefix>:<verb>:<game>[:<version>][:<suffix>]`` (at most 100 characters): the game id (the state is
    reloaded from storage, so it survives restarts), the stored version the message was drawn at (``None``: no
    version, the choice is valid whatever happened meanwhile) and an optional suffix (e.g. a chip size, a page).
    Subclasses set ``prefix``, ``verb``, ``placeholder_key``, pass ``template=r"<prefix>:<verb>:(?P<game>[0-9]+)
    (:(?P<ver>[0-9]+))?..."`` and override :meth:`action` (the engine action for the chosen value; default: the
    value) and, when the custom id carries more than game and version, :meth:`from_match`. The choice goes to the
    game layer: ``games(interaction).play(interaction, game_id, action(value), expected_version=version)``: a
    stale version is refused (``err.stale``), every error ends as an ephemeral answer (:func:`report_errors`).
    """

    prefix: ClassVar[str] = ""
    verb: ClassVar[str] = ""
    placeholder_key: ClassVar[str] = ""

    def __init__(
        self,
        game_id: int,
        version: int | None,
        options: Sequence[discord.SelectOption] = (),
        *,
        locale: str | None = None,
        placeholder: str | None = None,
        suffix: str = "",
        row: int | None = None,
    ) -> None:
        self.game_id = game_id
        self.version = version
        parts = [
            self.prefix,
            self.verb,
            str(game_id),
            *([str(version)] if version is not None else []),
            *([suffix] if suffix else []),
        ]
        super().__init__(
            discord.ui.Select(
                custom_id=":".join(parts),
                placeholder=(placeholder if placeholder is not None else t(self.placeholder_key, locale))[:150],
                options=list(options)[:25],
                min_values=1,
                max_values=1,
                row=row,
            )
        )

    @classmethod
    def from_match(cls, match: re.Match[str]) -> Self:
        """The select a custom id matched by the class's template names (game and, if present, version)."""
        ver = match.groupdict().get("ver")
        return cls(int(match["game"]), int(ver) if ver is not None else None)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls.from_match(match)

    def action(self, value: str) -> Any:
        """The engine action (text or action object) for the chosen option ``value``; raise ``BotError`` to refuse
        it. Default: the value itself."""
        return value

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await report_errors(
            interaction,
            lambda: games(interaction).play(
                interaction, self.game_id, self.action(value), expected_version=self.version
            ),
            game_id=self.game_id,
        )


def guild_locale(interaction: discord.Interaction) -> str | None:
    """The guild's language (``"es-ES"``...; ``None`` outside a guild): for public texts such as a thread title."""
    return interaction.guild_locale.value if interaction.guild_locale else None


class GameCog(commands.GroupCog):
    """Base of every game's command group (``/<game> ...``): subclass it with ``name=``/``group_name=``/
    ``group_description=`` and set :attr:`kind`. It gives the commands what they all need: the game layer
    (:attr:`games`), the channel's game of this kind (:meth:`here`, :meth:`running`, :meth:`running_game`), the
    caller's running game for autocomplete (:meth:`mine`: never raises) and the opponent checks of a challenge
    (:meth:`vs_ai`). Every refusal is a ``BotError`` answered by the tree's error handler."""

    kind: ClassVar[GameKind]

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def games(self) -> GameLayer:
        """The bot's game layer (``TableBot.games``)."""
        layer: GameLayer = self.bot.games  # type: ignore[attr-defined]
        return layer

    async def here(self, interaction: discord.Interaction) -> GameRecord:
        """The game of this kind in the interaction's channel (lobby or running), its state not read (its id,
        status, players...; the action's own load reads the state). Raises ``BotError``
        (``narration.no_game_here``)."""
        return await self.games.channel_record(
            interaction.channel_id or 0, self.kind, state=False, user_id=interaction.user.id
        )

    async def running(self, interaction: discord.Interaction) -> GameRecord:
        """The channel's game once it runs. Raises ``BotError("err.not_started")`` while seats are taken."""
        record = await self.here(interaction)
        still_playing(record)
        return record

    async def running_game(self, interaction: discord.Interaction) -> Snapshot:
        """The running game here, loaded (commands that read the state pass it on as ``base``)."""
        record = await self.games.channel_record(interaction.channel_id or 0, self.kind, user_id=interaction.user.id)
        still_playing(record)
        return self.games.snapshot(record)

    async def mine(
        self, interaction: discord.Interaction, check: Callable[[GameRecord], bool] | None = None
    ) -> tuple[Snapshot, int] | None:
        """For autocomplete: the caller's running game of this kind here and their seat; ``None`` when there is
        none, the caller does not play in it, ``check(record)`` is false, or it cannot be loaded (logged): a
        failing autocomplete would leave the user with an empty list, so this never raises."""
        try:
            record = await self.games.storage.active_game_in_channel(interaction.channel_id or 0)
            if record is None or record.kind != self.kind.name or record.status != "active":
                return None
            if interaction.user.id not in record.players or (check is not None and not check(record)):
                return None
            return self.games.snapshot(record), record.players.index(interaction.user.id)
        except Exception as err:
            failure = storage_failure(err)
            if failure is not None:  # the operator's business: one line, no traceback (issue 22)
                log.warning("storage failure (%s) in an autocomplete: %s", failure, err)
            else:
                log.exception("autocomplete could not load the game of channel %s", interaction.channel_id)
            return None

    def vs_ai(self, interaction: discord.Interaction, opponent: discord.abc.User) -> bool:
        """Whether a challenge of ``opponent`` is one against the AI (the bot itself). Raises ``BotError``:
        ``err.self_challenge`` (the caller), ``err.bot_opponent`` (another bot)."""
        if opponent.id == interaction.user.id:
            raise BotError("err.self_challenge")
        ai = opponent.id == self.games.bot_user_id
        if opponent.bot and not ai:
            raise BotError("err.bot_opponent")
        return ai
