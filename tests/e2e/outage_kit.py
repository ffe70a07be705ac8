"""Fault tools of the issue-20 evidence (outbox, clock steps, chaos): the bot's database taken away and given back,
a read-only view of what it stored on either backend, and the checks every scenario ends with.

- :class:`PgProxy`: a TCP proxy of the test's own between the bot and PostgreSQL. ``cut()`` closes every connection
  and refuses new ones until ``restore()``; ``lose_next_commit_ack(seconds)`` lets the next transaction that logs an
  action commit on the server but swallows its acknowledgement and cuts for ``seconds`` (a commit whose answer is
  lost). It reads just enough of PostgreSQL's wire protocol (message type + length) to see which prepared statement
  a transaction ran.
- :class:`SqliteLock`: the SQLite write lock held by the test process (``BEGIN IMMEDIATE``): every write of the
  bot waits, then fails after its busy timeout (5 s), while reads go on (WAL).
- :class:`Stored`: the bot's games, action logs and owed effects, read from SQLite (read-only) or PostgreSQL.
- :func:`assert_no_double_post`: no public image was posted twice in a channel (the same board twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import struct
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from devserver import DevServer

OUTAGE_S = 7.0
"""How long the database stays away in the outage scenarios: longer than SQLite's busy timeout (5 s) and the
bot's verification of a commit whose answer was lost (about 4 s), so every write in between fails."""


# ---------------------------------------------------------------------------------------------- PostgreSQL proxy
@dataclass(eq=False)
class _Link:
    client: asyncio.StreamWriter
    upstream: asyncio.StreamWriter
    statements: dict[bytes, bytes] = field(default_factory=dict)  # prepared statement name -> query text
    logs_action: bool = False  # the open transaction ran INSERT INTO actions
    swallow: bool = False  # drop what the server answers next (the COMMIT's acknowledgement), then cut


