"""When Discord refuses a game message: what the refusal means and the next best form of the message.

Every public game message (board, result card, lobby, reminder, claim) goes through one chain,
:meth:`bot.services.delivery.Delivery.send` (private pictures, a hand or hints, through :func:`fill_fitting`:
the form steps only), and a refused post never undoes the action it shows:

1. **the route**: the interaction's own answer, else a followup of a fresh interaction of the channel, else a
   channel message;
2. **the form**, on each route (:meth:`Outgoing.degrade`): a file too large (413, code 40005) is sent again as a
   smaller picture (``render.fit``, no narrower than 400 px), twice at most, then as the text twin; files refused
   in a channel where Attach Files is all the bot lacks (403/50013) as the text twin;
3. **another route** when the channel refuses the post itself (:func:`place_refused`: 50013 Missing Permissions,
   50001 Missing Access, 50083 archived thread, 160005 locked thread, 10003 Unknown Channel): a followup of the
   game's latest live interaction (its webhook needs no channel permission), headed by what went wrong
   (:func:`why`);
4. else the error is raised: the outbox posts the board later (with back-off) and the next one who acts in the
   game is told, with the board, through their own interaction.

An edit of the player's own "thinking" answer that Discord refuses is replaced by a followup (Discord fills the
thinking message with it), so an answer never stays "thinking…".
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core.paging import clip
from bot.i18n import t

log = logging.getLogger(__name__)

TOO_LARGE = 40005
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
ARCHIVED_THREAD = 50083
LOCKED_THREAD = 160005
UNKNOWN_CHANNEL = 10003
PLACE_CODES = {
    MISSING_PERMISSIONS: "perms",
    MISSING_ACCESS: "access",
    ARCHIVED_THREAD: "archived",
    LOCKED_THREAD: "locked",
    UNKNOWN_CHANNEL: "gone",
}
"""Refusals of the channel itself (not of the message's form), by Discord's JSON error code, and the key of the
reason told to the players (``why.<key>``)."""
SHRINKS = 2
"""Smaller pictures tried on one refusal for size before the text twin."""

Cpu = Callable[..., Awaitable[Any]]


def too_large(err: BaseException) -> bool:
    """A file (or the whole request) over Discord's upload limit: 413 / code 40005."""
    return isinstance(err, discord.HTTPException) and (err.status == 413 or err.code == TOO_LARGE)


def place_refused(err: BaseException) -> str | None:
    """The reason key when Discord refused the channel itself (see :data:`PLACE_CODES`; any other 403 counts as
    ``perms``), else ``None`` (a refusal of the form, a server error, a rate limit)."""
    if not isinstance(err, discord.HTTPException):
        return None
    reason = PLACE_CODES.get(err.code)
    if reason is None and isinstance(err, discord.Forbidden):
        reason = "perms"
    return reason


def why(reason: str, locale: str | None, perms: Any = None) -> str:
    """The reason a channel refused, in the reader's words ("missing Send Messages", "the thread is locked")."""
    if reason == "perms" and perms is not None:
        return t("why.perms", locale, perms=perms.localize(locale) if hasattr(perms, "localize") else perms)
    return t(f"why.{reason}", locale)


def file_bytes(f: discord.File) -> bytes:
    """The bytes of ``f`` (rewound first and after)."""
    f.reset()
    data = f.fp.read()
    f.reset()
    return bytes(data)


@dataclass
class Outgoing:
    """A message on its way: ``content``, ``files``, and ``twin`` (the text that replaces the files: a board's text
    twin, or a function making it, called only when needed; ``None``: the files cannot be replaced). ``note``
    heads it once a fallback changed what the reader gets. ``locale`` for the notes."""

    content: str
    files: list[discord.File]
    twin: str | Callable[[], str] | None = None
    locale: str | None = None
    note: list[str] = field(default_factory=list)
    shrunk: int = 0
    large_key: str = "pub.text_board_large"
    """The note said when the files are left out for their size (a board's: "board as text...")."""

    @property
    def text(self) -> str:
        """What the message says: the notes, then the content (whole lines, at most 2,000 characters)."""
        return clip("\n".join([*self.note, self.content]))

    def reset(self) -> None:
        """Rewind every file (before the same files go out again)."""
        for f in self.files:
            f.reset()

    def head(self, line: str) -> None:
        """Put ``line`` first (what went wrong), once."""
        if line not in self.note:
            self.note.insert(0, line)

    def as_text(self, key: str) -> bool:
        """Replace the files by the text twin, said by note ``key``. False when there is no twin."""
        if self.twin is None or not self.files:
            return False
        twin = self.twin() if callable(self.twin) else self.twin
        self.files = []
        self.content = "\n".join(x for x in (self.content, t(key, self.locale), twin) if x)
        return True

    async def degrade(
        self, err: BaseException, limit: int | None, cpu: Cpu | None, *, files_refused: bool = False
    ) -> bool:
        """After ``err``: change into the next best form for the same route. True if there is one (send again).
        ``files_refused``: a 403 means the files (Attach Files is what the bot lacks there); else a 403 is the
        channel's refusal, left to the caller (another route may take the files)."""
        if too_large(err) and self.files:
            if cpu is not None and self.shrunk < SHRINKS and await self._shrink(limit, cpu):
                return True
            return self.as_text(self.large_key)
        if files_refused and isinstance(err, discord.Forbidden) and err.code == MISSING_PERMISSIONS and self.files:
            return self.as_text("pub.text_board")
        self.reset()
        return False

    async def _shrink(self, limit: int | None, cpu: Cpu) -> bool:
        """Every file as a smaller PNG (``render.fit.smaller_png`` in the CPU workers): within ``limit`` the first
        time if the file is larger, else two thirds of the largest file. False if one cannot be made small enough."""
        from render.fit import smaller_png

        datas = [file_bytes(f) for f in self.files]
        largest = max(len(d) for d in datas)
        target = limit if limit is not None and largest > limit and not self.shrunk else largest * 2 // 3
        smaller: list[discord.File] = []
        for f, data in zip(self.files, datas, strict=True):
            if not f.filename.lower().endswith(".png"):
                return False
            try:
                png = await cpu(smaller_png, data, max(target, 1))
            except Exception:
                log.exception("could not make %s smaller", f.filename)
                return False
            if png is None:
                return False
            smaller.append(discord.File(io.BytesIO(png), filename=f.filename))
        log.info("upload refused for its size (%s bytes): sent again at most %s bytes", largest, target)
        self.files = smaller
        if not self.shrunk:
            self.content = f"{self.content}\n{t('pub.smaller', self.locale)}"
        self.shrunk += 1
        return True


def interaction_limit(interaction: discord.Interaction) -> int | None:
    """Bytes a file may have in ``interaction``'s answers (Discord's ``attachment_size_limit``), if known."""
    limit = getattr(interaction, "filesize_limit", None)
    return int(limit) if isinstance(limit, int) and limit > 0 else None


async def fill_fitting(
    interaction: discord.Interaction,
    content: str,
    *,
    files: list[discord.File],
    cpu: Cpu | None,
    ephemeral: bool = False,
    **kwargs: Any,
) -> None:
    """:func:`bot.core.respond.fill` through the chain's form fallbacks, for an answer whose ``content`` already
    says what its pictures show (a hand, hints): a picture over the upload limit goes smaller, then the
    answer goes without it, saying so. Raises what Discord raised otherwise."""
    from bot.core.respond import fill

    out = Outgoing(content, files, twin="", locale=str(interaction.locale), large_key="pub.picture_left_out")
    while True:
        try:
            await fill(interaction, out.text, ephemeral=ephemeral, files=out.files, **kwargs)
            return
        except discord.HTTPException as err:
            if not await out.degrade(err, interaction_limit(interaction), cpu):
                raise
