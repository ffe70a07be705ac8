"""English messages of a server's house rules (``bot/services/house.py``, ``/settings``: channels, games on and off,
rated games, blocked members, resetting ratings) and of a player's own language (``/mysettings language``)."""

MESSAGES: dict[str, str] = {
    "house.chosen_note": "Not rated: a casual game.",
    "res.not_rated_chosen": "Not rated (a casual game).",
    "house.reset_answered": "This question was already answered (see above): nothing more was changed.",
    "house.blocked": "An admin of this server has blocked you from starting or joining games here.",
    "house.blocked_other": "{user} may not play games in this server (an admin blocked them): challenge someone else.",
    "house.game_off": "{game} is turned off in this server. An admin can turn it back on with `/settings game_on`.",
    "house.channel": "Games are played only in {channels} in this server: start yours there.",
    "house.show_channels": "Games may start only in: {channels}.",
    "house.show_anywhere": "Games may start in any channel.",
    "house.show_games": "Games on: {on}. Turned off: {off}.",
    "house.show_rated": "New games are rated: {value}.",
    "house.rated_on": "yes",
    "house.rated_off": "no (results count, ratings do not move)",
    "house.show_blocked": "Blocked from playing here: {users}.",
    "house.show_blocked_none": "Nobody is blocked from playing here.",
    "house.too_many_channels": "The list holds at most {max} channels: remove one first.",
    "house.too_many_blocked": "At most {max} members can be blocked: unblock one first.",
    "house.block_bot": "The bot itself cannot be blocked.",
    "house.reset_none": "Nobody has a {game} rating in this server: there is nothing to reset.",
    "house.reset_ask.one": (
        "Reset every {game} rating of this server? {n} player will lose their rating and start again from {start} "
        "at their next rated game; the leaderboard empties, finished games stay in everyone's history. "
        "This cannot be undone."
    ),
    "house.reset_ask.other": (
        "Reset every {game} rating of this server? {n} players will lose their rating and start again from {start} "
        "at their next rated game; the leaderboard empties, finished games stay in everyone's history. "
        "This cannot be undone."
    ),
    "house.reset_done.one": "The {game} ratings of this server were reset: {n} player starts again from {start}.",
    "house.reset_done.other": "The {game} ratings of this server were reset: {n} players start again from {start}.",
    "house.reset_cancelled": "Cancelled: no rating was changed.",
    "house.reset_button": "Reset the ratings",
    "house.cancel_button": "Cancel",
    "house.unrated_note": "Not rated: this server plays unrated games.",
    "res.not_rated_casual": "Not rated (this server plays unrated games).",
    "me.language_auto": "Language: your Discord's (`/mysettings language:en` or `es` to choose one).",
    "me.language_en": "Language: **English**, whatever your Discord uses (`/mysettings language:auto` to follow it).",
    "me.language_es": "Language: **Spanish**, whatever your Discord uses (`/mysettings language:auto` to follow it).",
}

COMMANDS: dict[str, str] = {}
