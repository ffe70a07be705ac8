"""E2E: "play anywhere": the app installed to a user's account, games in DMs and group DMs where the bot is no
member (``bot/services/reach.py``, ``bot/ui/installs.py``; the devserver's model: ``devserver/private.py``).

The bot syncs its commands globally (``DEV_GUILD_ID`` empty: ``contexts`` and ``integration_types`` are global
commands' fields). In a DM between users every channel endpoint answers 403/50001, interactions carry
``context`` 2 and ``authorizing_integration_owners`` ``{"1": user}``, and one interaction takes at most 5
followups (the devserver records the bot's violations; every test ends with none).

Scenarios: the command tree registered for both installs (and offered in a DM only where allowed); a Constructo
match against the AI in a DM played to the end from the board's selects, every board an interaction response or
followup and not one channel-endpoint request; two users in a group DM (a challenge, accept, moves, resign); a
stale token (16 minutes, the bot's clocks stepped with libfaketime and the devserver's advanced): the timeout's
result board could not go out, and the next click carries it; turn alerts by DM for those who opted in;
``/help`` says what differs there and ``/about`` has both install links.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from devserver import DevServer
from devserver.client import CommandUsageError, DevUser
from devserver.models import Channel, Message

from .helpers import BotEnv, answered, assert_refusal, bot_env, check_log_sequence, select_with_prefix

pytestmark = pytest.mark.asyncio(loop_scope="module")

GLOBAL_SYNC = {"DEV_GUILD_ID": ""}
ALERTS = {"ALERT_DELAY": "0.5"}
MAX_TURNS = 80
ANYWHERE = ("constructo", "help", "mysettings")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("userinst")), extra_env={**GLOBAL_SYNC, **ALERTS}) as e:
        await e.server.wait_for_bot(synced=True)
        yield e


def channel_requests(server: DevServer, since: int = 0, channel: Channel | None = None) -> list[Any]:
    """Requests the bot sent outside the interaction endpoints (channel posts, edits, history...): to ``channel``'s
    endpoints only when given."""
    where = f"/channels/{channel.id}" if channel is not None else "/channels/"
    return [r for r in server.request_log[since:] if not r.interaction and where in r.path]


def through_interactions(server: DevServer, channel: Channel) -> list[Message]:
    """The bot's messages in ``channel``, asserting each came through an interaction (a webhook message)."""
    msgs = [m for m in server.messages(channel) if m.author.id == server.bot_user.id]
    for m in msgs:
        assert m.webhook_id == server.application_id, f"message {m.id} was not an interaction's: {m.content[:80]}"
    return msgs


async def board_of(env: BotEnv, game_id: int) -> Message:
    """The game's stored board once it shows the stored version."""
    await env.server.wait_until(
        lambda: env.game(game_id).messages.get("board.version") == env.game(game_id).version,
        30,
        f"game {game_id}'s latest board delivered",
    )
    return env.server.message(env.game(game_id).messages["board"])


async def play_one(env: BotEnv, user: DevUser, game_id: int, turn: int) -> None:
    """``user`` plays one action from the board's selects (round 2's layout, a step, or a placement)."""
    board = await board_of(env, game_id)
    row = env.game(game_id)
    if row.match.phase == "choosing_layout":
        sel = select_with_prefix(board, "cx:lay:")
        assert sel is not None, board.components
        res = await answered(await user.select(board, "flor", custom_id=sel["custom_id"]), timeout=30)
    else:
        sels = [c for c in board.buttons() if c.get("type") == 3 and c["custom_id"].startswith(("cx:pl:", "cx:mv:"))]
        assert sels, f"no move select on the board: {board.components}"
        sel = sels[turn % len(sels)]
        res = await answered(await user.select(board, sel["options"][0]["value"], custom_id=sel["custom_id"]))
    assert not res.ephemeral, f"the move was refused: {res.text}"
    await env.server.wait_until(lambda: env.game(game_id).version > row.version, 20, "the move applied")


