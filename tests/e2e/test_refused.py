"""E2E: posts and edits Discord refuses mid-game, against the real bot process (``bot/services/refusals.py``).

Whatever Discord refuses (a file over the server's upload limit: 413/40005; the player's own "thinking" answer
refused; a thread archived or locked by a moderator: 50083/160005; a channel the bot can no longer see: 50001),
the action stays applied and stored, the board reaches the players by the next best way (a smaller picture, the
text board, a followup of a live interaction) and the game goes on. What the players see is asserted on the
devserver's messages.

One bot process for the module; each scenario has its own channels.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PIL import Image

from bot.games.constructo.payload import legal_placements

from .helpers import EDIT_ORIGINAL, BotEnv, answered, assert_png, bot_env, buttons, recorded_board

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = ("big-1", "think-1", "think-2", "thread-1", "seen-1", "hand-1", "embed-1")
DEFAULT_LIMIT = 10 * 1024 * 1024


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("refused"))
    async with bot_env(tmp, start=False) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


async def human_game(env: BotEnv, channel: str) -> int:
    """alice challenges bob in ``channel`` and bob accepts: the running Constructo game's id (alice to move)."""
    server = env.server
    res = await answered(await server.as_user("alice", channel).slash("constructo challenge", opponent="bob"))
    await answered(await server.as_user("bob", channel).click(res.message, "Accept"), followups=1)
    return env.latest_game("constructo", server.channel(channel).id).id


async def recorded(env: BotEnv, game_id: int, version: int) -> None:
    """Wait until the board of ``version`` is recorded (just after it is posted)."""
    await env.server.wait_until(
        lambda: env.game(game_id).messages.get("board.version") == version, 20, f"the board of v{version} recorded"
    )


def width(png: bytes) -> int:
    with Image.open(io.BytesIO(png)) as img:
        return int(img.size[0])


def no_traceback(env: BotEnv) -> None:
    assert "Traceback" not in env.log_tail(50000), env.log_tail(4000)


