"""E2E (issue 20, evidence 2): 429s of any length (0.1 s to 20 s) on every route the bot uses, through the real bot
process: the interaction callback, the edit of the original response, followups (the AI's boards, and the boards
of an interaction Discord killed, carried by the game's latest live interaction), the strip of an old board through
its interaction's webhook. Channel routes are used only when no young interaction can carry a message: a 429 on the
channel edit that strips a board 16 minutes later is in ``test_clock_step.py``.

Each 429 carries ``retry_after``; the bot waits at least that long before the same request again (checked on the
devserver's request log), the game goes on, every board arrives once (no image posted twice, the stored board is the
latest version, no effect left owed) and the action log is gap-free. Rate limits do not depend on the storage
backend: SQLite only.

Short limits run one after the other in one game; the 20 s ones all at once, one game each.
"""

from __future__ import annotations

import asyncio
import fnmatch
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver import Injection

from .helpers import CALLBACK, EDIT_ORIGINAL, FOLLOWUP, BotEnv, answered, bot_env, check_log_sequence
from .outage_kit import assert_no_double_post, public_images

pytestmark = pytest.mark.asyncio(loop_scope="module")

WEBHOOK_EDIT = "PATCH /webhooks/*/*/messages/*"
CHANNELS = ("rl-short", "rl-long-1", "rl-long-2", "rl-long-3", "rl-long-4")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("ratelimits")), start=False) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


def placement(env: BotEnv, game_id: int) -> dict[str, object]:
    """A legal placement (options of ``/constructo place``) for the player to move."""
    from bot.games.constructo.payload import legal_placements

    match = env.game(game_id).match
    move = next(m for m in legal_placements(match, match.current_player) if m.tile and m.size)
    return {"tile": int(move.tile), "size": str(move.size.name).lower()}


async def start_vs_ai(env: BotEnv, channel: str) -> int:
    user = env.server.as_user("carol", channel)
    await answered(await user.slash("constructo challenge", opponent="bot", level="easy"))
    return env.latest_game("constructo", env.server.channel(channel).id).id


async def settled(env: BotEnv, game_id: int, channel: str, version: int, timeout: float = 60) -> None:  # noqa: ASYNC109
    """The game reached ``version`` (the player's move and the AI's answer), its board shows it, nothing owed."""
    server = env.server

    def done() -> bool:
        row = env.game(game_id)
        if row.version < version or row.messages.get("board.version") != row.version:
            return False
        with env.db() as conn:
            return conn.execute("SELECT count(*) FROM effects WHERE game_id = ?", (game_id,)).fetchone()[0] == 0

    await server.wait_until(done, timeout, f"game {game_id} at v{version} with its board and nothing owed")
    check_log_sequence(env.actions(game_id), env.game(game_id).version)
    assert_no_double_post(server, channel)


def waited(env: BotEnv, inj: Injection, since: int) -> None:
    """Every request answered by ``inj``'s 429 (made after request number ``since``) was sent again only after its
    ``retry_after``."""
    log = env.server.request_log
    hits = [
        (n, r) for n, r in enumerate(log) if n >= since and r.status == 429 and _matches(inj.pattern, r.method, r.path)
    ][: inj.hits]
    assert hits, f"{inj.pattern} was never limited"
    for n, rec in hits:
        again = next((r for r in log[n + 1 :] if r.method == rec.method and r.path == rec.path), None)
        if again is not None:
            assert again.at - rec.at >= inj.retry_after * 0.9, (
                f"{rec.method} {rec.path} sent again {again.at - rec.at:.2f} s after a 429 of {inj.retry_after} s"
            )


def _matches(pattern: str, method: str, path: str) -> bool:
    return fnmatch.fnmatchcase(f"{method} {path}", pattern)


async def move(env: BotEnv, channel: str, game_id: int, *, dead: bool = False, late: bool = False) -> None:
    """carol's move in the game; ``dead``: Discord kills the interaction (10062), so its board goes to the channel;
    ``late``: a 429 on the first response longer than Discord's 3 s kills it the same way."""
    user = env.server.as_user("carol", channel)
    if dead or late:
        if dead:
            env.server.inject_interaction_failure("constructo place", code=10062)
        res = await user.slash("constructo place", **placement(env, game_id))
        await res.wait(60)
        return
    await answered(await user.slash("constructo place", **placement(env, game_id)), timeout=60)


async def test_short_429s_on_every_route_one_after_the_other(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    game_id = await start_vs_ai(env, "rl-short")
    cases = [
        (CALLBACK, 0.1, False),
        (EDIT_ORIGINAL, 0.1, False),
        (FOLLOWUP, 1.0, False),
        (WEBHOOK_EDIT, 2.0, False),
        (CALLBACK, 2.5, False),
        (EDIT_ORIGINAL, 5.0, False),
        (FOLLOWUP, 3.0, True),
    ]
    for pattern, retry_after, dead in cases:
        version = env.game(game_id).version
        images = len(public_images(server, "rl-short"))
        since = len(server.request_log)
        inj = server.inject(pattern, 429, 1, retry_after=retry_after)
        await move(env, "rl-short", game_id, dead=dead, late=pattern == CALLBACK and retry_after > 2)
        await settled(env, game_id, "rl-short", version + 2)
        await server.wait_until(lambda: inj.hits == 1, 30, f"a request on {pattern}")  # noqa: B023
        waited(env, inj, since)
        assert len(public_images(server, "rl-short")) == images + 2, f"{pattern} {retry_after} s: two boards, once each"
    expected = {"late_response"}  # the interactions Discord killed (on purpose, or after a 429 longer than 3 s)
    assert {v.kind for v in env.violations_since(mark)} <= expected, env.violations_since(mark)
    env.assert_alive()


async def test_20s_429s_on_four_routes_at_once(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    games = {ch: await start_vs_ai(env, ch) for ch in CHANNELS[1:]}
    versions = {ch: env.game(g).version for ch, g in games.items()}
    since = len(server.request_log)
    injections = [server.inject(p, 429, 1, retry_after=20.0) for p in (EDIT_ORIGINAL, FOLLOWUP, CALLBACK, WEBHOOK_EDIT)]
    # whichever move meets the callback's 429 is answered too late for Discord (its board goes to the channel)
    await asyncio.gather(*(move(env, ch, g, dead=(ch == CHANNELS[-1]), late=True) for ch, g in games.items()))
    for ch, g in games.items():
        await settled(env, g, ch, versions[ch] + 2, timeout=90)
    for inj in injections:
        assert inj.hits == 1, f"{inj.pattern} was not limited"
        waited(env, inj, since)
    assert {v.kind for v in env.violations_since(mark)} <= {"late_response"}, env.violations_since(mark)
    env.assert_alive()
