"""E2E: the table stays in sight after a CONEX lightning and the discards it owes, through the real bot.

A new-user trial found it: in a game with a thread of its own (``/settings thread_per_game:true``) a discard's board
("Bob discarded a card. ...") came without the table's picture (a discard changes nothing on the table:
``ConexPictures.picture_changed``), and the board before it, the one with the picture, was deleted (the thread keeps
one board), so the thread showed no picture of the table at all. The rule now lives where boards are posted and
deleted (``Publisher.publish``): a game that deletes the board a new one replaces always draws the new one's
picture. In a channel (the setting off) every board stays, stripped, with its picture: a discard still adds no
second identical image there, and the lightning's board above it keeps the table in sight.

The position (three cards on the table, the seat to play holding the lightning star since an earlier turn) is
reached with real placements, then the star is handed to that seat in the stored state while the bot is idle, as
the engine tests do (a deal that rolls the lightning early is luck; the rule under test is the publisher's).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from typing import Any

import pytest
import pytest_asyncio

from devserver import DevServer
from devserver.models import Message

from .helpers import BotEnv, answered, assert_png, bot_env, recorded_board

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = ("cx-thread", "cx-channel")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(tmp_path_factory.mktemp("cxpic"), start=False) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


async def set_threads(server: DevServer, on: bool) -> None:
    res = await answered(await server.as_user("mod").slash("settings", thread_per_game=on))
    assert ("on" if on else "off") in res.text, res.text


def owed_effects(env: BotEnv, game_id: int) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM effects WHERE game_id = ?", (game_id,)).fetchone()[0])


async def settled_board(env: BotEnv, game_id: int) -> Message:
    """The game's board of its stored version, once the outbox owes nothing more (the replaced board deleted)."""
    board = await recorded_board(env, game_id)
    await env.server.wait_until(lambda: owed_effects(env, game_id) == 0, 20, f"the outbox done with game {game_id}")
    return env.server.message(board.id)


def boards_in(server: DevServer, channel_id: int, lobby: int) -> list[Message]:
    """The public board messages left in the channel (every public message but the lobby and pointers)."""
    return [m for m in server.messages(channel_id) if not m.ephemeral and m.id != lobby and "CONEX" not in m.content]


def hand_lightning(env: BotEnv, game_id: int) -> int:
    """Give the seat to play the lightning star, taken a turn ago (X2), in the stored state; returns that seat."""
    row = env.game(game_id)
    game = row.conex
    seat = game.current_player
    assert seat is not None and game.turn >= 1
    game.star_holder["lightning"], game.star_since["lightning"] = seat, game.turn - 1
    assert game.can_lightning(seat)
    state: dict[str, Any] = dict(row.state, engine=game.to_dict())
    with closing(sqlite3.connect(env.db_path, timeout=5)) as conn, conn:
        conn.execute("UPDATE games SET state_json = ? WHERE id = ?", (json.dumps(state), game_id))
    return seat


async def lightning_and_discards(env: BotEnv, channel: str, threads: bool) -> tuple[int, int, list[Message]]:
    """A 3-player game up to a lightning and both discards it owes; returns the game, its channel (the thread,
    with ``threads``), and the board after the lightning then after each discard (as they are once settled)."""
    server = env.server
    await set_threads(server, threads)
    alice = server.as_user("alice", server.channel(channel).id)
    await answered(await alice.slash("conex new", table="small", goal=60))
    row = env.latest_game("conex")
    await server.wait_until(lambda: "lobby" in env.game(row.id).messages, 15, "the lobby recorded")
    lobby = server.message(env.game(row.id).messages["lobby"])
    users = {u.id: u for u in (server.as_user(n, row.channel_id) for n in ("alice", "bob", "carol"))}
    for name in ("bob", "carol"):
        await answered(await server.as_user(name, row.channel_id).click(lobby, "Join"))
    await answered(await users[alice.id].click(server.message(lobby.id), "Start"))
    for _ in range(3):  # one card each on the table (real placements, exact poses from the engine)
        row = env.game(row.id)
        game, seat = row.conex, row.conex.current_player
        place = next(p for c in game.hands[seat] for p in game.find_placements(seat, c, limit=1))
        res = await answered(
            await users[row.players[seat]].slash(
                "conex place", card=str(place.card), corner=place.corner, x=place.x, y=place.y, rotation=place.rotation
            )
        )
        assert not res.ephemeral, res.text
        await server.wait_until(lambda g=row.id, v=row.version: env.game(g).version > v, 20, "the placement stored")
    await settled_board(env, row.id)
    seat = hand_lightning(env, row.id)
    game = env.game(row.id).conex
    free = [tc.card.id for tc in game.table if game.board.is_free(tc.card.id)]
    res = await answered(await users[row.players[seat]].slash("conex lightning", card=free[-1]))
    assert "goes to the bottom" in res.text, res.text
    shown = [await settled_board(env, row.id)]
    for owing in sorted(env.game(row.id).conex.pending_discards):
        game = env.game(row.id).conex
        user = users[env.game(row.id).players[owing]]
        res = await answered(await user.slash("conex discard", card=str(game.hands[owing][0])))
        assert "discarded a card" in res.text, res.text
        shown.append(await settled_board(env, row.id))
    assert not env.game(row.id).conex.pending_discards and len(shown) == 3
    return row.id, row.channel_id, shown


async def test_thread_per_game_the_one_board_left_after_a_discard_shows_the_table(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    game_id, thread, shown = await lightning_and_discards(env, "cx-thread", threads=True)
    assert thread != server.channel("cx-thread").id, "the game has a thread of its own"
    lobby = env.game(game_id).messages["lobby"]
    for board in shown:  # after the lightning and after each discard: one board left, with the table's picture
        assert len(board.images) == 1, f"a board without the table: {board.content!r}"
        assert_png(board.images[0])
    left = boards_in(server, thread, lobby)
    assert [m.id for m in left] == [shown[-1].id], [m.content[:40] for m in left]
    assert "discarded a card" in left[0].content and left[0].images
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_channel_keeps_the_lightning_board_and_adds_no_identical_image(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    _game, channel, shown = await lightning_and_discards(env, "cx-channel", threads=False)
    assert channel == server.channel("cx-channel").id
    assert len(shown[0].images) == 1 and [len(b.images) for b in shown[1:]] == [0, 0]
    lightning_board = server.message(shown[0].id)  # stripped, not deleted: the table stays in sight above
    assert not lightning_board.deleted and lightning_board.components == [] and len(lightning_board.images) == 1
    assert env.violations_since(mark) == [], env.violations_since(mark)
