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
    "err.forged_component": (
        "This button or menu carries values I never put on it, so I did not act on it: nothing was changed. "
        "Use the buttons on the game's latest message."
    ),
    "err.unknown_component": (
        "This button or menu is not one of mine (or no longer exists): nothing was changed. "
        "Use the buttons on the game's latest message, or the game's commands."
    ),
    "err.bad_payload": (
        "The option {option} does not hold a value this command takes (is your Discord app up to date?): "
        "nothing was changed."
    ),
    "err.bad_choice": "The option {option} takes one of: {choices}. Nothing was changed.",
    "err.unresolved": "I cannot find the {option} you gave in this server: nothing was changed.",
    "err.unknown_command": ("I do not know this command (any more): nothing was changed. Type / to see my commands."),
    "games.head_page": "**Open games in this server: {n}** · page {page} of {pages}",
    "ui.page_prev": "◀ Previous",
    "ui.page_next": "Next ▶",
    "lb.page": "Page {page}",
    "cap.member": (
        "You have {count} open games in this server (limit {limit}): finish or /abandon one first. Nothing was opened."
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
