"""Constructo puzzles in the bot (issue 25.3): the words and picture of a puzzle, and each server's daily puzzle.

The puzzles are the shipped set (:mod:`engine.constructo.puzzle_set`: every one has exactly one right answer,
proven by the solver). A puzzle is shown as the board of its position (the existing board renderer, the player to
move named "You") with one sentence saying what to find, and answered from selects in the notation of the board's
own selects (a size and a tile, or a move "tile 4 -> tile 5").

**Daily puzzle** (:class:`DailyPuzzles`): a server's admins choose a channel and an hour (UTC); the setting lives in
``puzzle_daily`` (``bot/storage/puzzles.py``), so a restart keeps it. One task (started on READY, like the game
timers of ``bot/services/timers.py``) sleeps until the earliest stored ``next_at`` and posts every due server's
puzzle of the day once:

1. the day is **claimed** in storage first (compare-and-set on the row as read: two processes, or a setting changed
   meanwhile, cannot both claim it), the row naming the day with no message yet;
2. the message is posted with the nonce ``pzd<day>`` (Discord returns the message already posted with it instead of
   a second one), so a restart between the post and step 3 posts nothing new;
3. its message id and the next due time are stored.

A day already posted is never posted again (also when the hour is changed the same day); a bot that was down at the
hour posts the day's puzzle when it is back (once), then keeps the hour. A channel that refuses the post (permissions)
skips that day; a deleted channel ends the setting. The puzzle of day ``d`` (UTC days since
1970-01-01) is the same in every server (:func:`puzzle_of_day`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.core.respond import png_file
from bot.games.constructo.narration import move_words
from bot.i18n import image_words, t, tn
from bot.services.boards import render_png
from engine.constructo.match import Match
from engine.constructo.puzzle_set import Verdict, load_puzzles, puzzle_by_id
from engine.constructo.puzzles import Puzzle
from render.constructo import render_board

if TYPE_CHECKING:
    from bot.core.layer import GameLayer
    from bot.storage.puzzles import Daily

log = logging.getLogger(__name__)

DAY_S = 86_400
MAX_SLEEP_S = 600.0
"""The task re-reads storage at least this often (a setting made by another process is seen then)."""
RETRY_S = 300.0
"""A post that failed (Discord or the database refused) is tried again after this long."""


# -- time --------------------------------------------------------------------------------------------------------
def utc_day(ts: float) -> int:
    """The UTC day of Unix time ``ts`` (days since 1970-01-01)."""
    return int(ts // DAY_S)


def next_time(now: float, hour: int) -> float:
    """The first ``hour``:00 UTC strictly after ``now`` (Unix seconds)."""
    at = utc_day(now) * DAY_S + hour * 3600
    return at if at > now else at + DAY_S


def due_day(now: float, hour: int) -> int:
    """The latest day whose ``hour``:00 UTC is at or before ``now``."""
    day = utc_day(now)
    return day if day * DAY_S + hour * 3600 <= now else day - 1


def day_text(day: int) -> str:
    """Day ``day`` as an ISO date (``2026-12-06``), the same in every language."""
    return time.strftime("%Y-%m-%d", time.gmtime(day * DAY_S))


def puzzle_of_day(day: int) -> int:
    """The id of day ``day``'s daily puzzle: the shipped set in a fixed shuffled order, round and round."""
    ids = [i for i, _ in load_puzzles()]
    random.Random(20251206).shuffle(ids)
    return ids[day % len(ids)]


def pick(difficulty: str | None, rng: random.Random) -> int:
    """A random puzzle id (of ``difficulty`` when given)."""
    ids = [i for i, p in load_puzzles() if difficulty in (None, p.difficulty)]
    return rng.choice(ids)


# -- words ------------------------------------------------------------------------------------------------------
def outcome_words(value: int, loc: Any) -> str:
    """What a proven value means for the solver, in words: wins by n towers / draws / loses by n towers."""
    if value > 0:
        return tn("pz.wins_by", value, loc)
    if value < 0:
        return tn("pz.loses_by", -value, loc)
    return t("pz.draws", loc)


def prompt_text(pid: int, puzzle: Puzzle, loc: Any, *, day: int = 0) -> str:
    """The puzzle's message: which puzzle, what to find, how to answer."""
    head = t("pz.daily_head", loc, date=day_text(day)) if day else t("pz.head", loc, id=pid)
    return "\n".join(
        [
            f"{head} · {t(f'pz.level_{puzzle.difficulty}', loc)} · {puzzle.layout_name}",
            t(f"pz.find_{puzzle.kind}", loc, n=puzzle.best),
            t("pz.how", loc),
        ]
    )


def proof_text(puzzle: Puzzle, loc: Any) -> str:
    """The proof in words: what the answer achieves and by how much it beats every other move."""
    key = {"win": "pz.proof_win", "save": "pz.proof_save", "more": "pz.proof_more"}[puzzle.kind]
    return t(
        key,
        loc,
        move=move_words(puzzle.solution, loc),
        result=outcome_words(puzzle.best, loc),
        margin=tn("pz.towers", puzzle.margin, loc),
        line=" ".join(puzzle.line),
    )


