"""English messages of ``/mygames`` and watching a game (bot/ui/watch.py)."""

MESSAGES: dict[str, str] = {
    "mine.none": "You have no open game in this server. Start one with {starts}.",
    "mine.head": "**Your open games here: {n}** · waiting for you: {turns}",
    "mine.row": "**#{game_id}** {game} in {channel} against {against}: {state} · [go to the board]({link})",
    "mine.waiting": "waiting for players",
    "mine.your_turn": "**your turn**",
    "mine.their_turn": "{who} to move",
    "mine.time_left": "time runs out {when}",
    "ui.watch": "Watch a game…",
    "err.own_open_challenge": "This is your own open challenge: wait for someone to accept it, or withdraw it.",
    "watch.head": "**#{game_id}** {game}, as it stands now · [go to the game]({link})",
}
