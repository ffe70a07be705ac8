"""English messages of ``/about`` (bot/cogs/about.py)."""

MESSAGES: dict[str, str] = {
    "about.text": (
        "**Table games bot** {version}: {games}.\n"
        "Running for {uptime}, in {servers}; {shards}.\n"
        "Invite it to another server: <{invite}>"
    ),
    "about.servers.one": "{n} server",
    "about.servers.other": "{n} servers",
    "about.shards_all.one": "{n} shard",
    "about.shards_all.other": "{n} shards",
    "about.shards_some.one": "this process runs shard {ids} of {count}",
    "about.shards_some.other": "this process runs shards {ids} of {count}",
    "about.days_hours": "{d} d {h} h",
    "about.hours_minutes": "{h} h {m} min",
    "about.minutes": "{m} min",
}
