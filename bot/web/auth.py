"""Who is on the page: the OAuth2 code exchange (Embedded App SDK ``authorize`` -> code -> access token) and the
user of an access token (``GET /users/@me``), at the endpoints of :class:`~bot.web.settings.WebSettings`.

Discord's flow (https://discord.com/developers/docs/activities/development-guides): the page asks the SDK
(``@discord/embedded-app-sdk``, bundled in ``static/discord-sdk.js``) to ``authorize`` (scopes ``identify`` and
``guilds``) and gets a one-time ``code``; it posts the code to ``/api/token``; the server exchanges it at
``POST {oauth_base}/oauth2/token`` with the client secret (never seen by the page) and returns the access token;
the page calls the SDK's ``authenticate`` with it and opens ``/ws`` with it. The server trusts no user id from the
page: it asks ``/users/@me`` with that token.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.web.settings import WebSettings

WHO_TTL_S = 60.0
"""Seconds a token's user is remembered (a reconnecting page does not ask Discord again): a revoked token stops
working within a minute."""
MAX_REMEMBERED = 4096


class AuthError(Exception):
    """Discord refused the code or the token (``status``: its HTTP status, 0 when unreachable)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class WebUser:
    """The user of an access token: ``id`` (snowflake) and ``name`` (global name, else username)."""

    id: int
    name: str


class Auth:
    """Code exchange and token lookups over one HTTP session (``close`` it)."""

    def __init__(self, settings: WebSettings, client_id: int | None) -> None:
        self.settings = settings
        self.client_id = settings.client_id or client_id
        self._session: aiohttp.ClientSession | None = None
        self._who: dict[str, tuple[float, WebUser]] = {}

    @property
    def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10))
        return self._session

    async def exchange(self, code: str) -> dict[str, Any]:
        """``POST /oauth2/token`` (``grant_type=authorization_code``): Discord's answer, ``access_token`` in it.
        Raises :class:`AuthError` when Discord refuses (a used or unknown code, a wrong secret)."""
        form = {
            "client_id": str(self.client_id or ""),
            "client_secret": self.settings.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self.session.post(f"{self.settings.oauth_base}/oauth2/token", data=form) as resp:
                body = await resp.json(content_type=None)
                if resp.status != 200 or not isinstance(body, dict) or "access_token" not in body:
                    raise AuthError(resp.status, "the code was refused")
                return body
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            raise AuthError(0, f"Discord is unreachable: {type(err).__name__}") from err

    async def who(self, token: str) -> WebUser:
        """The user of ``token`` (``GET /users/@me`` with ``Bearer``), remembered :data:`WHO_TTL_S` seconds.
        Raises :class:`AuthError` for a token Discord does not know."""
        now = time.monotonic()
        hit = self._who.get(token)
        if hit is not None and now - hit[0] < WHO_TTL_S:
            return hit[1]
        headers = {"Authorization": f"Bearer {token}"}
        try:
            async with self.session.get(f"{self.settings.oauth_base}/users/@me", headers=headers) as resp:
                body = await resp.json(content_type=None)
                if resp.status != 200 or not isinstance(body, dict) or "id" not in body:
                    raise AuthError(resp.status, "the access token was refused")
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            raise AuthError(0, f"Discord is unreachable: {type(err).__name__}") from err
        user = WebUser(int(body["id"]), str(body.get("global_name") or body.get("username") or body["id"]))
        if len(self._who) >= MAX_REMEMBERED:
            self._who.clear()
        self._who[token] = (now, user)
        return user

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
