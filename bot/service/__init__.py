"""Async game services: the one code path for every action (commands, buttons, AI, scheduler).

``base.GameService`` holds what every game shares (load, per-game lock, version-checked commit,
rendering off the event loop, seats, abort); ``constructo.ConstructoService`` and
``conex.ConexService`` add the game verbs. Services know no Discord types: they take user ids and
return :class:`~bot.service.base.Committed` records for the cogs to publish.
"""
