"""E2E: a tournament pairing whose game can never open is scored at once and the round goes on
(``bot/services/tourney_forfeit.py``), through the real bot.

- A player blocked (``/settings block``) after joining: at the start their board is not opened, they lose it by
  forfeit (the opponent scores the win), the channel is told in words; the other board is played and its end
  finishes the tournament (no retry loop, no "tried again").
- A player who left the server: the same, by forfeit.
- The game turned off (``/settings game_off``) after the entries: every board is unplayed (nobody scores), the
  channel is told, the rounds go on without a game and the tournament finishes with its final message.
- A board that cannot open *yet* (the server at its cap of open games): tried again (``TOURNEY_RETRY_S`` shortened
  here); when the tries run out, the channel is told which board waits and why, its players and the organiser
  mentioned; it opens at the next game's end once the cap allows it.
- A board stuck while no other game of the tournament runs (its only board, the cap held by a game outside it):
  the notice says it is tried again every few seconds here (``TOURNEY_RETRY_S`` x 10), and it is: once the cap is
  raised it opens without any game ending and without a restart.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.models import Message, User, fixed_id

from .helpers import BotEnv, answered, bot_env, resign
from .tourney_kit import pairings, status

pytestmark = pytest.mark.asyncio(loop_scope="module")

NAMES = [f"q{n}" for n in range(1, 13)]


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("tourney_unplayable"))
    async with bot_env(tmp, start=False, extra_env={"THREAD_PER_GAME": "1", "TOURNEY_RETRY_S": "0.3"}) as e:
        for n, name in enumerate(NAMES, start=1):
            e.server.users[name] = User(id=fixed_id(950 + n), name=name)
        await e.proc.start()
        await e.ready()
        yield e


def constructo_games(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games WHERE kind = 'constructo'").fetchone()[0])


async def settings(env: BotEnv, **options: object) -> None:
    res = await answered(await env.server.as_user("mod").slash("settings", **options))
    assert res.ephemeral, res.text


async def started(env: BotEnv, players: list[str], rounds: int) -> str:
    """``players[0]`` creates a Swiss tournament of ``rounds``; every player joins (not started). Returns its
    organiser's name."""
    users = [env.server.as_user(n) for n in players]
    res = await answered(await users[0].slash("tournament create", game="constructo", format="swiss", rounds=rounds))
    assert not res.ephemeral, res.text
    for user in users:
        res = await answered(await user.slash("tournament join"))
        assert res.ephemeral and "You are in" in res.text, res.text
    return players[0]


async def finish(env: BotEnv, game_id: int) -> None:
    """Both players move once, then seat 1 resigns."""
    game = env.game(game_id)
    names = {env.server.user(n).id: n for n in NAMES}
    a, b = (env.server.as_user(names[p]).in_channel(game.channel_id) for p in game.players)
    await answered(await a.slash("constructo place", tile=5, size="large"), timeout=30)
    await answered(await b.slash("constructo place", tile=4, size="medium"), timeout=30)
    await resign(b)
    await env.server.wait_until(lambda: env.game(game_id).status == "finished", 20, f"game {game_id} finished")


async def one_forfeit_then_played(env: BotEnv, players: list[str], culprit: str, why: str) -> None:
    """Start the 4-player, 1-round tournament of ``players``: ``culprit``'s board is forfeited at once (told in
    the channel with ``why``), the other is played, and its end finishes the tournament."""
    server = env.server
    mark = max((m.id for m in server.messages("games")), default=0)
    bad = server.user(culprit).id
    res = await answered(await server.as_user(players[0]).slash("tournament start"), timeout=30)
    assert "starts with 4 players" in res.content and "tried again" not in res.content, res.content
    rows = pairings(env, 1)
    mine = next(r for r in rows if bad in (r[0], r[1]))
    other = mine[1] if mine[0] == bad else mine[0]
    assert mine[2] == ("b" if mine[0] == bad else "a") and mine[3] is None, f"a forfeit loss, no game: {mine}"
    assert "wins by forfeit" in res.content, res.content
    told = await server.wait_for_message(  # the notice, not the start answer (which says "wins by forfeit" too)
        lambda m: "by forfeit" in m.content and why in m.content, channel="games", after=mark, timeout=20
    )
    assert why in told.content and f"<@{bad}>" in told.content and f"<@{other}>" in told.content, told.content
    assert "scores the win" in told.content, told.content
    assert set(told.pinged_users) >= {bad, other}, told.pinged_users
    played = next(r for r in rows if r is not mine)
    await server.wait_until(lambda: pairings(env, 1)[rows.index(played)][3] is not None, 30, "the other game opened")
    game_id = pairings(env, 1)[rows.index(played)][3]
    assert game_id is not None and env.game(game_id).status == "active"
    await finish(env, game_id)
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the tournament finished")
    final = await server.wait_for_message(
        lambda m: "tournament is over" in m.content, channel="games", after=mark, timeout=20
    )
    assert f"<@{other}>" in final.content, "the forfeit's winner scored a point: on the podium"


