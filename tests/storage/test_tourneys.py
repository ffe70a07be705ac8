"""Tournaments' storage (``bot/storage/tourneys.py``, migration 0008) on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage
from bot.storage.tourneys import TourneyExistsError

G = 10**17


async def test_one_live_tournament_per_guild_entries_and_rounds(storage: Storage) -> None:
    t = await storage.tourney_create(G, G + 1, "constructo", "swiss", 3, "daily", 7, "en-US", 100.0)
    assert (t.status, t.round, t.rounds) == ("open", 0, 3)
    with pytest.raises(TourneyExistsError):
        await storage.tourney_create(G, G + 1, "conex", "swiss", 3, "daily", 8, None, 101.0)
    assert [await storage.tourney_join(t.id, u, f"p{u}", 100.0 + u) for u in (1, 2, 3)] == ["joined"] * 3
    assert await storage.tourney_join(t.id, 2, "p2", 200.0) == "already"
    assert await storage.tourney_leave(t.id, 3) == "left" and await storage.tourney_leave(t.id, 3) == "not_in"
    await storage.tourney_join(t.id, 3, "p3", 300.0)
    assert [e.user_id for e in await storage.tourney_players(t.id)] == [1, 2, 3]  # the order they joined
    assert await storage.tourney_withdraw(t.id, 1) == "closed"  # not running yet: /tournament leave
    assert not await storage.tourney_begin_round(t.id, 2, [(1, 2, None)]), "round 2 before round 1"
    assert await storage.tourney_begin_round(t.id, 1, [(1, 2, None), (3, None, "bye")], start=True, rounds=2)
    assert not await storage.tourney_begin_round(t.id, 1, [(1, 2, None)], start=True), "started once only"
    assert await storage.tourney_join(t.id, 4, "p4", 400.0) == "closed"
    assert await storage.tourney_leave(t.id, 1) == "closed"
    t = await storage.tourney_get(t.id)
    assert t is not None and (t.status, t.round, t.rounds) == ("running", 1, 2)
    assert not await storage.tourney_begin_round(t.id, 2, [(1, 3, None)]), "round 1 is not over"
    (board1, bye) = await storage.tourney_games(t.id)
    assert (bye.b, bye.outcome) == (None, "bye")
    assert await storage.tourney_opening(board1) is None
    first = (await storage.tourney_games(t.id))[0].opening_at
    assert first is not None and await storage.tourney_opening(board1) == first, "a second opening sees the first"
    assert await storage.tourney_link(board1, 42) and not await storage.tourney_link(board1, 43)
    assert (await storage.tourney_pairing_of(42)).board == 1  # type: ignore[union-attr]
    assert await storage.tourney_record(42, "a") and not await storage.tourney_record(42, "b"), "recorded once"
    assert await storage.tourney_withdraw(t.id, 3) == "withdrawn"
    assert await storage.tourney_withdraw(t.id, 3) == "already" and await storage.tourney_withdraw(t.id, 9) == "not_in"
    assert [e.withdrawn for e in await storage.tourney_players(t.id)] == [None, None, 1]
    assert not await storage.tourney_finish(t.id, 2, 600.0)
    assert await storage.tourney_begin_round(t.id, 2, [(2, 1, None)])
    assert [t.id] == [x.id for x in await storage.tourney_running()]
    assert not await storage.tourney_finish(t.id, 2, 600.0), "its game is not finished"
    (p2,) = [p for p in await storage.tourney_games(t.id) if p.round == 2]
    await storage.tourney_link(p2, 44)
    await storage.tourney_record(44, "draw")
    assert await storage.tourney_finish(t.id, 2, 600.0)
    assert (await storage.tourney_current(G)).status == "finished"  # type: ignore[union-attr]
    nxt = await storage.tourney_create(G, G + 1, "conex", "roundrobin", 3, "none", 8, None, 700.0)
    assert (await storage.tourney_current(G)).id == nxt.id  # type: ignore[union-attr]
    assert await storage.tourney_cancel(nxt.id, 800.0) and not await storage.tourney_cancel(nxt.id, 800.0)
    assert await storage.tourney_current(G + 5) is None


async def test_the_entry_limit_is_counted_with_the_entry_so_two_joins_at_once_cannot_pass_it(storage: Storage) -> None:
    t = await storage.tourney_create(G + 7, G + 8, "constructo", "roundrobin", 3, "daily", 7, None, 100.0)
    assert [await storage.tourney_join(t.id, u, f"p{u}", 100.0, limit=3) for u in (1, 2)] == ["joined"] * 2
    said = await asyncio.gather(*(storage.tourney_join(t.id, u, f"p{u}", 101.0, limit=3) for u in (3, 4)))
    assert sorted(said) == ["full", "joined"]
    assert len(await storage.tourney_players(t.id)) == 3
    assert await storage.tourney_join(t.id, 1, "p1", 102.0, limit=3) == "already", "one already in is told so"


async def test_round_one_is_not_stored_for_entrants_that_changed_meanwhile(storage: Storage) -> None:
    t = await storage.tourney_create(G + 9, G + 8, "constructo", "swiss", 1, "daily", 7, None, 100.0)
    for u in (1, 2, 3, 4):
        await storage.tourney_join(t.id, u, f"p{u}", 100.0)
    pairs = [(1, 2, None), (3, 4, None)]
    await storage.tourney_leave(t.id, 4)  # after the pairings were made for 1-4
    assert not await storage.tourney_begin_round(t.id, 1, pairs, start=True, entrants=[1, 2, 3, 4])
    assert not await storage.tourney_games(t.id) and (await storage.tourney_get(t.id)).status == "open"  # type: ignore[union-attr]
    assert await storage.tourney_begin_round(t.id, 1, [(1, 2, None), (3, None, "bye")], start=True, entrants=[1, 2, 3])


async def test_a_pairing_is_settled_without_a_game_once_and_never_over_a_linked_game(storage: Storage) -> None:
    t = await storage.tourney_create(G + 7, G + 1, "constructo", "swiss", 1, "daily", 7, None, 100.0)
    for u in (1, 2, 3, 4):
        await storage.tourney_join(t.id, u, f"p{u}", 100.0 + u)
    assert await storage.tourney_begin_round(t.id, 1, [(1, 2, None), (3, 4, None)], start=True, entrants=[1, 2, 3, 4])
    first, second = await storage.tourney_games(t.id)
    assert await storage.tourney_settle(first, "b") and not await storage.tourney_settle(first, "a"), "settled once"
    assert await storage.tourney_link(second, 77)
    assert not await storage.tourney_settle(second, "none"), "a linked game is played, not settled"
    assert [(p.outcome, p.game_id) for p in await storage.tourney_games(t.id)] == [("b", None), (None, 77)]
