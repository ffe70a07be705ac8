"""Application routes: application info and application commands (global and per guild).

A bulk overwrite (``PUT``) is validated against every documented command limit (``limits.validate_commands``:
400 code 50035) and the 200 command creates per day per guild (429 code 30034); ``GET`` reads back what was
synced (empty after ``DevServer.clear_commands``). Guild commands of a guild the bot is not in answer 403 code
50001.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.access import guild_for_bot
from devserver.limits import validate_commands
from devserver.models import snowflake
from devserver.rest import ApiError, Route, invalid_form, json_response, no_content, read_body

if TYPE_CHECKING:
    from devserver.server import DevServer

DAILY_CREATES = 200


def check_app(s: DevServer, app_id: str) -> None:
    if app_id != str(s.application_id):
        raise ApiError(404, 10002, "Unknown Application")


def command_store(s: DevServer, app_id: str, guild_id: str | None) -> dict[str, dict[str, Any]]:
    """The global commands, or ``guild_id``'s, by name."""
    check_app(s, app_id)
    if guild_id is None:
        return s.global_commands
    return s.guild_commands.setdefault(guild_for_bot(s, guild_id).id, {})


def stored(s: DevServer, cmd: dict[str, Any], guild_id: str | None, old: dict[str, Any] | None) -> dict[str, Any]:
    """The command as Discord stores and returns it (id kept across overwrites, a new version)."""
    data = dict(cmd)
    data.setdefault("type", 1)
    data.setdefault("description", "")
    data["id"] = old["id"] if old else str(snowflake())
    data["application_id"] = str(s.application_id)
    data["version"] = str(snowflake())
    data["default_member_permissions"] = cmd.get("default_member_permissions")
    data.setdefault("dm_permission", True)
    data.setdefault("nsfw", False)
    if guild_id is not None:
        data["guild_id"] = guild_id
    return data


def validated(s: DevServer, commands: Any, route: str) -> list[dict[str, Any]]:
    """``commands`` if they pass every limit; 400 code 50035 (recorded as a violation) otherwise."""
    problems = validate_commands(commands)
    if problems:
        s.violate(
            "invalid_form", "; ".join(p.message for p in problems), route, 400, 50035, [p.__dict__ for p in problems]
        )
        raise invalid_form(problems)
    return list(commands)


async def put_commands(s: DevServer, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
    """Bulk overwrite: the synced set becomes exactly the body."""
    store = command_store(s, app_id, guild_id)
    body, _ = await read_body(request)
    commands = validated(s, body, f"PUT {request.path}")
    creates = sum(1 for c in commands if c["name"] not in store)
    day = s.clock.now() // 86400
    used = sum(n for d, g, n in s.command_creates if d == day and g == guild_id)
    if used + creates > DAILY_CREATES:
        s.violate(
            "daily_command_creates",
            f"{used + creates} application command creates today (limit 200)",
            f"PUT {request.path}",
            429,
            30034,
        )
        raise ApiError(429, 30034, "Max number of daily application command creates has been reached (200)")
    s.command_creates.append((day, guild_id, creates))
    new = {c["name"]: stored(s, c, guild_id, store.get(c["name"])) for c in commands}
    store.clear()
    store.update(new)
    s.command_syncs.append((int(guild_id) if guild_id else None, len(new)))
    s.notify()
    return json_response(list(new.values()))


async def get_commands(s: DevServer, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
    return json_response(list(command_store(s, app_id, guild_id).values()))


async def post_command(s: DevServer, request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
    """Create or overwrite one command by name."""
    store = command_store(s, app_id, guild_id)
    body, _ = await read_body(request)
    validated(s, [body], f"POST {request.path}")
    cmd = stored(s, body, guild_id, store.get(body["name"]))
    store[cmd["name"]] = cmd
    s.notify()
    return json_response(cmd, 201)


def find_command(store: dict[str, dict[str, Any]], command_id: str) -> dict[str, Any]:
    for c in store.values():
        if c["id"] == command_id:
            return c
    raise ApiError(404, 10063, "Unknown application command")


async def get_command(
    s: DevServer, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
) -> web.Response:
    return json_response(find_command(command_store(s, app_id, guild_id), command_id))


async def delete_command(
    s: DevServer, request: web.Request, app_id: str, command_id: str, guild_id: str | None = None
) -> web.Response:
    store = command_store(s, app_id, guild_id)
    store.pop(find_command(store, command_id)["name"])
    s.notify()
    return no_content()


async def guild_command_permissions(s: DevServer, request: web.Request, app_id: str, guild_id: str) -> web.Response:
    command_store(s, app_id, guild_id)
    return json_response([])


async def app_info(s: DevServer, request: web.Request) -> web.Response:
    """``GET /oauth2/applications/@me`` and ``/applications/@me`` (the owner is ``mod``)."""
    return json_response(
        {
            "id": str(s.application_id),
            "name": s.bot_user.name,
            "icon": None,
            "description": "devserver app",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": s.users["mod"].to_payload(),
            "verify_key": "0" * 64,
            "flags": 0,
            "team": None,
            "summary": "",
            "rpc_origins": [],
            "bot": s.bot_user.to_payload(),
            "interactions_endpoint_url": None,
            "approximate_guild_count": sum(1 for g in s.guilds.values() if g.bot_member),
        }
    )


ROUTES: list[Route] = [
    ("GET", "/oauth2/applications/@me", app_info),
    ("GET", "/applications/@me", app_info),
    ("PUT", "/applications/{app_id}/commands", put_commands),
    ("GET", "/applications/{app_id}/commands", get_commands),
    ("POST", "/applications/{app_id}/commands", post_command),
    ("GET", "/applications/{app_id}/commands/{command_id}", get_command),
    ("DELETE", "/applications/{app_id}/commands/{command_id}", delete_command),
    ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", put_commands),
    ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", get_commands),
    ("POST", "/applications/{app_id}/guilds/{guild_id}/commands", post_command),
    ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/permissions", guild_command_permissions),
    ("GET", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", get_command),
    ("DELETE", "/applications/{app_id}/guilds/{guild_id}/commands/{command_id}", delete_command),
]
