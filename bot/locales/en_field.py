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
}
