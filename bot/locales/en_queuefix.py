"""English messages of the quick-match queue's repairs (``bot/services/matchqueue.py``): why a player was taken out
of a queue without asking (told the next time they use ``/play``), and a join while one's match is opening."""

MESSAGES: dict[str, str] = {
    "queuefix.dropped_blocked": (
        "You were taken out of the {game} queue: this server's settings no longer let you play games here."
    ),
    "queuefix.dropped_game_off": "You were taken out of the {game} queue: {game} was turned off in this server.",
    "queuefix.dropped_channel": (
        "You were taken out of the {game} queue: games may no longer be played in the channel where you queued."
    ),
    "queuefix.dropped_cap": (
        "You were taken out of the {game} queue: you already had as many open games as this server allows."
    ),
    "queuefix.dropped_other": "You were taken out of the {game} queue.",
    "queuefix.pairing": "Your quick match is opening right now: you will be mentioned in a moment.",
}
