"""The REST half of the dev server: routing, auth, fault injection, rate limits, bodies (JSON or multipart), errors.

Every request below ``/api/v10`` goes through ``RestApi.handle``: it serves injected faults (429 with
``retry_after`` and the rate-limit headers, or 5xx), checks the bot token (401 when ``DevServer.token`` is set and
differs; webhook and interaction-callback routes need no token, as on Discord), applies the rate limits, then
calls the handler matching ``METHOD /path`` (the route tables of ``routes/``). Each call is logged (``requests``,
``request_log``); unknown routes answer 404 and are recorded in ``server.errors`` so a missing endpoint is
visible. Handlers are module-level ``async def handler(server, request, **path_params) -> web.Response``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from devserver.conformance import NO_BODY, default_conformance
from devserver.limits import Problem, form_error_body
from devserver.models import ErrorRecord

if TYPE_CHECKING:
    from devserver.server import DevServer

Handler = Callable[..., Awaitable[web.StreamResponse]]
Route = tuple[str, str, Handler]  # (method, path template, handler)
UploadedFile = tuple[int, str, bytes, str]  # (index n of files[n], filename, bytes, content type)


class ApiError(Exception):
    """Raise in a handler to answer ``status`` with Discord's ``{"code", "message"}`` (plus ``errors``);
    ``injected``: a fault a test asked for; ``note``: why, for ``server.errors`` only (never sent)."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        errors: dict[str, Any] | None = None,
        *,
        injected: bool = False,
        note: str = "",
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.errors = status, code, message, errors
        self.injected, self.note = injected, note

    def body(self) -> dict[str, Any]:
        data: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


