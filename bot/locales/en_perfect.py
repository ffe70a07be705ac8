"""English words of issue 25's perfect AI level and of a player's records in ``/stats``."""

MESSAGES: dict[str, str] = {
    "ai.level_perfect": "perfect",
    "stats.records_with": "  against {opponent}: {wins}W {losses}L {draws}D",
    "stats.records_places": "  against {opponent}: ahead of them {wins} · behind {losses} · level {draws}",
    "stats.records_with_none": "  against {opponent}: no finished game together yet.",
    "stats.streak": "  best win streak against people: {n}",
    "stats.by_option_layout": "  by round 1's layout (against people · against the AI):",
    "stats.by_option": "  by {option} (against people · against the AI):",
    "stats.option_row": "    {value}: {wins}W {losses}L {draws}D · {ai_wins}W {ai_losses}L {ai_draws}D",
    "stats.layout_custom": "custom layouts",
    "stats.option_unknown": "older games (not recorded)",
    "stats.no_games": "**{game}**: no finished game yet.",
    "err.stats_self": "Pick another player as the opponent: nobody has a record against themselves.",
}

COMMANDS: dict[str, str] = {}
