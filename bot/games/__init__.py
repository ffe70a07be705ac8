"""The bot's one game layer and the games plugged into it (``docs/bot.md``, ``docs/adding-a-game.md``).

A game is a package ``bot/games/<name>/`` (or any importable package, see :data:`EXTRA_GAMES_ENV`) holding:

- ``kind.py``: ``KIND``, a :class:`bot.core.kind.GameKind` (name, engine state class, seating, texts, board
  payload, AI, migration of stored states);
- ``cog.py``: the game's slash commands and an extension entry point ``async def setup(bot)``;
- ``locales/<lang>.py`` (optional): the game's ``MESSAGES``/``COMMANDS``, merged into the catalogues by
  :mod:`bot.i18n`.

This module only names the packages (importing it imports no game), so :mod:`bot.i18n` can read it.
"""

from __future__ import annotations

import os

GAMES: tuple[str, ...] = ("constructo", "conex")
"""The one registration line: the games this bot ships, in the order they are listed to players."""

EXTRA_GAMES_ENV = "TABLEBOT_EXTRA_GAMES"
"""Environment variable: comma-separated packages of extra games (the tests register their test-only game so)."""


def game_packages() -> list[str]:
    """Import paths of every registered game package: ``bot.games.<name>`` for :data:`GAMES`, then the packages
    listed in ``$TABLEBOT_EXTRA_GAMES`` (duplicates dropped)."""
    packages = [f"{__name__}.{name}" for name in GAMES]
    for extra in os.environ.get(EXTRA_GAMES_ENV, "").split(","):
        extra = extra.strip()
        if extra and extra not in packages:
            packages.append(extra)
    return packages
