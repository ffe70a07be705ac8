"""E2E hostile input against the real bot process: non-players, out-of-turn users and garbage options (NaN,
infinities, huge numbers, unknown ids, overlong strings, forged custom ids).

Every one is answered (an ephemeral reply), none changes the stored state or version, none posts anything
public, none crashes the bot, and the server records no protocol violation. Values Discord's own client would
never send (infinity, numbers past an option's range, forged custom ids) are injected as raw interactions.
"""

from __future__ import annotations

import math
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from devserver.client import DevUser
from devserver.result import InteractionResult

from .helpers import BotEnv, answered, assert_refusal, bot_env, click_raw

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("hostile"))) as e:
        yield e


async def raw_slash(user: DevUser, path: str, **options: Any) -> InteractionResult:
    """``/path`` with ``options`` sent as given (no client-side type, range or length checks)."""
    server = user.server
    name, sub = path.split()
    cmd = server.all_commands()[name]
    spec = next(o for o in cmd["options"] if o["name"] == sub)
    types = {o["name"]: o["type"] for o in spec.get("options", [])}
    opts = [{"name": k, "type": types.get(k, 3), "value": v} for k, v in options.items()]
    data = {"id": cmd["id"], "name": name, "type": 1, "options": [{"name": sub, "type": 1, "options": opts}]}
    if cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    it = await server.create_interaction(user.user, user.channel, 2, data)
    return InteractionResult(server, it)


class Guard:
    """Snapshots the games and the public messages; ``check`` asserts an interaction changed nothing."""

    def __init__(self, env: BotEnv, game_ids: list[int]) -> None:
        self.env = env
        self.game_ids = game_ids
        self.count = 0
        self.snap = self.snapshot()

    def snapshot(self) -> tuple[Any, ...]:
        games = tuple((g.version, g.status, g.state, g.players) for g in map(self.env.game, self.game_ids))
        public = tuple(m.id for m in self.env.server.all_messages() if not m.ephemeral)
        return games, public

    async def check(self, res: InteractionResult | Any, *needles: str) -> str:
        res = await answered(await res)
        text = assert_refusal(res, *needles)
        assert not re.search(r"NotYourTurn|\*\*Input\*\*|Error\b", text), f"an internal name in {text!r}"
        assert "went wrong" not in text, f"a generic internal error instead of a specific refusal: {res!r}"
        assert self.snapshot() == self.snap, f"state or public messages changed after {res!r}"
        self.env.assert_alive()
        self.count += 1
        return text