async def test_a_player_blocked_after_joining_loses_by_forfeit_and_the_round_goes_on(env: BotEnv) -> None:
    players = NAMES[:4]
    await started(env, players, rounds=1)
    await settings(env, block=players[2])
    try:
        await one_forfeit_then_played(env, players, players[2], "is blocked from games on this server")
    finally:
        await settings(env, unblock=players[2])


async def test_a_player_gone_from_the_server_loses_by_forfeit(env: BotEnv) -> None:
    players = NAMES[4:8]
    await started(env, players, rounds=1)
    await env.server.remove_member(players[3])
    await one_forfeit_then_played(env, players, players[3], "is no longer a member of this server")


async def test_the_game_turned_off_leaves_every_board_unplayed_and_the_tournament_ends(env: BotEnv) -> None:
    server = env.server
    players = NAMES[:3]
    await started(env, players, rounds=2)
    mark = max((m.id for m in server.messages("games")), default=0)
    games_before = constructo_games(env)
    await settings(env, game_off="constructo")
    try:
        res = await answered(await server.as_user(players[0]).slash("tournament start"), timeout=30)
        assert "tried again" not in res.content and "not played (nobody scores)" in res.content, res.content
        told = await server.wait_for_message(
            lambda m: "cannot be played" in m.content, channel="games", after=mark, timeout=20
        )
        assert "Constructo is turned off on this server" in told.content and "Nobody scores" in told.content
        await server.wait_until(lambda: status(env) == ("finished", 2), 30, "both rounds over, the tournament done")
        for round_no in (1, 2):
            board = next(r for r in pairings(env, round_no) if r[1] is not None)
            assert board[2] == "none" and board[3] is None, f"round {round_no}: unplayed, no game: {board}"
        await server.wait_for_message(
            lambda m: "tournament is over" in m.content, channel="games", after=mark, timeout=20
        )
        assert constructo_games(env) == games_before, "no game was opened"
    finally:
        await settings(env, game_on="constructo")


async def stuck_at_start(env: BotEnv, players: list[str]) -> tuple[int, int, list, tuple, tuple, Message]:
    """A 1-round tournament of ``players`` started with the server capped at 1 open game: one board opens, the other
    cannot, and its tries run out. Returns (organiser id, the channel's mark before, round 1's rows, the waiting
    row, the opened row, the channel's notice). The cap stays at 1: the caller raises it again."""
    server = env.server
    organiser = await started(env, players, rounds=1)
    mark = max((m.id for m in server.messages("games")), default=0)
    await settings(env, games_per_server=1)
    res = await answered(await server.as_user(players[0]).slash("tournament start"), timeout=30)
    assert "could not open yet" in res.content, res.content
    rows = pairings(env, 1)
    waiting = next(r for r in rows if r[3] is None)
    opened = next(r for r in rows if r[3] is not None)
    told = await server.wait_for_message(
        lambda m: "still not opened after 11 tries" in m.content, channel="games", after=mark, timeout=30
    )
    return server.user(organiser).id, mark, rows, waiting, opened, told


