"""E2E (issue 20, evidence 3 and 4): the host's clock stepped under the real bot process, with libfaketime.

The bot runs with ``LD_PRELOAD=libfaketime`` reading its offset from a file at every call
(``FAKETIME_TIMESTAMP_FILE``, ``FAKETIME_NO_CACHE=1``), so the test steps the bot's clock while it runs:

- **wall clock only** (``FAKETIME_DONT_FAKE_MONOTONIC=1``: an administrator's ``date -s``, NTP stepping, a VM
  resumed): one hour forward, then one hour back, right after a move of a ``live`` game (``TABLEBOT_CLOCK_SCALE``
  makes the move 6 s, its reminder due 4.5 s after the turn started). The reminder and the timeout's claim
  message come at their times: neither early after the forward step nor late after the backward one;
- **16 minutes pass** (both clocks stepped, and the devserver's: ``DevServer.clock.advance``) in the middle of a
  long game: the old boards' interaction tokens have expired; the bot must not use them (the devserver records a
  401 ``expired_token`` violation if it does): the previous board is stripped through the channel, and the game
  goes on.

libfaketime is a maintained tool (``apt-get install faketime``); without it these tests are skipped with the
reason on a developer's machine and fail when ``CI=true`` (like the PostgreSQL tests).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from devserver import DevServer
from devserver.models import Message
from devserver.process import BotProcess

from .conftest import E2E_TOKEN, bot_entry_missing
from .helpers import BotEnv, answered, check_log_sequence

LIBFAKETIME_PATHS = tuple(
    f"{d}/faketime/libfaketime.so.1"
    for d in ("/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib", "/usr/local/lib")
)
SCALE = 0.02
MOVE_S = 300 * SCALE  # a live move: 6 s
REMIND_AFTER_S = MOVE_S * 0.75  # the reminder: a quarter of the move left
LATE_S = 20.0  # a timer may come this late on a loaded test machine (a clock-step bug is off by an hour)
STEP_S = 3600


def libfaketime() -> str:
    """The preload library, or skip (fail when ``CI=true``)."""
    found = next((p for p in (os.environ.get("LIBFAKETIME", ""), *LIBFAKETIME_PATHS) if p and Path(p).exists()), None)
    if found is None:
        reason = "libfaketime is not installed (apt-get install faketime): host clock steps cannot be simulated"
        if os.environ.get("CI", "").strip().lower() == "true":
            pytest.fail(f"CI=true but {reason}")
        pytest.skip(reason)
    return found


async def faked_bot(tmp: Path, *, monotonic: bool, extra: dict[str, str] | None = None) -> tuple[BotEnv, Path]:
    reason = bot_entry_missing()
    if reason:
        pytest.skip(reason)
    lib = libfaketime()
    offset = tmp / "faketime"
    offset.write_text("+0\n")
    env = {"LD_PRELOAD": lib, "FAKETIME_TIMESTAMP_FILE": str(offset), "FAKETIME_NO_CACHE": "1", **(extra or {})}
    if not monotonic:
        env["FAKETIME_DONT_FAKE_MONOTONIC"] = "1"
    server = await DevServer(token=E2E_TOKEN).start()
    proc = BotProcess(server, tmp / "data", tmp / "bot.log", token=E2E_TOKEN, extra_env=env)
    try:
        await proc.start()
    except BaseException:
        await proc.stop()
        await server.stop()
        raise
    e = BotEnv(server, proc, tmp / "data")
    await server.wait_until(lambda: "connected as" in proc.log(), 30, "the bot's READY")
    return e, offset


def step(offset: Path, seconds: int) -> None:
    """Set the bot's clock ``seconds`` away from the real one (at its next read: no cache)."""
    offset.write_text(f"{seconds:+d}\n")


def reminders(env: BotEnv, channel: str, user: str) -> list[Message]:
    uid = env.server.user(user).id
    return [m for m in env.server.messages(channel) if "⏰" in m.content and f"<@{uid}>" in m.content]


def claims(env: BotEnv, channel: str) -> list[Message]:
    return [m for m in env.server.messages(channel) if m.content.startswith("⌛") and "claim" in m.content]


@pytest.fixture
async def stepped(tmp_path: Path) -> AsyncIterator[tuple[BotEnv, Path]]:
    e, offset = await faked_bot(tmp_path, monotonic=False, extra={"TABLEBOT_CLOCK_SCALE": str(SCALE)})
    for name in ("step-fwd", "step-back"):
        e.server.add_channel(name)
    try:
        yield e, offset
    finally:
        await e.proc.stop()
        await e.server.stop()


