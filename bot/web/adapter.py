"""A game's live adapter: what the live table needs of one game, in ``bot/games/<name>/live.py`` (``LIVE``).

The web layer names no game: it finds the adapter of a kind by its package (``<kind.package>.live``), as the
registry finds ``<package>.kind``. A game without one is not offered on the live table.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.core.kind import GameKind, Snapshot

log = logging.getLogger(__name__)


class LiveGame(Protocol):
    """The three jobs of a game's adapter; every one is a pure function of a loaded :class:`Snapshot`.

    - ``view(snap, seat, locale)``: the JSON the page draws for ``seat`` (``None``: a spectator): public state
      for everyone, the seat's own hidden cards only for it, and what it may do now.
    - ``action(snap, seat, payload)``: the engine action (its text or object) and the ``request`` extras for
      :meth:`GameLayer.act` of a page's ``{"type": ...}`` payload; raises ``RuleError``/``BotError`` for bad input.
    - ``check(snap, seat, payload)``: a legality preview (no write), or ``None`` when the game has none; CPU work
      (run through the layer's CPU seam: module-level, picklable arguments).
    """

    def view(self, snap: Snapshot, seat: int | None, locale: str | None) -> dict[str, Any]: ...

    def action(self, snap: Snapshot, seat: int, payload: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]: ...

    check: Any


_CACHE: dict[str, LiveGame | None] = {}


def live_of(kind: GameKind) -> LiveGame | None:
    """The adapter of ``kind`` (its package's ``live`` module's ``LIVE``), or ``None`` when it has none."""
    package = kind.package
    if package not in _CACHE:
        try:
            _CACHE[package] = importlib.import_module(f"{package}.live").LIVE
        except ModuleNotFoundError:
            _CACHE[package] = None
        except Exception:
            log.exception("the live adapter of %s failed to load", package)
            _CACHE[package] = None
    return _CACHE[package]
