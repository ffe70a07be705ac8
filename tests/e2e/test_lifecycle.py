"""E2E (issue 12, games that never get stuck): one bot process for every scenario.

- a second identical challenge is refused with a link to the first (either direction);
- a challenge whose message a moderator deleted is accepted by ``/constructo accept`` from another channel; a
  deleted board is posted again by ``/constructo board``; ``/constructo decline`` withdraws without the message;
- mutual abort (``/abandon`` + one click of the other player, across a restart of the bot): aborted, unrated;
- rematch from the result card of a game vs the AI (one click), played to the end;
- the admins' ``/games`` lists the guild's games (channel, whose turn, since when) and aborts one after a
  confirmation;
- the bot removed from a guild: its games there end aborted, unrated; nothing more is posted there; another
  guild's game is untouched.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import DevUser
from devserver.models import Message, User, fixed_id
from engine.constructo import Size

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("lifecycle")), start=False) as e:
        e.server.add_guild("Other Guild")  # before the bot connects: it hears of both guilds
        e.proc.extra_env = {"DEV_GUILD_ID": "", "ALERT_DELAY": "1"}  # global commands: usable in both guilds
        await e.proc.start()
        yield e


async def test_duplicate_refused_deleted_challenge_accepted_by_command_board_reposted(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    games = server.channel("games")
    alice, bob = server.as_user("alice"), server.as_user("bob")

    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    challenge = res.message
    assert challenge is not None and not challenge.ephemeral
    game = env.latest_game("constructo", games.id)
    assert game.status == "lobby"
    # the challenge's message is recorded just after it is posted: a refusal links to it from then on
    await server.wait_until(
        lambda: env.game(game.id).messages.get("lobby") == challenge.id, 10, "the challenge's message recorded"
    )

    again = await answered(await alice.in_channel("games-2").slash("constructo challenge", opponent="bob"))
    text = assert_refusal(again, "already waiting")
    assert f"/{games.id}/{challenge.id}" in text, "the refusal links to the first challenge"
    back = await answered(await bob.in_channel("general").slash("constructo challenge", opponent="alice"))
    assert f"/{challenge.id}" in assert_refusal(back)
    assert env.latest_game("constructo").id == game.id, "no second game was created"

    await server.delete_message(challenge)
    nothing = await answered(await server.as_user("carol").slash("constructo accept"))
    assert_refusal(nothing, "no pending")
    res = await answered(await bob.in_channel("general").slash("constructo accept"))
    assert_refusal(res, "accepted", f"<#{games.id}>")
    await server.wait_until(lambda: env.game(game.id).messages.get("board") is not None, 10, "the first board")
    row = env.game(game.id)
    assert row.status == "active" and env.actions(game.id)[-1][2] == "accept"
    board = server.message(row.messages["board"])
    assert board.channel_id == games.id and board.images, "the board went to the game's channel"

    await server.delete_message(board)
    res = await answered(await alice.slash("constructo board"))
    assert not res.ephemeral and res.message is not None and res.message.images
    await server.wait_until(
        lambda: env.game(game.id).messages.get("board") == res.message.id, 10, "the re-posted board recorded"
    )
    assert {c.get("custom_id", "")[:6] for c in res.message.buttons()} & {"cx:pl:", "cx:mv:"}, "it is playable"

    # the withdraw of a second challenge whose message is gone
    res = await answered(await alice.in_channel("games-2").slash("constructo challenge", opponent="carol"))
    second = env.latest_game("constructo")
    await server.delete_message(res.message)
    res = await answered(await alice.in_channel("general").slash("constructo decline", opponent="carol"))
    assert "withdrew" in res.text
    assert env.game(second.id).status == "aborted"
    env.test_game = game.id  # type: ignore[attr-defined]  # the running game for the mutual abort below
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()


async def test_mutual_abort_every_player_one_click_unrated(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    game_id = env.test_game  # type: ignore[attr-defined]
    alice, bob, carol = server.as_user("alice"), server.as_user("bob"), server.as_user("carol")
    before = env.game(game_id)
    assert before.status == "active"
    before_board = server.message(before.messages["board"]).content  # a clock runs (the server's default: daily)

    res = await answered(await alice.slash("abandon"))
    offer = res.message
    assert offer is not None and not offer.ephemeral and "1/2" in offer.content and f"<@{bob.id}>" in offer.content
    assert env.game(game_id).status == "active" and env.game(game_id).version == before.version, "no game action"
    assert_refusal(await answered(await alice.click(offer, "Agree to abort")), "already agreed")
    assert_refusal(await answered(await carol.click(offer, "Agree to abort")), "not a player")
    assert env.game(game_id).status == "active"

    await env.proc.restart()  # alice's agreement is kept (storage), the button is persistent
    res = await answered(await bob.click(offer, "Agree to abort"))
    assert "Every player agreed" in server.message(offer.id).content
    assert server.message(offer.id).components == []
    row = env.game(game_id)
    assert row.status == "aborted" and row.result is None
    assert env.actions(game_id)[-1][1:] == (bob.id, "abort")
    assert env.ratings("constructo") == {}, "nothing rated"
    # the board is stripped (and its clock line dropped) just after the click is answered
    await server.wait_until(
        lambda: (
            server.message(row.messages["board"]).components == []
            and "⏱️" not in server.message(row.messages["board"]).content
        ),
        15,
        "the aborted game's board stripped and without its clock",
    )
    last = server.message(row.messages["board"])
    assert last.components == [], "the board lost its buttons"
    assert "⏱️" in before_board and "⏱️" not in last.content, "no clock runs on an aborted game's board"
    assert env.violations_since(mark) == [], env.log_tail()


async def play_out(env: BotEnv, game_id: int, user: DevUser, channel_id: int) -> Message:
    """Play ``user``'s moves of a Constructo game against the AI until it ends (the first legal move, by command).
    Returns the last board."""
    server = env.server
    for _ in range(120):
        row = env.game(game_id)
        if row.status != "active":
            break
        match = row.match
        seat = match.current_player
        if seat is None or row.players[seat] != user.id:
            version = row.version
            await server.wait_until(lambda v=version: env.game(game_id).version != v, 20, "the AI's move")
            continue
        if match.phase == "choosing_layout":
            res = await user.slash("constructo choose", layout="keep")
        else:
            move = str(sorted(str(m) for m in match.current_round.legal_moves())[0])
            if "-" in move:
                src, dst = move.split("-")
                res = await user.slash("constructo move", **{"from": int(src), "to": int(dst)})
            else:
                res = await user.slash("constructo place", tile=int(move[1:]), size=Size.parse(move[0]).word)
        await answered(res)
        assert not res.ephemeral, res.text
    else:
        pytest.fail("the game did not end")
    row = env.game(game_id)
    await server.wait_until(
        lambda: env.game(game_id).messages.get("board.version") == row.version, 10, "the result card"
    )
    return server.message(env.game(game_id).messages["board"])


async def test_rematch_against_the_ai_one_click_swapped_and_played_to_the_end(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    games = server.channel("games")
    alice = server.as_user("alice")
    await answered(await alice.slash("constructo challenge", opponent="bot", level="easy", layout="flor"))
    first = env.latest_game("constructo", games.id)
    assert first.players == [alice.id, server.bot_user.id]
    res = await resign(alice)  # the first game ends (asked first, like the Resign button)
    card = res.followups[-1]
    assert card is not None and env.game(first.id).status == "finished"
    await recorded_board(env, first.id)  # recorded just after its followup is posted
    assert env.game(first.id).messages["board"] == card.id, "the result card"
    labels = {c.get("label") for c in card.buttons()}
    assert {"Rematch", "Replay"} <= labels, labels
    assert_refusal(await answered(await server.as_user("bob").click(card, "Rematch")), "not a player")

    res = await answered(await alice.click(card, "Rematch"))
    second = env.latest_game("constructo", games.id)
    assert second.id != first.id and second.status == "active"
    # the same seats (alice keeps her colour and pattern, C1); the other player (the AI) starts
    assert second.players == [alice.id, server.bot_user.id] and second.match.first == 1
    assert second.state["options"] == {**first.state["options"], "first": 1}
    assert second.state["options"]["layout"] == "flor"
    assert res.message is not None and res.message.images, "the new board answers the click"
    again = await answered(await alice.click(card, "Rematch"))
    assert_refusal(again, "already", f"game {second.id}")
    await play_out(env, second.id, alice, games.id)
    done = env.game(second.id)
    assert done.status == "finished" and done.result is not None and done.result["rated"] is False
    assert done.match.rounds[0].layout.name == "flor"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_games_lists_open_games_and_aborts_one_after_confirmation(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    mod, carol = server.as_user("mod"), server.as_user("carol")
    await answered(await carol.in_channel("games").slash("constructo challenge", opponent="dave"))
    waiting = env.latest_game("constructo")
    await answered(await carol.in_channel("general").slash("constructo challenge", opponent="bot", level="easy"))
    running = env.latest_game("constructo")
    assert running.status == "active"

    # a member sees the same list, privately, with no Abort button, and may watch the running game
    res = await answered(await carol.slash("games"))
    assert res.ephemeral and f"#{waiting.id}" in res.text and f"#{running.id}" in res.text
    assert not [c for c in res.message.buttons() if c.get("custom_id", "").startswith("ga:ab:")]
    watch = next(c for c in res.message.buttons() if c.get("type") == 3)
    assert [o["value"] for o in watch["options"]] == [str(running.id)], "only running games can be watched"
    seen = await answered(await carol.select(res.message, str(running.id)))
    assert seen.ephemeral and seen.message is not None and seen.message.attachments, "the board, privately"
    assert f"#{running.id}" in seen.text and "/channels/" in seen.text

    res = await answered(await mod.slash("games"))
    assert res.ephemeral
    text = res.text
    assert f"#{waiting.id}" in text and f"#{running.id}" in text
    assert f"<#{server.channel('general').id}>" in text and f"<@{carol.id}>" in text, text
    assert "<t:" in text and ":R>" in text, "Discord timestamps"
    res = await answered(await mod.click(res.message, f"Abort #{running.id}"))
    assert res.ephemeral and "not rated" in res.text
    assert env.game(running.id).status == "active", "nothing happens before the confirmation"
    res = await answered(await mod.click(res.message, "Yes, abort it"))
    assert f"#{running.id} aborted" in res.content
    row = env.game(running.id)
    assert row.status == "aborted" and row.result is None
    await server.wait_until(
        lambda: any("aborted" in m.content for m in server.messages("general")), 10, "the channel told"
    )
    assert env.game(waiting.id).status == "lobby"
    await answered(await server.as_user("dave").slash("constructo decline"))
    assert env.violations_since(mark) == [], env.log_tail()


async def test_removed_from_a_guild_its_games_end_unrated_nothing_posted_there_others_untouched(env: BotEnv) -> None:
    server = env.server
    other = server.guild("Other Guild")
    there = server.channel("games", guild=other)
    alice_there = server.as_user("alice", there)
    res = await answered(await alice_there.slash("constructo challenge", opponent="bot", level="easy"))
    vs_ai = env.latest_game("constructo", there.id)
    assert vs_ai.status == "active" and not res.ephemeral
    res = await answered(
        await server.as_user("alice", server.channel("general", guild=other)).slash(
            "constructo challenge", opponent="bob"
        )
    )
    pending = env.latest_game("constructo")
    assert pending.status == "lobby"
    res = await answered(
        await server.as_user("carol").in_channel("games-2").slash("constructo challenge", opponent="dave")
    )
    home = env.latest_game("constructo")
    assert home.status == "lobby" and home.id != pending.id

    # an outage (GUILD_DELETE with unavailable) is no removal: the games stay
    await server.dispatch("GUILD_DELETE", {"id": str(other.id), "unavailable": True}, guild_id=other.id)
    await server.add_bot(other)  # back after the outage
    await server.wait_until(lambda: "unavailable (outage)" in env.log_tail(20000), 10, "the outage logged")
    assert env.game(vs_ai.id).status == "active" and env.game(pending.id).status == "lobby"

    # alice moves; the AI's answer cannot be posted (its followup of alice's interaction is refused, the channel
    # needs Send Messages, and the 403 fallback, a followup again, fails too): its board effect is owed
    await server.set_bot_permissions(there, deny=["send_messages"])
    server.inject("POST /webhooks/*/*", 404, 2)
    tiles = await alice_there.autocomplete("constructo place", "tile", "", size="small")
    await answered(await alice_there.slash("constructo place", tile=int(tiles[0]["value"]), size="small"))
    await server.wait_until(lambda: env.game(vs_ai.id).version >= 2, 20, "the AI's move")
    await server.wait_until(lambda: "the outbox posts it later" in env.log_tail(20000), 10, "the failed post")

    removed_at = len(server.request_log)
    await server.remove_bot(other)
    await server.wait_until(lambda: env.game(vs_ai.id).status == "aborted", 10, "the games aborted")
    for gid in (vs_ai.id, pending.id):
        row = env.game(gid)
        assert row.status == "aborted" and row.result is None
        assert env.actions(gid)[-1][1:] == (None, "abort")
        with env.db() as conn:
            assert conn.execute("SELECT end_reason FROM games WHERE id = ?", (gid,)).fetchone()[0] == "guild_removed"
    assert env.ratings("constructo") == {} or all(r[1] for r in env.ratings("constructo").values())
    with env.db() as conn:
        assert conn.execute("SELECT COUNT(*) FROM ratings WHERE guild_id = ?", (other.id,)).fetchone()[0] == 0
    await asyncio.sleep(2.5)  # past the first board retry (2 s): it must not fire
    ids = {c.id for c in server.channels.values() if c.guild_id == other.id}
    after = [r for r in server.request_log[removed_at:] if any(str(i) in r.path for i in ids | {other.id})]
    assert after == [], f"requests to the removed guild: {after}"
    assert env.game(home.id).status == "lobby", "the other guild's challenge is untouched"
    res = await answered(await server.as_user("dave").in_channel("games-2").slash("constructo accept"))
    assert env.game(home.id).status == "active"
    assert not res.ephemeral and res.message is not None and res.message.images, "the board answers it here"
    env.assert_alive()


async def test_mygames_lists_the_members_games_the_ones_waiting_for_them_first(env: BotEnv) -> None:
    """``/mygames``: every open game of the member here, the one waiting for them first, with whose turn, the
    time left and a link to the board; in the member's language."""
    server = env.server
    mark = env.mark()
    for n, name in enumerate(("erin", "frank", "gina")):
        server.users[name] = User(id=fixed_id(900 + n), name=name.capitalize())
    erin, frank, gina = (server.as_user(name, "games-2") for name in ("erin", "frank", "gina"))
    assert "no open game" in (await answered(await erin.slash("mygames"))).text

    # gina's challenge first (gina moves first: erin waits), then erin's own (erin moves first)
    await answered(await gina.slash("constructo challenge", opponent="erin"))
    theirs = env.latest_game("constructo")
    await answered(await erin.slash("constructo accept"))
    await answered(await erin.in_channel("general").slash("constructo challenge", opponent="frank"))
    mine = env.latest_game("constructo")
    await answered(await frank.in_channel("general").slash("constructo accept"))
    await server.wait_until(
        lambda: all("board" in env.game(g.id).messages for g in (theirs, mine)), 15, "both boards posted"
    )
    lobby = await answered(await erin.in_channel("games").slash("conex new", table="small", goal=20))
    assert not lobby.ephemeral

    res = await answered(await erin.slash("mygames"))
    assert res.ephemeral
    lines = res.text.split("\n")
    assert "3" in lines[0] and "waiting for you: 1" in lines[0], lines[0]
    assert lines[1].startswith(f"**#{mine.id}**") and "**your turn**" in lines[1], lines
    assert lines[2].startswith(f"**#{theirs.id}**") and "Gina to move" in lines[2], lines
    assert "waiting for players" in lines[3], lines
    for line, game in ((lines[1], mine), (lines[2], theirs)):
        board = env.game(game.id).messages["board"]
        assert f"/channels/{server.guild_id}/" in line and line.rstrip(")").endswith(f"/{board}"), line
        assert "time runs out <t:" in line, line
    assert "frank" not in lines[1].lower().split(" against ")[0], "the opponent is named after 'against'"
    assert "Frank" in lines[1]

    erin.user.locale = "es-ES"
    try:
        text = (await answered(await erin.slash("mygames"))).text
        assert "**te toca**" in text and "le toca a Gina" in text and "esperando jugadores" in text, text
    finally:
        erin.user.locale = "en-US"
    assert env.violations_since(mark) == [], env.log_tail()


