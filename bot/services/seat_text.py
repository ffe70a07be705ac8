"""The words of seating events (joined, left, accepted, ...): a game may word an event its own way."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.i18n import has, t

if TYPE_CHECKING:
    from bot.core.kind import GameKind


def key(kind: GameKind, event: str) -> str:
    """The game's own message key for a seating ``event`` (``<prefix>.<event>``) if it has one, else
    ``lobby.<event>``."""
    own = f"{kind.prefix}.{event}"
    return own if has(own, "en") else f"lobby.{event}"


def text(kind: GameKind, event: str, locale: Any, **kwargs: Any) -> str:
    """The words of a seating ``event`` for ``kind`` in ``locale`` (see :func:`key`)."""
    return t(key(kind, event), locale, **kwargs)
