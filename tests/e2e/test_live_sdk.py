"""E2E: the live table INSIDE Discord, through Discord's own Embedded App SDK (``bot/web/static/discord-sdk.js``,
the bundle of ``@discord/embedded-app-sdk``), in Debian's chromium against the devserver and the real bot.

Discord's client is played by a parent page (served by Playwright's router on the table's origin, see
``PARENT_PATH``) that frames the table with the query string Discord adds (``frame_id``,
``instance_id``, ``platform``, ``channel_id``, ``guild_id``) and answers the SDK's RPC frames the way Discord does:
READY after the handshake, the devserver's one-time code for ``AUTHORIZE``, the user for ``AUTHENTICATE``. The page
must go handshake -> ready -> authorize -> ``/api/token`` -> authenticate -> ``/ws`` and show the player's seat.
The ``?code=`` path (outside Discord) is ``tests/e2e/test_live_table.py``'s.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from .helpers import BotEnv
from .live_kit import PAGE_TIMEOUT_MS, browser, chromium, live_env, start_conex

pytestmark = pytest.mark.asyncio(loop_scope="module")

PARENT_PATH = "/discord-client-test"
"""Where Playwright's router serves the parent page, on the table's own origin (the bot has no such route). The
SDK accepts frames from its own origin as from discord.com's; a parent at ``https://discord.com`` itself would be
refused by chromium's local network access checks before the framed page on 127.0.0.1 ever loads."""

# Discord's client, as far as the page's SDK can tell: it records every frame it gets (window.got) and answers.
PARENT_HTML = """<!doctype html><html><body>
<iframe id="app" src="%(src)s" width="1200" height="780"></iframe>
<script>
const CODE = %(code)s;
window.got = [];
window.addEventListener("message", (event) => {
  const frame = document.getElementById("app").contentWindow;
  if (event.source !== frame || !Array.isArray(event.data)) return;
  const [op, payload] = event.data;
  window.got.push([op, payload]);
  const reply = (body) => frame.postMessage([1, body], "*");
  if (op === 0) {
    reply({cmd: "DISPATCH", evt: "READY", nonce: null,
           data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}}});
  } else if (op === 1 && payload.cmd === "AUTHORIZE") {
    reply({cmd: "AUTHORIZE", evt: null, nonce: payload.nonce, data: {code: CODE}});
  } else if (op === 1 && payload.cmd === "AUTHENTICATE") {
    reply({cmd: "AUTHENTICATE", evt: null, nonce: payload.nonce, data: {
      access_token: payload.args.access_token, scopes: ["identify", "guilds"], expires: "2100-01-01T00:00:00Z",
      user: {id: "1", username: "player", discriminator: "0", public_flags: 0},
      application: {id: "1", name: "tablebot", description: ""}}});
  } else if (op === 1) {
    reply({cmd: payload.cmd, evt: null, nonce: payload.nonce, data: null});
  }
});
</script></body></html>"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def live(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[BotEnv, str, Any]]:
    chromium()  # skip (or fail under CI) before starting anything
    async with live_env(Path(tmp_path_factory.mktemp("live-sdk"))) as (env, base), browser() as b:
        yield env, base, b


async def test_inside_discord_the_sdk_signs_the_player_in(live: tuple[BotEnv, str, Any]) -> None:
    env, base, b = live
    server = env.server
    game_id = await start_conex(env, "general")
    row = env.game(game_id)
    seat = row.conex.current_player
    player = row.players[seat]
    code = server.oauth.launch(player, row.channel_id).code
    async with aiohttp.ClientSession() as http, http.get(f"{base}/api/config") as answer:
        client_id = str((await answer.json())["client_id"])
    guild_id = server.guild_id
    src = (
        f"{base}/?instance_id=i-1&location_id=gc-{row.channel_id}&launch_id=1&referrer_id=&frame_id=f-1"
        f"&platform=desktop&guild_id={guild_id}&channel_id={row.channel_id}"
    )

    page = await b.new_page(viewport={"width": 1280, "height": 820})
    page.set_default_timeout(PAGE_TIMEOUT_MS)

    async def discord_client(route: Any) -> None:
        await route.fulfill(
            status=200, content_type="text/html", body=PARENT_HTML % {"src": src, "code": json.dumps(code)}
        )

    await page.route(base + PARENT_PATH, discord_client)
    await page.goto(base + PARENT_PATH)
    await page.wait_for_function("window.got.length > 0", timeout=20000)  # the framed page's SDK said hello
    frame = next(f for f in page.frames if "frame_id=" in f.url)  # the table, inside the parent
    await frame.wait_for_function("document.body.dataset.version !== undefined", timeout=20000)
    assert await frame.evaluate("document.body.dataset.seat") == str(seat), "signed in as the launched player"
    assert await frame.evaluate("window.LiveSDK.inDiscord") is True

    got = await page.evaluate("window.got")
    assert got[0][0] == 0, "the SDK's handshake first"
    handshake = got[0][1]
    assert handshake["client_id"] == client_id and handshake["frame_id"] == "f-1"
    assert handshake["sdk_version"] == await frame.evaluate("window.LiveSDK.version")
    commands = {payload["cmd"]: payload["args"] for op, payload in got if op == 1}
    assert list(commands)[:2] == ["AUTHORIZE", "AUTHENTICATE"], "authorize, then (after /api/token) authenticate"
    assert commands["AUTHORIZE"] == {
        "client_id": client_id,
        "response_type": "code",
        "state": "",
        "prompt": "none",
        "scope": ["identify", "guilds"],
    }
    token = commands["AUTHENTICATE"]["access_token"]
    assert server.oauth.user_of(token) == server.user(player).id, "the token the server got for the SDK's code"
    await page.close()
