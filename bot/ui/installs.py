"""Which commands a user install offers (Discord's ``integration_types`` and ``contexts`` of a global command).

The app can be installed to a server (GUILD_INSTALL, 0) and to a user's account (USER_INSTALL, 1). Every command
is a server command unless it says otherwise (:data:`TREE_INSTALLS`, the tree's default). The commands a user
install offers, in servers, the bot's DM and DMs or group DMs between users (contexts 0, 1, 2), are decorated
with :func:`anywhere`:

- a game's command group, when its cog says so (the whole group: a group's subcommands share its contexts):
  challenge a user there or, with ``level:`` alone, the AI; accept, decline, moves, board, resign...; the board's
  selects and buttons work wherever its message is;
- ``/help`` (it says what differs there) and ``/mysettings`` (turn alerts by DM on: the only reminders there).

Everything else (the other games, ratings, records, admins' commands) stays with the server install: those read
or change a server's shared state. Where the bot is not a member, the game's messages are interaction answers
only (``bot/services/reach.py``).
"""

from __future__ import annotations

from typing import Any, TypeVar

from discord import app_commands

T = TypeVar("T")

TREE_INSTALLS = app_commands.AppInstallationType(guild=True, user=False)
"""The command tree's default: a command is offered by the server install only."""


def anywhere(obj: T) -> T:
    """Offer a command (or a command group, a ``GroupCog``) through both installs, in every context: servers, the
    bot's DM, DMs and group DMs between users (``integration_types`` [0, 1], ``contexts`` [0, 1, 2])."""
    obj = app_commands.allowed_installs(guilds=True, users=True)(obj)
    return app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)(obj)


def user_commands(tree: app_commands.CommandTree[Any]) -> str:
    """The top-level commands a user install offers, as the reader types them (`` `/name` ``, comma-separated)."""
    names = [c.name for c in tree.get_commands() if c.allowed_installs is not None and c.allowed_installs.user]
    return ", ".join(f"`/{n}`" for n in names)
