"""English messages of the QA fixes (branch ``breaker``): ranges the commands check themselves (a forged payload
may carry any number: ``bot/ui/payloads.py`` leaves ranges to the commands), the live table's forged messages."""

MESSAGES: dict[str, str] = {
    "tourney.bad_rounds": "A Swiss tournament plays {min} to {max} rounds, not {value}. Nothing was changed.",
    "pz.bad_hour": "The hour is a whole hour of the day, {min} to {max} (UTC), not {value}. Nothing was changed.",
    "live.bad_message": (
        "The table did not understand what the page sent (a forged or outdated page?): reload it. Nothing was changed."
    ),
    "live.one_at_a_time": "One request at a time: the table is still answering your last one.",
}

COMMANDS: dict[str, str] = {}
