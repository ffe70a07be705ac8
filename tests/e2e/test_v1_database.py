"""E2E: the real bot started on a copy of a database saved by main before the game protocol
(``tests/fixtures/main_v1.sqlite3``, schema 1, envelopes without ``"v"``, engine states of version 1; see
``tests/fixtures/README.md``) plays on. The copy is pointed at the DevServer's world before the bot starts (the
fixture's guild, channels and users are remapped to DevServer ids; nothing else changes). On READY the bot posts
the boards those games never had; then a Constructo match against the AI, a CONEX game with a forfeited seat and a
discard owed, and a CONEX lobby continue, and the old ratings still rank the leaderboard.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest
import pytest_asyncio

from engine.conex import Game
from engine.constructo import Match

from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "main_v1.sqlite3"
OLD_GUILD, OLD_BOT = 1000, 900
CHANNELS = {1: "v1-ai", 2: "v1-round2", 5: "v1-conex", 6: "v1-lobby"}  # open games -> DevServer channels


def remap(db: Path, guild: int, channels: dict[int, int], users: dict[int, int]) -> None:
    """Point the copied database at the DevServer: guild, channels of the open games, user ids (seats, the action
    log, ratings, the CONEX host in the stored envelope)."""
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("UPDATE games SET guild_id = ?", (guild,))
        conn.execute("UPDATE ratings SET guild_id = ?", (guild,))
        for game_id, channel_id in channels.items():
            conn.execute("UPDATE games SET channel_id = ? WHERE id = ?", (channel_id, game_id))
        trigger = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'actions_append_only_update'").fetchone()
        conn.execute("DROP TRIGGER actions_append_only_update")  # the log is append-only: lift it for the remap
        for table, column in (
            ("game_players", "user_id"),
            ("actions", "player"),
            ("ratings", "user_id"),
            ("rating_changes", "user_id"),
        ):
            for old, new in users.items():
                conn.execute(f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (new, old))
        conn.execute(trigger[0])
        for game_id, text in conn.execute("SELECT id, state_json FROM games").fetchall():
            state = json.loads(text)
            if state.get("host") in users:
                state["host"] = users[state["host"]]
                conn.execute(
                    "UPDATE games SET state_json = ?, initial_state_json = ? WHERE id = ?",
                    (json.dumps(state), json.dumps(state), game_id),
                )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("v1db")), start=False) as e:
        server = e.server
        channels = {gid: server.add_channel(name).id for gid, name in CHANNELS.items()}
        users = {
            101: server.user("alice").id,
            102: server.user("bob").id,
            103: server.user("carol").id,
            OLD_BOT: server.bot_user.id,
        }
        e.data_dir.mkdir(parents=True, exist_ok=True)
        shutil.copy(FIXTURE, e.db_path)
        remap(e.db_path, server.guild_id, channels, users)
        await e.proc.start()
        yield e


async def test_games_saved_before_the_protocol_continue_in_the_real_bot(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    await server.wait_until(
        lambda: all("board" in env.game(g).messages for g in (1, 2, 5)),
        30,
        "READY to post the boards the old games never had",
    )
    alice = server.as_user("alice", channel=CHANNELS[1])
    vs_ai = env.game(1)
    assert vs_ai.state.get("v") is None and vs_ai.state["match"]["version"] == 1  # untouched until the next action
    old = Match.from_dict(vs_ai.state["match"])
    place = next(m for m in old.legal_actions(0) if str(m)[0] in "SML")
    res = await answered(await alice.slash("constructo place", tile=int(str(place)[1:]), size=str(place)[0]))
    assert not res.ephemeral, res.text
    await server.wait_until(lambda: env.game(1).version == vs_ai.version + 2, 20, "the AI seat's answer")
    row = env.game(1)
    assert row.state["v"] == 2 and row.engine["version"] == 2 and row.match.current_player == 0
    assert [s["ai"] for s in row.state["seats"]] == [None, "easy"]

    conex = env.game(5)
    game = Game.from_dict(dict(conex.state["conex"], forfeited=conex.state["forfeited"], bots=[]))
    card = game.hands[0][0]
    res = await answered(await server.as_user("alice", channel=CHANNELS[5]).slash("conex discard", card=str(card)))
    assert not res.ephemeral, res.text
    res = await answered(await server.as_user("bob", channel=CHANNELS[5]).slash("conex draw"))
    assert not res.ephemeral, res.text
    row = env.game(5)
    assert row.conex.forfeited == {2} and row.conex.current_player == 0  # the forfeited seat is skipped
    assert (
        "no longer plays"
        in (await answered(await server.as_user("carol", channel=CHANNELS[5]).slash("conex draw"))).text
    )

    res = await answered(await server.as_user("alice", channel=CHANNELS[6]).slash("conex start"))
    row = env.game(6)
    assert row.status == "active" and len(row.players) == 3 and "CONEX started: 3 players" in res.text

    res = await answered(await server.as_user("carol").slash("leaderboard", game="constructo"))
    assert "Alice" in res.text and "Bob" in res.text  # the ratings of the old finished games
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
