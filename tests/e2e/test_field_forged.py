"""E2E (issue 22, forged payloads): custom ids, select values and command options a modified client crafts get a
private, clear answer through the real bot and change nothing; never "Something went wrong", never a traceback.

Components: unknown prefixes, ids not on the clicked message, ids of 2^63 and more, a hint at x = 1e20, pages and
cards out of range, a history of a user who is no one, select values never offered. Commands (raw payloads, no
client-side checks): a user option that resolves to no one, an integer option given text or 2^70, autocomplete
with garbage. Buttons carrying forged ids are put on a message of the bot's (as a modified client would show them).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from devserver.client import DevUser
from devserver.models import Message, snowflake
from devserver.result import InteractionResult

from .helpers import BotEnv, answered, assert_refusal, bot_env, click_raw

pytestmark = pytest.mark.asyncio(loop_scope="module")
FORGED: set[int] = set()  # the messages standing for a modified client's display (not the bot's doing)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def env(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BotEnv]:
    async with bot_env(Path(tmp_path_factory.mktemp("forged"))) as e:
        yield e


def forged_message(env: BotEnv, like: Message, custom_id: str, *, select: list[str] | None = None) -> Message:
    """A message of the bot's in ``like``'s channel carrying one component with ``custom_id`` (a select offering
    ``select`` if given): what a modified client would display."""
    if select is None:
        comp: dict[str, Any] = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
    else:
        comp = {"type": 3, "custom_id": custom_id, "options": [{"label": v, "value": v} for v in select]}
    msg = dataclasses.replace(
        like, id=snowflake(), components=[{"type": 1, "components": [comp]}], attachments=[], edits=0
    )
    FORGED.add(msg.id)
    return env.server.add_message(msg)


async def raw_command(
    user: DevUser, name: str, options: list[dict[str, Any]], *, sub: str | None = None, itype: int = 2
) -> InteractionResult:
    """``/name [sub]`` with ``options`` exactly as given (types, values, no ``resolved`` data)."""
    server = user.server
    cmd = server.all_commands()[name]
    opts = [{"name": sub, "type": 1, "options": options}] if sub else options
    data: dict[str, Any] = {"id": cmd["id"], "name": name, "type": 1, "options": opts}
    if cmd.get("guild_id"):
        data["guild_id"] = cmd["guild_id"]
    it = await server.create_interaction(user.user, user.channel, itype, data)
    return InteractionResult(server, it)


class Unchanged:
    """The games, the public messages and the channels, before and after each forged interaction."""

    def __init__(self, env: BotEnv) -> None:
        self.env = env
        self.snap = self.take()

    def take(self) -> tuple[Any, ...]:
        with self.env.db() as conn:
            games = conn.execute("SELECT id, status, version, state_json FROM games ORDER BY id").fetchall()
        public = [
            (m.id, m.content, m.edits) for m in self.env.server.all_messages() if not m.ephemeral and m.id not in FORGED
        ]
        return games, public, len(self.env.server.channels)

    async def check(self, pending: Any, *needles: str) -> str:
        try:
            res = await answered(await pending)
        except TimeoutError as err:
            raise AssertionError(f"no answer: {err}\n{self.env.log_tail(3000)}") from err
        text = assert_refusal(res, *needles)
        assert "went wrong" not in text.lower(), text
        assert not re.search(r"Error\b|Traceback|snowflake|64 bits", text), text
        assert self.take() == self.snap, f"something changed after {res!r}"
        return text


async def test_forged_components_and_options_are_refused_privately(env: BotEnv) -> None:
    server = env.server
    mark = env.mark()
    alice, bob, carol = (server.as_user(n) for n in ("alice", "bob", "carol"))
    res = await answered(await alice.slash("constructo challenge", opponent="bob"))
    board = (await answered(await bob.click(res.message, "Accept"), followups=1)).followups[-1]
    game = env.latest_game("constructo")
    lobby = (await answered(await carol.in_channel("general").slash("conex new", table="small", goal=20))).message
    xgame = env.latest_game("conex")
    g = Unchanged(env)
    unknown = "not one of mine"
    forged = "never put on it"

    # --- ids no template takes, or that the clicked message does not carry
    for cid in ("zz:boom:1", "cx:res:", "cx:res:abc", "cn:hp:1:2:3", "x" * 100, "cx:res:12 ", "rc:hp:1:-:q0:0"):
        await g.check(click_raw(alice, board, cid), unknown)
    await g.check(click_raw(alice, board, f"cx:res:{game.id + 1000}"), unknown)  # valid form, not on it
    await g.check(click_raw(carol, lobby, f"cn:join:{xgame.id}9"), unknown)

    # --- on a message of the bot's (a modified client's display): out of range, or no such thing
    huge = "9" * 25
    for cid, needle in (
        (f"cx:res:{huge}", forged),
        (f"cx:res:{2**63}", forged),
        (f"cn:hp:{xgame.id}:1:1:1:100000000000000000000.0:0.0:0.0", forged),  # a hint at x = 1e20
        (f"cn:hp:{xgame.id}:{huge}:1:1:0.0:0.0:0.0", forged),
        (f"cx:pl:{game.id}:{2**64}:S", forged),
        (f"rc:hp:{huge}:-:t0:0", forged),
        (f"cx:res:{game.id + 1000}", "does not exist"),
        (f"rm:go:{game.id + 1000}", "does not exist"),
    ):
        await g.check(click_raw(alice, forged_message(env, board, cid), cid), needle)
    # a history page of a user who resolves to no one: a true page (no games), on the clicked message only
    cid = "rc:hp:123456789:-:t0:0"
    page = await answered(await click_raw(alice, forged_message(env, board, cid), cid))
    assert "no finished games" in page.content.lower(), page
    assert g.take() == g.snap

    # --- select values never offered
    sel = f"rc:ho:{alice.id}"
    for values in (["abc"], [huge], ["-1"], [str(game.id)]):
        await g.check(click_raw(alice, forged_message(env, board, sel, select=values), sel, values))
    dsel = f"cn:dsel:{xgame.id}:9"
    await g.check(click_raw(carol, forged_message(env, board, dsel, select=["1"]), dsel, ["1"]))

    # --- commands: a user that resolves to no one, text or 2^70 in an integer option, garbage autocomplete
    nobody = str(987654321012345678)
    await g.check(raw_command(alice, "constructo", [{"name": "opponent", "type": 6, "value": nobody}], sub="challenge"))
    await g.check(raw_command(alice, "stats", [{"name": "user", "type": 6, "value": nobody}]))
    await g.check(raw_command(alice, "history", [{"name": "user", "type": 6, "value": "not-an-id"}]))
    await g.check(raw_command(alice, "replay", [{"name": "game", "type": 4, "value": "abc"}]))
    await g.check(raw_command(alice, "replay", [{"name": "game", "type": 4, "value": 2**70}]))
    await g.check(raw_command(alice, "replay", [{"name": "game", "type": 3, "value": "1; DROP TABLE games"}]))
    mod = server.as_user("mod")
    await g.check(raw_command(mod, "settings", [{"name": "games_per_member", "type": 4, "value": 0}]), "1-100")
    await g.check(raw_command(mod, "settings", [{"name": "threads", "type": 4, "value": 10**6}]), "0-500")
    await g.check(raw_command(mod, "settings", [{"name": "clock", "type": 3, "value": "forever"}]))
    # a value outside the option's declared choices, with a valid option beside it: nothing of it is saved
    expiry = {"name": "expiry", "type": 4, "value": 37}
    await g.check(raw_command(mod, "settings", [expiry, {"name": "reset_ratings", "type": 3, "value": "chess"}]))
    await g.check(raw_command(alice, "mysettings", [{"name": "theme", "type": 3, "value": "neon"}]))
    await g.check(raw_command(alice, "mysettings", [{"name": "language", "type": 3, "value": "fr"}]))
    with env.db() as conn:
        assert conn.execute("SELECT theme, language FROM user_prefs WHERE user_id = ?", (alice.id,)).fetchall() in (
            [],
            [(None, None)],
        ), "a forged choice was stored"
    with env.db() as conn:
        assert conn.execute("SELECT count(*) FROM guild_settings").fetchone()[0] == 0, "a forged setting was stored"
    auto = await raw_command(
        alice, "replay", [{"name": "game", "type": 4, "value": "zz" * 60, "focused": True}], itype=4
    )
    await auto.wait(10)
    assert not auto.failed and g.take() == g.snap

    log = env.proc.log()
    assert "Traceback" not in log and "unexpected error" not in log and "Ignoring exception" not in log, env.log_tail(
        5000
    )
    assert env.violations_since(mark) == [], env.log_tail()
    env.assert_alive()
