"""The daily puzzle's storage (``bot/storage/puzzles.py``, migration 0007) on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.storage import Storage

G = 10**17
C = G + 5


async def test_daily_setting_claim_is_won_once_and_posted(storage: Storage) -> None:
    assert await storage.puzzle_daily_get(G) is None
    await storage.puzzle_daily_set(G, C, 9, "es-ES", 1000.0)
    seen = await storage.puzzle_daily_get(G)
    assert seen is not None and (seen.channel_id, seen.hour, seen.locale, seen.day, seen.message_id) == (
        C,
        9,
        "es-ES",
        -1,
        None,
    )
    assert await storage.puzzle_daily_due(999.0) == []
    assert [d.guild_id for d in await storage.puzzle_daily_due(1000.0)] == [G]
    assert await storage.puzzle_daily_earliest() == 1000.0
    assert await storage.puzzle_daily_claim(seen, 20000, 7)
    assert not await storage.puzzle_daily_claim(seen, 20000, 7), "a second claim of the same reading loses"
    claimed = await storage.puzzle_daily_get(G)
    assert claimed is not None and (claimed.day, claimed.puzzle_id, claimed.message_id) == (20000, 7, None)
    assert await storage.puzzle_daily_posted(G, 20000, 42, 2000.0)
    done = await storage.puzzle_daily_get(G)
    assert done is not None and (done.message_id, done.next_at) == (42, 2000.0)
    # a new setting keeps the day already claimed: the same day is never posted twice
    await storage.puzzle_daily_set(G, C + 1, 10, None, 1500.0)
    moved = await storage.puzzle_daily_get(G)
    assert moved is not None and (moved.channel_id, moved.day, moved.next_at) == (C + 1, 20000, 1500.0)
    await storage.puzzle_daily_later(G, 1600.0)
    assert await storage.puzzle_daily_earliest() == 1600.0
    assert await storage.puzzle_daily_off(G) and not await storage.puzzle_daily_off(G)
    assert await storage.puzzle_daily_earliest() is None


async def test_answers_build_streaks_first_answer_stands(storage: Storage) -> None:
    a = await storage.puzzle_answer(G, 100, 1, "L5", True)
    assert (a.first, a.correct, a.streak, a.best) == (True, True, 1, 1)
    again = await storage.puzzle_answer(G, 100, 1, "M4", False)
    assert (again.first, again.correct, again.move, again.streak) == (False, True, "L5", 1)
    b = await storage.puzzle_answer(G, 101, 1, "L5", True)
    assert (b.streak, b.best) == (2, 2)
    c = await storage.puzzle_answer(G, 103, 1, "L5", True)  # a day missed: a new streak
    assert (c.streak, c.best) == (1, 2)
    await storage.puzzle_answer(G, 103, 2, "S1", False)
    await storage.puzzle_answer(G, 103, 3, "L5", True)
    d = await storage.puzzle_answer(G, 104, 3, "2-5", False)
    assert (d.streak, d.best) == (0, 1)
    rows = await storage.puzzle_streaks(G, 104, limit=10)
    assert [(r.user_id, r.streak, r.best, r.solved) for r in rows] == [(1, 1, 2, 3), (3, 0, 1, 1)]
    later = await storage.puzzle_streaks(G, 110, limit=10)  # days later the streak no longer counts
    assert [(r.user_id, r.streak) for r in later] == [(1, 0), (3, 0)]
    assert [r.user_id for r in await storage.puzzle_streaks(G, 104, limit=1, offset=1)] == [3]
    assert await storage.puzzle_streaks(G + 1, 104, limit=10) == []


async def test_a_daily_puzzle_stopped_and_set_again_keeps_its_last_day(storage: Storage) -> None:
    """Off then on the same day: the day already posted stays claimed (with its message), so it is not posted again."""
    await storage.puzzle_daily_set(G + 1, C, 12, None, 1000.0)
    seen = await storage.puzzle_daily_get(G + 1)
    assert seen is not None and await storage.puzzle_daily_claim(seen, 20000, 7)
    assert await storage.puzzle_daily_posted(G + 1, 20000, 42, 90000.0)
    assert await storage.puzzle_daily_off(G + 1)
    assert await storage.puzzle_daily_get(G + 1) is None
    await storage.puzzle_daily_set(G + 1, C + 1, 14, None, 8000.0)
    again = await storage.puzzle_daily_get(G + 1)
    assert again is not None and (again.day, again.puzzle_id, again.message_id) == (20000, 7, 42)
    assert (again.channel_id, again.hour, again.next_at) == (C + 1, 14, 8000.0)
    await storage.puzzle_daily_set(G + 2, C, 12, None, 1000.0)  # another server never had one
    other = await storage.puzzle_daily_get(G + 2)
    assert other is not None and (other.day, other.message_id) == (-1, None)


async def test_days_without_a_post_break_no_streak_a_missed_puzzle_does(storage: Storage) -> None:
    """A streak counts posted daily puzzles: the bot away for two days (no post on 20001-20002) keeps the streak of
    whoever solved the last posted one (20000); whoever skipped that one starts again."""
    await storage.puzzle_daily_set(G + 3, C, 9, None, 1000.0)
    seen = await storage.puzzle_daily_get(G + 3)
    assert seen is not None and await storage.puzzle_daily_claim(seen, 19999, 7)
    await storage.puzzle_answer(G + 3, 19999, 1, "L5", True)
    await storage.puzzle_answer(G + 3, 19999, 2, "L5", True)
    seen = await storage.puzzle_daily_get(G + 3)
    assert seen is not None and await storage.puzzle_daily_claim(seen, 20000, 8)
    assert (await storage.puzzle_answer(G + 3, 20000, 1, "L5", True)).streak == 2  # user 2 skips 20000
    seen = await storage.puzzle_daily_get(G + 3)
    assert seen is not None and await storage.puzzle_daily_claim(seen, 20003, 9)  # nothing posted 20001-20002
    assert (await storage.puzzle_answer(G + 3, 20003, 1, "L5", True)).streak == 3
    assert (await storage.puzzle_answer(G + 3, 20003, 2, "L5", True)).streak == 1
    rows = await storage.puzzle_streaks(G + 3, 20003, limit=10)
    assert [(r.user_id, r.streak, r.best) for r in rows] == [(1, 3, 3), (2, 1, 1)]
