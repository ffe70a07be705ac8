"""E2E (issue 22, "Lists within Discord's limits"): every list a message carries pages within 2,000 characters,
25 options and 5 component rows, never cut mid-line, every button beside its readable line.

Filled past their limits through the real bot: the admins' ``/games`` with 60 open games hosted by players with
32-character names (paged with Previous / Next, every game listed exactly once with its Abort button),
``/history`` with 40 finished games (paged Older, every game once), ``/leaderboard`` with 30 rated players with
long names (paged, every rank once), and ``/help`` in English and Spanish. Finished games and ratings are stored
with the storage API before the bot starts (the lists' input); the open games are opened through the bot.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio

from bot.storage import Storage
from devserver.models import Message, User, fixed_id

from .helpers import BotEnv, answered, bot_env

pytestmark = pytest.mark.asyncio(loop_scope="module")

LONG = "w" * 32  # the devserver shows a name capitalised (global_name)
RANKED = 30
HISTORY = 40
OPEN = 60


def ranked_id(n: int) -> int:
    return fixed_id(700 + n)


async def seed(db: Path, guild_id: int, channel_id: int, alice: int, bob: int) -> None:
    """40 finished Constructo games of alice (against bob) and 15 more between 30 other players: all rated."""
    async with await Storage.open(db) as s:

        async def finish(a: int, b: int, winner: int) -> None:
            gid = await s.create_game("constructo", guild_id, channel_id, {}, [a, b], "active")
            loser = b if winner == a else a
            await s.apply_action(
                gid,
                0,
                {},
                player=loser,
                action="forfeit",
                result={
                    "ranking": [[winner], [loser]],
                    "results": {winner: "win", loser: "loss"},
                    "reason": "M3",
                    "scores": {a: 3, b: 1},
                },
            )

        for n in range(HISTORY):
            await finish(alice, bob, alice if n % 3 else bob)
        for n in range(0, RANKED, 2):
            await finish(ranked_id(n), ranked_id(n + 1), ranked_id(n))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    tmp = Path(tmp_path_factory.mktemp("lists"))
    async with bot_env(tmp, start=False) as e:
        server = e.server
        for n in range(RANKED):
            server.users[f"r{n}"] = User(id=ranked_id(n), name=f"{n:02d}{LONG}"[:32])
        e.data_dir.mkdir(parents=True, exist_ok=True)
        await seed(
            e.db_path, server.guild_id, server.channel("general").id, server.user("alice").id, server.user("bob").id
        )
        await e.proc.start()
        yield e


def check_limits(msg: Message) -> None:
    """Discord's limits on one message, and whole lines (no line ends cut: a ``…`` is never a page's last word)."""
    assert len(msg.content) <= 2000, len(msg.content)
    assert len(msg.components) <= 5, msg.components
    for row in msg.components:
        assert row["type"] == 1 and len(row["components"]) <= 5
        for comp in row["components"]:
            assert len(comp.get("options", [])) <= 25
    assert not msg.content.rstrip("`\n").endswith("…"), msg.content[-80:]


async def test_games_history_leaderboard_and_help_page_within_limits(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    mod, alice = server.as_user("mod"), server.as_user("alice")
    await answered(await mod.slash("settings", games_per_member=100, games_per_server=1000, threads=500))

    # --- 60 open games (CONEX lobbies, in threads once the channel is busy), hosted by long-named players
    hosts = []
    for n in range(4):
        server.users[f"host{n}"] = User(id=fixed_id(800 + n), name=f"{LONG[:30]}{n:02d}")
        hosts.append(server.as_user(f"host{n}", "games-2"))
    for n in range(OPEN):
        await answered(await hosts[n % 4].slash("conex new", table="small", goal=20))
    with env.db() as conn:
        open_ids = {gid for (gid,) in conn.execute("SELECT id FROM games WHERE status IN ('lobby', 'active')")}
    assert len(open_ids) == OPEN

    seen: list[int] = []
    res = await answered(await mod.slash("games"))
    msg = res.message
    for _page in range(OPEN):
        assert msg is not None and msg.ephemeral
        check_limits(msg)
        lines = msg.content.split("\n")
        listed = [int(m) for line in lines[1:] for m in re.findall(r"^\*\*#([0-9]+)\*\*", line)]
        assert len(listed) == len(lines) - 1, f"a line that is not a whole game line: {lines}"
        assert all(line.endswith(":R>") for line in lines[1:]), lines
        buttons = [c for c in msg.buttons() if c["custom_id"].startswith("ga:ab:")]
        assert [int(c["custom_id"].split(":")[2]) for c in buttons] == listed, "a button without its line"
        assert all(c["label"] == f"Abort #{g}" for c, g in zip(buttons, listed, strict=True))
        seen += listed
        nxt = next((c for c in msg.buttons() if c.get("label") == "Next ▶"), None)
        if nxt is None or nxt.get("disabled"):
            break
        res = await answered(await mod.click(msg, "Next ▶"))
        msg = server.message(msg.id)
    assert sorted(seen) == sorted(open_ids) and len(seen) == len(set(seen)), "every open game exactly once"
    assert "page" in server.message(msg.id).content

    # --- /history: 40 finished games, 5 a page, Older until the end
    res = await answered(await alice.slash("history"))
    msg = res.message
    history: list[int] = []
    for _page in range(HISTORY):
        check_limits(msg)
        history += [int(g) for g in re.findall(r"`#([0-9]+)`", msg.content)]
        sel = next(c for c in msg.buttons() if c.get("type") == 3)
        assert len(sel["options"]) == len(re.findall(r"`#([0-9]+)`", msg.content)) <= 25
        older = next(c for c in msg.buttons() if c.get("type") == 2 and "Older" in c.get("label", ""))
        if older.get("disabled"):
            break
        await answered(await alice.click(msg, older["label"]))
        msg = server.message(msg.id)
    assert len(history) == HISTORY == len(set(history)), history

    # --- /leaderboard: 30 rated players (plus alice and bob), 10 a page
    res = await answered(await alice.slash("leaderboard", game="constructo"), followups=0)
    msg = res.message
    ranks: list[int] = []
    shown: list[str] = []
    for _page in range(10):
        check_limits(msg)
        shown.append(msg.content)
        ranks += [int(r) for r in re.findall(r"^([0-9]+)\. ", msg.content, re.M)]
        nxt = next((c for c in msg.buttons() if c.get("label") == "Next ▶"), None)
        if nxt is None or nxt.get("disabled"):
            break
        res = await answered(await alice.click(msg, "Next ▶"))
        msg = res.message if not msg.ephemeral else server.message(msg.id)
        assert msg.ephemeral, "a page of the public leaderboard is answered privately"
    assert ranks == list(range(1, RANKED + 3)), ranks
    assert sum(LONG[:20] in text.lower() for text in shown) >= 3, "the long names are shown whole on every page"

    # --- /help in both languages
    for user, locale in ((alice, "en-US"), (server.as_user("dave"), "es-ES")):
        user.user.locale = locale
        res = await answered(await user.slash("help"))
        for m in res.messages:
            check_limits(m)
        assert res.text.strip()
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
