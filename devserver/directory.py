"""Lookups over the dev server's world (users, guilds, channels, messages, synced commands) and adding to it.

Ids are stable snowflakes: a guild created ``k``-th gets the timestamp part ``GUILD_BASE_TS + 1000 k (+ an
offset choosing its shard)``; its own objects share that timestamp (``| 2`` the guild, ``| 3`` the Moderator
role, ``| 4`` the bot's role, ``| 20 + n`` the n-th channel), so a bot's stored games keep pointing at the same
guild and channels after the dev server restarts. The default guild is ``fixed_id(2)``; users (``fixed_id(10 +
n)``) are members of every guild.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from devserver.models import DISCORD_EPOCH_MS, Channel, Guild, Message, User
from devserver.permissions import (
    ADD_REACTIONS,
    ATTACH_FILES,
    EMBED_LINKS,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    USE_APPLICATION_COMMANDS,
    VIEW_CHANNEL,
    channel_permissions,
)

if TYPE_CHECKING:
    from devserver.client import DevUser
    from devserver.gateway import Gateway

CHANNEL_NAMES = ("general", "games", "games-2")
GUILD_BASE_TS = 1_735_689_600_000 - DISCORD_EPOCH_MS
DM_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | ADD_REACTIONS
    | USE_APPLICATION_COMMANDS
)


class Directory:
    """Mixin of ``DevServer``: the lookups and the world builders (``add_guild``, ``add_channel``)."""

    users: dict[str, User]
    bot_user: User
    guilds: dict[int, Guild]
    channels: dict[int, Channel]
    guild_id: int
    default_channel_id: int
    global_commands: dict[str, dict[str, Any]]
    guild_commands: dict[int, dict[str, dict[str, Any]]]
    gateway: Gateway
    _messages: dict[int, Message]
    _last_guild_ts: int

    notify: Callable[[], None]
    wait_until: Callable[..., Any]

    # ------------------------------------------------------------------ guilds
    def _create_guild(self, name: str, ts: int, channel_names: Iterable[str]) -> Guild:
        mod = next(u for u in self.users.values() if u.moderator)
        guild = Guild(
            id=(ts << 22) | 2, name=name, mod_role_id=(ts << 22) | 3, bot_role_id=(ts << 22) | 4, owner_id=mod.id
        )
        self.guilds[guild.id] = guild
        for pos, ch_name in enumerate(channel_names):
            ch = Channel(id=(ts << 22) | (20 + pos), name=ch_name, guild_id=guild.id, position=pos)
            self.channels[ch.id] = ch
        return guild

    def add_guild(
        self,
        name: str,
        *,
        shard: tuple[int, int] | None = None,
        channels: Iterable[str] = CHANNEL_NAMES,
        bot_member: bool = True,
    ) -> Guild:
        """A new guild ``name`` with text ``channels`` and every user as a member; returns it.

        ``shard=(i, n)`` picks its id so that ``(id >> 22) % n == i`` (it belongs to shard ``i`` of ``n``).
        ``bot_member=False``: the bot is not in it yet (``await server.add_bot(guild)`` invites it, sending
        GUILD_CREATE). Raises ``RuntimeError`` when ``bot_member`` and a connected bot session already owns the
        guild's shard (it would never hear of it: add it with ``bot_member=False`` then ``add_bot``), and
        ``ValueError`` for a bad ``shard``.
        """
        ts = self._last_guild_ts + 1000
        if shard is not None:
            i, n = shard
            if not 0 <= i < n:
                raise ValueError(f"shard {shard!r}: want (shard_id, shard_count) with 0 <= shard_id < shard_count")
            ts += (i - ts) % n
        if bot_member and self.gateway.owners((ts << 22) | 2):
            raise RuntimeError(
                "devserver: a bot session already owns this guild's shard and would never receive "
                "its GUILD_CREATE; use add_guild(name, bot_member=False) then await add_bot(guild)"
            )
        self._last_guild_ts = ts
        guild = self._create_guild(name, ts, channels)
        guild.bot_member = bot_member
        self.notify()
        return guild

    def guild(self, name_or_id: Guild | str | int | None = None) -> Guild:
        """A guild by name or id (None = the default "Dev Guild"); raises ``KeyError``."""
        if isinstance(name_or_id, Guild):
            return name_or_id
        if name_or_id is None:
            return self.guilds[self.guild_id]
        if isinstance(name_or_id, str) and not name_or_id.isdigit():
            for g in self.guilds.values():
                if g.name == name_or_id:
                    return g
            raise KeyError(f"no guild named {name_or_id!r}; known: {', '.join(g.name for g in self.guilds.values())}")
        return self.guilds[int(name_or_id)]

    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild of ``channel`` (None for a DM channel)."""
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def shard_of(self, guild: Guild | str | int | None, shard_count: int) -> int:
        """The shard id owning ``guild`` for ``shard_count`` shards: ``(guild_id >> 22) % shard_count``."""
        return self.guild(guild).shard(shard_count)

    def add_channel(self, name: str, guild: Guild | str | int | None = None) -> Channel:
        """A new text channel ``name`` in ``guild`` (default guild). Call it before the bot connects, or the bot
        will not know the channel (no CHANNEL_CREATE is sent)."""
        g = self.guild(guild)
        pos = sum(1 for c in self.channels.values() if c.guild_id == g.id and not c.is_thread)
        ch = Channel(id=((g.id >> 22) << 22) | (20 + pos), name=name, guild_id=g.id, position=pos)
        if ch.id in self.channels:
            raise ValueError(f"guild {g.name!r} has no free channel id left for {name!r}")
        self.channels[ch.id] = ch
        return ch

    def add_private_channel(self, name: str, members: list[str], *, group: bool | None = None) -> Channel:
        """A DM (two members) or group DM between users where the bot is no member (user installs:
        ``devserver/private.py``): its channel endpoints answer 403/50001, interactions there carry ``context`` 2."""
        from devserver.private import add_private_channel

        return add_private_channel(self, name, members, group=group)  # type: ignore[arg-type]

    def add_foreign_guild(self, name: str) -> Guild:
        """A guild that never added the bot, whose members play through the app installed to their accounts
        (``devserver/private.py``)."""
        from devserver.private import add_foreign_guild

        return add_foreign_guild(self, name)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ users and channels
    def user(self, name_or_id: str | int) -> User:
        """A user by name (``"alice"``), id, or mention (``"<@123>"``); the bot is ``"bot"``.

        Raises ``KeyError`` for an unknown user.
        """
        if isinstance(name_or_id, str):
            text = name_or_id.strip().removeprefix("<@").removeprefix("!").removesuffix(">").lstrip("@")
            if text in self.users:
                return self.users[text]
            if text in ("bot", self.bot_user.name):
                return self.bot_user
            if not text.isdigit():
                raise KeyError(f"no user named {name_or_id!r}; known: {', '.join(self.users)}")
            name_or_id = int(text)
        for u in (*self.users.values(), self.bot_user):
            if u.id == name_or_id:
                return u
        raise KeyError(f"no user with id {name_or_id}")

    def as_user(self, name: str | int, channel: str | int | Channel | None = None) -> DevUser:
        """A ``DevUser`` acting as ``name`` (``"alice"``...) in ``channel`` (default ``games``)."""
        from devserver.client import DevUser

        ch = channel if isinstance(channel, Channel) else self.channel(channel)
        return DevUser(self, self.user(name), ch)  # type: ignore[arg-type]

    def channel(self, name_or_id: str | int | None = None, guild: Guild | str | int | None = None) -> Channel:
        """A channel or thread by name or id (None = the default ``games`` channel); a name is looked up in
        ``guild`` (default: the default guild first, then any). Raises ``KeyError``."""
        if name_or_id is None:
            return self.channels[self.default_channel_id]
        if isinstance(name_or_id, str) and not name_or_id.isdigit():
            name = name_or_id.lstrip("#")
            wanted = self.guild(guild).id if guild is not None else None
            found = [c for c in self.channels.values() if c.name == name and wanted in (None, c.guild_id)]
            found.sort(key=lambda c: c.guild_id != self.guild_id)
            if not found:
                raise KeyError(f"no channel named {name_or_id!r}")
            return found[0]
        return self.channels[int(name_or_id)]

    def parent_of(self, channel: Channel) -> Channel | None:
        """A thread's parent channel (None for a channel, or when the parent is gone)."""
        return self.channels.get(channel.parent_id) if channel.parent_id else None

    def bot_permissions(self, channel: str | int | Channel) -> int:
        """The bot's permission bits in ``channel`` (Discord's algorithm, ``permissions.py``): what interactions
        there carry as ``app_permissions``. 0 in a guild the bot was removed from."""
        ch = channel if isinstance(channel, Channel) else self.channel(channel)
        guild = self.guild_of(ch)
        if guild is None:
            return DM_PERMISSIONS
        if not guild.bot_member:
            return 0
        return channel_permissions(guild, ch, self.parent_of(ch), self.bot_user)

    # ------------------------------------------------------------------ messages
    def message(self, message_id: int) -> Message:
        """The stored message ``message_id`` (deleted ones included); raises ``KeyError``."""
        return self._messages[message_id]

    def dm_messages(self, user: str | int) -> list[Message]:
        """The bot's direct messages to ``user`` (oldest first)."""
        target = self.user(user)
        dms = {c.id for c in self.channels.values() if c.type == 1 and c.recipient is target}
        return [m for m in self._messages.values() if m.channel_id in dms and not m.deleted]

    def messages(
        self,
        channel: str | int | Channel | None = None,
        *,
        visible_to: str | int | None = "all",
        include_deleted: bool = False,
    ) -> list[Message]:
        """Messages of ``channel`` (oldest first). ``visible_to``: ``"all"`` = every message, a user name/id =
        what that user sees (ephemeral messages only for their user), None = what the bot sees in the channel."""
        ch = channel if isinstance(channel, Channel) else self.channel(channel)
        out = [m for m in self._messages.values() if m.channel_id == ch.id and (include_deleted or not m.deleted)]
        if visible_to == "all":
            return out
        uid = None if visible_to is None else self.user(visible_to).id
        return [m for m in out if m.visible_for(uid)]

    async def wait_for_message(
        self,
        predicate: Callable[[Message], bool] | None = None,
        *,
        channel: str | int | Channel | None = None,
        after: int = 0,
        timeout: float = 10.0,  # noqa: ASYNC109
    ) -> Message:
        """The first message (id > ``after``, in ``channel`` if given, not deleted) satisfying ``predicate``,
        waiting for it up to ``timeout`` s (``TimeoutError``)."""
        ch_id = None if channel is None else (channel.id if isinstance(channel, Channel) else self.channel(channel).id)

        def find() -> Message | None:
            for m in self._messages.values():
                if (
                    m.id > after
                    and not m.deleted
                    and (ch_id is None or m.channel_id == ch_id)
                    and (predicate is None or predicate(m))
                ):
                    return m
            return None

        await self.wait_until(lambda: find() is not None, timeout, "a matching message")
        found = find()
        assert found is not None
        return found

    def all_messages(self) -> list[Message]:
        """Every message in every channel, oldest first."""
        return list(self._messages.values())

    def add_message(self, msg: Message) -> Message:
        self._messages[msg.id] = msg
        self.notify()
        return msg

    # ------------------------------------------------------------------ commands
    def all_commands(self, guild: Guild | str | int | None = None) -> dict[str, dict[str, Any]]:
        """Synced chat-input commands usable in ``guild`` (default guild) by name: its guild commands over the
        global ones."""
        gid = self.guild(guild).id
        out = {n: c for n, c in self.global_commands.items() if c.get("type", 1) == 1}
        out.update({n: c for n, c in self.guild_commands.get(gid, {}).items() if c.get("type", 1) == 1})
        return out

    def export_commands(self) -> dict[str, Any]:
        """The synced commands as JSON-able data (``import_commands`` restores them)."""
        return {
            "global": list(self.global_commands.values()),
            "guild": list(self.guild_commands.get(self.guild_id, {}).values()),
        }

    def import_commands(self, data: dict[str, Any]) -> None:
        """Restore commands saved by ``export_commands`` (a bot reusing its DATA_DIR skips an unchanged sync)."""
        self.global_commands = {c["name"]: c for c in data.get("global", [])}
        self.guild_commands[self.guild_id] = {c["name"]: c for c in data.get("guild", [])}
