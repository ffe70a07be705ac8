"""The live table: a web client (a Discord Activity) served by the bot process.

- :mod:`bot.web.settings`: ``WEB_PORT`` and friends (off unless ``WEB_PORT`` is set);
- :mod:`bot.web.auth`: the OAuth2 code exchange and ``/users/@me`` (who is this access token);
- :mod:`bot.web.adapter`: a game's live adapter (``bot/games/<name>/live.py``: its view, its actions, its checks);
- :mod:`bot.web.hub`: the open pages per game, told after every commit (``GameLayer.on_committed``);
- :mod:`bot.web.session`: one page's WebSocket: authenticate, send the state, apply actions through the layer;
- :mod:`bot.web.server`: the aiohttp application (static assets, ``/api/token``, ``/api/state``, ``/ws``);
- :mod:`bot.web.button`: the board's "Play in the live table" button (``LAUNCH_ACTIVITY``).

Every action from a page goes through :meth:`bot.core.layer.GameLayer.perform` and :meth:`~GameLayer.act`, the
same path as a command or a button: load, engine, version-checked commit with its effects, then the board.
"""
