"""English messages of the QA fixes (branch qafix): the daily puzzle's channel permissions, tournament pairings
whose game can never open."""

MESSAGES: dict[str, str] = {
    "pz.daily_missing_perms": (
        "I cannot post the daily puzzle in <#{channel}>: I am missing {perms} there. A server admin can grant them "
        "to me in the channel's settings (Edit Channel → Permissions), then try again. Nothing was changed."
    ),
    "pz.daily_missing_perms.one": (
        "I cannot post the daily puzzle in <#{channel}>: I am missing {perms} there. A server admin can grant it "
        "to me in the channel's settings (Edit Channel → Permissions), then try again. Nothing was changed."
    ),
    "pz.daily_missing_perms.other": (
        "I cannot post the daily puzzle in <#{channel}>: I am missing {perms} there. A server admin can grant them "
        "to me in the channel's settings (Edit Channel → Permissions), then try again. Nothing was changed."
    ),
    "tq.not_played": "{game} tournament, round {round}, board {board}: {a} vs {b} cannot be played: {why}",
    "tq.forfeit": "{loser} loses it by forfeit; {winner} scores the win. The round goes on.",
    "tq.unplayed": "Nobody scores for it. The round goes on.",
    "tq.why_blocked": "{user} is blocked from games on this server.",
    "tq.why_left": "{user} is no longer a member of this server.",
    "tq.why_game_off": "{game} is turned off on this server.",
    "tq.why_channel": "games may no longer be played in this channel.",
    "tq.forfeit_line": "Board {board}: {a} vs {b}, not played: {winner} wins by forfeit",
    "tq.unplayed_line": "Board {board}: {a} vs {b}, not played (nobody scores)",
    "tq.stuck_head": (
        "**Round {round}: these games have still not opened after {tries} tries** ({organiser}, you organise this "
        "tournament):"
    ),
    "tq.stuck_line": "Board {board}: {a} vs {b}: {why}",
    "tq.stuck_cap_server": (
        "this server has {count} open games, its limit is {limit} (admins: /settings games_per_server)"
    ),
    "tq.stuck_cap_member": "{player} has {count} open games, the limit per member is {limit}",
    "tq.stuck_cap_threads": "this server has {count} games in threads I opened, its limit is {limit}",
    "tq.stuck_other": "I could not post the game here (the bot's log says why; check my permissions in this channel)",
    "tq.stuck_storage_full": (
        "I could not save the game: my database's disk is full (the bot's operator has to free space)"
    ),
    "tq.stuck_storage_readonly": (
        "I could not save the game: my database is read-only (the bot's operator has to make it writable)"
    ),
    "tq.stuck_storage_gone": "I could not save the game: I cannot reach my database",
    "tq.stuck_storage_busy": "I could not save the game: my database stayed busy",
    "tq.stuck_foot": (
        "I keep trying them every {every} until they open, and at once when another game of this tournament ends. "
        "Nothing was scored for them."
    ),
    "tq.every_s.one": "{n} second",
    "tq.every_s.other": "{n} seconds",
    "tq.every_min": "{n} minutes",
}
