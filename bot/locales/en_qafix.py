"""English messages of the QA fixes (branch qafix): the daily puzzle's channel permissions, tournament pairings
whose game can never open."""

MESSAGES: dict[str, str] = {
    "pz.daily_missing_perms": (
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
}
