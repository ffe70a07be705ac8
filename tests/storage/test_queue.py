"""The quick-match queue's storage (``bot/storage/queue.py``, migration 0006) on SQLite and PostgreSQL."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.storage import Storage
from bot.storage.queue import QueueClaimedError, Waiting

G = 10**17


def waiting(
    user: int, *, kind: str = "constructo", seats: int = 2, at: float = 100.0, wait: float | None = None
) -> Waiting:
    return Waiting(user, G, G + 1, kind, seats, "daily", f"p{user}", "en-US", at, wait)


async def test_one_queue_per_player_groups_oldest_first(storage: Storage) -> None:
    assert await storage.queue_put(waiting(5, at=102.0)) is None
    assert await storage.queue_put(waiting(6, at=101.0)) is None
    moved = await storage.queue_put(waiting(5, kind="conex", seats=3, at=103.0))
    assert moved == waiting(5, at=102.0), "the replaced row is returned"
    assert [w.user_id for w in await storage.queue_group(G, "constructo", 2, "daily")] == [6]
    assert await storage.queue_group(G, "conex", 3, "daily") == [waiting(5, kind="conex", seats=3, at=103.0)]
    assert await storage.queue_get(5) == waiting(5, kind="conex", seats=3, at=103.0)
    assert await storage.queue_remove(5) == waiting(5, kind="conex", seats=3, at=103.0)
    assert await storage.queue_remove(5) is None and await storage.queue_get(5) is None


async def test_take_is_all_or_nothing_and_waits_are_found_in_order(storage: Storage) -> None:
    a, b = waiting(1, wait=150.0), waiting(2, at=90.0, wait=120.0)
    await storage.queue_put(a)
    await storage.queue_put(b)
    assert await storage.queue_next_wait() == 120.0
    assert [w.user_id for w in await storage.queue_due(130.0)] == [2]
    assert [w.user_id for w in await storage.queue_due(200.0)] == [2, 1]
    assert not await storage.queue_take([a, replace(b, joined_at=1.0)]), "a row that changed: nothing is taken"
    assert await storage.queue_get(1) == a
    assert await storage.queue_take([a, b])
    assert await storage.queue_get(1) is None and await storage.queue_get(2) is None
    assert not await storage.queue_take([a]), "already taken by a racing match"
    assert await storage.queue_next_wait() is None


async def test_a_claim_is_settled_or_released_and_found_after_a_crash(storage: Storage) -> None:
    a, b = waiting(1, wait=150.0), waiting(2, at=90.0)
    await storage.queue_put(a)
    await storage.queue_put(b)
    storage.use_clock(lambda: 1000.0)
    claim = await storage.queue_take([a, b])
    assert claim == 1000.0
    assert await storage.queue_group(G, "constructo", 2, "daily") == [], "a claimed row waits no more"
    assert await storage.queue_due(200.0) == [] and await storage.queue_next_wait() is None
    assert await storage.queue_claims() == [(a, 1000.0), (b, 1000.0)], "but it is not lost"
    with pytest.raises(QueueClaimedError):
        await storage.queue_put(waiting(2, at=95.0))
    assert await storage.queue_game_since(G, "constructo", [1, 2], 1000.0) is None
    assert await storage.queue_release([1, 2], 999.0) == 0, "another claim's stamp: nothing"
    assert await storage.queue_release([1, 2], claim) == 2
    assert [w.user_id for w in await storage.queue_group(G, "constructo", 2, "daily")] == [2, 1]
    claim = await storage.queue_take([b, a])
    assert claim is not None
    game = await storage.create_game("constructo", G, G + 5, {}, [2, 1], status="active")
    assert await storage.queue_game_since(G, "constructo", [1, 2], claim) == game
    assert await storage.queue_game_since(G, "constructo", [1, 2], claim + 1) is None, "an older game is not it"
    assert await storage.queue_game_since(G, "constructo", [1, 3], claim) is None
    assert await storage.queue_settle([1, 2], claim) == 2
    assert await storage.queue_claims() == []


async def test_a_dropped_player_is_told_once_and_a_postponed_deadline_moves(storage: Storage) -> None:
    a = waiting(1, wait=150.0)
    await storage.queue_put(a)
    assert await storage.queue_postpone(a, 180.0)
    assert await storage.queue_next_wait() == 180.0
    assert await storage.queue_drop(a, "queuefix.dropped_blocked")
    assert await storage.queue_get(1) is None
    assert not await storage.queue_drop(a, "queuefix.dropped_blocked"), "gone already: nothing"
    assert await storage.queue_note_pop(1) == ("constructo", "queuefix.dropped_blocked")
    assert await storage.queue_note_pop(1) is None
