"""E2E: players who leave mid-game (issue 22, rule L1) through the real bot process and the DevServer.

The bot runs without the privileged members intent (as by default), so the DevServer's GUILD_MEMBER_REMOVE never
reaches it: a departure is seen when the game needs the player (a member fetch answering 10007 after a move, or
the idle sweep, ``DEPARTURE_CHECK=1`` here) and a hidden channel on its CHANNEL_UPDATE. Every case: the seat is
forfeited through the engine's ``Forfeit`` (logged ``forfeit`` by the leaver), the channel is told in words, the
game goes on (CONEX, two seats left) or ends rated as a forfeit (Constructo, M3).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import CommandUsageError

from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

SIZES = {"S": "small", "M": "medium", "L": "large"}
WAIT_S = 15.0


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("leavers")), extra_env={"DEPARTURE_CHECK": "1"}) as e:
        yield e


async def constructo_game(env: BotEnv, host: str, guest: str, channel: str) -> int:
    server = env.server
    res = await answered(await server.as_user(host, channel).slash("constructo challenge", opponent=guest))
    await answered(await server.as_user(guest, channel).click(res.message, "Accept"), followups=1)
    row = env.latest_game("constructo", server.channel(channel).id)
    assert row.status == "active"
    return row.id


async def constructo_move(env: BotEnv, game_id: int, channel: str) -> None:
    """The player to move places the first legal chip by ``/constructo place``."""
    row = env.game(game_id)
    match = row.match
    user = env.server.as_user(env.server.user(row.players[match.current_player]).name, channel)
    move = sorted(str(m) for m in match.current_round.legal_moves() if "-" not in str(m))[0]
    before = row.version
    await answered(await user.slash("constructo place", tile=int(move[1:]), size=SIZES[move[0]]))
    assert env.game(game_id).version > before  # (a departure seen at once may follow it)


def channel_texts(env: BotEnv, channel: str) -> str:
    return "\n".join(m.content or "" for m in env.server.messages(channel) if not m.ephemeral)


async def test_conex_player_who_cannot_see_the_channel_forfeits_and_the_others_play_on(env: BotEnv) -> None:
    server = env.server
    alice, bob, carol = (server.as_user(n, "general") for n in ("alice", "bob", "carol"))
    lobby = (await answered(await alice.slash("conex new", table="small"))).message
    for user in (bob, carol):
        await answered(await user.click(lobby, "Join"))
    await answered(await alice.click(lobby, "Start"), followups=1)
    row = env.latest_game("conex", server.channel("general").id)
    carol_seat = row.players.index(carol.id)

    await server.set_user_permissions("general", "carol", deny=["view_channel"])  # CHANNEL_UPDATE
    await server.wait_until(
        lambda: carol_seat in env.game(row.id).conex.forfeited, WAIT_S, "carol's seat to be forfeited (L1)"
    )
    after = env.game(row.id)
    assert after.status == "active", "two seats remain: the game goes on"
    assert env.actions(row.id)[-1][1:] == (carol.id, "forfeit"), "the engine's Forfeit, by the seat that left"
    assert carol_seat not in after.conex.awaiting()
    await server.wait_until(
        lambda: "can no longer see this channel" in channel_texts(env, "general"), WAIT_S, "the channel to be told why"
    )
    assert "Carol" in channel_texts(env, "general")
    # alice and bob still play (three rounds): the player to move is one of them and may act
    for _ in range(6):
        after = env.game(row.id)
        game = after.conex
        mover = server.as_user(server.user(after.players[game.current_player]).name, "general")
        assert mover.user.id in (alice.id, bob.id)
        await answered(await mover.slash("conex draw" if game.draw_pile else "conex pass"))
        assert env.game(row.id).version > after.version
    # the seat that left is said once, not again each time play passes over it
    said = channel_texts(env, "general")
    assert said.count("seat is skipped") == 1 and said.count("Carol left the game") == 1, said
    await server.set_user_permissions("general", "carol")  # the overwrite removed again
    await answered(await server.as_user("mod", "general").slash("abort"))
    env.assert_alive()


async def test_constructo_opponent_who_left_the_server_loses_when_the_game_needs_them(env: BotEnv) -> None:
    server = env.server
    game_id = await constructo_game(env, "alice", "dave", "games")
    row = env.game(game_id)
    dave = server.user("dave")
    if row.players[row.match.current_player] != dave.id:  # alice first: her move, so dave moves too (rated)
        await constructo_move(env, game_id, "games")
    await constructo_move(env, game_id, "games")  # dave's move; then it is alice's turn
    ratings = env.ratings("constructo")

    await server.remove_member("dave")  # GUILD_MEMBER_REMOVE: not delivered without the members intent
    with pytest.raises(CommandUsageError):
        await server.as_user("dave", "games").slash("constructo board")
    await constructo_move(env, game_id, "games")  # now the game needs dave: the member fetch answers 10007
    await server.wait_until(lambda: env.game(game_id).status == "finished", WAIT_S, "the game to end (L1)")
    done = env.game(game_id)
    alice = server.user("alice")
    assert done.result["reason"] == "M3", done.result
    assert {int(k): v for k, v in done.result["results"].items()} == {alice.id: "win", dave.id: "loss"}
    assert done.result["rated"]
    assert env.actions(game_id)[-1][1:] == (dave.id, "forfeit")
    await server.wait_until(lambda: "left this server" in channel_texts(env, "games"), WAIT_S, "the notice")
    after, none = env.ratings("constructo"), (0.0, 0, 0, 0, 0)
    old_alice, old_dave = ratings.get(alice.id, none), ratings.get(dave.id, none)
    assert after[alice.id][1:3] == (old_alice[1] + 1, old_alice[2] + 1), "a rated win for alice"
    assert after[dave.id][1] == old_dave[1] + 1 and after[dave.id][3] == old_dave[3] + 1, "a rated loss for dave"
    env.assert_alive()


async def test_no_clock_game_waiting_on_a_player_who_left_moves_on_by_the_sweep(env: BotEnv) -> None:
    server = env.server
    game_id = await constructo_game(env, "alice", "bob", "games-2")
    row = env.game(game_id)
    bob = server.user("bob")
    if row.players[row.match.current_player] != bob.id:
        await constructo_move(env, game_id, "games-2")  # alice moves: now the game waits for bob
    assert env.game(game_id).players[env.game(game_id).match.current_player] == bob.id
    await server.remove_member("bob")  # nobody acts any more: the idle sweep (or the last move's check) sees it
    await server.wait_until(lambda: env.game(game_id).status == "finished", WAIT_S, "the sweep to forfeit bob (L1)")
    done = env.game(game_id)
    assert done.result["reason"] == "M3", done.result
    assert env.actions(game_id)[-1][1:] == (bob.id, "forfeit")
    await server.wait_until(lambda: "Bob left this server" in channel_texts(env, "games-2"), WAIT_S, "the notice")
    env.assert_alive()
