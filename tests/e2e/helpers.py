"""Shared helpers for the end-to-end tests: one DevServer + real bot process per module, read-only looks at the
bot's SQLite file, PNG checks, engine replays of the logged actions.

A module uses one bot process for all its tests (the suite stays fast)::

    pytestmark = pytest.mark.asyncio(loop_scope="module")

    @pytest_asyncio.fixture(scope="module", loop_scope="module")
    async def env(tmp_path_factory):
        async with bot_env(tmp_path_factory.mktemp("bot")) as e:
            yield e

The database is opened read-only (``mode=ro``) and only between interactions: the tests never write to it.
"""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, closing, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from devserver import DevServer
from devserver.models import Message, Violation
from devserver.process import BotProcess
from devserver.result import InteractionResult
from engine.conex import Game
from engine.constructo import Match

from .conftest import E2E_TOKEN, SPEC_TOTALS, bot_entry_missing, none_texts_report, spec_violations_report

MIN_LONG_SIDE_PX = 800  # boards, cards and hands are 800 px wide (phone first, issue 14); tables ~1016
ANSWER_TIMEOUT_S = 20.0

# Route patterns (method and path with * for ids) that the dev server's faults (``server.inject``) and counts take
CALLBACK = "POST /interactions/*/*/callback"
"""An interaction's first response."""
EDIT_ORIGINAL = "PATCH /webhooks/*/*/messages/@original"
"""An edit of an interaction's first answer."""
FOLLOWUP = "POST /webhooks/*/*"
"""A follow-up message of an interaction."""
CHANNEL_POST = "POST /channels/*/messages"
"""A message posted in a channel (not through an interaction)."""


@dataclass
class GameRow:
    """One stored game as the bot's SQLite file holds it (``players`` by seat)."""

    id: int
    kind: str
    channel_id: int
    status: str
    version: int
    state: dict[str, Any]
    initial: dict[str, Any]
    players: list[int]
    result: dict[str, Any] | None
    messages: dict[str, int] = field(default_factory=dict)

    @property
    def engine(self) -> dict[str, Any]:
        """The engine's ``to_dict()`` inside the stored envelope (version 2: ``state["engine"]``)."""
        assert self.state.get("v") == 2, f"not a version-2 envelope: {sorted(self.state)}"
        engine = self.state["engine"]
        assert engine is not None, "the game has not started"
        return dict(engine)

    @property
    def match(self) -> Match:
        """The stored Constructo match."""
        return Match.from_dict(self.engine)

    @property
    def conex(self) -> Game:
        """The stored CONEX game."""
        return Game.from_dict(self.engine)