async def played_out(env: BotEnv, rows: list, waiting: tuple, opened: tuple) -> None:
    """With the cap raised again: the opened board's game ends, the waiting board opens then, its game ends, and
    the tournament finishes."""
    server = env.server
    assert opened[3] is not None
    await finish(env, opened[3])
    await server.wait_until(
        lambda: pairings(env, 1)[rows.index(waiting)][3] is not None, 30, "the waiting board opened"
    )
    late = pairings(env, 1)[rows.index(waiting)][3]
    assert late is not None
    await finish(env, late)
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the tournament finished")


async def test_a_board_over_the_server_cap_is_told_when_its_tries_run_out_and_opens_after_a_game_ends(
    env: BotEnv,
) -> None:
    try:
        organiser, _mark, rows, waiting, opened, told = await stuck_at_start(env, NAMES[:4])
        a, b = waiting[0], waiting[1]
        assert f"<@{a}> vs <@{b}>" in told.content and "its limit is 1" in told.content, told.content
        assert "I keep trying them every 3 seconds until they open" in told.content, told.content
        assert f"<@{organiser}>" in told.content
        assert set(told.pinged_users) == {a, b, organiser}, told.pinged_users
        assert pairings(env, 1)[rows.index(waiting)][2:] == (None, None), "nothing scored, no game"
    finally:
        await settings(env, games_per_server=50)
    await played_out(env, rows, waiting, opened)


async def test_boards_still_stuck_after_a_restart_are_told_again_in_a_new_message(env: BotEnv) -> None:
    """At the READY after a restart the boards get a new series of tries; when it runs out as well, the channel
    is told again, in a message of its own (not the first one handed back for a nonce already used)."""
    server = env.server
    try:
        organiser, mark, rows, waiting, opened, first = await stuck_at_start(env, NAMES[8:12])
        await env.proc.stop()
        await env.proc.start()
        again = await server.wait_for_message(
            lambda m: "still not opened after 11 tries" in m.content, channel="games", after=first.id, timeout=30
        )
        assert again.id != first.id
        assert f"<@{waiting[0]}> vs <@{waiting[1]}>" in again.content, again.content
        assert set(again.pinged_users) == {waiting[0], waiting[1], organiser}, again.pinged_users
        told = [m for m in server.messages("games") if m.id > mark and "still not opened" in m.content]
        assert len(told) == 2, [m.content[:80] for m in told]
    finally:
        await settings(env, games_per_server=50)
    await played_out(env, rows, waiting, opened)


def open_games(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')").fetchone()[0])


async def test_a_board_stuck_with_no_other_game_running_is_tried_again_as_the_notice_says(env: BotEnv) -> None:
    """The notice promised a try when another game of the tournament ends; with none running (a 3-player round: one
    board and a bye) nothing ever tried the board again but a restart. The notice names the slow tries that follow
    it, and they happen: the cap raised, the board opens on its own."""
    server = env.server
    players = NAMES[:3]
    outsider = server.as_user(NAMES[11])
    await answered(await outsider.slash("constructo challenge", opponent="bot"))  # holds the server's cap
    outside = env.latest_game("constructo")
    organiser = await started(env, players, rounds=1)
    mark = max((m.id for m in server.messages("games")), default=0)
    await settings(env, games_per_server=open_games(env))
    try:
        res = await answered(await server.as_user(players[0]).slash("tournament start"), timeout=30)
        assert "could not open yet" in res.content, res.content
        told = await server.wait_for_message(
            lambda m: "still not opened after 11 tries" in m.content, channel="games", after=mark, timeout=30
        )
        assert "I keep trying them every 3 seconds until they open" in told.content, told.content
        assert f"<@{server.user(organiser).id}>" in told.content
        board = next(r for r in pairings(env, 1) if r[1] is not None)
        assert board[2:] == (None, None), "nothing scored, no game"
    finally:
        await settings(env, games_per_server=50)
    await server.wait_until(  # no tournament game runs, no restart: only the promised slow tries can open it
        lambda: next(r for r in pairings(env, 1) if r[1] is not None)[3] is not None, 20, "the waiting board opened"
    )
    late = next(r for r in pairings(env, 1) if r[1] is not None)[3]
    assert late is not None
    await finish(env, late)
    await server.wait_until(lambda: status(env)[0] == "finished", 30, "the tournament finished")
    await resign(outsider.in_channel(outside.channel_id))
