"""Spanish messages of ``/about`` (bot/cogs/about.py); ``COMMANDS`` translates its description."""

MESSAGES: dict[str, str] = {
    "about.text": (
        "**Bot de juegos de mesa** {version}: {games}.\n"
        "En marcha desde hace {uptime}, en {servers}; {shards}.\n"
        "Invítalo a otro servidor: <{invite}>"
    ),
    "about.servers.one": "{n} servidor",
    "about.servers.other": "{n} servidores",
    "about.shards_all.one": "{n} fragmento de conexión (shard)",
    "about.shards_all.other": "{n} fragmentos de conexión (shards)",
    "about.shards_some.one": "este proceso lleva el fragmento (shard) {ids} de {count}",
    "about.shards_some.other": "este proceso lleva los fragmentos (shards) {ids} de {count}",
    "about.days_hours": "{d} d {h} h",
    "about.hours_minutes": "{h} h {m} min",
    "about.minutes": "{m} min",
}

COMMANDS: dict[str, str] = {
    "What this bot is, how long it has run, and how to invite it": (
        "Qué es este bot, cuánto lleva en marcha y cómo invitarlo"
    ),
}
