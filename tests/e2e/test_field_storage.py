"""E2E (issue 22, "Words players can abuse"): database failures the bot can recognise get a plain, true, private
answer naming what happened and that nothing was applied, never "Something went wrong" or a traceback.

The storage fault seam (``$TABLEBOT_STORAGE_STALL_FILE`` = ``fail:full|readonly|locked|gone``,
``bot/storage/faults.py``) makes the real bot's SQLite calls raise what SQLite raises then. Commands and a select
are tried under each fault; the stored game and the public messages stay unchanged; once the fault is gone
the same move plays.
"""

from __future__ import annotations

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
