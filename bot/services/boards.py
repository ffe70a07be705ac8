"""The board of a game as stored: its message keys, the version it shows, whether it is stale, its nonce; the CPU job
of a picture. Shared by the publisher and its recovery (``publish.py``, ``recovery.py``)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from bot.core.clock import running, stamp
from bot.i18n import t

if TYPE_CHECKING:
    from bot.core.kind import Snapshot
    from bot.core.layer import GameLayer
    from bot.storage.records import GameRecord

log = logging.getLogger(__name__)

BOARD_KEY = "board"
"""Message key of a game's current board message."""
HISTORY_LOOKBACK = 25
"""Latest channel messages searched for a board posted but never recorded (a crash in between) before re-posting."""
BOARD_VERSION_KEY = "board.version"
"""Key (in ``GameRecord.messages``) of the game version the current board shows; not a message id."""
VERSION_SUFFIX = ".version"
BOARD_GRACE_S = 10.0
"""A board owed by a commit is left to the committing process this long before the outbox's workers post it."""
BOARD_STATUSES: tuple[str, ...] = ("active", "finished")
"""Statuses in which a game shows a board of its latest version (a lobby has none; an aborted game keeps its
last board, stripped)."""


def render_png(draw: Any, /, *args: Any, **kwargs: Any) -> bytes:
    """``draw(*args, **kwargs)`` (a PIL image) PNG-encoded: the CPU job of one picture."""
    from render import to_png

    return to_png(draw(*args, **kwargs))


def message_link(record: GameRecord, *keys: str) -> str:
    """A jump link to the first of the game's stored messages ``keys`` (``"board"``, ``"lobby"``...) that exists:
    ``https://discord.com/channels/<guild>/<channel>/<message>`` (``@me`` for a DM's game: guild 0), else to the
    game's channel."""
    message = next((record.messages[k] for k in keys if record.messages.get(k)), None)
    base = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.channel_id}"
    return f"{base}/{message}" if message else base


def message_ids(record: GameRecord) -> dict[str, int]:
    """The game's stored message ids by key (``"board"``, ``"lobby"``...), without ``*.version`` keys."""
    return {k: v for k, v in record.messages.items() if not k.endswith(VERSION_SUFFIX)}


def board_version(record: GameRecord) -> int | None:
    """The game version the stored board shows, or ``None`` (no board recorded yet)."""
    if BOARD_KEY not in record.messages:
        return None
    return record.messages.get(BOARD_VERSION_KEY)


def board_nonce(record: GameRecord) -> str:
    """The nonce of the board of ``record``'s version as a channel message (``b<game>.<version>``): a second post of
    the same board (a recovery after a crash between posting and recording) gets the first one back."""
    return f"b{record.id}.{record.version}"[:25]


def board_stale(record: GameRecord) -> bool:
    """True when the game should show a board (``active``/``finished``) and its stored board is missing or
    older than ``record.version`` (a post failed, or the process died in between)."""
    if record.status not in BOARD_STATUSES:
        return False
    shown = board_version(record)
    return shown is None or shown < record.version


def clock_line(snap: Snapshot) -> str:
    """Whose clock runs and when it runs out (``<t:EPOCH:R>``: every client shows it in local time), on its own
    line; empty without a running clock."""

    run = running(snap.env) if snap.status == "active" else None
    if run is None:
        return ""
    seat, deadline = run
    return "\n" + t(
        "clk.line",
        snap.locale,
        name=snap.names[seat],
        when=stamp(deadline),
        preset=t(f"clk.preset_{snap.env.clock.get('preset')}", snap.locale),
    )


def text_twin(snap: Snapshot) -> str:
    """The text twin of the pictures of ``snap``'s board (and result card): what replaces them when Discord
    refuses the files (``bot.services.refusals``)."""
    pictures = list(snap.kind.pictures.board_pictures(snap))
    if snap.status == "finished":
        result = snap.kind.pictures.result_picture(snap)
        if result is not None:
            pictures.append(result)
    return "\n".join(p.fallback() for p in pictures)


class ShownBoards:
    """Game -> (version, message id) of the last board this process recorded, for at most ``keep`` games (the
    oldest dropped): :meth:`covering` tells whether a board of a version is out already."""

    def __init__(self, keep: int) -> None:
        self.keep = keep
        self._by_game: dict[int, tuple[int, int]] = {}

    def note(self, game_id: int, version: int, message_id: int) -> None:
        """``message_id`` (showing ``version``) was recorded as the game's board."""
        self._by_game.pop(game_id, None)
        self._by_game[game_id] = (version, message_id)
        while len(self._by_game) > self.keep:
            del self._by_game[next(iter(self._by_game))]

    def covering(self, game_id: int, version: int) -> int | None:
        """The recorded board showing ``version`` or a newer one, or ``None``."""
        out = self._by_game.get(game_id)
        return out[1] if out is not None and out[0] >= version else None


async def late_words(layer: GameLayer, game_id: int, late: bool) -> dict[str, Any]:
    """The new text of a board landing after its game was aborted (``late``; e.g. a Start answered as an admin
    aborted): the aborted game's status line, as ``Publisher.strip_all`` and the ``ended`` effect give the recorded
    board, not a player to move and a running clock under the abort note. ``{}`` otherwise (only its components go):
    ``content=`` for the edit that strips it. Never raises (a failed read: ``{}``, logged)."""
    if not late:
        return {}
    try:
        fresh = await layer.record(game_id)
        if fresh.status != "aborted":
            return {}
        ended = layer.snapshot(fresh)
        return {"content": ended.kind.narration.status_line(ended)[:2000]}
    except Exception as err:  # the database away: the strip goes on without the words (never lose the strip)
        log.warning("late board of game %s: its aborted game's words could not be read (%s)", game_id, err)
        return {}