async def test_commands_registered_for_both_installs_and_offered_in_dms(env: BotEnv) -> None:
    """``/constructo``, ``/help`` and ``/mysettings`` are registered with ``integration_types`` [0, 1] and
    ``contexts`` [0, 1, 2] (the devserver validated the sync against Discord's OpenAPI spec); every other command
    only for the server install, in servers; a DM between users offers only the first three."""
    server = env.server
    commands = server.global_commands
    for name in ANYWHERE:
        assert commands[name].get("integration_types") == [0, 1], commands[name]
        assert commands[name].get("contexts") == [0, 1, 2], commands[name]
    others = {n: c for n, c in commands.items() if n not in ANYWHERE and c.get("type", 1) == 1}
    assert others and all(c.get("integration_types") == [0] for c in others.values()), others
    assert all(c.get("contexts") in ([0], None) for c in others.values())
    dm = server.add_private_channel("dm-tree", ["alice", "bob"])
    alice = server.as_user("alice").in_channel(dm)
    for name in ("conex new", "leaderboard", "settings", "abandon"):
        with pytest.raises(CommandUsageError, match="unknown command"):
            await alice.slash(name)
    with pytest.raises(CommandUsageError, match="not in"):
        await server.as_user("carol").in_channel(dm).slash("help")


async def test_help_says_what_differs_in_dms(env: BotEnv) -> None:
    dm = env.server.add_private_channel("dm-help", ["alice", "bob"])
    res = await answered(await env.server.as_user("alice").in_channel(dm).slash("help"))
    assert res.ephemeral
    text = res.text + "".join(m.content for m in res.followups)
    assert "In DMs and group DMs" in text and "not a member" in text and "15 minutes" in text, text
    assert not channel_requests(env.server), "answered through the interaction only"
    here = await answered(await env.server.as_user("alice").slash("help"))  # in a server: not said there
    assert "In DMs and group DMs" not in here.text + "".join(m.content for m in here.followups)
    about = await answered(await env.server.as_user("alice").slash("about"))
    assert "scope=bot+applications.commands" in about.text, "the server install"
    assert "integration_type=1&scope=applications.commands" in about.text, "the install to a user's account"


