"""Where can a game's messages go? The one answer every sender asks (delivery, publisher, footprint, timers, lobby).

- :data:`CHANNEL`: the bot is in the game's channel (a guild that installed the app, or the bot's own DM): boards
  are interaction answers when a player acts and channel posts otherwise; threads, strips and reminders as usual.
- :data:`INTERACTIONS`: the app was installed to a **user's account** and the game runs in a DM or group DM
  between users (or a guild that did not install the bot): the bot is no member there, every channel endpoint
  answers 403/50001 (Missing Access). Every message of the game is an **interaction response or a followup**:
  the acting player's own interaction, else a followup of the game's latest fresh one (its token lasts 15
  minutes from the interaction's creation; at most :data:`FOLLOWUP_LIMIT` followups each). No thread, no channel
  post, no channel edit, no reminder in the channel (turn alerts by DM stay, for those who turned them on). A
  board nobody's interaction can carry (the token went stale: an AI's move or a timeout long after the last
  click) waits for the next player's interaction, which carries it (``Publisher.carry``).

The reach is decided once, when the game is opened (:func:`of_interaction`), and stored in the envelope's
``extra`` (:data:`EXTRA_KEY`), so an AI move, the outbox or a restart reads the same answer (:func:`of_record`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.first_response import is_dead, token_fresh
from bot.services.answered import Answered

if TYPE_CHECKING:
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

CHANNEL = "channel"
INTERACTIONS = "interactions"
EXTRA_KEY = "reach"
"""Key of the envelope's ``extra`` holding :data:`INTERACTIONS` (absent: :data:`CHANNEL`)."""
FOLLOWUP_LIMIT = 5
"""Followups Discord lets one interaction create when the user install alone authorized it (the bot is not in the
guild or channel); the 6th is refused 400/40094."""
FOLLOWUP_LIMIT_CODE = 40094


def of_interaction(interaction: discord.Interaction) -> str:
    """Where a game opened by ``interaction`` can speak. :data:`INTERACTIONS` in a DM or group DM between users
    (context PRIVATE_CHANNEL) and in a guild whose own install did not authorize the interaction (no
    GUILD_INSTALL owner: the bot is not a member there); :data:`CHANNEL` otherwise (a guild's install, the bot's
    own DM, or a payload without ``context``)."""
    context = getattr(interaction, "context", None)
    if context is not None and context.private_channel:
        return INTERACTIONS
    if context is not None and context.guild and interaction.guild_id and not interaction.is_guild_integration():
        return INTERACTIONS
    return CHANNEL


def of_record(record: GameRecord) -> str:
    """The reach stored with the game (:data:`CHANNEL` for every game stored before user installs)."""
    extra = record.state.get("extra") if isinstance(record.state, dict) else None
    value = extra.get(EXTRA_KEY) if isinstance(extra, dict) else None
    return INTERACTIONS if value == INTERACTIONS else CHANNEL


def interactions_only(record: GameRecord) -> bool:
    """True when the game's messages may only be interaction responses and followups (:data:`INTERACTIONS`)."""
    return of_record(record) == INTERACTIONS


def marked(extra: dict[str, Any], reach: str) -> dict[str, Any]:
    """``extra`` with ``reach`` stored (nothing stored for :data:`CHANNEL`)."""
    return {**extra, EXTRA_KEY: INTERACTIONS} if reach == INTERACTIONS else dict(extra)


class Unreachable(discord.ClientException):
    """No interaction can carry a message of an :data:`INTERACTIONS` game now (none fresh, or each at its
    followup limit): nothing was sent; the next player's interaction carries the board."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id}: no fresh interaction can carry its message (user install)")
        self.game_id = game_id


async def carry(
    game_id: int,
    candidates: Iterable[discord.Interaction | Answered | None],
    followup: Callable[[Any], Awaitable[discord.Message]],
    reset: Callable[[], None],
) -> discord.Message:
    """A message of an :data:`INTERACTIONS` game as ``followup(interaction)`` of the first of ``candidates`` (the
    channel's latest interaction, the game's) whose token is fresh, that Discord did not refuse (10062) and that
    is below :data:`FOLLOWUP_LIMIT` followups (counted in ``Answered.followups``; a 40094 refusal marks it full);
    ``reset()`` rewinds the files after a refused try. Raises :class:`Unreachable` (nothing sent) when none can
    carry it."""
    tried: set[int] = set()
    for other in candidates:
        if other is None or other.id in tried or not token_fresh(other) or is_dead(other):
            continue
        tried.add(other.id)
        answered = Answered.of(other)
        if answered.followups >= FOLLOWUP_LIMIT:
            continue
        try:
            return await followup(other)
        except discord.HTTPException as err:
            if err.code == FOLLOWUP_LIMIT_CODE:
                answered.followups = FOLLOWUP_LIMIT
            log.info("game %s: interaction %s could not carry a message (%s)", game_id, other.id, err)
            reset()
    log.info("game %s: no fresh interaction can carry its message; the next player's will", game_id)
    raise Unreachable(game_id)
