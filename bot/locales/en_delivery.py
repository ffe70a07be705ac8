"""English messages of delivery (issue 13): the bot's channel permissions, boards it could not post, answers
after a failure that say what was saved."""

MESSAGES: dict[str, str] = {
    "list.and": "{head} and {last}",
    "perm.view_channel": "View Channel",
    "perm.send_messages": "Send Messages",
    "perm.send_messages_in_threads": "Send Messages in Threads",
    "perm.attach_files": "Attach Files",
    "perm.create_public_threads": "Create Public Threads",
    "err.missing_perms": (
        "I cannot run a game in this channel: I am missing {perms} here. A server admin can grant them to me in "
        "the channel's settings (Edit Channel → Permissions), then try again."
    ),
    # by the number of permissions missing (``count``; bot.errors.describe picks the form): "grant it" for one
    "err.missing_perms.one": (
        "I cannot run a game in this channel: I am missing {perms} here. A server admin can grant it to me in "
        "the channel's settings (Edit Channel → Permissions), then try again."
    ),
    "err.missing_perms.other": (
        "I cannot run a game in this channel: I am missing {perms} here. A server admin can grant them to me in "
        "the channel's settings (Edit Channel → Permissions), then try again."
    ),
    "storage.Busy": (
        "My database is busy: another process kept it locked too long, so your action was not applied. "
        "Try again in a moment."
    ),
    "pub.not_posted": "I could not post this in the channel (missing {perms}), so here it is:",
    "pub.blocked": (
        "⚠ I could not post this game's boards in the channel (missing {perms}): until a server admin grants it, "
        "they come with your own actions."
    ),
    "pub.text_board": "(board as text: I may not attach images here)",
    "pub.text_board_large": "(board as text: Discord refused the picture's size here)",
    "pub.picture_left_out": "(picture left out: Discord refused its size here; the text says the same)",
    "rec.replay_too_large": "(the replay is larger than this server accepts for uploads, {mib} MiB: left out)",
    "pub.smaller": "(a smaller picture: Discord refused the full-size one here)",
    "pub.not_posted_why": "I could not post this in the channel ({why}), so here it is:",
    "pub.blocked_why": (
        "⚠ I could not post this game's boards in the channel ({why}): until that changes, they come with your "
        "own actions."
    ),
    "why.perms": "missing {perms}",
    "why.access": "I can no longer see the channel",
    "why.archived": "the thread is archived",
    "why.locked": "the thread is locked",
    "why.gone": "the channel no longer exists",
    "err.after_commit": (
        "Your action was saved, but something went wrong on my side while showing it. "
        "Use the board command to see the game as it is now."
    ),
    "pub.board_in_channel": "Your action was saved; its board is posted in the channel.",
}
