"""A text console to play through the dev server as several users: ``python -m devserver``.

Lines (the prompt shows who acts, e.g. ``alice>``):

- ``/constructo place tile:5 size:large`` — a slash command; ``name:value`` options, quote values with
  spaces (``note:"good game"``); users by name (``opponent:bob``).
- ``click Accept`` / ``click 1 · +3`` — click the button with that label (or custom_id; no quotes needed for
  spaces) on the newest message you see that has it; ``click #3 Accept`` targets message ``#3`` of ``show``.
- ``select rombo`` — pick an option (value or label) in the select menu offering it; ``select #3 rombo`` on
  message ``#3``; ``select @2 K`` in the 2nd menu of the message (``show`` marks menus ``@1``, ``@2``...),
  ``select @cx:discard K`` by custom_id; several words pick several options.
- ``complete /constructo place tile 5 size:large`` — what autocomplete suggests for ``tile`` after typing ``5``.
- ``perms`` — the bot's permissions here; ``perms -attach_files -send_messages``, ``perms +attach_files``,
  ``perms reset`` change them in this channel (``perms #games -send_messages`` elsewhere; a thread follows
  its parent channel).
- ``delete #3`` — the moderator deletes message ``#3`` of ``show``.
- ``live`` — open the live table (started with ``--web-port``): a link for the acting user in this channel (the
  Activity launched for them: a one-time code).
- ``kick-bot`` / ``invite-bot`` — remove the bot from this guild (GUILD_DELETE) / invite it back.
- ``locale es-ES`` — the acting user's Discord now speaks Spanish (``locale en-US`` back); ``locale server es-ES``
  sets the guild's language (public boards and result cards of games opened after it).
- ``switch carol`` (or ``bob> /help`` / ``as bob /help`` for one line), ``channel games-2`` (each user keeps
  their own channel, also after a one-line ``mod> channel games-2``), ``show [n]``,
  ``users``, ``channels``, ``violations``, ``restart`` (SIGKILL the bot and start it again), ``help``, ``quit``.

Every attachment is saved under the output folder (``./devserver-out`` by default) and its path printed.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from devserver.client import CommandUsageError, DevUser
from devserver.console_view import render_message
from devserver.models import Message
from devserver.permissions import names
from devserver.result import InteractionResult
from devserver.server import DevServer

SETTLE_S = 0.6  # after an answer, the bot counts as done once it sent no request for this long
NEEDS_ARGUMENT = {"click", "select", "complete", "as", "switch", "channel", "delete", "locale"}
LOCALES = ("en-US", "en-GB", "es-ES", "es-419")
"""The Discord locales the console offers (the bot speaks English and Spanish)."""
HELP = (__doc__ or "").split("``alice>``):", 1)[-1].split("Every attachment", 1)[0].replace("``", "`")


def parse_options(tokens: list[str]) -> tuple[str, dict[str, str]]:
    """Split ``["constructo", "place", "tile:5", "size:large"]`` into the command path and its options.

    Raises ``CommandUsageError`` for an option without a name or a word after the options.
    """
    words: list[str] = []
    options: dict[str, str] = {}
    for tok in tokens:
        if ":" in tok and not tok.startswith("<"):
            name, value = tok.split(":", 1)
            if not name:
                raise CommandUsageError(f"option {tok!r} has no name (write name:value)")
            options[name] = value
        elif options:
            raise CommandUsageError(f"{tok!r} after the options: write name:value")
        else:
            words.append(tok)
    return " ".join(words), options


def unquote(text: str) -> str:
    """``text`` without one pair of surrounding quotes (``"Add bot"`` -> ``Add bot``)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    return text


def message_number(token: str) -> int | None:
    """``3`` for ``"#3"`` or ``"3"``, else None."""
    raw = token.removeprefix("#")
    return int(raw) if raw.isdigit() else None


