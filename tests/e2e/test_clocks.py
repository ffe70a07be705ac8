"""E2E: time controls (issue 12) through the real bot process and the DevServer, on a short test clock.

The bot runs with ``TABLEBOT_CLOCK_SCALE=0.008``: every duration lasts 1/125 (a ``live`` move of 5 minutes lasts
2.4 s, its reminder comes with a quarter of it, 0.6 s, left; a ``daily`` move lasts 691 s, a 15-minute set-up expiry
7.2 s). The restart scenario shifts the bot's clock with ``TABLEBOT_CLOCK_OFFSET_S`` instead of waiting.

Scenarios: ``/settings`` (Manage Server) and a challenge and a lobby expiring with their message edited and the
channel free again; a Constructo reminder posted once, then the claim button (refused to the late player and to
strangers) won by the opponent (``timeout`` in the log, unrated since nobody moved, replayable); a CONEX table
whose seats never act: turns skipped by timeouts until the third consecutive one forfeits a seat and the game
finishes (unrated: nobody moved); a restart in the middle of a running clock keeps the deadline (the reminder and
the claim come at the stored times).
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message
from engine.conex import Game
from engine.constructo import Match
from engine.record import load_record

from .helpers import (
    BotEnv,
    answered,
    assert_refusal,
    bot_env,
    check_log_sequence,
    replay_conex,
    replay_constructo,
)

ENGINES = (Game, Match)
"""What the bot's plug-ins name as their engines (``kind.engine``): the records are re-played with them."""

pytestmark = pytest.mark.asyncio(loop_scope="module")

SCALE = 0.008
LIVE_S = 300 * SCALE
DAILY_S = 86400 * SCALE


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("clocks")), extra_env={"TABLEBOT_CLOCK_SCALE": str(SCALE)}) as e:
        # the timers start on READY, about 2 s after the gateway session opens: longer than a test move
        await e.ready()
        yield e


def reminders(env: BotEnv, channel: str, user: str) -> list[Message]:
    uid = env.server.user(user).id
    return [m for m in env.server.messages(channel) if "⏰" in m.content and f"<@{uid}>" in m.content]


def claims(env: BotEnv, channel: str) -> list[Message]:
    return [m for m in env.server.messages(channel) if m.content.startswith("⌛") and "claim" in m.content]


def deadline_of(env: BotEnv, game_id: int) -> float:
    clock = env.game(game_id).state["clock"]
    assert clock.get("deadline"), f"no running clock: {clock}"
    return float(clock["deadline"])


async def test_settings_then_challenge_and_lobby_expire_and_free_the_channel(env: BotEnv) -> None:
    server = env.server
    alice, mod = server.as_user("alice", "games"), server.as_user("mod", "games")
    with pytest.raises(Exception, match="does not see /settings"):
        await alice.slash("settings", expiry=1)
    shown = await answered(await mod.slash("settings"))
    assert shown.ephemeral and "daily" in shown.text and "15 minutes" in shown.text
    saved = await answered(await mod.slash("settings", expiry=2))
    assert "Saved" in saved.text and "2 minutes" in saved.text

    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    challenge = res.message
    assert challenge is not None and challenge.buttons()
    game = env.latest_game("constructo", server.channel("games").id)
    await server.wait_until(lambda: "expired" in server.message(challenge.id).content, 15, "the challenge expiry")
    edited = server.message(challenge.id)
    assert not edited.buttons(), "an expired challenge keeps no button"
    assert env.game(game.id).status == "aborted"
    assert env.actions(game.id)[-1][1:] == (None, "expire")

    lobby = await answered(await alice.slash("conex new", table="small"))
    assert lobby.message is not None and "thread" not in lobby.text, "the channel is free again"
    table = env.latest_game("conex", server.channel("games").id)
    await server.wait_until(lambda: "expired" in server.message(lobby.message.id).content, 15, "the lobby expiry")
    assert not server.message(lobby.message.id).buttons()
    assert env.game(table.id).status == "aborted"
    assert env.actions(table.id)[-1][2] == "expire"

    back = await answered(await mod.slash("settings", expiry=60))
    assert "60 minutes" in back.text
    env.assert_alive()


async def test_constructo_reminder_once_then_the_opponent_claims(env: BotEnv) -> None:
    server = env.server
    ch = "general"
    alice, bob, carol = (server.as_user(n, ch) for n in ("alice", "bob", "carol"))
    res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="live"))
    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    # the board, not the reminder: a live move lasts 2.4 s here, so under load the reminder may already follow it
    board = next(m for m in res.followups if m.images)
    game = env.latest_game("constructo", server.channel(ch).id)
    assert game.state["clock"]["preset"] == "live" and game.state["clock"]["seat"] == 0
    deadline = deadline_of(env, game.id)
    assert f"<t:{int(deadline)}:R>" in board.content and "alice" in board.content.lower()

    await server.wait_until(lambda: bool(claims(env, ch)), 20, "the claim message")
    assert len(reminders(env, ch, "alice")) == 1, "one reminder per turn"
    assert f"<t:{int(deadline)}:R>" in reminders(env, ch, "alice")[0].content
    claim = claims(env, ch)[-1]
    assert "Claim the win" in {c.get("label") for c in claim.buttons()}
    assert env.game(game.id).status == "active", "an unclaimed game keeps waiting"

    assert_refusal(await answered(await alice.click(claim, "Claim the win")), "your own time")
    assert_refusal(await answered(await carol.click(claim, "Claim the win")), "not a player")
    won = await answered(await bob.click(claim, "Claim the win"))
    assert not won.ephemeral
    row = env.game(game.id)
    assert row.status == "finished" and row.result is not None
    # neither player ever moved: the result stands, unrated (lichess aborts such games)
    assert row.result["ranking"][0] == [server.user("bob").id] and not row.result["rated"]
    log = env.actions(game.id)
    assert log[-1][1:] == (server.user("alice").id, "timeout")
    check_log_sequence(log, row.version)
    assert replay_constructo(row.state, row.players, log).to_dict() == row.match.to_dict()
    assert server.user("bob").id not in env.ratings("constructo")
    await server.wait_until(lambda: not server.message(claim.id).buttons(), 10, "the claim button removed")
    closed = server.message(claim.id).content  # its words no longer offer the claim (the button is gone)
    assert "claim is closed" in closed and "you may claim" not in closed, closed
    assert "alice" in closed.lower() and f"<t:{int(deadline)}:R>" in closed, closed
    assert len(reminders(env, ch, "alice")) == 1
    env.assert_alive()


