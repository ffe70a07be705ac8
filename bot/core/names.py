"""Display names as the bot shows them: a player's name is text, never markup Discord would draw as someone else.

A nickname may be any text: ``<@123>`` in a message is drawn as the mention pill of user 123 (a player named so would
read as another member on boards, lobbies and standings), ``<@&4>`` as a role, ``<#5>`` as a channel, ``</x:6>`` as a
command. :func:`plain` turns the ``<`` that would open such markup into a look-alike, so the name reads as typed and
draws as nobody else (pings are a separate matter: ``bot/core/mentions.py``). No Discord import: the envelope uses it.

A name is also text in a message Discord draws as Markdown: ``[Nitro](https://evil.example)`` would be a masked link,
``# big`` a heading, ``**x**`` bold. :func:`plain` returns a :class:`Name` (the text as typed, a ``str``): stored
data and images (the renderer draws names literally) keep it as is, and ``bot.i18n.t`` - where names are turned
into message text - shows every :class:`Name` placeholder through :func:`shown` (Markdown escaped), except in the
templates Discord does not draw as Markdown (thread names: ``bot.i18n.PLAIN_TEXT``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

LOOKALIKE = "\u2039"
"""What replaces a ``<`` opening Discord markup in a name: ``‹`` (single left-pointing angle quotation mark)."""
_MARKUP = re.compile(r"<(?=[@#/])")
_INLINE = re.compile(r"([\\*_~`|\[\]])")
"""Characters Discord reads as Markdown anywhere in a line: emphasis, strike, code, spoiler, masked-link brackets."""
_LEADING = re.compile(r"^(\s*|\s*\d+)((?<=\d)[.)]|(?<!\d)[#>+-])")
"""What opens a heading, block quote, list (``-``, ``+``) or numbered list (``1.``) at the start of a line: the
opener is escaped (``\\#``, ``1\\.``; a backslash before a digit would show)."""
_EVERYONE = re.compile(r"@(?=everyone|here)")


class Name(str):
    """A person's or a server's name as typed (a ``str``): :func:`bot.i18n.t` shows it Markdown-escaped
    (:func:`shown`) in message text; everything else (storage, images, thread names) uses it as is. Slicing or
    joining gives a plain ``str``: wrap the result again if it is still a name."""

    __slots__ = ()


def plain(name: str) -> Name:
    """``name`` as a :class:`Name` with every ``<`` followed by ``@``, ``#`` or ``/`` replaced by :data:`LOOKALIKE`
    (same length; idempotent): ``"<@123>"`` -> ``"‹@123>"``."""
    return Name(_MARKUP.sub(LOOKALIKE, str(name)))


def shown(name: str) -> str:
    """``name`` as message text Discord draws exactly as typed: every Markdown character backslash-escaped (``*``,
    ``_``, ``~``, backtick, ``|``, ``[``, ``]``, ``\\``), a leading ``#``, ``>``, ``-``, ``+`` or list number
    escaped (no heading, quote or list), ``@everyone``/``@here`` broken by a zero-width space and mention markup
    made :func:`plain`. Not idempotent: apply it once, where the name becomes message text (``bot.i18n.t``)."""
    text = _INLINE.sub(r"\\\1", plain(name))
    text = "\n".join(_LEADING.sub(r"\1\\\2", line) for line in text.split("\n"))
    return _EVERYONE.sub("@\u200b", text)


def listed(names: Iterable[str], sep: str = ", ") -> Name:
    """Names joined by ``sep`` (``"Ana, Bob"``), still a :class:`Name`: one placeholder of several names is
    escaped as a whole where it becomes message text (``sep`` holds no Markdown)."""
    return Name(sep.join(str(n) for n in names))
