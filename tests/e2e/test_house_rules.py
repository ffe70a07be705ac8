"""E2E: a server's house rules in ``/settings`` (Manage Server; ``bot/services/house.py``) through the real bot.

Where games may start (an allow-list of channels), which games are on, whether new games are rated, resetting a
game's ratings (a confirmation stating how many players; Cancel changes nothing), blocking a member from starting
or joining games. Every refusal is private, in the reader's language, and creates nothing (no game stored, no public
message). ``/settings`` alone shows every setting privately; the settings survive a restart. One bot process.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import pytest_asyncio

from devserver.client import DevUser

from .helpers import BotEnv, answered, assert_refusal, bot_env, recorded_board, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("house"))) as e:
        yield e


def all_games(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


@contextmanager
def nothing_created(env: BotEnv) -> Iterator[None]:
    """No game stored and no public message posted inside the block."""
    games = all_games(env)
    public = [m.id for m in env.server.all_messages() if not m.ephemeral]
    yield
    assert all_games(env) == games, "a refused opening stored a game"
    assert [m.id for m in env.server.all_messages() if not m.ephemeral] == public, "a refusal was public"


@contextmanager
def spanish(env: BotEnv, *names: str) -> Iterator[None]:
    """These users' Discord speaks Spanish inside the block."""
    users = [env.server.user(n) for n in names]
    for user in users:
        user.locale = "es-ES"
    try:
        yield
    finally:
        for user in users:
            user.locale = "en-US"


async def settings(env: BotEnv, **options: object) -> str:
    res = await answered(await env.server.as_user("mod").slash("settings", **options))
    assert res.ephemeral and res.messages and all(m.ephemeral for m in res.messages), res.text
    assert len(res.text) <= 2000
    return res.text


async def ai_game(user: DevUser) -> None:
    """Open a Constructo game against the AI where ``user`` is, then resign it (nothing stays open)."""
    res = await answered(await user.slash("constructo challenge", opponent="bot"))
    assert not res.ephemeral, res.text
    await resign(user)


async def test_settings_alone_shows_every_setting_privately_in_both_languages(env: BotEnv) -> None:
    text = await settings(env)
    for needle in (
        "Clock of new games",
        "per member",
        "thread of its own",
        "Games may start in any channel.",
        "Games on: Constructo, CONEX. Turned off: —.",
        "New games are rated: yes.",
        "Nobody is blocked from playing here.",
    ):
        assert needle in text, text
    with spanish(env, "mod"):
        text = await settings(env)
    assert "Las partidas pueden empezar en cualquier canal." in text and "puntúan: sí" in text, text
    assert "No hay nadie bloqueado" in text and "Games" not in text, text


async def test_games_start_only_in_allowed_channels(env: BotEnv) -> None:
    server = env.server
    allowed = server.channel("games-2")
    text = await settings(env, allow_channel="games-2")
    assert text.startswith("Saved.") and f"Games may start only in: <#{allowed.id}>." in text, text
    alice, bob = server.as_user("alice", "games"), server.as_user("bob", "games")
    with nothing_created(env):
        for attempt in (
            alice.slash("constructo challenge", opponent="bot"),
            alice.slash("constructo challenge", opponent="bob"),
            alice.slash("constructo challenge"),  # an open challenge
            alice.slash("conex new", table="small", goal=20),  # a lobby
        ):
            text = assert_refusal(await answered(await attempt), "Games are played only in", f"<#{allowed.id}>")
            assert "went wrong" not in text
        with spanish(env, "bob"):
            assert_refusal(
                await answered(await bob.slash("constructo challenge", opponent="bot")),
                f"En este servidor solo se juega en <#{allowed.id}>",
            )
    await ai_game(server.as_user("alice", "games-2"))  # the listed channel plays

    await settings(env, any_channel=True)
    assert "Games may start in any channel." in await settings(env)
    await ai_game(alice)