async def test_conex_timeouts_skip_turns_then_forfeit_and_finish(env: BotEnv) -> None:
    server = env.server
    ch = "games-2"
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    res = await answered(await alice.slash("conex new", table="small", clock="live"))
    await answered(await bob.click(res.message, "Join"))
    await answered(await alice.click(res.message, "Start"), followups=1)
    game = env.latest_game("conex", server.channel(ch).id)
    assert deadline_of(env, game.id) > 0

    await server.wait_until(lambda: env.game(game.id).status == "finished", 8 * LIVE_S + 20, "the forfeit")
    row = env.game(game.id)
    ids = [server.user("alice").id, server.user("bob").id]
    log = env.actions(game.id)
    timeouts = [(p, a) for _s, p, a in log if a == "timeout"]
    assert timeouts == [(ids[0], "timeout"), (ids[1], "timeout")] * 2 + [(ids[0], "timeout")]
    check_log_sequence(log, row.version)
    replayed = replay_conex(row.state, row.players, log)
    assert replayed.to_dict() == row.conex.to_dict() and replayed.forfeited == {0}
    assert row.result is not None and row.result["ranking"] == [[ids[1]], [ids[0]]]
    assert not row.result["rated"], "nobody ever moved: not rated"

    # the game is finished at the commit; its last board is posted just after (under load, a moment later)
    def skipped() -> int:
        return sum("their turn is skipped" in m.content for m in server.messages(ch))

    await server.wait_until(lambda: skipped() >= 5, 20, "the last timeout's board")
    texts = [m.content for m in server.messages(ch)]
    assert skipped() == 5
    assert any("left the game" in t for t in texts)
    for user in ("alice", "bob"):
        assert len(reminders(env, ch, user)) <= 3, "at most one reminder per turn"

    # the timeouts are in the game's record and its replay (one frame per action, the move list names them)
    replay = await answered(await alice.slash("replay", game=game.id), timeout=60)
    files = {a.filename: a.data for m in replay.messages for a in m.attachments}
    record = json.loads(files[f"game-{game.id}.json"])
    assert [a for _seat, a in record["history"]] == ["timeout"] * 5
    assert load_record(record, ENGINES).to_dict() == row.engine
    assert files[f"replay-{game.id}.gif"][:6] == b"GIF89a"
    assert "time out" in replay.text
    env.assert_alive()


async def test_restart_in_the_middle_of_a_clock_keeps_the_deadline(env: BotEnv) -> None:
    server = env.server
    server.add_channel("clocks-restart")
    ch = "clocks-restart"
    alice, bob = server.as_user("alice", ch), server.as_user("bob", ch)
    res = await answered(await alice.slash("constructo challenge", opponent="bob", clock="daily"))
    await answered(await bob.click(res.message, "Accept"), followups=1)
    game = env.latest_game("constructo", server.channel(ch).id)
    deadline = deadline_of(env, game.id)
    assert deadline - DAILY_S - 5 < env.game(game.id).state["created"] < deadline

    # Down, then up again with the clock 85 % of the move later: past the reminder time (a quarter left), before
    # the deadline. A clock restarted at start-up would remind only 75 % of a move after it.
    env.proc.extra_env["TABLEBOT_CLOCK_OFFSET_S"] = str(0.85 * DAILY_S)
    await env.proc.restart()
    await server.wait_until(lambda: bool(reminders(env, ch, "alice")), 15, "the reminder after the restart")
    assert deadline_of(env, game.id) == deadline, "the stored deadline survived the restart"
    assert f"<t:{int(deadline)}:R>" in reminders(env, ch, "alice")[0].content
    assert not claims(env, ch)

    env.proc.extra_env["TABLEBOT_CLOCK_OFFSET_S"] = str(DAILY_S + 10)
    await env.proc.restart()
    await server.wait_until(lambda: bool(claims(env, ch)), 15, "the claim after the deadline")
    assert len(reminders(env, ch, "alice")) == 1
    assert re.search(rf"<t:{int(deadline)}:R>", claims(env, ch)[0].content)
    await answered(await bob.click(claims(env, ch)[0], "Claim the win"))
    assert env.game(game.id).status == "finished"
    env.assert_alive()
