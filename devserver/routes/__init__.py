"""The REST routes of the dev server, one module per resource; each exports ``ROUTES``: (method, path template,
handler) with module-level handlers ``async def handler(server, request, **path_params) -> web.Response``."""

from __future__ import annotations

from devserver.rest import Route
from devserver.routes import channels, commands, guilds, interactions, messages, webhooks

ROUTES: list[Route] = [
    *guilds.ROUTES,
    *commands.ROUTES,
    *channels.ROUTES,
    *messages.ROUTES,
    *interactions.ROUTES,
    *webhooks.ROUTES,
]