async def test_ai_match_in_a_dm_to_the_end_through_interactions_only(env: BotEnv) -> None:
    """alice, in a DM with bob (the bot not in it), plays the AI (``level:`` alone) to the end from the board's
    selects: every board is an interaction response or followup, and the bot sends no channel-endpoint request."""
    server = env.server
    mark, since = env.mark(), len(server.request_log)
    dm = server.add_private_channel("dm-ai", ["alice", "bob"])
    alice = server.as_user("alice").in_channel(dm)
    res = await answered(await alice.slash("constructo challenge", level="easy", clock="none"), timeout=30)
    assert not res.ephemeral and res.message is not None and res.message.images, res.text
    game_id = env.latest_game("constructo", dm.id).id
    row = env.game(game_id)
    assert row.state["extra"].get("reach") == "interactions"
    for turn in range(MAX_TURNS):
        await board_of(env, game_id)
        row = env.game(game_id)
        if row.status != "active":
            break
        seat = row.match.current_player
        if row.players[seat] != alice.id:  # the AI's move is on its way (a followup of alice's interaction)
            await server.wait_until(lambda v=row.version: env.game(game_id).version > v, 30, "the AI's move")
            continue
        await play_one(env, alice, game_id, turn)
    else:
        pytest.fail(f"the match did not end within {MAX_TURNS} turns")
    row = env.game(game_id)
    assert row.status == "finished" and row.result is not None
    check_log_sequence(env.actions(game_id), row.version)
    boards = through_interactions(server, dm)
    assert len(boards) >= 10 and all(not m.ephemeral for m in boards)
    assert channel_requests(server, since) == [], channel_requests(server, since)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_two_users_in_a_group_dm(env: BotEnv) -> None:
    """alice challenges bob in a group DM with carol; bob accepts, they play from the selects, carol's click is
    refused, a second challenge there is refused (one game per conversation), and bob resigns."""
    server = env.server
    mark, since = env.mark(), len(server.request_log)
    gdm = server.add_private_channel("gdm", ["alice", "bob", "carol"])
    assert gdm.type == 3
    users = {u.id: u for u in (server.as_user(n).in_channel(gdm) for n in ("alice", "bob", "carol"))}
    alice, bob, carol = users.values()
    res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="none"))
    assert res.message is not None and "Accept" in {c.get("label") for c in res.message.buttons()}
    game_id = env.latest_game("constructo", gdm.id).id
    await answered(await bob.click(res.message, "Accept"), followups=1)
    assert env.game(game_id).status == "active"
    busy = await answered(await carol.slash("constructo challenge", opponent="alice"))
    assert_refusal(busy, "already running in this conversation")
    for turn in range(6):
        row = env.game(game_id)
        await play_one(env, users[row.players[row.match.current_player]], game_id, turn)
    board = await board_of(env, game_id)
    sel = next(c for c in board.buttons() if c.get("type") == 3)
    refused = await answered(await carol.select(board, sel["options"][0]["value"], custom_id=sel["custom_id"]))
    assert refused.ephemeral
    ask = await answered(await bob.slash("constructo resign"))
    await answered(await bob.click(ask.message, "Yes, resign"), followups=1)
    await server.wait_until(lambda: env.game(game_id).status == "finished", 20, "the resignation")
    await board_of(env, game_id)
    through_interactions(server, gdm)
    assert channel_requests(server, since) == [], channel_requests(server, since)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_ai_match_in_a_server_that_did_not_add_the_bot(env: BotEnv) -> None:
    """A server that never added the bot, alice's user install: ``context`` 0 with the user install alone as
    owner. Her game against the AI stays in interaction answers (the channel endpoints answer 403/50001 there):
    a few moves, then she resigns; not one channel request."""
    server = env.server
    mark, since = env.mark(), len(server.request_log)
    guild = server.add_foreign_guild("elsewhere")
    here = server.channel("games", guild=guild)
    alice = server.as_user("alice", here)
    with pytest.raises(CommandUsageError, match="unknown command"):
        await alice.slash("leaderboard", game="constructo")  # a server command: that server did not add the bot
    await answered(await alice.slash("constructo challenge", level="easy", clock="none"), timeout=30)
    game_id = env.latest_game("constructo", here.id).id
    assert env.game(game_id).state["extra"].get("reach") == "interactions"
    for turn in range(4):
        await board_of(env, game_id)
        row = env.game(game_id)
        if row.players[row.match.current_player] != alice.id:
            await server.wait_until(lambda v=row.version: env.game(game_id).version > v, 30, "the AI's move")
            continue
        await play_one(env, alice, game_id, turn)
    ask = await answered(await alice.slash("constructo resign"))
    await answered(await alice.click(ask.message, "Yes, resign"), followups=1)
    await server.wait_until(lambda: env.game(game_id).status == "finished", 20, "the resignation")
    await board_of(env, game_id)
    through_interactions(server, here)
    assert channel_requests(server, since) == [], channel_requests(server, since)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_turn_alerts_by_dm_for_those_who_opted_in_no_reminder_in_the_conversation(env: BotEnv) -> None:
    """bob turns alerts on from the group DM itself (``/mysettings`` is offered there); when alice's move leaves
    bob to move, his alert comes by DM with a link to the board (``@me``: no guild); nothing goes to the group
    DM's channel endpoints."""
    server = env.server
    mark, since = env.mark(), len(server.request_log)
    gdm = server.add_private_channel("gdm-alerts", ["alice", "bob", "carol"])
    alice, bob = server.as_user("alice").in_channel(gdm), server.as_user("bob").in_channel(gdm)
    res = await answered(await bob.slash("mysettings", alerts="on"))
    assert res.ephemeral and "**on**" in res.text, res.text
    challenge = await answered(await alice.slash("constructo challenge", opponent="bob", clock="none"))
    game_id = env.latest_game("constructo", gdm.id).id
    await answered(await bob.click(challenge.message, "Accept"), followups=1)
    row = env.game(game_id)
    mover = alice if row.players[row.match.current_player] == alice.id else bob
    if mover is bob:  # bob starts: he moves, then alice's move leaves him to move
        await play_one(env, bob, game_id, 0)
    dms = len(server.dm_messages("bob"))
    await play_one(env, alice, game_id, 1)
    await server.wait_until(lambda: len(server.dm_messages("bob")) == dms + 1, 15, "bob's turn alert by DM")
    alert = server.dm_messages("bob")[-1].content
    assert f"#{game_id}" in alert and f"/channels/@me/{gdm.id}/" in alert, alert
    assert server.dm_messages("alice") == [], "alice never opted in"
    assert channel_requests(server, since, gdm) == [], channel_requests(server, since, gdm)
    assert env.violations_since(mark) == [], env.log_tail()