@dataclass
class BotEnv:
    """A running DevServer + ``python -m bot`` pair and read-only access to the bot's database."""

    server: DevServer
    proc: BotProcess
    data_dir: Path

    @property
    def db_path(self) -> Path:
        return self.data_dir / "tablebot.sqlite3"

    async def ready(self, timeout: float = 20) -> None:  # noqa: ASYNC109
        """Wait until the bot has logged its READY ("connected as ..."): its timers and recovery start there, about
        2 s after ``proc.start()`` returns. Raises ``TimeoutError`` after ``timeout`` s."""
        await self.server.wait_until(lambda: "connected as" in self.proc.log(), timeout, "the bot's READY")

    @contextmanager
    def db(self) -> Iterator[sqlite3.Connection]:
        """A read-only connection to the bot's database (closed on exit)."""
        with closing(sqlite3.connect(f"file:{self.db_path}?mode=ro", uri=True, timeout=5)) as conn:
            yield conn

    def game(self, game_id: int) -> GameRow:
        """The stored game ``game_id`` (raises ``KeyError`` if absent)."""
        with self.db() as conn:
            row = conn.execute(
                "SELECT id, kind, channel_id, status, version, state_json, initial_state_json, result_json "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise KeyError(f"no game {game_id}")
            players = [
                uid
                for (uid,) in conn.execute(
                    "SELECT user_id FROM game_players WHERE game_id = ? ORDER BY seat", (game_id,)
                )
            ]
            messages = dict(conn.execute("SELECT key, message_id FROM game_messages WHERE game_id = ?", (game_id,)))
        return GameRow(
            row[0],
            row[1],
            row[2],
            row[3],
            row[4],
            json.loads(row[5]),
            json.loads(row[6]),
            players,
            json.loads(row[7]) if row[7] else None,
            messages,
        )

    def latest_game(self, kind: str, channel_id: int | None = None) -> GameRow:
        """The newest game of ``kind`` (in ``channel_id`` if given); raises ``KeyError`` if none."""
        sql, args = "SELECT id FROM games WHERE kind = ?", [kind]
        if channel_id is not None:
            sql += " AND channel_id = ?"
            args.append(channel_id)
        with self.db() as conn:
            row = conn.execute(sql + " ORDER BY id DESC LIMIT 1", args).fetchone()
        if row is None:
            raise KeyError(f"no {kind} game")
        return self.game(row[0])

    def actions(self, game_id: int) -> list[tuple[int, int | None, str]]:
        """The action log of ``game_id``: ``(seq, player, action)`` in seq order."""
        with self.db() as conn:
            return [
                (s, p, a)
                for s, p, a in conn.execute(
                    "SELECT seq, player, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            ]

    def ratings(self, kind: str) -> dict[int, tuple[float, int, int, int, int]]:
        """``user_id -> (ordinal, games, wins, losses, draws)`` for ``kind`` in the dev guild."""
        with self.db() as conn:
            rows = conn.execute(
                "SELECT user_id, ordinal, games, wins, losses, draws FROM ratings WHERE guild_id = ? AND kind = ?",
                (self.server.guild_id, kind),
            ).fetchall()
        return {r[0]: (r[1], r[2], r[3], r[4], r[5]) for r in rows}

    def mark(self) -> int:
        """A checkpoint in the server's violation list (see ``violations_since``)."""
        return len(self.server.violations)

    def violations_since(self, mark: int) -> list[Violation]:
        return self.server.violations[mark:]

    def assert_alive(self) -> None:
        """The bot process is still running (it did not crash) and connected."""
        assert self.proc.running, f"the bot process died:\n{self.proc.log(4000)}"
        assert self.server.bot_connected, "the bot is not connected to the gateway"

    def log_tail(self, n: int = 3000) -> str:
        return self.proc.log(n)


@asynccontextmanager
async def bot_env(
    tmp: Path, *, start: bool = True, extra_env: dict[str, str] | None = None, **server_options: Any
) -> AsyncIterator[BotEnv]:
    """Start a DevServer (``server_options``, e.g. ``rate_limits=True``) and, with ``start``, the real bot on
    ``tmp/data`` (``extra_env``: more environment for it, e.g. ``TABLEBOT_EXTRA_GAMES``); stop both on exit. Skips
    the module when the bot cannot run yet. Like the ``devserver`` fixture, fails the test when the bot sent a
    request breaking Discord's OpenAPI spec (checked after a body that raised nothing)."""
    import pytest

    reason = bot_entry_missing()
    if reason:
        pytest.skip(reason)
    server = await DevServer(token=E2E_TOKEN, **server_options).start()
    proc = BotProcess(server, tmp / "data", tmp / "bot.log", token=E2E_TOKEN, extra_env=extra_env)
    try:
        if start:
            await proc.start()
        yield BotEnv(server, proc, tmp / "data")
    finally:
        await proc.stop()
        await server.stop()
        SPEC_TOTALS.merge(server.spec_stats)
    report = spec_violations_report(server) or none_texts_report(proc)
    if report:
        pytest.fail(report, pytrace=False)


async def answered(res: InteractionResult, timeout: float = ANSWER_TIMEOUT_S, **kw: Any) -> InteractionResult:  # noqa: ASYNC109
    """Wait for the bot's answer and assert Discord's client would not show "This interaction failed"."""
    await res.wait(timeout, **kw)
    assert not res.failed, f"interaction failed: {res!r} violations={res.violations}"
    assert res.response_type is not None
    return res


async def resign(user: Any, confirm: str = "Yes, resign") -> InteractionResult:
    """``/constructo resign`` asks privately, like the Resign button; clicking ``confirm`` resigns. Returns the
    confirmation click's answer (the board of the finished match is its followup)."""
    ask = await answered(await user.slash("constructo resign"))
    assert ask.ephemeral and ask.message is not None, ask.text
    return await answered(await user.click(ask.message, confirm), followups=1)


def assert_png(data: bytes, min_long_side: int = MIN_LONG_SIDE_PX) -> tuple[int, int]:
    """``data`` is a PNG Pillow can fully decode, with a long side of at least ``min_long_side`` px.
    Returns ``(width, height)``."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"not a PNG: {data[:8]!r}"
    with Image.open(io.BytesIO(data)) as img:
        assert img.format == "PNG"
        img.load()  # decodes every byte: a truncated file fails here
        size = img.size
    assert max(size) >= min_long_side, f"image too small: {size}"
    return size


async def click_raw(user: Any, message: Message, custom_id: str, values: list[str] | None = None) -> InteractionResult:
    """A component interaction on ``message`` with this ``custom_id`` (and select ``values``), as a client sends it
    whatever the message shows now: a client that still shows an older board, or a forged id."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    it = await user.server.create_interaction(
        user.user, user.server.channel(message.channel_id), 3, data, message=message
    )
    return InteractionResult(user.server, it)


def assert_refusal(res: InteractionResult, *needles: str) -> str:
    """The bot answered ``res`` with an ephemeral message only (a refusal) containing every ``needle``
    (case-insensitive); returns its text."""
    assert not res.failed, f"refusal not delivered: {res!r}"
    msgs = res.messages
    assert msgs, f"no message in the answer: {res!r}"
    assert all(m.ephemeral for m in msgs), f"a refusal must be ephemeral: {[m.content for m in msgs]}"
    text = res.text
    for needle in needles:
        assert needle.lower() in text.lower(), f"{needle!r} not in the refusal {text!r}"
    return text


def buttons(message: Message) -> dict[str, dict[str, Any]]:
    """The message's components by custom id."""
    return {c["custom_id"]: c for c in message.buttons() if c.get("custom_id")}


def select_with_prefix(message: Message, prefix: str) -> dict[str, Any] | None:
    """The first select menu whose custom id starts with ``prefix`` (None if absent)."""
    return next((c for c in message.buttons() if c.get("type") == 3 and c["custom_id"].startswith(prefix)), None)


def board_images(server: DevServer, channel_id: int) -> list[bytes]:
    """Every image the bot posted in ``channel_id`` (public and ephemeral), oldest first."""
    return [img for m in server.messages(channel_id) for img in m.images]


def check_log_sequence(actions: list[tuple[int, int | None, str]], version: int) -> None:
    """The action log has seq 1..version exactly: no gap, no duplicate, nothing past the stored version."""
    seqs = [s for s, _p, _a in actions]
    assert seqs == list(range(1, version + 1)), f"action log seqs {seqs} vs version {version}"


LOBBY_ACTIONS = {"join", "leave", "add bot", "close", "accept", "decline", "withdraw", "start", "abort"} | {
    f"{verb} {what}" for verb in ("offer", "decline", "cancel") for what in ("draw", "takeback")
}
"""Logged actions that are seats, start or abort, not engine actions."""


def _replay(cls: Any, state: dict[str, Any], players: list[int], log: list[tuple[int, int | None, str]]) -> Any:
    assert state.get("v") == 2 and state["engine"] is not None, "a started game's version-2 envelope"
    game = cls.new(state["engine"]["setup"])
    for _seq, player, action in log:
        if action in LOBBY_ACTIONS:
            continue
        seat = players.index(player)  # type: ignore[arg-type]
        game.apply(game.parse_action(action, seat))  # moves, layouts, places, draws, "forfeit", "timeout"...
    return game


def replay_constructo(state: dict[str, Any], players: list[int], log: list[tuple[int, int | None, str]]) -> Match:
    """Rebuild a Constructo match with the engine alone (M1, T1-T5) from the setup in the stored envelope
    ``state`` (``GameRow.state``) and the action log."""
    match: Match = _replay(Match, state, players, log)
    return match


def assert_consistent_constructo(env: BotEnv, game_id: int) -> Match:
    """The stored match equals an independent replay of the game's action log (versions in sequence; offers and
    other logged steps without an engine action are skipped by the replay). Returns the replayed match."""
    row = env.game(game_id)
    log = env.actions(game_id)
    check_log_sequence(log, row.version)
    replayed = replay_constructo(row.state, row.players, log)
    assert replayed.to_dict() == row.match.to_dict(), "stored state = replay of the log"
    return replayed


def replay_conex(state: dict[str, Any], players: list[int], log: list[tuple[int, int | None, str]]) -> Game:
    """Rebuild a CONEX game from the setup in the stored envelope ``state`` and the engine actions logged
    (forfeits and timeouts included)."""
    game: Game = _replay(Game, state, players, log)
    return game


async def assert_stripped(
    server: DevServer,
    message_id: int,
    what: str = "the previous board loses its components",
    timeout: float = 15.0,  # noqa: ASYNC109
) -> None:
    """The message ``message_id`` loses its components. The bot strips an old board just after it posts the new
    one (in the background, through the interaction's webhook), so under load this may come a moment after the
    new board's answer: wait for it (``TimeoutError`` naming ``what`` if it never comes)."""
    await server.wait_until(lambda: server.message(message_id).components == [], timeout, what)


async def recorded_board(env: BotEnv, game_id: int, timeout: float = 20.0) -> Message:  # noqa: ASYNC109
    """The game's stored board once it is the board of the stored version. The bot records a board just after
    the answer or followup that carries it (commit, answer, record), so the stored board read right after an
    ``answered(...)`` (or after waiting for a commit) may still be the one before: wait for the record
    (``TimeoutError`` if it never comes)."""

    def current() -> bool:
        row = env.game(game_id)
        return row.messages.get("board.version") == row.version

    await env.server.wait_until(current, timeout, f"game {game_id}'s board of its stored version recorded")
    return env.server.message(env.game(game_id).messages["board"])


def queued(env: BotEnv) -> dict[int, tuple[str, int]]:
    """``user_id -> (kind, seats)`` of every stored quick-match queue row (claimed or not)."""
    with env.db() as conn:
        return {u: (k, s) for u, k, s in conn.execute("SELECT user_id, kind, seats FROM match_queue")}


def games_of(env: BotEnv, user_id: int) -> list[GameRow]:
    """Every stored game ``user_id`` has a seat in."""
    with env.db() as conn:
        ids = [g for (g,) in conn.execute("SELECT game_id FROM game_players WHERE user_id = ?", (user_id,))]
    return [env.game(g) for g in ids]
