"""Spanish words of issue 25's perfect AI level and of a player's records in ``/stats``."""

MESSAGES: dict[str, str] = {
    "ai.level_perfect": "perfecta",
    "stats.records_with": "  contra {opponent}: {wins}V {losses}D {draws}E",
    "stats.records_places": "  contra {opponent}: por delante {wins} · por detrás {losses} · empatados {draws}",
    "stats.records_with_none": "  contra {opponent}: ninguna partida terminada juntos todavía.",
    "stats.streak": "  mejor racha de victorias contra personas: {n}",
    "stats.by_option_layout": "  por tablero de la ronda 1 (contra personas · contra la IA):",
    "stats.by_option": "  por {option} (contra personas · contra la IA):",
    "stats.option_row": "    {value}: {wins}V {losses}D {draws}E · {ai_wins}V {ai_losses}D {ai_draws}E",
    "stats.layout_custom": "tableros propios",
    "stats.option_unknown": "partidas antiguas (sin registrar)",
    "stats.no_games": "**{game}**: ninguna partida terminada todavía.",
    "err.stats_self": "Elige a otro jugador como rival: nadie tiene resultados contra sí mismo.",
}

COMMANDS: dict[str, str] = {
    "perfect": "perfecta",
    "Head-to-head: results against this player": "Cara a cara: resultados contra este jugador",
}
