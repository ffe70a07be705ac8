"""A text console to play through the dev server as several users: ``python -m devserver``.

Lines (the prompt shows who acts, e.g. ``alice>``):

- ``/constructo place tile:5 size:large`` — a slash command; ``name:value`` options, quote values with
  spaces (``note:"good game"``); users by name (``opponent:bob``).
- ``click Accept`` — click a button (label or custom_id) on the newest message you see that has it;
  ``click 3 Accept`` targets message ``#3`` of ``show``.
- ``select rombo`` / ``select 3 rombo`` — pick an option of a select menu.
- ``complete /constructo place tile 5 size:large`` — what autocomplete suggests for ``tile`` after typing ``5``.
- ``switch carol`` (or ``bob> /help`` / ``as bob /help`` for one line), ``channel games-2``, ``show [n]``,
  ``users``, ``violations``, ``restart`` (SIGKILL the bot and start it again), ``help``, ``quit``.

Every attachment is saved under the output folder (``./devserver-out`` by default) and its path printed.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from devserver.client import CommandUsageError, DevUser
from devserver.models import Message
from devserver.result import InteractionResult
from devserver.server import DevServer

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


class Console:
    """Turns console lines into user actions on ``server`` and renders what the bot answered as text."""

    def __init__(self, server: DevServer, out_dir: Path, user: str = "alice", bot: Any = None) -> None:
        self.server = server
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.user: DevUser = server.as_user(user)
        self.bot = bot  # a BotProcess, for "restart"
        self.saved: dict[int, Path] = {}
        self.seen: dict[int, int] = {}  # message id -> edits count already printed
        self.known_threads = {c.id for c in server.channels.values() if c.type in (10, 11, 12)}
        self.mark_seen()

    @property
    def prompt(self) -> str:
        ch = self.user.channel
        where = "" if ch.id == self.server.default_channel_id else f" #{ch.name}"
        return f"{self.user.name}{where}> "

    def mark_seen(self) -> None:
        for m in self.server.all_messages():
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
        head = f"#{number} " if number is not None else ""
        flags = " (only you)" if m.ephemeral else ""
        flags += " (thinking...)" if m.loading else ""
        flags += " (edited)" if m.edits else ""
        lines = [f"{head}[{self.server.channel(m.channel_id).name}] {m.author.name}{flags}: {m.content}".rstrip()]
        for e in m.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    lines.append(f"  | {e[key]}")
            lines.extend(f"  | {f.get('name')}: {f.get('value')}" for f in e.get("fields") or [])
            if (e.get("footer") or {}).get("text"):
                lines.append(f"  | {e['footer']['text']}")
        for a in m.attachments:
            lines.append(f"  [image] {self.saved.get(a.id, a.filename)} ({a.size} bytes)")
        for row in m.components:
            parts = []
            for c in row.get("components", []):
                if c.get("type") == 2:
                    off = " (off)" if c.get("disabled") else ""
                    parts.append(f"[{c.get('label') or c.get('emoji', {}).get('name') or c.get('custom_id')}{off}]")
                elif c.get("type") == 3:
                    opts = ", ".join(o["value"] for o in c.get("options", []))
                    parts.append(f"<select {c.get('placeholder') or ''}: {opts}>")
            if parts:
                lines.append("  " + " ".join(parts))
        return "\n".join(lines)

    def news(self) -> str:
        """New or edited messages this user can see since the last call, and new threads."""
        self.save_images()
        out = []
        for ch in self.server.channels.values():
            if ch.type in (10, 11, 12) and ch.id not in self.known_threads:
                self.known_threads.add(ch.id)
                out.append(f"(new thread #{ch.name}: `channel {ch.id}` to act in it)")
        for m in self.server.all_messages():
            if m.visible_for(self.user.id) and self.seen.get(m.id) != m.edits:
                out.append(self.render(m))
        self.mark_seen()
        return "\n".join(out)

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

    # -------------------------------------------------------------- commands
    def _target(self, args: list[str], kind: str) -> tuple[Message, list[str]]:
        msgs = self.visible()
        if args and args[0].lstrip("#").isdigit() and len(args) > 1:
            n = int(args[0].lstrip("#"))
            if not 1 <= n <= len(msgs):
                raise CommandUsageError(f"no message #{n} (see `show`)")
            return msgs[n - 1], args[1:]
        want = " ".join(args).lower()
        here = self.user.channel.id
        everywhere = [m for m in self.server.all_messages() if m.visible_for(self.user.id)]
        for m in [*reversed(msgs), *(m for m in reversed(everywhere) if m.channel_id != here)]:
            for c in m.buttons():
                if kind == "button" and c.get("type") == 2 and want in (
                        (c.get("label") or "").lower(), (c.get("custom_id") or "").lower()):
                    return m, args
                if kind == "select" and c.get("type") == 3 and any(
                        want in (o["value"].lower(), o["label"].lower()) for o in c.get("options", [])):
                    return m, args
        raise CommandUsageError(f"no visible message has a {kind} {' '.join(args)!r}")

    async def run_line(self, line: str, *, timeout: float = 15.0) -> str:  # noqa: ASYNC109
        """Execute one console line and return what to print."""
        line = line.strip()
        if not line:
            return ""
        first = line.split(maxsplit=1)[0]
        if first.endswith(">") and first[:-1] in self.server.users:
            return await self._as(first[:-1], line.split(maxsplit=1)[1] if " " in line else "", timeout)
        try:
            tokens = shlex.split(line)
        except ValueError as exc:
            return f"?? {exc}"
        cmd, args = tokens[0], tokens[1:]
        try:
            if cmd.startswith("/"):
                path, options = parse_options([cmd[1:], *args])
                res = await self.user.slash(path, **options)
                return self.result_text(await res.wait(timeout))
            if cmd == "as" and args:
                return await self._as(args[0], shlex.join(args[1:]), timeout)
            if cmd == "click" and args:
                msg, rest = self._target(args, "button")
                res = await self.user.click(msg, " ".join(rest))
                return self.result_text(await res.wait(timeout))
            if cmd == "select" and args:
                msg, rest = self._target(args, "select")
                res = await self.user.select(msg, *rest)
                return self.result_text(await res.wait(timeout))
            if cmd == "complete" and len(args) >= 2 and args[0].startswith("/"):
                return await self._complete(args)
            if cmd == "switch" and args:
                self.user = self.server.as_user(args[0], self.user.channel.id)
                return f"now acting as {self.user.name}"
            if cmd == "channel" and args:
                self.user = self.user.in_channel(args[0])
                return f"now in #{self.user.channel.name}"
            if cmd == "show":
                msgs = self.visible()
                n = int(args[0]) if args else 10
                start = max(0, len(msgs) - n)
                return "\n".join(self.render(m, i + 1) for i, m in enumerate(msgs) if i >= start) or "(no messages)"
            if cmd == "users":
                return ", ".join(f"{u.name} ({u.id})" for u in self.server.users.values())
            if cmd == "channels":
                return ", ".join(f"#{c.name} ({c.id})" for c in self.server.channels.values() if c.type != 1)
            if cmd == "violations":
                return "\n".join(f"{v.kind} {v.code} {v.route}: {v.message}" for v in self.server.violations) or "none"
            if cmd == "restart" and self.bot is not None:
                await self.bot.restart()
                return "bot restarted (SIGKILL + start on the same DATA_DIR)"
            if cmd == "help":
                return HELP.strip()
        except (CommandUsageError, KeyError) as exc:
            return f"?? {exc}"
        return f"?? unknown line {line!r}; type `help`"

    async def _as(self, name: str, rest: str, timeout: float) -> str:  # noqa: ASYNC109
        if name not in self.server.users:
            return f"?? no user {name!r}"
        keep = self.user
        self.user = self.server.as_user(name, keep.channel.id)
        try:
            return await self.run_line(rest, timeout=timeout) if rest else f"now acting as {name}"
        finally:
            if rest:
                self.user = keep

    async def _complete(self, args: list[str]) -> str:
        """``complete /cmd [sub...] option [partial] [name:value...]``: subcommands are read off the synced tree."""
        words = [args[0][1:]]
        rest = args[1:]
        spec = self.server.all_commands().get(words[0]) or {}
        options = spec.get("options") or []
        while rest:
            sub = next((o for o in options if o.get("type") in (1, 2) and o["name"] == rest[0]), None)
            if sub is None:
                break
            words.append(rest.pop(0))
            options = sub.get("options") or []
        plain = [w for w in rest if ":" not in w]
        if not plain:
            raise CommandUsageError("say which option to complete: complete /cmd option [partial]")
        option, partial = plain[0], plain[1] if len(plain) > 1 else ""
        _, given = parse_options([w for w in rest if ":" in w])
        choices = await self.user.autocomplete(" ".join(words), option, partial, **given)
        return "\n".join(f"  {c['name']}  ->  {c['value']}" for c in choices) or "(no suggestions)"
