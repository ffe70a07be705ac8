"""The puzzles' words and times in the bot (``bot/games/constructo/puzzle_service.py``): both languages, the proof
in words, the daily schedule's arithmetic."""

from __future__ import annotations

import pytest

from bot.games.constructo.puzzle_service import (
    DAY_S,
    due_day,
    move_words,
    next_time,
    outcome_words,
    prompt_text,
    puzzle_of_day,
    verdict_text,
)
from bot.games.constructo.puzzle_views import answer_view
from engine.constructo.puzzle_set import check_answer, load_puzzles


def test_next_time_and_due_day() -> None:
    day = 20_000
    nine = day * DAY_S + 9 * 3600
    assert next_time(nine - 1, 9) == nine
    assert next_time(nine, 9) == nine + DAY_S  # strictly after now
    assert due_day(nine, 9) == day and due_day(nine - 1, 9) == day - 1
    assert next_time(nine + 5 * 3600, 9) == nine + DAY_S


def test_puzzle_of_day_cycles_through_the_whole_set() -> None:
    ids = {i for i, _ in load_puzzles()}
    assert {puzzle_of_day(d) for d in range(len(ids))} == ids
    assert puzzle_of_day(7) == puzzle_of_day(7 + len(ids))


@pytest.mark.parametrize("loc", ["en-US", "es-ES"])
def test_every_puzzle_reads_in_both_languages(loc: str) -> None:
    for pid, puzzle in load_puzzles():
        prompt = prompt_text(pid, puzzle, loc)
        assert f"#{pid}" in prompt or f"{pid}" in prompt
        right = verdict_text(puzzle, check_answer(puzzle, puzzle.solution), loc)
        assert f"**{puzzle.solution}**" in right and "{" not in right
        other = next(m for m in puzzle.values if m != puzzle.solution)
        wrong = verdict_text(puzzle, check_answer(puzzle, other), loc)
        assert f"**{other}**" in wrong and f"**{puzzle.solution}**" in wrong and "{" not in wrong
        assert len(right) < 1500 and len(wrong) < 1500


def test_words_of_results_and_moves() -> None:
    assert outcome_words(2, "en-US") == "wins the round by 2 towers"
    assert outcome_words(-1, "en-US") == "loses the round by 1 tower"
    assert outcome_words(0, "es-ES") == "empata la ronda"
    assert move_words("L7", "en-US") == "**L7** (a large chip on tile 7)"
    assert move_words("4-5", "es-ES") == "**4-5** (casilla 4 → casilla 5)"


def test_answer_selects_offer_every_legal_action() -> None:
    for pid, puzzle in load_puzzles()[:20]:
        view = answer_view(pid, puzzle, 0, "en-US")
        offered = set()
        for item in view.children:
            kind = item.custom_id.rsplit(":", 1)[1]  # type: ignore[attr-defined]
            for opt in item.item.options:  # type: ignore[attr-defined]
                offered.add(opt.value if kind == "X" else f"{kind}{opt.value}")
        assert offered == set(puzzle.values)


async def test_puzzle_commands_are_in_the_tree_with_spanish_words(bot: object) -> None:
    from bot.app import TableBot

    assert isinstance(bot, TableBot)
    payload = await bot.command_payload(None)
    puzzle = next(p for p in payload if p["name"] == "puzzle")
    subs = {o["name"]: o for o in puzzle["options"]}
    assert set(subs) == {"play", "streaks", "daily_channel"}
    assert puzzle.get("description_localizations", {}).get("es-ES", "").startswith("Problemas")


async def test_streaks_pages_of_ten_within_discords_limits(storage: object) -> None:
    from types import SimpleNamespace

    import discord

    from bot.games.constructo.puzzle_views import STREAKS_PAGE, streaks_page
    from bot.storage import Storage

    assert isinstance(storage, Storage)
    gid = 10**17
    for uid in range(1, 24):  # 23 members, each solved day 100; member n solved n % 4 more days before
        for day in range(100 - uid % 4, 101):
            await storage.puzzle_answer(gid, day, 10**17 + uid, "L5", True)
    layer = SimpleNamespace(storage=storage, clock=SimpleNamespace(now=lambda: 100 * DAY_S + 5))
    it = SimpleNamespace(
        locale=discord.Locale.american_english,
        guild_id=gid,
        guild=SimpleNamespace(name="Guild"),
        client=SimpleNamespace(games=layer),
    )
    seen: list[str] = []
    for page in range(3):
        content, view = await streaks_page(it, page)  # type: ignore[arg-type]
        rows = [line for line in content.splitlines() if line[:1].isdigit()]
        assert len(content) <= 2000 and len(rows) == (STREAKS_PAGE if page < 2 else 3)
        assert view is not None and len(view.children) == 2
        seen += rows
    assert seen[0].startswith("1. <@") and "4 in a row" in seen[0] and seen[-1].startswith("23. ")
    content, view = await streaks_page(it, 3)  # type: ignore[arg-type]
    assert view is None and "nobody more" in content
