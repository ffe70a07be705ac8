"""E2E (issue 22, "Words players can abuse"): database failures the bot can recognise get a plain, true, private
answer naming what happened and that nothing was applied, never "Something went wrong" or a traceback.

The storage fault seam (``$TABLEBOT_STORAGE_STALL_FILE`` = ``fail:full|readonly|locked|gone``,
``bot/storage/faults.py``) makes the real bot's SQLite calls raise what SQLite raises then. Commands and a select
are tried under each fault; the stored game and the public messages stay unchanged; once the fault is gone
the same move plays.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env, select_with_prefix

pytestmark = pytest.mark.asyncio(loop_scope="module")

EXPECTED = {
    "full": ("disk is full", "not applied"),
    "readonly": ("read-only", "not applied"),
    "locked": ("locked", "not applied"),
    "gone": ("cannot reach my database", "not applied"),
}


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("storage_faults"))
    async with bot_env(tmp, start=False, extra_env={"TABLEBOT_STORAGE_STALL_FILE": str(tmp / "fault")}) as e:
        await e.proc.start()
        yield e


def inject(env: BotEnv, fault: str) -> None:
    (env.data_dir.parent / "fault").write_text(f"fail:{fault}" if fault else "")


async def test_storage_failures_are_named_and_change_nothing(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = (server.as_user(n) for n in ("alice", "bob", "carol"))
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    board = (await answered(await bob.click(res.message, "Accept"), followups=1)).followups[-1]
    game = env.latest_game("constructo")
    mover = {alice.id: alice, bob.id: bob}[game.players[game.match.current_player]]
    sel = select_with_prefix(board, "cx:pl:")
    assert sel is not None
    value = sel["options"][0]["value"]

    def public() -> list[int]:
        return [m.id for m in server.all_messages() if not m.ephemeral]

    for fault, needles in EXPECTED.items():
        inject(env, fault)
        before, shown = env.game(game.id), public()
        tries = [
            mover.select(board, value, custom_id=sel["custom_id"]),
            mover.slash("constructo place", tile=int(value.split(":")[0]) if ":" in value else 1, size="small"),
            carol.in_channel("general").slash("constructo challenge", opponent="alice"),
            mover.slash("abandon"),
        ]
        for attempt in tries:
            got = await answered(await attempt)
            text = assert_refusal(got, *needles)
            assert "went wrong" not in text.lower(), text
            after = env.game(game.id)
            assert (after.version, after.status, after.state) == (before.version, before.status, before.state)
            assert public() == shown, f"a public message was posted under {fault}: {got!r}"
        # autocomplete: no suggestions, answered, no traceback
        assert await mover.autocomplete("replay", "game", "") == []
        assert await mover.autocomplete("constructo place", "tile", "", size="small") == [] or fault != "gone"
        # Spanish: the same facts in the player's language
        server.user("carol").locale = "es-ES"
        got = await answered(await carol.in_channel("general").slash("constructo challenge", opponent="alice"))
        assert "no se aplicó" in assert_refusal(got), got.text
        server.user("carol").locale = "en-US"

    inject(env, "")
    done = await answered(await mover.select(board, value, custom_id=sel["custom_id"]))
    assert not done.ephemeral and env.game(game.id).version == before.version + 1, done
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    assert "storage failure (full)" in log and "storage failure (gone)" in log
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_a_move_whose_commit_fails_inside_group_commit_is_named_and_the_game_goes_on(env: BotEnv) -> None:
    """The faults above fail before the storage backend. ``fail:<what>@commit`` fails inside it: two moves of two
    games, made at once, go through the writer's queue and group commit (``SqliteBackend._grouped``, the
    transaction thread), run their statements, and their ``COMMIT`` fails as on a full or read-only disk. Each
    player gets the plain answer (what happened, nothing applied), nothing is stored or posted, and once the disk
    is back the same moves play."""
    server = env.server
    mark = env.mark()
    pairs = [("carol", "dave", "general"), ("alice", "bob", "games-2")]  # "games" holds the test above's game
    boards, movers, games = [], [], []
    for a, b, channel in pairs:
        ua, ub = server.as_user(a).in_channel(channel), server.as_user(b).in_channel(channel)
        res = await answered(await ua.slash("constructo challenge", opponent=b))
        assert res.message is not None and res.message.buttons(), (channel, res.text)
        board = (await answered(await ub.click(res.message, "Accept"), followups=1)).followups[-1]
        game = env.latest_game("constructo", board.channel_id)
        boards.append(board)
        games.append(game)
        movers.append({ua.id: ua, ub.id: ub}[game.players[game.match.current_player]])
    sels = [select_with_prefix(board, "cx:pl:") for board in boards]
    assert all(sels)

    def public() -> list[int]:
        return [m.id for m in server.all_messages() if not m.ephemeral]

    def move(i: int) -> object:
        sel = sels[i]
        assert sel is not None
        return movers[i].select(boards[i], sel["options"][0]["value"], custom_id=sel["custom_id"])

    seen = env.proc.log().count("storage fault injected at COMMIT")
    for fault in ("full", "readonly"):
        inject(env, f"{fault}@commit")
        before, shown = [env.game(g.id) for g in games], public()
        sent = await asyncio.gather(*(move(i) for i in range(2)))  # type: ignore[arg-type]
        got = await asyncio.gather(*(answered(s) for s in sent))
        for res in got:
            text = assert_refusal(res, *EXPECTED[fault])
            assert "went wrong" not in text.lower(), text
        after = [env.game(g.id) for g in games]
        assert [(g.version, g.state) for g in after] == [(g.version, g.state) for g in before], "nothing applied"
        assert public() == shown, f"a public message was posted under {fault}@commit"
    log = env.proc.log()
    assert log.count("storage fault injected at COMMIT") >= seen + 4, "the moves' writes reached the COMMIT"
    inject(env, "")
    for i in range(2):
        done = await answered(await move(i))  # type: ignore[arg-type]
        assert not done.ephemeral and env.game(games[i].id).version == before[i].version + 1, done
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
