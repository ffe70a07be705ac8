"""Shared by the delivery end-to-end files (``test_delivery.py``: slow storage; ``test_delivery_discord.py``:
permissions, late first responses, refused answers): one real bot process per file, started with
``$TABLEBOT_STORAGE_STALL_FILE`` (bot/storage/faults.py) so a test can stall every storage call, and the helpers of
both. The two files were one (issue 13); split so the suite's workers can run them side by side."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, closing
from pathlib import Path

from devserver.result import InteractionResult

from .helpers import BotEnv, answered, bot_env


@asynccontextmanager
async def delivery_env(tmp: Path, channels: tuple[str, ...]) -> AsyncIterator[BotEnv]:
    """The bot started on a server with ``channels``; storage stalls while ``tmp/stall`` says so."""
    async with bot_env(tmp, start=False, extra_env={"TABLEBOT_STORAGE_STALL_FILE": str(tmp / "stall")}) as e:
        for name in channels:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


def stall_storage(env: BotEnv, seconds: float) -> None:
    """Every storage call of the bot waits until ``seconds`` from now."""
    (env.data_dir.parent / "stall").write_text(str(time.time() + seconds))


def hold_write_lock(db: Path, seconds: float, release: threading.Event | None = None) -> None:
    """Another process holds the SQLite write lock for ``seconds`` (run in a thread), or until ``release`` is set if
    that comes first."""
    with closing(sqlite3.connect(db, timeout=5, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        if release is None:
            time.sleep(seconds)
        else:
            release.wait(seconds)
        conn.execute("ROLLBACK")


def free_placement(env: BotEnv, game_id: int) -> tuple[int, str]:
    """A legal placement for the player to move in the stored Constructo game."""
    from bot.games.constructo.payload import legal_placements

    match = env.game(game_id).match
    move = next(m for m in legal_placements(match, match.current_player) if m.tile and m.size)
    return int(move.tile), str(move.size.name).lower()


def first_response_s(res: InteractionResult) -> float:
    it = res.interaction
    assert it.response_type is not None, f"no first response: {res!r}"
    return float(it.responded_at - it.created_at)


async def challenge(env: BotEnv, channel: str) -> tuple[InteractionResult, int]:
    alice = env.server.as_user("alice", channel)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    return res, env.latest_game("constructo", env.server.channel(channel).id).id


def games_in(env: BotEnv, channel: str) -> int:
    with env.db() as conn:
        return int(
            conn.execute(
                "SELECT count(*) FROM games WHERE channel_id = ?", (env.server.channel(channel).id,)
            ).fetchone()[0]
        )


def no_traceback(env: BotEnv) -> None:
    assert "Traceback" not in env.log_tail(50000), env.log_tail(4000)
