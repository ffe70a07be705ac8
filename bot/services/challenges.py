"""Pending challenges without their message (issue 12): a second identical challenge is refused with a link to the
first, and ``/<game> accept`` / ``/<game> decline`` find the caller's pending challenge by command (its message
deleted by a moderator or scrolled away).

A challenge is "identical" when it is of the same game, in the same guild, between the same two players (in
either direction: Bob challenging Alice while Alice's challenge to Bob waits is pointed to hers).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.core.envelope import Envelope, Seat
from bot.core.respond import reply
from bot.errors import BotError
from bot.i18n import t

if TYPE_CHECKING:
    from bot.core.kind import GameKind, Snapshot
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

LOBBY_KEYS = ("lobby", "challenge")


def is_open(env: Envelope, players: list[int]) -> bool:
    """An open challenge: a two-seat challenge posted without an opponent (``invited`` unset, one seat taken, no
    engine yet, ``options["open"]``), which anyone but the challenger may accept."""
    return env.invited is None and env.engine is None and len(players) == 1 and env.options.get("open") is True


def take_open_seat(snap: Snapshot, user_id: int, name: str) -> Snapshot:
    """``snap`` of an open challenge with ``user_id`` seated second (nothing stored). Raises
    ``BotError("err.own_open_challenge")`` for the challenger."""
    if user_id in snap.players:
        raise BotError("err.own_open_challenge")
    players = [*snap.players, user_id]
    env = snap.env.with_(seats=[*snap.env.seats, Seat.of(name)])
    return replace(snap, env=env, record=replace(snap.record, players=players))


def jump_link(record: GameRecord) -> str:
    """A link to the game's challenge or lobby message (Discord's jump URL), else a channel mention."""
    message_id = next((record.messages[k] for k in LOBBY_KEYS if record.messages.get(k)), None)
    if message_id is None:
        return f"<#{record.channel_id}>"
    return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{message_id}"


async def refuse_duplicate(layer: GameLayer, kind: GameKind, guild_id: int, players: list[int]) -> None:
    """Raise ``BotError("err.duplicate_challenge")`` when a pending challenge of ``kind`` in ``guild_id`` already
    seats exactly ``players`` (any order)."""
    wanted = sorted(players)
    for record in await layer.storage.list_active_games(kind=kind.name, guild_id=guild_id, lobby_only=True):
        if record.status == "lobby" and sorted(record.players) == wanted:
            raise BotError("err.duplicate_challenge", link=jump_link(record), game_id=record.id)


async def undo_if_duplicate(layer: GameLayer, kind: GameKind, snap: Snapshot) -> None:
    """Right after a challenge was created: if an older identical one slipped in meanwhile (two sent at once), this
    one is aborted before anyone saw it and refused like a duplicate (``err.duplicate_challenge``)."""
    wanted = sorted(snap.players)
    for record in await layer.storage.list_active_games(kind=kind.name, guild_id=snap.record.guild_id, lobby_only=True):
        if record.id < snap.id and record.status == "lobby" and sorted(record.players) == wanted:
            await layer.storage.abort_game(snap.id, snap.version, None, reason="duplicate")
            raise BotError("err.duplicate_challenge", link=jump_link(record), game_id=record.id)


async def pending(
    layer: GameLayer, kind: GameKind, interaction: discord.Interaction, *, invited_only: bool, other: int | None = None
) -> GameRecord:
    """The caller's pending challenge of ``kind`` in this guild: one they were invited to (``invited_only``) or
    any they are seated in (their own open challenge too); ``other`` narrows it to the one with that player. The
    one in this channel wins; else it must be the only one. Raises ``err.no_pending_challenge`` /
    ``err.several_challenges``."""
    user_id = interaction.user.id
    found = []
    for record in await layer.storage.list_active_games(
        kind=kind.name, guild_id=interaction.guild_id or 0, lobby_only=True
    ):
        if record.status != "lobby" or user_id not in record.players:
            continue
        env = layer.envelope(record)
        if (env.invited is None and not is_open(env, record.players)) or (invited_only and env.invited != user_id):
            continue  # an open challenge: only its challenger finds it here (to withdraw it)
        if other is not None and other not in record.players:
            continue
        found.append(record)
    here = [r for r in found if r.channel_id == interaction.channel_id]
    if here:
        return here[0]
    if len(found) == 1:
        return found[0]
    if not found:
        raise BotError("err.no_pending_challenge", game=kind.title)
    others = sorted({p for r in found for p in r.players if p != user_id})
    raise BotError("err.several_challenges", players=", ".join(f"<@{p}>" for p in others))


async def accept(layer: GameLayer, kind: GameKind, interaction: discord.Interaction, other: int | None) -> None:
    """``/<game> accept [opponent]``: accept the pending challenge; answered in place when it is in this channel,
    else the board goes to the game's channel and the caller gets a link."""
    try:
        record = await pending(layer, kind, interaction, invited_only=True, other=other)
    except BotError as err:
        found = await open_challenge(layer, kind, interaction, other) if err.key == "err.no_pending_challenge" else None
        if found is None:
            raise
        record = found
    await layer.lobby.accept(interaction, record.id)
    if record.channel_id != interaction.channel_id:
        await reply(
            interaction,
            t("lobby.accepted_there", interaction.locale, channel=f"<#{record.channel_id}>"),
            ephemeral=True,
        )


async def open_challenge(
    layer: GameLayer, kind: GameKind, interaction: discord.Interaction, other: int | None
) -> GameRecord | None:
    """The oldest open challenge of ``kind`` (posted without an opponent) of another member that the caller may take:
    in this channel first, else anywhere in this guild; ``other`` narrows it to that challenger's."""
    user_id = interaction.user.id
    found = [
        r
        for r in await layer.storage.list_active_games(kind=kind.name, guild_id=interaction.guild_id or 0)
        if r.status == "lobby"
        and len(r.players) == 1
        and user_id not in r.players
        and (other is None or other in r.players)
        and layer.envelope(r).options.get("open") is True
    ]
    found.sort(key=lambda r: (r.channel_id != interaction.channel_id, r.id))
    return found[0] if found else None


async def decline(layer: GameLayer, kind: GameKind, interaction: discord.Interaction, other: int | None) -> None:
    """``/<game> decline [opponent]``: decline a challenge you received, or withdraw one you sent."""
    record = await pending(layer, kind, interaction, invited_only=False, other=other)
    await layer.lobby.decline(interaction, record.id)