async def test_stale_token_the_next_click_carries_the_board(tmp_path: Path) -> None:
    """alice plays the AI in a DM on a live clock; 16 minutes pass (the bot's clocks and the devserver's): her
    clock ran out, the AI wins on time, and that result board cannot go out (her last token is stale; no channel
    there). Her next click on the old board is answered with it; no expired token was used."""
    from .test_clock_step import faked_bot, step

    env, offset = await faked_bot(tmp_path, monotonic=True, extra={**GLOBAL_SYNC, "TABLEBOT_CLOCK_SCALE": "0.05"})
    server = env.server
    try:
        await server.wait_for_bot(synced=True)
        mark, since = env.mark(), len(server.request_log)
        dm = server.add_private_channel("dm-stale", ["alice", "bob"])
        alice = server.as_user("alice").in_channel(dm)
        await answered(await alice.slash("constructo challenge", level="easy", clock="live"), timeout=30)
        game_id = env.latest_game("constructo", dm.id).id
        await server.wait_until(
            lambda: env.game(game_id).players[env.game(game_id).match.current_player] == alice.id, 30, "alice to move"
        )
        await play_one(env, alice, game_id, 0)
        await server.wait_until(
            lambda: env.game(game_id).players[env.game(game_id).match.current_player] == alice.id, 30, "the AI moved"
        )
        board = await board_of(env, game_id)
        await server.wait_until(  # the older boards' strips are done: no request of before the jump is in flight
            lambda: all(not m.components for m in server.messages(dm.name) if m.id != board.id),
            30,
            "the older boards stripped",
        )
        step(offset, 16 * 60)
        server.clock.advance(16 * 60)
        await server.wait_until(lambda: env.game(game_id).status == "finished", 60, "alice's time out")
        row = env.game(game_id)
        assert (row.messages.get("board.version") or 0) < row.version, "the result board could not go out"
        sel = next(c for c in board.buttons() if c.get("type") == 3)
        res = await answered(await alice.select(board, sel["options"][0]["value"], custom_id=sel["custom_id"]))
        assert not res.ephemeral and "went on since the last board" in res.message.content, res.text
        await server.wait_until(
            lambda: env.game(game_id).messages.get("board") == res.message.id, 20, "the carried board recorded"
        )
        assert env.game(game_id).messages["board.version"] == env.game(game_id).version
        through_interactions(server, dm)
        assert channel_requests(server, since) == [], channel_requests(server, since)
        assert env.violations_since(mark) == [], env.log_tail()
        env.assert_alive()
    finally:
        await env.proc.stop()
        await env.server.stop()


async def test_a_spanish_player_in_a_dm_reads_spanish(env: BotEnv) -> None:
    """dave's Discord speaks Spanish: in a DM (no server language there) /help says what differs in Spanish, and
    his game against the AI, its board included, is in his language."""
    server = env.server
    server.user("dave").locale = "es-ES"
    try:
        dm = server.add_private_channel("dm-es", ["dave", "carol"])
        dave = server.as_user("dave").in_channel(dm)
        shown = await answered(await dave.slash("help"))
        text = "\n".join(m.content for m in shown.messages)
        assert "En mensajes directos y grupos" in text and "In DMs" not in text, text
        res = await answered(await dave.slash("constructo challenge", level="easy", clock="none"))
        text = "\n".join(m.content for m in res.messages)
        assert "contra la IA (fácil)" in text and " to move" not in text, text
        game_id = env.latest_game("constructo", dm.id).id
        ask = await answered(await dave.slash("constructo resign"))
        await answered(await dave.click(ask.message, "Sí, me rindo"), followups=1)
        await server.wait_until(lambda: env.game(game_id).status == "finished", 20, "the resignation")
        last = await board_of(env, game_id)
        assert "se rindió" in last.content and "resigned" not in last.content, last.content
    finally:
        server.user("dave").locale = "en-US"
