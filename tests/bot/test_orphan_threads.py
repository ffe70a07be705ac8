"""Which threads the orphan sweep removes (``bot/services/orphans.py``): only one the bot owns, made before this
process started, under a text channel, named by no stored game, with no message in it, and not being opened. The
e2e side (a real SIGKILL between the thread and the game) is tests/e2e/test_orphan_threads.py."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock

import discord

from bot.services.orphans import Orphans

ME = 4242


class Thread:
    def __init__(self, tid: int, *, owner: int = ME, said: bool = False, parent: Any = None) -> None:
        self.id, self.owner_id, self.said = tid, owner, said
        self.message_count = 1 if said else 0
        self.parent = parent if parent is not None else MagicMock(spec=discord.TextChannel)
        self.deleted = False

    async def history(self, limit: int) -> Any:
        if self.said:
            yield object()

    async def delete(self) -> None:
        self.deleted = True


def made(seconds_before_start: float, start: float, n: int) -> int:
    when = dt.datetime.fromtimestamp(start - seconds_before_start, dt.UTC)
    return discord.utils.time_snowflake(when) + n


async def test_the_sweep_removes_only_an_empty_unnamed_thread_of_its_own_made_before_it_started() -> None:
    stored: set[int] = set()

    async def channels_with_games(ids: list[int]) -> set[int]:
        return {i for i in ids if i in stored}

    threads: list[Thread] = []
    guild = SimpleNamespace(id=1, threads=threads)
    bot = SimpleNamespace(user=SimpleNamespace(id=ME), guilds=[guild], spawn=lambda *a, **k: None)
    layer = SimpleNamespace(bot=bot, storage=SimpleNamespace(channels_with_games=channels_with_games))
    layer.on_ready_hooks = []
    orphans = Orphans(layer)  # type: ignore[arg-type]
    start = orphans.started
    orphan = Thread(made(60, start, 1))
    with_game = Thread(made(60, start, 2))
    stored.add(with_game.id)
    written = Thread(made(60, start, 3), said=True)
    someone_elses = Thread(made(60, start, 4), owner=7)
    after_start = Thread(made(-1, start, 5))
    in_forum = Thread(made(60, start, 6), parent=MagicMock(spec=discord.ForumChannel))
    opening = Thread(made(60, start, 7))
    orphans._opening.add(opening.id)
    too_old = Thread(made(26 * 3600, start, 8))  # an empty game thread archives itself after 24 h: not ours
    counted_unread = Thread(made(60, start, 9))
    counted_unread.message_count = 3  # Discord counts messages: spared without reading its history
    threads += [orphan, with_game, written, someone_elses, after_start, in_forum, opening, too_old, counted_unread]
    assert await orphans.sweep() == 1
    assert [t.deleted for t in threads] == [True] + [False] * 8
    bot.owns = lambda _g: False  # another process's guild: not looked at
    orphan.deleted = False
    assert await orphans.sweep() == 0 and not orphan.deleted
