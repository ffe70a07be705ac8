"""Command payloads a client forged (issue 22): options checked against the command tree before discord.py reads
them.

discord.py trusts Discord's payload: an integer option given text reaches the command as a ``str``, a user option
missing from ``resolved`` becomes a bare ``discord.Object``, a number option given text raises inside its parser
(no answer at all). :func:`problem` finds the first such option so that ``GameTree.interaction_check`` answers
privately and runs nothing; Discord's own client never sends any of them.

Checked, for every option of the invoked (sub)command: it exists; its type is the declared one; its value has
that type (string, integer within Discord's ±(2^53 - 1), number, boolean) and is one of the declared choices (when
the option has any: discord.py passes any value through); a user, role, channel, mentionable or attachment is a
snowflake that ``resolved`` carries. Autocomplete's focused value is free text
(not checked).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.errors import BotError

MAX_INTEGER = 2**53 - 1
"""Discord's INTEGER option range is -(2^53 - 1) .. 2^53 - 1."""
MAX_STRING = 6000
"""No string option is longer (Discord: 6000 characters)."""
_RESOLVED = {6: ("users",), 7: ("channels",), 8: ("roles",), 9: ("users", "roles"), 11: ("attachments",)}


def _value_ok(kind: int, value: Any) -> bool:
    if kind == 3:
        return isinstance(value, str) and len(value) <= MAX_STRING
    if kind == 4:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= MAX_INTEGER
    if kind == 10:  # NaN and infinities pass: the game names them ("must be finite")
        return isinstance(value, int | float) and not isinstance(value, bool)
    if kind == 5:
        return isinstance(value, bool)
    return True


def problem(tree: app_commands.CommandTree, interaction: discord.Interaction) -> BotError | None:
    """The refusal for the first forged option of ``interaction`` (a chat-input command or autocomplete), or
    ``None`` when every option is what the command declares. Unknown commands are left to discord.py
    (``CommandNotFound``, answered by the tree's error handler)."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    if data.get("type", 1) != 1:
        return None
    try:
        command, options = tree._get_app_command_options(data)  # type: ignore[arg-type]
    except app_commands.CommandNotFound:
        return None
    params = {p.display_name: p for p in getattr(command, "parameters", [])}
    resolved = data.get("resolved") or {}
    for option in options:
        if not isinstance(option, dict):
            return BotError("err.bad_payload", option="?")
        name = str(option.get("name", ""))[:32]
        param = params.get(name)
        kind = option.get("type")
        if param is None or kind != param.type.value:
            return BotError("err.bad_payload", option=name or "?")
        value = option.get("value")
        if option.get("focused"):
            continue
        if kind in _RESOLVED:
            text = str(value)
            if not text.isdigit() or len(text) > 20:
                return BotError("err.bad_payload", option=name)
            if not any(text in (resolved.get(part) or {}) for part in _RESOLVED[kind]):
                return BotError("err.unresolved", option=name)
        elif not _value_ok(int(kind), value):
            return BotError("err.bad_payload", option=name)
        else:
            outside = _outside(param, int(kind), value, name)
            if outside is not None:
                return outside
    return None


def _outside(param: app_commands.Parameter, kind: int, value: Any, name: str) -> BotError | None:
    """The refusal of a ``value`` that is not one of the parameter's declared choices (``err.bad_choice``, naming
    them); else ``None``. Declared ranges are the commands' own to say (with their units: "1-1440 minutes", "must
    be finite"), so they are not checked here."""
    choices = param.choices
    if choices and value not in {c.value for c in choices}:
        return BotError("err.bad_choice", option=name, choices=", ".join(str(c.value) for c in choices)[:300])
    return None