async def test_hostile_input_is_refused_ephemerally_and_changes_nothing(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol, dave = (server.as_user(n, "games") for n in ("alice", "bob", "carol", "dave"))
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    res = await answered(await bob.click(res.message, "Accept"), followups=1)
    board = res.followups[-1]
    cgame = env.latest_game("constructo").id

    calice, cbob, ccarol, cdave = (u.in_channel("general") for u in (alice, bob, carol, dave))
    lobby = (await answered(await calice.slash("conex new", table="small", goal=20))).message
    await answered(await cbob.click(lobby, "Join"))
    await answered(await ccarol.click(lobby, "Join"))
    table = (await answered(await calice.click(lobby, "Start"), followups=1)).followups[-1]
    xgame = env.latest_game("conex").id
    g = Guard(env, [cgame, xgame])
    sel = next(c for c in board.buttons() if c.get("type") == 3 and c["custom_id"].startswith("cx:pl:"))

    # --- Constructo: non-player, out of turn, garbage
    await g.check(carol.slash("constructo place", tile=5, size="large"), "not a player")
    await g.check(carol.select(board, sel["options"][0]["value"], custom_id=sel["custom_id"]), "not a player")
    await g.check(carol.click(board, "Resign"), "not a player")
    await g.check(bob.slash("constructo place", tile=5, size="large"), "not your turn")
    await g.check(bob.select(board, sel["options"][0]["value"], custom_id=sel["custom_id"]), "not your turn")
    await g.check(alice.slash("constructo place", tile=99, size="large"), "Tile 99 does not exist")
    await g.check(alice.slash("constructo place", tile=10**15, size="large"), "does not exist")
    await g.check(alice.slash("constructo place", tile=-3, size="small"), "Tile -3 does not exist")
    await g.check(raw_slash(alice, "constructo place", tile=5, size="huge" * 1500), "chip size")
    await g.check(raw_slash(alice, "constructo place", tile=2**63, size="large"))
    await g.check(alice.slash("constructo move", **{"from": 1, "to": 2}), "T1")
    await g.check(alice.slash("constructo move", **{"from": 1, "to": 1}))
    await g.check(alice.slash("constructo choose", layout="(0,0) " * 900))
    # select values that are not among the options (Discord's client only offers the listed ones)
    await g.check(click_raw(alice, board, sel["custom_id"], ["99"]), "Tile 99 does not exist")
    await g.check(click_raw(alice, board, sel["custom_id"], ["5); DROP TABLE games;--"]), "could not understand")
    # a challenge with a garbage layout in the busy channel: refused before any thread or game is made
    await g.check(dave.slash("constructo challenge", opponent="carol", layout="(9,9) nonsense " * 300), "layout")
    await g.check(carol.slash("constructo challenge", opponent="carol"))
    assert len(server.channels) == 3, "no thread was opened for a refused challenge"

    # --- CONEX: non-player, out of turn, NaN / inf / huge / unknown ids / overlong strings
    await g.check(cdave.slash("conex place", card="A", corner=1, x=0.0, y=0.0), "not a player")
    await g.check(cdave.click(table, "Draw 2"), "not a player")
    await g.check(cbob.slash("conex draw"), "not your turn")
    await g.check(cbob.click(table, "Draw 2"), "not your turn")
    await g.check(calice.slash("conex place", card="A", corner=1, x=math.nan, y=0.0), "finite")
    await g.check(raw_slash(calice, "conex place", card="A", corner=1, x=math.inf, y=0.0), "finite")
    await g.check(raw_slash(calice, "conex place", card="A", corner=1, x=0.0, y=-math.inf), "finite")
    await g.check(raw_slash(calice, "conex place", card="A", corner=1, x=1e300, y=1e300), "off every table")
    await g.check(raw_slash(calice, "conex place", card="A", corner=1, x=0.0, y=0.0, rotation=math.nan), "finite")
    await g.check(raw_slash(calice, "conex place", card="A", corner=7, x=0.0, y=0.0), "corners 1-")
    await g.check(calice.slash("conex place", card="A", corner=1, x=0.5), "give both x and y")
    await g.check(calice.slash("conex place", card="Z" * 3000, corner=1), "is not a card")
    await g.check(calice.slash("conex place", card="99", corner=1, target="board"))
    await g.check(calice.slash("conex place", card="A", corner=1, target="board" * 1000), "is not a target")
    await g.check(calice.slash("conex place", card="A", corner=1, target="51"))
    await g.check(calice.slash("conex lightning", card=52), "X3")
    await g.check(calice.slash("conex discard", card="A"), "X3")
    await g.check(calice.slash("conex pass"), "A3")
    await g.check(calice.slash("conex board", zoom="77"))
    await g.check(calice.slash("conex board", zoom="\u202e" * 500))
    await g.check(cdave.slash("conex start"))
    await g.check(cdave.slash("conex hints"), "not a player")
    await g.check(cbob.slash("conex hints"), "not your turn yet")  # hints to plan: private, changes nothing
    assert g.count >= 40

    # the bot is still fine: a legal move still plays; a hint shown before it is then refused as out of date
    hints = await answered(await calice.slash("conex hints"))
    hint_ids = [c["custom_id"] for c in hints.message.buttons() if c["custom_id"].startswith("cn:hp:")]
    assert hints.ephemeral and hint_ids
    xversion = env.game(xgame).version
    res = await answered(await calice.slash("conex draw"))
    assert not res.ephemeral and env.game(xgame).version == xversion + 1
    g.snap = g.snapshot()
    await g.check(calice.click(hints.message, hint_ids[0]), "out of date")
    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log, env.log_tail(4000)
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
