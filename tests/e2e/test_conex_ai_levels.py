"""E2E (issue 25): the host adds a hard and an easy AI seat to a CONEX lobby through the real bot process and the
DevServer (``/conex addbot level:``); the lobby and the table name the seats with their level in words, the stored
envelope keeps the levels (records and replays read it), and the hard seat plays the hard level's own choice.

The AI's seed is the bot's (``bot/services/ai.py``: game id x 1000 + the version it searched, i.e. the action's seq
minus one), so the hard seat's first logged action is checked against ``engine.conex.ai_levels`` on the replayed
position before it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.games.conex.ai import choose_ai_action
from devserver.client import CommandUsageError

from .helpers import LOBBY_ACTIONS, BotEnv, answered, bot_env, replay_conex

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNEL = "general"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("conexai"))) as e:
        yield e


async def test_hard_ai_seat_is_named_kept_and_plays_the_hard_choice(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice = server.as_user("alice", CHANNEL)
    lobby = (await answered(await alice.slash("conex new", table="small", goal=20))).message
    with pytest.raises(CommandUsageError):  # the client offers only the three levels
        await alice.slash("conex addbot", level="brutal")

    res = await answered(await alice.slash("conex addbot", level="hard"))
    assert "AI 1 (hard)" in res.text, res.text
    await answered(await alice.slash("conex addbot", level="easy"))
    await server.wait_until(
        lambda: "AI 1 (hard)" in server.message(lobby.id).content and "AI 2 (easy)" in server.message(lobby.id).content,
        20,
        "the lobby naming both AI seats with their levels",
    )
    await answered(await alice.click(lobby, "Start"), followups=1)
    gid = env.latest_game("conex", server.channel(CHANNEL).id).id
    row = env.game(gid)
    assert [s["ai"] for s in row.state["seats"]] == [None, "hard", "easy"]
    assert [s["name"] for s in row.state["seats"]][1:] == ["AI 1 (hard)", "AI 2 (easy)"]

    await answered(await alice.slash("conex draw"))  # seat 0 (the host) starts (U1); then both AI seats play

    def ai_moves() -> list[tuple[int, int | None, str]]:
        return [a for a in env.actions(gid) if a[1] is not None and a[1] < 0 and a[2] not in LOBBY_ACTIONS]

    await server.wait_until(lambda: {p for _s, p, _a in ai_moves()} >= {-1, -2}, 90, "both AI seats' moves")
    log = env.actions(gid)
    row = env.game(gid)
    seq, _player, action = next(a for a in ai_moves() if a[1] == -1)
    before = replay_conex(row.state, row.players, [a for a in log if a[0] < seq])
    seat = row.players.index(-1)
    assert before.current_player == seat
    assert action == str(choose_ai_action(before, seat, gid * 1000 + seq - 1, level="hard"))
    await server.wait_until(
        lambda: "AI 1 (hard)" in "".join(m.content or "" for m in server.messages(CHANNEL)[-4:]),
        20,
        "a table message naming the hard seat",
    )
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
