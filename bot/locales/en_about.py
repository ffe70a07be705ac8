"""English messages of ``/about`` (bot/cogs/about.py)."""

MESSAGES: dict[str, str] = {
    "about.text": (
        "**Table games bot** {version}: {games}.\n"
        "Running for {uptime}, in {servers} server(s); {shards}.\n"
        "Invite it to another server: <{invite}>"
    ),
    "about.shards_all": "{count} shard(s)",
    "about.shards_some": "this process runs shard(s) {ids} of {count}",
    "about.days_hours": "{d} d {h} h",
    "about.hours_minutes": "{h} h {m} min",
    "about.minutes": "{m} min",
}
