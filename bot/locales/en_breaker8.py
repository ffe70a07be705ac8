"""English messages of the QA fixes of branch ``breaker8``: a game command in a busy thread (Discord opens no thread
in a thread, so no permission would help); an action on an aborted game (no result card, no rematch)."""

MESSAGES: dict[str, str] = {
    "lobby.stale": "The lobby changed since you looked (another click came first): nothing was added. Look again.",
    "err.game_aborted": "This game was aborted; nothing more can be played in it. Start a new one to play on.",
    "err.channel_busy_in_thread": (
        "This thread already has a game in progress, and a thread cannot hold a thread of its own: finish that game "
        "first, or start yours in <#{parent}>."
    ),
    "err.channel_busy_not_text": (
        "This channel already has a game in progress and games cannot get a thread of their own here: finish it "
        "first, or start yours in a text channel."
    ),
}

COMMANDS: dict[str, str] = {}
