"""Whom a public message may notify: nobody unless the message names them on purpose.

The bot's client default is ``discord.AllowedMentions.none()`` (``bot.app.TableBot``): text built from
user-controlled strings (display names, nicknames, option values such as ``@everyone``, ``<@123>`` or
``<@&456>``) never pings anyone. A message that means to ping states exactly whom with :func:`ping`:

- a board: the human seats the game waits for (:func:`board_pings`); a finished game's last board: its human
  players (the result concerns them);
- a challenge: the challenged user; a reminder: the player to move; a claim: the players who may claim;
- an abort offer and a rematch offer: the players whose agreement is awaited.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.core.kind import Snapshot


def ping(user_ids: Iterable[int] = ()) -> discord.AllowedMentions:
    """Allowed mentions notifying exactly ``user_ids`` (positive Discord user ids; AI seats' negative ids and
    duplicates dropped): never ``@everyone``/``@here``, never a role, never the replied-to author. An empty list is
    ``AllowedMentions.none()``."""
    ids = sorted({int(u) for u in user_ids if int(u) > 0})
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(u) for u in ids] if ids else False
    )


def human_ids(snap: Snapshot, seats: Iterable[int]) -> list[int]:
    """The user ids of the human seats among ``seats`` of ``snap`` (AI seats and the bot's own seat left out)."""
    players = snap.players
    return [players[s] for s in seats if 0 <= s < len(players) and not snap.is_ai(s)]


def board_pings(snap: Snapshot) -> list[int]:
    """Whom a board of ``snap`` notifies: while the game runs, the human seats it waits for
    (``state.awaiting()``); once it is finished, every human player; nobody for a set-up or an aborted game."""
    if snap.state is None:
        return []
    if snap.status == "active":
        return human_ids(snap, snap.state.awaiting())
    if snap.status == "finished":
        return human_ids(snap, range(len(snap.players)))
    return []