async def test_an_open_challenge_is_taken_by_anyone_but_its_challenger(env: BotEnv) -> None:
    """``/constructo challenge`` without an opponent: anyone but the challenger accepts (button or command, from
    another channel too); the challenger's own click is refused; a second open challenge of theirs is refused."""
    server = env.server
    mark = env.mark()
    for n, name in enumerate(("hana", "ivan", "jo")):
        server.users[name] = User(id=fixed_id(920 + n), name=name.capitalize())
    hana, ivan, jo = (server.as_user(name, "games-2") for name in ("hana", "ivan", "jo"))
    await answered(await hana.slash("constructo challenge"))
    game = env.latest_game("constructo")
    await server.wait_until(lambda: "lobby" in env.game(game.id).messages, 15, "the challenge message")
    msg = server.message(env.game(game.id).messages["lobby"])  # in games-2, or a thread when it is busy
    assert not msg.ephemeral and "looking for an opponent" in msg.content and not msg.pinged_users, msg
    assert game.status == "lobby" and game.players == [hana.id]
    assert "already waiting" in assert_refusal(
        await answered(await hana.in_channel("general").slash("constructo challenge"))
    )
    assert "your own open challenge" in assert_refusal(await answered(await hana.click(msg, "Accept")))
    assert env.game(game.id).status == "lobby"

    await answered(await ivan.click(msg, "Accept"))
    row = env.game(game.id)
    assert row.status == "active" and row.players == [hana.id, ivan.id]
    assert "Ivan accepted Hana's challenge" in server.message(msg.id).content
    await server.wait_until(lambda: "board" in env.game(game.id).messages, 15, "the first board")
    await answered(await ivan.slash("constructo resign"))  # ends it: the channel is free again (not checked)

    # by command, from another channel; in Spanish for a Spanish server member
    jo.user.locale = "es-ES"
    await answered(await hana.in_channel("general").slash("constructo challenge", layout="flor"))
    other = env.latest_game("constructo")
    assert other.id != game.id and other.status == "lobby"
    res = await answered(await jo.in_channel("games").slash("constructo accept"))
    jo.user.locale = "en-US"
    row = env.game(other.id)
    assert row.status == "active" and row.players == [hana.id, jo.id], res.text
    assert "Aceptado: la partida está en" in res.text, res.text
    assert env.violations_since(mark) == [], env.log_tail()


