"""REST routes other than messages: users, gateway, application info and commands, guild, channels, threads."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.limits import Problem, validate_commands
from devserver.models import Channel, snowflake
from devserver.rest import ApiError, invalid_form, json_response, no_content

if TYPE_CHECKING:
    from devserver.rest import RestApi


def register(api: RestApi) -> None:
    """Add these routes to ``api``."""
    s = api.server

    def user_or_404(user_id: str) -> dict[str, Any]:
        try:
            return s.user(s.bot_user.id if user_id == "@me" else int(user_id)).to_payload()
        except (KeyError, ValueError) as exc:
            raise ApiError(404, 10013, "Unknown User") from exc

    def channel_or_404(channel_id: str) -> Channel:
        try:
            return s.channels[int(channel_id)]
        except (KeyError, ValueError) as exc:
            raise ApiError(404, 10003, "Unknown Channel") from exc

    def check_guild(guild_id: str) -> None:
        if guild_id != str(s.guild_id):
            raise ApiError(404, 10004, "Unknown Guild")

    def check_app(app_id: str) -> None:
        if app_id != str(s.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    async def get_user(request: web.Request, user_id: str) -> web.Response:
        return json_response(user_or_404(user_id))

    async def get_gateway(request: web.Request) -> web.Response:
        return json_response({"url": s.gateway_url})

    async def get_gateway_bot(request: web.Request) -> web.Response:
        return json_response({"url": s.gateway_url, "shards": 1, "session_start_limit": {
            "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1}})

    async def app_info(request: web.Request) -> web.Response:
        owner = s.users["mod"].to_payload()
        return json_response({
            "id": str(s.application_id), "name": s.bot_user.name, "icon": None, "description": "devserver app",
            "bot_public": True, "bot_require_code_grant": False, "owner": owner, "verify_key": "0" * 64,
            "flags": 0, "team": None, "summary": "", "rpc_origins": [], "bot": s.bot_user.to_payload(),
            "interactions_endpoint_url": None, "approximate_guild_count": 1,
        })

    # -------------------------------------------------------------- application commands
    def command_store(guild_id: str | None) -> dict[str, dict[str, Any]]:
        if guild_id is None:
            return s.global_commands
        check_guild(guild_id)
        return s.guild_commands.setdefault(s.guild_id, {})

    def stored(cmd: dict[str, Any], guild_id: str | None, old: dict[str, Any] | None) -> dict[str, Any]:
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

    async def put_commands(request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        check_app(app_id)
        store = command_store(guild_id)
        body, _ = await api.read_body(request)
        problems = validate_commands(body)  # type: ignore[arg-type]
        if problems:
            s.violate("invalid_form", "; ".join(p.message for p in problems), f"PUT {request.path}", 400, 50035,
                      [p.__dict__ for p in problems])
            raise invalid_form(problems)
        creates = sum(1 for c in body if c["name"] not in store)  # type: ignore[union-attr]
        day = s.clock.now() // 86400
        used = sum(n for d, g, n in s.command_creates if d == day and g == guild_id)
        if used + creates > 200:
            s.violate("daily_command_creates", f"{used + creates} application command creates today (limit 200)",
                      f"PUT {request.path}", 429, 30034)
            raise ApiError(429, 30034, "Max number of daily application command creates has been reached (200)")
        s.command_creates.append((day, guild_id, creates))
        new = {c["name"]: stored(c, guild_id, store.get(c["name"])) for c in body}  # type: ignore[union-attr]
        store.clear()
        store.update(new)
        s.command_syncs.append((int(guild_id) if guild_id else None, len(new)))
        return json_response(list(new.values()))

    async def get_commands(request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        check_app(app_id)
        return json_response(list(command_store(guild_id).values()))

    async def post_command(request: web.Request, app_id: str, guild_id: str | None = None) -> web.Response:
        check_app(app_id)
        store = command_store(guild_id)
        body, _ = await api.read_body(request)
        others = [c for n, c in store.items() if n != body.get("name")]
        problems = validate_commands([body])
        if problems:
            s.violate("invalid_form", "; ".join(p.message for p in problems), f"POST {request.path}", 400, 50035)
            raise invalid_form(problems)
        cmd = stored(body, guild_id, store.get(body["name"]))
        store.clear()
        store.update({c["name"]: c for c in others})
        store[cmd["name"]] = cmd
        return json_response(cmd, 201)

    def find_command(store: dict[str, dict[str, Any]], command_id: str) -> dict[str, Any]:
        for c in store.values():
            if c["id"] == command_id:
                return c
        raise ApiError(404, 10063, "Unknown application command")

    async def get_command(request: web.Request, app_id: str, command_id: str,
                          guild_id: str | None = None) -> web.Response:
        return json_response(find_command(command_store(guild_id), command_id))

    async def delete_command(request: web.Request, app_id: str, command_id: str,
                             guild_id: str | None = None) -> web.Response:
        store = command_store(guild_id)
        store.pop(find_command(store, command_id)["name"])
        return no_content()

    async def guild_command_permissions(request: web.Request, app_id: str, guild_id: str) -> web.Response:
        return json_response([])

    # -------------------------------------------------------------- guild
    async def get_guild(request: web.Request, guild_id: str) -> web.Response:
        check_guild(guild_id)
        data = s.gateway.guild_payload(full=False)
        data["approximate_member_count"] = len(s.users) + 1
        return json_response(data)

    async def guild_channels(request: web.Request, guild_id: str) -> web.Response:
        check_guild(guild_id)
        return json_response([c.to_payload() for c in s.channels.values() if c.type == 0])

    async def guild_roles(request: web.Request, guild_id: str) -> web.Response:
        check_guild(guild_id)
        return json_response(s.gateway.roles())

    async def guild_member(request: web.Request, guild_id: str, user_id: str) -> web.Response:
        check_guild(guild_id)
        try:
            return json_response(s.user(int(user_id)).member_payload())
        except (KeyError, ValueError) as exc:
            raise ApiError(404, 10007, "Unknown Member") from exc

    async def guild_members(request: web.Request, guild_id: str) -> web.Response:
        check_guild(guild_id)
        limit = int(request.query.get("limit", "1"))
        members = [u.member_payload() for u in (*s.users.values(), s.bot_user)]
        return json_response(members[:limit])

    async def active_threads(request: web.Request, guild_id: str) -> web.Response:
        check_guild(guild_id)
        threads = [c.to_payload() for c in s.channels.values() if c.type in (10, 11, 12)]
        return json_response({"threads": threads, "members": []})

    # -------------------------------------------------------------- channels and threads
    async def get_channel(request: web.Request, channel_id: str) -> web.Response:
        return json_response(channel_or_404(channel_id).to_payload())

    async def patch_channel(request: web.Request, channel_id: str) -> web.Response:
        ch = channel_or_404(channel_id)
        body, _ = await api.read_body(request)
        if "name" in body:
            ch.name = body["name"]
        data = ch.to_payload()
        if ch.type in (10, 11, 12):
            for key in ("archived", "locked", "auto_archive_duration"):
                if key in body:
                    data["thread_metadata"][key] = body[key]
            await s.dispatch("THREAD_UPDATE", data)
        else:
            await s.dispatch("CHANNEL_UPDATE", data)
        return json_response(data)

    async def delete_channel(request: web.Request, channel_id: str) -> web.Response:
        ch = channel_or_404(channel_id)
        if ch.type == 0:
            raise ApiError(403, 50013, "Missing Permissions")
        del s.channels[ch.id]
        data = ch.to_payload()
        await s.dispatch("THREAD_DELETE", {"id": data["id"], "guild_id": data["guild_id"],
                                           "parent_id": data["parent_id"], "type": ch.type})
        return json_response(data)

    async def create_thread(request: web.Request, channel_id: str, message_id: str | None = None) -> web.Response:
        parent = channel_or_404(channel_id)
        if parent.type != 0:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        body, _ = await api.read_body(request)
        name = body.get("name") or ""
        if not 1 <= len(name) <= 100:
            problem = Problem(("name",), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            s.violate("invalid_form", f"thread name of {len(name)} characters (1-100)", f"POST {request.path}",
                      400, 50035)
            raise invalid_form([problem])
        if message_id is not None:
            try:
                msg = s.message(int(message_id))
            except (KeyError, ValueError) as exc:
                raise ApiError(404, 10008, "Unknown Message") from exc
            if msg.channel_id != parent.id or msg.deleted or msg.ephemeral:
                raise ApiError(404, 10008, "Unknown Message")
            tid, ttype = msg.id, 11
        else:
            tid, ttype = snowflake(), int(body.get("type") or 12)
        if tid in s.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        thread = Channel(id=tid, name=name, guild_id=s.guild_id, type=ttype, parent_id=parent.id,
                         owner_id=s.bot_user.id)
        s.channels[tid] = thread
        data = thread.to_payload()
        await s.dispatch("THREAD_CREATE", {**data, "newly_created": True})
        s.notify()
        return json_response(data, 201)

    async def thread_member(request: web.Request, channel_id: str, user_id: str) -> web.Response:
        channel_or_404(channel_id)
        return no_content()

    async def dm_channel(request: web.Request) -> web.Response:
        body, _ = await api.read_body(request)
        try:
            user = s.user(int(body.get("recipient_id", 0)))
        except (KeyError, ValueError) as exc:
            raise ApiError(400, 50033, "Invalid Recipient(s)") from exc
        for ch in s.channels.values():
            if ch.type == 1 and ch.recipient is user:
                return json_response(ch.to_payload())
        ch = Channel(id=snowflake(), name=f"dm-{user.name}", guild_id=None, type=1, recipient=user)
        s.channels[ch.id] = ch
        return json_response(ch.to_payload())

    for method, path, handler in (
        ("GET", "/users/{user_id}", get_user),
        ("POST", "/users/@me/channels", dm_channel),
        ("GET", "/gateway", get_gateway),
        ("GET", "/gateway/bot", get_gateway_bot),
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
        ("GET", "/guilds/{guild_id}", get_guild),
        ("GET", "/guilds/{guild_id}/channels", guild_channels),
        ("GET", "/guilds/{guild_id}/roles", guild_roles),
        ("GET", "/guilds/{guild_id}/members", guild_members),
        ("GET", "/guilds/{guild_id}/members/{user_id}", guild_member),
        ("GET", "/guilds/{guild_id}/threads/active", active_threads),
        ("GET", "/channels/{channel_id}", get_channel),
        ("PATCH", "/channels/{channel_id}", patch_channel),
        ("DELETE", "/channels/{channel_id}", delete_channel),
        ("POST", "/channels/{channel_id}/threads", create_thread),
        ("POST", "/channels/{channel_id}/messages/{message_id}/threads", create_thread),
        ("PUT", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
        ("DELETE", "/channels/{channel_id}/thread-members/{user_id}", thread_member),
    ):
        api.route(method, path, handler)
