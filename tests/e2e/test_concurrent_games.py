"""E2E: many games in many channels at the same time, through the real bot process.

Every challenge starts its own game, and after every accepted action the board the bot posts is the committed
one: its components carry the stored version (a board drawn from a stale read would carry an older version and
its next click would be refused as "out of date"). Reads that follow a write must see it even while other
games read the database at the same moment.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Channel, Message, User, fixed_id
from devserver.permissions import EVERYONE_PERMISSIONS

from .helpers import BotEnv, answered, bot_env, check_log_sequence

pytestmark = pytest.mark.asyncio(loop_scope="module")

GAMES = 30
ROUNDS = 3


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("concurrent")), start=False) as e:
        for i in range(GAMES):  # extra text channels, known to the bot from GUILD_CREATE
            ch = Channel(id=fixed_id(500 + i), name=f"table-{i}", guild_id=e.server.guild_id, position=10 + i)
            e.server.channels[ch.id] = ch
            for side, offset in (("a", 0), ("b", GAMES)):  # two players of their own per table: one pending
                name = f"p{i}{side}"  # challenge per pair (a second one is refused)
                e.server.users[name] = User(
                    id=fixed_id(2000 + offset + i), name=name, member_permissions=EVERYONE_PERMISSIONS
                )
        await e.proc.start()
        yield e


def board_version(board: Message) -> int:
    """The version in the board's select custom ids (``cx:pl:<game>:<version>:<size>``)."""
    versions = {
        int(c["custom_id"].split(":")[3])
        for c in board.buttons()
        if c.get("type") == 3 and c["custom_id"].startswith(("cx:pl:", "cx:mv:"))
    }
    assert len(versions) == 1, board.components
    return versions.pop()


async def test_concurrent_games_each_start_and_boards_carry_the_committed_version(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    channels = [c for c in server.channels.values() if c.name.startswith("table-")]
    alices = [server.as_user(f"p{i}a", c.id) for i, c in enumerate(channels)]
    bobs = [server.as_user(f"p{i}b", c.id) for i, c in enumerate(channels)]

    challenges = await asyncio.gather(
        *(a.slash("constructo challenge", opponent=f"p{i}b") for i, a in enumerate(alices))
    )
    await asyncio.gather(*(answered(r, 30) for r in challenges))
    refused = [r.text for r in challenges if r.ephemeral]
    assert refused == [], f"{len(refused)} of {GAMES} challenges refused: {refused[:3]}"

    accepts = await asyncio.gather(*(b.click(r.message, "Accept") for b, r in zip(bobs, challenges, strict=True)))
    await asyncio.gather(*(answered(r, 30, followups=1) for r in accepts))
    boards = [r.followups[-1] for r in accepts]
    games = [env.latest_game("constructo", c.id) for c in channels]
    for board, game in zip(boards, games, strict=True):
        assert game.status == "active"
        assert board_version(board) == game.version, "the board after Accept shows the committed version"

    users = [alices, bobs]
    for n in range(ROUNDS):
        sels = [
            next(c for c in b.buttons() if c.get("type") == 3 and c["custom_id"].startswith("cx:pl:")) for b in boards
        ]
        moves = await asyncio.gather(
            *(
                users[n % 2][i].select(boards[i], sel["options"][n]["value"], custom_id=sel["custom_id"])
                for i, sel in enumerate(sels)
            )
        )
        await asyncio.gather(*(answered(r, 30) for r in moves))
        refused = [r.text for r in moves if r.ephemeral]
        assert refused == [], f"round {n}: {len(refused)} of {GAMES} moves refused: {refused[:3]}"
        # the new board answers the click; a click answered late by the first-response guard (a deferred update,
        # under load) gets it as a followup
        boards = [r.followups[-1] if r.followups else r.message for r in moves]
        for board, game in zip(boards, games, strict=True):
            row = env.game(game.id)
            assert row.version == 2 + n
            assert board_version(board) == row.version, "the new board shows the version just committed"
            # the bot records the new board's id just after posting it
            await server.wait_until(
                lambda g=game, b=board: env.game(g.id).messages.get("board") == b.id,
                10,
                "the new board's id to be stored",
            )

    for game in games:
        row = env.game(game.id)
        check_log_sequence(env.actions(game.id), row.version)
        assert len(row.match.current_round.history) == ROUNDS
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
