"""User installs: DMs and group DMs between users, where the bot is no member (Discord's "user-installable apps"),
and guilds that never added the bot whose members use the app through their own install (``add_foreign_guild``:
``context`` 0, the same owners, channel and followup rules).

Discord's documented rules, as modelled here:

- a user may install the app to their account (``integration_types`` 1, USER_INSTALL) and run its commands whose
  ``contexts`` include 2 (PRIVATE_CHANNEL) in a DM or group DM with other users (``DevUser.slash`` refuses the
  others, as the client hides them);
- the bot is not in such a channel: every channel endpoint answers **403 code 50001** (Missing Access:
  ``devserver.access.visible_channel``); it speaks there only through interaction responses and followups;
- an interaction there carries ``context`` 2 and ``authorizing_integration_owners`` ``{"1": <user id>}`` (no
  ``"0"`` key: no guild install authorized it), the ``user`` (no member), the channel (``recipients``) and
  ``app_permissions`` limited to what an interaction's messages may use (Attach Files, Embed Links, Mention
  Everyone);
- such an interaction (authorized by the user install only) takes at most **5 followups**: the sixth is refused
  **400 code 40094** ("This interaction has hit the maximum number of follow up messages"), recorded as the
  bot's violation ``followup_limit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devserver.models import Channel, Guild, Interaction, snowflake
from devserver.permissions import ATTACH_FILES, EMBED_LINKS, MENTION_EVERYONE
from devserver.rest import ApiError

if TYPE_CHECKING:
    from devserver.server import DevServer

PRIVATE_CHANNEL = 2
"""Interaction context type of a DM or group DM between users."""
USER_INSTALL = 1
"""Application integration type of an install to a user's account."""
PRIVATE_APP_PERMISSIONS = ATTACH_FILES | EMBED_LINKS | MENTION_EVERYONE
"""``app_permissions`` of an interaction in a DM or group DM between users."""
FOLLOWUP_LIMIT = 5
"""Followups one interaction authorized by the user install only may create."""
FOLLOWUP_LIMIT_CODE = 40094


def add_private_channel(s: DevServer, name: str, members: list[str], *, group: bool | None = None) -> Channel:
    """A DM (two ``members``, type 1) or group DM (more, or ``group=True``: type 3) between users, the bot not in it.
    Members are user names (``"alice"``). Raises ``KeyError`` for an unknown user, ``ValueError`` for fewer than
    two members."""
    users = tuple(s.user(m) for m in members)
    if len(users) < 2:
        raise ValueError("a DM between users has at least two members")
    kind = 3 if group or (group is None and len(users) > 2) else 1
    ch = Channel(id=snowflake(), name=name, guild_id=None, type=kind, members=users, bot_member=False)
    s.channels[ch.id] = ch
    return ch


def private_fields(s: DevServer, it: Interaction, channel: Channel) -> dict[str, Any]:
    """The fields of an INTERACTION_CREATE in ``channel`` (a private channel) that differ from a guild's."""
    return {
        "user": it.user.to_payload(),
        "context": PRIVATE_CHANNEL,
        "authorizing_integration_owners": {str(USER_INSTALL): str(it.user.id)},
        "app_permissions": str(PRIVATE_APP_PERMISSIONS),
    }


def user_install_only(s: DevServer, it: Interaction) -> bool:
    """True when ``it`` was authorized by the user install alone (the bot is not in its channel or guild)."""
    ch = s.channels.get(it.channel_id)
    guild = s.guild_of(ch) if ch is not None else None
    return ch is not None and (ch.private or (guild is not None and guild.user_install and not guild.bot_member))


def foreign_guild_fields(s: DevServer, it: Interaction, guild: Guild) -> dict[str, Any]:
    """The fields of an INTERACTION_CREATE in a guild that did not add the bot, through a member's user install:
    ``context`` 0 (GUILD) and the user install alone as authorizing owner."""
    return {
        "context": 0,
        "authorizing_integration_owners": {str(USER_INSTALL): str(it.user.id)},
        "app_permissions": str(PRIVATE_APP_PERMISSIONS),
    }


def add_foreign_guild(s: DevServer, name: str) -> Guild:
    """A guild that never added the bot, whose members use the app installed to their own accounts: its channel
    endpoints answer 403/50001, its interactions carry ``context`` 0 and the user install as owner, 5 followups
    each."""
    guild = s.add_guild(name, bot_member=False)
    guild.user_install = True
    return guild


def check_followup(s: DevServer, it: Interaction, route: str) -> None:
    """Before a followup of ``it`` creates a message: 400/40094 past :data:`FOLLOWUP_LIMIT` for an interaction the
    user install alone authorized (recorded as the bot's violation)."""
    if user_install_only(s, it) and len(it.followup_ids) >= FOLLOWUP_LIMIT:
        s.violate(
            "followup_limit",
            f"a {FOLLOWUP_LIMIT + 1}th followup of an interaction authorized by a user install only",
            route,
            400,
            FOLLOWUP_LIMIT_CODE,
            interaction=it,
        )
        raise ApiError(400, FOLLOWUP_LIMIT_CODE, "This interaction has hit the maximum number of follow up messages")


def command_allowed(cmd: dict[str, Any], *, context: int = PRIVATE_CHANNEL) -> bool:
    """Whether Discord's client offers global command ``cmd`` through the user install in ``context`` (2: a DM or
    group DM between users; 0: a guild that did not add the bot): installed to the user (``integration_types``
    holds 1) and allowed there (``contexts`` holds ``context``)."""
    installs = cmd.get("integration_types") or [0]
    contexts = cmd.get("contexts")
    return USER_INSTALL in installs and contexts is not None and context in contexts
