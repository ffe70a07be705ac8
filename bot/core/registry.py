"""The registered games, loaded once: ``kinds()`` maps each game's name to its :class:`~bot.core.kind.GameKind`.

A game package is registered by :data:`bot.games.GAMES` (or ``$TABLEBOT_EXTRA_GAMES`` for tests). Loading a
package imports its ``kind`` module (``KIND``), merges its catalogues (:func:`bot.i18n.add_game_catalogues`) and
registers the engine the kind names (``kind.engine``) with the record loader (:func:`engine.record.register_game`);
a package that fails to load is logged and left out, so one broken game never takes the others down.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING

from bot.core.kind import START_COMMANDS, start_hint
from bot.errors import BotError
from bot.games import game_packages
from bot.i18n import add_game_catalogues
from engine.record import register_game

if TYPE_CHECKING:
    from bot.core.kind import GameKind

__all__ = ["FAILED", "kind", "kinds", "register", "start_hint"]

log = logging.getLogger(__name__)

_KINDS: dict[str, GameKind] = {}
_LOADED: set[str] = set()
FAILED: list[str] = []
"""Packages that failed to load (logged)."""


def register(package: str) -> GameKind | None:
    """Load the game package ``package`` (idempotent). Returns its kind, or ``None`` if it failed to load."""
    if package in _LOADED:
        return next((k for k in _KINDS.values() if k.package == package), None)
    _LOADED.add(package)
    try:
        kind: GameKind = importlib.import_module(f"{package}.kind").KIND
        register_game(kind.engine)
    except Exception:
        log.exception("game package %s failed to load; its commands are unavailable", package)
        FAILED.append(package)
        return None
    kind.package = package
    add_game_catalogues(package)
    _KINDS[kind.name] = kind
    if kind.start_command and kind.start_command not in START_COMMANDS:
        START_COMMANDS.append(kind.start_command)
    return kind


def kinds() -> dict[str, GameKind]:
    """Every registered game by name, in registration order (loads them on first use)."""
    for package in game_packages():
        register(package)
    return _KINDS


def kind(name: str) -> GameKind:
    """The registered game ``name``. Raises ``BotError("err.no_such_kind")``."""
    found = kinds().get(name)
    if found is None:
        raise BotError("err.no_such_kind", game=name)
    return found
