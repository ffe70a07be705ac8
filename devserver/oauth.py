"""Discord's OAuth2 as an Activity sees it, modelled for the live table (``bot/web/``):

- :meth:`OAuth.launch`: a test (or the console) "launches" the app's Activity for a user in a channel, as Discord
  does after a ``LAUNCH_ACTIVITY`` answer; the Embedded App SDK's ``authorize`` then yields a one-time ``code`` for
  that user: this returns it (with the channel the Activity runs in).
- ``POST /api/v10/oauth2/token`` (also ``/api/oauth2/token``): ``grant_type=authorization_code`` with the
  application's ``client_id`` and ``client_secret`` (:data:`CLIENT_SECRET`) and the code -> ``access_token``
  (Bearer). A code works once; a wrong secret or client id is ``401 invalid_client``, an unknown or used code
  ``400 invalid_grant`` (Discord's OAuth2 error bodies).
- ``GET /api/v10/users/@me`` with ``Authorization: Bearer <access_token>``: that user (``devserver/rest.py`` lets
  a known bearer token through; ``routes/guilds.py`` answers it).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from devserver.server import DevServer

CLIENT_SECRET = "devserver-client-secret"
"""The application's OAuth2 client secret on the devserver (the bot's ``DISCORD_CLIENT_SECRET`` in tests)."""
TOKEN_LIFETIME_S = 604800


@dataclass
class Launch:
    """One Activity launch: the user, the channel and the code the SDK's ``authorize`` gave."""

    user_id: int
    channel_id: int
    code: str
    used: bool = False


@dataclass
class OAuth:
    """Codes and access tokens of the devserver's one application."""

    server: DevServer
    launches: list[Launch] = field(default_factory=list)
    tokens: dict[str, int] = field(default_factory=dict)
    exchanges: int = 0

    def launch(self, user: str | int, channel: str | int | None = None) -> Launch:
        """The Activity opened by ``user`` in ``channel`` (default: the guild's first text channel); returns the
        launch with its one-time code."""
        who = self.server.user(user)
        chan = self.server.channel(channel)
        found = Launch(who.id, chan.id, secrets.token_hex(12))
        self.launches.append(found)
        return found

    def user_of(self, token: str) -> int | None:
        """The user id of a bearer ``token``, or ``None``."""
        return self.tokens.get(token)

    async def token(self, request: web.Request) -> web.Response:
        """``POST /oauth2/token`` (see the module docstring)."""
        form = await request.post()
        if str(form.get("client_id")) != str(self.server.application_id) or form.get("client_secret") != CLIENT_SECRET:
            return web.json_response({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return web.json_response({"error": "unsupported_grant_type"}, status=400)
        launch = next((x for x in self.launches if x.code == form.get("code") and not x.used), None)
        if launch is None:
            return web.json_response({"error": "invalid_grant", "error_description": "Invalid code"}, status=400)
        launch.used = True
        self.exchanges += 1
        access = secrets.token_hex(16)
        self.tokens[access] = launch.user_id
        return web.json_response(
            {
                "access_token": access,
                "token_type": "Bearer",
                "expires_in": TOKEN_LIFETIME_S,
                "refresh_token": secrets.token_hex(16),
                "scope": "identify",
            }
        )