class PgProxy:
    """``127.0.0.1:<port>`` forwarding to ``target`` (PostgreSQL), which a test can cut and restore.

    ``url(base_url)``: ``base_url`` (``postgresql://user@host:port/db?...``) pointed at the proxy instead."""

    def __init__(self, target: tuple[str, int] = ("127.0.0.1", 5432)) -> None:
        self.target = target
        self.port = 0
        self.down = False
        self.links: set[_Link] = set()
        self.lost_acks = 0
        self.refused = 0
        self._lose_for: float | None = None
        self._server: asyncio.AbstractServer | None = None
        self._restore: asyncio.TimerHandle | None = None

    async def start(self) -> PgProxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        self._drop_all()
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    def url(self, base_url: str) -> str:
        head, _, tail = base_url.partition("://")
        creds, _, rest = tail.rpartition("@")
        _hostport, slash, path = rest.partition("/")
        return f"{head}://{creds + '@' if creds else ''}127.0.0.1:{self.port}{slash}{path}"

    # -- faults ----------------------------------------------------------------------------------------------
    def cut(self, seconds: float | None = None) -> None:
        """Close every connection and refuse new ones (until ``restore()``, or for ``seconds``)."""
        self.down = True
        self._drop_all()
        if seconds is not None:
            if self._restore is not None:
                self._restore.cancel()
            self._restore = asyncio.get_running_loop().call_later(seconds, self.restore)

    def restore(self) -> None:
        self.down = False

    def lose_next_commit_ack(self, seconds: float) -> None:
        """The next transaction that logs an action commits, its acknowledgement never reaches the bot, and the
        database is away for ``seconds`` from then."""
        self._lose_for = seconds

    def _drop_all(self) -> None:
        for link in list(self.links):
            for w in (link.client, link.upstream):
                with contextlib.suppress(Exception):
                    w.transport.abort()
        self.links.clear()

    # -- plumbing --------------------------------------------------------------------------------------------
    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            self.refused += 1
            writer.transport.abort()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        link = _Link(writer, up_writer)
        self.links.add(link)
        await asyncio.gather(
            self._client_to_server(link, reader), self._server_to_client(link, up_reader), return_exceptions=True
        )
        self.links.discard(link)
        for w in (writer, up_writer):
            with contextlib.suppress(Exception):
                w.transport.abort()

    async def _client_to_server(self, link: _Link, reader: asyncio.StreamReader) -> None:
        # untyped start-up messages (SSLRequest, then StartupMessage) until the StartupMessage
        while True:
            head = await reader.readexactly(8)
            length, code = struct.unpack("!II", head)
            body = await reader.readexactly(length - 8)
            link.upstream.write(head + body)
            if code != 80877103:  # not an SSLRequest: the StartupMessage; typed messages follow
                break
        while True:
            head = await reader.readexactly(5)
            kind, length = head[:1], struct.unpack("!I", head[1:])[0]
            body = await reader.readexactly(length - 4)
            self._watch(link, kind, body)
            link.upstream.write(head + body)
            await link.upstream.drain()

    def _watch(self, link: _Link, kind: bytes, body: bytes) -> None:
        if kind == b"P":  # Parse: statement name, query
            name, _, rest = body.partition(b"\0")
            link.statements[name] = rest.partition(b"\0")[0]
            if b"INSERT INTO actions" in link.statements[name]:
                link.logs_action = True
        elif kind == b"B":  # Bind: portal name, statement name
            _portal, _, rest = body.partition(b"\0")
            if b"INSERT INTO actions" in link.statements.get(rest.partition(b"\0")[0], b""):
                link.logs_action = True
        elif kind == b"Q":  # a simple query: BEGIN / COMMIT / ROLLBACK of asyncpg's transactions
            query = body.rstrip(b"\0").strip().upper()
            if query.startswith(b"COMMIT") and link.logs_action and self._lose_for is not None:
                link.swallow = True
            if query.startswith((b"BEGIN", b"COMMIT", b"ROLLBACK")):
                link.logs_action = False

    async def _server_to_client(self, link: _Link, reader: asyncio.StreamReader) -> None:
        while True:
            data = await reader.read(65536)
            if not data:
                return
            if link.swallow and self._lose_for is not None:
                seconds, self._lose_for = self._lose_for, None
                self.lost_acks += 1
                self.cut(seconds)
                return
            link.client.write(data)
            await link.client.drain()