async def test_a_game_turned_off_is_refused_and_back_on_plays(env: BotEnv) -> None:
    server = env.server
    alice = server.as_user("alice", "general")
    text = await settings(env, game_off="conex")
    assert "Games on: Constructo. Turned off: CONEX." in text, text
    with nothing_created(env):
        assert_refusal(
            await answered(await alice.slash("conex new", table="small", goal=20)), "CONEX is turned off", "game_on"
        )
        with spanish(env, "alice"):
            assert_refusal(
                await answered(await alice.slash("conex new", table="small", goal=20)), "CONEX está desactivado"
            )
    await ai_game(alice)  # Constructo stays on

    await settings(env, game_on="conex")
    res = await answered(await alice.slash("conex new", table="small", goal=20))
    assert not res.ephemeral and env.latest_game("conex").status == "lobby"
    await answered(await alice.click(res.message, "Leave"))  # the host leaving closes the lobby
    assert env.latest_game("conex").status == "aborted"


async def _short_game(env: BotEnv, *, casual: bool, **meanwhile: object) -> str:
    """alice challenges bob in #games (the challenge says "Not rated" when ``casual``), each places one chip (the
    ``meanwhile`` settings are made after the first), alice resigns: the result card's text."""
    server = env.server
    alice, bob = server.as_user("alice"), server.as_user("bob")
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    assert ("Not rated: this server plays unrated games." in res.text) is casual, res.text
    await answered(await bob.click(res.message, "Accept"), followups=1)
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    if meanwhile:
        await settings(env, **meanwhile)
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    await resign(alice)
    row = env.latest_game("constructo", server.channel("games").id)
    assert row.status == "finished"
    return (await recorded_board(env, row.id)).content  # the result card, recorded just after its followup


async def test_unrated_by_default_then_rated_then_ratings_reset_with_cancel_and_confirm(env: BotEnv) -> None:
    server = env.server
    alice, bob = server.as_user("alice"), server.as_user("bob")
    assert "New games are rated: no (results count, ratings do not move)." in await settings(env, rated=False)
    card = await _short_game(env, casual=True, rated=True)  # turned back on mid-game: the game stays unrated
    assert "Not rated (this server plays unrated games)." in card and "Rating changes" not in card, card
    assert env.ratings("constructo") == {}

    card = await _short_game(env, casual=False)
    assert "Rating changes" in card, card
    before = env.ratings("constructo")
    assert set(before) == {alice.id, bob.id}

    mod = server.as_user("mod")
    ask = await answered(await mod.slash("settings", reset_ratings="constructo"))
    assert ask.ephemeral and "2 players will lose their rating and start again from 1500" in ask.text, ask.text
    assert [c.get("label") for c in ask.message.buttons()] == ["Reset the ratings", "Cancel"]
    res = await answered(await mod.click(ask.message, "Cancel"))
    assert "Cancelled: no rating was changed." in server.message(ask.message.id).content, res
    assert env.ratings("constructo") == before

    with spanish(env, "mod"):
        ask = await answered(await mod.slash("settings", reset_ratings="constructo"))
        assert "2 jugadores perderán su puntuación" in ask.text, ask.text
        await answered(await mod.click(ask.message, "Reiniciar las puntuaciones"))
        done = server.message(ask.message.id)
        assert "2 jugadores vuelven a empezar desde 1500" in done.content and not done.buttons(), done.content
    assert env.ratings("constructo") == {}
    board = await answered(await alice.slash("leaderboard", game="constructo"))
    assert "Nobody has a rated Constructo game in this server yet." in board.text, board.text
    again = await answered(await mod.slash("settings", reset_ratings="constructo"))
    assert "Nobody has a Constructo rating in this server" in again.text and not again.message.buttons()


