"""E2E (issue 13): honest delivery when Discord or the disk misbehaves, against the real bot process.

- slow storage: the SQLite write lock held by another process for 4 s, and every storage call stalled for 20 s
  (``$TABLEBOT_STORAGE_STALL_FILE``, bot/storage/faults.py): commands, components and autocomplete still get
  their first response within Discord's 3 s, and the final answer matches what is stored;
- the bot's permissions (``set_bot_permissions``), and late first responses (``inject_interaction_failure``).

One bot process for the module; each scenario has its own channels.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.result import InteractionResult

from .helpers import BotEnv, answered, assert_png, assert_refusal, bot_env, buttons

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = (
    "slow-1",
    "slow-2",
    "slow-3",
    "perm-1",
    "perm-2",
    "perm-3",
    "perm-4",
    "late-1",
    "late-2",
    "late-3",
    "late-4",
)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("delivery"))
    stall = tmp / "stall"
    async with bot_env(tmp, start=False, extra_env={"TABLEBOT_STORAGE_STALL_FILE": str(stall)}) as e:
        for name in CHANNELS:
            e.server.add_channel(name)
        await e.proc.start()
        yield e


def stall_storage(env: BotEnv, seconds: float) -> None:
    """Every storage call of the bot waits until ``seconds`` from now."""
    (env.data_dir.parent / "stall").write_text(str(time.time() + seconds))


def hold_write_lock(db: Path, seconds: float, release: threading.Event | None = None) -> None:
    """Another process holds the SQLite write lock for ``seconds`` (run in a thread), or until ``release`` is set if
    that comes first."""
    with closing(sqlite3.connect(db, timeout=5, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        if release is None:
            time.sleep(seconds)
        else:
            release.wait(seconds)
        conn.execute("ROLLBACK")


def free_placement(env: BotEnv, game_id: int) -> tuple[int, str]:
    """A legal placement for the player to move in the stored Constructo game."""
    from bot.games.constructo.payload import legal_placements

    match = env.game(game_id).match
    move = next(m for m in legal_placements(match, match.current_player) if m.tile and m.size)
    return int(move.tile), str(move.size.name).lower()


def first_response_s(res: InteractionResult) -> float:
    it = res.interaction
    assert it.response_type is not None, f"no first response: {res!r}"
    return float(it.responded_at - it.created_at)


async def challenge(env: BotEnv, channel: str) -> tuple[InteractionResult, int]:
    alice = env.server.as_user("alice", channel)
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    return res, env.latest_game("constructo", env.server.channel(channel).id).id


async def test_write_lock_held_4s_component_answered_in_time_and_true(env: BotEnv) -> None:
    """Accept while another process holds the write lock for 4 s: answered within 3 s (a deferred update), then
    the game starts, its board is posted and the challenge loses its buttons."""
    server = env.server
    mark = env.mark()
    res, game_id = await challenge(env, "slow-1")
    bob = server.as_user("bob", "slow-1")
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, env.db_path, 4.0))
    await asyncio.sleep(0.2)
    click = await answered(await bob.click(res.message, "Accept"), timeout=30)
    await holder
    assert first_response_s(click) < 3.0
    await server.wait_until(
        lambda: env.game(game_id).status == "active" and "board" in env.game(game_id).messages,
        20,
        "the started game's board",
    )
    board = server.message(env.game(game_id).messages["board"])
    assert_png(board.images[0])
    await server.wait_until(lambda: not buttons(server.message(res.message.id)), 10, "the challenge to lose Accept")
    assert env.violations_since(mark) == [], env.log_tail()


async def test_storage_stalled_every_kind_answers_in_time(env: BotEnv) -> None:
    """Storage stalled 4 s, then 20 s: a command, a component and an autocomplete each get their first response
    within 3 s; the autocomplete offers nothing rather than nothing in time; the move and the acceptance are
    applied once the storage answers, and what the players read says so."""
    server = env.server
    mark = env.mark()
    res2, game2 = await challenge(env, "slow-2")
    bob2 = server.as_user("bob", "slow-2")
    await answered(await bob2.click(res2.message, "Accept"), followups=1)
    res3, game3 = await challenge(env, "slow-3")
    alice2 = server.as_user("alice", "slow-2")
    for stall, tile in ((4.0, 5), (20.0, 1)):
        version = env.game(game2).version
        stall_storage(env, stall)
        move = await alice2.slash("constructo place", tile=tile, size="large")
        it = await server.create_interaction(
            alice2.user, alice2.channel, 4, alice2._command_data("constructo place", {"tile": ""}, focused="tile")
        )
        auto = InteractionResult(server, it)
        results = [move, auto]
        if stall == 20.0:
            results.append(await server.as_user("bob", "slow-3").click(res3.message, "Accept"))
        await asyncio.sleep(3.2)
        for r in results:
            assert not r.failed, f"{r!r} failed with storage stalled {stall} s"
            assert first_response_s(r) < 3.0, r
        assert auto.response_type == 8 and auto.choices == []
        await answered(move, timeout=stall + 20)
        assert env.game(game2).version == version + 1, "the move is applied once storage answers"
        assert f"L{tile}" in move.text and move.images, move.text
        assert not move.ephemeral
        bob2 = server.as_user("bob", "slow-2")
        await answered(await bob2.slash("constructo place", tile=tile + 1, size="small"), timeout=20)
    await server.wait_until(
        lambda: env.game(game3).status == "active" and "board" in env.game(game3).messages,
        30,
        "the accepted game's board",
    )
    await server.wait_until(lambda: not buttons(server.message(res3.message.id)), 10, "the challenge to lose Accept")
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


def games_in(env: BotEnv, channel: str) -> int:
    with env.db() as conn:
        return int(
            conn.execute(
                "SELECT count(*) FROM games WHERE channel_id = ?", (env.server.channel(channel).id,)
            ).fetchone()[0]
        )


async def test_missing_permissions_refuse_before_a_game_starts(env: BotEnv) -> None:
    """Without Attach Files (then Send Messages) in the channel, a challenge of the AI, /conex new, Accept, Start
    and Add bot are refused privately naming what is missing, in the player's language; nothing is stored or
    started. Granted again, the same actions work."""
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice", "perm-1"), server.as_user("bob", "perm-1")
    pending, pending_id = await challenge(env, "perm-1")  # opened while the bot may still post
    alice2 = server.as_user("alice", "perm-2")
    lobby = await answered(await alice2.slash("conex new", table="small"))
    lobby_id = env.latest_game("conex", server.channel("perm-2").id).id
    for channel in ("perm-1", "perm-2"):
        await server.set_bot_permissions(channel, deny=["attach_files"])

    res = await answered(await alice.slash("constructo challenge", opponent="bot", level="easy"))
    assert_refusal(res, "Attach Files", "Permissions")
    res = await answered(await bob.click(pending, "Accept"))
    assert_refusal(res, "Attach Files")
    assert env.game(pending_id).status == "lobby" and buttons(server.message(pending.message.id))
    res = await answered(await alice2.click(lobby, "Add bot"))
    assert_refusal(res, "Attach Files")
    res = await answered(await server.as_user("bob", "perm-2").click(lobby, "Join"))  # joining needs no post
    res = await answered(await alice2.click(lobby, "Start"))
    assert_refusal(res, "Attach Files")
    assert env.game(lobby_id).status == "lobby" and env.game(lobby_id).players[1:] == [server.user("bob").id]
    await server.set_bot_permissions("perm-1", deny=["send_messages"])
    res = await answered(await server.as_user("carol", "perm-1").slash("conex new", table="small"))
    assert_refusal(res, "Send Messages and Attach Files")
    assert games_in(env, "perm-1") == 1, "nothing stored"

    await server.set_bot_permissions("perm-1", allow=["attach_files", "send_messages"])
    await server.set_bot_permissions("perm-2", allow=["attach_files"])
    res = await answered(await bob.click(pending, "Accept"), followups=1)
    assert env.game(pending_id).status == "active"
    res = await answered(await alice2.click(lobby, "Start"), followups=1)
    assert env.game(lobby_id).status == "active"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_permission_lost_mid_game_the_player_is_told_and_still_sees_the_boards(env: BotEnv) -> None:
    """Against the AI, the bot loses Send Messages: the player's move is answered as usual and the AI's board,
    refused in the channel, comes as a followup of the player's interaction naming what is missing. With only
    Attach Files missing the AI's board is posted as text. After a restart nothing can carry it: the board is
    marked blocked and the next one who touches the game is told, with the board."""
    server = env.server
    mark = env.mark()
    carol = server.as_user("carol", "perm-3")
    await answered(await carol.slash("constructo challenge", opponent="bot", level="easy"))
    game_id = env.latest_game("constructo", server.channel("perm-3").id).id
    await server.set_bot_permissions("perm-3", deny=["send_messages"])
    version = env.game(game_id).version
    res = await answered(await carol.slash("constructo place", tile=5, size="large"), followups=1, timeout=30)
    assert "L5" in res.message.content and res.message.images, res.message.content
    note = res.followups[0]
    assert "could not post" in note.content and "Send Messages" in note.content and note.images
    assert not note.ephemeral
    row = env.game(game_id)
    assert row.version == version + 2
    assert row.messages["board"] == note.id and row.messages["board.version"] == row.version

    await server.set_bot_permissions("perm-3", allow=["send_messages"], deny=["attach_files"])
    before = len(server.messages("perm-3"))
    tile, size = free_placement(env, game_id)
    res = await answered(await carol.slash("constructo place", tile=tile, size=size), timeout=30)
    assert not res.ephemeral, res.text
    await server.wait_until(
        lambda: (
            env.game(game_id).messages.get("board.version") == env.game(game_id).version
            and env.game(game_id).version == version + 4
        ),
        20,
        "the AI's board as text",
    )
    text_board = server.message(env.game(game_id).messages["board"])
    assert text_board.id not in [m.id for m in server.messages("perm-3")[:before]]
    assert "board as text" in text_board.content and not text_board.images and not text_board.ephemeral

    # nothing can carry the board: after a restart (no recent interaction), a move whose interaction died (10062)
    await server.set_bot_permissions("perm-3", reset=True)
    dave = server.as_user("dave", "perm-4")
    await answered(await dave.slash("constructo challenge", opponent="bot", level="easy"))
    game2 = env.latest_game("constructo", server.channel("perm-4").id).id
    await env.proc.restart()
    await server.set_bot_permissions("perm-4", deny=["send_messages"])
    server.inject_interaction_failure("constructo place")
    dead = await dave.slash("constructo place", tile=5, size="large")  # an empty board: tile 5 is free
    await server.wait_until(lambda: "may not post in channel" in env.log_tail(20000), 20, "the refused post")
    assert dead.failed and env.game(game2).version == 1, "the move is applied, its board could not go anywhere"
    res = await answered(await dave.slash("constructo board"), followups=1, timeout=30)
    assert "could not post this game's boards" in res.message.content and "Send Messages" in res.message.content
    assert res.message.images and not res.ephemeral
    await server.wait_until(lambda: env.game(game2).version == 2, 20, "the AI's answer")
    assert "Send Messages" in res.followups[0].content and res.followups[0].images  # the AI's board
    row = env.game(game2)
    assert row.messages["board"] == res.followups[0].id and row.messages["board.version"] == row.version
    assert "Traceback" not in env.log_tail(20000)
    await server.set_bot_permissions("perm-4", reset=True)
    assert env.violations_since(mark) == [], env.log_tail()


def no_traceback(env: BotEnv) -> None:
    assert "Traceback" not in env.log_tail(50000), env.log_tail(4000)


async def test_late_first_response_on_accept_still_starts_and_shows_the_game(env: BotEnv) -> None:
    """Discord refuses Accept's first response (10062): the game starts (stored), its first board is posted in the
    channel, the challenge loses its Accept/Decline buttons; no second first response, no traceback."""
    server = env.server
    mark = env.mark()
    res, game_id = await challenge(env, "late-1")
    fault = server.inject_interaction_failure("cx:acc:*")
    click = await server.as_user("bob", "late-1").click(res.message, "Accept")
    await server.wait_until(lambda: "board" in env.game(game_id).messages, 20, "the first board")
    assert fault.hits == 1 and click.failed
    row = env.game(game_id)
    assert row.status == "active" and env.actions(game_id)[-1][2] == "accept"
    board = server.message(row.messages["board"])
    assert board.images and not board.ephemeral and board.channel_id == server.channel("late-1").id
    await server.wait_until(lambda: not buttons(server.message(res.message.id)), 10, "the challenge to lose Accept")
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_late_first_responses_on_join_add_bot_start_keep_the_lobby_true(env: BotEnv) -> None:
    """CONEX: Join, Add bot and Start each get 10062: every action is committed and the lobby message shows it
    (seats listed, then no buttons once started); the started game's table is posted in the channel."""
    server = env.server
    mark = env.mark()
    alice, bob = server.as_user("alice", "late-2"), server.as_user("bob", "late-2")
    lobby = await answered(await alice.slash("conex new", table="small"))
    game_id = env.latest_game("conex", server.channel("late-2").id).id
    lobby_msg = lobby.message.id
    server.inject_interaction_failure("cn:join:*")
    join = await bob.click(lobby, "Join")
    await server.wait_until(lambda: len(env.game(game_id).players) == 2, 20, "bob's seat")
    assert join.failed
    await server.wait_until(
        lambda: f"<@{bob.user.id}>" in server.message(lobby_msg).content, 10, "the lobby to list bob"
    )
    server.inject_interaction_failure("cn:bot:*")
    await alice.click(lobby, "Add bot")
    await server.wait_until(lambda: len(env.game(game_id).players) == 3, 20, "the AI's seat")
    await server.wait_until(lambda: "(3/4)" in server.message(lobby_msg).content, 10, "the lobby to list the AI")
    assert buttons(server.message(lobby_msg)), "a lobby still open keeps its buttons"
    server.inject_interaction_failure("cn:start:*")
    await alice.click(lobby, "Start")
    await server.wait_until(lambda: "board" in env.game(game_id).messages, 30, "the first table")
    assert env.game(game_id).status == "active"
    table = server.message(env.game(game_id).messages["board"])
    assert table.images and not table.ephemeral
    await server.wait_until(lambda: not buttons(server.message(lobby_msg)), 10, "the lobby to lose its buttons")
    assert [a for _s, _p, a in env.actions(game_id)][:3] == ["join", "add bot", "start"]
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


