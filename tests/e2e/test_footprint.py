"""A game's footprint in its channel ("quiet channels", ``bot/services/footprint.py``), through the real bot.

The same games are played with ``/settings thread_per_game`` off (the behaviour before: every board stays in the
channel) and on (a thread per game, one live board there, the result card in the channel), and the public messages
left in the channel and in the game's thread are counted; the figures are printed (``-s``) and kept in
BENCHMARKS.md ("Footprint of a game"). Also: no thread permission falls back to the channel; an aborted game's last
board says the game ended instead of a running clock.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
import pytest_asyncio

from devserver import DevServer
from engine.conex import Game

from .helpers import BotEnv, GameRow, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = (
    "fp-classic",
    "fp-quiet",
    "fp-noperm",
    "fp-abandon",
    "fp-abort",
    "fp-restart",
    "fp-conex-classic",
    "fp-conex-quiet",
)
BOARD_ANSWERS = ("PATCH /webhooks/*/*/messages/@original", "POST /interactions/*/*/callback")
CLOCK_WORDS = "clock is running"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(tmp_path_factory.mktemp("bot"), start=False) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


@dataclass
class Footprint:
    """Public messages (and images) the bot left in a channel and in the threads opened from it."""

    channel: int
    channel_images: int
    thread: int
    thread_images: int


def footprint(server: DevServer, channel_id: int) -> Footprint:
    threads = [c.id for c in server.channels.values() if c.parent_id == channel_id]
    here = [m for m in server.messages(channel_id) if not m.ephemeral]
    there = [m for t in threads for m in server.messages(t) if not m.ephemeral]
    return Footprint(len(here), sum(len(m.images) for m in here), len(there), sum(len(m.images) for m in there))


async def set_threads(server: DevServer, on: bool) -> None:
    res = await answered(await server.as_user("mod").slash("settings", thread_per_game=on))
    assert ("on" if on else "off") in res.text, res.text


async def settled(env: BotEnv, game_id: int, timeout: float = 30.0) -> GameRow:  # noqa: ASYNC109
    """The game once the outbox owes nothing for it (boards, prunes, result card, ended mark)."""

    def owed() -> int:
        with env.db() as conn:
            return int(conn.execute("SELECT count(*) FROM effects WHERE game_id = ?", (game_id,)).fetchone()[0])

    await env.server.wait_until(lambda: owed() == 0, timeout, f"the outbox done with game {game_id}")
    return env.game(game_id)


async def play_constructo_vs_ai(env: BotEnv, user: Any, game_id: int) -> tuple[GameRow, int]:
    """Play the human seat with the first legal action until the match ends; returns the game and the number of
    human actions."""
    moves = 0
    for _ in range(400):
        game = env.game(game_id)
        if game.status != "active":
            return game, moves
        match = game.match
        seat = match.current_player
        if seat is None or game.players[seat] != user.id:
            await asyncio.sleep(0.2)
            continue
        here = user.in_channel(game.channel_id)
        if match.phase == "choosing_layout":
            res = await here.slash("constructo choose", layout="keep")
        else:
            move = match.current_round.legal_moves()[0]
            if move.is_place:
                res = await here.slash("constructo place", tile=move.tile, size=move.size.word)
            else:
                res = await here.slash("constructo move", **{"from": move.src, "to": move.dst})
        await answered(res)
        assert not res.ephemeral, res.text
        moves += 1
        await env.server.wait_until(lambda g=game: env.game(g.id).version > g.version, 20, "the move stored")
    raise AssertionError("the match did not end")


async def constructo_match(env: BotEnv, channel: str, user_name: str) -> tuple[Footprint, GameRow, int]:
    server = env.server
    ch = server.channel(channel)
    user = server.as_user(user_name, ch.id)
    await answered(await user.slash("constructo challenge", opponent="bot", level="easy"))
    game = env.latest_game("constructo")
    game, moves = await play_constructo_vs_ai(env, user, game.id)
    game = await settled(env, game.id)
    return footprint(server, ch.id), game, moves


async def test_constructo_vs_ai_classic_vs_thread_per_game(env: BotEnv) -> None:
    """Off: every board of the match stays in the channel (the AI's turn adds a second one). On: the channel keeps
    the pointer to the thread and the result card; the thread keeps one board; every board the human was to move
    on mentioned them (the notification of each turn)."""
    server = env.server
    mark = env.mark()
    await set_threads(server, False)
    before, game, moves = await constructo_match(env, "fp-classic", "alice")
    assert game.status == "finished" and game.channel_id == server.channel("fp-classic").id
    assert before.thread == 0 and before.channel > moves, before

    await set_threads(server, True)
    after, game, moves_q = await constructo_match(env, "fp-quiet", "bob")
    quiet = server.channel("fp-quiet")
    assert game.status == "finished" and game.channel_id != quiet.id, "the game has a thread of its own"
    assert server.channel(game.channel_id).parent_id == quiet.id
    await server.wait_until(lambda: footprint(server, quiet.id).thread == 1, 15, "one board left in the thread")
    after = footprint(server, quiet.id)
    assert after.channel == 2, [m.content for m in server.messages(quiet.id)]
    pointer, card = [m for m in server.messages(quiet.id) if not m.ephemeral]
    assert f"<#{game.channel_id}>" in pointer.content and pointer.images == []
    assert "is over" in card.content and len(card.images) == 1, card.content  # the result picture, no board
    assert card.id == game.messages["result"]
    (board,) = [m for m in server.messages(game.channel_id) if not m.ephemeral]
    assert board.id == game.messages["board"] and len(board.images) == 2, "the final board with its result card"
    bob = server.user("bob").id
    pinged = [m for m in server.messages(game.channel_id, include_deleted=True) if f"<@{bob}>" in m.content]
    assert len(pinged) >= moves_q, f"bob was notified on {len(pinged)} boards for {moves_q} moves"
    print(
        f"\nConstructo vs AI (easy), {moves} / {moves_q} human actions: thread_per_game off: channel "
        f"{before.channel} messages ({before.channel_images} images); on: channel {after.channel} "
        f"({after.channel_images} images), thread {after.thread} ({after.thread_images} images)"
    )
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_no_thread_permission_keeps_the_game_in_the_channel(env: BotEnv) -> None:
    """Thread per game on but the bot may not create public threads in the channel: the game is opened there, as
    before (nothing refused), and its replaced boards are stripped, not deleted."""
    server = env.server
    mark = env.mark()
    await set_threads(server, True)
    ch = server.channel("fp-noperm")
    await server.set_bot_permissions(ch, deny=["create_public_threads"])
    carol = server.as_user("carol", ch.id)
    res = await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    assert not res.ephemeral, res.text
    game = env.latest_game("constructo")
    assert game.channel_id == ch.id, "no thread without Create Public Threads"
    await answered(await carol.slash("constructo place", tile=5, size="large"))
    await server.wait_until(lambda: env.game(game.id).version >= 2, 20, "the AI's answer")
    await settled(env, game.id)
    boards = [m for m in server.messages(ch.id) if not m.ephemeral and m.images]
    assert len(boards) >= 3, "every board stays in the channel"
    # the publisher strips the board it replaces right after recording the new one (the record ends the owed
    # effect, so "nothing owed" can come a moment before that edit lands)
    await server.wait_until(
        lambda: all(server.message(m.id).components == [] for m in boards[:-1]), 10, "the replaced boards stripped"
    )
    assert footprint(server, ch.id).thread == 0
    await answered(await carol.slash("abandon"))
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def _aborted_board(env: BotEnv, channel: str, user_name: str, threads: bool, abort: str) -> None:
    server = env.server
    await set_threads(server, threads)
    ch = server.channel(channel)
    user = server.as_user(user_name, ch.id)
    await answered(await user.slash("constructo challenge", opponent="bot", level="easy", clock="live"))
    game = env.latest_game("constructo")
    here = user.in_channel(game.channel_id)
    await answered(await here.slash("constructo place", tile=5, size="large"))
    await server.wait_until(lambda: env.game(game.id).version >= 2, 20, "the AI's answer")
    board_id = (await settled(env, game.id)).messages["board"]
    assert CLOCK_WORDS in server.message(board_id).content
    since = len(server.request_log)
    if abort == "abandon":
        await answered(await here.slash("abandon"))  # against the AI alone: aborted at once
    else:
        await answered(await server.as_user("mod", game.channel_id).slash("abort"))
    game = await settled(env, game.id, timeout=3.0)  # the ended mark is done by the aborting process, not later
    assert game.status == "aborted"
    board = server.message(board_id)
    assert CLOCK_WORDS not in board.content and "aborted" in board.content, board.content
    assert board.components == [] and len(board.images) == 1, "stripped, the picture kept"
    edits = [r for r in server.request_log[since:] if r.method == "PATCH" and r.path.endswith(f"/messages/{board_id}")]
    assert len(edits) == 1, f"the last board is edited once, not again by the outbox: {edits}"


async def test_abandon_last_board_says_the_game_ended(env: BotEnv) -> None:
    """``/abandon`` of a game with a live clock: its last board no longer says a clock runs; it says aborted."""
    mark = env.mark()
    await _aborted_board(env, "fp-abandon", "dave", threads=False, abort="abandon")
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_admin_abort_last_board_says_the_game_ended_in_its_thread(env: BotEnv) -> None:
    """``/abort`` by an admin of a game in a thread of its own: same, on the board in the thread."""
    mark = env.mark()
    await _aborted_board(env, "fp-abort", "alice", threads=True, abort="abort")
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def conex_vs_ai(env: BotEnv, channel: str, user_name: str) -> tuple[Footprint, GameRow, int]:
    """A CONEX game (goal 20) against one AI seat; the human draws while it can, then passes."""
    server = env.server
    ch = server.channel(channel)
    user = server.as_user(user_name, ch.id)
    await answered(await user.slash("conex new", goal=20))
    game = env.latest_game("conex")
    # without a thread of its own the lobby is the command's answer, recorded just after it is posted
    await server.wait_until(lambda: "lobby" in env.game(game.id).messages, 15, "the lobby message recorded")
    lobby = server.message(env.game(game.id).messages["lobby"])
    here = user.in_channel(game.channel_id)
    await answered(await here.click(lobby, "Add bot"))
    await answered(await here.click(server.message(lobby.id), "Start"))
    turns = 0
    for _ in range(600):
        game = env.game(game.id)
        if game.status != "active":
            break
        state: Game = game.conex
        seat = game.players.index(user.id)
        if seat in state.pending_discards:  # the AI used a lightning (X3): discard first
            res = await answered(await here.slash("conex discard", card=str(state.hands[seat][0])))
        elif state.current_player is None or game.players[state.current_player] != user.id:
            await asyncio.sleep(0.2)
            continue
        else:
            res = await answered(await here.slash("conex draw" if state.draw_pile else "conex pass"))
        assert not res.ephemeral, res.text
        turns += 1
        await server.wait_until(lambda g=game: env.game(g.id).version > g.version, 20, "the turn stored")
    game = await settled(env, game.id)
    assert game.status == "finished", game.status
    return footprint(server, ch.id), game, turns


async def test_conex_vs_ai_classic_vs_thread_per_game(env: BotEnv) -> None:
    """CONEX against the AI to its end, off then on: the channel keeps the pointer and the result card."""
    server = env.server
    mark = env.mark()
    await set_threads(server, False)
    before, _game, turns = await conex_vs_ai(env, "fp-conex-classic", "carol")
    await set_threads(server, True)
    after, game, turns_q = await conex_vs_ai(env, "fp-conex-quiet", "dave")
    quiet = server.channel("fp-conex-quiet").id
    await server.wait_until(lambda: footprint(server, quiet).thread == 2, 15, "the lobby and one board left")
    after = footprint(server, quiet)
    assert after.channel == 2 and after.thread == 2, after  # pointer + result card; lobby + the final board
    pointer, card = [m for m in server.messages(quiet) if not m.ephemeral]
    assert "lobby" in pointer.content and f"<#{game.channel_id}>" in pointer.content, pointer.content
    assert card.id == game.messages["result"] and len(card.images) == 1, card.content
    print(
        f"\nCONEX vs AI (goal 20), {turns} / {turns_q} human turns: thread_per_game off: channel {before.channel} "
        f"messages ({before.channel_images} images); on: channel {after.channel} ({after.channel_images} images), "
        f"thread {after.thread} ({after.thread_images} images)"
    )
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_killed_as_its_board_arrives_the_thread_still_keeps_one_board(env: BotEnv) -> None:
    """The bot is SIGKILLed the moment a move's board reaches Discord in the game's thread (before it is recorded
    and before the board it replaces is deleted). After the restart the outbox records that board (never posts it
    twice), deletes the replaced one, and the AI answers: the thread again holds one board, the latest."""
    server = env.server
    mark = env.mark()
    await set_threads(server, True)
    ch = server.channel("fp-restart")
    eve = server.as_user("carol", ch.id)
    await answered(await eve.slash("constructo challenge", opponent="bot", level="easy"))
    game = env.latest_game("constructo")
    assert game.channel_id != ch.id
    here = eve.in_channel(game.channel_id)
    await answered(await here.slash("constructo place", tile=5, size="large"))
    await server.wait_until(lambda: env.game(game.id).version >= 2, 20, "the AI's answer")
    await settled(env, game.id)
    proc = env.proc

    def kill(_method: str, _path: str) -> None:
        if proc.proc is not None and proc.proc.returncode is None:
            os.kill(proc.proc.pid, signal.SIGKILL)

    hooks = [server.on_request(pattern, kill, files_only=True) for pattern in BOARD_ANSWERS]
    move = env.game(game.id).match.current_round.legal_moves()[0]
    assert move.is_place
    await here.slash("constructo place", tile=move.tile, size=move.size.word)
    await server.wait_until(lambda: not proc.running, 20, "the bot killed as its board arrived")
    for hook in hooks:
        hook.count = hook.hits  # disarm the other one
    await proc.kill()
    await proc.start()
    await server.wait_until(lambda: env.game(game.id).version >= 4, 30, "the AI's answer after the restart")
    done = await settled(env, game.id, timeout=60)
    await server.wait_until(
        lambda: len([m for m in server.messages(game.channel_id) if not m.ephemeral]) == 1, 30, "one board"
    )
    (board,) = [m for m in server.messages(game.channel_id) if not m.ephemeral]
    assert board.id == done.messages["board"] and done.messages["board.version"] == done.version
    await answered(await here.slash("abandon"))
    assert env.violations_since(mark) == [], env.violations_since(mark)


async def test_rematch_from_the_thread_keeps_the_thread_quiet(env: BotEnv) -> None:
    """A Rematch clicked on the final board in the game's thread opens the next game in that thread, as a game of
    its own there: its replaced boards are deleted too (the earlier game's final board stays)."""
    server = env.server
    mark = env.mark()
    await set_threads(server, True)
    first = env.latest_game("constructo", None)
    first = next(  # the finished match of test_constructo_vs_ai_classic_vs_thread_per_game, in bob's thread
        g
        for g in (env.game(i) for i in range(first.id, 0, -1))
        if g.status == "finished" and g.players[0] == server.user("bob").id
    )
    thread = first.channel_id
    bob = server.as_user("bob", thread)
    res = await answered(await bob.click(server.message(first.messages["board"]), "Rematch"))
    assert not res.ephemeral, res.text
    second = env.latest_game("constructo", thread)
    assert second.id != first.id and second.status == "active"
    assert second.state["extra"]["footprint"] == {"parent": server.channel("fp-quiet").id}
    for _ in range(2):
        game = env.game(second.id)
        match = game.match
        if game.players[match.current_player] != bob.id:  # the AI starts the rematch
            await server.wait_until(lambda g=game: env.game(g.id).version > g.version, 20, "the AI's move")
            continue
        move = match.current_round.legal_moves()[0]
        await answered(await bob.slash("constructo place", tile=move.tile, size=move.size.word))
        await server.wait_until(lambda g=game: env.game(g.id).version > g.version, 20, "bob's move stored")
    await server.wait_until(lambda: env.game(second.id).version >= 3, 20, "three moves")
    await settled(env, second.id)
    left = [m.id for m in server.messages(thread) if not m.ephemeral]
    assert left == [first.messages["board"], env.game(second.id).messages["board"]], left
    await answered(await bob.slash("abandon"))
    assert env.violations_since(mark) == [], env.violations_since(mark)
