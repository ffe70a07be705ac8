"""E2E (issue 22, "Limits per player"): open games and the threads the bot opens are capped per member and per
server (``bot/services/caps.py``), changeable with ``/settings`` (Manage Server), refused privately with the numbers.

Through the real bot: alice fills the default member cap (5) with AI games, a CONEX lobby and a challenge (most in
threads, the channels being busy); the 6th is refused and creates no game and no thread; bob, only challenged, is
not held by alice's challenge. The moderator raises the member cap, then lowers the thread cap and the server cap
to what is open: each next opening is refused with its numbers; joining a lobby at the member cap is refused too.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    # the harness lifts the caps for other tests (devserver/process.py): empty values restore the bot's defaults
    defaults = {"GAMES_PER_MEMBER": "", "GAMES_PER_SERVER": "", "GAME_THREADS": ""}
    async with bot_env(Path(tmp_path_factory.mktemp("caps")), extra_env=defaults) as e:
        yield e


def open_games(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games WHERE status IN ('lobby', 'active')").fetchone()[0])


def all_games(env: BotEnv) -> int:
    with env.db() as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def ai_games_settled(env: BotEnv) -> bool:
    """Every running Constructo game against the AI waits for its human player and shows that version's board (an AI
    opening a game posts its move's board a moment later: not a message of the refusals that follow)."""
    ai = env.server.bot_user.id  # a Constructo AI seat is the bot's own user id (``ai_ids="bot"``)
    with env.db() as conn:
        ids = [gid for (gid,) in conn.execute("SELECT id FROM games WHERE kind = 'constructo' AND status = 'active'")]
    for gid in ids:
        game = env.game(gid)
        if ai in game.players:
            seat = game.match.current_player
            if seat is None or game.players[seat] == ai or game.messages.get("board.version") != game.version:
                return False
    return True


async def test_caps_per_member_server_and_threads(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol, mod = (server.as_user(n) for n in ("alice", "bob", "carol", "mod"))

    shown = await answered(await mod.slash("settings"))
    assert "at most 5 per member and 50 in the server; at most 20 in threads" in shown.text, shown.text

    # alice: 3 AI games, a CONEX lobby, a challenge of bob = 5 open games
    for _ in range(3):
        await answered(await alice.slash("constructo challenge", opponent="bot"))
    await answered(await alice.in_channel("general").slash("conex new", table="small", goal=20))
    await answered(await alice.slash("constructo challenge", opponent="bob"))
    assert open_games(env) == 5
    await server.wait_until(lambda: ai_games_settled(env), 30, "the AI games waiting for alice, their boards out")
    channels, games = len(server.channels), all_games(env)

    # the 6th is refused with the numbers: no game stored, no thread opened, nothing public
    public = [m.id for m in server.all_messages() if not m.ephemeral]
    for attempt in (
        alice.slash("constructo challenge", opponent="bot"),
        alice.in_channel("games-2").slash("conex new", table="small", goal=20),
        alice.slash("constructo challenge", opponent="carol"),
    ):
        text = assert_refusal(await answered(await attempt), "5 open games", "limit 5")
        assert "went wrong" not in text
    assert (len(server.channels), all_games(env)) == (channels, games)
    assert [m.id for m in server.all_messages() if not m.ephemeral] == public

    # bob is only challenged: alice's challenge does not count for him
    await answered(await bob.slash("constructo challenge", opponent="bot"))

    # the moderator raises the member cap: alice opens a 6th
    saved = await answered(await mod.slash("settings", games_per_member=6))
    assert "at most 6 per member" in saved.text and saved.ephemeral
    await answered(await alice.slash("constructo challenge", opponent="bot"))

    # threads: capped at the number of games already in threads; a busy channel then refuses with the numbers
    in_threads = sum(1 for c in server.channels.values() if c.is_thread)
    await answered(await mod.slash("settings", threads=in_threads))
    before = len(server.channels)
    assert_refusal(
        await answered(await carol.slash("constructo challenge", opponent="bot")),
        f"{in_threads} games in threads",
        f"limit {in_threads}",
    )
    assert len(server.channels) == before

    # the server cap: at what is open now
    total = open_games(env)
    await answered(await mod.slash("settings", games_per_server=total, threads=20))
    assert_refusal(
        await answered(await carol.slash("constructo challenge", opponent="bot")),
        f"{total} open games",
        f"limit {total}",
    )
    assert open_games(env) == total

    # joining a lobby at the member cap: carol holds one game, the cap is 1
    await answered(await mod.slash("settings", games_per_server=1000, games_per_member=1))
    await answered(await carol.slash("constructo challenge", opponent="bot"))
    lobby = next(
        m for m in server.all_messages() if not m.ephemeral and "Join" in {c.get("label") for c in m.buttons()}
    )
    seats = env.latest_game("conex").players
    assert_refusal(
        await answered(await carol.in_channel(lobby.channel_id).click(lobby, "Join")), "1 open game in", "limit 1"
    )
    assert env.latest_game("conex").players == seats

    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