def verdict_text(puzzle: Puzzle, verdict: Verdict, loc: Any) -> str:
    """Right or wrong, with the proof."""
    if verdict.right:
        return f"{t('pz.right', loc)}\n{proof_text(puzzle, loc)}"
    wrong = t("pz.wrong", loc, move=move_words(verdict.move, loc), result=outcome_words(verdict.value, loc))
    return f"{wrong}\n{proof_text(puzzle, loc)}"


async def picture(layer: GameLayer, pid: int, puzzle: Puzzle, loc: Any) -> discord.File:
    """The board of the puzzle's position (the player to move named "You"), drawn in the CPU pool."""
    names = [t("pz.opponent", loc), t("pz.opponent", loc)]
    names[puzzle.to_move] = t("pz.you", loc)
    match = Match(puzzle.first, [puzzle.round()])
    png = await layer.cpu(render_png, render_board, match, names=names, words=image_words(loc), single_round=True)
    return png_file(png, f"puzzle-{pid}.png")


# -- the daily puzzle ------------------------------------------------------------------------------------------------
class DailyPuzzles:
    """The scheduler of every server's daily puzzle (see the module docstring). ``view(pid, puzzle, day, locale)``
    makes the answer selects (given by the UI); ``posted`` counts the puzzles posted by this process."""

    def __init__(self, layer: GameLayer, view: Callable[[int, Puzzle, int, str | None], discord.ui.View]) -> None:
        self.layer = layer
        self.view = view
        self.posted = 0
        self._task: asyncio.Task[Any] | None = None
        self._poked = asyncio.Event()
        layer.on_ready_hooks.append(self.start)

    def start(self) -> None:
        """Start the task (idempotent; called on every READY)."""
        if self._task is None or self._task.done():
            self._task = self.layer.bot.spawn(self._run(), name="daemon:daily-puzzles")

    def poke(self) -> None:
        """A setting changed: look at storage again now."""
        self._poked.set()

    def shards(self) -> tuple[int, list[int]] | None:
        """The shards this process serves (as the game timers)."""
        config = self.layer.bot.config
        if config.shard_count is None or config.shard_ids is None or config.shard_count <= 1:
            return None
        return int(config.shard_count), [int(i) for i in config.shard_ids]

    async def _run(self) -> None:
        storage = self.layer.storage
        while not self.layer.bot.is_closed():
            self._poked.clear()
            try:
                await self.run_due()
                nxt = await storage.puzzle_daily_earliest(shards=self.shards())
            except Exception:
                log.exception("the daily puzzle scheduler failed; trying again shortly")
                nxt = self.layer.clock.now() + RETRY_S
            delay = MAX_SLEEP_S if nxt is None else min(MAX_SLEEP_S, max(1.0, nxt - self.layer.clock.now()))
            handle = asyncio.get_running_loop().call_later(delay, self._poked.set)
            try:
                await self._poked.wait()
            finally:
                handle.cancel()

    async def run_due(self) -> int:
        """Post every due server's daily puzzle of this process. Returns how many settings were due."""
        now = self.layer.clock.now()
        due = await self.layer.storage.puzzle_daily_due(now, shards=self.shards())
        for row in due:
            if not self.layer.bot.owns(row.guild_id):
                continue
            try:
                await self.handle(row, now)
            except Exception:
                log.exception("daily puzzle of guild %s failed; retrying in %.0f s", row.guild_id, RETRY_S)
                await self.layer.storage.puzzle_daily_later(row.guild_id, now + RETRY_S)
        return len(due)

    async def handle(self, row: Daily, now: float) -> None:
        """One due setting: claim the day, post it (same nonce on a retry), store the message and the next time."""
        storage = self.layer.storage
        day = due_day(now, row.hour)
        after = next_time(now, row.hour)
        if row.day > day or (row.day == day and row.message_id is not None):  # this day is out already
            await storage.puzzle_daily_posted(row.guild_id, row.day, row.message_id, after)
            return
        pid = row.puzzle_id
        if row.day < day:
            pid = puzzle_of_day(day)
            if not await storage.puzzle_daily_claim(row, day, pid):
                return  # another process, or the setting changed: read again next time
        puzzle = puzzle_by_id(pid)
        if puzzle is None:  # the shipped set changed under a claimed day: today's puzzle of the new set
            pid = puzzle_of_day(day)
            puzzle = puzzle_by_id(pid)
            assert puzzle is not None
        loc = row.locale
        channel = self.layer.bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        try:
            message = await channel.send(
                prompt_text(pid, puzzle, loc, day=day),
                file=await picture(self.layer, pid, puzzle, loc),
                view=self.view(pid, puzzle, day, loc),
                nonce=f"pzd{day}",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.NotFound as err:  # the channel is gone: the setting ends (an admin sets a new one)
            log.warning("daily puzzle of guild %s: channel %s is gone (%s); stopped", row.guild_id, row.channel_id, err)
            await storage.puzzle_daily_off(row.guild_id)
            return
        except discord.Forbidden as err:  # closed to the bot (permissions): skip today, try again tomorrow
            log.warning("daily puzzle of guild %s: channel %s refused it (%s)", row.guild_id, row.channel_id, err)
            await storage.puzzle_daily_posted(row.guild_id, day, None, after)
            return
        self.posted += 1
        await storage.puzzle_daily_posted(row.guild_id, day, message.id, after)
