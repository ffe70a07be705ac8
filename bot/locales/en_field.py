"""English messages of issue 22: database failures named, caps on open games, forged or unknown components."""

MESSAGES: dict[str, str] = {
    "storage.full": (
        "My database's disk is full, so I could not save anything: your action was not applied. "
        "The bot's operator has to free some space; then try again."
    ),
    "storage.readonly": (
        "My database is read-only right now, so I could not save anything: your action was not applied. "
        "The bot's operator has to make it writable again; then try again."
    ),
    "storage.gone": (
        "I cannot reach my database right now, so nothing was read or saved: your action was not applied. "
        "Try again in a moment."
    ),
    "cap.member": (
        "You have {count} open games in this server (limit {limit}): finish or /abandon one first. "
        "Nothing was opened."
    ),
    "cap.server": (
        "This server already has {count} open games (limit {limit}, set by its admins with /settings): wait until "
        "one ends. Nothing was opened."
    ),
    "cap.threads": (
        "This channel is busy and this server already has {count} games in threads I opened (limit {limit}): "
        "play in a free channel or finish a game first. Nothing was opened."
    ),
    "settings.caps": (
        "Open games: at most {member} per member and {server} in the server; at most {threads} in threads I open."
    ),
    "settings.bad_cap": "That limit must be {min}-{max}, not {value}. Nothing was changed.",
}

COMMANDS: dict[str, str] = {}
