"""CONEX in the game layer: ``kind.py`` (the plug-in: engine, options, lobby seats, AI seats, the X3 timeout,
stored-state migration), ``narration.py`` (event texts, status line), ``payload.py`` (table images and buttons),
``views.py`` (persistent components), ``private.py`` (hand, hints, discard select, forfeit), ``placing.py``
(card references, poses, the finder), ``ai.py`` (the AI seats), ``cog.py`` (``/conex`` commands), ``locales/``."""
