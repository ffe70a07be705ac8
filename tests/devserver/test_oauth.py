"""The devserver's OAuth2 for the live table (issue 26): an Activity launched for a user gives a one-time code;
``/oauth2/token`` exchanges it (with the client secret) for a bearer token; ``/users/@me`` answers that user."""

from __future__ import annotations

import aiohttp

from devserver import DevServer
from devserver.oauth import CLIENT_SECRET


async def test_a_launch_code_is_exchanged_once_for_the_users_token(server: DevServer) -> None:
    launch = server.oauth.launch("bob", "general")
    assert launch.user_id == server.user("bob").id and launch.channel_id == server.channel("general").id
    form = {
        "client_id": str(server.application_id),
        "client_secret": CLIENT_SECRET,
        "grant_type": "authorization_code",
        "code": launch.code,
    }
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{server.api_base}/oauth2/token", data={**form, "client_secret": "wrong"}) as resp:
            assert resp.status == 401 and (await resp.json())["error"] == "invalid_client"
        async with http.post(f"{server.api_base}/oauth2/token", data=form) as resp:
            assert resp.status == 200
            body = await resp.json()
        assert body["token_type"] == "Bearer" and body["scope"] == "identify"
        async with http.post(f"{server.base_url}/api/oauth2/token", data=form) as resp:
            assert resp.status == 400 and (await resp.json())["error"] == "invalid_grant", "a code works once"
        bearer = {"Authorization": f"Bearer {body['access_token']}"}
        async with http.get(f"{server.api_base}/users/@me", headers=bearer) as resp:
            assert resp.status == 200 and (await resp.json())["id"] == str(server.user("bob").id)
        async with http.get(f"{server.api_base}/users/@me", headers={"Authorization": "Bearer nope"}) as resp:
            assert resp.status == 401
        async with http.get(f"{server.api_base}/guilds/{server.guild_id}", headers=bearer) as resp:
            assert resp.status == 401, "a user's bearer token is not the bot's"
    assert server.oauth.exchanges == 1 and server.violations == []
