"""What players see of a finished game's record (issue 16), the same for every game: the Replay and Download record
buttons of the result card (and of a record opened from ``/history``), and the answers of ``/replay``.

Custom ids (persistent ``DynamicItem``s: the game id is in the id, the game is reloaded from storage, so they work
after a restart):

- ``rc:rp:<game>``: Replay, answered privately to whoever clicks (animated GIF, move list, record JSON);
- ``rc:dl:<game>``: Download record, answered privately with ``game-<id>.json``.

The result card's record buttons sit in their own row (:data:`RECORD_ROW`), with the game's own record buttons
(``GameKind.record_items``, e.g. an analysis); the other rows of the result card are left to other features.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import language_of, t, versus
from bot.services.looks import DEFAULT, look_of
from bot.services.records import REPLAY_FILENAME, NoReplay, json_file
from bot.services.refusals import interaction_limit
from bot.ui import rematch
from bot.ui.common import GameButton, defer, fill, games, reply

if TYPE_CHECKING:
    from bot.core.kind import Snapshot

log = logging.getLogger(__name__)

RECORD_ROW = 1
"""The row of the result card holding the record buttons (row 0 stays free for the next game's buttons)."""
MOVES_LIMIT = 1500
"""Characters of move list per message (the header and the code fence fill the rest of Discord's 2000)."""


def header(snap: Snapshot, locale: Any, *, status: bool = True) -> str:
    """``"Game #12 · <game> · Alice vs Bob · <date>"`` then, with ``status``, the game's own final status line
    (left out under a move list: its last line says how the game ended, in the reader's language)."""
    finished = snap.record.finished_at or snap.record.updated_at
    head = t(
        "rec.head",
        locale,
        game_id=snap.id,
        title=snap.kind.title,
        players=versus(snap.names, locale),
        when=f"<t:{int(finished.timestamp())}:f>",
    )
    reader = dataclasses.replace(snap, env=snap.env.with_(locale=language_of(locale)))  # the reader's language
    line = snap.kind.narration.status_line(reader) if status else ""
    return f"{head}\n{line}" if line else head


def fenced(text: str) -> str:
    """``text`` in a code block (names cannot turn into markdown; notation keeps its columns)."""
    return f"```\n{text}\n```" if text else ""


def record_items(
    snap: Snapshot, locale: str | None, *, replay: bool = True, download: bool = True
) -> list[discord.ui.Item[Any]]:
    """The record buttons of a finished game, in :data:`RECORD_ROW`: Replay, Download record (each unless
    false), then the game's own (``kind.components.record_items``)."""
    items: list[discord.ui.Item[Any]] = []
    if replay:
        items.append(ReplayButton(snap.id, locale=locale))
    if download:
        items.append(DownloadButton(snap.id, locale=locale))
    items += snap.kind.components.record_items(snap, locale)
    for item in items:
        item.row = RECORD_ROW
    return items


def result_view(snap: Snapshot) -> discord.ui.View:
    """The components of a finished game's result card (its last board): the record buttons, and Rematch
    (:mod:`bot.ui.rematch`, row 0)."""
    view = discord.ui.View(timeout=None)
    for item in [*rematch.items(snap), *record_items(snap, snap.locale)]:
        view.add_item(item)
    return view


def _view(items: list[discord.ui.Item[Any]]) -> discord.ui.View | None:
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


async def send_replay(interaction: discord.Interaction, game_id: int, *, ephemeral: bool) -> None:
    """Answer with the replay of finished game ``game_id`` of the interaction's guild: header, the animated GIF,
    the move list (first page here, the others as followups) and the record JSON; the game's own record buttons.
    Refusals (``rec.*``) come before anything is sent."""
    layer = games(interaction)
    snap = await layer.records.finished(game_id, interaction.guild_id)
    loc = interaction.locale
    layer.fair.check(interaction, "replay")
    await defer(interaction, ephemeral=ephemeral)
    files: list[discord.File] = []
    note = ""
    try:
        look = await look_of(layer.storage, interaction.user.id) if ephemeral else DEFAULT  # private: theirs
        gif = await layer.records.replay(snap, look, locale=loc)
        limit = interaction_limit(interaction)
        if limit is not None and len(gif) > limit:  # this server's upload limit: the move list and record stay
            note = "\n" + t("rec.replay_too_large", loc, mib=f"{limit / 2**20:.1f}")
        else:
            files.append(discord.File(io.BytesIO(gif), filename=REPLAY_FILENAME.format(game=snap.id)))
    except NoReplay:
        note = "\n" + t("rec.no_replay", loc)
    except Exception:
        log.exception("the replay of game %s could not be drawn", snap.id)
        note = "\n" + t("rec.replay_failed", loc)
    pages = await layer.records.move_pages(snap, MOVES_LIMIT, loc)
    files.append(json_file(snap))
    first = f"{header(snap, loc, status=not pages)}{note}\n{fenced(pages[0]) if pages else ''}".strip()
    items = record_items(snap, loc.value, replay=False, download=False)  # both are attached already
    if snap.kind.replay is not None:  # beside the animation: step through it move by move, privately
        from bot.ui.stepper import StepButton

        step = StepButton(snap.id, 0, "s", locale=loc.value)
        step.row = RECORD_ROW
        items.insert(0, step)
    view = _view(items)
    await fill(
        interaction,
        first[:2000],
        ephemeral=ephemeral,
        files=files,
        view=view,
        allowed_mentions=discord.AllowedMentions.none(),
    )
    for page in pages[1:]:
        await reply(interaction, fenced(page), ephemeral=ephemeral, allowed_mentions=discord.AllowedMentions.none())


async def send_record(interaction: discord.Interaction, game_id: int) -> None:
    """Answer privately with a finished game's record: header, the move list in one message, and the record
    buttons (Replay, Download record, the game's own)."""
    layer = games(interaction)
    snap = await layer.records.finished(game_id, interaction.guild_id)
    loc = interaction.locale
    await defer(interaction, ephemeral=True)
    moves = await layer.records.move_text(snap, MOVES_LIMIT, loc)
    view = _view(record_items(snap, loc.value))
    await fill(
        interaction,
        f"{header(snap, loc, status=not moves)}\n{fenced(moves)}".strip()[:2000],
        ephemeral=True,
        view=view,
        allowed_mentions=discord.AllowedMentions.none(),
    )


async def send_json(interaction: discord.Interaction, game_id: int) -> None:
    """Answer privately with the record JSON of finished game ``game_id`` (``game-<id>.json``)."""
    from bot import signing

    snap = await games(interaction).records.finished(game_id, interaction.guild_id)
    text = t("rec.json", interaction.locale, game_id=snap.id)
    key = signing.installed()
    if key is not None:  # how to check it (issue 22): the key to compare with the operator's published one
        command = f"python -m bot verify-record game-{snap.id}.json --public-key {signing.public_text(key)}"
        text += "\n" + t("rec.signed_by", interaction.locale, key=signing.public_text(key), command=command)
    await reply(interaction, text, ephemeral=True, files=[json_file(snap)])


class ReplayButton(GameButton, template=r"rc:rp:(?P<game>[0-9]+)"):
    """Replay: the animated replay, move list and record, privately to whoever clicks."""

    prefix, verb, label_key, style = "rc", "rp", "rec.replay_button", discord.ButtonStyle.primary

    async def run(self, interaction: discord.Interaction) -> None:
        await send_replay(interaction, self.game_id, ephemeral=True)


class DownloadButton(GameButton, template=r"rc:dl:(?P<game>[0-9]+)"):
    """Download record: the game's record JSON, privately."""

    prefix, verb, label_key, style = "rc", "dl", "rec.download_button", discord.ButtonStyle.secondary

    async def run(self, interaction: discord.Interaction) -> None:
        await send_json(interaction, self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ReplayButton, DownloadButton)
