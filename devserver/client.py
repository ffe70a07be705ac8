"""The test-facing client API: users who run slash commands, click buttons, pick select options, autocomplete.

Example::

    alice = server.as_user("alice")
    res = await alice.slash("constructo challenge", opponent="bob")
    await res.wait()
    assert not res.ephemeral and "challenge" in res.content
    res2 = await server.as_user("bob").click(res.message, "Accept")

Option values may be given typed (int, float, bool, a user name / ``DevUser`` / id for user options) or as text
(the console's ``tile:5``), converted by the synced option type (3 string, 4 integer, 5 boolean, 6 user,
7 channel, 8 role, 9 mentionable, 10 number). A choice may be named by its name or its value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from devserver.models import Channel, Message, User
from devserver.private import command_allowed
from devserver.result import InteractionResult

if TYPE_CHECKING:
    from devserver.server import DevServer


class CommandUsageError(ValueError):
    """The test (or console user) asked for something Discord's client would not let a user send."""


class DevUser:
    """A guild member acting through the Discord client (``server.as_user("alice")``)."""

    def __init__(self, server: DevServer, user: User, channel: Channel | None = None) -> None:
        self.server = server
        self.user = user
        self.channel = channel or server.channel()

    def __repr__(self) -> str:
        return f"<DevUser {self.user.name}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    def in_channel(self, channel: str | int | Channel) -> DevUser:
        """The same user acting in another channel or thread."""
        ch = channel if isinstance(channel, Channel) else self.server.channel(channel)
        return DevUser(self.server, self.user, ch)

    def _check_bot_here(self) -> None:
        """Discord's client offers no command or component of a bot that left the guild."""
        guild = self.server.guild_of(self.channel)
        if guild is not None and not guild.bot_member and not guild.user_install:
            raise CommandUsageError(
                f"the bot is not in {guild.name!r} any more (removed): its commands and buttons are gone"
            )
        if guild is not None and self.user.id in guild.departed:
            raise CommandUsageError(f"{self.user.name} left {guild.name!r}: they see nothing there any more")

    def messages(self) -> list[Message]:
        """The messages this user sees in their current channel (others' ephemeral ones hidden)."""
        return self.server.messages(self.channel, visible_to=self.user.id)

    # -------------------------------------------------------------- slash commands
    def _find_command(self, path: str) -> tuple[dict[str, Any], list[str], list[dict[str, Any]]]:
        words = path.strip().lstrip("/").split()
        if not words:
            raise CommandUsageError("empty command")
        self._check_bot_here()
        commands = (
            self.server.all_commands(self.channel.guild_id)
            if self.channel.guild_id
            else dict((n, c) for n, c in self.server.global_commands.items() if c.get("type", 1) == 1)
        )
        if self.channel.private:  # a DM or group DM between users: the user-installed commands allowed there
            if self.user not in self.channel.members:
                raise CommandUsageError(f"{self.user.name} is not in {self.channel.name!r}")
            commands = {n: c for n, c in commands.items() if command_allowed(c)}
        guild = self.server.guild_of(self.channel)
        if guild is not None and not guild.bot_member:  # a guild that did not add the bot: the user install's
            commands = {n: c for n, c in self.server.global_commands.items() if command_allowed(c, context=0)}
        cmd = commands.get(words[0])
        if cmd is None:
            raise CommandUsageError(f"unknown command /{words[0]}; synced: {', '.join(sorted(commands)) or 'none'}")
        needed = int(cmd.get("default_member_permissions") or 0)
        if needed and self.user.member_permissions & needed != needed:
            raise CommandUsageError(
                f"{self.user.name} does not see /{words[0]}: it needs permissions {needed} "
                "(default_member_permissions), as in Discord's client"
            )
        options = cmd.get("options") or []
        chain: list[str] = []
        for word in words[1:]:
            sub = next((o for o in options if o.get("type") in (1, 2) and o["name"] == word), None)
            if sub is None:
                raise CommandUsageError(f"/{' '.join([words[0], *chain])} has no subcommand {word!r}")
            chain.append(word)
            options = sub.get("options") or []
        if any(o.get("type") in (1, 2) for o in options):
            names = ", ".join(o["name"] for o in options)
            raise CommandUsageError(f"/{' '.join(words)} needs a subcommand: {names}")
        return cmd, chain, options

    def _convert(self, spec: dict[str, Any], value: Any, resolved: dict[str, dict[str, Any]]) -> Any:
        typ, name = spec.get("type"), spec["name"]
        choices = spec.get("choices") or []
        if choices and not spec.get("autocomplete"):
            for ch in choices:
                if value == ch["value"] or str(value) == str(ch["value"]) or str(value).lower() == ch["name"].lower():
                    value = ch["value"]
                    break
            else:
                names = ", ".join(c["name"] for c in choices)
                raise CommandUsageError(f"option {name}: {value!r} is not one of the choices ({names})")
        try:
            if typ == 3:
                out: Any = str(value)
                if "max_length" in spec and spec["max_length"] is not None and len(out) > spec["max_length"]:
                    raise CommandUsageError(f"option {name}: longer than {spec['max_length']}")
                return out
            if typ == 4:
                out = int(value)
            elif typ == 10:
                out = float(value)
            elif typ == 5:
                out = value if isinstance(value, bool) else str(value).lower() in ("true", "yes", "1", "on")
                return out
            elif typ in (6, 9):
                target = value.user if isinstance(value, DevUser) else value
                user = target if isinstance(target, User) else self.server.user(target)
                resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
                guild = self.server.guild_of(self.channel)
                roles = guild.member_roles(user) if guild else []
                resolved.setdefault("members", {})[str(user.id)] = user.member_payload(
                    roles, with_user=False, permissions=user.member_permissions
                )
                return str(user.id)
            elif typ == 7:
                ch = value if isinstance(value, Channel) else self.server.channel(value)
                resolved.setdefault("channels", {})[str(ch.id)] = {
                    **{k: v for k, v in ch.to_payload().items() if k in ("id", "name", "type", "parent_id")},
                    "permissions": str(self.user.member_permissions),
                }
                return str(ch.id)
            elif typ == 8:
                guild = self.server.guild_of(self.channel) or self.server.guild()
                by_name = {r["name"].lower(): r for r in guild.roles_payload(self.server.bot_user.name)}
                role = by_name.get(str(value).lower().lstrip("@")) or next(
                    (r for r in by_name.values() if r["id"] == str(value)), None
                )
                if role is None:
                    raise CommandUsageError(f"option {name}: unknown role {value!r}")
                resolved.setdefault("roles", {})[role["id"]] = role
                return role["id"]
            else:
                raise CommandUsageError(f"option {name}: type {typ} is not supported by the devserver client")
        except (TypeError, ValueError, KeyError) as exc:
            if isinstance(exc, CommandUsageError):
                raise
            raise CommandUsageError(f"option {name}: cannot use {value!r} ({exc})") from exc
        lo, hi = spec.get("min_value"), spec.get("max_value")
        if (lo is not None and out < lo) or (hi is not None and out > hi):
            raise CommandUsageError(f"option {name}: {out} is outside {lo}..{hi}")
        return out

    def _options(
        self,
        specs: list[dict[str, Any]],
        given: dict[str, Any],
        resolved: dict[str, dict[str, Any]],
        focused: str | None = None,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in specs}
        for key in given:
            if key not in by_name:
                raise CommandUsageError(f"unknown option {key!r}; options: {', '.join(by_name) or 'none'}")
        out = []
        for spec in specs:
            name = spec["name"]
            if name == focused:
                out.append({"name": name, "type": spec["type"], "value": str(given.get(name, "")), "focused": True})
            elif name in given and given[name] is not None:
                out.append({"name": name, "type": spec["type"], "value": self._convert(spec, given[name], resolved)})
            elif spec.get("required") and focused is None:
                raise CommandUsageError(f"missing required option {name!r}")
        return out

    def _command_data(self, path: str, options: dict[str, Any], focused: str | None = None) -> dict[str, Any]:
        cmd, chain, specs = self._find_command(path)
        resolved: dict[str, dict[str, Any]] = {}
        opts = self._options(specs, options, resolved, focused)
        if focused is not None and focused not in {o["name"] for o in specs if o.get("autocomplete")}:
            raise CommandUsageError(f"option {focused!r} of /{path} has no autocomplete")
        sub_types = self._sub_types(cmd, chain)
        for name, typ in reversed(list(zip(chain, sub_types, strict=True))):
            opts = [{"name": name, "type": typ, "options": opts}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": opts}
        if resolved:
            data["resolved"] = resolved
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        return data

    @staticmethod
    def _sub_types(cmd: dict[str, Any], chain: list[str]) -> list[int]:
        types, options = [], cmd.get("options") or []
        for word in chain:
            sub = next(o for o in options if o["name"] == word)
            types.append(sub["type"])
            options = sub.get("options") or []
        return types

    async def slash(self, command: str, **options: Any) -> InteractionResult:
        """Run ``/command`` (e.g. ``"constructo challenge"``) with ``options``; returns at once (``await
        result.wait()`` for the answer). Raises ``CommandUsageError`` for what the Discord client would refuse."""
        data = self._command_data(command, options)
        it = await self.server.create_interaction(self.user, self.channel, 2, data)
        return InteractionResult(self.server, it)

    async def autocomplete(
        self,
        command: str,
        option: str,
        partial: str = "",
        *,
        timeout: float = 5.0,  # noqa: ASYNC109
        **options: Any,
    ) -> list[dict[str, Any]]:
        """The choices the bot suggests for ``option`` after typing ``partial`` (other options as given).

        Returns ``[]`` when the bot does not answer within 3 s (what Discord's client shows)."""
        data = self._command_data(command, {**options, option: partial}, focused=option)
        it = await self.server.create_interaction(self.user, self.channel, 4, data)
        result = InteractionResult(self.server, it)
        await result.wait(timeout, settle=0)
        return list(it.choices or [])

    async def submit_modal(self, result: InteractionResult, **values: str) -> InteractionResult:
        """Fill in and submit the modal the bot opened in ``result`` (text inputs by custom_id).

        Raises ``CommandUsageError`` if no modal was opened, a required input is missing or a value is too long.
        """
        modal = result.interaction.modal
        if not modal:
            raise CommandUsageError("the bot opened no modal for that interaction")

        def answer(c: dict[str, Any]) -> dict[str, Any]:
            cid = c.get("custom_id")
            value = str(values.pop(cid, c.get("value") or ""))
            if c.get("required", True) and not value and c.get("type") == 4:
                raise CommandUsageError(f"modal input {cid!r} is required")
            if len(value) > int(c.get("max_length") or 4000):
                raise CommandUsageError(f"modal input {cid!r} is longer than {c.get('max_length')}")
            return {"type": c.get("type", 4), "custom_id": cid, "value": value}

        rows: list[dict[str, Any]] = []
        for row in modal.get("components") or []:
            if row.get("type") == 18:  # a label wrapping one input
                rows.append({"type": 18, "component": answer(row["component"])})
            elif row.get("type") == 1:
                rows.append({"type": 1, "components": [answer(c) for c in row.get("components") or []]})
        if values:
            raise CommandUsageError(f"the modal has no inputs {sorted(values)}")
        data = {"custom_id": modal.get("custom_id"), "components": rows}
        origin = self.server.message(result.interaction.message_id) if result.interaction.message_id else None
        channel = self.server.channel(result.interaction.channel_id)
        it = await self.server.create_interaction(self.user, channel, 5, data, message=origin)
        return InteractionResult(self.server, it)

    # -------------------------------------------------------------- components
    def _message(self, message: Message | int | InteractionResult) -> Message:
        if isinstance(message, InteractionResult):
            msg = message.message
            if msg is None:
                raise CommandUsageError("that interaction has no message")
            message = msg
        msg = message if isinstance(message, Message) else self.server.message(int(message))
        msg = self.server.message(msg.id)  # always the stored, current state
        if msg.deleted:
            by = self.server.user(msg.deleted_by).name if msg.deleted_by else "someone"
            raise CommandUsageError(f"message {msg.id} was deleted (by {by}): nothing on it can be clicked")
        if not msg.visible_for(self.user.id):
            raise CommandUsageError(f"{self.user.name} cannot see message {msg.id}")
        DevUser(self.server, self.user, self.server.channel(msg.channel_id))._check_bot_here()
        return msg

    async def click(self, message: Message | int | InteractionResult, button: str) -> InteractionResult:
        """Click the button labelled ``button`` (or with that custom_id) on ``message``.

        Raises ``CommandUsageError`` if there is no such enabled button (a link button cannot be clicked)."""
        msg = self._message(message)
        comps = [c for c in msg.buttons() if c.get("type") == 2]
        comp = (
            next((c for c in comps if c.get("label") == button), None)
            or next((c for c in comps if c.get("custom_id") == button), None)
            or next((c for c in comps if (c.get("label") or "").lower() == button.lower()), None)
        )
        if comp is None:
            labels = ", ".join(repr(c.get("label") or c.get("custom_id")) for c in comps)
            raise CommandUsageError(f"no button {button!r} on message {msg.id} (buttons: {labels or 'none'})")
        if comp.get("disabled"):
            raise CommandUsageError(f"button {button!r} is disabled")
        if not comp.get("custom_id"):
            raise CommandUsageError(f"button {button!r} is a link button")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        return await self._component(msg, data)

    async def select(
        self,
        message: Message | int | InteractionResult,
        *values: str,
        custom_id: str | None = None,
        menu: int | None = None,
    ) -> InteractionResult:
        """Pick ``values`` (option values or labels) in a string select of ``message``: the one with ``custom_id``,
        else the ``menu``-th (1-based, in row order), else the first menu offering every value.

        Raises ``CommandUsageError`` for no such menu, a disabled one, an unknown value, or a count outside
        ``min_values``..``max_values``."""
        msg = self._message(message)
        comp = self._pick_select(msg, values, custom_id, menu)
        if comp.get("disabled"):
            raise CommandUsageError("that select menu is disabled")
        chosen = [self._option(comp, v)["value"] for v in values]
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(chosen) <= hi:
            raise CommandUsageError(f"pick between {lo} and {hi} options")
        data = {"custom_id": comp["custom_id"], "component_type": 3, "values": chosen}
        return await self._component(msg, data)

    @staticmethod
    def _option(comp: dict[str, Any], value: str) -> dict[str, Any]:
        opts = comp.get("options") or []
        found = next((o for o in opts if o["value"] == value), None) or next(
            (o for o in opts if o["label"].lower() == str(value).lower()), None
        )
        if found is None:
            raise CommandUsageError(f"{value!r} is not an option of the select menu {comp.get('custom_id')!r}")
        return found

    def _pick_select(
        self, msg: Message, values: tuple[str, ...], custom_id: str | None, menu: int | None
    ) -> dict[str, Any]:
        selects = [c for c in msg.buttons() if c.get("type") == 3]
        if custom_id is not None:
            selects = [c for c in selects if c.get("custom_id") == custom_id]
        elif menu is not None:
            if not 1 <= menu <= len(selects):
                raise CommandUsageError(f"message {msg.id} has {len(selects)} select menu(s), not a #{menu}")
            selects = [selects[menu - 1]]
        if not selects:
            raise CommandUsageError(f"no select menu {custom_id or ''} on message {msg.id}")
        for comp in selects:
            try:
                for v in values:
                    self._option(comp, v)
            except CommandUsageError:
                continue
            return comp
        return selects[0]  # names the unknown value in the error

    async def _component(self, msg: Message, data: dict[str, Any]) -> InteractionResult:
        channel = self.server.channel(msg.channel_id)
        it = await self.server.create_interaction(self.user, channel, 3, data, message=msg)
        return InteractionResult(self.server, it)
