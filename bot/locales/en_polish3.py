"""English messages of ``/settings`` options that change nothing (``bot/ui/settings_same.py``), of refusing to
block oneself, and of a game thread's name once its seats are taken (``bot/services/footprint.py``)."""

MESSAGES: dict[str, str] = {
    "same.option": "`{option}` is already {value}: nothing changed.",
    "same.channel_listed": "{channel} is already on the list of channels where games may start: nothing changed.",
    "same.channel_not_listed": "{channel} is not on the list of channels where games may start: nothing changed.",
    "same.anywhere": "Games may already start in any channel: nothing changed.",
    "same.game_on": "{game} is already on: nothing changed.",
    "same.game_off": "{game} is already off: nothing changed.",
    "same.rated_on": "New games are already rated: nothing changed.",
    "same.rated_off": "New games are already unrated: nothing changed.",
    "same.blocked": "{user} is already blocked: nothing changed.",
    "same.not_blocked": "{user} is not blocked: nothing changed.",
    "same.nothing": "Nothing was changed.",
    "house.block_self": "You cannot block yourself. Nothing was changed.",
    "foot.thread_title": "{game}: {a} vs {b}",
    "settings.both_game": "`game_on` and `game_off` both name {game}: on or off, not both. Nothing was changed.",
    "settings.both_channel": (
        "`allow_channel` and `remove_channel` both name {channel}: allow or remove, not both. Nothing was changed."
    ),
    "settings.both_member": "`block` and `unblock` both name {user}: block or unblock, not both. Nothing was changed.",
    "settings.any_and_channel": (
        "`any_channel:true` lets games start in every channel, so it cannot go with `{option}` in the same command. "
        "Nothing was changed."
    ),
}

COMMANDS: dict[str, str] = {}
