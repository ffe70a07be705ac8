"""E2E: Constructo puzzles through the real bot (issue 25.3).

``/puzzle play`` answered right and wrong from its selects; the daily puzzle set by an admin, posted once at its
hour (the bot restarted "later" with ``TABLEBOT_CLOCK_OFFSET_S``), answered (a streak counted, a second answer not),
re-posted under the same nonce after a simulated crash between the post and its record (no second message), and
the next day's posted after another restart, extending the streak; ``/puzzle streaks`` shows it.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games.constructo.puzzle_service import day_text
from engine.constructo.move import Move
from engine.constructo.puzzle_set import puzzle_by_id
from engine.constructo.puzzles import Puzzle

from .helpers import BotEnv, answered, assert_png, assert_refusal, bot_env

pytestmark = [pytest.mark.e2e, pytest.mark.asyncio(loop_scope="module")]

DAY_S = 86_400


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("puzzles"))) as e:
        yield e


def choice(pid: int, day: int, move: str) -> tuple[str, str]:
    """(custom id of the select offering ``move``, the option's value)."""
    m = Move.parse(move)
    if m.is_place:
        assert m.size is not None
        return f"pz:a:{pid}:{day}:{m.size.letter}", str(m.tile)
    return f"pz:a:{pid}:{day}:X", str(m)


def puzzle_in(text: str) -> tuple[int, Puzzle]:
    found = re.search(r"(?:#|n\.º )(\d+)", text)
    assert found is not None, text
    puzzle = puzzle_by_id(int(found[1]))
    assert puzzle is not None
    return int(found[1]), puzzle


def wrong_move(puzzle: Puzzle) -> str:
    return min(m for m in puzzle.values if m != puzzle.solution)


async def test_private_puzzle_right_then_wrong(env: BotEnv) -> None:
    alice = env.server.as_user("alice")
    res = await answered(await alice.slash("puzzle play", difficulty="easy"))
    assert res.ephemeral and "Puzzle #" in res.text, res.text
    assert_png(res.images[0])
    pid, puzzle = puzzle_in(res.text)
    assert puzzle.difficulty == "easy"
    cid, value = choice(pid, 0, puzzle.solution)
    await answered(await alice.select(res.message, value, custom_id=cid))
    shown = env.server.message(res.message.id).content
    assert "Right!" in shown and puzzle.solution in shown, shown
    nxt = await answered(await alice.click(res.message.id, "Another puzzle"))
    assert nxt.ephemeral
    pid2, puzzle2 = puzzle_in(nxt.text)
    bad = wrong_move(puzzle2)
    cid, value = choice(pid2, 0, bad)
    await answered(await alice.select(nxt.message, value, custom_id=cid))
    shown = env.server.message(nxt.message.id).content
    assert "Not this one" in shown and f"**{bad}**" in shown and f"**{puzzle2.solution}**" in shown, shown


async def test_private_puzzle_in_spanish(env: BotEnv) -> None:
    env.server.user("dave").locale = "es-ES"
    dave = env.server.as_user("dave")
    res = await answered(await dave.slash("puzzle play", difficulty="hard"))
    assert res.ephemeral and "Problema n.º" in res.text and "difícil" in res.text, res.text
    pid, puzzle = puzzle_in(res.text)
    cid, value = choice(pid, 0, puzzle.solution)
    await answered(await dave.select(res.message, value, custom_id=cid))
    shown = env.server.message(res.message.id).content
    assert "¡Correcto!" in shown and "Mejor juego" in shown, shown


async def test_only_admins_set_the_daily_channel(env: BotEnv) -> None:
    res = await answered(await env.server.as_user("bob").slash("puzzle daily_channel", channel="games-2"))
    assert_refusal(res, "Manage Server")


def daily_row(env: BotEnv) -> tuple[float, int, int, int | None]:
    with env.db() as conn:
        row = conn.execute("SELECT next_at, day, puzzle_id, message_id FROM puzzle_daily").fetchone()
    assert row is not None
    return float(row[0]), int(row[1]), int(row[2]), row[3]


def dailies(env: BotEnv) -> list[object]:
    return [m for m in env.server.messages("games-2") if "Daily puzzle" in m.content]


async def restart_at(env: BotEnv, offset: float) -> None:
    await env.proc.stop()
    env.proc.extra_env["TABLEBOT_CLOCK_OFFSET_S"] = str(offset)
    await env.proc.start()
    env.assert_alive()


async def test_daily_puzzle_posted_once_streaks_survive_restarts(env: BotEnv) -> None:
    server = env.server
    mod, bob, carol = server.as_user("mod"), server.as_user("bob"), server.as_user("carol")
    hour = (time.gmtime().tm_hour + 2) % 24  # at least an hour away: nothing is posted before the restart
    res = await answered(await mod.slash("puzzle daily_channel", channel="games-2", hour=hour))
    assert res.ephemeral and "Saved." in res.text and f"{hour:02d}:00 UTC" in res.text, res.text
    next_at, day, _, _ = daily_row(env)
    assert day == -1 and next_at > time.time() + 3000
    assert dailies(env) == []

    offset = next_at - time.time() + 60  # a restart just after the hour
    await restart_at(env, offset)
    posted = await server.wait_for_message(lambda m: "Daily puzzle" in m.content, channel="games-2", timeout=30)
    assert_png(posted.images[0])
    await server.wait_until(lambda: daily_row(env)[3] is not None, timeout=30, what="the message recorded")
    _, day, pid, message_id = daily_row(env)
    assert message_id == posted.id and day == int(next_at // DAY_S) and day_text(day) in posted.content
    puzzle = puzzle_by_id(pid)
    assert puzzle is not None

    cid, value = choice(pid, day, puzzle.solution)
    res = await answered(await bob.in_channel("games-2").select(posted, value, custom_id=cid))
    assert res.ephemeral and "Right!" in res.text and "1 in a row" in res.text, res.text
    cid_bad, value_bad = choice(pid, day, wrong_move(puzzle))
    res = await answered(await bob.in_channel("games-2").select(posted, value_bad, custom_id=cid_bad))
    assert res.ephemeral and "already answered" in res.text and "right" in res.text, res.text
    res = await answered(await carol.in_channel("games-2").select(posted, value_bad, custom_id=cid_bad))
    assert res.ephemeral and "Not this one" in res.text and "0 in a row" in res.text, res.text

    # a crash between the post and its record: the row says "claimed, no message" and is due again
    await env.proc.stop()
    with closing(sqlite3.connect(env.db_path)) as conn:
        conn.execute("UPDATE puzzle_daily SET message_id = NULL, next_at = ?", (next_at,))
        conn.commit()
    hits = server.nonce_hits
    await restart_at(env, offset)
    await server.wait_until(lambda: server.nonce_hits > hits, timeout=30, what="the post again under its nonce")
    # the message Discord returned for the nonce is recorded: the one posted before the crash
    await server.wait_until(lambda: daily_row(env)[3] is not None, timeout=30, what="the message recorded")
    assert daily_row(env)[3] == posted.id
    assert len(dailies(env)) == 1, "posted once, never twice"

    await restart_at(env, offset + DAY_S)  # the next day
    second = await server.wait_for_message(
        lambda m: "Daily puzzle" in m.content and m.id != posted.id, channel="games-2", timeout=30
    )
    await server.wait_until(lambda: daily_row(env)[3] == second.id, timeout=30, what="the message recorded")
    _, day2, pid2, _ = daily_row(env)
    assert day2 == day + 1 and len(dailies(env)) == 2
    puzzle2 = puzzle_by_id(pid2)
    assert puzzle2 is not None
    cid, value = choice(pid2, day2, puzzle2.solution)
    res = await answered(await bob.in_channel("games-2").select(second, value, custom_id=cid))
    assert "Right!" in res.text and "2 in a row" in res.text, res.text
    # yesterday's puzzle still answers, but counts for no streak
    res = await answered(await carol.in_channel("games-2").select(posted, value_bad, custom_id=cid_bad))
    assert "does not count" in res.text, res.text

    res = await answered(await carol.slash("puzzle streaks"))
    assert res.ephemeral
    lines = res.text.splitlines()
    assert lines[1].startswith(f"1. <@{bob.id}> — 2 in a row"), res.text


async def test_daily_channel_shows_stops_and_says_when_nothing_changed(env: BotEnv) -> None:
    mod = env.server.as_user("mod")
    res = await answered(await mod.slash("puzzle daily_channel"))
    assert "<#" in res.text and "UTC" in res.text, res.text  # the setting in force
    hour = daily_row_hour(env)
    res = await answered(await mod.slash("puzzle daily_channel", channel="games-2", hour=hour))
    assert "nothing changed" in res.text, res.text
    res = await answered(await mod.slash("puzzle daily_channel", off=True))
    assert "No daily puzzle here any more" in res.text, res.text
    res = await answered(await mod.slash("puzzle daily_channel", off=True))
    assert "nothing changed" in res.text, res.text
    res = await answered(await mod.slash("puzzle daily_channel"))
    assert "No daily puzzle here yet" in res.text, res.text


def daily_row_hour(env: BotEnv) -> int:
    with env.db() as conn:
        row = conn.execute("SELECT hour FROM puzzle_daily").fetchone()
    assert row is not None
    return int(row[0])


async def test_daily_channel_where_the_bot_cannot_post_is_refused(env: BotEnv) -> None:
    """A channel where the bot lacks Send Messages and Attach Files is refused naming them (in the admin's
    language), and nothing is stored; once granted, the same command is saved."""
    server, mod = env.server, env.server.as_user("mod")
    await server.set_bot_permissions("general", deny=["send_messages", "attach_files"])
    try:
        res = await answered(await mod.slash("puzzle daily_channel", channel="general", hour=5))
        assert_refusal(res, "Send Messages and Attach Files")
        assert "Saved" not in res.text, res.text
        with env.db() as conn:
            assert conn.execute("SELECT COUNT(*) FROM puzzle_daily").fetchone()[0] == 0, "nothing stored"
        server.user("mod").locale = "es-ES"
        res = await answered(await mod.slash("puzzle daily_channel", channel="general", hour=5))
        assert_refusal(res, "Enviar mensajes y Adjuntar archivos")
    finally:
        server.user("mod").locale = "en-US"
        await server.set_bot_permissions("general", reset=True)
    res = await answered(await mod.slash("puzzle daily_channel", channel="general", hour=5))
    assert "Saved" in res.text and "<#" in res.text, res.text
    res = await answered(await mod.slash("puzzle daily_channel", off=True))
    assert "No daily puzzle here any more" in res.text, res.text