async def test_blocked_member_can_neither_start_nor_join_nor_be_challenged_until_unblocked(env: BotEnv) -> None:
    server = env.server
    alice, carol = server.as_user("alice", "general"), server.as_user("carol", "general")
    carol_id = server.user("carol").id
    text = await settings(env, block="carol")
    assert f"Blocked from playing here: <@{carol_id}>." in text, text
    open_challenge = await answered(await alice.slash("constructo challenge"))
    lobby = await answered(await alice.in_channel("games-2").slash("conex new", table="small", goal=20))
    with nothing_created(env):
        assert_refusal(
            await answered(await carol.slash("constructo challenge", opponent="bot")), "blocked you from starting"
        )
        with spanish(env, "carol"):
            assert_refusal(await answered(await carol.slash("conex new", table="small", goal=20)), "te ha bloqueado")
        assert_refusal(
            await answered(await alice.in_channel("games").slash("constructo challenge", opponent="carol")),
            f"<@{carol_id}> may not play games in this server",
        )
    assert_refusal(await answered(await carol.click(open_challenge.message, "Accept")), "blocked you")
    assert env.latest_game("constructo").status == "lobby"
    seats = env.latest_game("conex").players
    assert_refusal(await answered(await carol.in_channel("games-2").click(lobby.message, "Join")), "blocked you")
    assert env.latest_game("conex").players == seats

    text = await settings(env, unblock="carol")
    assert "Nobody is blocked from playing here." in text
    await answered(await carol.click(open_challenge.message, "Accept"), followups=1)
    assert env.latest_game("constructo").status == "active"
    await resign(carol)
    await answered(await alice.in_channel("games-2").click(lobby.message, "Leave"))


async def test_settings_survive_a_restart(env: BotEnv) -> None:
    server = env.server
    await settings(env, allow_channel="games-2", game_off="conex", rated=False, block="dave")
    shown = await settings(env)
    await env.proc.restart()
    assert await settings(env) == shown
    dave, alice = server.as_user("dave", "games-2"), server.as_user("alice", "games")
    with nothing_created(env):
        assert_refusal(await answered(await dave.slash("constructo challenge", opponent="bot")), "blocked you")
        assert_refusal(await answered(await alice.slash("constructo challenge", opponent="bot")), "only in")
        assert_refusal(
            await answered(await alice.in_channel("games-2").slash("conex new", table="small", goal=20)), "turned off"
        )
    await settings(env, any_channel=True, game_on="conex", rated=True, unblock="dave")
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    env.assert_alive()


async def test_a_casual_challenge_moves_no_rating_and_its_rematch_stays_casual(env: BotEnv) -> None:
    """``rated: False`` on a challenge in a server that rates games: the challenge, the result card and the
    ratings say and do "casual"; the rematch of that game is casual too; a CONEX lobby takes the option as well."""
    server = env.server
    alice, bob = server.as_user("alice"), server.as_user("bob")
    assert "New games are rated: yes." in await settings(env, rated=True)
    before = env.ratings("constructo")
    res = await answered(await alice.slash("constructo challenge", opponent="bob", rated=False))
    assert "Not rated: a casual game." in res.text and "this server plays unrated" not in res.text, res.text
    await answered(await bob.click(res.message, "Accept"), followups=1)
    await answered(await alice.slash("constructo place", tile=5, size="large"))
    await answered(await bob.slash("constructo place", tile=4, size="small"))
    await resign(alice)
    row = env.latest_game("constructo", server.channel("games").id)
    card = await recorded_board(env, row.id)  # the result card, recorded just after its followup
    assert row.status == "finished" and "Not rated (a casual game)." in card.content, card.content
    assert "Rating changes" not in card.content and env.ratings("constructo") == before
    await answered(await alice.click(card, "Rematch"))
    await answered(await bob.click(server.message(card.id), "Rematch"))
    again = env.latest_game("constructo", server.channel("games").id)
    assert again.id != row.id and again.state["extra"].get("casual") == "chosen", again.state.get("extra")
    await resign(bob)
    lobby = await answered(await alice.slash("conex new", table="small", goal=20, rated=False))
    assert "Not rated: a casual game." in lobby.text, lobby.text
    await answered(await alice.click(lobby.message, "Leave"))