async def test_wall_clock_steps_neither_hasten_nor_delay_a_reminder_or_a_timeout(stepped: tuple[BotEnv, Path]) -> None:
    env, offset = stepped
    server = env.server
    mark = env.mark()
    for channel, seconds in (("step-fwd", STEP_S), ("step-back", -STEP_S)):
        alice, bob = server.as_user("alice", channel), server.as_user("bob", channel)
        res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="live"))
        await answered(await bob.click(res.message, "Accept"), followups=1)
        moved = await answered(await alice.slash("constructo place", tile=5, size="large"))
        step(offset, seconds)
        # bob's clock started when the move was committed: after alice acted (the devserver's clock)
        turn = moved.interaction.created_at
        await server.wait_until(
            lambda: bool(reminders(env, channel, "bob")),  # noqa: B023
            REMIND_AFTER_S + LATE_S + turn - server.clock.now(),
            f"bob's reminder after a {seconds:+d} s step",
        )
        reminded = server.clock.now() - turn
        assert reminded >= REMIND_AFTER_S - 0.3, f"{seconds:+d} s step: reminder {reminded:.1f} s after the turn"
        await server.wait_until(
            lambda: bool(claims(env, channel)),  # noqa: B023
            MOVE_S + LATE_S + turn - server.clock.now(),
            f"the timeout's claim after a {seconds:+d} s step",
        )
        claimed = server.clock.now() - turn
        assert claimed >= MOVE_S - 0.3, f"{seconds:+d} s step: the timeout came {claimed:.1f} s after the turn"
        assert len(reminders(env, channel, "bob")) == 1, "one reminder"
        step(offset, 0)
        game = env.latest_game("constructo", server.channel(channel).id)
        assert game.status == "active", "an unclaimed timeout waits for the opponent"
        check_log_sequence(env.actions(game.id), game.version)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_sixteen_minutes_later_old_tokens_are_not_used(tmp_path: Path) -> None:
    """A long game: alice's board answered her interaction; 16 minutes pass (for the bot and for Discord); bob
    moves: the old board loses its buttons through the channel (never through the expired token), and later moves
    and boards go on. Then the same across a backward wall-clock step (the token age counts from creation on the
    monotonic clock: a wall step back does not make an old token young)."""
    env, offset = await faked_bot(tmp_path, monotonic=True)
    server = env.server
    try:
        mark = env.mark()
        alice, bob = server.as_user("alice"), server.as_user("bob")
        res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="none"))
        await answered(await bob.click(res.message, "Accept"), followups=1)
        game_id = env.latest_game("constructo").id
        moved = await answered(await alice.slash("constructo place", tile=5, size="large"))
        old_board = moved.message
        assert old_board is not None and old_board.buttons()
        await server.wait_until(
            lambda: env.game(game_id).messages.get("board") == old_board.id, 10, "alice's board recorded"
        )
        step(offset, 16 * 60)
        server.clock.advance(16 * 60)
        limited = server.inject("PATCH /channels/*/messages/*", 429, 1, retry_after=3.0)  # and rate-limited once
        await answered(await bob.slash("constructo place", tile=4, size="medium"), timeout=30)
        await server.wait_until(
            lambda: server.message(old_board.id).components == [], 20, "the old board stripped (through the channel)"
        )
        assert limited.hits == 1, "the strip went through the channel"
        strips = [r for r in server.request_log if r.method == "PATCH" and r.path.endswith(f"/{old_board.id}")]
        assert [r.status for r in strips] == [429, 200], strips
        assert strips[1].at - strips[0].at >= 3.0 * 0.9, "the 429's retry_after was kept"
        await answered(await alice.slash("constructo place", tile=1, size="small"), timeout=30)
        await answered(await bob.slash("constructo place", tile=9, size="small"), timeout=30)
        row = env.game(game_id)
        check_log_sequence(env.actions(game_id), row.version)
        assert [a for _s, _p, a in env.actions(game_id)] == ["accept", "L5", "M4", "S1", "S9"]
        expired = [v for v in env.violations_since(mark) if v.kind == "expired_token"]
        assert expired == [], f"the bot used expired interaction tokens: {expired}"
        assert env.violations_since(mark) == [], env.log_tail()
        env.assert_alive()
    finally:
        await env.proc.stop()
        await env.server.stop()
