"""Display names as the bot shows them: a player's name is text, never markup Discord would draw as someone else.

A nickname may be any text: ``<@123>`` in a message is drawn as the mention pill of user 123 (a player named so would
read as another member on boards, lobbies and standings), ``<@&4>`` as a role, ``<#5>`` as a channel, ``</x:6>`` as a
command. :func:`plain` turns the ``<`` that would open such markup into a look-alike, so the name reads as typed and
draws as nobody else (pings are a separate matter: ``bot/core/mentions.py``). No Discord import: the envelope uses it.
"""

from __future__ import annotations

import re

LOOKALIKE = "\u2039"
"""What replaces a ``<`` opening Discord markup in a name: ``‹`` (single left-pointing angle quotation mark)."""
_MARKUP = re.compile(r"<(?=[@#/])")


def plain(name: str) -> str:
    """``name`` with every ``<`` followed by ``@``, ``#`` or ``/`` replaced by :data:`LOOKALIKE` (same length;
    idempotent): ``"<@123>"`` -> ``"‹@123>"``."""
    return _MARKUP.sub(LOOKALIKE, str(name))
