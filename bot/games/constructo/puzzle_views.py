"""The components of the puzzles (persistent ``DynamicItem`` custom ids, so they answer after a restart too).

- :class:`AnswerSelect` ``pz:a:<puzzle>:<day>:<S|M|L|X>``: the answer, as on a game board: a size's select lists the
  tiles where that chip may be placed, ``X`` lists the moves. ``day`` 0: a private puzzle (``/puzzle play``): the
  message is edited with the verdict. Otherwise the daily puzzle of that UTC day (a public message): the verdict is
  private, and the first answer of a member to the server's current daily puzzle counts for their streak.
- :class:`NextButton` ``pz:nx:<difficulty|any>``: another private puzzle.
- :class:`StreaksPage` ``pz:lb:<page>:<p|n>``: pages of ``/puzzle streaks``.
"""

from __future__ import annotations

import random
import re
from typing import Any

import discord

from bot.core.names import plain
from bot.core.paging import clip
from bot.errors import BotError
from bot.games.constructo.puzzle_service import pick, picture, prompt_text, utc_day, verdict_text
from bot.i18n import t
from bot.ui.common import defer, fill, games, reply, report_errors, update
from engine.constructo.move import Move
from engine.constructo.puzzle_set import check_answer, puzzle_by_id
from engine.constructo.puzzles import Puzzle
from engine.errors import InvalidInputError

STREAKS_PAGE = 10
"""Members per page of ``/puzzle streaks`` (10 short lines: far within 2,000 characters)."""
SIZES = {"L": "large", "M": "medium", "S": "small"}


def answer_view(pid: int, puzzle: Puzzle, day: int, locale: str | None) -> discord.ui.View:
    """The answer selects of puzzle ``pid`` (large, medium, small placements, then moves; a select only where the
    position has such actions). Every legal action of the position is offered (at most 9 tiles a size, the moves
    of a position fit in 25: checked for the shipped set by the tests)."""
    view = discord.ui.View(timeout=None)
    moves = [Move.parse(m) for m in puzzle.values]
    for letter in ("L", "M", "S"):
        tiles = sorted(m.tile for m in moves if m.is_place and m.size is not None and m.size.letter == letter)
        if tiles:
            options = [discord.SelectOption(label=t("ui.tile", locale, tile=n), value=str(n)) for n in tiles]
            view.add_item(AnswerSelect(pid, day, letter, options, t(f"ui.place_{SIZES[letter]}", locale)))
    steps = sorted((m for m in moves if not m.is_place), key=lambda m: (m.src or 0, m.dst or 0))
    if steps:
        options = [
            discord.SelectOption(label=t("ui.move_option", locale, src=m.src, dst=m.dst), value=str(m))
            for m in steps[:25]
        ]
        view.add_item(AnswerSelect(pid, day, "X", options, t("ui.move_placeholder", locale)))
    return view


async def send_puzzle(interaction: discord.Interaction, difficulty: str | None) -> None:
    """Answer ``interaction`` privately with a random puzzle (of ``difficulty`` when given)."""
    await defer(interaction, ephemeral=True)
    loc = interaction.locale
    pid = pick(difficulty, random.Random())
    puzzle = puzzle_by_id(pid)
    assert puzzle is not None
    file = await picture(games(interaction), pid, puzzle, loc)
    view = answer_view(pid, puzzle, 0, loc.value)
    await fill(interaction, prompt_text(pid, puzzle, loc), ephemeral=True, files=[file], view=view)


class AnswerSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"pz:a:(?P<pid>[0-9]{1,5}):(?P<day>[0-9]{1,6}):(?P<kind>[SMLX])",
):
    """One answer select (see the module docstring)."""

    def __init__(
        self, pid: int, day: int, kind: str, options: list[discord.SelectOption] | None = None, placeholder: str = ""
    ) -> None:
        self.pid, self.day, self.kind = pid, day, kind
        super().__init__(
            discord.ui.Select(
                custom_id=f"pz:a:{pid}:{day}:{kind}",
                options=options or [discord.SelectOption(label="-", value="0")],
                placeholder=placeholder[:150] or None,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnswerSelect:
        return cls(int(match["pid"]), int(match["day"]), match["kind"])

    def answer(self, value: str) -> str:
        """The action chosen, in notation."""
        if self.kind == "X":
            return value
        if not value.isdigit() or len(value) > 1:
            raise BotError("err.bad_option", value=value[:40])
        return f"{self.kind}{value}"

    async def callback(self, interaction: discord.Interaction) -> None:
        await report_errors(interaction, lambda: self._answer(interaction))

    async def _answer(self, interaction: discord.Interaction) -> None:
        loc = interaction.locale
        puzzle = puzzle_by_id(self.pid)
        if puzzle is None:
            raise BotError("pz.gone")
        values = (interaction.data or {}).get("values") or [""]
        try:
            verdict = check_answer(puzzle, self.answer(str(values[0])))
        except InvalidInputError as err:
            raise BotError("pz.not_legal", value=str(values[0])[:20]) from err
        text = verdict_text(puzzle, verdict, loc)
        if self.day == 0:  # a private puzzle: its message shows the verdict
            view = discord.ui.View(timeout=None)
            view.add_item(NextButton(puzzle.difficulty, locale=loc.value))
            await update(interaction, content=clip(f"{prompt_text(self.pid, puzzle, loc)}\n\n{text}"), view=view)
            return
        await reply(
            interaction, clip(await self._daily(interaction, puzzle, verdict.right, verdict.move, text)), ephemeral=True
        )

    async def _daily(self, interaction: discord.Interaction, puzzle: Puzzle, right: bool, move: str, text: str) -> str:
        """The daily puzzle's answer: stored (the first one) and counted for the streak when it is the server's
        current daily puzzle; the verdict either way."""
        loc = interaction.locale
        layer = games(interaction)
        row = await layer.storage.puzzle_daily_get(interaction.guild_id or 0) if interaction.guild_id else None
        if row is None or row.day != self.day or row.puzzle_id != self.pid:
            return f"{text}\n{t('pz.not_counted', loc)}"
        got = await layer.storage.puzzle_answer(row.guild_id, self.day, interaction.user.id, move, right)
        streak = t("pz.streak", loc, n=got.streak, best=got.best)
        if not got.first:
            said = t("pz.right_word" if got.correct else "pz.wrong_word", loc)
            return f"{t('pz.already', loc, move=got.move, verdict=said)}\n{streak}"
        return f"{text}\n{streak}"


class NextButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pz:nx:(?P<lvl>any|easy|medium|hard)"):
    """Another private puzzle of the same difficulty."""

    def __init__(self, level: str, *, locale: str | None = None) -> None:
        self.level = level
        super().__init__(
            discord.ui.Button(label=t("pz.next", locale), style=discord.ButtonStyle.primary, custom_id=f"pz:nx:{level}")
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> NextButton:
        return cls(match["lvl"])

    async def callback(self, interaction: discord.Interaction) -> None:
        level = None if self.level == "any" else self.level
        await report_errors(interaction, lambda: send_puzzle(interaction, level))


async def streaks_page(interaction: discord.Interaction, page: int) -> tuple[str, discord.ui.View | None]:
    """Page ``page`` (0-based) of the server's streak leaderboard: rank, member, streak, best, solved."""
    loc = interaction.locale
    layer = games(interaction)
    gid = interaction.guild_id or 0
    row = await layer.storage.puzzle_daily_get(gid)
    latest = row.day if row is not None and row.day >= 0 else utc_day(layer.clock.now())
    rows = await layer.storage.puzzle_streaks(gid, latest, limit=STREAKS_PAGE + 1, offset=page * STREAKS_PAGE)
    more, rows = len(rows) > STREAKS_PAGE, rows[:STREAKS_PAGE]
    if not rows:
        return t("pz.streaks_empty" if page == 0 else "pz.streaks_past_end", loc), None
    lines = [t("pz.streaks_title", loc, guild=plain(interaction.guild.name) if interaction.guild else "")]
    for i, r in enumerate(rows, start=page * STREAKS_PAGE + 1):
        lines.append(t("pz.streaks_row", loc, rank=i, user=r.user_id, n=r.streak, best=r.best, solved=r.solved))
    view = None
    if page > 0 or more:
        lines.append(t("pz.page", loc, page=page + 1))
        view = discord.ui.View(timeout=None)
        view.add_item(StreaksPage(page - 1, "p", disabled=page == 0, locale=loc.value))
        view.add_item(StreaksPage(page + 1, "n", disabled=not more, locale=loc.value))
    return clip("\n".join(lines)), view


class StreaksPage(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"pz:lb:(?P<page>[0-9]{1,3}):(?P<d>[pn])"):
    """Previous / Next page of ``/puzzle streaks`` (turns the private page in place)."""

    def __init__(self, page: int, way: str, *, disabled: bool = False, locale: str | None = None) -> None:
        self.page = max(0, page)
        super().__init__(
            discord.ui.Button(
                label=t("ui.page_prev" if way == "p" else "ui.page_next", locale),
                style=discord.ButtonStyle.secondary,
                disabled=disabled,
                custom_id=f"pz:lb:{self.page}:{way}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> StreaksPage:
        return cls(int(match["page"]), match["d"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            content, view = await streaks_page(interaction, self.page)
            await update(interaction, content=content, view=view, allowed_mentions=discord.AllowedMentions.none())

        await report_errors(interaction, work)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (AnswerSelect, NextButton, StreaksPage)
