"""Users, gateway discovery and guild routes. A guild the bot is not in answers 403 code 50001 (``access.py``).

``GET /gateway/bot`` answers ``{"url", "shards", "session_start_limit"}``: ``shards`` is
``DevServer.recommended_shards`` (discord.py's ``AutoShardedClient`` without a ``shard_count`` launches that
many); the session start limit is generous (1000 a day, ``max_concurrency`` 1) and not enforced.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiohttp import web

from devserver.access import guild_for_bot
from devserver.payloads import guild_payload
from devserver.rest import ApiError, Route, json_response

if TYPE_CHECKING:
    from devserver.server import DevServer


async def get_user(s: DevServer, request: web.Request, user_id: str) -> web.Response:
    bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
    me = s.oauth.user_of(bearer) if user_id == "@me" else None  # an OAuth2 access token's own user (oauth.py)
    try:
        return json_response(s.user(me or (s.bot_user.id if user_id == "@me" else int(user_id))).to_payload())
    except (KeyError, ValueError) as exc:
        raise ApiError(404, 10013, "Unknown User") from exc


async def get_gateway(s: DevServer, request: web.Request) -> web.Response:
    return json_response({"url": s.gateway_url})


async def get_gateway_bot(s: DevServer, request: web.Request) -> web.Response:
    return json_response(
        {
            "url": s.gateway_url,
            "shards": s.recommended_shards,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
        }
    )


async def get_guild(s: DevServer, request: web.Request, guild_id: str) -> web.Response:
    guild = guild_for_bot(s, guild_id)
    data = guild_payload(s, guild, full=False)
    data["approximate_member_count"] = len(s.users) + 1
    return json_response(data)


async def guild_channels(s: DevServer, request: web.Request, guild_id: str) -> web.Response:
    guild = guild_for_bot(s, guild_id)
    return json_response([c.to_payload() for c in s.channels.values() if c.guild_id == guild.id and c.type == 0])


async def guild_roles(s: DevServer, request: web.Request, guild_id: str) -> web.Response:
    return json_response(guild_for_bot(s, guild_id).roles_payload(s.bot_user.name))


async def guild_member(s: DevServer, request: web.Request, guild_id: str, user_id: str) -> web.Response:
    guild = guild_for_bot(s, guild_id)
    try:
        user = s.user(int(user_id))
    except (KeyError, ValueError) as exc:
        raise ApiError(404, 10007, "Unknown Member") from exc
    if user.id in guild.departed:
        raise ApiError(404, 10007, "Unknown Member")
    return json_response(user.member_payload(guild.member_roles(user)))


async def guild_members(s: DevServer, request: web.Request, guild_id: str) -> web.Response:
    guild = guild_for_bot(s, guild_id)
    limit = int(request.query.get("limit", "1"))
    members = [
        u.member_payload(guild.member_roles(u)) for u in (*s.users.values(), s.bot_user) if u.id not in guild.departed
    ]
    return json_response(members[:limit])


async def active_threads(s: DevServer, request: web.Request, guild_id: str) -> web.Response:
    guild = guild_for_bot(s, guild_id)
    threads = [c.to_payload() for c in s.channels.values() if c.guild_id == guild.id and c.is_thread]
    return json_response({"threads": threads, "members": []})


ROUTES: list[Route] = [
    ("GET", "/users/{user_id}", get_user),
    ("GET", "/gateway", get_gateway),
    ("GET", "/gateway/bot", get_gateway_bot),
    ("GET", "/guilds/{guild_id}", get_guild),
    ("GET", "/guilds/{guild_id}/channels", guild_channels),
    ("GET", "/guilds/{guild_id}/roles", guild_roles),
    ("GET", "/guilds/{guild_id}/members", guild_members),
    ("GET", "/guilds/{guild_id}/members/{user_id}", guild_member),
    ("GET", "/guilds/{guild_id}/threads/active", active_threads),
]
