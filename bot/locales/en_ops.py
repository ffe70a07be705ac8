"""English messages of the bot's operations (restarts); kept apart from the games' keys."""

MESSAGES: dict[str, str] = {
    "err.restarting": "I am restarting right now, so nothing was done. Please try again in a few seconds.",
}
