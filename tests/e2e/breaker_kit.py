"""Shared helpers of the breaker probes (``test_breaker_probe*.py``): one bot per module with channels p1..p30 and
members whose nicknames are Markdown, raw clicks on messages as a client still shows them, the checks of what a
player reads (no internal error, no rule code outside a bold refusal prefix, no hash), and quick game set-ups."""

from __future__ import annotations

import copy
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from devserver.models import Message, User, fixed_id

from .helpers import BotEnv, answered, bot_env

RULE_CODE = re.compile(r"(?<![\w:#])[A-Z]\d{1,2}\b")  # "K3" (bold parts removed first; "1:Y2" is a corner)


ODD_NAMES = ["[Nitro](https://evil.example)", "||hidden|| `x", "\u202eevil\u202c", "# big"]
"""Nicknames written as Markdown: a masked link (29 characters: a valid nickname), a spoiler, bidi marks, a heading."""


HASHLIKE = re.compile(r"(?<!`)\b[0-9a-f]{32,}\b")  # the deal's fingerprint is shown on purpose, in backticks


def no_traceback(env: BotEnv) -> None:
    log = env.proc.log()
    assert "Traceback" not in log and "Ignoring exception" not in log, env.log_tail(5000)


def snapshot(env: BotEnv, game_id: int) -> tuple[Any, ...]:
    row = env.game(game_id)
    return row.status, row.version, row.state, row.players, env.actions(game_id)


def public_ids(env: BotEnv) -> list[int]:
    return [m.id for m in env.server.all_messages() if not m.ephemeral]


def readable(text: str, *, moves: bool = False) -> str:
    """No internal error, rule code outside bold or hash in ``text`` (``moves``: it may name Constructo moves, "S5",
    which read like rule codes)."""
    assert "went wrong" not in text.lower(), text
    assert moves or not RULE_CODE.search(re.sub(r"\*\*[^*]*\*\*", "", text)), f"a rule code outside bold: {text!r}"
    assert not HASHLIKE.search(text), f"a hash shown: {text!r}"
    return text


def cid(message: Message, label: str) -> str:
    found = [c["custom_id"] for c in message.buttons() if c.get("label") == label]
    assert found, f"no {label!r} on the message: {[c.get('label') for c in message.buttons()]}"
    return found[0]


async def constructo(env: BotEnv, channel: str, a: str = "alice", b: str = "bob") -> tuple[int, Any, Any, Message]:
    alice, bob = env.server.as_user(a, channel), env.server.as_user(b, channel)
    res = await answered(await alice.slash("constructo challenge", opponent=b))
    board = (await answered(await bob.click(res.message, "Accept"), followups=1)).followups[-1]
    return env.latest_game("constructo", env.server.channel(channel).id).id, alice, bob, board


async def conex(env: BotEnv, channel: str, names: tuple[str, ...]) -> tuple[int, list[Any], Message, Message]:
    users = [env.server.as_user(n, channel) for n in names]
    lobby = (await answered(await users[0].slash("conex new", table="small", goal=20))).message
    lobby_seen = copy.deepcopy(lobby)
    for u in users[1:]:
        await answered(await u.click(lobby, "Join"))
    table = (await answered(await users[0].click(lobby, "Start"), followups=1)).followups[-1]
    return env.latest_game("conex", env.server.channel(channel).id).id, users, lobby_seen, table


@asynccontextmanager
async def probe_env(tmp: Path) -> AsyncIterator[BotEnv]:
    """The bot on ``tmp`` with channels p1..p30 and members odd1..odd4 named :data:`ODD_NAMES`, READY."""
    async with bot_env(tmp, start=False) as e:
        for n in range(1, 31):
            e.server.add_channel(f"p{n}")
        for n, name in enumerate(ODD_NAMES, start=1):
            e.server.users[f"odd{n}"] = User(id=fixed_id(930 + n), name=name)
        await e.proc.start()
        await e.ready()
        yield e
