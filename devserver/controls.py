"""World and fault controls of the dev server: what server admins, moderators and Discord itself do to a bot.

- ``set_bot_permissions``: channel overwrites for the bot's member (or its role's permissions guild-wide), sent
  as CHANNEL_UPDATE / GUILD_ROLE_UPDATE; REST calls then answer 403 as Discord does (``access.py``) and
  interactions carry the new ``app_permissions``.
- ``remove_bot`` / ``add_bot``: the bot kicked from a guild (GUILD_DELETE without ``unavailable``) or invited
  (GUILD_CREATE).
- ``remove_member``: a user leaves a guild (GUILD_MEMBER_REMOVE, only to sessions with the privileged
  GUILD_MEMBERS intent, as on Discord); ``GET .../members/{user}`` then answers 404 code 10007.
- ``set_user_permissions``: a user's own permission overwrite in a channel (e.g. ``deny=["view_channel"]``),
  sent as CHANNEL_UPDATE.
- ``delete_message``: a moderator deletes a message (MESSAGE_DELETE).
- ``set_thread_state``: a moderator (or Discord's auto-archive) archives or locks a thread (THREAD_UPDATE); see
  ``access.py`` for what the bot may then do there.
- ``set_upload_limit``: a guild's upload limit per file (boost level lost, Discord's default lowered): larger
  files are refused 413/40005 and interactions carry the new ``attachment_size_limit``.
- ``inject_interaction_failure``: Discord rejects the first response of the next matching interactions (10062),
  or delivers them late.
- ``clear_commands``: the application's commands deleted elsewhere.
- ``request_counts``: REST calls by category (``accounting.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from devserver.accounting import RequestCounts, RequestRecord
from devserver.client import CommandUsageError
from devserver.models import Channel, Guild, InteractionFault, Message, User
from devserver.permissions import (
    BOT_PERMISSIONS,
    EVERYONE_PERMISSIONS,
    MANAGE_MESSAGES,
    MEMBER_OVERWRITE,
    bits,
    channel_permissions,
)

if TYPE_CHECKING:
    from devserver.gateway import Gateway

INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12


class Controls:
    """Mixin of ``DevServer``: the controls listed in the module docstring."""

    bot_user: User
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    global_commands: dict[str, dict[str, Any]]
    guild_commands: dict[int, dict[str, dict[str, Any]]]
    interaction_faults: list[InteractionFault]
    request_log: list[RequestRecord]
    request_totals: RequestCounts
    gateway: Gateway

    if TYPE_CHECKING:  # provided by DevServer / Directory

        def notify(self) -> None: ...
        def guild(self, name_or_id: Guild | str | int | None = None) -> Guild: ...
        def channel(self, name_or_id: str | int | None = None, guild: Guild | str | int | None = None) -> Channel: ...
        def user(self, name_or_id: str | int) -> User: ...
        def message(self, message_id: int) -> Message: ...
        def guild_of(self, channel: Channel) -> Guild | None: ...
        def parent_of(self, channel: Channel) -> Channel | None: ...
        def bot_permissions(self, channel: str | int | Channel) -> int: ...
        async def dispatch(
            self, event: str, data: dict[str, Any], *, guild_id: int | None = None, intent: int = 0
        ) -> int: ...

    # ------------------------------------------------------------------ permissions
    async def set_bot_permissions(
        self,
        where: Channel | Guild | str | int,
        *,
        allow: Iterable[str] = (),
        deny: Iterable[str] = (),
        reset: bool = False,
    ) -> int:
        """Grant (``allow``) or take away (``deny``) permissions of the bot, by name (``"send_messages"``,
        ``"attach_files"``, ``"send_messages_in_threads"``, ``"embed_links"``, ``"create_public_threads"``,
        ``"view_channel"``...; see ``permissions.FLAGS``).

        ``where`` is a text channel (name, id or ``Channel``): the bot member's permission overwrite there is
        changed (``reset`` clears it first) and CHANNEL_UPDATE is sent, as when an admin edits the channel. A
        ``Guild``: guild-wide, as an admin editing roles (GUILD_ROLE_UPDATE): ``allow`` goes to the bot's managed
        role; ``deny`` is taken from the bot's role and from ``@everyone`` (roles add up on Discord: a permission
        ``@everyone`` grants cannot be denied through the bot's role alone; users' own permissions are not
        modelled per role and stay as they are).
        Threads have no overwrites on Discord: they follow their parent channel (``ValueError`` for a thread).
        Returns the bot's permission bits in the channel (in the guild's first channel for a guild). Raises
        ``ValueError`` for an unknown permission name.
        """
        allow_bits, deny_bits = bits(allow), bits(deny)
        if isinstance(where, Guild):
            return await self._set_guild_permissions(where, allow_bits, deny_bits, reset)
        ch = where if isinstance(where, Channel) else self.channel(where)
        if ch.is_thread:
            parent = self.parent_of(ch)
            raise ValueError(
                f"#{ch.name} is a thread: Discord threads have no permission overwrites, they follow "
                f"their parent channel #{parent.name if parent else '?'} (set send_messages_in_threads "
                "and the others there)"
            )
        if ch.guild_id is None:
            raise ValueError("a DM channel has no permission overwrites")
        _, old_allow, old_deny = (0, 0, 0) if reset else ch.overwrites.get(self.bot_user.id, (0, 0, 0))
        new_allow = (old_allow & ~deny_bits) | allow_bits
        new_deny = (old_deny & ~allow_bits) | deny_bits
        if new_allow or new_deny:
            ch.overwrites[self.bot_user.id] = (MEMBER_OVERWRITE, new_allow, new_deny)
        else:
            ch.overwrites.pop(self.bot_user.id, None)
        await self.dispatch("CHANNEL_UPDATE", ch.to_payload(), guild_id=ch.guild_id)
        self.notify()
        return self.bot_permissions(ch)

    async def _set_guild_permissions(self, guild: Guild, allow: int, deny: int, reset: bool) -> int:
        if reset:
            guild.bot_permissions, guild.everyone_permissions = BOT_PERMISSIONS, EVERYONE_PERMISSIONS
        guild.bot_permissions = (guild.bot_permissions & ~deny) | allow
        guild.everyone_permissions &= ~deny
        for role in guild.roles_payload(self.bot_user.name):
            if role["id"] in (str(guild.id), str(guild.bot_role_id)):
                await self.dispatch("GUILD_ROLE_UPDATE", {"guild_id": str(guild.id), "role": role}, guild_id=guild.id)
        self.notify()
        first = next(c for c in self.channels.values() if c.guild_id == guild.id and not c.is_thread)
        return self.bot_permissions(first)

    async def set_thread_state(
        self, thread: Channel | str | int, *, archived: bool | None = None, locked: bool | None = None
    ) -> Channel:
        """Archive/unarchive and lock/unlock ``thread`` (name, id or ``Channel``) as a moderator does, or Discord
        after the thread's auto-archive duration; THREAD_UPDATE is sent. Raises ``ValueError`` for a channel that
        is not a thread."""
        ch = thread if isinstance(thread, Channel) else self.channel(thread)
        if not ch.is_thread:
            raise ValueError(f"#{ch.name} is not a thread")
        if archived is not None:
            ch.archived = archived
        if locked is not None:
            ch.locked = locked
        await self.dispatch("THREAD_UPDATE", ch.to_payload(), guild_id=ch.guild_id)
        self.notify()
        return ch

    def set_upload_limit(self, limit: int, guild: Guild | str | int | None = None) -> None:
        """Files larger than ``limit`` bytes are refused in ``guild`` (default guild) with 413 code 40005, by every
        route (channel posts and edits, interaction callbacks and webhooks), and interactions created there carry
        ``attachment_size_limit`` = ``limit``. Discord's default is 10 MiB."""
        self.guild(guild).upload_limit = int(limit)
        self.notify()

    # ------------------------------------------------------------------ guild membership
    async def remove_bot(self, guild: Guild | str | int | None = None) -> Guild:
        """The bot is kicked from ``guild`` (default guild): GUILD_DELETE ``{"id"}`` without ``unavailable`` goes
        to the session owning its shard (discord.py: ``on_guild_remove``). Afterwards REST calls on its guild and
        channels answer 403 code 50001 "Missing Access" (what Discord answers for a guild the bot is not in) and
        users can no longer run the bot's commands or click its components there (``CommandUsageError``)."""
        g = self.guild(guild)
        g.bot_member = False
        await self.dispatch("GUILD_DELETE", {"id": str(g.id)}, guild_id=g.id)
        self.notify()
        return g

    async def add_bot(self, guild: Guild | str | int | None = None) -> Guild:
        """The bot is (re-)invited to ``guild``: GUILD_CREATE goes to the session owning its shard, without the
        ``unavailable`` key that marks the lazy loads after READY (discord.py: ``on_guild_join``)."""
        from devserver.payloads import guild_payload

        g = self.guild(guild)
        g.bot_member = True
        for session in self.gateway.owners(g.id):
            data = guild_payload(self, g, intents=session.intents)  # type: ignore[arg-type]
            data.pop("unavailable", None)
            await self.gateway.dispatch("GUILD_CREATE", data, session=session)
        self.notify()
        return g

    async def remove_member(self, user: User | str | int, guild: Guild | str | int | None = None) -> Guild:
        """``user`` leaves ``guild`` (default guild): GUILD_MEMBER_REMOVE ``{"guild_id", "user"}`` goes to sessions
        holding the GUILD_MEMBERS intent only (privileged, as on Discord); afterwards the member fetch answers 404
        code 10007 "Unknown Member" and the user can no longer use the bot there (``CommandUsageError``)."""
        g = self.guild(guild)
        u = user if isinstance(user, User) else self.user(user)
        g.departed.add(u.id)
        await self.dispatch(
            "GUILD_MEMBER_REMOVE",
            {"guild_id": str(g.id), "user": u.to_payload()},
            guild_id=g.id,
            intent=INTENT_GUILD_MEMBERS,
        )
        self.notify()
        return g

    async def set_user_permissions(
        self, where: Channel | str | int, user: User | str | int, *, allow: Iterable[str] = (), deny: Iterable[str] = ()
    ) -> None:
        """A user's own overwrite in the text channel ``where`` (replacing it; both empty: removed), sent as
        CHANNEL_UPDATE as when an admin edits the channel. Threads follow their parent (``ValueError``)."""
        ch = where if isinstance(where, Channel) else self.channel(where)
        if ch.is_thread or ch.guild_id is None:
            raise ValueError(f"#{ch.name}: overwrites belong to a guild text channel (a thread follows its parent)")
        u = user if isinstance(user, User) else self.user(user)
        allow_bits, deny_bits = bits(allow), bits(deny)
        if allow_bits or deny_bits:
            ch.overwrites[u.id] = (MEMBER_OVERWRITE, allow_bits, deny_bits)
        else:
            ch.overwrites.pop(u.id, None)
        await self.dispatch("CHANNEL_UPDATE", ch.to_payload(), guild_id=ch.guild_id)
        self.notify()

    # ------------------------------------------------------------------ moderation
    async def delete_message(self, message: Message | int, *, by: str | int = "mod") -> Message:
        """User ``by`` (default the moderator) deletes ``message`` from its channel: MESSAGE_DELETE goes to the bot
        (with the GUILD_MESSAGES intent). Later fetches and edits of it answer 404 code 10008 (not counted as the
        bot's violations: it could not know) and its components can no longer be clicked.

        Raises ``CommandUsageError`` if ``by`` may not delete it (not the author, no Manage Messages), it is
        ephemeral (not in the channel) or already deleted.
        """
        msg = self.message(message.id if isinstance(message, Message) else int(message))
        user = self.user(by)
        if msg.deleted:
            raise CommandUsageError(f"message {msg.id} is already deleted")
        if msg.ephemeral:
            raise CommandUsageError(f"message {msg.id} is ephemeral: only its user sees it, nobody can delete it")
        ch = self.channels[msg.channel_id]
        guild = self.guild_of(ch)
        if msg.author.id != user.id and (
            guild is None or not channel_permissions(guild, ch, self.parent_of(ch), user) & MANAGE_MESSAGES
        ):
            raise CommandUsageError(f"{user.name} may not delete others' messages (no Manage Messages)")
        msg.deleted, msg.deleted_by = True, user.id
        self.notify()
        data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
        if msg.guild_id:
            data["guild_id"] = str(msg.guild_id)
        await self.dispatch(
            "MESSAGE_DELETE",
            data,
            guild_id=msg.guild_id,
            intent=INTENT_GUILD_MESSAGES if msg.guild_id else INTENT_DIRECT_MESSAGES,
        )
        return msg

    # ------------------------------------------------------------------ interactions
    def inject_interaction_failure(
        self, match: str, *, code: int | None = 10062, count: int = 1, delay: float = 0.0, autocomplete: bool = False
    ) -> InteractionFault:
        """Make Discord fail the next ``count`` interactions whose command path (``"constructo accept"``; a prefix
        of whole words matches too) or component/modal ``custom_id`` matches ``match`` (fnmatch: ``"cx:start:*"``).

        ``code=10062``: their first response (callback) is answered 404 "Unknown interaction", as when Discord
        judged it late: the interaction is dead, its followups answer 404 10015, and another initial response is
        refused again (10062) and recorded as a ``dead_interaction_response`` violation. Another ``code`` (e.g.
        40060) is answered once (400) without killing the interaction. ``code=None`` only delays.
        ``delay``: the interaction reaches the bot ``delay`` s after the user acted (gateway lag), so the bot
        has ``3 - delay`` s left for its first response (the server backdates it and its snowflake; nothing
        sleeps).
        Autocomplete interactions are matched only with ``autocomplete=True``. Returns the fault (``.hits``).
        """
        fault = InteractionFault(match, code, count, delay, autocomplete)
        self.interaction_faults.append(fault)
        return fault

    # ------------------------------------------------------------------ commands and accounting
    def clear_commands(self) -> int:
        """Delete every application command (global and per guild), as if deleted elsewhere (another deploy, the
        developer portal); returns how many there were. A bot comparing with ``GET .../commands`` re-syncs."""
        n = len(self.global_commands) + sum(len(c) for c in self.guild_commands.values())
        self.global_commands.clear()
        self.guild_commands.clear()
        self.notify()
        return n

    def request_counts(self, since: RequestCounts | None = None) -> RequestCounts:
        """REST calls so far (``since``: minus that earlier snapshot): ``interaction`` (callbacks, followups,
        ``@original`` edits: exempt from the global rate limit), ``global_limited`` (everything else),
        ``by_route`` per route template. See ``accounting.py``."""
        counts = self.request_totals.copy()
        return counts - since if since is not None else counts
