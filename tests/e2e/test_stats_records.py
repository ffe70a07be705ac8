"""E2E (issue 25): a player's records in ``/stats`` through the real bot and the DevServer: head-to-head against an
``opponent:``, the best win streak against people, results by round 1's layout (people · AI) in English and Spanish,
a refused ``opponent:`` equal to the player, and a game against the ``perfect`` AI level (which answers a move)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from .helpers import BotEnv, answered, assert_refusal, bot_env, resign

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("stats_records"))) as e:
        yield e


async def match(env: BotEnv, challenger: str, opponent: str, loser: str, layout: str | None = None) -> None:
    """A Constructo match of two people, resigned at once by ``loser``."""
    server = env.server
    users = {n: server.as_user(n) for n in (challenger, opponent)}
    options = {"opponent": opponent} | ({"layout": layout} if layout else {})
    res = await answered(await users[challenger].slash("constructo challenge", **options))
    await answered(await users[opponent].click(res.message, "Accept"), followups=1)
    await resign(users[loser])


async def test_stats_show_head_to_head_streak_and_layouts(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    await match(env, "alice", "bob", loser="bob", layout="flor")  # alice wins on flor
    await match(env, "bob", "alice", loser="bob")  # alice wins on rombo (the default)
    await match(env, "alice", "bob", loser="alice", layout="flor")  # bob wins on flor
    await match(env, "alice", "carol", loser="carol", layout="(0,0) (1,0) (2,0) (3,0) (4,0) (5,0) (6,0) (7,0) (7,1)")

    alice = server.as_user("alice")
    res = await answered(await alice.slash("stats", opponent="bob"))
    lines = res.text.splitlines()
    assert "  against Bob: 2W 1L 0D" in lines, res.text
    assert "  best win streak against people: 2" in lines, res.text
    assert "  by round 1's layout (against people · against the AI):" in lines, res.text
    assert "    flor: 1W 1L 0D · 0W 0L 0D" in lines, res.text
    assert "    rombo: 1W 0L 0D · 0W 0L 0D" in lines, res.text
    assert "    custom layouts: 1W 0L 0D · 0W 0L 0D" in lines, res.text
    assert len(res.text) <= 2000

    bob = await answered(await server.as_user("carol").slash("stats", user="bob", opponent="carol"))
    assert "  against Carol: no finished game together yet." in bob.text.splitlines(), bob.text
    assert "  best win streak against people: 1" in bob.text.splitlines(), bob.text

    refused = await answered(await alice.slash("stats", opponent="alice"))
    assert_refusal(refused, "nobody has a record against themselves")

    server.user("carol").locale = "es-ES"
    spanish = await answered(await server.as_user("carol").slash("stats", user="alice", opponent="carol"))
    assert "  contra Carol: 1V 0D 0E" in spanish.text.splitlines(), spanish.text
    assert "    tableros propios: 1V 0D 0E · 0V 0D 0E" in spanish.text.splitlines(), spanish.text
    assert env.violations_since(mark) == [], env.log_tail()


async def test_the_perfect_level_answers_and_its_games_count_apart(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    dave = server.as_user("dave")
    res = await answered(await dave.slash("constructo challenge", opponent="bot", level="perfect", layout="corona"))
    assert not res.ephemeral, res.text
    game = env.latest_game("constructo")
    assert "perfect" in str(game.state["seats"]), game.state["seats"]
    await answered(await dave.slash("constructo place", tile=1, size="large"))
    await server.wait_until(lambda: env.game(game.id).version >= 2, 60, "the perfect AI's answer")
    assert env.game(game.id).match.current_round.legal_codes()  # its answer was a legal action, the round goes on
    await resign(dave)
    stats = await answered(await dave.slash("stats"))
    assert "    corona: 0W 0L 0D · 0W 1L 0D" in stats.text.splitlines(), stats.text
    assert "best win streak" not in stats.text  # games against the AI make no streak
    assert env.violations_since(mark) == [], env.log_tail()
