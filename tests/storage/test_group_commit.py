"""SQLite group commit (``bot/storage/sqlite_tx.py``, "Group commit"; issue 22 "Under load"): write transactions
queued while one runs are committed together, each in its own savepoint. Each caller still sees its own transaction:
its result, or its own error with nothing of it written; one ``COMMIT`` for many."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.errors import storage_failure
from bot.storage import Storage
from bot.storage.backend import UniqueViolation

GUILD, CHANNEL, ALICE, BOB = 10, 20, 1, 2


async def _games(storage: Storage, n: int) -> list[int]:
    return [
        await storage.create_game("constructo", GUILD, CHANNEL + i, {"n": 0}, [ALICE, BOB], status="active")
        for i in range(n)
    ]


def _count_batches(storage: Storage) -> list[int]:
    """The sizes of the batches the transaction thread commits from now on (one entry per COMMIT of a batch)."""
    tx: Any = storage.backend._tx  # type: ignore[attr-defined]
    sizes: list[int] = []
    real = tx._transact_batch

    def counted(bodies: list[Any]) -> Any:
        sizes.append(len(bodies))
        return real(bodies)

    tx._transact_batch = counted
    return sizes


async def _batch_of_three(storage: Storage, games: list[int], middle: Any) -> list[Any]:
    """``apply_action`` on ``games[1]``, ``middle``, ``apply_action`` on ``games[2]``, queued behind a write that
    holds the writer, so that the three are committed as one batch; their outcomes (results or exceptions)."""

    async def hold(tx: Any) -> None:
        await tx.execute("UPDATE games SET status = status WHERE id = ?", (games[0],))

    blocker = asyncio.ensure_future(storage._write(hold))
    await asyncio.sleep(0)
    outcomes = await asyncio.gather(
        storage.apply_action(games[1], 0, {"n": 1}, player=ALICE, action="S5"),
        storage._write(middle),
        storage.apply_action(games[2], 0, {"n": 1}, player=ALICE, action="S5"),
        return_exceptions=True,
    )
    await blocker
    return outcomes


async def test_concurrent_actions_share_commits_and_all_land(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 40)
        sizes = _count_batches(storage)
        versions = await asyncio.gather(
            *(storage.apply_action(g, 0, {"n": 1}, player=ALICE, action="S5") for g in games)
        )
        assert versions == [1] * 40
        assert sizes and max(sizes) > 1, "queued transactions were committed together"
        assert sum(sizes) <= 40
        for g in games:
            record = await storage.get_game(g)
            assert record is not None and record.version == 1 and record.state == {"n": 1}
    finally:
        await storage.close()


async def test_a_failing_body_in_a_batch_is_rolled_back_alone(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 3)
        sizes = _count_batches(storage)

        async def half_then_fail(tx: Any) -> None:
            await tx.execute("UPDATE games SET version = 7 WHERE id = ?", (games[1],))
            await tx.execute(
                "INSERT INTO game_players (game_id, seat, user_id) VALUES (?, ?, ?)", (games[1], 0, ALICE)
            )  # seat 0 is taken: UNIQUE

        first, bad, last = await asyncio.gather(
            storage.apply_action(games[0], 0, {"n": 1}, player=ALICE, action="S5"),
            storage._write(half_then_fail),
            storage.apply_action(games[2], 0, {"n": 1}, player=ALICE, action="S5"),
            return_exceptions=True,
        )
        assert max(sizes) >= 2, "the failing body shared a batch"
        assert (first, last) == (1, 1)
        assert isinstance(bad, UniqueViolation)
        record = await storage.get_game(games[1])
        assert record is not None and record.version == 0, "the failing body's first statement was rolled back"
        for g in (games[0], games[2]):
            record = await storage.get_game(g)
            assert record is not None and record.version == 1
    finally:
        await storage.close()


async def test_a_body_that_abandons_the_transaction_fails_the_whole_batch(db_path: Path) -> None:
    """When SQLite drops the whole transaction under a body (as after disk full or an I/O error; here the body
    rolls it back itself), the bodies before it in the batch are gone too: each caller gets the error, and none
    of their writes is stored (nobody is told "saved" for a write that was lost)."""
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 3)
        sizes = _count_batches(storage)

        async def abandon(tx: Any) -> None:
            await tx.execute("ROLLBACK")
            raise RuntimeError("the transaction is gone")

        outcomes = await _batch_of_three(storage, games, abandon)
        assert 3 in sizes, sizes
        assert all(isinstance(o, RuntimeError) for o in outcomes), outcomes
        for g in games[1:]:
            record = await storage.get_game(g)
            assert record is not None and record.version == 0
        # and the writer works afterwards
        assert await storage.apply_action(games[1], 0, {"n": 1}, player=ALICE, action="S5") == 1
    finally:
        await storage.close()


async def test_a_suspending_body_in_a_batch_is_committed_once_the_slow_way(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 2)
        runs: list[int] = []

        async def suspends(tx: Any) -> int:
            runs.append(1)
            await tx.execute(
                "INSERT INTO actions (game_id, seq, player, action, at) VALUES (?, 1, ?, 'x', 0)", (games[0], ALICE)
            )
            await asyncio.sleep(0)
            row = await tx.fetchrow("SELECT count(*) FROM actions WHERE game_id = ?", (games[0],))
            return int(row[0])

        slow, other = await asyncio.gather(
            storage._write(suspends), storage.apply_action(games[1], 0, {"n": 1}, player=ALICE, action="S5")
        )
        assert (slow, other) == (1, 1) and len(runs) == 2
        rows = await storage.backend.fetch("SELECT count(*) FROM actions WHERE game_id = ?", (games[0],))
        assert rows[0][0] == 1
    finally:
        await storage.close()


async def test_writes_queued_at_close_are_refused_not_lost_silently(db_path: Path) -> None:
    storage = await Storage.open(db_path)
    games = await _games(storage, 1)
    closing = asyncio.ensure_future(storage.close())
    await asyncio.sleep(0)
    with pytest.raises(Exception) as caught:
        await storage.apply_action(games[0], 0, {"n": 1}, player=ALICE, action="S5")
    await closing
    assert "closed" in str(caught.value).lower()


class _Halt(BaseException):
    """Not an ``Exception`` (as ``CancelledError``, ``SystemExit``, ``KeyboardInterrupt``)."""


@pytest.mark.parametrize("raised", [_Halt, asyncio.CancelledError])
async def test_a_body_raising_a_base_exception_gets_it_alone(db_path: Path, raised: type[BaseException]) -> None:
    """A body that raises something that is not an ``Exception`` is rolled back alone and gets it: the bodies
    beside it in the batch are committed and get their results (not a ``CancelledError`` for a write that then
    is not stored, and the caller that committed the batch does not get the other body's exception)."""
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 3)
        sizes = _count_batches(storage)

        async def halt(tx: Any) -> None:
            await tx.execute("UPDATE games SET version = 9 WHERE id = ?", (games[0],))
            raise raised()

        outcomes = await _batch_of_three(storage, games, halt)
        assert 3 in sizes, sizes
        assert outcomes[0] == 1 and outcomes[2] == 1, outcomes
        assert isinstance(outcomes[1], raised), outcomes
        for g, version in ((games[0], 0), (games[1], 1), (games[2], 1)):
            record = await storage.get_game(g)
            assert record is not None and record.version == version
        alone = await asyncio.gather(storage._write(halt), return_exceptions=True)  # a batch of one
        assert isinstance(alone[0], raised), alone
        assert await storage.apply_action(games[1], 1, {"n": 2}, player=ALICE, action="S5") == 2
    finally:
        await storage.close()


