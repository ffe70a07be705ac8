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
    "me.alerts_on": "Turn alerts by DM: **on** (one DM when a game waits for your move; `/mysettings alerts:off`).",
    "me.alerts_off": "Turn alerts by DM: **off** (`/mysettings alerts:on` for a DM when a game waits for you).",
    "me.alerts_hello": "Turn alerts are on: I will DM you here when a game waits for your move.",
    "me.alerts_closed": (
        "I could not send you a DM, so turn alerts stay **off**. Allow direct messages from this server's members "
        "(the server's menu, Privacy Settings), then try `/mysettings alerts:on` again."
    ),
    "me.alerts_failed": (
        "Your turn alerts were turned off because a DM could not reach you (your DMs are closed). Open them, then "
        "`/mysettings alerts:on`."
    ),
    "alert.turn": "Your move in {game} **#{game_id}** on **{server}**: {link}",
    "err.own_open_challenge": "This is your own open challenge: wait for someone to accept it, or withdraw it.",
    "err.open_not_declinable": "This is an open challenge: anyone may accept it; only its author can withdraw it.",
    "watch.head": "**#{game_id}** {game}, as it stands now · [go to the game]({link})",
}