KNOWN_ERRORS = {
    10003: "Unknown Channel",
    40005: "Request entity too large",
    50001: "Missing Access",
    50013: "Missing Permissions",
    50083: "Operation cannot be performed on an archived thread",
    160005: "Thread is locked",
}
"""Discord's messages for the JSON error codes the bot's fallbacks are tested with (an injected refusal's text)."""


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON reply whose Content-Type is exactly ``application/json`` (discord.py compares it literally)."""
    hdrs = {"Content-Type": "application/json"}
    hdrs.update(headers or {})
    return web.Response(body=json.dumps(data).encode(), status=status, headers=hdrs)


def no_content() -> web.Response:
    return web.Response(status=204)


def invalid_form(problems: list[Problem]) -> ApiError:
    """The 400 "Invalid Form Body" (50035) error for ``problems`` (413/40005 for oversize uploads)."""
    if any(p.code in ("FILE_TOO_LARGE", "REQUEST_TOO_LARGE") for p in problems):
        return ApiError(413, 40005, "Request entity too large")
    if any(p.code == "EMPTY" for p in problems):
        return ApiError(400, 50006, "Cannot send an empty message")
    body = form_error_body(problems)
    return ApiError(400, 50035, body["message"], body["errors"])


BODY_KEY = web.RequestKey("devserver.body", tuple)


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[UploadedFile]]:
    """The JSON payload (``payload_json`` for multipart) and the uploaded ``files[n]`` parts.

    The body is read once per request (``RestApi.handle`` reads it before the handler, for the spec check) and
    kept on the request; an empty or absent body is ``{}``. Raises ``ApiError`` 400/50109 for invalid JSON (the
    body, or a multipart request's ``payload_json``)."""
    payload, files, _ = await read_body_once(request)
    return payload, files


async def read_body_once(request: web.Request) -> tuple[Any, list[UploadedFile], bool]:
    """(payload, files, present): ``read_body`` plus whether the request carried a body at all."""
    cached = request.get(BODY_KEY)
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    files: list[UploadedFile] = []
    payload: Any = {}
    present = False
    if request.content_type.startswith("multipart/"):
        present = True
        reader = await request.multipart()
        async for part in reader:
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                try:
                    payload = json.loads(await part.text())  # type: ignore[union-attr]
                except ValueError as exc:
                    raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
            elif name.startswith("files["):
                data = bytes(await part.read())  # type: ignore[union-attr]
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files.append((int(name[6:-1]), getattr(part, "filename", None) or "file", data, ctype))
    elif request.can_read_body:
        text = await request.text()
        if text:
            present = True
            try:
                payload = json.loads(text)
            except ValueError as exc:
                raise ApiError(400, 50109, "The request body contains invalid JSON.") from exc
    request[BODY_KEY] = (payload, files, present)
    return payload, files, present


class RestApi:
    """Router over the route tables of ``devserver.routes``, plus auth, faults and rate limits."""

    NO_AUTH_PREFIXES = ("/webhooks/", "/interactions/")

    def __init__(self, server: DevServer) -> None:
        from devserver.routes import ROUTES

        self.server = server
        self.routes: list[tuple[str, str, re.Pattern[str], Handler]] = []
        for method, template, handler in ROUTES:
            regex = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
            self.routes.append((method, template, re.compile(f"^{regex}$"), handler))

    def match(self, method: str, path: str) -> tuple[str, Handler, dict[str, str]] | None:
        """(route template ``"METHOD /path/{param}"``, handler, path params) for a request, or None."""
        for m, template, regex, handler in self.routes:
            found = regex.match(path)
            if found and m == method:
                return f"{method} {template}", handler, found.groupdict()
        return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """Serve one REST call; the test hooks it matches (``DevServer.on_request``) run once it is served, before
        its answer goes back."""
        method, path = request.method, "/" + request.match_info["tail"]
        has_files = request.content_type.startswith("multipart/")
        hooks = [h for h in self.server.request_hooks if h.matches(method, path, has_files)]
        for hook in hooks:
            hook.hits += 1
        resp = await self._handle(request)
        for hook in hooks:
            hook.action(method, path)
        return resp

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        s = self.server
        path = "/" + request.match_info["tail"]
        method = request.method
        route = f"{method} {path}"
        matched = self.match(method, path)
        template = matched[0] if matched else route
        inj = next((i for i in s.injections if i.matches(method, path)), None)
        if inj is not None:
            inj.hits += 1
            resp = self._injected(inj.status, inj.retry_after, inj.code, inj.message)
            s.errors.append(ErrorRecord(route, inj.status, json.loads(resp.body), injected=True))  # type: ignore[arg-type]
            return self._done(method, path, template, resp)
        limit_headers: dict[str, str] = {}
        try:
            if not path.startswith(self.NO_AUTH_PREFIXES) and not self._auth_ok(request):
                raise ApiError(401, 0, "401: Unauthorized")
            limited = self._rate_limit(method, path, route, limit_headers)
            if limited is not None:
                return self._done(method, path, template, limited)
            await self._conform(request, method, path, route)
            if matched is None:
                raise ApiError(404, 0, f"404: Not Found (the devserver has no route for {route})")
            resp = await matched[1](s, request, **matched[2])
        except ApiError as err:
            s.errors.append(ErrorRecord(route, err.status, err.body(), injected=err.injected, note=err.note))
            resp = json_response(err.body(), err.status)
        resp.headers.update(limit_headers)
        return self._done(method, path, template, resp)

    async def _conform(self, request: web.Request, method: str, path: str, route: str) -> None:
        """Check the request against Discord's OpenAPI spec (``conformance.py``), after auth and rate limits
        as Discord does. A request that breaks it is recorded as a ``spec`` violation and, unless the server's
        ``conformance`` is ``"record"``, answered as Discord would (404, 405 or 400/50035 with the errors)."""
        s = self.server
        if s.conformance == "off":
            return
        if s.spec is None:  # created with conformance="off", switched on later
            s.spec = default_conformance()
        payload, files, present = await read_body_once(request)
        started = time.perf_counter()
        check = s.spec.check(
            method,
            path,
            {k: request.query.getall(k) for k in request.query},
            payload if present else NO_BODY,
            request.content_type,
            [f[0] for f in files],
        )
        s.spec_stats.add(check, time.perf_counter() - started)
        if check.ok:
            return
        token = check.params.get("interaction_token") or check.params.get("webhook_token")
        it = s.interaction_by_token(token) if token else None
        s.violate(
            "spec",
            f"{check.operation_id or route}: {check.summary()}",
            route,
            check.status,
            check.code,
            check,
            interaction=it,
        )
        if s.conformance == "enforce":
            if check.status == 404:
                raise ApiError(404, 0, "404: Not Found", note="not in Discord's spec")
            if check.status == 405:
                raise ApiError(405, 0, "405: Method Not Allowed", note="not in Discord's spec")
            raise ApiError(400, 50035, "Invalid Form Body", check.form_errors(), note="breaks Discord's spec")

    def _done(self, method: str, path: str, template: str, resp: web.StreamResponse) -> web.StreamResponse:
        self.server.record_request(method, path, resp.status, template)
        self.server.notify()
        return resp

    def _rate_limit(self, method: str, path: str, route: str, headers: dict[str, str]) -> web.Response | None:
        """Apply the global check and the route buckets (``ratelimit.py``); a 429 reply when over a limit."""
        s = self.server
        limiter = s.rate_limiter
        if limiter.global_exceeded(path):
            s.violate(
                "global_rate_limit",
                "more than 50 requests in one second outside the interaction endpoints",
                route,
                429,
                0,
            )
            if limiter.enforce_global:
                return self._limited(route, 1.0, is_global=True)
        verdict = limiter.check(method, path)
        if verdict is None:
            return None
        bucket, allowed, remaining, reset_after = verdict
        headers.update(
            {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": str(remaining),
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Bucket": f"devserver-{abs(hash(bucket.pattern)):x}",
            }
        )
        if allowed:
            return None
        s.violate(
            "rate_limited", f"over {bucket.limit} requests per {bucket.per_s} s on {bucket.pattern}", route, 429, 0
        )
        return self._limited(route, max(reset_after, 0.01), headers=headers)

    def _limited(
        self, route: str, retry_after: float, *, is_global: bool = False, headers: dict[str, str] | None = None
    ) -> web.Response:
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": is_global}
        hdrs = dict(headers or {})
        hdrs.update(
            {
                "Retry-After": str(max(1, round(retry_after))),
                "Via": "1.1 google",
                "X-RateLimit-Scope": "global" if is_global else "user",
            }
        )
        if is_global:
            hdrs["X-RateLimit-Global"] = "true"
        self.server.errors.append(ErrorRecord(route, 429, body))
        return json_response(body, 429, hdrs)

    def _auth_ok(self, request: web.Request) -> bool:
        header = request.headers.get("Authorization", "")
        if header.startswith("Bearer ") and request.method == "GET" and request.path.endswith("/users/@me"):
            return self.server.oauth.user_of(header.removeprefix("Bearer ")) is not None  # the live table's user
        if not header.startswith("Bot "):
            return False
        return self.server.token is None or header.removeprefix("Bot ") == self.server.token

    def _injected(self, status: int, retry_after: float, code: int = 0, message: str | None = None) -> web.Response:
        if status == 429:
            body = {"message": "You are being rate limited.", "retry_after": retry_after, "global": False}
            headers = {
                "Retry-After": str(max(1, round(retry_after))),
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{retry_after:.3f}",
                "X-RateLimit-Bucket": "devserver-injected",
                "X-RateLimit-Scope": "user",
                "Via": "1.1 google",
            }
            return json_response(body, 429, headers)
        if code:
            text = message or KNOWN_ERRORS.get(code, "injected refusal")
            return json_response({"message": text, "code": code}, status)
        return json_response({"message": f"{status}: injected server error", "code": 0}, status)

    async def attachment(self, request: web.Request) -> web.Response:
        """``GET /attachments/{channel}/{id}/{filename}``: the stored bytes (the CDN stand-in)."""
        aid = int(request.match_info["attachment_id"])
        for m in self.server.all_messages():
            for a in m.attachments:
                if a.id == aid:
                    return web.Response(body=a.data, headers={"Content-Type": a.content_type})
        return web.Response(status=404)
