"""Text a player typed into a command option, read as they meant it: one normaliser for every string option.

A letter pasted from elsewhere may carry characters nobody sees: a zero-width space or joiner, a byte-order mark,
a bidirectional mark (Unicode category ``Cf``), or come in a compatibility form (full-width ``Ａ``, ligatures).
Parsers compared such text with what they expect and refused it while showing what looked like a valid value
(""“A” is not a card: give its hand letter (A, B, ...)"). :func:`normalise` makes the text NFKC, drops every
format character and strips surrounding whitespace; ``GameTree.interaction_check`` applies it with
:func:`normalise_options` to every string option of a command or autocomplete before discord.py reads them, so
card references, layout names and cells, tile numbers typed as text, search partials and names are all read the
same way (README design notes). Each value becomes a :class:`~bot.core.names.Name` (text as typed): a refusal that
echoes it through ``bot.i18n.t`` shows it Markdown-escaped.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.core.names import Name

STRING = 3
"""Discord's option type of a string."""
_GROUPS = (1, 2)
"""Sub-command and sub-command group options: their ``options`` hold the command's own."""


def normalise(text: str) -> str:
    """``text`` in NFKC without format characters (category ``Cf``), whitespace stripped:
    ``"\\u200bＡ "`` -> ``"A"``. Idempotent."""
    folded = unicodedata.normalize("NFKC", str(text))
    kept = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return unicodedata.normalize("NFKC", kept).strip()


def normalise_options(data: Any) -> None:
    """Normalise, in place, the value of every string option in an interaction's ``data`` (nested sub-commands
    included, the focused value of an autocomplete too), each a :class:`~bot.core.names.Name`. Anything that is
    not the expected shape is left as is: ``bot.ui.payloads`` refuses forged payloads."""
    if not isinstance(data, dict):
        return
    for option in data.get("options") or ():
        if not isinstance(option, dict):
            continue
        if option.get("type") in _GROUPS:
            normalise_options(option)
        elif option.get("type") == STRING and isinstance(option.get("value"), str):
            option["value"] = Name(normalise(option["value"]))