class Console:
    """Turns console lines into user actions on ``server`` and renders what the bot answered as text."""

    def __init__(
        self, server: DevServer, out_dir: Path, user: str = "alice", bot: Any = None, live_url: str | None = None
    ) -> None:
        self.live_url = live_url  # the bot's live table (``--web-port``), for "live"
        self.server = server
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.user: DevUser = server.as_user(user)
        self.bot = bot  # a BotProcess, for "restart"
        self.saved: dict[int, Path] = {}
        self.seen: dict[int, int] = {}  # message id -> edits count already printed
        self.known_threads = {c.id for c in server.channels.values() if c.is_thread}
        self.places: dict[str, int] = {}  # user name -> the channel that user was last in (`channel` sticks per user)
        self.settle_s = SETTLE_S
        self.mark_seen()
        self.commands: dict[str, Callable[[str, float], Awaitable[str]]] = {
            "click": self._click,
            "select": self._select,
            "complete": self._complete,
            "as": self._as_line,
            "switch": self._switch,
            "channel": self._channel,
            "show": self._show,
            "users": self._users,
            "channels": self._channels,
            "violations": self._violations,
            "restart": self._restart,
            "help": self._help,
            "perms": self._perms,
            "delete": self._delete,
            "kick-bot": self._kick_bot,
            "invite-bot": self._invite_bot,
            "locale": self._locale,
            "live": self._live,
        }

    @property
    def prompt(self) -> str:
        ch = self.user.channel
        where = "" if ch.id == self.server.default_channel_id else f" #{ch.name}"
        return f"{self.user.name}{where}> "

    def mark_seen(self) -> None:
        """Mark what the acting user can see as printed; another user's private messages (their DMs, ephemeral
        answers) stay unprinted until that user acts again (``switch``, or a ``name>`` line)."""
        for m in self.server.all_messages():
            if m.visible_for(self.user.id):
                self.seen[m.id] = m.edits

    # -------------------------------------------------------------- rendering
    def save_images(self) -> None:
        for m in self.server.all_messages():
            for a in m.attachments:
                if a.id not in self.saved:
                    path = self.out_dir / f"{m.id}-{a.id}-{Path(a.filename).name}"
                    path.write_bytes(a.data)
                    self.saved[a.id] = path

    def visible(self) -> list[Message]:
        return self.user.messages()

    def render(self, m: Message, number: int | None = None) -> str:
        return render_message(self.server, m, number, self.saved)

    def news(self) -> str:
        """New or edited messages this user can see since the last call, and new threads."""
        self.save_images()
        out = []
        for ch in self.server.channels.values():
            if ch.is_thread and ch.id not in self.known_threads:
                self.known_threads.add(ch.id)
                out.append(f"(new thread #{ch.name}: `channel {ch.id}` to act in it)")
        for m in self.server.all_messages():
            if m.visible_for(self.user.id) and self.seen.get(m.id) != m.edits:
                out.append(self.render(m))
        self.mark_seen()
        return "\n".join(out)

    async def answer(self, res: InteractionResult, timeout: float) -> str:  # noqa: ASYNC109
        """Wait for ``res``, then until the bot has been quiet for ``settle_s``, and render both.

        An answer comes first and the board it owes a moment later (the bot posts it after the commit): with
        the result's default 0.15-s settle, ``click Accept`` printed the first board only after the next line.
        """
        return self.result_text(await res.wait(timeout, settle=self.settle_s))

    def result_text(self, res: InteractionResult) -> str:
        parts = []
        if res.failed:
            parts.append("!! This interaction failed (no answer within 3 s)")
        if res.response_type == 9 and res.interaction.modal:
            parts.append(f"(the bot opened a modal: {res.interaction.modal.get('title')})")
        news = self.news()
        if news:
            parts.append(news)
        for v in res.violations:
            parts.append(f"!! violation {v.kind} ({v.code}): {v.message}")
        return "\n".join(parts) or "(no visible answer)"

    # -------------------------------------------------------------- finding messages and components
    def numbered(self, n: int) -> Message:
        """Message ``#n`` of ``show``."""
        msgs = self.visible()
        if not 1 <= n <= len(msgs):
            raise CommandUsageError(f"no message #{n} (see `show`)")
        return msgs[n - 1]

    def search_order(self) -> list[Message]:
        """Messages this user sees: newest first in the current channel, then newest first elsewhere."""
        here = self.user.channel.id
        everywhere = [m for m in reversed(self.server.all_messages()) if m.visible_for(self.user.id)]
        return [*(m for m in everywhere if m.channel_id == here), *(m for m in everywhere if m.channel_id != here)]

    @staticmethod
    def button_on(m: Message, text: str) -> bool:
        want = text.lower()
        return any(
            c.get("type") == 2 and want in ((c.get("label") or "").lower(), (c.get("custom_id") or "").lower())
            for c in m.buttons()
        )

    @staticmethod
    def select_on(m: Message, values: list[str], menu: str | None) -> dict[str, Any] | None:
        """The select menu of ``m`` (``menu``: ``"2"`` = its 2nd, else a custom_id) offering every value."""
        selects = [c for c in m.buttons() if c.get("type") == 3]
        if menu is not None:
            selects = (
                [selects[int(menu) - 1]]
                if menu.isdigit() and 1 <= int(menu) <= len(selects)
                else [c for c in selects if c.get("custom_id") == menu]
            )
        for c in selects:
            opts = {s for o in c.get("options", []) for s in (o["value"].lower(), o["label"].lower())}
            if values and all(v.lower() in opts for v in values):
                return c
        return None

    # -------------------------------------------------------------- the line
    async def run_line(self, line: str, *, timeout: float = 15.0) -> str:  # noqa: ASYNC109
        """Execute one console line and return what to print."""
        line = line.strip()
        if not line:
            return ""
        first, _, rest = line.partition(" ")
        rest = rest.strip()
        if first.endswith(">") and first[:-1] in self.server.users:
            return await self._as(first[:-1], rest, timeout)
        try:
            if first.startswith("/"):
                path, options = parse_options(shlex.split(line[1:]))
                res = await self.user.slash(path, **options)
                return await self.answer(res, timeout)
            handler = self.commands.get(first)
            if handler is not None and not rest and first in NEEDS_ARGUMENT:
                return f"?? `{first}` needs more: type `help`"
            if handler is not None:
                return await handler(rest, timeout)
        except (CommandUsageError, KeyError, ValueError) as exc:
            return f"?? {exc.args[0] if exc.args else exc}"
        return f"?? unknown line {line!r}; type `help`"

    async def _as(self, name: str, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        if name not in self.server.users:
            return f"?? no user {name!r}"
        keep = self.user
        self.user = self.server.as_user(name, self.places.get(name, keep.channel.id))
        try:
            return await self.run_line(rest, timeout=timeout) if rest else f"now acting as {name}"
        finally:
            if rest:
                self.user = keep

    async def _as_line(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        name, _, line = rest.partition(" ")
        return await self._as(name, line.strip(), timeout)

    # -------------------------------------------------------------- playing
    async def _click(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        """``click LABEL`` (the whole rest of the line) or ``click #N LABEL``."""
        label = unquote(rest)
        msg = next((m for m in self.search_order() if self.button_on(m, label)), None)
        if msg is None:
            first, _, tail = label.partition(" ")
            n = message_number(first)
            if n is None or not tail:
                raise CommandUsageError(f"no visible message has a button {label!r}")
            msg, label = self.numbered(n), unquote(tail)
        res = await self.user.click(msg, label)
        return await self.answer(res, timeout)

    async def _select(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        """``select [#N] [@MENU] VALUE...`` (see the module docstring)."""
        words = rest.split()
        n = message_number(words.pop(0)) if words[0].startswith("#") else None
        menu = words.pop(0)[1:] if words and words[0].startswith("@") else None
        found = self._find_select(words, menu, n)
        if found is None and n is None and len(words) > 1 and words[0].isdigit():
            n = int(words.pop(0))  # "select 3 rombo": message #3 (no menu offers "3 rombo")
            menu = words.pop(0)[1:] if words and words[0].startswith("@") else menu
            found = self._find_select(words, menu, n)
        if found is None:
            raise CommandUsageError(f"no visible message has a select offering {' '.join(words)!r}")
        msg, comp, values = found
        res = await self.user.select(msg, *values, custom_id=comp["custom_id"])
        return await self.answer(res, timeout)

    def _find_select(
        self, words: list[str], menu: str | None, n: int | None
    ) -> tuple[Message, dict[str, Any], list[str]] | None:
        """The message, menu and values for ``words``: the whole phrase as one option first, then one per word."""
        pool = [self.numbered(n)] if n is not None else self.search_order()
        for values in ([unquote(" ".join(words))], [unquote(w) for w in words]):
            for m in pool:
                comp = self.select_on(m, values, menu)
                if comp is not None:
                    return m, comp, values
        return None

    async def _complete(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        """``complete /cmd [sub...] option [partial] [name:value...]``: subcommands are read off the synced tree."""
        args = shlex.split(rest)
        if len(args) < 2 or not args[0].startswith("/"):
            raise CommandUsageError("write: complete /cmd [sub] option [partial] [name:value...]")
        words, rest_args = [args[0][1:]], args[1:]
        guild = self.server.guild_of(self.user.channel)
        spec = self.server.all_commands(guild).get(words[0]) or {}
        options = spec.get("options") or []
        while rest_args:
            sub = next((o for o in options if o.get("type") in (1, 2) and o["name"] == rest_args[0]), None)
            if sub is None:
                break
            words.append(rest_args.pop(0))
            options = sub.get("options") or []
        plain = [w for w in rest_args if ":" not in w]
        if not plain:
            raise CommandUsageError("say which option to complete: complete /cmd option [partial]")
        option, partial = plain[0], plain[1] if len(plain) > 1 else ""
        _, given = parse_options([w for w in rest_args if ":" in w])
        choices = await self.user.autocomplete(" ".join(words), option, partial, **given)
        return "\n".join(f"  {c['name']}  ->  {c['value']}" for c in choices) or "(no suggestions)"

    # -------------------------------------------------------------- server controls
    async def _perms(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        """``perms [#channel] [+name|-name|reset ...]``: show (and change) the bot's permissions in a channel."""
        args = shlex.split(rest)
        channel = self.server.channel(args.pop(0)) if args and args[0].startswith("#") else self.user.channel
        target = self.server.parent_of(channel) if channel.is_thread else channel
        allow = [a[1:] for a in args if a.startswith("+")]
        deny = [a[1:] for a in args if a.startswith("-")]
        bad = [a for a in args if a[:1] not in "+-" and a != "reset"]
        if bad:
            raise CommandUsageError(f"write +name or -name (e.g. -attach_files) or reset, not {bad[0]!r}")
        if target is not None and (allow or deny or "reset" in args):
            await self.server.set_bot_permissions(target, allow=allow, deny=deny, reset="reset" in args)
        granted = names(self.server.bot_permissions(channel))
        return f"bot in #{channel.name}: {', '.join(granted) or 'nothing'}"

    async def _delete(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        n = message_number(rest.strip())
        if n is None:
            raise CommandUsageError("write: delete #N (a message number from `show`)")
        msg = await self.server.delete_message(self.numbered(n), by="mod")
        return f"mod deleted message #{n} ({msg.content[:40]!r})"

    async def _kick_bot(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        guild = self.server.guild(unquote(rest)) if rest else self.server.guild_of(self.user.channel)
        if guild is None:
            raise CommandUsageError("not in a guild")
        await self.server.remove_bot(guild)
        return f"the bot was removed from {guild.name!r} (GUILD_DELETE sent)"

    async def _invite_bot(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        guild = self.server.guild(unquote(rest)) if rest else self.server.guild_of(self.user.channel)
        if guild is None:
            raise CommandUsageError("not in a guild")
        await self.server.add_bot(guild)
        return f"the bot was invited to {guild.name!r} (GUILD_CREATE sent)"

    # -------------------------------------------------------------- navigation and lists
    async def _switch(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        name = rest.split()[0]
        self.places[self.user.name] = self.user.channel.id  # each user keeps their own channel
        self.user = self.server.as_user(name, self.places.get(name, self.user.channel.id))
        news = self.news()  # what came for them meanwhile (a turn alert by DM...)
        return f"now acting as {self.user.name}" + (f"\n{news}" if news else "")

    async def _channel(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        self.user = self.user.in_channel(unquote(rest))
        self.places[self.user.name] = self.user.channel.id  # sticks, also after a one-line `bob> channel X`
        return f"now in #{self.user.channel.name}"

    async def _show(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        msgs = self.visible()
        n = int(rest) if rest.strip().isdigit() else 10
        start = max(0, len(msgs) - n)
        return "\n".join(self.render(m, i + 1) for i, m in enumerate(msgs) if i >= start) or "(no messages)"

    async def _locale(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        """``locale <xx-YY>``: the acting user's client language; ``locale server <xx-YY>``: the guild's."""
        args = rest.split()
        server_wide = bool(args) and args[0] == "server"
        value = args[1] if server_wide and len(args) > 1 else (args[0] if args and not server_wide else "")
        if value not in LOCALES:
            raise CommandUsageError(f"write one of {', '.join(LOCALES)} (e.g. locale es-ES, locale server es-ES)")
        if server_wide:
            self.server.guild(self.user.channel.guild_id).locale = value
            return f"the server's language is now {value} (games opened from now on)"
        self.server.user(self.user.name).locale = value
        return f"{self.user.name}'s Discord now speaks {value}"

    async def _users(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        return ", ".join(f"{u.name} ({u.id})" for u in self.server.users.values())

    async def _channels(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        lines = []
        for g in self.server.guilds.values():
            chans = ", ".join(f"#{c.name} ({c.id})" for c in self.server.channels.values() if c.guild_id == g.id)
            lines.append(f"{g.name}{'' if g.bot_member else ' (bot removed)'}: {chans}")
        return "\n".join(lines)

    async def _violations(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        return "\n".join(f"{v.kind} {v.code} {v.route}: {v.message}" for v in self.server.violations) or "none"

    async def _restart(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        if self.bot is None:
            raise CommandUsageError("no bot process to restart (started with --no-bot)")
        await self.bot.restart()
        return "bot restarted (SIGKILL + start on the same DATA_DIR)"

    async def _live(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        if self.live_url is None:
            raise CommandUsageError("the live table is off: start the console with --web-port N")
        channel = self.user.channel.id
        code = self.server.oauth.launch(self.user.name, channel).code
        return f"open in a browser ({self.user.name}): {self.live_url}/?code={code}&channel={channel}"

    async def _help(self, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        return HELP.strip()