async def test_a_commit_failing_inside_the_backend_fails_its_whole_batch_and_writes_nothing(
    db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The e2e fault seam inside the backend (``fail:full@commit``, ``bot/storage/faults.py``): the writes queued
    together reach ``BEGIN IMMEDIATE``, run their statements, and the one ``COMMIT`` fails as on a full disk. Each
    caller gets SQLite's error (``storage_failure``: ``"full"``) and none of the batch is stored; without the fault
    the writer goes on."""
    fault = tmp_path / "fault"
    monkeypatch.setenv("TABLEBOT_STORAGE_STALL_FILE", str(fault))
    storage = await Storage.open(db_path)
    try:
        games = await _games(storage, 3)
        sizes = _count_batches(storage)
        fault.write_text("fail:full@commit")

        async def hold(tx: Any) -> None:
            await tx.execute("UPDATE games SET version = 9 WHERE id = ?", (games[0],))

        blocker = asyncio.ensure_future(storage._write(hold))  # holds the writer: the next three queue together
        await asyncio.sleep(0)
        outcomes = await asyncio.gather(
            *(storage.apply_action(g, 0, {"n": 1}, player=ALICE, action="S5") for g in games[1:]),
            storage._write(hold),
            blocker,
            return_exceptions=True,
        )
        fault.write_text("")
        assert 3 in sizes, sizes
        assert all(storage_failure(o) == "full" for o in outcomes), outcomes
        for g in games:
            record = await storage.get_game(g)
            assert record is not None and record.version == 0, "nothing of the batch (nor the blocker) was written"
        assert await storage.apply_action(games[1], 0, {"n": 1}, player=ALICE, action="S5") == 1
    finally:
        await storage.close()
