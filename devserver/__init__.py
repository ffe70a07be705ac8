"""A loopback Discord-compatible server (REST + gateway) for end-to-end tests and local play.

``DevServer`` speaks Discord's v10 wire format closely enough that an unmodified discord.py client connects
to it by configuration only (``DISCORD_API_BASE``/``DISCORD_GATEWAY_URL``). ``server.as_user("alice")`` gives
a ``DevUser`` that runs slash commands, clicks buttons, picks select options and asks for autocomplete;
each returns an ``InteractionResult``. Faults and world changes (permissions, removing the bot, moderator
deletions, rejected interactions, several guilds and shards) are server controls; ``python -m devserver`` starts
the server, the real bot and a prompt to play as several users.

The devserver never imports the bot: ``process.BotProcess`` runs ``python -m bot`` as a subprocess.
"""

from devserver.accounting import RequestCounts, RequestRecord
from devserver.client import CommandUsageError, DevUser
from devserver.models import (
    Attachment,
    Channel,
    Guild,
    Interaction,
    InteractionFault,
    Message,
    User,
    Violation,
)
from devserver.result import InteractionResult
from devserver.server import DevServer, Injection

__all__ = [
    "Attachment",
    "Channel",
    "CommandUsageError",
    "DevServer",
    "DevUser",
    "Guild",
    "Injection",
    "Interaction",
    "InteractionFault",
    "InteractionResult",
    "Message",
    "RequestCounts",
    "RequestRecord",
    "User",
    "Violation",
]
