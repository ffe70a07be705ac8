"""English messages of user installs (``bot/services/reach.py``, ``bot/ui/installs.py``): games in DMs and group
DMs where the bot is not a member."""

MESSAGES: dict[str, str] = {
    "uinst.about": "\nTo play in DMs and group DMs, add the app to your own account: <{url}>",
    "uinst.busy": (
        "A game is already running in this conversation: finish it (or resign) before opening another one here."
    ),
    "uinst.carried": "The game went on since the last board here; this is where it stands.",
    "uinst.help": (
        "\n**In DMs and group DMs** (add the app to your account with the invite link of `/about`): {commands}. "
        "Challenge someone there, or give only `level:` to play the AI, and play from the selects under the board. "
        "The bot is not a member of those conversations, so it only answers: each board comes as the answer to a "
        "player's command or click (or follows it within 15 minutes). A board that could not go out then (the AI "
        "or a clock moved the game later) comes with the next click or the game's `board` command. No threads "
        "and no reminders in the conversation: only turn alerts by DM, if you turned them on with `/mysettings`. "
        "These games are rated apart from every server's leaderboard."
    ),
}

COMMANDS: dict[str, str] = {}
