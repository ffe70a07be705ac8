"""E2E (issue 13): honest delivery when Discord misbehaves, against the real bot process.

The bot's permissions (``set_bot_permissions``), late first responses (``inject_interaction_failure``) and every way
Discord can refuse a move's answer: the players are told the truth and still see the boards. Slow storage is in
``test_delivery.py``.

One bot process for the module; each scenario has its own channels.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .delivery_kit import challenge, delivery_env, free_placement, games_in, no_traceback, stall_storage
from .helpers import (
    CALLBACK,
    CHANNEL_POST,
    EDIT_ORIGINAL,
    FOLLOWUP,
    BotEnv,
    answered,
    assert_refusal,
    buttons,
    recorded_board,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

CHANNELS = ("perm-1", "perm-2", "perm-3", "perm-4", "late-1", "late-2", "late-3", "late-4")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with delivery_env(Path(tmp_path_factory.mktemp("delivery_discord")), CHANNELS) as e:
        yield e


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
    await recorded_board(env, game_id)  # the AI's board is recorded just after its followup is posted
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
    refused = env.proc.log().count("may not post in channel")  # the log is kept across restarts: this move's line
    dead = await dave.slash("constructo place", tile=5, size="large")  # an empty board: tile 5 is free
    await server.wait_until(lambda: env.proc.log().count("may not post in channel") > refused, 20, "the refused post")
    assert dead.failed and env.game(game2).version == 1, "the move is applied, its board could not go anywhere"
    res = await answered(await dave.slash("constructo board"), followups=1, timeout=30)
    assert "could not post this game's boards" in res.message.content and "Send Messages" in res.message.content
    assert res.message.images and not res.ephemeral
    await server.wait_until(lambda: env.game(game2).version == 2, 20, "the AI's answer")
    assert "Send Messages" in res.followups[0].content and res.followups[0].images  # the AI's board
    await recorded_board(env, game2)  # recorded just after its followup is posted
    row = env.game(game2)
    assert row.messages["board"] == res.followups[0].id and row.messages["board.version"] == row.version
    assert "Traceback" not in env.log_tail(20000)
    await server.set_bot_permissions("perm-4", reset=True)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_late_first_response_on_accept_still_starts_and_shows_the_game(env: BotEnv) -> None:
    """Discord refuses Accept's first response (10062): the game starts (stored), its first board is posted in the
    channel, the challenge loses its Accept/Decline buttons; no second first response, no traceback."""
    server = env.server
    mark = env.mark()
    res, game_id = await challenge(env, "late-1")
    fault = server.inject_interaction_failure("cx:acc:*")
    click = await server.as_user("bob", "late-1").click(res.message, "Accept")
    await server.wait_until(lambda: "board" in env.game(game_id).messages, 20, "the first board")
    await server.wait_until(lambda: click.interaction.dead, 10, "Discord to refuse Accept's answer (10062)")
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
    # the seat is committed before the answer is tried: Discord's refusal (10062) may come a moment later
    await server.wait_until(lambda: join.interaction.dead, 10, "Discord to refuse the join's answer (10062)")
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
