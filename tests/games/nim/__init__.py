"""Nim, a tiny third game used only in tests: it proves the recipe of ``docs/adding-a-game.md``. Its parts sit
where a shipped game's would (``engine.py`` = ``engine/nim/``, ``render.py`` = ``render/nim.py``, ``kind.py``,
``views.py``, ``cog.py``, ``locales/`` = ``bot/games/nim/``) and it is registered with
``TABLEBOT_EXTRA_GAMES=tests.games.nim`` instead of a line in ``bot.games.GAMES``."""
