"""The shard lease's keys and checks (``bot/lease.py``) against a real PostgreSQL, without a bot process: which
processes exclude each other (same shard, unsharded vs sharded), that a failed attempt keeps nothing, that
installations do not collide, and that a held lease whose locks are gone is reported lost by the periodic check.
Each test uses a namespace of its own (advisory locks are database-wide)."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.lease import APPLICATION_NAME, CHECK_EVERY_S, CHECK_TIMEOUT_S, KEEPALIVE, ShardLease, namespace_of
from tests.storage.conftest import pg_unavailable, pg_url

__all__ = ["pg_unavailable", "pg_url"]

Make = Callable[..., Awaitable[ShardLease]]


@pytest.fixture
async def leases(pg_url: str) -> AsyncIterator[Make]:
    """``make(shards, installation=None)``: a connected lease of a fresh installation (or the given one)."""
    installation = str(uuid.uuid4())
    made: list[ShardLease] = []

    async def make(shards: Sequence[int] | None, other_installation: str | None = None) -> ShardLease:
        lease = ShardLease(pg_url, namespace_of(other_installation or installation), shards)
        await lease.connect()
        made.append(lease)
        return lease

    yield make
    for lease in made:
        await lease.close()


async def test_one_process_per_shard_and_unsharded_excludes_sharded(leases: Make) -> None:
    unsharded = await leases(None)
    assert await unsharded.try_acquire() and unsharded.held
    shard0, shard1, second_unsharded = await leases([0]), await leases([1]), await leases(None)
    assert not await shard0.try_acquire() and not shard0.held, "an unsharded process serves shard 0 too"
    assert not await second_unsharded.try_acquire()
    await unsharded.close()
    assert await shard0.try_acquire() and await shard1.try_acquire(), "different shards serve side by side"
    assert not await second_unsharded.try_acquire(), "an unsharded process never serves beside sharded ones"
    again0 = await leases([0])
    assert not await again0.try_acquire(), "one process per shard"


async def test_a_failed_attempt_keeps_nothing_and_installations_do_not_collide(leases: Make) -> None:
    shard1 = await leases([1])
    assert await shard1.try_acquire()
    both = await leases([1, 2])
    assert not await both.try_acquire(), "shard 1 is taken"
    shard2 = await leases([2])
    assert await shard2.try_acquire(), "the failed attempt on 1,2 released shard 2 (and the shared key)"
    elsewhere = await leases(None, other_installation=str(uuid.uuid4()))
    assert await elsewhere.try_acquire(), "another installation on the same database has keys of its own"


async def test_a_standby_takes_over_when_the_holder_session_ends(leases: Make) -> None:
    holder, standby = await leases([0]), await leases([0])
    assert await holder.acquire()
    stop = asyncio.Event()
    waiting = asyncio.create_task(standby.acquire(stop))
    await holder.close()  # the holder's session ends, as when its process dies
    assert await asyncio.wait_for(waiting, 10) is True and standby.held


async def test_a_standby_stops_waiting_when_asked(leases: Make) -> None:
    holder, standby = await leases(None), await leases(None)
    assert await holder.acquire()
    stop = asyncio.Event()
    waiting = asyncio.create_task(standby.acquire(stop))
    stop.set()
    assert await asyncio.wait_for(waiting, 5) is False and not standby.held


async def test_a_lease_whose_locks_are_gone_is_lost_at_the_next_check(leases: Make) -> None:
    lease = await leases([3])
    assert await lease.acquire() and await lease.check()
    lost = asyncio.Event()

    async def on_lost() -> None:
        lost.set()

    watching = asyncio.create_task(lease.watch(on_lost))
    assert lease._conn is not None
    await lease._conn.execute("SELECT pg_advisory_unlock_all()")  # the session lives on, its locks do not
    await asyncio.wait_for(lost.wait(), CHECK_EVERY_S + CHECK_TIMEOUT_S + 5)
    await watching
    assert not lease.held and lease.lost is not None and "could not be confirmed" in lease.lost


class Proxy:
    """A TCP relay to PostgreSQL that can go silent (``pause``): the holder's end of a network partition."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        for src, dst in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pipe(src, dst))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        try:
            while data := await src.read(65536):
                await self.flowing.wait()  # paused: bytes are held, neither side hears from the other
                dst.write(data)
                await dst.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            dst.close()

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.server is not None:
            self.server.close()


async def test_a_holder_cut_off_from_postgresql_gives_up_its_lease_within_the_check_limits(pg_url: str) -> None:
    """A partition (no FIN, no answer): the check's query times out and the lease is reported lost within
    CHECK_EVERY_S + CHECK_TIMEOUT_S, before PostgreSQL's keepalives (~11 s) could free the locks for a standby."""
    url = urlsplit(pg_url)
    proxy = Proxy(url.hostname or "127.0.0.1", url.port or 5432)
    port = await proxy.start()
    through = urlunsplit(
        url._replace(netloc=f"{url.username}@127.0.0.1:{port}" if url.username else f"127.0.0.1:{port}")
    )
    lease = ShardLease(through, namespace_of(str(uuid.uuid4())), [0])
    try:
        assert await lease.acquire()
        lost = asyncio.Event()

        async def on_lost() -> None:
            lost.set()

        watching = asyncio.create_task(lease.watch(on_lost))
        proxy.flowing.clear()
        cut = time.monotonic()
        await asyncio.wait_for(lost.wait(), CHECK_EVERY_S + CHECK_TIMEOUT_S + 5)
        gave_up_s = time.monotonic() - cut
        print(f"lease given up {gave_up_s:.2f} s after the partition")
        await watching
        assert lease.lost is not None and "could not be confirmed" in lease.lost
        assert gave_up_s <= CHECK_EVERY_S + CHECK_TIMEOUT_S + 1, gave_up_s
    finally:
        await lease.close()
        await proxy.stop()


async def test_the_lease_session_is_named_and_has_short_tcp_timeouts(leases: Make) -> None:
    """PostgreSQL must notice a vanished holder in ~11 s (KEEPALIVE), and an operator can find the session."""
    lease = await leases([0])
    assert lease._conn is not None
    shown = {name: await lease._conn.fetchval(f"SHOW {name}") for name in (*KEEPALIVE, "application_name")}
    assert shown == {**KEEPALIVE, "application_name": APPLICATION_NAME}


async def test_processes_with_different_shard_counts_never_serve_together(pg_url: str) -> None:
    """Shard 1 of 2 and shard 1 (or 3) of 4 cover overlapping guilds: whoever holds first serves, the other waits."""
    namespace = namespace_of(str(uuid.uuid4()))
    made: list[ShardLease] = []

    async def lease(shards: list[int], count: int) -> ShardLease:
        made.append(ShardLease(pg_url, namespace, shards, shard_count=count))
        await made[-1].connect()
        return made[-1]

    try:
        of_two = await lease([1], 2)
        assert await of_two.try_acquire()
        of_four = await lease([3], 4)
        assert not await of_four.try_acquire() and "SHARD_COUNT=2" in of_four.waiting_for
        assert await (await lease([0], 2)).try_acquire(), "the same count: other shards serve beside it"
        waiting = asyncio.create_task(of_four.acquire())
        for held in made[:1] + made[2:]:
            await held.close()
        assert await asyncio.wait_for(waiting, 10) is True, "once every count-2 process is gone, count 4 serves"
        again_two = await lease([0], 2)
        assert not await again_two.try_acquire() and "SHARD_COUNT=4" in again_two.waiting_for
    finally:
        for held in made:
            await held.close()
