"""English messages of a game's footprint in its channel (``bot/services/footprint.py``): a thread per game, the
result card in the channel, the ``/settings thread_per_game`` option."""

MESSAGES: dict[str, str] = {
    "lobby.own_thread": "The game has a thread of its own: {thread}.",
    "foot.result": "{game} in {thread} is over.",
    "settings.thread_per_game": "Each new game gets a thread of its own: {value}.",
    "settings.on": "on",
    "settings.off": "off (games stay in the channel)",
}

COMMANDS: dict[str, str] = {}
