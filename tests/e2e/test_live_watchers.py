"""E2E: a watcher of the live table removed from the server stops watching (``bot/web/hub.py``,
``bot/web/server.py``), through the real bot and the devserver, over raw WebSockets (no browser needed).

The bot runs with ``WEB_MEMBER_TTL_S=0`` (membership asked again before every push to a watcher; 60 s by default,
see tests/bot/test_live_members.py for the remembering): after ``remove_member`` the next move closes the removed
watcher's page with the refusal in words, while the other watcher and the players still get the new state; the
removed user's page reconnecting is refused.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from devserver.oauth import CLIENT_SECRET

from .helpers import BotEnv, bot_env
from .live_kit import free_port, start_conex

pytestmark = pytest.mark.asyncio(loop_scope="module")

NOT_MEMBER = "Only members of the game's server can watch it."


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def live(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[BotEnv, str]]:
    port = free_port()
    extra = {
        "WEB_PORT": str(port),
        "WEB_HOST": "127.0.0.1",
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
        "WEB_MEMBER_TTL_S": "0",
    }
    async with bot_env(Path(tmp_path_factory.mktemp("watchers")), extra_env=extra) as env:
        yield env, f"http://127.0.0.1:{port}"


async def token_of(http: aiohttp.ClientSession, env: BotEnv, base: str, user: str, channel_id: int) -> str:
    code = env.server.oauth.launch(user, channel_id).code
    async with http.post(f"{base}/api/token", json={"code": code}) as resp:
        return str((await resp.json())["access_token"])


async def open_socket(http: aiohttp.ClientSession, base: str, token: str, game_id: int) -> tuple[Any, dict[str, Any]]:
    ws = await http.ws_connect(f"{base}/ws")
    await ws.send_json({"op": "hello", "access_token": token, "game": game_id})
    return ws, await ws.receive_json(timeout=30)


async def next_of(ws: Any, *ops: str) -> dict[str, Any]:
    """The next message of ``ws`` whose op is one of ``ops``; ``{"op": "closed"}`` when the socket closes first."""
    while True:
        msg = await ws.receive(timeout=30)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return {"op": "closed"}
        data = msg.json()
        if data.get("op") in ops:
            return dict(data)


async def test_a_watcher_removed_from_the_server_stops_getting_the_game(live: tuple[BotEnv, str]) -> None:
    env, base = live
    server = env.server
    game_id = await start_conex(env, "general")
    row = env.game(game_id)
    mover = server.user(row.players[row.conex.current_player]).name
    async with aiohttp.ClientSession() as http:
        tokens = {n: await token_of(http, env, base, n, row.channel_id) for n in ("carol", "dave", mover)}
        carol, first = await open_socket(http, base, tokens["carol"], game_id)
        assert first["op"] == "state" and first["seat"] is None, first
        dave, first = await open_socket(http, base, tokens["dave"], game_id)
        assert first["op"] == "state" and first["seat"] is None, first
        player, first = await open_socket(http, base, tokens[mover], game_id)
        assert first["op"] == "state" and first["seat"] == row.conex.current_player, first

        await server.remove_member("carol")
        await player.send_json({"op": "act", "id": 1, "version": row.version, "action": {"type": "draw"}})
        assert (await next_of(player, "done"))["ok"] is True
        moved = await next_of(dave, "state")
        assert moved["version"] == row.version + 1, "a member still watching gets the move"
        told = await next_of(carol, "state", "error")
        assert told == {"op": "error", "error": NOT_MEMBER}, "the removed watcher gets no more of the game"
        assert (await next_of(carol, "state"))["op"] == "closed"

        again, refused = await open_socket(http, base, tokens["carol"], game_id)
        assert refused == {"op": "error", "error": NOT_MEMBER}, "reconnecting is checked again"
        for ws in (again, dave, player):
            await ws.close()
    env.assert_alive()
