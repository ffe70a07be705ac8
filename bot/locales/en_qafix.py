"""English messages of the QA fixes (branch qafix): the daily puzzle's channel permissions, tournament pairings
whose game can never open."""

MESSAGES: dict[str, str] = {
    "pz.daily_missing_perms": (
        "I cannot post the daily puzzle in <#{channel}>: I am missing {perms} there. A server admin can grant them "
        "to me in the channel's settings (Edit Channel → Permissions), then try again. Nothing was changed."
    ),
}