EDIT_ORIGINAL = "PATCH /webhooks/*/*/messages/@original"
CHANNEL_POST = "POST /channels/*/messages"
FOLLOWUP = "POST /webhooks/*/*"
CALLBACK = "POST /interactions/*/*/callback"


async def test_failed_answers_never_say_nothing_changed(env: BotEnv) -> None:
    """Every way Discord can refuse a move's answer, and the player never reads a lie nor sees "thinking…" for good.

    A board drawn at once is the move's first response (a callback carrying the file). Refused: the board goes to
    the channel, and the move is answered privately that it was saved and where its board is. A slow move (storage
    stalled past the first-response guard's budget) is answered "thinking…" first; an edit of that answer refused:
    a followup fills it; the followup refused too: the board goes to the channel at once (the thinking message
    removed). If the channel refuses as well, the player reads that the move was saved (never "nothing was
    changed") and the board is recovered later."""
    server = env.server
    mark = env.mark()
    res, game_id = await challenge(env, "late-3")
    bob = server.as_user("bob", "late-3")
    await answered(await bob.click(res.message, "Accept"), followups=1)
    alice = server.as_user("alice", "late-3")

    fast = await answered(await alice.slash("constructo place", tile=7, size="large"))
    assert fast.response_type == 4 and not fast.ephemeral and fast.message is not None and fast.message.images
    assert not fast.followups and "L7" in fast.text  # the board is the first response: no "thinking" before it

    callback = server.inject(CALLBACK, 400, 1, code=50035)
    move = await answered(await bob.slash("constructo place", tile=4, size="large"))
    await server.wait_until(lambda: env.game(game_id).messages.get("board.version") == 3, 20, "the board")
    assert callback.hits == 1
    board = server.message(env.game(game_id).messages["board"])
    assert "M4" not in board.content and "L4" in board.content and board.images and not board.ephemeral
    assert move.ephemeral and "was saved" in move.text and "posted in the channel" in move.text, move.text

    stall_storage(env, 2.6)  # past the guard's 2.2 s: "thinking…" first, the board edited in
    edit = server.inject(EDIT_ORIGINAL, 404, 1)
    move = await alice.slash("constructo place", tile=5, size="large")
    await server.wait_until(lambda: env.game(game_id).messages.get("board.version") == 4, 20, "the board")
    assert edit.hits == 1
    row = env.game(game_id)
    board = server.message(row.messages["board"])
    assert "L5" in board.content and board.images and not board.ephemeral
    await move.wait(5)
    assert move.message is not None and move.message.id == board.id and not move.message.loading

    stall_storage(env, 2.6)
    server.inject(EDIT_ORIGINAL, 404, 1)
    server.inject(FOLLOWUP, 404, 1)
    before = len(server.messages("late-3"))
    move = await bob.slash("constructo place", tile=1, size="small")
    await server.wait_until(lambda: env.game(game_id).messages.get("board.version") == 5, 20, "the board")
    board = server.message(env.game(game_id).messages["board"])
    assert "S1" in board.content and board.images and board.id not in [m.id for m in server.messages("late-3")[:before]]
    await move.wait(5)
    assert move.message is None or move.message.deleted, "no thinking message left behind"

    server.inject(CALLBACK, 400, 1, code=50035)
    server.inject(CHANNEL_POST, 404, 1)
    move = await answered(await alice.slash("constructo place", tile=2, size="small"), timeout=20)
    assert "was saved" in move.text and "nothing was changed" not in move.text, move.text
    assert env.game(game_id).version == 6
    await server.wait_until(lambda: env.game(game_id).messages.get("board.version") == 6, 20, "the recovered board")
    assert "S2" in server.message(env.game(game_id).messages["board"]).content
    assert env.violations_since(mark) == [], env.log_tail()