async def test_board_over_the_upload_limit_comes_smaller_then_as_text(env: BotEnv) -> None:
    """The server's upload limit drops below the board's size mid-game: the move is answered with a smaller
    picture (within the limit, at least 400 px wide, saying so); with a limit no picture can meet, with the text
    board. Every move is stored, the answer is the recorded board, and the game goes on."""
    server = env.server
    mark = env.mark()
    game_id = await human_game(env, "big-1")
    first = (await recorded_board(env, game_id)).images[0]  # Accept's board, recorded just after its followup
    limit = len(first) * 3 // 4
    server.set_upload_limit(limit)
    try:
        alice, bob = server.as_user("alice", "big-1"), server.as_user("bob", "big-1")
        move = await answered(await alice.slash("constructo place", tile=5, size="large"), timeout=30)
        await recorded(env, game_id, 2)
        row = env.game(game_id)
        assert row.version == 2 and row.messages["board"] == move.message.id, "stored and recorded as the board"
        assert "L5" in move.content and "smaller picture" in move.content, move.content
        assert not move.ephemeral and len(move.message.images) == 1
        small = move.message.images[0]
        assert len(small) <= limit and width(small) >= 400, (len(small), limit, width(small))
        assert_png(small, min_long_side=400)

        server.set_upload_limit(2_000)  # no picture of a board fits: the text board
        move = await answered(await bob.slash("constructo place", tile=1, size="small"), timeout=30)
        await recorded(env, game_id, 3)
        row = env.game(game_id)
        assert row.version == 3 and row.messages["board"] == move.message.id
        assert not move.message.images and not move.ephemeral
        assert "S1" in move.content and "board as text" in move.content, move.content
        assert buttons(move.message), "the text board keeps the components to play"
    finally:
        server.set_upload_limit(DEFAULT_LIMIT)
    move = await answered(await alice.slash("constructo place", tile=2, size="medium"), timeout=30)
    assert env.game(game_id).version == 4 and move.message.images and "smaller" not in move.content
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_refused_edit_of_the_thinking_answer_is_replaced_by_a_followup(env: BotEnv) -> None:
    """Discord refuses to edit the move's "thinking" answer (a 400, then five 5xx in a row: discord.py's retries
    exhausted): the answer is filled by a followup with the board (never left "thinking…"), the move is stored and
    the board recorded; the game goes on. The move reaches the bot 1.2 s late (gateway lag), past the time within
    which its board may be its first response, so it is answered "thinking…" first."""
    server = env.server
    mark = env.mark()
    for channel, status, count, code in (("think-1", 400, 1, 50035), ("think-2", 503, 5, 0)):
        game_id = await human_game(env, channel)
        alice, bob = server.as_user("alice", channel), server.as_user("bob", channel)
        lag = server.inject_interaction_failure("constructo place", code=None, delay=1.2)
        fault = server.inject(EDIT_ORIGINAL, status, count, code=code)
        move = await answered(await alice.slash("constructo place", tile=5, size="large"), timeout=60)
        assert fault.hits == count and lag.hits == 1 and move.response_type == 5
        answer = move.message
        assert answer is not None and not answer.loading and not answer.deleted, "never left thinking"
        assert "L5" in answer.content and answer.images and not answer.ephemeral, answer.content
        await recorded(env, game_id, 2)
        row = env.game(game_id)
        assert row.version == 2 and row.messages["board"] == answer.id
        move = await answered(await bob.slash("constructo place", tile=1, size="small"), timeout=30)
        assert env.game(game_id).version == 3 and "S1" in move.content and move.message.images
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_archived_then_locked_thread_the_game_goes_on(env: BotEnv) -> None:
    """A game against the AI in a thread (the channel being busy). After a restart (no live interaction), the
    thread archived: the old board's buttons are still removed (the thread is unarchived for the edit). The thread
    locked (the bot without Manage Threads), and the move's own interaction dead: the move is stored, the channel
    refuses its board (160005), and the next one who asks is told why with the board; the AI's answer reaches them
    too."""
    server = env.server
    mark = env.mark()
    await human_game(env, "thread-1")  # the channel is busy: the next game opens a thread
    carol = server.as_user("carol", "thread-1")
    await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"), timeout=30)
    game_id = env.latest_game("constructo").id
    thread = server.channel(env.game(game_id).channel_id)
    assert thread.is_thread, "the busy channel's second game is in a thread"
    await server.wait_until(lambda: "board" in env.game(game_id).messages, 20, "the first board")
    carol = server.as_user("carol", thread.id)

    await env.proc.restart()
    old_board = env.game(game_id).messages["board"]
    await server.set_thread_state(thread, archived=True)
    move = await answered(await carol.slash("constructo place", tile=5, size="large"), timeout=30)
    assert "L5" in move.content and move.message.images
    await server.wait_until(lambda: env.game(game_id).version == 2, 30, "the AI's answer")
    await server.wait_until(
        lambda: env.game(game_id).messages.get("board.version") == 2, 20, "the AI's board to be recorded"
    )
    await server.wait_until(lambda: not buttons(server.message(old_board)), 20, "the old board to lose its buttons")
    assert not server.channel(thread.id).archived, "unarchived to edit the old board"

    await env.proc.restart()
    await server.set_bot_permissions("thread-1", deny=["manage_threads"])  # a moderator's lock then binds the bot
    await server.set_thread_state(thread, locked=True)
    server.inject_interaction_failure("constructo place")
    match = env.game(game_id).match
    placement = next(m for m in legal_placements(match, match.current_player) if m.tile and m.size)
    tile, size = int(placement.tile), str(placement.size.name).lower()
    refused = env.proc.log().count("may not post in channel")  # the log is kept across restarts: this move's line
    dead = await carol.slash("constructo place", tile=tile, size=size)
    await server.wait_until(lambda: env.game(game_id).version == 3, 20, "the move to be stored")
    await server.wait_until(lambda: env.proc.log().count("may not post in channel") > refused, 20, "the refused post")
    assert dead.failed, "Discord refused the move's first response (10062)"
    assert env.game(game_id).messages.get("board.version") == 2, "nothing could carry the board yet"
    res = await answered(await carol.slash("constructo board"), followups=1, timeout=30)
    assert "the thread is locked" in res.message.content and res.message.images and not res.ephemeral
    await server.wait_until(lambda: env.game(game_id).version == 4, 30, "the AI's answer")
    await server.wait_until(lambda: env.game(game_id).messages.get("board.version") == 4, 20, "the AI's board")
    assert env.game(game_id).messages["board"] == res.followups[0].id and res.followups[0].images
    await server.set_thread_state(thread, locked=False)
    await server.set_bot_permissions("thread-1", reset=True)
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_channel_out_of_sight_boards_come_through_the_players_interaction(env: BotEnv) -> None:
    """The bot loses View Channel mid-game against the AI (50001 on every channel post): the player's move is
    answered as usual and the AI's board comes as a followup of the player's interaction, saying why; the game goes
    on."""
    server = env.server
    mark = env.mark()
    dave = server.as_user("dave", "seen-1")
    await answered(await dave.slash("constructo challenge", opponent="bot", level="easy"), timeout=30)
    game_id = env.latest_game("constructo", server.channel("seen-1").id).id
    await server.set_bot_permissions("seen-1", deny=["view_channel"])
    try:
        res = await answered(await dave.slash("constructo place", tile=5, size="large"), followups=1, timeout=30)
        assert "L5" in res.message.content and res.message.images
        note = res.followups[0]
        assert "could not post" in note.content and note.images and not note.ephemeral, note.content
        await recorded(env, game_id, 2)
        row = env.game(game_id)
        assert row.version == 2 and row.messages["board"] == note.id
    finally:
        await server.set_bot_permissions("seen-1", reset=True)
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_embed_links_removed_mid_game_changes_nothing_the_players_see(env: BotEnv) -> None:
    """Embed Links taken away mid-game (the bot sends no embeds): the move and the AI's answer are posted as
    usual, pictures included, and stored."""
    server = env.server
    mark = env.mark()
    dave = server.as_user("dave", "embed-1")
    await answered(await dave.slash("constructo challenge", opponent="bot", level="easy"), timeout=30)
    game_id = env.latest_game("constructo", server.channel("embed-1").id).id
    await server.set_bot_permissions("embed-1", deny=["embed_links"])
    try:
        res = await answered(await dave.slash("constructo place", tile=5, size="large"), timeout=30)
        assert "L5" in res.content and res.message.images
        await server.wait_until(lambda: env.game(game_id).version == 2, 30, "the AI's answer")
        await recorded(env, game_id, 2)
        board = server.message(env.game(game_id).messages["board"])
        assert board.images and not board.ephemeral and "could not" not in board.content
    finally:
        await server.set_bot_permissions("embed-1", reset=True)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_private_hand_over_the_upload_limit_comes_smaller_then_without_picture(env: BotEnv) -> None:
    """CONEX, the server's upload limit lowered mid-game: My hand answers privately with a smaller picture
    within the limit; with a limit no picture meets, with the hand's text alone, saying the picture was left out.
    Never "thinking" for good; the game goes on (its table still posted)."""
    server = env.server
    mark = env.mark()
    erin = server.as_user("carol", "hand-1")
    lobby = await answered(await erin.slash("conex new", table="small"))
    await answered(await erin.click(lobby, "Add bot"))
    await answered(await erin.click(lobby, "Start"), followups=1, timeout=30)
    game_id = env.latest_game("conex", server.channel("hand-1").id).id
    full = await answered(await erin.slash("conex hand"), timeout=30)
    await server.wait_until(lambda: bool(full.images), 30, "the hand's picture")
    size = len(full.images[0])
    try:
        server.set_upload_limit(size * 3 // 4)
        small = await answered(await erin.slash("conex hand"), timeout=30)
        await server.wait_until(lambda: bool(small.images), 10, "the smaller hand picture")
        assert small.ephemeral and len(small.images[0]) <= size * 3 // 4 and width(small.images[0]) >= 400
        server.set_upload_limit(2_000)
        bare = await answered(await erin.slash("conex hand"), timeout=30)
        msg = bare.message
        assert msg is not None and not msg.loading and bare.ephemeral and not bare.images
        assert "picture left out" in bare.text and "A" in bare.text, bare.text
    finally:
        server.set_upload_limit(DEFAULT_LIMIT)
    assert env.game(game_id).status == "active"
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)