# ---------------------------------------------------------------------------------------------- SQLite lock
class SqliteLock:
    """The SQLite write lock of ``db`` held by this (test) process while ``held``."""

    def __init__(self, db: Path) -> None:
        self.db = db
        self._conn: sqlite3.Connection | None = None
        self._release: asyncio.TimerHandle | None = None

    @property
    def held(self) -> bool:
        return self._conn is not None

    def cut(self, seconds: float | None = None) -> None:
        """Take the write lock now (waits while the bot is inside a write, at most 5 s), for ``seconds``."""
        if self._conn is None:
            conn = sqlite3.connect(self.db, timeout=5, isolation_level=None)
            conn.execute("BEGIN IMMEDIATE")
            self._conn = conn
        if seconds is not None:
            if self._release is not None:
                self._release.cancel()
            self._release = asyncio.get_running_loop().call_later(seconds, self.restore)

    def restore(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.execute("ROLLBACK")
            self._conn.close()
            self._conn = None


# ---------------------------------------------------------------------------------------------- stored truth
@dataclass(frozen=True)
class StoredGame:
    id: int
    kind: str
    channel_id: int
    status: str
    version: int
    result: dict[str, Any] | None
    messages: dict[str, int]
    state: dict[str, Any]
    players: list[int]


class Stored:
    """What the bot stored, on either backend (``pg_url`` set: PostgreSQL; else the SQLite file ``db``)."""

    def __init__(self, *, db: Path | None = None, pg_url: str | None = None) -> None:
        self.db, self.pg_url = db, pg_url

    async def _rows(self, sql: str, args: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        if self.pg_url is not None:
            import asyncpg

            from bot.storage.pg_backend import to_dollar

            conn = await asyncpg.connect(self.pg_url)
            try:
                return [tuple(r) for r in await conn.fetch(to_dollar(sql), *args)]
            finally:
                await conn.close()
        assert self.db is not None

        def read() -> list[tuple[Any, ...]]:
            with closing(sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)) as conn:
                return [tuple(r) for r in conn.execute(sql, tuple(args))]

        return await asyncio.to_thread(read)

    async def games(self, channel_id: int | None = None) -> list[StoredGame]:
        sql = "SELECT id, kind, channel_id, status, version, result_json, state_json FROM games"
        args: list[Any] = []
        if channel_id is not None:
            sql += " WHERE channel_id = ?"
            args.append(channel_id)
        out = []
        for gid, kind, ch, status, version, result, state in await self._rows(sql + " ORDER BY id", args):
            messages = dict(await self._rows("SELECT key, message_id FROM game_messages WHERE game_id = ?", (gid,)))
            players = [
                r[0]
                for r in await self._rows("SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (gid,))
            ]
            out.append(
                StoredGame(
                    int(gid),
                    kind,
                    int(ch),
                    status,
                    int(version),
                    json.loads(result) if result else None,
                    messages,
                    json.loads(state),
                    players,
                )
            )
        return out

    async def game(self, channel_id: int) -> StoredGame:
        games = await self.games(channel_id)
        assert games, f"no game in channel {channel_id}"
        return games[-1]

    async def actions(self, game_id: int) -> list[tuple[int, int | None, str]]:
        return [
            (int(s), p, a)
            for s, p, a in await self._rows(
                "SELECT seq, player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]

    async def effects(self, game_id: int | None = None) -> list[tuple[int, int, str, int]]:
        """``(game_id, version, kind, attempts)`` of every effect still owed."""
        sql, args = "SELECT game_id, version, kind, attempts FROM effects", []
        if game_id is not None:
            sql, args = sql + " WHERE game_id = ?", [game_id]
        return [(int(g), int(v), k, int(a)) for g, v, k, a in await self._rows(sql + " ORDER BY id", args)]


async def eventually(what: str, check: Any, timeout: float = 60.0, pause: float = 0.25) -> Any:  # noqa: ASYNC109
    """Poll the async ``check()`` (it raises ``AssertionError`` while not yet true) until it passes; re-raise its
    last failure after ``timeout`` s. For the database side only (the devserver side waits on its events)."""
    end = time.monotonic() + timeout
    while True:
        try:
            return await check()
        except AssertionError as err:
            if time.monotonic() > end:
                raise AssertionError(f"{what}: still not true after {timeout} s: {err}") from err
        await asyncio.sleep(pause)


def check_gap_free(log: list[tuple[int, int | None, str]], version: int) -> None:
    """seq 1..version exactly: nothing lost, nothing logged twice."""
    seqs = [s for s, _p, _a in log]
    assert seqs == list(range(1, version + 1)), f"action log seqs {seqs} vs version {version}"


def public_images(server: DevServer, channel: int | str) -> list[bytes]:
    return [img for m in server.messages(channel) if not m.ephemeral and not m.deleted for img in m.images]


def assert_no_double_post(server: DevServer, channel: int | str) -> None:
    """No public image (a board, a result card) was posted twice in ``channel``: two boards of one version render
    the same bytes."""
    seen: dict[bytes, int] = {}
    for m in server.messages(channel):
        if m.ephemeral or m.deleted:
            continue
        for img in m.images:
            assert img not in seen, f"message {m.id} repeats the image of message {seen[img]}: {m.content!r}"
            seen[img] = m.id


def told(server: DevServer, channel: int | str, user_id: int) -> list[str]:
    """Everything the bot said to ``user_id`` privately in ``channel`` (ephemeral messages), oldest first."""
    return [m.content for m in server.messages(channel) if m.ephemeral and m.visible_to == user_id]
