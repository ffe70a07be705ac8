"""What the core and the services need of the bot that runs them (:class:`Host`), so that they import no module
above them: ``bot.app.TableBot`` is one; a test or another front end can be another."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, Protocol

import discord

from bot.storage import Storage


class Host(Protocol):
    """The bot as the core sees it."""

    storage: Storage
    config: Any

    @property
    def user(self) -> discord.ClientUser | None: ...

    @property
    def persistent_views(self) -> Any:
        """discord.py's persistent views of the bot."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, Any], *, name: str) -> asyncio.Task[Any]:
        """Run ``coro`` as a task the bot tracks (and cancels when it closes)."""
        ...

    def is_closed(self) -> bool: ...

    def owns(self, guild_id: int) -> bool:
        """True when this process serves the guild's shard."""
        ...

    def get_guild(self, id: int, /) -> Any:
        """The cached guild ``id``, or ``None``."""
        ...

    def get_channel(self, id: int, /) -> Any:
        """The cached channel (or thread) ``id``, or ``None``."""
        ...

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None, type: discord.ChannelType | None = None
    ) -> discord.PartialMessageable: ...


def shards_of(config: Any) -> tuple[int, list[int]] | None:
    """``(shard_count, shard ids of this process)`` from ``config``'s ``shard_count``/``shard_ids`` (``SHARD_COUNT``/
    ``SHARD_IDS``), or ``None`` when the process serves every guild (the same settings as
    :meth:`bot.config.Config.owns_guild`)."""
    count, ids = getattr(config, "shard_count", None), getattr(config, "shard_ids", None)
    if count is None or ids is None or count <= 1:
        return None
    return int(count), [int(i) for i in ids]
