"""Constructo in the game layer: ``kind.py`` (the plug-in: engine, options, seats, AI, stored-state migration),
``narration.py`` (headlines and status lines), ``payload.py`` (board images and components), ``views.py``
(persistent components), ``cog.py`` (``/constructo`` commands), ``locales/`` (strings)."""