async def test_late_first_response_on_new_lobby_posts_it_in_the_channel(env: BotEnv) -> None:
    """/conex new gets 10062: the lobby is stored and its message (with its buttons) posted in the channel, then it
    works as usual (Join)."""
    server = env.server
    mark = env.mark()
    alice = server.as_user("alice", "late-4")
    server.inject_interaction_failure("conex new")
    res = await alice.slash("conex new", table="small")
    game_id = 0

    def posted() -> bool:
        nonlocal game_id
        try:
            row = env.latest_game("conex", server.channel("late-4").id)
        except KeyError:
            return False
        game_id = row.id
        return "lobby" in row.messages

    await server.wait_until(posted, 20, "the lobby message")
    assert res.failed
    lobby = server.message(env.game(game_id).messages["lobby"])
    assert not lobby.ephemeral and {"Join", "Start"} <= {c.get("label") for c in lobby.buttons()}
    await answered(await server.as_user("carol", "late-4").click(lobby, "Join"))
    assert len(env.game(game_id).players) == 2
    assert env.violations_since(mark) == [], env.log_tail()
    no_traceback(env)


async def test_write_lock_held_20s_the_move_is_refused_privately_and_truly(env: BotEnv) -> None:
    """Another process holds the SQLite write lock for up to 20 s (the slow-1 game of the first test goes on): the
    move is answered within 3 s (thinking), then, storage staying busy, refused privately (the public thinking
    message removed); nothing is stored; once the lock is gone the same move plays. The lock is held until the
    refusal has been read (at most 20 s): the bot gives up while it is held, however long it waits before that."""
    server = env.server
    mark = env.mark()
    game_id = env.latest_game("constructo", server.channel("slow-1").id).id
    row = env.game(game_id)
    tile, size = free_placement(env, game_id)
    player = server.as_user(
        "alice" if row.players[row.match.current_player] == server.user("alice").id else "bob", "slow-1"
    )
    release = threading.Event()
    holder = asyncio.create_task(asyncio.to_thread(hold_write_lock, env.db_path, 20.0, release))
    try:
        await asyncio.sleep(0.2)
        move = await player.slash("constructo place", tile=tile, size=size)
        await asyncio.sleep(3.1)
        assert not move.failed and first_response_s(move) < 3.0
        await answered(move, timeout=30)
        assert holder.done() is False, "the refusal came while the lock was still held"
        assert move.message.deleted, "the public thinking message is removed"
        refusal = move.followups[-1]
        assert refusal.ephemeral and "busy" in refusal.content.lower(), refusal.content
        assert env.game(game_id).version == row.version, "nothing stored"
    finally:
        release.set()
        await holder
    move = await answered(await player.slash("constructo place", tile=tile, size=size), timeout=20)
    assert not move.ephemeral and env.game(game_id).version == row.version + 1
    assert env.violations_since(mark) == [], env.log_tail()