async def test_turn_alerts_by_dm_are_opt_in_one_per_turn_and_turn_off_when_dms_close(env: BotEnv) -> None:
    """``/mysettings alerts:on`` (a DM at once proves DMs work); a turn waiting for the player brings one DM with a
    link to the board; closed DMs refuse turning them on, and turn them off (said once) when an alert bounces."""
    server = env.server
    mark = env.mark()
    for n, name in enumerate(("kim", "lee")):
        server.users[name] = User(id=fixed_id(940 + n), name=name.capitalize())
    kim, lee = server.as_user("kim", "general"), server.as_user("lee", "general")
    assert "**off**" in (await answered(await kim.slash("mysettings"))).text
    res = await answered(await kim.slash("mysettings", alerts="on"))
    assert res.ephemeral and "**on**" in res.text
    assert ["Turn alerts are on" in m.content for m in server.dm_messages("kim")] == [True]
    server.users["lee"].dms_open = False
    res = await answered(await lee.slash("mysettings", alerts="on"))
    assert "could not send you a DM" in res.text and "**off**" in res.text, res.text

    await answered(await lee.slash("constructo challenge", opponent="kim"))
    game = env.latest_game("constructo")
    await answered(await kim.slash("constructo accept"))
    here = server.channel(env.game(game.id).channel_id)
    kim, lee = server.as_user("kim", here), server.as_user("lee", here)
    await answered(await lee.slash("constructo place", tile="5", size="large"))  # kim's turn now
    await server.wait_until(lambda: len(server.dm_messages("kim")) == 2, 15, "kim's turn alert")
    alert = server.dm_messages("kim")[-1].content
    assert f"#{game.id}" in alert and f"/channels/{server.guild_id}/{here.id}/" in alert, alert
    await asyncio.sleep(2.5)
    assert len(server.dm_messages("kim")) == 2, "one alert per turn"
    assert server.dm_messages("lee") == [], "lee never opted in"
    board = await recorded_board(env, game.id)  # lee's move's board (recorded just after its answer)
    offered = await answered(await lee.click(board, "Offer draw"))  # a commit, but no new turn for kim
    assert not offered.ephemeral and env.game(game.id).state["extra"]["offer"]["state"] == "open", offered.text
    await asyncio.sleep(2.5)
    assert len(server.dm_messages("kim")) == 2, "an offer is no new turn: no second alert"

    server.users["kim"].dms_open = False
    first = await answered(await kim.slash("constructo place", tile="4", size="large"))
    second = await answered(await lee.slash("constructo place", tile="6", size="large"))  # kim's turn: it bounces
    assert not first.ephemeral and not second.ephemeral, (first.text, second.text)
    await server.wait_until(lambda: env_prefs(env, kim.id) == "failed", 15, "alerts turned off")
    server.users["kim"].dms_open = True
    text = (await answered(await kim.slash("mysettings"))).text
    assert "were turned off because a DM could not reach you" in text and "**off**" in text, text
    assert "were turned off" not in (await answered(await kim.slash("mysettings"))).text, "said once"
    assert env.violations_since(mark) == [], env.log_tail()


def env_prefs(env: BotEnv, user_id: int) -> str | None:
    with env.db() as conn:
        row = conn.execute("SELECT alerts FROM user_prefs WHERE user_id = ?", (user_id,)).fetchone()
    return row[0] if row else None
