"""English messages of the quick-match queues (``/play``, ``bot/services/matchqueue.py``)."""

MESSAGES: dict[str, str] = {
    "queue.seats_fixed": "{game} is played by {max} players: leave out `seats`.",
    "queue.seats": "A table has {min} to {max} players.",
    "queue.moved": "You left the {game} queue ({seats} players) for this one: a player waits in one queue at a time.",
    "queue.waiting.one": (
        "You are queued for **{game}** ({seats} players): nobody else waits yet. You will be mentioned when "
        "your game is formed."
    ),
    "queue.waiting.other": (
        "You are queued for **{game}** ({seats} players): {n} players wait, you included. You will be mentioned "
        "when your game is formed."
    ),
    "queue.bots_after": "If nobody else comes within {seconds} s, the free seats go to AI players.",
    "queue.thread_title": "{game}: {players}",
    "queue.no_ai": "No AI seat is free for {game} here.",
    "queue.paired": "{players}: your quick match is ready! **{game}** (game {game_id}): {link}",
    "queue.leave_button": "Leave the queue",
    "queue.left": "You left the {game} queue.",
    "queue.not_queued": "You are not in a quick-match queue: `/play join` joins one.",
}

COMMANDS: dict[str, str] = {}
